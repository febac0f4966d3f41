"""score sheets: a read-only watch code for the share link

Revision ID: b3c9e1f4a2d7
Revises: b41c2e7d9a10
Create Date: 2026-11-30 18:40:00

The sheet's own code lets a phone edit the sheet, so the share link carries a separate
code that only shows it. Existing sheets get theirs the first time their page is shown.
"""

import sqlalchemy as sa
from alembic import op

revision = "b3c9e1f4a2d7"
down_revision = "b41c2e7d9a10"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.add_column(sa.Column("watch_code", sa.String(length=32), nullable=True))
        batch.create_index("ix_score_sheet_watch_code", ["watch_code"], unique=True)


def downgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.drop_index("ix_score_sheet_watch_code")
        batch.drop_column("watch_code")

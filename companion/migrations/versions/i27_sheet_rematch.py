"""score sheets: the code of the rematch a finished sheet started (issue 27)

Revision ID: i27_sheet_rematch
Revises: i27_groups

"""

import sqlalchemy as sa
from alembic import op

revision = "i27_sheet_rematch"
down_revision = "i27_groups"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.add_column(sa.Column("rematch_code", sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.drop_column("rematch_code")

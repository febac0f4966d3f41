"""score sheets: the round in progress, entered step by step (issue 11, part C)

Revision ID: i11c_round_in_progress
Revises: b3c9e1f4a2d7

"""

import sqlalchemy as sa
from alembic import op

revision = "i11c_round_in_progress"
down_revision = "b3c9e1f4a2d7"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.add_column(sa.Column("pending", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.drop_column("pending")

"""score sheets: whether an added round went through a sealed step's reveal, so that undo
stops only at such a round (a round the keeper entered whole may be undone)

Revision ID: i29_change_revealed
Revises: i28_sheet_seat_requests

"""

import sqlalchemy as sa
from alembic import op

revision = "i29_change_revealed"
down_revision = "i28_sheet_seat_requests"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_change") as batch:
        batch.add_column(sa.Column("revealed", sa.Boolean(), nullable=True))


def downgrade():
    with op.batch_alter_table("score_change") as batch:
        batch.drop_column("revealed")

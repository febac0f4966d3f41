"""score sheets: requests for a name a phone already holds ("I am Ada"), answered by that
phone or the keeper (issue 28)

Revision ID: i28_sheet_seat_requests
Revises: i28_sheet_phones

"""

import sqlalchemy as sa
from alembic import op

revision = "i28_sheet_seat_requests"
down_revision = "i28_sheet_phones"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.add_column(sa.Column("seat_requests", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.drop_column("seat_requests")

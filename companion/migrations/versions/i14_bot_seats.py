"""seats played by a bot: its level and its own seed (issue 14)

Revision ID: i14_bot_seats
Revises: i11c_round_in_progress

"""

import sqlalchemy as sa
from alembic import op

revision = "i14_bot_seats"
down_revision = "i11c_round_in_progress"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("bot", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("bot_seed", sa.BigInteger(), nullable=True))


def downgrade():
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("bot_seed")
        batch.drop_column("bot")

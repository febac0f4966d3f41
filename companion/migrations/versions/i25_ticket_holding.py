"""tickets: the holding of the seat (or host role) each belongs to, and who issued it
(issue 25: a ticket, a rejoin code or an approved request dies when its seat changes
hands; a seat's own link and the host's code for it never cancel each other)

Revision ID: i25_ticket_holding
Revises: i25_seat_name_key

"""

import sqlalchemy as sa
from alembic import op

revision = "i25_ticket_holding"
down_revision = "i25_seat_name_key"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("table_ticket") as batch:
        batch.add_column(sa.Column("holding", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("issued_by", sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table("table_ticket") as batch:
        batch.drop_column("issued_by")
        batch.drop_column("holding")

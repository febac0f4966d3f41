"""seats: the name case-folded, unique per table (issue 25: "Ann" and "ANN" at once)

Revision ID: i25_seat_name_key
Revises: i14_bot_seats

"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "i25_seat_name_key"
down_revision = "i14_bot_seats"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("name_key", sa.String(length=160), nullable=True))
    # Filled in Python: the key is ``str.casefold``, as the app compares names (SQL's
    # lower() folds fewer letters). Names a race stored twice before this key existed
    # keep one seat's plain key; the others get their seat number after it.
    conn = op.get_bind()
    seats = sa.table(
        "seat",
        sa.column("id", sa.Integer),
        sa.column("table_id", sa.Integer),
        sa.column("index", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
    )
    seen: dict[int, set[str]] = defaultdict(set)
    rows = conn.execute(sa.select(seats.c.id, seats.c.table_id, seats.c.index, seats.c.name))
    for seat_id, table_id, index, name in rows.fetchall():
        key = name.casefold()
        if key in seen[table_id]:
            key = f"{key} #{index + 1}"
        seen[table_id].add(key)
        conn.execute(seats.update().where(seats.c.id == seat_id).values(name_key=key))
    with op.batch_alter_table("seat") as batch:
        batch.alter_column("name_key", existing_type=sa.String(length=160), nullable=False)
        batch.create_unique_constraint("uq_seat_table_id_name_key", ["table_id", "name_key"])


def downgrade():
    with op.batch_alter_table("seat") as batch:
        batch.drop_constraint("uq_seat_table_id_name_key", type_="unique")
        batch.drop_column("name_key")

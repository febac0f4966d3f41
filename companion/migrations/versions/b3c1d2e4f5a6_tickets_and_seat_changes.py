"""tickets (seat requests, transfer links), seat changes, seat news on the table

Revision ID: b3c1d2e4f5a6
Revises: b4c1d2e3f405
Create Date: 2026-11-30 18:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b3c1d2e4f5a6"
down_revision = "b4c1d2e3f405"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seat_news", sa.JSON(), nullable=True))
    op.create_table(
        "table_ticket",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("ticket_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("ticket_hash"),
    )
    op.create_table(
        "seat_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("how", sa.String(length=16), nullable=False),
        sa.Column("old_token_hash", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("seat_change", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_seat_change_old_token_hash"), ["old_token_hash"], unique=False
        )


def downgrade():
    with op.batch_alter_table("seat_change", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_change_old_token_hash"))
    op.drop_table("seat_change")
    op.drop_table("table_ticket")
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.drop_column("seat_news")

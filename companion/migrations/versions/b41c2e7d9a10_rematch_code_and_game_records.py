"""rematch code and last undo on a table, and records of finished games

Revision ID: b41c2e7d9a10
Revises: b3c1d2e4f5a6
Create Date: 2026-12-01 18:30:00

"""

import sqlalchemy as sa
from alembic import op


revision = "b41c2e7d9a10"
down_revision = "b3c1d2e4f5a6"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("rematch_code", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("last_undo", sa.JSON(), nullable=True))
    op.create_table(
        "game_record",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id"),
    )
    with op.batch_alter_table("game_record") as batch:
        batch.create_index(batch.f("ix_game_record_code"), ["code"], unique=False)


def downgrade():
    with op.batch_alter_table("game_record") as batch:
        batch.drop_index(batch.f("ix_game_record_code"))
    op.drop_table("game_record")
    with op.batch_alter_table("game_table") as batch:
        batch.drop_column("last_undo")
        batch.drop_column("rematch_code")

"""groups: players who play together, and the score sheets and Play games gathered for them (issue 27)

Revision ID: i27_groups
Revises: i25_ticket_holding

"""

import sqlalchemy as sa
from alembic import op

revision = "i27_groups"
down_revision = "i25_ticket_holding"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "play_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("members", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("play_group") as batch:
        batch.create_index(batch.f("ix_play_group_code"), ["code"], unique=True)
    op.create_table(
        "group_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=True),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["play_group.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheet.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["record_id"], ["game_record.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("group_id", "sheet_id"),
        sa.UniqueConstraint("group_id", "record_id"),
    )


def downgrade():
    op.drop_table("group_game")
    with op.batch_alter_table("play_group") as batch:
        batch.drop_index(batch.f("ix_play_group_code"))
    op.drop_table("play_group")

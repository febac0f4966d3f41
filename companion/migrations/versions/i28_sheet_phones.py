"""score sheets joined by every phone at the table (issue 28): the sheet's join code, the
step in progress entered box by box (sealed entries included) and the players' seats

Revision ID: i28_sheet_phones
Revises: i27_offline_sync

"""

import sqlalchemy as sa
from alembic import op

revision = "i28_sheet_phones"
down_revision = "i27_offline_sync"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.add_column(sa.Column("join_code", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("open_boxes", sa.JSON(), nullable=True))
        batch.create_index("ix_score_sheet_join_code", ["join_code"], unique=True)
    op.create_table(
        "score_seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheet.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sheet_id", "index"),
        sa.UniqueConstraint("token_hash"),
    )


def downgrade():
    op.drop_table("score_seat")
    with op.batch_alter_table("score_sheet") as batch:
        batch.drop_index("ix_score_sheet_join_code")
        batch.drop_column("open_boxes")
        batch.drop_column("join_code")

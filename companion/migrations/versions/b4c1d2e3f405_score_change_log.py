"""score sheets: the change log (undo and redo of the last change)

Revision ID: b4c1d2e3f405
Revises: 7af8fcde7f1a
Create Date: 2026-12-01 18:20:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b4c1d2e3f405"
down_revision = "7af8fcde7f1a"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "score_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("label", sa.String(length=80), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheet.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sheet_id", "seq"),
    )


def downgrade():
    op.drop_table("score_change")

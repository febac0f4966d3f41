"""score sheets: the changes sent with an idempotency key and their answers (issue 27)

Revision ID: i27_score_requests
Revises: i27_sheet_rematch

"""

import sqlalchemy as sa
from alembic import op

revision = "i27_score_requests"
down_revision = "i27_sheet_rematch"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "score_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("message", sa.String(length=300), nullable=False),
        sa.Column("anchor", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["score_sheet.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sheet_id", "key"),
    )


def downgrade():
    op.drop_table("score_request")

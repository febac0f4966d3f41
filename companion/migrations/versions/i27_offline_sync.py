"""score sheets offline: what each kept change was (a digest) and made (its logged change),
and the key a sheet started offline was created under (issue 27)

Revision ID: i27_offline_sync
Revises: i27_score_requests

"""

import sqlalchemy as sa
from alembic import op

revision = "i27_offline_sync"
down_revision = "i27_score_requests"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("score_request") as batch:
        batch.add_column(sa.Column("digest", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("change_seq", sa.Integer(), nullable=True))
    with op.batch_alter_table("score_sheet") as batch:
        batch.add_column(sa.Column("start_key", sa.String(length=64), nullable=True))
        batch.create_unique_constraint("uq_score_sheet_start_key", ["start_key"])


def downgrade():
    with op.batch_alter_table("score_sheet") as batch:
        batch.drop_constraint("uq_score_sheet_start_key", type_="unique")
        batch.drop_column("start_key")
    with op.batch_alter_table("score_request") as batch:
        batch.drop_column("change_seq")
        batch.drop_column("digest")

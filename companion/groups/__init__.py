"""Groups: players who play together, their score sheets and Play games gathered into
standings per game, head-to-head and a chart. No accounts: a group is a shareable code."""

from . import models  # noqa: F401  (the tables, for the schema)
from .routes import bp

__all__ = ["bp"]

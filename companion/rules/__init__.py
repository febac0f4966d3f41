"""Rules quick-reference blueprint (``/rules``): see :mod:`companion.rules.routes`."""

from .anchors import ANCHORS, rule_url
from .routes import bp

__all__ = ["ANCHORS", "bp", "rule_url"]

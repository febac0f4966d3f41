"""Rules quick-reference blueprint (``/rules``): see :mod:`companion.rules.routes`."""

from .routes import bp

__all__ = ["bp"]

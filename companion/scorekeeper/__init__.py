"""Score mode: one phone keeps the score sheet of a game played with a physical deck."""

from .routes import bp

__all__ = ["bp"]

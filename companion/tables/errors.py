"""The domain error of Play mode: a request the table refuses, with its HTTP status.

Every use case raises :class:`TableError` for what the user can fix or must be told; the
API answers it as JSON (``api.error_response``) and the pages as a message.
"""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def changed_meanwhile(version: int | None) -> TableError:
    """The answer to a change made on an older version than the table's (``version``,
    when known)."""
    if version is None:
        return TableError(409, "The table changed in the meantime; look again.")
    message = "The table changed in the meantime; here is the current version."
    return TableError(409, message, version=version)


def no_table() -> TableError:
    return TableError(404, "There is no table with that code.")


def whole_seat(seat: Any) -> int:
    """``seat`` when it is a whole number (not a boolean), else a 400."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError(400, "A seat must be a whole number.")
    return seat

"""The one cleaner of a player's name, shared by Play mode (seats) and score mode (sheets).

It raises :class:`BadName` with a message for the player; each caller maps it to its own
error (Play mode's ``TableError`` 400, a form error in score mode).
"""

from __future__ import annotations

import unicodedata
from typing import Any

NAME_MAX = 24
ZWJ = "\u200d"
# Control, format (bidi overrides such as U+202E), surrogate, private-use and unassigned
# characters, and the line and paragraph separators: they can reverse, hide or break text.
REFUSED = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


class BadName(ValueError):
    """A name that cannot be used; ``str(error)`` is for the player."""


def clean_name(name: Any) -> str:
    """A player name: NFC, trimmed, runs of spaces made one, 1–24 characters (code
    points), no control or invisible formatting characters (the zero-width joiner that
    builds emoji such as a family or a flag-waving pirate is kept)."""
    if not isinstance(name, str):
        raise BadName("A name must be text.")
    name = unicodedata.normalize("NFC", name)
    if any(unicodedata.category(ch) in REFUSED and ch != ZWJ for ch in name):
        raise BadName("A name cannot contain control or invisible characters.")
    name = " ".join(name.split())
    if not name:
        raise BadName("Please enter a name.")
    if len(name) > NAME_MAX:
        raise BadName(f"A name can be at most {NAME_MAX} characters long.")
    return name

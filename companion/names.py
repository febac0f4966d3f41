"""The one cleaner of names and short texts people type: players' names in Play mode
(seats) and score mode (sheets), and the names and texts of a group's own score cards.

It raises :class:`BadName` with a message for the player; each caller maps it to its own
error (Play mode's ``TableError`` 400, a form error in score mode, a game's
``IllegalAction``). Nothing is stored when it raises.

What a name must be, after cleaning (NFC, trimmed, runs of spaces made one):

* no control or formatting character (NUL, BEL, bidi overrides such as U+202E, line
  separators…), except the zero-width joiner that builds emoji such as a family or a
  flag-waving pirate;
* something **visible**: at least one letter, digit or pictograph that is not one of the
  blank characters Unicode files as letters or symbols (the Hangul fillers U+115F,
  U+1160, U+3164, U+FFA0, the braille blank U+2800, the combining grapheme joiner U+034F
  and the other "default ignorable" characters), so no seat or column looks empty;
* for a person, not a bot's label: "Bot", "Bot (easy)", "BOT 3 (EASY)", "B0t", a name
  ending in a bot level in brackets such as "Ann (strong)" are how the app names its
  bots, so a person cannot pass for one (bots are named by the app, not through here).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

NAME_MAX = 24
ZWJ = "\u200d"
# Control, format (bidi overrides such as U+202E), surrogate, private-use and unassigned
# characters, and the line and paragraph separators: they can reverse, hide or break text.
REFUSED = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
# Characters filed as letters, marks or symbols that show nothing (Unicode's "default
# ignorable" code points outside the refused categories, and blank look-alikes).
BLANK = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0") | frozenset(
    chr(c) for c in [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
# What counts as visible: letters, digits and other numbers, pictographs (emoji).
VISIBLE = ("L", "N", "So")
# The bot levels' words (companion.bots.LEVELS, and room for the ones to come).
BOT_LEVELS = ("easy", "normal", "strong", "expert")
_BOT_LABEL = re.compile(
    r"^(?:b[o0]t\b.*|.*\((?:" + "|".join(BOT_LEVELS) + r")\))$", re.IGNORECASE | re.DOTALL
)


class BadName(ValueError):
    """A name that cannot be used; ``str(error)`` is for the player."""


def clean_text(text: Any, limit: int, what: str = "A name") -> str:
    """``text`` cleaned as the module says (visible, no control or formatting character),
    at most ``limit`` characters (code points). ``what`` names it in the messages, which
    begin with it ("A name", or "the name" after a caller's own words)."""
    if not isinstance(text, str):
        raise BadName(f"{what} must be text.")
    text = unicodedata.normalize("NFC", text)
    if any(unicodedata.category(ch) in REFUSED and ch != ZWJ for ch in text):
        raise BadName(f"{what} cannot contain control or invisible characters.")
    text = " ".join(text.split())
    if not text:
        raise BadName(f"Please enter {what.lower()}.")
    if len(text) > limit:
        raise BadName(f"{what} can be at most {limit} characters long.")
    if not any(visible(ch) for ch in text):
        raise BadName(f"{what} needs at least one letter, digit or emoji that shows.")
    return text


def visible(ch: str) -> bool:
    return ch not in BLANK and unicodedata.category(ch).startswith(VISIBLE)


def bot_like(name: str) -> bool:
    """Whether ``name`` reads as a bot's label (compared without case, widths or accents'
    compatibility forms: "ＢＯＴ" is "BOT")."""
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    # "Robin · bot": the friendly names the app gives its bots (tables/seats.py).
    return _BOT_LABEL.match(folded) is not None or folded.endswith("· bot")


def clean_name(name: Any) -> str:
    """A person's name: :func:`clean_text` at most ``NAME_MAX`` characters, not a bot's
    label."""
    name = clean_text(name, NAME_MAX)
    if bot_like(name):
        raise BadName(f"“{name}” is what the bots are called: choose another name.")
    return name

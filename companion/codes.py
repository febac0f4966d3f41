"""Short codes that people read aloud and type: table codes and score-sheet codes.

Written once for both modes: the alphabet leaves out 0/O and 1/I, and :func:`new_code`
draws codes until ``taken(code)`` says one is free.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: read aloud safely
CODE_LENGTH = 6


def random_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_code(taken: Callable[[str], bool], tries: int = 50) -> str:
    """A random code that ``taken`` does not already know."""
    for _ in range(tries):
        code = random_code()
        if not taken(code):
            return code
    raise RuntimeError("could not find a free code")  # pragma: no cover


def normalise(code: str) -> str:
    """What a person typed, as stored: spaces dropped, capitals."""
    return "".join(str(code).split()).upper()

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


# Characters people type for ones the alphabet leaves out: the code was read aloud or off a
# screen, so an O or 0 was most likely a D or Q, an I or 1 a J, L or T.
LOOKALIKES = {"O": "DQ", "0": "DQ", "I": "JLT", "1": "JLT"}
MAX_GUESSES = 64


def candidates(typed: str) -> list[str]:
    """The codes a person may have meant: :func:`normalise` (spaces, case) without dashes,
    then each O/0 and I/1 tried as the letters it is confused with (at most
    ``MAX_GUESSES`` codes; [] when the text cannot be a code)."""
    code = normalise(typed).replace("-", "")
    if len(code) != CODE_LENGTH or not code.isalnum() or not code.isascii():
        return []
    guesses = [""]
    for ch in code:
        choices = LOOKALIKES.get(ch, ch)
        if ch not in LOOKALIKES and ch not in CODE_ALPHABET:
            return []
        guesses = [g + c for g in guesses for c in choices]
        if len(guesses) > MAX_GUESSES:
            return []
    return guesses


# Besides Play tables, a typed code on the ``/join`` page may name something else players
# join (a score sheet's join code, issue 28). Each feature registers a finder when it is
# imported: the guesses in, the addresses of what they name out (in a request).
_JOIN_FINDERS: list[Callable[[list[str]], list[str]]] = []


def add_join_finder(finder: Callable[[list[str]], list[str]]) -> None:
    if finder not in _JOIN_FINDERS:
        _JOIN_FINDERS.append(finder)


def joins_elsewhere(typed: str) -> list[str]:
    """The addresses of everything but a table that the typed code may name."""
    guesses = candidates(typed[:40])
    return [url for finder in _JOIN_FINDERS for url in finder(guesses)] if guesses else []

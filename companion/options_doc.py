"""The options table of ``docs/api.md``, generated from the games' specs.

``python -m companion.options_doc`` prints the table; ``--write`` puts it into
``docs/api.md`` between the ``<!-- options:start -->`` and ``<!-- options:end -->``
markers. A test fails when the table there differs from what the specs give.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .games import GAMES, Game
from .games.spec import Option

START, END = "<!-- options:start -->", "<!-- options:end -->"
API_MD = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _allowed(option: Option) -> str:
    if option.kind == "choice":
        return ", ".join(f"`{_value(v)}`" for v, _ in option.choices)
    if option.kind in ("int", "ints") and (option.low is not None or option.high is not None):
        low = "" if option.low is None else option.low
        high = "" if option.high is None else option.high
        return f"{low}..{high}"
    if option.kind == "seat":
        return "0..players-1"
    return ""


def _default(option: Option) -> str:
    if option.default_for is not None:
        return "depends on the players"
    return f"`{_value(option.default)}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def options_table(games: Iterable[Game] | None = None) -> str:
    """Markdown: one row per option of every game, in the registry's order."""
    lines = [
        "| game | option | kind | default | allowed | modes | house | meaning |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game in GAMES.values() if games is None else games:
        for option in game.spec.options:
            modes = ", ".join(sorted(option.modes))
            lines.append(
                "| "
                + " | ".join(
                    _cell(part)
                    for part in (
                        f"`{game.slug}`",
                        f"`{option.name}`",
                        option.kind,
                        _default(option),
                        _allowed(option),
                        modes,
                        "house" if option.house else "",
                        option.label + (f": {option.help}" if option.help else ""),
                    )
                )
                + " |"
            )
    return "\n".join(lines)


def table_in(text: str) -> str:
    """The table between the markers of ``text``."""
    start, end = text.index(START) + len(START), text.index(END)
    return text[start:end].strip()


def write(path: Path = API_MD) -> None:
    text = path.read_text(encoding="utf-8")
    start, end = text.index(START) + len(START), text.index(END)
    path.write_text(text[:start] + "\n" + options_table() + "\n" + text[end:], encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv[1:]:
        write()
    else:
        print(options_table())

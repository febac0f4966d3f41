"""The options of every registered game as a Markdown table, generated from the specs.

``python -m companion.options_doc`` prints it (``docs/api.md`` "Options" says so instead of
keeping a copy by hand, so adding a game changes no document).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .games import GAMES, Game
from .games.spec import Option


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


if __name__ == "__main__":  # pragma: no cover
    print(options_table())

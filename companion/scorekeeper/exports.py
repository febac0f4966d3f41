"""A sheet written out: CSV and the printed sheet with every fact (each game's
:meth:`~companion.games.base.Sheet.fact_table`, in its own words), and a JSON copy of the
sheet for backup that can be read back in.

Pure (no Flask, no database): the views give the keeper, the stored rows and the summary.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from ..games import GAMES, IllegalAction
from ..games.base import Sheet
from ..names import BadName, clean_name

FORMAT = "table-companion-sheet"
VERSION = 1
MAX_JSON = 512 * 1024  # bytes: far above any real sheet, far below a costly one

UNSAFE_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: text that could start a formula gets a
    leading apostrophe; numbers stay numbers."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value)
    return "'" + text if text.startswith(UNSAFE_START) else text


def facts_csv(keeper: Sheet, rows: list[Any], summary: dict[str, Any]) -> str:
    """Every fact of every round, one column per fact (per player where the fact is a
    player's), then the totals row."""
    table = keeper.fact_table(rows, summary)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for line in (table["columns"], *table["rows"], table["totals"]):
        writer.writerow([cell(value) for value in line])
    return out.getvalue()


def sheet_json(game: str, players: list[str], options: dict, rows: list[Any], **when) -> str:
    """The sheet as JSON: what it takes to make it again (game, players, options, every
    round's facts), plus when it was started and last changed (``when``: ISO texts)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "players": list(players),
        "options": options,
        "rounds": rows,
        **when,
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def read_sheet_json(text: str | bytes) -> tuple[str, list[str], dict, list[Any]]:
    """(game, players, checked options, checked rounds) of a sheet's JSON copy, or
    :class:`IllegalAction` saying plainly what is wrong with it."""
    if len(text) > MAX_JSON:
        raise IllegalAction("That file is too large to be a score sheet.")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise IllegalAction("That file is not a score sheet saved by this app.") from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise IllegalAction("That file is not a score sheet saved by this app.")
    if data.get("version") != VERSION:
        raise IllegalAction("That sheet was saved by another version of the app.")
    game = GAMES.get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None or game.sheet_class is None:
        raise IllegalAction("That sheet is for a game this app does not keep scores for.")
    players, options, rounds = data.get("players"), data.get("options"), data.get("rounds")
    if not isinstance(players, list) or not all(isinstance(n, str) for n in players):
        raise IllegalAction("The sheet's players must be a list of names.")
    if not isinstance(options, Mapping) or not isinstance(rounds, list):
        raise IllegalAction("The sheet's options or rounds cannot be read.")
    try:
        players = [clean_name(name) for name in players]
    except BadName as error:
        raise IllegalAction(f"A player's name cannot be used: {error}") from None
    if len({name.casefold() for name in players}) != len(players):
        raise IllegalAction("Each player's name must be different.")
    keeper = game.sheet(players, dict(options))
    checked = keeper.check(rounds)
    return game.slug, keeper.names, keeper.options, checked

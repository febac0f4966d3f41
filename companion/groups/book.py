"""What a person does with a group, one function each, one transaction each: start a group
(gathering this device's games at once) and gather this device's games into a group. The
views read the request and call one of these; the figures come from :mod:`.standings`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..extensions import db
from ..games import GAMES, IllegalAction
from ..names import BadName, clean_name
from ..scorekeeper.show import chart
from . import standings, store
from .models import PlayGroup

NAME_MAX = 60
MEMBERS_MAX = 12


def read_members(text: str) -> list[str]:
    """Comma-separated names -> the members (each a valid player name, no two alike)."""
    names = [part for part in (text or "").split(",") if part.strip()]
    try:
        members = [clean_name(name) for name in names]
    except BadName as error:
        raise IllegalAction(f"A player's name cannot be used: {error}") from None
    if len(members) < 2:
        raise IllegalAction("A group needs at least two players: separate the names by commas.")
    if len(members) > MEMBERS_MAX:
        raise IllegalAction(f"A group has at most {MEMBERS_MAX} players.")
    if len({name.casefold() for name in members}) != len(members):
        raise IllegalAction("Each player's name must be different.")
    return members


def start_group(
    name: str, members_text: str, sheet_codes: Sequence[str], table_codes: Sequence[str]
) -> PlayGroup:
    """A new group of the named players, with this device's games of theirs gathered."""
    title = " ".join((name or "").split())[:NAME_MAX] or "Our group"
    members = read_members(members_text)
    group = PlayGroup(code=store.new_code(), name=title, members=members)
    db.session.add(group)
    store.gather(group, sheet_codes, table_codes)
    db.session.commit()
    return group


def gather_device(code: str, sheet_codes: Sequence[str], table_codes: Sequence[str]) -> int:
    """This device's finished games of the group's players, added to the group."""
    group = store.group_of(code)
    if group is None:
        raise LookupError(code)
    added = store.gather(group, sheet_codes, table_codes)
    db.session.commit()
    return added


def group_page(code: str) -> dict[str, Any] | None:
    """Everything the group's page shows, or None when there is no such group."""
    group = store.group_of(code)
    if group is None:
        return None
    games = store.played_games(group)
    members = list(group.members)
    running = standings.wins_over_time(games, members)
    drawn = chart(
        {
            "sides": [[i] for i in range(len(members))],
            "side_names": members,
            "running": running,
            "start": [0] * len(members),
            "totals": running[-1] if running else [0] * len(members),
        }
    )
    return {
        "group": group,
        "members": members,
        "games": list(reversed(games)),
        "per_game": [
            (GAMES[slug].spec, lines)
            for slug, lines in standings.per_game(games, members).items()
            if slug in GAMES
        ],
        "head_to_head": standings.head_to_head(games, members),
        "chart": drawn,
    }

"""A group's figures from its games (pure: no Flask, no database).

A game is a :class:`Played`: the game's slug, the players' names, their scores, the winners
(seats), whether lower scores win, and when it ended. Only the group's members count:
a guest's game still ranks the members who played it against each other.

- :func:`per_game` — for each game slug, each member who played it: games, wins, average
  score, best score (the lowest where lower wins), best first.
- :func:`head_to_head` — for each ordered pair of members, how many games the first
  finished above the second (partners on the same side are level: neither counts).
- :func:`wins_over_time` — each member's wins after each game, for the chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..scorekeeper.standings import places


@dataclass(frozen=True)
class Played:
    game: str
    names: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    lower_wins: bool
    when: datetime
    kind: str = "sheet"  # or "play"
    code: str = ""

    def places(self) -> list[int]:
        return places(self.scores, self.lower_wins, self.winners)


def per_game(games: Sequence[Played], members: Sequence[str]) -> dict[str, list[dict]]:
    """Per game slug (in the order first played), one line per member who played it."""
    out: dict[str, dict[str, dict]] = {}
    for played in games:
        lines = out.setdefault(played.game, {})
        for seat, name in enumerate(played.names):
            if name not in members:
                continue
            line = lines.setdefault(name, {"name": name, "games": 0, "wins": 0, "scores": []})
            line["games"] += 1
            line["wins"] += seat in played.winners
            line["scores"].append(played.scores[seat])
    lower = {played.game: played.lower_wins for played in games}
    result = {}
    for game, lines in out.items():
        rows = []
        for line in lines.values():
            scores = line.pop("scores")
            best = min(scores) if lower[game] else max(scores)
            average = round(sum(scores) / len(scores), 1)
            rows.append({**line, "average": average, "best": best})
        sign = 1 if lower[game] else -1
        rows.sort(key=lambda r: (-r["wins"], -r["wins"] / r["games"], sign * r["average"]))
        result[game] = rows
    return result


def head_to_head(games: Sequence[Played], members: Sequence[str]) -> list[list[int]]:
    """``table[a][b]``: the games member ``a`` finished above member ``b``."""
    index = {name: i for i, name in enumerate(members)}
    table = [[0] * len(members) for _ in members]
    for played in games:
        placed = played.places()
        seats = [(index[name], seat) for seat, name in enumerate(played.names) if name in index]
        for a, seat_a in seats:
            for b, seat_b in seats:
                if placed[seat_a] < placed[seat_b]:
                    table[a][b] += 1
    return table


def wins_over_time(games: Sequence[Played], members: Sequence[str]) -> list[list[int]]:
    """Each member's wins so far after each game (games in the order they ended)."""
    wins = [0] * len(members)
    out = []
    for played in sorted(games, key=lambda p: p.when):
        for seat in played.winners:
            name = played.names[seat]
            if name in members:
                wins[members.index(name)] += 1
        out.append(list(wins))
    return out

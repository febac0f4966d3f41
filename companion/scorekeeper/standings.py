"""The final standings of a sheet: places from the summary's common block, for any game.

Pure presentation (no Flask, no database): the sheet's pages show them when a game is
over, and the group pages rank their players the same way.

A side (one player, or partners) has one total: ``totals[side[0]]`` (a partner shows the
side's total, see :meth:`~companion.games.base.Sheet.summary`). Places are shared on a tie
and the next place skips (1, 1, 3: "standard competition ranking"). The game's own
``winners`` come first even where the totals alone would not say so (a game that ends on
another condition, such as the player shot too often losing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def places(scores: Sequence[int], lower_wins: bool = False, first: Sequence[int] = ()) -> list[int]:
    """The place (from 1) of each entry of ``scores``: ties share a place, the next place
    skips; the entries in ``first`` rank above all others (and share first place)."""
    firsts = set(first)

    def key(i: int) -> tuple[int, int]:
        score = scores[i] if lower_wins else -scores[i]
        return (0 if i in firsts else 1, score)

    order = sorted(range(len(scores)), key=key)
    out = [0] * len(scores)
    for rank, i in enumerate(order):
        before = order[rank - 1] if rank else None
        out[i] = out[before] if before is not None and key(before) == key(i) else rank + 1
    return out


def standings(summary: dict[str, Any], lower_wins: bool = False) -> list[dict[str, Any]]:
    """Each side of the sheet, best first: ``place``, ``shared`` (a tie), ``name`` (the
    partners together), ``seats``, ``total`` and ``winner``."""
    sides = summary.get("sides") or [[seat] for seat in range(len(summary["players"]))]
    names = summary.get("side_names") or [
        " & ".join(summary["players"][seat] for seat in side) for side in sides
    ]
    totals = [summary["totals"][side[0]] for side in sides]
    won = set(summary.get("winners") or [])
    winning = [i for i, side in enumerate(sides) if won & set(side)]
    placed = places(totals, lower_wins, winning)
    rows = [
        {
            "place": placed[i],
            "shared": placed.count(placed[i]) > 1,
            "name": names[i],
            "seats": list(side),
            "total": totals[i],
            "winner": i in winning,
        }
        for i, side in enumerate(sides)
    ]
    return sorted(rows, key=lambda row: (row["place"], row["seats"]))

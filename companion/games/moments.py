"""The moments of a game every screen shows the same way: the result card (what ended last)
and the public game log. Pure, no Flask: the engines build result cards with
:func:`result_card`, the tables layer serves :func:`public_log` and :func:`replay_views`.

**Words parts.** Text that names players or cards is a list of parts, each a string, a
seat ``{"seat": n}``, a side ``{"side": i}`` (its players, "Ada & Cy") or a card
``{"card": id}``: each screen writes the names it knows and draws the card from the
game's faces, and :func:`words_text` writes the same parts as plain text. Never HTML.

**A result card** (``State.result``), JSON: ``id`` (a new id is a new card), ``kind``
(``trick``, ``deal``, ``round``, ``target``, ``duel``… the game's own word), ``title``
("Deal 3 of 10"), ``headline`` (parts: who took it and how), ``cards`` (``[seat, card]``
shown in order, e.g. the trick or the revealed cards), ``columns`` and ``rows`` (a small
table: each row ``{"seats": [...], "cells": [...], "mark": bool}``, marked rows stand
out), ``lines`` (more sentences, each parts) and ``own`` (the game's own part, drawn by
its board module when it has one; generic screens ignore it).

**The public log** lists, in order, every action in the words everybody may read at the
moment it was made (``State.public_words``: a sealed choice says only that it was made),
what a sealed step showed once it closed (``State.shown``) and each result card, grouped
by ``State.chapter``. It is built by replaying the stored actions from the first deal, so
it holds nothing the public views did not show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import Game, State

Parts = list[Any]


def seat(n: int) -> dict[str, int]:
    return {"seat": n}


def side(i: int) -> dict[str, int]:
    return {"side": i}


def card(card_id: str) -> dict[str, str]:
    return {"card": card_id}


def joined(items: Sequence[Any], between: str = " & ") -> Parts:
    """Parts (or lists of parts) one after the other with ``between`` in between."""
    parts: Parts = []
    for k, item in enumerate(items):
        if k:
            parts.append(between)
        parts += item if isinstance(item, list) else [item]
    return parts


def row(seats: Sequence[int], cells: Sequence[Any], mark: bool = False) -> dict[str, Any]:
    return {"seats": list(seats), "cells": list(cells), "mark": bool(mark)}


def result_card(
    id: str,
    kind: str,
    title: str,
    headline: Parts,
    *,
    cards: Sequence[Sequence[Any]] = (),
    columns: Sequence[str] = (),
    rows: Sequence[dict[str, Any]] = (),
    lines: Sequence[Parts] = (),
    own: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A result card as every screen reads it (see the module docstring)."""
    return {
        "id": id,
        "kind": kind,
        "title": title,
        "headline": list(headline),
        "cards": [[s, c] for s, c in cards],
        "columns": list(columns),
        "rows": [dict(r) for r in rows],
        "lines": [list(line) for line in lines],
        "own": own,
    }


def words_text(
    parts: Sequence[Any],
    names: Sequence[str | None],
    sides: Sequence[Sequence[int]] = (),
    card_text: Callable[[str], str] = str,
) -> str:
    """Words parts as plain text: seats by name, sides as "Ada & Cy", cards by face."""

    def name(n: int) -> str:
        return (names[n] if 0 <= n < len(names) else None) or f"Seat {n + 1}"

    out = []
    for part in parts:
        if isinstance(part, dict) and "seat" in part:
            out.append(name(part["seat"]))
        elif isinstance(part, dict) and "side" in part:
            index = part["side"]
            members = sides[index] if 0 <= index < len(sides) else []
            out.append(" & ".join(name(n) for n in members) or f"Side {index + 1}")
        elif isinstance(part, dict) and "card" in part:
            out.append(card_text(part["card"]))
        else:
            out.append(str(part))
    return "".join(out)


def public_log(game: Game, state: State) -> list[dict[str, Any]]:
    """The public events of ``state``'s game so far (``state.log`` must be set), oldest
    first: ``{"step", "chapter", "seat", "words"}`` for an action, ``{"step", "chapter",
    "words"}`` for what a sealed step showed, ``{"step", "chapter", "result"}`` for a
    result card; ``step`` counts the actions applied when the event happened."""
    fresh = game.replay(state, upto=0)
    events: list[dict[str, Any]] = []
    shown_id = None
    for step, (mover, action) in enumerate(state.log or [], start=1):
        chapter = fresh.chapter()
        sealed = fresh.sealed_step()
        words = fresh.public_words(mover, action)
        fresh.apply(mover, action)
        if words:
            events.append({"step": step, "chapter": chapter, "seat": mover, "words": [words]})
        if sealed is not None and fresh.sealed_step() != sealed:
            shown = fresh.shown()
            if shown:
                events.append({"step": step, "chapter": chapter, "words": list(shown)})
        result = fresh.result()
        if result is not None and result["id"] != shown_id:
            shown_id = result["id"]
            events.append({"step": step, "chapter": chapter, "result": result})
    return events


def replay_view(game: Game, state: State, step: int) -> dict[str, Any]:
    """The table's public view after the first ``step`` actions of ``state``'s log (for
    the replay of a finished game): what the host screen showed then."""
    step = max(0, min(step, len(state.log or [])))
    return game.replay(state, upto=step).view(None)

"""The rounds in words, for the pages: the generic table's cells, the steps saved so far
of a round in progress, and a stored round as far as it can be read (the repair page).

Generic over the spec's ``sheet_fields`` and the summary's common block; a game that
draws its own table (``templates/games/<slug>/sheet_table.html``) may ignore these.
"""

from __future__ import annotations

from typing import Any

from ..games.base import Sheet
from .rounds import REPLAY_ERRORS


def text(value: Any) -> str:
    """One value as a player reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "—" if value is None else str(value)


def listed_text(value: Any) -> str:
    """A value that may be a list (of lists), each item as :func:`text` gives it."""
    if isinstance(value, list):
        return ", ".join(listed_text(v) for v in value)
    return text(value)


def round_cells(keeper: Sheet, rows: list[Any], summary: dict[str, Any]) -> list[dict]:
    """For the generic table: per round, per player, the facts entered for that player
    (fields repeated per player) and, when the summary gives them, points and total."""
    fields = keeper.spec.sheet_fields
    out = []
    for index, facts in enumerate(rows):
        values = keeper.values_of(facts)
        info = summary["rows"][index] if index < len(summary.get("rows") or []) else {}
        info = info if isinstance(info, dict) else {}
        shared = [
            f"{f.label} {text(values.get(f.name))}"
            for f in fields
            if not f.repeat and f.name in values
        ]
        cells = []
        for seat in range(keeper.players):
            parts = [
                f"{f.label.lower()} {text(values[f.name][seat])}"
                for f in fields
                if f.repeat[:1] == ("players",) and f.name in values and len(f.repeat) == 1
            ]
            points = info.get("points")
            totals = info.get("totals")
            cells.append(
                {
                    "facts": ", ".join(parts),
                    "points": points[seat] if isinstance(points, list) else None,
                    "total": totals[seat] if isinstance(totals, list) else None,
                }
            )
        out.append({"number": index + 1, "meta": " · ".join(shared), "cells": cells})
    return out


def step_lines(keeper: Sheet, pending: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps saved so far, each with what was entered, in words, for the page."""
    fields = keeper.spec.sheet_fields
    labels = {f.name: f.label for f in fields}
    choices = {f.name: dict(keeper.choices(f)) for f in fields if f.kind == "choice"}
    kinds = {f.name: f.kind for f in fields}
    sides = keeper.side_names()
    out = []
    for step in keeper.spec.sheet_steps:
        if step.name not in pending["done"]:
            continue
        parts = []
        for key, typed in pending["boxes"].items():
            if not step.takes(key) or typed in ("", None):
                continue
            name, *index = key.split("-")
            value = choices.get(name, {}).get(typed, typed)
            if kinds.get(name) == "side" and typed.isdigit() and int(typed) < len(sides):
                value = sides[int(typed)]
            if kinds.get(name) == "seat" and typed.isdigit() and int(typed) < keeper.players:
                value = keeper.names[int(typed)]
            if kinds.get(name) == "bool":
                value = "yes"
            who = ""
            field = next((f for f in fields if f.name == name), None)
            if field is not None and field.repeat[-1:] == ("players",) and index:
                who = keeper.names[int(index[-1])] + " "
            parts.append(f"{who}{value}" if who else f"{labels.get(name, name)} {value}")
        out.append({"step": step, "text": " · ".join(parts) or "—"})
    return out


def stored_facts(keeper: Sheet, facts: Any) -> list[str]:
    """The stored facts of a round, in words as far as they can be read."""
    try:
        values = keeper.values_of(facts)
    except REPLAY_ERRORS:
        values = facts if isinstance(facts, dict) else {"facts": facts}
    labels = {f.name: f.label for f in keeper.spec.sheet_fields}
    return [f"{labels.get(name, name)}: {listed_text(value)}" for name, value in values.items()]

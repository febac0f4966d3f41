"""Every phone at the table (issue 28): the step in progress, entered box by box by the
phones that own the boxes, and what each viewer may see of it. Pure: no database, no web.

The interface (also in docs/architecture.md, "Every phone at the table"):

- **A game declares it, in its spec.** ``Step(name, label, boxes, sealed=False,
  owner="table"|"each"|"side"|"keeper", seats=None)`` (``companion/games/spec.py``):
  ``owner="each"`` gives each box to the player of its field's "players" axis
  (``bids-2`` is the third player's), ``"side"`` to the players of its "sides" axis,
  ``"table"`` to any joined phone, ``"keeper"`` to the keeper alone; the keeper may enter
  or correct every box. ``sealed=True``: each entry is seen by its owners' phones only
  until every box is in, then all are revealed at once. A game without steps is entered
  as one open step of all its fields (owner "table").
- **A game whose steps depend on what was entered** overrides
  :meth:`Sheet.open_step(done, boxes) <companion.games.base.Sheet.open_step>`: given the
  names of the steps saved in this round and every box entered in them, it returns the
  step now open (a ``Step`` it may build on the fly, ``seats=`` the players still in an
  auction, a second pass when its condition holds) or None when the round is complete;
  :meth:`Sheet.step_named` must find such a step by its name again, and
  :meth:`Sheet.check_step` checks the steps done together, as for the keeper's forms.
  :meth:`Sheet.step_keys` lists the boxes a step asks for, :meth:`Sheet.box_owner` who
  owns one (hooks, read from the spec by default).
- **Where an entry is stored.** In ``score_sheet.open_boxes`` (JSON), apart from the
  round in progress (``score_sheet.pending``, which holds the steps saved) and the rows:
  ``{"position": round index, "done": [steps saved when it opened], "step": name,
  "version": n, "boxes": {key: {"text": str, "by": seat or -1 (the keeper), "rev": n}},
  "revealed": {...} | None}``. Only this module reads it; :func:`view` is the one function
  that decides what a viewer (a seat, the keeper, the public: watch page, shared screen)
  sees of it. Sealed texts never leave it for anyone but the box's owners.
- **The reveal.** When the last box is in, the step's boxes are checked together
  (:meth:`Sheet.check_step`); if they pass, the step is saved into the round in progress
  (or, the last step, the round is added), the open boxes are cleared, and a sealed step
  leaves ``revealed`` (its label and every value, with a new ``id``) for the phones and
  the shared screen to show at once (Shoot!'s countdown). If they do not pass, nothing is
  saved and every viewer is told; for a sealed step in words that name no value.
- **After-commit event.** Every change (a box entered, a step saved, a round added) sends
  ``events.sheet_changed`` (sender: the sheet's code; ``rounds``, and ``version``: the
  open step's counter), which :mod:`.feed` publishes on the sheet's live channel: the
  phones, the shared screen and the watch page fetch their own view again. The event
  carries counts only, never an entry.
- **Undo stops at the reveal.** Once a sealed step is saved on a sheet players joined,
  no phone and no keeper's form changes its boxes again (the round, once added, is
  corrected with Edit, as a keeper corrects any round).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..games import IllegalAction
from ..games.base import ROUND_STEP, Sheet
from ..games.errors import SheetError
from ..games.spec import Step, read_fields

KEEPER = -1  # "by" of a box the keeper entered
PUBLIC = "public"  # the watch page, the shared screen: what anyone at the table may see
KEEPING = "keeper"  # the phone that keeps the sheet (its code): every power, no secret


class BoxRefused(IllegalAction):
    """An entry refused: ``status`` (403 not yours, 409 stale, 422 wrong) and words that
    name no sealed value but the sender's own."""

    def __init__(self, message: str, status: int = 422, field: str | None = None):
        super().__init__(message)
        self.status, self.field = status, field


def the_step(keeper: Sheet, pending: Mapping[str, Any]) -> Step | None:
    """The step open now in the round in progress (None once the round is complete)."""
    return keeper.open_step(pending["done"], pending["boxes"])


def named_step(keeper: Sheet, name: str, pending: Mapping[str, Any]) -> Step | None:
    """The step called ``name`` (a declared one, one the game builds, or the one step of a
    game without steps)."""
    step = the_step(keeper, pending)
    if step is not None and step.name == name:
        return step
    return keeper.step_named(name)


def opened(stored: Any, pending: Mapping[str, Any], step: Step | None) -> dict[str, Any]:
    """The open step's record: the stored one while it is still for this round, these
    steps done and this step; else a fresh one (the keeper moved the round on)."""
    version = stored.get("version", 0) if isinstance(stored, dict) else 0
    revealed = stored.get("revealed") if isinstance(stored, dict) else None
    same_round = isinstance(stored, dict) and stored.get("position") == pending["position"]
    by_keeper = list(stored.get("by_keeper") or []) if same_round else []
    if (
        isinstance(stored, dict)
        and step is not None
        and stored.get("position") == pending["position"]
        and stored.get("done") == list(pending["done"])
        and stored.get("step") == step.name
    ):
        return {**stored, "boxes": dict(stored.get("boxes") or {})}
    return {
        "position": pending["position"],
        "done": list(pending["done"]),
        "step": step.name if step is not None else None,
        "version": version,
        "boxes": {},
        "revealed": revealed,
        "by_keeper": by_keeper,  # the boxes of this round's earlier steps the keeper entered
    }


def owners_of(keeper: Sheet, step: Step, key: str) -> tuple[int, ...] | None:
    return keeper.box_owner(step, key)


def may_enter(keeper: Sheet, step: Step, key: str, who: int) -> None:
    """Refuse (403) a seat entering a box it does not own; the keeper (``KEEPER``) may
    enter any."""
    if who == KEEPER:
        return
    if step.owner == "keeper":
        raise BoxRefused("Only the sheet's keeper enters this box.", 403, key)
    owners = owners_of(keeper, step, key)
    if owners is not None and who not in owners:
        whose = " & ".join(keeper.names[s] for s in owners)
        raise BoxRefused(
            f"That box is {whose}'s: only their phone or the keeper enters it.", 403, key
        )


def field_of(keeper: Sheet, key: str):
    name = key.split("-", 1)[0]
    return next((f for f in keeper.spec.sheet_fields if f.name == name), None)


def typed(keeper: Sheet, key: str, text: str) -> str:
    """The one box ``text`` typed and in range, alone (422 with the field's words); the
    text as kept (a ``picks`` box's choices in their listed order, one space apart)."""
    f = field_of(keeper, key)
    if f is None:
        raise BoxRefused("There is no such box on this sheet.", 404, key)
    form = {key: text}
    try:
        sides = len(keeper.sides())
        read = read_fields([f], _filled(keeper, f, form), keeper.players, sides, keeper.choices)
    except SheetError as error:
        raise BoxRefused(error.message, 422, key) from None
    if f.kind != "picks":
        return text
    value = read[f.name]
    for i in key.split("-")[1:]:
        value = value[int(i)]
    return value or ""


def _filled(keeper: Sheet, f, form: dict[str, str]) -> dict[str, str]:
    """``form`` with every other box of field ``f`` at its default, so one box is read
    alone."""
    fill = _default(f)
    if f.kind == "choice" and not fill:  # a required choice: any offered one will do
        fill = next((str(value) for value, _ in keeper.choices(f)), "")
    out = {k: fill for k in _keys_of(keeper, f)}
    out.update(form)
    return out


def _keys_of(keeper: Sheet, f) -> list[str]:
    step = Step("_", "_", (f.name,))
    return keeper.step_keys(step)


def _default(f) -> str:
    """A harmless stand-in for a box not in yet: empty where a box may be, else the
    field's default or its lowest value."""
    if f.optional:
        return ""
    if f.default is not None:
        return str(f.default)
    if f.kind == "int":
        return str(f.low if f.low is not None else 0)
    if f.kind in ("seat", "side"):
        return "0"
    return ""


def alone(keeper: Sheet, rows: list, pending, step: Step, boxes: dict, key: str, text: str):
    """The game's own check of one entry (its hand size, its loon in hand …), knowing the
    steps saved and, for an open step, the other boxes in; a sealed step's other boxes are
    taken at their defaults, so a refusal never depends on another player's secret. Only
    a refusal of this box counts."""
    merged = dict(pending["boxes"])
    for k in keeper.step_keys(step):
        f = field_of(keeper, k)
        theirs = boxes.get(k, {}).get("text") if not step.sealed else None
        merged[k] = theirs if theirs is not None else _default(f)
    merged[key] = text
    try:
        _check(keeper, rows, pending, step, merged, whole=False)
    except SheetError as error:
        field, player = error.field, error.player
        at = field if field is None or player is None or "-" in field else f"{field}-{player}"
        if at == key:
            raise BoxRefused(error.message, 422, key) from None


def _check(keeper: Sheet, rows: list, pending, step: Step, merged: dict, whole=True) -> None:
    """The steps done with ``step`` checked together; ``whole``: the round too when this
    step completes it (a partial check alone judges one box)."""
    done = [*pending["done"], step.name]
    if step.name != ROUND_STEP:
        keeper.check_step(rows, merged, done)
    if whole and (step.name == ROUND_STEP or keeper.open_step(done, merged) is None):
        keeper.add(rows, keeper.read(merged))


@dataclass
class Outcome:
    """What an entry did: ``saved`` the step's boxes merged into the round in progress
    (None while boxes are missing or they do not fit together); ``problem`` the words
    shown to every viewer when they do not."""

    record: dict[str, Any]
    merged: dict[str, str] | None = None
    done: list[str] | None = None
    problem: str = ""


def enter(
    keeper: Sheet,
    rows: list,
    pending: Mapping[str, Any],
    record: dict[str, Any],
    step: Step,
    key: str,
    text: str,
    who: int,
    seen: int | None,
) -> Outcome:
    """Enter box ``key`` as ``text`` for ``who`` (a seat, or ``KEEPER``), the sender
    having seen the box at revision ``seen`` (0: empty). Refusals (:class:`BoxRefused`)
    change nothing."""
    if key not in keeper.step_keys(step):
        raise BoxRefused(f"That box is not part of the {step.label} being entered.", 422, key)
    may_enter(keeper, step, key, who)
    box = record["boxes"].get(key)
    rev = box["rev"] if box else 0
    if seen is None or seen != rev:
        by = "" if box is None else (" by the keeper" if box["by"] == KEEPER else "")
        raise BoxRefused(
            f"{keeper.box_label(step, key)} was entered{by} on another phone meanwhile; "
            "it is kept. Look at it again before changing it.",
            409,
            key,
        )
    text = str(text).strip()
    if step.sealed and not text:
        raise BoxRefused(
            f"{keeper.box_label(step, key)}: choose one; a sealed entry can't be left empty.",
            422,
            key,
        )
    text = typed(keeper, key, text)
    alone(keeper, rows, pending, step, record["boxes"], key, text)
    record = {**record, "version": record["version"] + 1, "boxes": dict(record["boxes"])}
    record["boxes"][key] = {"text": text, "by": who, "rev": record["version"]}
    record["problem"] = ""
    keys = keeper.step_keys(step)
    if any(k not in record["boxes"] for k in keys):
        return Outcome(record)
    merged = {k: v for k, v in pending["boxes"].items() if not step.takes(k)}
    merged.update({k: record["boxes"][k]["text"] for k in keys})
    try:
        _check(keeper, rows, pending, step, merged)
    except IllegalAction as error:
        problem = (
            f"The {step.label} do not fit together: each player, check your own entry."
            if step.sealed
            else error.message
        )
        record["problem"] = problem
        return Outcome(record, problem=problem)
    if step.sealed:
        record["revealed"] = {
            "id": secrets.token_hex(4),
            "position": pending["position"],
            "label": step.label,
            "boxes": {k: record["boxes"][k]["text"] for k in keys},
            "step": step.name,
            "call": list(step.call),
        }
    return Outcome(record, merged=merged, done=[*pending["done"], step.name])


def keeper_entered(keeper: Sheet, step: Step, record: Mapping[str, Any]) -> list[str]:
    """The boxes of this round the keeper entered so far, in words (for the change log)."""
    now = [keeper.box_label(step, k) for k, b in record["boxes"].items() if b["by"] == KEEPER]
    return [*(record.get("by_keeper") or []), *now]


def closed_sealed(keeper: Sheet, pending: Mapping[str, Any], name: str) -> bool:
    """Whether step ``name`` is sealed and already saved (revealed) in the round in
    progress: nothing changes it again on a sheet players joined."""
    step = keeper.step_named(name)
    return step is not None and step.sealed and name in pending["done"]


def forgotten(record: Mapping[str, Any]) -> dict[str, Any]:
    """The open step's record once its round is thrown away (a round was added or removed
    under it): no round, no box, its revision count and last reveal kept, so the next
    round's record starts afresh (:func:`opened`) and a stale entry is never taken back."""
    return {**record, "position": None, "step": None, "boxes": {}, "by_keeper": [], "problem": ""}


def joined(sheet: Any) -> bool:
    """Whether a sheet's players enter on their phones (a phone holds a name, or a box
    was entered box by box): then a sealed step is theirs to enter and, once revealed,
    nothing changes it again."""
    return bool(sheet.seats) or sheet.open_boxes is not None


def sealed_message(step: Step) -> str:
    return (
        f"The {step.label} are sealed: each player enters their own on their phone "
        "(the keeper can enter one for a player in the step's panel), and once revealed "
        "they no longer change. Correct the round with Edit once it is added."
    )


# -- what a viewer sees -------------------------------------------------------------------


def view(
    keeper: Sheet,
    pending: Mapping[str, Any],
    record: Mapping[str, Any],
    step: Step | None,
    viewer: int | str,
    held: set[int],
) -> dict[str, Any]:
    """The open step as ``viewer`` (a seat, :data:`KEEPING` or :data:`PUBLIC`) may see
    it: every box, who owns it, whether it is in and who entered it; a sealed box's text
    only for its owners' phones. ``held``: the seats a phone holds. The one function
    that decides this (tested by the leak harness)."""
    out: dict[str, Any] = {
        "version": record.get("version", 0),
        "round": pending["position"] + 1,
        "step": None,
        "revealed": _revealed(keeper, record.get("revealed")),
    }
    if step is None:
        return out
    boxes, waiting = [], []
    for key in keeper.step_keys(step):
        owners = owners_of(keeper, step, key)
        box = record["boxes"].get(key)
        owned = isinstance(viewer, int) and owners is not None and viewer in owners
        if viewer == KEEPING:
            yours = owners is None or not (set(owners) & held) or step.owner == "keeper"
        else:  # a phone: its own boxes, and anyone's on a step open to the table
            yours = owned or (isinstance(viewer, int) and owners is None and step.owner != "keeper")
        shown = box is not None and (not step.sealed or owned)
        if box is None:
            waiting.append(
                " & ".join(keeper.names[s] for s in owners)
                if owners
                else keeper.box_label(step, key)
            )
        boxes.append(
            {
                "key": key,
                "label": keeper.box_label(step, key),
                "owners": list(owners) if owners is not None else None,
                "yours": bool(yours),
                "in": box is not None,
                "by": None if box is None else _by(keeper, box["by"]),
                "rev": 0 if box is None else box["rev"],
                "text": box["text"] if shown else None,
                "shown": words(keeper, key, box["text"]) if shown else None,
                "field": _field_view(keeper, key, step),
            }
        )
    players: list[str | None] = [None] * keeper.players
    for box in boxes:
        for seat in box["owners"] or ():
            players[seat] = "waiting" if not box["in"] or players[seat] == "waiting" else "in"
    out["step"] = {
        "players": players,  # per seat: "in", "waiting", or None (no box of theirs)
        "name": step.name,
        "label": step.label,
        "sealed": step.sealed,
        "owner": step.owner,
        "boxes": boxes,
        "waiting": list(dict.fromkeys(waiting)),
        "problem": record.get("problem") or "",
    }
    return out


def words(keeper: Sheet, key: str, text: Any) -> str:
    """A box's text as people read it: a choice by its label ("Trap 7"), a player or a
    side by name; a number as it is."""
    f = field_of(keeper, key)
    text = "" if text is None else str(text)
    if f is None or not text:
        return text
    if f.kind == "choice":
        return str(dict((str(v), label) for v, label in keeper.choices(f)).get(text, text))
    if f.kind == "picks":  # each choice by its label: "Red 13, Red 14"
        labels = {str(v): str(label) for v, label in keeper.choices(f)}
        return ", ".join(labels.get(part, part) for part in text.split())
    if f.kind in ("seat", "side") and text.isdigit():
        named = keeper.names if f.kind == "seat" else keeper.side_names()
        return named[int(text)] if int(text) < len(named) else text
    return text


def _by(keeper: Sheet, by: int) -> str:
    return "the keeper" if by == KEEPER else keeper.names[by]


def _field_view(keeper: Sheet, key: str, step: Step) -> dict[str, Any]:
    f = field_of(keeper, key)
    if f is None:
        return {}
    out: dict[str, Any] = {"kind": f.kind, "optional": f.optional, "help": f.help}
    narrowed = keeper.box_choices(step, key)
    if narrowed is not None:
        out["choices"] = [[str(value), str(label)] for value, label in narrowed]
    elif f.kind == "int":
        out |= {"low": f.low, "high": f.high, "default": _default(f)}
    elif f.kind in ("choice", "picks"):
        out["choices"] = [[str(v), str(label)] for v, label in keeper.choices(f)]
        if f.kind == "picks":
            out["high"] = f.high
    elif f.kind == "seat":
        out["choices"] = [[str(i), name] for i, name in enumerate(keeper.names)]
    elif f.kind == "side":
        out["choices"] = [[str(i), name] for i, name in enumerate(keeper.side_names())]
    return out


def _revealed(keeper: Sheet, revealed: Any) -> dict[str, Any] | None:
    """A sealed step revealed: its values by box, in words (public: all are in)."""
    if not isinstance(revealed, dict):
        return None
    step = keeper.step_named(revealed.get("step"))
    values = []
    for key, text in (revealed.get("boxes") or {}).items():
        label = keeper.box_label(step, key) if step is not None else key
        owners = keeper.box_owner(step, key) if step is not None else None
        shown = words(keeper, key, text)
        values.append({"key": key, "label": label, "text": text, "shown": shown, "owners": owners})
    return {
        "id": revealed.get("id"),
        "round": int(revealed.get("position", 0)) + 1,
        "label": revealed.get("label", ""),
        "call": [str(word) for word in revealed.get("call") or []],
        "values": values,
    }

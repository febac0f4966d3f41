"""PULL! rules shared by engine mode and score mode: card data, winning a target, scoring.

Card data lives in ``cards.json`` beside this file (see the engine's module docstring for the
ids and for why each value is tagged ``seed`` or ``house``). :func:`load_cards` reads and
validates it once; :func:`check_target_overrides` validates a group's changes to the house
values (double values, animal flags) and :func:`target_table` applies them.

Everything here is pure: no Flask, no randomness, no I/O beyond reading ``cards.json``.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import IllegalAction
from ..spec import winners

CARDS_FILE = Path(__file__).with_name("cards.json")
TAGS = ("seed", "house")
SHOT_VALUES = list(range(1, 9))
LEFT_VALUES = [0, 5, 10, -5]
HAND_SIZE = 10
ROUNDS_PER_HAND = 5
FOUL_STEP = 5  # every 5th foul of a side ...
FOUL_PENALTY = 20  # ... costs this many points
DISTRACTION = 1  # a 1 on a target cancels every ...
CANCELLED = 8  # ... 8 on the same target
OVERRIDABLE = ("double", "animal")


class CardDataError(ValueError):
    """cards.json is not the deck the rulebook describes."""


def _tagged(entry: dict, key: str, kind: type, where: str) -> Any:
    item = entry.get(key)
    if not isinstance(item, dict) or set(item) != {"value", "tag"}:
        raise CardDataError(f"{where}: {key!r} must be {{'value': ..., 'tag': ...}}")
    if item["tag"] not in TAGS:
        raise CardDataError(f"{where}: {key!r} tag must be one of {TAGS}")
    value = item["value"]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise CardDataError(f"{where}: {key!r} must be a whole number")
    if not isinstance(value, kind):
        raise CardDataError(f"{where}: {key!r} must be a {kind.__name__}")
    return value


def validate_cards(data: dict) -> dict:
    """Check the raw card data against the rulebook's deck; return it unchanged."""
    suits = data.get("suits")
    if not isinstance(suits, list) or len(suits) != 6:
        raise CardDataError("there must be six suits")
    suit_ids = [s.get("id") for s in suits]
    if len(set(suit_ids)) != 6 or not all(isinstance(s, str) and s for s in suit_ids):
        raise CardDataError("suit ids must be six different names")
    for suit in suits:
        for key in ("name", "symbol", "colour"):
            _tagged(suit, key, str, f"suit {suit['id']}")
    shots = data.get("shots")
    if not isinstance(shots, list) or len(shots) != 48:
        raise CardDataError("the shot deck must have 48 cards")
    seen: set = set()
    for shot in shots:
        where = f"shot {shot.get('id')!r}"
        value = _tagged(shot, "value", int, where)
        if shot.get("suit") not in suit_ids or value not in SHOT_VALUES:
            raise CardDataError(f"{where}: unknown suit or a value outside 1-8")
        if shot["id"] != f"{shot['suit']}-{value}" or (shot["suit"], value) in seen:
            raise CardDataError(f"{where}: ids are '<suit>-<value>', each card once")
        seen.add((shot["suit"], value))
    targets = data.get("targets")
    if not isinstance(targets, list) or len(targets) != 24:
        raise CardDataError("the target deck must have 24 cards")
    ids = [t.get("id") for t in targets]
    if len(set(ids)) != 24:
        raise CardDataError("target ids must be unique")
    for suit in suit_ids:
        lefts = []
        for target in (t for t in targets if t.get("suit") == suit):
            where = f"target {target['id']!r}"
            if not isinstance(target["id"], str) or not target["id"].startswith(f"{suit}-T"):
                raise CardDataError(f"{where}: ids are '<suit>-T<k>'")
            lefts.append(_tagged(target, "left", int, where))
            _tagged(target, "double", int, where)
            _tagged(target, "animal", bool, where)
        if sorted(lefts) != sorted(LEFT_VALUES):
            raise CardDataError(f"suit {suit}: targets must be worth 0, 5, 10 and -5")
    return data


@lru_cache(maxsize=1)
def _raw_cards() -> str:
    data = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    validate_cards(data)
    return json.dumps(data)


def load_cards() -> dict:
    """The validated card data of ``cards.json`` (a fresh copy each call)."""
    return json.loads(_raw_cards())


@lru_cache(maxsize=1)
def _base() -> dict:
    data = load_cards()
    suits = {
        s["id"]: {k: s[k]["value"] for k in ("name", "symbol", "colour")} for s in data["suits"]
    }
    shots = {s["id"]: (s["suit"], s["value"]["value"]) for s in data["shots"]}
    targets = {
        t["id"]: {
            "suit": t["suit"],
            "left": t["left"]["value"],
            "double": t["double"]["value"],
            "animal": t["animal"]["value"],
            "tags": {k: t[k]["tag"] for k in ("left", "double", "animal")},
        }
        for t in data["targets"]
    }
    return {"suits": suits, "shots": shots, "targets": targets}


def suits() -> dict[str, dict]:
    """Suit id -> name, symbol, colour (all house: the rulebook names no suit)."""
    return copy.deepcopy(_base()["suits"])


def shot_ids() -> list[str]:
    """All 48 shot card ids, in the fixed order of cards.json."""
    return list(_base()["shots"])


def target_ids() -> list[str]:
    """All 24 target card ids, in the fixed order of cards.json."""
    return list(_base()["targets"])


def is_shot(card: object) -> bool:
    return isinstance(card, str) and card in _base()["shots"]


def is_target(card: object) -> bool:
    return isinstance(card, str) and card in _base()["targets"]


def shot_suit(card: str) -> str:
    return _base()["shots"][card][0]


def shot_value(card: str) -> int:
    return _base()["shots"][card][1]


def target_suit(card: str) -> str:
    return _base()["targets"][card]["suit"]


def check_target_overrides(overrides: Any) -> dict[str, dict]:
    """Validate a group's changes to house target values; return them normalised.

    Shape: ``{"trap-T2": {"double": 9}, "skeet-T1": {"animal": true}, ...}``. Only the
    house values (``double``, ``animal``) can change: left values are printed in the
    rulebook. Idempotent.
    """
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise IllegalAction('Target changes must be an object like {"trap-T2": {"double": 9}}.')
    base = _base()["targets"]
    clean: dict[str, dict] = {}
    for card, change in overrides.items():
        if card not in base:
            raise IllegalAction(f"There is no target card {card!r} to change.")
        if not isinstance(change, dict):
            raise IllegalAction(f'The change to {card} must be an object like {{"double": 9}}.')
        for key, value in change.items():
            if key == "left":
                raise IllegalAction(
                    f"The left value of {card} is printed in the rulebook; it can't be changed."
                )
            if key not in OVERRIDABLE:
                raise IllegalAction(f"{card}: only 'double' and 'animal' can be changed.")
            if key == "double" and (
                isinstance(value, bool) or not isinstance(value, int) or abs(value) > DOUBLE_LIMIT
            ):
                raise IllegalAction(f"The double value of {card} must be a whole number.")
            if key == "animal" and not isinstance(value, bool):
                raise IllegalAction(f"Whether {card} is an animal must be true or false.")
        if change:
            clean[card] = {k: change[k] for k in OVERRIDABLE if k in change}
    return clean


@lru_cache(maxsize=64)
def _table(key: str) -> dict:
    overrides = json.loads(key)
    table = copy.deepcopy(_base()["targets"])
    for card, change in overrides.items():
        for field, value in change.items():
            table[card][field] = value
            table[card]["tags"][field] = "table"
    return table


def target_table(overrides: dict | None = None) -> dict[str, dict]:
    """Target id -> ``{suit, left, double, animal, tags}`` with a group's changes applied.

    ``tags`` says where each value comes from: ``seed`` (rulebook), ``house`` (this
    project's choice) or ``table`` (changed by the group). Read-only: do not modify.
    """
    if not overrides:
        return _table("{}")
    return _table(json.dumps(overrides, sort_keys=True))


def target_values(overrides: dict | None = None) -> dict[str, tuple[int, int, bool]]:
    """Target id -> ``(left, double, animal)`` of :func:`target_table`: what scoring a
    pile reads, as tuples (read-only)."""
    return _values(json.dumps(overrides, sort_keys=True) if overrides else "{}")


@lru_cache(maxsize=64)
def _values(key: str) -> dict[str, tuple[int, int, bool]]:
    return {card: (d["left"], d["double"], d["animal"]) for card, d in _table(key).items()}


# -- winning a target ---------------------------------------------------------------------


# -- scoring ------------------------------------------------------------------------------


def target_points(card: str, doubled: bool, table: dict) -> int:
    data = table[card]
    return data["double"] if doubled else data["left"]


def foul_penalty(fouls_before: int, fouls_after: int) -> int:
    """Points lost for the multiples of 5 fouls crossed going from one count to the other."""
    crossed = fouls_after // FOUL_STEP - fouls_before // FOUL_STEP
    return FOUL_PENALTY * max(crossed, 0)


def pile_points(pile: list, table: dict) -> tuple[int, int]:
    """``(points, fouls)`` of a score pile of ``{"card", "double"}`` entries."""
    points = fouls = 0
    for entry in pile:
        data = table[entry["card"]]
        points += data["double"] if entry["double"] else data["left"]
        if data["animal"]:
            fouls += 1
    return points, fouls


def game_over(totals: list[int], hands_played: int, options: dict) -> bool:
    """Whether the game ends after ``hands_played`` hands with these side totals.

    The game ends once a side has reached the goal (or the fixed number of hands has been
    played) and exactly one side is highest; a tie for highest plays on, one hand at a
    time. After ``max_hands`` hands it ends whatever the scores (a tie is then shared).
    """
    if hands_played >= options["max_hands"]:
        return True
    if options["hands"] is not None:
        reached = hands_played >= options["hands"]
    else:
        reached = max(totals) >= options["goal"]
    return reached and len(winners(totals)) == 1


def animal_count(table: dict) -> int:
    """How many targets of the deck are animals (with a group's changes)."""
    return sum(1 for data in table.values() if data["animal"])


def hand_extremes(table: dict, together: bool = False) -> dict[int, tuple[int, int]]:
    """What one hand's targets can be worth: fouls -> ``(least, most)`` points.

    A hand throws ``ROUNDS_PER_HAND`` rounds of two targets from the 24 in ``table``. One
    side (``together`` False) takes in each round nothing, one target (its left value)
    or both (a Double: both at their double values). All sides ``together`` may also
    split a round's two targets, each at its left value. A foul count missing from the
    result cannot happen (more animals than the deck or the hand holds).
    """
    key = json.dumps(table, sort_keys=True)
    return {int(k): tuple(v) for k, v in _extremes(key, together).items()}


@lru_cache(maxsize=64)
def _extremes(key: str, together: bool) -> dict[int, tuple[int, int]]:
    cards = json.loads(key).values()
    limit = 2 * ROUNDS_PER_HAND
    # (cards taken as doubles, cards taken singly, animals) -> (least, most) points
    best: dict[tuple[int, int, int], tuple[int, int]] = {(0, 0, 0): (0, 0)}
    for data in cards:
        animal = int(data["animal"])
        grown = dict(best)
        for (d, s, a), (low, high) in best.items():
            for dd, ds, value in ((1, 0, data["double"]), (0, 1, data["left"])):
                state = (d + dd, s + ds, a + animal)
                if state[0] + state[1] > limit:
                    continue
                was = grown.get(state)
                pair = (low + value, high + value)
                grown[state] = pair if was is None else (min(was[0], pair[0]), max(was[1], pair[1]))
        best = grown
    out: dict[int, tuple[int, int]] = {}
    for (d, s, a), (low, high) in best.items():
        rounds = d // 2 + ((s + 1) // 2 if together else s)
        if d % 2 or rounds > ROUNDS_PER_HAND:
            continue
        was = out.get(a)
        out[a] = (low, high) if was is None else (min(was[0], low), max(was[1], high))
    return out


def sides_for(players: int, teams: bool) -> list[list[int]]:
    """The seats of each side: partners across the table in a team game."""
    if teams:
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(players)]


DEFAULT_GOAL = 200
DEFAULT_MAX_HANDS = 100
MAX_GOAL = 10_000
MAX_HANDS = 1000
MAX_POINTS = 10_000  # a quick entry's points for one side in one hand


def check_together(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """What concerns several options at once, in both modes (the spec checks each one).

    Teams need exactly 4 players. ``hands``, when set, replaces the goal (``goal``
    becomes None); without it the goal is in force, 200 when none is given. The hand
    limit can't be below the number of hands. No target changes is ``{}``. Idempotent.
    """
    checked = dict(options)
    if checked["teams"] and players != 4:
        raise IllegalAction("Team play needs exactly 4 players; play as individuals instead.")
    if checked["hands"] is not None:
        checked["goal"] = None
        if checked["max_hands"] < checked["hands"]:
            raise IllegalAction("The hand limit can't be lower than the number of hands to play.")
    elif checked["goal"] is None:
        checked["goal"] = DEFAULT_GOAL
    checked["targets"] = checked["targets"] or {}
    return checked


# -- names for people ---------------------------------------------------------------------


def shot_name(card: str) -> str:
    """A shot card in words: ``"Trap 7"``."""
    return f"{_base()['suits'][shot_suit(card)]['name']} {shot_value(card)}"


def target_name(card: str) -> str:
    """A target card in words, by its printed left value: ``"Trap target 10"``."""
    data = _base()["targets"][card]
    return f"{_base()['suits'][data['suit']]['name']} target {data['left']}"


def card_name(card: str) -> str:
    return shot_name(card) if is_shot(card) else target_name(card)


def card_symbol(card: str) -> str:
    suit = shot_suit(card) if is_shot(card) else target_suit(card)
    return _base()["suits"][suit]["symbol"]


def target_rows(overrides: dict | None = None) -> list[dict[str, Any]]:
    """The 24 targets for forms, tables and the rules page, in cards.json order: id,
    suit, its name and symbol, a label (``"▲ Trap target 10"``), the values in force
    with a group's ``overrides`` and where each comes from (``tags``)."""
    table = target_table(check_target_overrides(overrides))
    suit_data = _base()["suits"]
    return [
        {
            "card": card,
            "id": card,
            "suit": data["suit"],
            "suit_name": suit_data[data["suit"]]["name"],
            "symbol": suit_data[data["suit"]]["symbol"],
            "label": f"{suit_data[data['suit']]['symbol']} {target_name(card)}",
            "left": data["left"],
            "double": data["double"],
            "animal": data["animal"],
            "tags": dict(data["tags"]),
        }
        for card, data in table.items()
    ]


DOUBLE_LIMIT = 1000  # a double value is a whole number from -1000 to 1000


def target_changes_from_form(form: Any) -> dict[str, dict] | None:
    """A group's changes to house target values from a submitted form's boxes.

    ``double_<id>`` holds a double value, ``animal_<id>`` is present (ticked) when the
    target is an animal. Only values that differ from the deck's are returned, in the
    shape of the ``targets`` option; None when nothing changed or when the form did not
    carry the boxes at all (a post from a script: an unticked box is then no answer).
    A box that holds no whole number, or one out of range, raises :class:`IllegalAction`
    naming the target.
    """
    rows = target_rows()
    if not any(f"double_{row['card']}" in form for row in rows):
        return None
    changes: dict[str, dict] = {}
    for row in rows:
        card, label = row["card"], row["label"]
        raw = form.get(f"double_{card}")
        change: dict[str, Any] = {}
        if raw is not None:
            text = str(raw).strip()
            if not text:
                raise IllegalAction(f"{label}: enter a double value (a whole number).")
            try:
                double = int(text)
            except ValueError:
                raise IllegalAction(
                    f"{label}: the double value must be a whole number, not {text[:20]!r}."
                ) from None
            if not -DOUBLE_LIMIT <= double <= DOUBLE_LIMIT:
                raise IllegalAction(
                    f"{label}: a double value must be from {-DOUBLE_LIMIT} to {DOUBLE_LIMIT}."
                )
            if double != row["double"]:
                change["double"] = double
        ticked = str(form.get(f"animal_{card}", "")).strip().lower()
        animal = ticked not in ("", "0", "false", "n", "no", "off")
        if animal != row["animal"]:
            change["animal"] = animal
        if change:
            changes[card] = change
    return changes or None

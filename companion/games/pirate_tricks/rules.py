"""Pirate Tricks: crew cards, the score-card catalog and every scoring rule (both modes).

Crew cards are ``"R15"``, ``"G3"``, ``"B20"``: a suit letter (red, green, blue) and a
number 1-20. Red is trump. Three players play with 9-20 of each suit (36 cards), four with
5-20 (48), five with all 60.

The score cards live in ``cards.json`` as *data*: each card is a short list of effects,
and each effect is one of a few parametrised kinds, so that a group can correct a value or
add a card of its printed deck without code (the ``catalog`` option, see
:func:`load_catalog`). Effect kinds:

Recruitment cards (scored on the ten-card hand a player shows before the tricks):

``per_card``      ``loon`` for each card matching ``filter``.
``groups``        ``loon`` for each group of ``size`` cards: ``shape`` ``"run"`` (numbers in a
                  row, one suit), ``"set"`` (one number, different suits) or ``"run_or_set"``
                  (either). Each card joins at most one group of a card; the count of
                  disjoint groups is maximised.

Treasure and capture cards (settled after the tenth trick):

``per_trick``     ``loon`` per trick taken.
``trick_rank``    ``payouts`` for the most, 2nd most, 3rd most … tricks.
``fewest_tricks`` ``loon`` to the player(s) with the fewest tricks (zero included).
``prediction``    ``hit`` for an exact prediction, else ``miss`` + ``per_off`` per trick off.
``per_captured``  ``loon`` (may be negative) per captured crew card matching ``filter``.
``captured_rank`` ``payouts`` for the most, 2nd most … captured cards matching ``filter``.

A ``filter`` may hold ``suits`` (e.g. ``"RG"``), ``parity`` (``"odd"``/``"even"``), ``min`` and
``max`` (a number range) and ``numbers`` (a list); a card must meet all of them.

Our reading (also on the rules page):

- **Tags.** Cards the rulebook names are tagged ``seed``; each *value* carries its own tag,
  so Tempt Fortune and Extra Loot are seed cards whose amounts are ``house``. The other
  cards (6 recruitment, 3 treasure, 8 capture) are ``house``. A group's own cards are
  tagged ``group``.
- **Gang of Two.** The rulebook's example (three 14s of different suits pay 2 loon, each card
  used once) cannot be a run in one suit, yet the card's name and the word "runs" point to
  Gang of Three's runs. We read a "2-card run" as two cards that are either numbers in a
  row of one suit or the same number in two suits; each such pair pays 2 loon and a card
  joins one pair only. Three 14s make one pair: 2 loon, as the example says.
- **Partners in Crime** pays 2 loon per two of a kind (same number, different suits), each
  card in one pair only: three of a kind pays 2 loon, as the example says.
- **Recruitment never costs**: recruitment amounts are 0 or more.
- **Ranked payouts** (Bountiful Booty and the like) rank distinct counts: all players tied
  on the highest count collect the first amount, those on the next count down the second,
  and so on (the rulebook's 3-3-2-2 example: 6, 6, 4, 4, nobody third). A player with no
  trick (or no matching card) never places.
- **Settling.** A player's treasure and capture amounts are added together first; if that
  total is a debt larger than their loon, they pay all they have (loon never goes below 0).
- **Predictions.** Tempt Fortune: exact +6 loon, otherwise -1 loon per trick off.
  Extra Loot: +1 loon per trick taken, and +4 more for an exact prediction.
- **House cards** follow the printed ones: odd/even cards of a suit, high or low numbers,
  runs of 4 and three of a kind (recruitment); most tricks, fewest tricks, pay per trick
  (treasure); cards of a suit or number range taken, some of them costing loon, and most
  cards of a suit (capture).
- **Top-up** is automatic: from the second round on, anyone under 5 loon starts with 5.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from operator import add, sub
from pathlib import Path
from typing import Any

from ...names import BadName, clean_text
from ..errors import IllegalAction
from ..spec import is_whole

SUITS = "RGB"  # tie-break order: red beats green beats blue
SUIT_NAMES = {"R": "red", "G": "green", "B": "blue"}
TRUMP = "R"
STARTING_LOON = 12
TOP_UP = 5
TRICKS = 10
HAND = 10
DECKS = ("recruitment", "treasure", "capture")
# Cards needed for the longest game (5 rounds: 2 recruitment, 1 treasure, 1 capture each).
MIN_DECK = {"recruitment": 10, "treasure": 5, "capture": 5}
MAX_DECK = 40
LOWEST = {3: 9, 4: 5, 5: 1}
TAGS = ("seed", "house", "group")

RECRUITMENT_KINDS = ("per_card", "groups")
END_KINDS = (
    "per_trick",
    "trick_rank",
    "fewest_tricks",
    "prediction",
    "per_captured",
    "captured_rank",
)
SHAPES = ("run", "set", "run_or_set")

_CATALOG_FILE = Path(__file__).with_name("cards.json")
_ID = re.compile(r"^[a-z0-9_]{1,40}$")


# -- crew cards -------------------------------------------------------------------------


def crew_deck(players: int) -> list[str]:
    """The crew cards for ``players`` (3: 9-20, 4: 5-20, 5: 1-20 of each suit), in order."""
    if players not in LOWEST:
        raise IllegalAction("Pirate Tricks is for 3 to 5 players.")
    return [f"{s}{n}" for s in SUITS for n in range(LOWEST[players], 21)]


def is_crew(card: object) -> bool:
    if not isinstance(card, str) or len(card) < 2 or card[0] not in SUITS:
        return False
    digits = card[1:]
    return digits.isdigit() and str(int(digits)) == digits and 1 <= int(digits) <= 20


def suit(card: str) -> str:
    return card[0]


def number(card: str) -> int:
    return int(card[1:])


def reveal_key(card: str) -> tuple[int, int]:
    """Auction tie-break: the higher number wins, then red over green over blue."""
    return (number(card), len(SUITS) - SUITS.index(suit(card)))


def card_name(card: str) -> str:
    return f"{SUIT_NAMES[suit(card)]} {number(card)}"


def sort_key(card: str) -> tuple[int, int]:
    """Hand order: red, green, blue, each from low to high."""
    return (SUITS.index(suit(card)), number(card))


def check_cards(cards: object, who: str = "The cards", *, limit: int | None = None) -> list:
    """A list of distinct crew card ids, or IllegalAction naming ``who``."""
    if not isinstance(cards, list):
        raise IllegalAction(f"{who}: expected a list of crew cards.")
    for card in cards:
        if not is_crew(card):
            raise IllegalAction(f"{who}: {str(card)[:20]!r} is not a crew card (e.g. R15, G3).")
    seen = set()
    for card in cards:
        if card in seen:
            raise IllegalAction(f"{who}: {card} appears twice.")
        seen.add(card)
    if limit is not None and len(cards) > limit:
        raise IllegalAction(f"{who}: at most {limit} cards, not {len(cards)}.")
    return cards


# -- filters ----------------------------------------------------------------------------


def matches(card_filter: dict, card: str) -> bool:
    """Whether crew ``card`` meets every condition of a (validated) filter."""
    n = number(card)
    if suit(card) not in card_filter.get("suits", SUITS):
        return False
    parity = card_filter.get("parity")
    if parity == "odd" and n % 2 == 0 or parity == "even" and n % 2 == 1:
        return False
    if not card_filter.get("min", 1) <= n <= card_filter.get("max", 20):
        return False
    return "numbers" not in card_filter or n in card_filter["numbers"]


def describe_filter(card_filter: dict) -> str:
    """``{"suits": "G", "parity": "odd"}`` -> ``"odd green card"``."""
    words = []
    if "parity" in card_filter:
        words.append(card_filter["parity"])
    suits = card_filter.get("suits")
    if suits and len(suits) < 3:
        words.append(" or ".join(SUIT_NAMES[s] for s in suits))
    words.append("card")
    lo, hi = card_filter.get("min"), card_filter.get("max")
    if lo is not None and hi is not None:
        words.append(f"numbered {lo} to {hi}" if lo != hi else f"numbered {lo}")
    elif lo is not None:
        words.append(f"numbered {lo} or more")
    elif hi is not None:
        words.append(f"numbered {hi} or less")
    if "numbers" in card_filter:
        nums = [str(n) for n in card_filter["numbers"]]
        listed = nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " or " + nums[-1]
        words.append(("and " if lo is not None or hi is not None else "") + f"numbered {listed}")
    return " ".join(words)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"\u2212{-n}"


def _ordinal(i: int) -> str:
    return ["most", "2nd most", "3rd most", "4th most", "5th most"][i]


def describe_effect(effect: dict) -> str:
    """One effect in a player's words."""
    kind = effect["kind"]
    if kind == "per_card":
        return f"{_signed(effect['loon'])} loon for each {describe_filter(effect['filter'])}"
    if kind == "groups":
        size, loon = effect["size"], effect["loon"]
        run = f"run of {size} numbers in a row in one suit"
        if size == 2:
            name, same = "pair", "the same number in two suits"
        else:
            name, same = f"group of {size}", f"the same number in {size} suits"
        what = {
            "run": run,
            "set": f"{name} ({same})",
            "run_or_set": f"{name} (either {size} numbers in a row in one suit, or {same})",
        }[effect["shape"]]
        unit = "run" if effect["shape"] == "run" else name
        return f"{_signed(loon)} loon for each {what}, each card in one {unit} only"
    if kind == "per_trick":
        return f"{_signed(effect['loon'])} loon for each trick taken"
    if kind in ("trick_rank", "captured_rank"):
        thing = "tricks" if kind == "trick_rank" else describe_filter(effect["filter"]) + "s taken"
        parts = [
            f"{_ordinal(i)} {thing}: {_signed(p)} loon" for i, p in enumerate(effect["payouts"])
        ]
        return "; ".join(parts) + " (ties all collect)"
    if kind == "fewest_tricks":
        return f"fewest tricks: {_signed(effect['loon'])} loon (ties all collect)"
    if kind == "prediction":
        text = f"exact prediction: {_signed(effect['hit'])} loon"
        miss, per_off = effect.get("miss", 0), effect.get("per_off", 0)
        if miss or per_off:
            other = []
            if miss:
                other.append(f"{_signed(miss)} loon")
            if per_off:
                other.append(f"{_signed(per_off)} loon per trick off")
            text += "; otherwise " + " and ".join(other)
        return text
    if kind == "per_captured":
        return f"{_signed(effect['loon'])} loon for each {describe_filter(effect['filter'])} taken"
    raise ValueError(kind)  # pragma: no cover - validated before


def describe_card(carddef: dict) -> str:
    text = "; ".join(describe_effect(e) for e in carddef["effects"])
    return text[:1].upper() + text[1:] + "."


# -- the catalog ------------------------------------------------------------------------


@cache
def _base_catalog_json() -> str:
    raw = json.loads(_CATALOG_FILE.read_text(encoding="utf-8"))
    catalog = {}
    for deck in DECKS:
        catalog[deck] = [_check_card(deck, card, builtin=True) for card in raw[deck]]
    _check_catalog(catalog)
    return json.dumps(catalog)


def load_catalog(custom: dict | None = None) -> dict:
    """The three score-card decks, with a group's corrections applied.

    ``custom`` may hold ``"recruitment"``, ``"treasure"`` and ``"capture"`` lists of cards
    (a card whose id already exists replaces it, in the same deck; a new id is added) and
    ``"remove"``, a list of card ids to take out. Each deck must keep enough cards for a
    five-round game. Bad data raises IllegalAction naming the card and the problem.
    """
    catalog = json.loads(_base_catalog_json())
    if custom is None or custom == {}:
        return catalog
    if not isinstance(custom, dict):
        raise IllegalAction("The card catalog changes must be an object.")
    unknown = sorted(set(custom) - {*DECKS, "remove"})
    if unknown:
        raise IllegalAction(
            f"The card catalog has no section {unknown[0]!r}; use recruitment, treasure, "
            "capture or remove."
        )
    home = {card["id"]: deck for deck in DECKS for card in catalog[deck]}
    removals = custom.get("remove", [])
    if not isinstance(removals, list) or not all(isinstance(i, str) for i in removals):
        raise IllegalAction('"remove" must be a list of card ids.')
    for card_id in removals:
        if card_id not in home:
            raise IllegalAction(f"There is no score card {card_id[:40]!r} to remove.")
        deck = home.pop(card_id)
        catalog[deck] = [c for c in catalog[deck] if c["id"] != card_id]
    for deck in DECKS:
        cards = custom.get(deck, [])
        if not isinstance(cards, list):
            raise IllegalAction(f"The {deck} cards must be a list.")
        if len(cards) > MAX_DECK:
            raise IllegalAction(f"At most {MAX_DECK} {deck} cards.")
        for raw in cards:
            card = _check_card(deck, raw, builtin=False)
            other = home.get(card["id"])
            if other is not None and other != deck:
                raise IllegalAction(
                    f"{card['name']}: the id {card['id']!r} is already a {other} card."
                )
            if other == deck:
                catalog[deck] = [card if c["id"] == card["id"] else c for c in catalog[deck]]
            else:
                catalog[deck].append(card)
                home[card["id"]] = deck
    _check_catalog(catalog)
    return catalog


def catalog_from_form(form: Any) -> dict | None:
    """A group's catalog changes from the new-sheet (or new-table) form: the printed and
    house cards not ticked in ``catalog_keep`` are taken out, and ``catalog_changes``
    holds cards to add or replace as JSON (``{"capture": [{"id", "name", "effects"}]}``).
    None when the form did not carry the boxes or nothing changed; bad data raises
    :class:`IllegalAction` saying what is wrong (the catalog is checked whole)."""
    if "catalog_changes" not in form:
        return None
    text = str(form.get("catalog_changes") or "").strip()
    changes: Any = {}
    if text:
        try:
            changes = json.loads(text)
        except ValueError:
            raise IllegalAction(
                'Score-card changes: write them as JSON, e.g. {"capture": [{"id": "my_card", '
                '"name": "My Card", "effects": [{"kind": "per_trick", "loon": 1}]}]}.'
            ) from None
        if not isinstance(changes, dict):
            raise IllegalAction("Score-card changes: write one object, {...}.")
    kept = set(form.getlist("catalog_keep") if hasattr(form, "getlist") else [])
    base = json.loads(_base_catalog_json())
    removed = [card["id"] for deck in DECKS for card in base[deck] if card["id"] not in kept]
    if removed:
        changes = dict(changes)
        listed = changes.get("remove", [])
        if not isinstance(listed, list):
            raise IllegalAction('"remove" must be a list of card ids.')
        changes["remove"] = [*listed, *(r for r in removed if r not in listed)]
    if not changes:
        return None
    load_catalog(changes)
    return changes


def _check_catalog(catalog: dict) -> None:
    for deck in DECKS:
        if len(catalog[deck]) < MIN_DECK[deck]:
            raise IllegalAction(
                f"The {deck} deck needs at least {MIN_DECK[deck]} cards for a five-round game; "
                f"it has {len(catalog[deck])}."
            )
        if len(catalog[deck]) > MAX_DECK:
            raise IllegalAction(f"At most {MAX_DECK} {deck} cards.")
    ids = [card["id"] for deck in DECKS for card in catalog[deck]]
    for card_id in ids:
        if ids.count(card_id) > 1:
            raise IllegalAction(f"Two score cards share the id {card_id!r}.")


def _int(value: object, where: str, lo: int, hi: int) -> int:
    if not is_whole(value) or not lo <= value <= hi:
        raise IllegalAction(f"{where} must be a whole number from {lo} to {hi}.")
    return value


def _check_filter(raw: object, where: str) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise IllegalAction(f"{where}: the filter must be an object.")
    extra = sorted(set(raw) - {"suits", "parity", "min", "max", "numbers"})
    if extra:
        raise IllegalAction(
            f"{where}: unknown filter field {extra[0]!r} (use suits, parity, min, max, numbers)."
        )
    out: dict[str, Any] = {}
    if "suits" in raw:
        suits = raw["suits"]
        if (
            not isinstance(suits, str)
            or not suits
            or any(s not in SUITS for s in suits)
            or len(set(suits)) != len(suits)
        ):
            raise IllegalAction(f'{where}: suits must be letters from "RGB", e.g. "RG".')
        out["suits"] = "".join(s for s in SUITS if s in suits)
    if "parity" in raw:
        if raw["parity"] not in ("odd", "even"):
            raise IllegalAction(f'{where}: parity must be "odd" or "even".')
        out["parity"] = raw["parity"]
    for key in ("min", "max"):
        if key in raw:
            out[key] = _int(raw[key], f"{where}: {key}", 1, 20)
    if out.get("min", 1) > out.get("max", 20):
        raise IllegalAction(f"{where}: min is above max.")
    if "numbers" in raw:
        nums = raw["numbers"]
        if not isinstance(nums, list) or not nums:
            raise IllegalAction(f"{where}: numbers must be a list such as [1, 3, 5].")
        out["numbers"] = sorted({_int(n, f"{where}: each number", 1, 20) for n in nums})
    return out


def _check_effect(deck: str, raw: object, where: str, builtin: bool) -> dict:
    kinds = RECRUITMENT_KINDS if deck == "recruitment" else END_KINDS
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        raise IllegalAction(f'{where}: an effect must be an object with a "kind".')
    kind = raw["kind"]
    if kind not in kinds:
        raise IllegalAction(
            f"{where}: a {deck} card can't have the effect {kind[:30]!r}; "
            f"use one of: {', '.join(kinds)}."
        )
    params = {
        "per_card": ({"filter", "loon"}, {"loon"}),
        "groups": ({"shape", "size", "loon"}, {"shape", "size", "loon"}),
        "per_trick": ({"loon"}, {"loon"}),
        "trick_rank": ({"payouts"}, {"payouts"}),
        "fewest_tricks": ({"loon"}, {"loon"}),
        "prediction": ({"hit", "miss", "per_off"}, {"hit"}),
        "per_captured": ({"filter", "loon"}, {"loon"}),
        "captured_rank": ({"filter", "payouts"}, {"payouts"}),
    }[kind]
    allowed, required = params
    extra = sorted(set(raw) - allowed - {"kind", "tag"})
    if extra:
        raise IllegalAction(f"{where}: {kind} has no field {extra[0]!r}.")
    missing = sorted(required - set(raw))
    if missing:
        raise IllegalAction(f"{where}: {kind} needs {missing[0]!r}.")
    tag = raw.get("tag", "house") if builtin else "group"
    if tag not in TAGS:
        raise IllegalAction(f"{where}: tag must be seed or house.")
    effect: dict[str, Any] = {"kind": kind}
    lo = 0 if deck == "recruitment" else -20
    if "loon" in allowed:
        effect["loon"] = _int(raw["loon"], f"{where}: loon", lo, 20)
    if "filter" in allowed:
        effect["filter"] = _check_filter(raw.get("filter"), where)
    if kind == "groups":
        if raw["shape"] not in SHAPES:
            raise IllegalAction(f"{where}: shape must be one of {', '.join(SHAPES)}.")
        effect["shape"] = raw["shape"]
        top = 3 if raw["shape"] != "run" else HAND
        effect["size"] = _int(raw["size"], f"{where}: size", 2, top)
    if "payouts" in allowed:
        payouts = raw["payouts"]
        if not isinstance(payouts, list) or not 1 <= len(payouts) <= 5:
            raise IllegalAction(f"{where}: payouts must be a list of 1 to 5 amounts.")
        effect["payouts"] = [_int(p, f"{where}: each payout", -20, 20) for p in payouts]
    if kind == "prediction":
        effect["hit"] = _int(raw["hit"], f"{where}: hit", -20, 20)
        effect["miss"] = _int(raw.get("miss", 0), f"{where}: miss", -20, 20)
        effect["per_off"] = _int(raw.get("per_off", 0), f"{where}: per_off", -10, 10)
    effect["tag"] = tag
    return effect


def _check_card(deck: str, raw: object, builtin: bool) -> dict:
    if not isinstance(raw, dict):
        raise IllegalAction(f"Each {deck} card must be an object.")
    name, bad_name = raw.get("name"), "the name must be 1 to 40 characters."
    if isinstance(name, str) and name.strip() and len(name) <= 40:
        try:  # the shared cleaner of names (companion/names.py): visible, no control character
            name = clean_text(name, 40, "the name")
        except BadName as error:
            name, bad_name = None, str(error)
    else:
        name = None
    label = name or ("?" if not isinstance(raw.get("id"), str) else raw["id"][:40])
    where = f"{deck.capitalize()} card {label!r}"
    if not isinstance(raw.get("id"), str) or not _ID.match(raw["id"]):
        raise IllegalAction(f"{where}: the id must be 1-40 lowercase letters, digits or _.")
    if name is None:
        raise IllegalAction(f"{where}: {bad_name}")
    extra = sorted(set(raw) - {"id", "name", "tag", "text", "effects", "prediction"})
    if extra:
        raise IllegalAction(f"{where}: unknown field {extra[0]!r}.")
    effects = raw.get("effects")
    if not isinstance(effects, list) or not 1 <= len(effects) <= 4:
        raise IllegalAction(f"{where}: effects must be a list of 1 to 4 effects.")
    card = {
        "id": raw["id"],
        "name": name.strip(),
        "tag": raw.get("tag", "house") if builtin else "group",
        "effects": [
            _check_effect(deck, e, f"{where}, effect {i + 1}", builtin)
            for i, e in enumerate(effects)
        ],
    }
    if card["tag"] not in TAGS:
        raise IllegalAction(f"{where}: tag must be seed or house.")
    text = raw.get("text")
    if text is not None and (not isinstance(text, str) or len(text) > 300):
        raise IllegalAction(f"{where}: the text must be at most 300 characters.")
    if text and text.strip():
        try:
            card["text"] = clean_text(text, 300, "the text")
        except BadName as error:
            raise IllegalAction(f"{where}: {error}") from None
    else:
        card["text"] = describe_card(card)
    card["prediction"] = needs_prediction(card)
    return card


def needs_prediction(carddef: dict) -> bool:
    """Whether players must predict their tricks while this card is in play."""
    return any(effect["kind"] == "prediction" for effect in carddef["effects"])


def card_index(catalog: dict) -> dict[str, tuple[str, dict]]:
    """``{card id: (deck, carddef)}`` over the three decks."""
    return {card["id"]: (deck, card) for deck in DECKS for card in catalog[deck]}


def _candidates(shape: str, size: int, hand: list[str]) -> list[tuple[str, ...]]:
    """Every group of ``shape`` and ``size`` among the cards of ``hand``: runs (red,
    green, blue; lowest start first), then sets (lowest number first)."""
    groups: list[tuple[str, ...]] = []
    held = set(hand)
    if shape in ("run", "run_or_set"):
        for s in SUITS:
            for start in range(1, 22 - size):
                run = tuple(f"{s}{n}" for n in range(start, start + size))
                if all(card in held for card in run):
                    groups.append(run)
    if shape in ("set", "run_or_set"):
        for n in range(1, 21):
            same = [f"{s}{n}" for s in SUITS if f"{s}{n}" in held]
            groups.extend(combinations(same, size))
    return groups


def deck_matching(card_filter: dict, players: int) -> int:
    """How many crew cards of the deck for ``players`` meet ``card_filter``."""
    return sum(matches(card_filter, card) for card in crew_deck(players))


def recruitment_most(carddef: dict, players: int) -> int:
    """An upper bound of what one recruitment card can pay a ten-card hand from the deck
    for ``players``: each effect counted at its best on its own (a card matching the
    filter, or a group of ``size`` cards, at most ``HAND`` cards)."""
    most = 0
    for effect in carddef["effects"]:
        if effect["kind"] == "per_card":
            most += effect["loon"] * min(HAND, deck_matching(effect["filter"], players))
        elif effect["kind"] == "groups":
            most += effect["loon"] * (HAND // effect["size"])
    return most


# -- end of round -----------------------------------------------------------------------


def places(values: list[int]) -> list[int | None]:
    """Dense places (1 = best) by value; ties share a place, a value of zero has none."""
    # Every positive value comes before the others in ``distinct``, so its index there is
    # its dense place less one (a few C calls: this runs at every round's end).
    distinct = sorted(set(values), reverse=True)
    return [distinct.index(v) + 1 if v > 0 else None for v in values]


def paid_by_place(ranked: list[int | None], payouts: list[int]) -> list[int]:
    """What each player's dense place (:func:`places`) is paid: every player on the k-th
    highest distinct count gets ``payouts[k]``. Ties all collect the amount of their place
    and the next count takes the next place (the rulebook's Bountiful Booty example); a
    count of zero never places."""
    return [
        payouts[place - 1] if place is not None and place <= len(payouts) else 0 for place in ranked
    ]


def payout_lines(
    carddef: dict,
    tricks: list[int],
    predictions: list[int] | None = None,
    won: list[list[str]] | None = None,
    counts: list[list[int]] | None = None,
    words: bool = True,
) -> list[dict]:
    """One treasure or capture card, effect by effect: what each player gets and why
    (``text`` left empty without ``words``).

    Each line is ``{"text", "kind", "measure", "places", "amounts"}``: ``measure`` is what
    the effect looks at per player (tricks, matching cards taken, or how far off the
    prediction was), ``places`` the dense place for ranked effects (else None).

    The captured cards come either as ``won`` (every crew card each player took) or as
    ``counts`` (for each player, how many cards matching each filtered effect they took, in
    the card's effect order), the score sheet's shortcut.
    """
    return [
        {
            "text": describe_effect(effect) if words else "",
            "kind": effect["kind"],
            "measure": measure,
            "places": ranked,
            "amounts": pay,
        }
        for effect, measure, ranked, pay in _effect_payouts(
            carddef, tricks, predictions, won, counts
        )
    ]


def _effect_payouts(
    carddef: dict,
    tricks: list[int],
    predictions: list[int] | None,
    won: list[list[str]] | None,
    counts: list[list[int]] | None,
) -> Iterator[tuple[dict, list[int], list[int | None] | None, list[int]]]:
    """:func:`payout_lines` as ``(effect, measure, places, amounts)``, without the
    line's dict (the engine's settlement adds the amounts up and needs nothing else)."""
    n = len(tricks)
    filtered = 0
    for effect in carddef["effects"]:
        kind = effect["kind"]
        ranked: list[int | None] | None = None
        if kind in ("per_captured", "captured_rank"):
            if counts is not None:
                measure = [counts[p][filtered] for p in range(n)]
            else:
                if won is None:
                    raise IllegalAction(f"{carddef['name']} needs the cards each player took.")
                measure = [sum(matches(effect["filter"], c) for c in won[p]) for p in range(n)]
            filtered += 1
        else:
            measure = list(tricks)
        if kind == "per_trick":
            pay = [effect["loon"] * t for t in tricks]
        elif kind == "trick_rank":
            ranked = places(tricks)
            pay = paid_by_place(ranked, effect["payouts"])
        elif kind == "fewest_tricks":
            fewest = min(tricks)
            ranked = [1 if t == fewest else None for t in tricks]
            pay = [effect["loon"] if t == fewest else 0 for t in tricks]
        elif kind == "prediction":
            if predictions is None:
                raise IllegalAction(f"{carddef['name']} needs every player's prediction.")
            measure = [abs(predictions[p] - tricks[p]) for p in range(n)]
            pay = [
                effect["hit"] if off == 0 else effect["miss"] + effect["per_off"] * off
                for off in measure
            ]
        elif kind == "per_captured":
            pay = [effect["loon"] * m for m in measure]
        elif kind == "captured_rank":
            ranked = places(measure)
            pay = paid_by_place(ranked, effect["payouts"])
        else:
            raise IllegalAction(f"{carddef['name']} is not a treasure or capture card.")
        yield effect, measure, ranked, pay


def card_payouts(
    carddef: dict,
    tricks: list[int],
    predictions: list[int] | None = None,
    won: list[list[str]] | None = None,
    counts: list[list[int]] | None = None,
) -> list[int]:
    """What each player collects (or owes, negative) from one treasure or capture card.

    See :func:`payout_lines` for ``won`` and ``counts``.
    """
    total = None
    for _, _, _, pay in _effect_payouts(carddef, tricks, predictions, won, counts):
        total = pay if total is None else list(map(add, total, pay))  # pay is a new list
    return total if total is not None else [0] * len(tricks)


def filtered_effects(carddef: dict) -> list[dict]:
    """The effects of a card that count captured cards (one count each on the sheet)."""
    return [e for e in carddef["effects"] if e["kind"] in ("per_captured", "captured_rank")]


def pay(loon: list[int], amounts: list[int]) -> list[int]:
    """New loon after each player receives ``amounts[p]``; a debt beyond loon takes it all."""
    # A comparison rather than max(): a builtin's call costs more (every round's end).
    return [
        new if (new := have + amount) > 0 else 0 for have, amount in zip(loon, amounts, strict=True)
    ]


def settled(
    treasure: dict,
    capture: dict,
    tricks: list[int],
    predictions: list[int] | None,
    loon: list[int],
    *,
    won: list[list[str]] | None = None,
    counts: tuple[list[list[int]], list[list[int]]] | None = None,
) -> dict:
    """The treasure and capture cards settled after the tenth trick, for data already
    checked (the engine's): each card's amount per player, the loon actually paid (after
    the pay-all-you-have floor, applied to the two cards together) and the new loon. The
    captured cards come as
    ``won`` or as ``counts`` (the treasure card's, the capture card's; see
    :func:`payout_lines`)."""
    t = card_payouts(treasure, tricks, predictions, won=won, counts=counts and counts[0])
    c = card_payouts(capture, tricks, predictions, won=won, counts=counts and counts[1])
    new = pay(loon, list(map(add, t, c)))  # one amount per player on each card
    return {"treasure": t, "capture": c, "paid": list(map(sub, new, loon)), "loon": new}


def top_up(loon: list[int]) -> list[int]:
    """Start of a later round: anyone under 5 loon is brought up to 5."""
    return [have if have > TOP_UP else TOP_UP for have in loon]  # not max(): a call each

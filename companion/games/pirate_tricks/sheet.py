"""Pirate Tricks score sheet (score mode): a loon ledger, one row of facts per round.

The group plays with the printed cards; the sheet stores only what happened in each round
and derives every payout with the same functions as the engine (:mod:`.rules`).

Options (:func:`check_options`): ``rounds`` (3, 4 or 5; default 3) and ``catalog`` (a
group's corrections to the score cards, as for the engine: :func:`rules.load_catalog`).

A round's facts::

    {"cards": {"recruitment": [id, id], "treasure": id, "capture": id},
     "players": [entry per player, in seat order]}

and a player's entry::

    {"bid": n,              loon paid for the row won (0 for a row taken free)
     "row_loon": 0 or 2,    the loon lying on that row (a zero-bid tie leaves 2 on it)
     "recruitment": n  or  "shown": [crew cards],   direct entry, or the cards shown,
                            scored against the round's two recruitment cards
     "prediction": n,       only while a prediction card (Tempt Fortune …) is in play
     "tricks": n,
     "captured": [crew cards]  or  "counts": {card id: n or [n, …]}}

``captured`` lists the crew cards the player took in tricks — all of them, or just the
ones that matter for the treasure and capture cards in play. ``counts`` is the shortcut:
for each of those cards that counts captured cards, how many matching cards the player
took (a list when the card has several such effects, in the card's order). Both may be
left out when no card in play looks at captured cards, or by a player who took no trick.

Derived for each player and round (:func:`summary`): the top-up (from the second round
on, anyone under 5 loon at the start is brought up to 5), the bid paid, the row's loon,
recruitment (with each card's detail when computed from shown cards), each treasure and
capture payout with the tie rule, the amount actually paid after the pay-all-you-have
floor, and the loon at the end. Each round also lists the treasure and capture cards
effect by effect (``lines``: what each effect measured, the places of ranked effects, the
amounts), so the table sees how a tie was paid. After the last round: the winner(s), most
loon, ties sharing the win.

:func:`add`, :func:`replace` and :func:`delete` return a *new* list of rounds or raise
:class:`SheetError` (an :class:`IllegalAction`) naming the round, the player and the field;
the rounds they were given are never changed. Players are numbered from 0; messages use
the players' names (``Player 1`` … by default).
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, SheetError
from . import rules

MAX_RECRUITMENT = 200


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(players: int, names: list[str] | None) -> list[str]:
    if names is None:
        return [f"Player {i + 1}" for i in range(players)]
    if not isinstance(names, list) or len(names) != players:
        raise SheetError(f"Give a name for each of the {players} players.")
    return [str(name) for name in names]


def check_options(players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``rounds`` (3/4/5, default 3) and ``catalog`` (a group's card changes). Idempotent."""
    if not _whole(players) or not 3 <= players <= 5:
        raise SheetError("Pirate Tricks is for 3 to 5 players.")
    options = dict(options or {})
    unknown = sorted(set(options) - {"rounds", "catalog"})
    if unknown:
        raise SheetError(f"Pirate Tricks has no option {unknown[0]!r}.")
    rounds = options.get("rounds", 3)
    if not _whole(rounds) or rounds not in (3, 4, 5):
        raise SheetError("A game lasts 3, 4 or 5 rounds.")
    checked: dict[str, Any] = {"rounds": rounds}
    if options.get("catalog"):
        try:
            rules.load_catalog(options["catalog"])
        except IllegalAction as error:
            raise SheetError(error.message, field="catalog") from None
        checked["catalog"] = options["catalog"]
    return checked


class _Round:
    """Checks one round's facts against the catalog and the loon each player starts with."""

    def __init__(self, players, options, names, catalog, number, start, drawn):
        self.players = players
        self.names = names
        self.catalog = catalog
        self.number = number
        self.start = start
        self.drawn = drawn
        self.deck = set(rules.crew_deck(players))
        self.index = rules.card_index(catalog)

    def fail(self, message: str, player: int | None = None, field: str | None = None):
        who = f"{self.names[player]}: " if player is not None else ""
        raise SheetError(
            f"Round {self.number}: {who}{message}", round=self.number, player=player, field=field
        )

    def whole(self, value, player, field, label, lo, hi) -> int:
        if not _whole(value) or not lo <= value <= hi:
            self.fail(f"{label} must be a whole number from {lo} to {hi}.", player, field)
        return value

    def card(self, card_id, deck) -> dict:
        found = self.index.get(card_id) if isinstance(card_id, str) else None
        if found is None or found[0] != deck:
            self.fail(f"{str(card_id)[:40]!r} is not a {deck} card of this game.", field="cards")
        if card_id in self.drawn:
            self.fail(
                f"{found[1]['name']} was already drawn in round {self.drawn[card_id]}.",
                field="cards",
            )
        return found[1]

    def crew(self, cards, player, field, label, limit=None) -> list[str]:
        try:
            rules.check_cards(cards, label, limit=limit)
        except IllegalAction as error:
            self.fail(error.message, player, field)
        for card in cards:
            if card not in self.deck:
                self.fail(
                    f"{label}: {card} is not in the crew deck for {self.players} players.",
                    player,
                    field,
                )
        return list(cards)

    def check(self, facts: Any) -> dict:
        if not isinstance(facts, dict) or set(facts) != {"cards", "players"}:
            self.fail('enter the score cards and each player\'s facts ("cards", "players").')
        cards = facts["cards"]
        if not isinstance(cards, dict) or set(cards) != {"recruitment", "treasure", "capture"}:
            self.fail("name the two recruitment cards, the treasure card and the capture card.")
        recruit = cards["recruitment"]
        if not isinstance(recruit, list) or len(recruit) != 2:
            self.fail("two recruitment cards are in play each round.", field="cards")
        if recruit[0] == recruit[1]:
            self.fail("the two recruitment cards must be different.", field="cards")
        recruitment = [self.card(c, "recruitment") for c in recruit]
        treasure = self.card(cards["treasure"], "treasure")
        capture = self.card(cards["capture"], "capture")
        self.end_cards = [treasure, capture]
        self.predicting = rules.needs_prediction(treasure) or rules.needs_prediction(capture)
        self.recruitment = recruitment

        entries = facts["players"]
        if not isinstance(entries, list) or len(entries) != self.players:
            self.fail(f"enter the facts of each of the {self.players} players.")
        clean = [self.entry(p, entry) for p, entry in enumerate(entries)]

        if sum(e["tricks"] for e in clean) != rules.TRICKS:
            total = sum(e["tricks"] for e in clean)
            self.fail(f"the tricks add up to {total}, but 10 tricks are played.", field="tricks")
        for p, entry in enumerate(clean):
            if "captured" in entry and len(entry["captured"]) > entry["tricks"] * self.players:
                self.fail(
                    f"{entry['tricks']} tricks hold only {entry['tricks'] * self.players} cards, "
                    f"not {len(entry['captured'])}.",
                    p,
                    "captured",
                )
        if not any(e["bid"] == 0 for e in clean):
            self.fail("the last row is taken free, so somebody's bid is 0.", field="bid")
        if sum(e["row_loon"] for e in clean) > 2 * self.players:
            self.fail(f"only {self.players} rows can hold loon.", field="row_loon")
        for field, label in (("shown", "shown"), ("captured", "taken")):
            owner: dict[str, int] = {}
            for p, entry in enumerate(clean):
                for card in entry.get(field, []):
                    if card in owner:
                        other = self.names[owner[card]]
                        self.fail(f"{card} is also {label} by {other}.", p, field)
                    owner[card] = p
        return {
            "cards": {
                "recruitment": list(recruit),
                "treasure": cards["treasure"],
                "capture": cards["capture"],
            },
            "players": clean,
        }

    def entry(self, p: int, raw: Any) -> dict:
        if not isinstance(raw, dict):
            self.fail("enter a bid, the tricks taken and the rest.", p)
        allowed = {"bid", "row_loon", "recruitment", "shown", "prediction", "tricks"}
        allowed |= {"captured", "counts"}
        extra = sorted(set(raw) - allowed)
        if extra:
            self.fail(f"unknown field {extra[0][:30]!r}.", p, extra[0][:30])
        out: dict[str, Any] = {}
        have = self.start[p]
        out["bid"] = self.whole(raw.get("bid", 0), p, "bid", "the bid", 0, 10**6)
        if out["bid"] > have:
            self.fail(f"bid {out['bid']} loon but had only {have}.", p, "bid")
        row_loon = raw.get("row_loon", 0)
        if row_loon not in (0, 2) or not _whole(row_loon):
            self.fail("the loon on a row is 0 or 2.", p, "row_loon")
        out["row_loon"] = row_loon
        if raw.get("shown") is not None and raw.get("recruitment") is not None:
            self.fail("enter the recruitment loon or the cards shown, not both.", p, "shown")
        if raw.get("shown") is not None:
            label = "the cards shown"
            out["shown"] = self.crew(raw["shown"], p, "shown", label, limit=rules.HAND)
        else:
            out["recruitment"] = self.whole(
                raw.get("recruitment", 0), p, "recruitment", "recruitment", 0, MAX_RECRUITMENT
            )
        out["tricks"] = self.whole(raw.get("tricks"), p, "tricks", "tricks", 0, rules.TRICKS)
        if self.predicting:
            if raw.get("prediction") is None:
                self.fail("a prediction card is in play: enter the prediction.", p, "prediction")
            prediction = raw["prediction"]
            out["prediction"] = self.whole(prediction, p, "prediction", "the prediction", 0, 10)
        elif raw.get("prediction") is not None:
            self.fail("no prediction card is in play this round.", p, "prediction")
        counting = [card for card in self.end_cards if rules.filtered_effects(card)]
        if raw.get("captured") is not None and raw.get("counts") is not None:
            self.fail("enter the cards taken or their counts, not both.", p, "captured")
        if raw.get("captured") is not None:
            out["captured"] = self.crew(raw["captured"], p, "captured", "the cards taken")
        else:
            counts = raw.get("counts") or {}
            if not isinstance(counts, dict):
                self.fail("counts must name each score card.", p, "counts")
            extra = sorted(set(counts) - {card["id"] for card in counting})
            if extra:
                self.fail(f"{extra[0][:40]!r} does not count captured cards.", p, "counts")
            out["counts"] = {}
            for card in counting:
                want = len(rules.filtered_effects(card))
                value = counts.get(card["id"])
                if value is None and out["tricks"] == 0:
                    value = [0] * want  # no trick, no cards
                if value is None:
                    self.fail(f"how many cards for {card['name']} were taken?", p, "counts")
                values = [value] if _whole(value) and want == 1 else value
                if not isinstance(values, list) or len(values) != want:
                    self.fail(f"{card['name']} needs {want} counts.", p, "counts")
                limit = out["tricks"] * self.players  # each trick holds one card a player
                label = f"the count for {card['name']}"
                out["counts"][card["id"]] = [
                    self.whole(v, p, "counts", label, 0, limit) for v in values
                ]
        return out


def _count_lists(card: dict, entries: list[dict]) -> list[list[int]]:
    """Per player, the number of captured cards matching each filtered effect of ``card``."""
    effects = rules.filtered_effects(card)
    out = []
    for entry in entries:
        if "captured" in entry:
            out.append(
                [sum(rules.matches(e["filter"], c) for c in entry["captured"]) for e in effects]
            )
        else:
            out.append(entry["counts"].get(card["id"], [0] * len(effects)))
    return out


def _score(clean: dict, catalog: dict, start: list[int], top_ups: list[int]) -> dict:
    index = rules.card_index(catalog)
    entries = clean["players"]
    recruit = [index[c][1] for c in clean["cards"]["recruitment"]]
    treasure = index[clean["cards"]["treasure"]][1]
    capture = index[clean["cards"]["capture"]][1]
    tricks = [e["tricks"] for e in entries]
    predictions = [e["prediction"] for e in entries] if "prediction" in entries[0] else None
    payouts, lines = {}, {}
    for key, card in (("treasure", treasure), ("capture", capture)):
        lines[key] = rules.payout_lines(
            card, tricks, predictions, counts=_count_lists(card, entries)
        )
        payouts[key] = [sum(line["amounts"][p] for line in lines[key]) for p in range(len(tricks))]
    before = []
    ledger = []
    for p, entry in enumerate(entries):
        detail = None
        if "shown" in entry:
            detail = [
                {"card": card["id"], "name": card["name"]}
                | rules.recruitment_detail(card, entry["shown"])
                for card in recruit
            ]
            recruitment = sum(d["loon"] for d in detail)
        else:
            recruitment = entry["recruitment"]
        have = start[p] - entry["bid"] + entry["row_loon"] + recruitment
        before.append(have)
        ledger.append(
            {
                "start": start[p],
                "top_up": top_ups[p],
                "bid": entry["bid"],
                "row_loon": entry["row_loon"],
                "recruitment": recruitment,
                "recruitment_detail": detail,
                "prediction": entry.get("prediction"),
                "tricks": entry["tricks"],
                "treasure": payouts["treasure"][p],
                "capture": payouts["capture"][p],
            }
        )
    owed = [payouts["treasure"][p] + payouts["capture"][p] for p in range(len(entries))]
    end = rules.pay(before, owed)
    for p, line in enumerate(ledger):
        line["before_settling"] = before[p]
        line["paid"] = end[p] - before[p]
        line["floored"] = end[p] - before[p] != owed[p]
        line["end"] = end[p]
    return {
        "cards": {
            "recruitment": [{"id": c["id"], "name": c["name"]} for c in recruit],
            "treasure": {"id": treasure["id"], "name": treasure["name"]},
            "capture": {"id": capture["id"], "name": capture["name"]},
        },
        "players": ledger,
        "lines": lines,
        "loon": end,
    }


def _walk(players: int, options: dict, rounds: list, names: list[str]) -> dict:
    """Check every round in order (each against the loon it starts with) and score it."""
    options = check_options(players, options)
    if not isinstance(rounds, list):
        raise SheetError("The rounds must be a list.")
    if len(rounds) > options["rounds"]:
        raise SheetError(f"This game has only {options['rounds']} rounds.")
    catalog = rules.load_catalog(options.get("catalog"))
    loon = [rules.STARTING_LOON] * players
    drawn: dict[str, int] = {}
    clean_rounds, rows = [], []
    for i, facts in enumerate(rounds):
        start = loon if i == 0 else rules.top_up(loon)
        top_ups = [s - had for s, had in zip(start, loon, strict=True)]
        clean = _Round(players, options, names, catalog, i + 1, start, drawn).check(facts)
        row = _score(clean, catalog, start, top_ups)
        row["round"] = i + 1
        rows.append(row)
        clean_rounds.append(clean)
        for card_id in (*clean["cards"]["recruitment"], clean["cards"]["treasure"]):
            drawn[card_id] = i + 1
        drawn[clean["cards"]["capture"]] = i + 1
        loon = row["loon"]
    over = len(rounds) == options["rounds"]
    nxt = None
    if not over:
        start = loon if not rounds else rules.top_up(loon)
        nxt = {
            "round": len(rounds) + 1,
            "start": start,
            "top_up": [s - had for s, had in zip(start, loon, strict=True)],
            "drawn": sorted(drawn),
        }
    return {
        "players": names,
        "rounds": options["rounds"],
        "rows": rows,
        "loon": loon,
        "next": nxt,
        "over": over,
        "winners": rules.winners(loon) if over else None,
        "clean": clean_rounds,
    }


def summary(
    players: int, options: dict | None, rounds: list, names: list[str] | None = None
) -> dict:
    """Every round's ledger, running loon, the next round's starting loon, the winners."""
    result = _walk(players, options or {}, rounds, _names(players, names))
    result.pop("clean")
    return result


def check_round(
    players: int,
    options: dict | None,
    rounds: list,
    facts: Any,
    names: list[str] | None = None,
) -> dict:
    """``facts`` for the round after ``rounds``, normalised; SheetError if anything is off."""
    return add(players, options, rounds, facts, names)[-1]


def add(
    players: int, options: dict | None, rounds: list, facts: Any, names: list[str] | None = None
) -> list:
    """A new list of rounds with ``facts`` appended (checked and normalised)."""
    names = _names(players, names)
    return _walk(players, options or {}, [*rounds, facts], names)["clean"]


def replace(
    players: int,
    options: dict | None,
    rounds: list,
    index: int,
    facts: Any,
    names: list[str] | None = None,
) -> list:
    """A new list with round ``index`` (from 0) replaced; later rounds must still hold."""
    if not _whole(index) or not 0 <= index < len(rounds):
        raise SheetError("There is no such round to change.")
    names = _names(players, names)
    return _walk(players, options or {}, [*rounds[:index], facts, *rounds[index + 1 :]], names)[
        "clean"
    ]


def delete(
    players: int, options: dict | None, rounds: list, index: int, names: list[str] | None = None
) -> list:
    """A new list without round ``index``; later rounds must still hold."""
    if not _whole(index) or not 0 <= index < len(rounds):
        raise SheetError("There is no such round to delete.")
    names = _names(players, names)
    return _walk(players, options or {}, [*rounds[:index], *rounds[index + 1 :]], names)["clean"]

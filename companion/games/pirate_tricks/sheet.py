"""Pirate Tricks score sheet (score mode): a loon ledger, one row of facts per round.

The group plays with the printed cards; the sheet stores only what happened in each round
and derives every payout with the same functions as the engine (:mod:`.rules`). Options
come from the spec (``rounds``, ``catalog``).

A round's facts (stored as is; existing sheets hold this shape)::

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
The round form (``spec.sheet_fields``) enters ``recruitment`` as the ``crew`` box and the
counts as the ``count`` boxes (:meth:`PirateTricksSheet.counted`); ``shown`` and
``captured`` come through the API.

Derived for each player and round (:meth:`PirateTricksSheet.summary`): the top-up (from
the second round on, anyone under 5 loon at the start is brought up to 5), the bid paid,
the row's loon, recruitment (with each card's detail when computed from shown cards),
each treasure and capture payout with the tie rule, the amount actually paid after the
pay-all-you-have floor, and the loon at the end. Each round also lists the treasure and
capture cards effect by effect (``lines``), so the table sees how a tie was paid.

Every refusal is a :class:`SheetError` naming the round, the player (by name) and the
field: a sheet field name (``bid``, ``crew``, ``tricks``, ``prediction``, ``row_loon``,
``treasure``, ``capture``) or one box's key (``recruitment-1``, ``count-2-0``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Sheet
from ..errors import IllegalAction, SheetError
from ..spec import Field, field_key, is_whole
from . import deck, rules
from .joined import JoinedSheet
from .spec import COUNT_BOXES, MAX_BID, MAX_RECRUITMENT, SPEC

DECK_OF_FIELD = {"recruitment": "recruitment", "treasure": "treasure", "capture": "capture"}
SUIT_WORDS = {"R": "Red", "G": "Green", "B": "Blue"}


class _Round:
    """Checks one round's facts against the catalog and the loon each player starts with."""

    def __init__(self, players, names, catalog, number, start, drawn):
        self.players = players
        self.names = names
        self.catalog = catalog
        self.number = number
        self.start = start
        self.drawn = drawn
        self.deck = set(rules.crew_deck(players))
        self.index = rules.card_index(catalog)
        self.slots: dict[str, int] = {}  # first count box of each counting card

    def fail(self, message: str, player: int | None = None, field: str | None = None):
        who = f"{self.names[player]}: " if player is not None else ""
        raise SheetError(
            f"Round {self.number}: {who}{message}", round=self.number, player=player, field=field
        )

    def whole(self, value, player, field, label, lo, hi) -> int:
        if not is_whole(value) or not lo <= value <= hi:
            self.fail(f"{label} must be a whole number from {lo} to {hi}.", player, field)
        return value

    def card(self, card_id, deck, field) -> dict:
        found = self.index.get(card_id) if isinstance(card_id, str) else None
        if found is None or found[0] != deck:
            self.fail(f"{str(card_id)[:40]!r} is not a {deck} card of this game.", field=field)
        if card_id in self.drawn:
            self.fail(
                f"{found[1]['name']} was already drawn in round {self.drawn[card_id]}.",
                field=field,
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

    def count_key(self, player: int, card_id: str | None = None, effect: int = 0) -> str:
        """The form box of a count: ``count-<slot>-<player>`` (the first count box when
        no card is named; ``count`` when no card in play counts captured cards)."""
        if card_id is None:
            if not self.slots:
                return "count"
            card_id = min(self.slots, key=self.slots.__getitem__)
        slot = self.slots.get(card_id, 0) + effect
        return field_key("count", slot, player) if slot < COUNT_BOXES else "count"

    def check(self, facts: Any) -> dict:
        if not isinstance(facts, dict) or set(facts) != {"cards", "players"}:
            self.fail('enter the score cards and each player\'s facts ("cards", "players").')
        cards = facts["cards"]
        if not isinstance(cards, dict) or set(cards) != {"recruitment", "treasure", "capture"}:
            self.fail("name the two recruitment cards, the treasure card and the capture card.")
        recruit = cards["recruitment"]
        if not isinstance(recruit, list) or len(recruit) != 2:
            self.fail("two recruitment cards are in play each round.", field="recruitment")
        if recruit[0] == recruit[1]:
            self.fail("the two recruitment cards must be different.", field="recruitment-1")
        recruitment = [
            self.card(c, "recruitment", field_key("recruitment", i)) for i, c in enumerate(recruit)
        ]
        treasure = self.card(cards["treasure"], "treasure", "treasure")
        capture = self.card(cards["capture"], "capture", "capture")
        self.end_cards = [treasure, capture]
        slot = 0
        for card in self.end_cards:
            if rules.filtered_effects(card):
                self.slots[card["id"]] = slot
                slot += len(rules.filtered_effects(card))
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
                    self.count_key(p),
                )
        self.check_counts(clean)
        if not any(e["bid"] == 0 for e in clean):
            self.fail("the last row is taken free, so somebody's bid is 0.", field="bid")
        if sum(e["row_loon"] for e in clean) > 2 * self.players:
            self.fail(f"only {self.players} rows can hold loon.", field="row_loon")
        for fact, label in (("shown", "shown"), ("captured", "taken")):
            owner: dict[str, int] = {}
            for p, entry in enumerate(clean):
                for card in entry.get(fact, []):
                    if card in owner:
                        other = self.names[owner[card]]
                        where = "crew" if fact == "shown" else self.count_key(p)
                        self.fail(f"{card} is also {label} by {other}.", p, where)
                    owner[card] = p
        return {
            "cards": {
                "recruitment": list(recruit),
                "treasure": cards["treasure"],
                "capture": cards["capture"],
            },
            "players": clean,
        }

    def check_counts(self, clean: list[dict]) -> None:
        """Counts of captured cards within what the deck holds: for each effect that
        counts cards, no player (and not all players together) took more matching cards
        than the crew deck for this many players has."""
        for card in self.end_cards:
            for j, effect in enumerate(rules.filtered_effects(card)):
                held = rules.deck_matching(effect["filter"], self.players)
                what = rules.describe_filter(effect["filter"]).replace("card", "cards", 1)
                total = 0
                for p, entry in enumerate(clean):
                    if "counts" not in entry:
                        continue
                    count = entry["counts"][card["id"]][j]
                    total += count
                    if count > held:
                        self.fail(
                            f"{count} {what} taken, but the deck for {self.players} players "
                            f"holds only {held}.",
                            p,
                            self.count_key(p, card["id"], j),
                        )
                    if total > held:
                        self.fail(
                            f"the counts of {what} taken add up to {total}, but the deck for "
                            f"{self.players} players holds only {held}.",
                            p,
                            self.count_key(p, card["id"], j),
                        )

    def entry(self, p: int, raw: Any) -> dict:
        if not isinstance(raw, dict):
            self.fail("enter a bid, the tricks taken and the rest.", p)
        allowed = {"bid", "row_loon", "recruitment", "shown", "prediction", "tricks"}
        allowed |= {"captured", "counts"}
        extra = sorted(set(raw) - allowed)
        if extra:
            self.fail(f"unknown field {extra[0][:30]!r}.", p)
        out: dict[str, Any] = {}
        have = self.start[p]
        out["bid"] = self.whole(raw.get("bid", 0), p, "bid", "the bid", 0, MAX_BID)
        if out["bid"] > have:
            self.fail(f"bid {out['bid']} loon but had only {have}.", p, "bid")
        row_loon = raw.get("row_loon", 0)
        if row_loon not in (0, 2) or not is_whole(row_loon):
            self.fail("the loon on a row is 0 or 2.", p, "row_loon")
        out["row_loon"] = row_loon
        if raw.get("shown") is not None and raw.get("recruitment") is not None:
            self.fail("enter the recruitment loon or the cards shown, not both.", p, "crew")
        if "recruitment" in raw and raw["recruitment"] is None and raw.get("shown") is None:
            self.fail("enter the recruitment loon (0 if none), or tick the cards shown.", p, "crew")
        if raw.get("shown") is not None:
            label = "the cards shown"
            out["shown"] = self.crew(raw["shown"], p, "crew", label, limit=rules.HAND)
        else:
            out["recruitment"] = self.whole(
                raw.get("recruitment", 0), p, "crew", "recruitment", 0, MAX_RECRUITMENT
            )
            most = sum(rules.recruitment_most(card, self.players) for card in self.recruitment)
            if out["recruitment"] > most:
                names = " and ".join(card["name"] for card in self.recruitment)
                self.fail(
                    f"recruitment {out['recruitment']} loon, but {names} pay at most {most} "
                    "for a hand of ten.",
                    p,
                    "crew",
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
            self.fail("enter the cards taken or their counts, not both.", p, self.count_key(p))
        if raw.get("captured") is not None:
            out["captured"] = self.crew(raw["captured"], p, self.count_key(p), "the cards taken")
        else:
            counts = raw.get("counts") or {}
            if not isinstance(counts, dict):
                self.fail("counts must name each score card.", p, self.count_key(p))
            extra = sorted(set(counts) - {card["id"] for card in counting})
            if extra:
                self.fail(f"{extra[0][:40]!r} does not count captured cards.", p, self.count_key(p))
            out["counts"] = {}
            for card in counting:
                want = len(rules.filtered_effects(card))
                value = counts.get(card["id"])
                if value is None and out["tricks"] == 0:
                    value = [0] * want  # no trick, no cards
                if value is None:
                    self.fail(
                        f"how many cards for {card['name']} were taken?",
                        p,
                        self.count_key(p, card["id"]),
                    )
                values = [value] if is_whole(value) and want == 1 else value
                if not isinstance(values, list) or len(values) != want:
                    self.fail(
                        f"{card['name']} needs {want} counts.", p, self.count_key(p, card["id"])
                    )
                limit = out["tricks"] * self.players  # each trick holds one card a player
                label = f"the count for {card['name']}"
                out["counts"][card["id"]] = [
                    self.whole(v, p, self.count_key(p, card["id"], j), label, 0, limit)
                    for j, v in enumerate(values)
                ]
        return out


def _crew_order(card: Any) -> tuple:
    return rules.sort_key(card) if rules.is_crew(card) else (9, 0)


TAG_WORDS = {"seed": "", "house": " (house card)", "group": " (your group's card)"}


def _choice_label(card: dict) -> str:
    """A score card in the round form's choices: its name, marked when the rulebook does
    not print it (a house card, or the group's own)."""
    return card["name"] + TAG_WORDS.get(card["tag"], "")


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
                | deck.recruitment_detail(card, entry["shown"])
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


class PirateTricksSheet(JoinedSheet, Sheet):
    """The loon ledger of named players (see the module docstring for the facts); on a
    sheet the players joined, the auction row by row and loon behind each screen
    (:mod:`.joined`)."""

    spec = SPEC

    def __init__(self, names, options=None):
        super().__init__(names, options)
        self.catalog = rules.load_catalog(self.options.get("catalog") or None)
        self.index = rules.card_index(self.catalog)

    # -- the score cards (what the round form needs) -------------------------------------

    def cards(self) -> dict[str, list[dict[str, Any]]]:
        """The score cards of each deck: id, name, text, tag, whether it asks for
        predictions."""
        return {
            deck: [
                {
                    "id": card["id"],
                    "name": card["name"],
                    "text": card["text"],
                    "tag": card["tag"],
                    "prediction": rules.needs_prediction(card),
                }
                for card in self.catalog[deck]
            ]
            for deck in rules.DECKS
        }

    def counted(self, card_ids: list[Any]) -> list[dict[str, Any]]:
        """The counts a round needs from each player: one per effect of the given treasure
        and capture cards that counts captured cards, in the order of the ``count`` boxes
        (``card``, ``name``, ``slot`` within the card, ``label``)."""
        counted = []
        for card_id in card_ids:
            found = self.index.get(card_id) if isinstance(card_id, str) else None
            if found is None or found[0] == "recruitment":
                continue
            for slot, effect in enumerate(rules.filtered_effects(found[1])):
                label = rules.describe_filter(effect["filter"]).replace("card", "cards", 1)
                counted.append(
                    {
                        "card": card_id,
                        "name": found[1]["name"],
                        "slot": slot,
                        "label": f"{label} taken",
                    }
                )
        return counted

    def predicting(self, card_ids: list[Any]) -> bool:
        """Whether one of the given cards asks every player for a trick prediction."""
        return any(
            rules.needs_prediction(self.index[card_id][1])
            for card_id in card_ids
            if isinstance(card_id, str) and card_id in self.index
        )

    def card_boxes(self) -> dict[str, dict[str, Any]]:
        """Per treasure and capture card: whether it asks for predictions and the labels of
        the counts it needs (the round form shows only the boxes the chosen cards need)."""
        return {
            card["id"]: {
                "prediction": rules.needs_prediction(card),
                "counts": [c["label"] for c in self.counted([card["id"]])],
            }
            for deck in ("treasure", "capture")
            for card in self.catalog[deck]
        }

    def choices(self, field: Field) -> list[tuple[str, str]]:
        if field.name == "shown":  # the crew cards in play, grouped by suit in their labels
            deck = rules.crew_deck(self.players)
            return [(card, f"{SUIT_WORDS[card[0]]} {card[1:]}") for card in deck]
        deck = DECK_OF_FIELD.get(field.name)
        if deck is None:
            return []
        return [(card["id"], _choice_label(card)) for card in self.catalog[deck]]

    # -- rows ----------------------------------------------------------------------------

    def _walk(self, rows: list) -> tuple[list[int], dict[str, int], list[dict]]:
        """Score checked ``rows`` in order: the loon after them, the cards drawn (id ->
        round) and each round's ledger."""
        loon = [rules.STARTING_LOON] * self.players
        drawn: dict[str, int] = {}
        scored = []
        for i, clean in enumerate(rows):
            start = loon if i == 0 else rules.top_up(loon)
            top_ups = [s - had for s, had in zip(start, loon, strict=True)]
            row = _score(clean, self.catalog, start, top_ups)
            row["round"] = i + 1
            scored.append(row)
            cards = clean["cards"]
            for card_id in (*cards["recruitment"], cards["treasure"], cards["capture"]):
                drawn[card_id] = i + 1
            loon = row["loon"]
        return loon, drawn, scored

    def check_row(self, index: int, facts: Any, before: list[Any]) -> dict:
        limit = self.options["rounds"]
        if index >= limit:
            raise SheetError(f"This game has only {limit} rounds.", round=index + 1)
        loon, drawn, _ = self._walk(before)
        start = loon if index == 0 else rules.top_up(loon)
        return _Round(self.players, self.names, self.catalog, index + 1, start, drawn).check(facts)

    def check_partial(self, index: int, values: dict[str, Any], before: list[Any]) -> None:
        """The steps of round ``index`` saved so far, each checked against what the earlier
        steps fix: the auction of a joined sheet (:meth:`JoinedSheet.check_auction`); the
        score cards (real cards of this game, not drawn before, two
        different recruitment cards); the bids (none above the loon the player holds, and
        somebody took the free row); the predictions, made before recruitment (each player
        predicts under a prediction card, nobody without one); recruitment (no more than
        the two recruitment cards pay for a hand of ten)."""
        limit = self.options["rounds"]
        if index >= limit:
            raise SheetError(f"This game has only {limit} rounds.", round=index + 1)
        loon, drawn, _ = self._walk(before)
        start = loon if index == 0 else rules.top_up(loon)
        check = _Round(self.players, self.names, self.catalog, index + 1, start, drawn)
        if "row_bid" in values or "row_winner" in values:
            self.check_auction(check, start, values)
        recruitment: list[dict] = []
        predicting = False
        if "treasure" in values:
            recruit = values["recruitment"]
            if recruit[0] == recruit[1]:
                check.fail("the two recruitment cards must be different.", field="recruitment-1")
            recruitment = [
                check.card(card_id, "recruitment", field_key("recruitment", i))
                for i, card_id in enumerate(recruit)
            ]
            check.card(values["treasure"], "treasure", "treasure")
            check.card(values["capture"], "capture", "capture")
            predicting = self.predicting([values["treasure"], values["capture"]])
        if "bid" in values:
            for p, bid in enumerate(values["bid"]):
                if bid is not None and bid > start[p]:
                    check.fail(f"bid {bid} loon but had only {start[p]}.", p, "bid")
            if not any(bid == 0 for bid in values["bid"]):
                check.fail("the last row is taken free, so somebody's bid is 0.", field="bid-0")
        for p, said in enumerate(values.get("prediction") or []):
            if predicting and said is None:
                check.fail("a prediction card is in play: enter the prediction.", p, "prediction")
            if not predicting and said is not None:
                check.fail("no prediction card is in play this round.", p, "prediction")
        most = sum(rules.recruitment_most(card, self.players) for card in recruitment)
        for p, crew in enumerate(values.get("crew") or []):
            if recruitment and crew is not None and crew > most:
                names = " and ".join(card["name"] for card in recruitment)
                check.fail(
                    f"recruitment {crew} loon, but {names} pay at most {most} for a hand of ten.",
                    p,
                    "crew",
                )

    def summary(self, rows: list) -> dict[str, Any]:
        """Every round's ledger, the loon after each, the next round's starting loon and
        the cards already drawn, the winners; ``cards`` (the catalog by id) and
        ``card_boxes`` for the round form."""
        clean = self.check(rows)
        loon, drawn, scored = self._walk(clean)
        over = len(clean) == self.options["rounds"]
        nxt = None
        if not over:
            start = loon if not clean else rules.top_up(loon)
            nxt = {
                "round": len(clean) + 1,
                "start": start,
                "top_up": [s - had for s, had in zip(start, loon, strict=True)],
                "drawn": sorted(drawn),
            }
        cards = {
            card["id"]: {**card, "deck": deck}
            for deck, listed in self.cards().items()
            for card in listed
        }
        return self.common(
            totals=loon,
            over=over,
            rounds=self.options["rounds"],
            rows=scored,
            running=[list(row["loon"]) for row in scored],
            start=[rules.STARTING_LOON] * self.players,
            next=nxt,
            cards=cards,
            card_boxes=self.card_boxes(),
            crew_deck=rules.crew_deck(self.players),
        )

    # -- every fact ------------------------------------------------------------------------

    LEDGER = (
        ("start", "loon at the start"),
        ("top_up", "top-up"),
        ("bid", "bid"),
        ("row_loon", "row loon"),
        ("recruitment", "recruitment"),
        ("prediction", "prediction"),
        ("tricks", "tricks"),
        ("counts", "captured counts"),
        ("treasure", "treasure"),
        ("capture", "capture"),
        ("paid", "settled"),
        ("end", "loon at the end"),
    )

    def fact_table(self, rows: list, summary: dict[str, Any]) -> dict[str, list]:
        """Per round: the four score cards, then each player's loon ledger — loon at the
        start, top-up, bid, the row's loon, recruitment, prediction, tricks, the captured
        counts, the treasure and capture payouts, what was settled (after the pay-all-you-
        have floor) and the loon at the end."""
        columns = ["Round", "Recruitment cards", "Treasure card", "Capture card"]
        columns += [f"{name} {label}" for name in self.names for _, label in self.LEDGER]
        out = []
        for facts, row in zip(rows, summary["rows"], strict=True):
            cards = row["cards"]
            line: list[Any] = [
                row["round"],
                " + ".join(card["name"] for card in cards["recruitment"]),
                cards["treasure"]["name"],
                cards["capture"]["name"],
            ]
            for entry, ledger in zip(facts["players"], row["players"], strict=True):
                for key, _ in self.LEDGER:
                    if key == "counts":
                        line.append(self._counts_text(entry))
                    elif key == "prediction":
                        line.append("" if ledger["prediction"] is None else ledger["prediction"])
                    else:  # a figure behind a player's screen (seen_by) is None
                        line.append("" if ledger[key] is None else ledger[key])
            out.append(line)
        final: list[Any] = ["Total", "", "", ""]
        for p in range(self.players):
            total = summary["totals"][p]
            final += [""] * (len(self.LEDGER) - 1) + ["" if total is None else total]
        return {"columns": columns, "rows": out, "totals": final}

    def _counts_text(self, entry: dict) -> str:
        """A player's captured cards (or their counts) in words, "" when none matter."""
        if "captured" in entry:
            return " ".join(entry["captured"])
        parts = []
        for card_id, counts in (entry.get("counts") or {}).items():
            name = self.index[card_id][1]["name"] if card_id in self.index else card_id
            parts.append(f"{name} {', '.join(map(str, counts))}")
        return "; ".join(parts)

    # -- the round form ------------------------------------------------------------------

    def read(self, form: Mapping[str, Any], stage: str | None = None) -> Any:
        """The round form: the typed boxes, and for a player whose recruitment box is
        empty the crew cards ticked in ``shown-<player>`` (the calculator: the sheet
        works out the loon from the round's recruitment cards, as the engine does)."""
        facts = super().read(form, stage)
        if stage is not None:
            return facts
        for p, entry in enumerate(facts["players"]):
            key = field_key("shown", p)
            raw = form.getlist(key) if hasattr(form, "getlist") else form.get(key)
            shown = [raw] if isinstance(raw, str) else list(raw or [])
            if len(shown) == 1:  # a phone's box: the cards in one text (or one ticked)
                shown = shown[0].replace(",", " ").split()
            if not shown and key in form and entry["recruitment"] is None:
                entry["recruitment"] = 0  # a phone that showed no card earns nothing
            if not shown:
                continue
            if entry["recruitment"] is not None:
                raise SheetError(
                    f"{self.names[p]}: enter the recruitment loon or tick the cards shown, "
                    "not both.",
                    player=p,
                    field=field_key("crew", p),
                )
            del entry["recruitment"]
            entry["shown"] = sorted(shown, key=_crew_order)
        return facts

    def facts_from_values(self, values: dict[str, Any]) -> dict[str, Any]:
        """The typed boxes -> a round's facts: the prediction only under a prediction card,
        the counts only for the cards that count captured cards (a card whose counts are
        all left empty is left out: the sheet asks for them, or knows they are 0 for a
        player without a trick)."""
        n = self.players
        empty = [None] * n
        recruitment = values.get("recruitment") or [None, None]
        treasure, capture = values.get("treasure"), values.get("capture")
        counted = self.counted([treasure, capture])
        predicting = self.predicting([treasure, capture])
        boxes = values.get("count") or []
        players = []
        for p in range(n):
            entry: dict[str, Any] = {
                "bid": (values.get("bid") or empty)[p],
                "row_loon": 2 if (values.get("row_loon") or empty)[p] else 0,
                "recruitment": (values.get("crew") or empty)[p],
                "tricks": (values.get("tricks") or empty)[p],
            }
            if predicting:
                entry["prediction"] = (values.get("prediction") or empty)[p]
            counts: dict[str, list] = {}
            for k, count in enumerate(counted):
                value = boxes[k][p] if k < len(boxes) else None
                counts.setdefault(count["card"], []).append(value)
            entry["counts"] = {
                card: listed
                for card, listed in counts.items()
                if any(v is not None for v in listed)
            }
            players.append(entry)
        return {
            "cards": {"recruitment": list(recruitment), "treasure": treasure, "capture": capture},
            "players": players,
        }

    def values_of(self, facts: Any) -> dict[str, Any]:
        """A stored round -> the typed boxes, to edit it. Cards shown become their
        recruitment loon and cards taken their counts (the form's way of entering them)."""
        n = self.players
        cards = facts["cards"]
        treasure, capture = cards["treasure"], cards["capture"]
        counted = self.counted([treasure, capture])
        recruit = [self.index[c][1] for c in cards["recruitment"] if c in self.index]
        values: dict[str, Any] = {
            "recruitment": list(cards["recruitment"]),
            "treasure": treasure,
            "capture": capture,
            "bid": [],
            "row_loon": [],
            "crew": [],
            "prediction": [],
            "tricks": [],
            "count": [[None] * n for _ in range(COUNT_BOXES)],
        }
        for p, entry in enumerate(facts["players"]):
            values["bid"].append(entry.get("bid", 0))
            values["row_loon"].append(entry.get("row_loon", 0) == 2)
            if "shown" in entry:
                crew = sum(deck.recruitment_loon(card, entry["shown"]) for card in recruit)
            else:
                crew = entry.get("recruitment")
            values["crew"].append(crew)
            values["prediction"].append(entry.get("prediction"))
            values["tricks"].append(entry.get("tricks"))
            counts = entry.get("counts") or {}
            for k, count in enumerate(counted[:COUNT_BOXES]):
                if "captured" in entry:
                    effect = rules.filtered_effects(self.index[count["card"]][1])[count["slot"]]
                    value = sum(rules.matches(effect["filter"], c) for c in entry["captured"])
                else:
                    listed = counts.get(count["card"])
                    if is_whole(listed):
                        listed = [listed]
                    value = (
                        listed[count["slot"]] if listed and count["slot"] < len(listed) else None
                    )
                values["count"][k][p] = value
        return values

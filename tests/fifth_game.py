"""A fifth, test-only game: "High card", registered at test time only.

2–4 players, ``cards`` cards each (1..8, default 3) from a deck of 1..40. Everyone plays
one card per trick in turn, starting with the last trick's winner; the highest card wins
the trick; a player's score is the tricks taken. Its score sheet asks, each round, the
tricks each player took. It has no template, no board module and no web code of its own:
the generic layer must carry it in both modes (``tests/web/test_fifth_game.py``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games import moments, register, unregister
from companion.games.base import Game, Sheet, State
from companion.games.errors import SheetError
from companion.games.spec import Field, Option, Spec

SLUG = "high_card"
DECK = 40

SPEC = Spec(
    slug=SLUG,
    name="High card",
    tagline="Everyone plays a card; the highest takes the trick.",
    min_players=2,
    max_players=4,
    round_word="hand",
    score_word="Tricks",
    suit=("hearts", "♥"),
    order=999,
    options=(
        Option(
            "cards", "int", "Cards each", default=3, low=1, high=8, help="Also tricks per hand."
        ),
        Option(
            "target", "int", "Tricks to win", default=10, low=1, high=99, modes=frozenset({"score"})
        ),
    ),
    sheet_fields=(Field("tricks", "int", "Tricks", repeat=("players",), low=0, high=8),),
)


class HighCardState(State):
    slug = SLUG

    def _setup(self) -> None:
        rng = random.Random(self.seed)
        deck = list(range(1, DECK + 1))
        rng.shuffle(deck)
        n = self.options["cards"]
        self.hands = [sorted(deck[i * n : (i + 1) * n]) for i in range(self.players)]
        self.trick: list[list[int]] = []  # [seat, card]
        self.leader = 0
        self.tricks = [0] * self.players
        self.last: list[list[int]] = []

    def is_over(self) -> bool:
        return not any(self.hands) and not self.trick

    def scores(self) -> list[int]:
        return list(self.tricks)

    def _to_act(self) -> list[int]:
        return [(self.leader + len(self.trick)) % self.players]

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "play", "card": f"c{card}"} for card in self.hands[seat]]

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        card = int(action["card"][1:])
        self.hands[seat].remove(card)
        self.trick.append([seat, card])
        if len(self.trick) == self.players:
            winner = max(self.trick, key=lambda play: play[1])[0]
            self.tricks[winner] += 1
            self.last = self.trick
            self.trick = []
            self.leader = winner

    def _view(self, seat: int | None) -> dict[str, Any]:
        own: dict[str, Any] = {
            "trick": [[seat_, f"c{card}"] for seat_, card in self.trick],
            "leader": self.leader,
            "cards_left": len(self.hands[0]) if self.hands else 0,
        }
        if seat is not None:
            own["hand"] = [f"c{card}" for card in self.hands[seat]]
        return own

    def prompt(self, seat: int | None) -> str:
        if self.is_over():
            return "The game is over."
        if seat is not None and seat in self.to_act():
            return "Play a card: the highest takes the trick."
        return ""

    def describe(self, action: dict[str, Any]) -> str:
        return f"Play {action['card'][1:]}"

    def result(self) -> dict[str, Any] | None:
        """The last trick, as every screen's result card shows it (no JavaScript of its
        own: the generic card draws it, and the log lists it)."""
        if not self.last:
            return None
        number = sum(self.tricks)
        winner = max(self.last, key=lambda play: play[1])[0]
        return moments.result_card(
            f"trick-{number}",
            "trick",
            f"Trick {number}",
            [moments.seat(winner), " takes the trick"],
            cards=[[seat, f"c{card}"] for seat, card in self.last],
            columns=["Tricks"],
            rows=[moments.row([s], [n]) for s, n in enumerate(self.tricks)],
        )


class HighCardSheet(Sheet):
    spec = SPEC

    def check_row(self, index: int, facts: Any, before: list[Any]) -> Any:
        if not isinstance(facts, dict) or not isinstance(facts.get("tricks"), list):
            raise SheetError("A hand is the tricks of each player.", round=index + 1)
        tricks = facts["tricks"]
        if len(tricks) != self.players:
            raise SheetError("Give everybody's tricks.", round=index + 1, field="tricks")
        for seat, count in enumerate(tricks):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise SheetError(
                    f"{self.names[seat]}: tricks must be a whole number.",
                    round=index + 1,
                    player=seat,
                    field="tricks",
                )
        cards = self.options["cards"]
        if sum(tricks) != cards:
            raise SheetError(
                f"The tricks must add up to {cards}, not {sum(tricks)}.",
                round=index + 1,
                field="tricks",
            )
        row = {"tricks": list(tricks)}
        if "lead" in facts:  # the variant with a first step (LEAD_GAME)
            row["lead"] = facts["lead"]
        return row

    def summary(self, rows: list) -> dict[str, Any]:
        totals = [0] * self.players
        out = []
        for facts in rows:
            totals = [t + n for t, n in zip(totals, facts["tricks"], strict=True)]
            out.append({"points": list(facts["tricks"]), "totals": list(totals)})
        over = max(totals) >= self.options["target"]
        return self.common(totals, over, rows=out, next=None if over else {})


class HighCardGame(Game):
    spec = SPEC
    state_class = HighCardState
    sheet_class = HighCardSheet

    def card_faces(self, options=None):
        return {
            f"c{n}": {"text": str(n), "label": f"card {n}", "colour": "black"}
            for n in range(1, DECK + 1)
        }


GAME = HighCardGame()

# A variant whose sheet asks a "choose" field first, on a step of its own: who led.
LEAD_SPEC = replace(
    SPEC,
    slug="high_card_lead",
    name="High card (lead first)",
    order=1000,
    sheet_fields=(
        Field("lead", "seat", "Who led", stage="choose"),
        *SPEC.sheet_fields,
    ),
)


class LeadSheet(HighCardSheet):
    spec = LEAD_SPEC


class LeadGame(HighCardGame):
    spec = LEAD_SPEC
    sheet_class = LeadSheet


LEAD_GAME = LeadGame()


def install() -> Game:
    register(LEAD_GAME)
    return register(GAME)


def uninstall() -> None:
    unregister(SLUG)
    unregister(LEAD_SPEC.slug)

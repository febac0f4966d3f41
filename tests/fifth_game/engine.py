"""High card in Play mode: the state machine, and the game (``GAME``)."""

from __future__ import annotations

import random
from typing import Any

from companion.games import moments
from companion.games.base import Game, State

from . import rules
from .sheet import HighCardSheet
from .spec import SPEC


class HighCardState(State):
    def _setup(self) -> None:
        rng = random.Random(self.seed)
        deck = list(range(1, rules.DECK + 1))
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
            winner = rules.trick_winner(self.trick)
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


class HighCardGame(Game):
    spec = SPEC
    state_class = HighCardState
    sheet_class = HighCardSheet

    def card_faces(self, options=None):
        return {
            f"c{n}": {"text": str(n), "label": f"card {n}", "colour": "black"}
            for n in range(1, rules.DECK + 1)
        }


GAME = HighCardGame()

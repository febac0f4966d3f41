"""The hook a game implements when its steps depend on what was entered (issue 28): a
test-only variant of High card holds a sealed auction before the tricks — every player
bids; when the highest bids tie, only the tied players bid again (``Step.seats``), sealed
again; then the tricks. Driven through :mod:`companion.scorekeeper.boxes` alone (pure),
as a game like Pirate Tricks' bank (row by row, only the remaining players) would be."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from companion.games.spec import Field, Step
from companion.scorekeeper import boxes
from companion.scorekeeper.rounds import pending_of

from ..fifth_game.sheet import HighCardSheet
from ..fifth_game.spec import SPEC

AUCTION = replace(
    SPEC,
    slug="high_card_auction",
    sheet_fields=(
        Field("bid", "int", "Bid", repeat=(2, "players"), low=0, high=9, optional=True),
        *SPEC.sheet_fields,
    ),
    sheet_steps=(
        Step("bids-1", "first bids", ("bid-0",), sealed=True, owner="each"),
        Step("tricks", "tricks", ("tricks",), owner="each"),
    ),
)
SECOND = "bids-2"


class AuctionSheet(HighCardSheet):
    spec = AUCTION

    def tied(self, boxes_: Mapping[str, str]) -> tuple[int, ...]:
        bids = [int(boxes_.get(f"bid-0-{p}") or 0) for p in range(self.players)]
        top = max(bids)
        return tuple(p for p, bid in enumerate(bids) if bid == top)

    def second(self, boxes_: Mapping[str, str]) -> Step:
        return Step(
            SECOND, "second bids", ("bid-1",), sealed=True, owner="each", seats=self.tied(boxes_)
        )

    def open_step(self, done: Sequence[str], boxes_: Mapping[str, str]) -> Step | None:
        if "bids-1" not in done:
            return self.spec.sheet_steps[0]
        if len(self.tied(boxes_)) > 1 and SECOND not in done:
            return self.second(boxes_)
        return None if "tricks" in done else self.spec.sheet_steps[1]

    def step_named(self, name: Any) -> Step | None:
        if name == SECOND:
            return Step(SECOND, "second bids", ("bid-1",), sealed=True, owner="each")
        return super().step_named(name)

    def check_row(self, index: int, facts: Any, before: list[Any]) -> Any:
        return super().check_row(index, {"tricks": facts["tricks"]}, before)


def enter_all(sheet, state, who_text: dict[int, str], prefix: str):
    """Each seat of ``who_text`` enters its box ``prefix-<seat>``; returns the outcome of
    the last entry and the state moved on as the use case would move it."""
    pending, record = state
    outcome = None
    for seat, text in who_text.items():
        step = boxes.the_step(sheet, pending)
        key = f"{prefix}-{seat}"
        box = record["boxes"].get(key)
        outcome = boxes.enter(
            sheet, [], pending, record, step, key, text, seat, box and box["rev"] or 0
        )
        record = outcome.record
    if outcome.merged is not None:
        pending = pending_of({"position": 0, "done": outcome.done, "boxes": outcome.merged}, [])
        record = boxes.opened(record, pending, boxes.the_step(sheet, pending))
    return outcome, (pending, record)


@pytest.fixture
def sheet():
    return AuctionSheet(["Ada", "Bea", "Cy"], {"cards": 3, "target": 10})


def test_a_tie_asks_only_the_tied_players_to_bid_again_sealed(sheet):
    pending = pending_of(None, [])
    state = (pending, boxes.opened(None, pending, boxes.the_step(sheet, pending)))
    _, state = enter_all(sheet, state, {0: "4", 1: "4", 2: "1"}, "bid-0")
    step = boxes.the_step(sheet, state[0])
    assert (step.name, step.seats) == (SECOND, (0, 1))
    assert sheet.step_keys(step) == ["bid-1-0", "bid-1-1"]
    with pytest.raises(boxes.BoxRefused) as refused:  # Cy is out of the second pass
        boxes.enter(sheet, [], state[0], state[1], step, "bid-1-2", "5", 2, 0)
    assert refused.value.status == 422
    outcome, state = enter_all(sheet, state, {0: "6"}, "bid-1")
    view = boxes.view(sheet, state[0], state[1], step, 1, {0, 1, 2})
    assert [b["text"] for b in view["step"]["boxes"]] == [None, None]  # Ada's is sealed
    assert view["step"]["waiting"] == ["Bea"]
    outcome, state = enter_all(sheet, state, {1: "2"}, "bid-1")
    assert outcome.record["revealed"]["boxes"] == {"bid-1-0": "6", "bid-1-1": "2"}
    assert boxes.the_step(sheet, state[0]).name == "tricks"


def test_no_tie_goes_straight_to_the_tricks(sheet):
    pending = pending_of(None, [])
    state = (pending, boxes.opened(None, pending, boxes.the_step(sheet, pending)))
    outcome, state = enter_all(sheet, state, {0: "1", 1: "4", 2: "2"}, "bid-0")
    assert outcome.record["revealed"]["label"] == "first bids"
    assert boxes.the_step(sheet, state[0]).name == "tricks"

"""Call the Shot: a rematch's first challenger is whoever did not challenge the last duel."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.base import IllegalAction
from companion.games.call_the_shot.rules import DECK
from tests.games.sweep import play_randomly

from .helpers import snap

GAME = GAMES["call_the_shot"]


@pytest.mark.parametrize("seed", range(6))
def test_the_challenger_keeps_alternating_into_the_rematch(seed):
    done = play_randomly(GAME, 2, seed=seed, options={"shots_to_lose": 1 + seed % 3})
    assert done.is_over()
    deal = GAME.rematch_deal(done)
    assert deal == {"challenger": 1 - done.challenger}
    rematch = GAME.new_state(2, done.options, seed=seed, deal=deal)
    assert rematch.challenger == 1 - done.challenger
    # The challenger alone: the cards still come from the seed, all 14 of them.
    cards = (
        snap(rematch)["hands"][0]
        + snap(rematch)["hands"][1]
        + snap(rematch)["face_up"]
        + snap(rematch)["face_down"]
    )
    assert sorted(cards) == sorted(DECK)


def test_a_deal_with_some_cards_but_not_all_is_still_refused():
    with pytest.raises(IllegalAction, match="missing"):
        GAME.new_state(2, deal={"challenger": 0, "hands": [[], []]})

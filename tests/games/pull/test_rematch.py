"""PULL!: a rematch's first dealer is the next one to the left (the deal keeps passing)."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from tests.games.sweep import play_randomly

GAME = GAMES["pull"]


@pytest.mark.parametrize("players, hands", [(3, 2), (4, 1), (2, 3)])
def test_the_rematch_is_dealt_by_the_seat_left_of_the_last_dealer(players, hands):
    done = play_randomly(GAME, players, seed=hands, options={"hands": hands})
    assert done.is_over()
    last_dealer = done.history[-1]["dealer"]
    deal = GAME.rematch_deal(done)
    assert deal == {"dealer": (last_dealer + 1) % players}
    rematch = GAME.new_state(players, done.options, deal=deal)
    assert rematch.dealer == (last_dealer + 1) % players

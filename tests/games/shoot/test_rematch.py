"""Shoot!: a rematch draws for its first dealer, as the rulebook starts every game."""

from __future__ import annotations

from companion.games import GAMES
from companion.games.shoot.engine import draw_winner
from tests.games.sweep import play_randomly

GAME = GAMES["shoot"]


def test_a_rematch_draws_for_the_first_dealer_again():
    done = play_randomly(GAME, 3, seed=4, options={"schedule": [2, 1]})
    assert done.is_over()
    assert GAME.rematch_deal(done) is None
    rematch = GAME.new_state(3, done.options, seed=99, deal=GAME.rematch_deal(done))
    assert rematch.draw and rematch.first_dealer == draw_winner(rematch.draw)

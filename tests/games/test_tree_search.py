"""The strong level's tree search over a game's fast worlds (companion.bots.tree), on a
toy game whose worlds walk a move at a time."""

from __future__ import annotations

import random

from companion.bots import tree
from companion.games.base import ActionIds

SAFE, RISKY = 0, 1
BEST = 7  # the seat's second move that pays after RISKY


class _ToyState:
    table = ActionIds([{"type": "pick", "n": n} for n in range(10)])

    @classmethod
    def ids(cls):
        return cls.table


class _ToyGame:
    slug = "toy"
    state_class = _ToyState


class _ToyWorlds:
    """Seat 0 plays SAFE (paid 1) or RISKY; after RISKY seat 1 plays its only move, then
    seat 0 picks one of 10 moves: BEST pays 3, every other 0. The rollout policy always
    picks 0, so a search that plays its later move by the rollout policy rates RISKY at
    0; a tree learns BEST and rates it 3. Each world has a hidden ``bonus`` that seat 0
    cannot see and that pays nothing."""

    walks = True

    def __init__(self):
        self.walked = []

    def draw(self, rng):
        return {"bonus": rng.randrange(5)}, 1.0

    def walk(self, world):
        self.walked.append(world["bonus"])
        return {"stage": 0, "value": None}

    def mover(self, walk):
        if walk["value"] is not None:
            return None
        return 1 if walk["stage"] == 1 else 0

    def moves(self, walk):
        return [0] if walk["stage"] == 1 else list(range(10))

    def preferred(self, walk):
        return 0

    def play(self, walk, move):
        if walk["stage"] == 0:
            walk["stage"], walk["value"] = (1, None) if move == RISKY else (0, 1.0)
        elif walk["stage"] == 1:
            walk["stage"] = 2
        else:
            walk["value"] = 3.0 if move == BEST else 0.0

    def finish(self, walk, rng):
        while self.mover(walk) is not None:
            self.play(walk, self.preferred(walk))
        return [walk["value"], -walk["value"]]


class _ToyBot:
    def __init__(self, worlds):
        self.worlds = worlds

    def search_worlds(self, view):
        return self.worlds


def _run(iterations, seed=3):
    worlds = _ToyWorlds()
    legal = [_ToyState.table.action_of(n) for n in (SAFE, RISKY)]
    limits = {"iterations": iterations, "seconds": 1e9}
    choice = tree.tree_search(
        _ToyBot(worlds), _ToyGame(), {"seat": 0}, legal, random.Random(seed), limits
    )
    return choice["n"], worlds


def test_the_tree_learns_the_seats_later_move_the_rollout_would_miss():
    assert _run(200)[0] == RISKY
    # with too few walks to find BEST, the rollout policy's value decides: SAFE
    assert _run(4)[0] == SAFE


def test_the_tree_is_reproducible_under_a_seed_and_counts_its_iterations():
    first, worlds = _run(120, seed=11)
    again, worlds_again = _run(120, seed=11)
    assert first == again and worlds.walked == worlds_again.walked
    assert len(worlds.walked) <= 2 * 120  # 120 worlds, each walked after either move


def test_a_settled_choice_stops_the_tree_early():
    # once one first move leads the other by three standard errors, the search stops
    _, worlds = _run(10_000)
    assert len(worlds.walked) < 10_000


def test_worlds_that_cannot_be_walked_go_to_halving(monkeypatch):
    from companion.bots import search

    called = []
    monkeypatch.setattr(tree, "halving", lambda *args: called.append(args) or args[3][0])
    worlds = _ToyWorlds()
    worlds.walks = False
    legal = [_ToyState.table.action_of(n) for n in (SAFE, RISKY)]
    tree.tree_search(_ToyBot(worlds), _ToyGame(), {"seat": 0}, legal, random.Random(1), {})
    assert len(called) == 1 and not worlds.walked
    assert search.halving is not tree.halving  # the real one is untouched

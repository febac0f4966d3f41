"""Information-set MCTS over a game's fast worlds (a game opts in with
``GameBot.strong_search = "tree"`` and worlds that can be walked a move at a time).

One tree per decision, over every seat's later moves from the decision on (a tree of open
moves, as in a trick-taking game's play: every seat sees every card played, so a node is
the moves made since the decision, the same node in every world). Each iteration draws a
world consistent with the seat's view (its weight from :meth:`Worlds.draw`: worlds come in
small batches, resampled by weight) and walks it once after each of the decision's moves,
their playouts on the same random numbers (the moves compared on the same cards and luck,
as the halving search compares them). Below the first move a walk chooses at each node
among the moves legal in that world (UCB with availability counts, Cowling, Powley and
Whitehouse 2012: the single-observer ISMCTS, each seat choosing for its own payoff), adds
one node, plays the world out with the game's rollout policy and backs every seat's payoff
up the path. Untried moves go first, the rollout policy's own move first among them. So
the seat's and the others' later moves are played at least as well as the rollout policy
plays them, and better where the tree has learnt them.

It stops when its time is up, its worlds are done, or (unless its limits say not to, as
the expert level's do) its choice is settled (the best first move's mean ahead of every
other's by three standard errors, as :func:`.search.settled` judges), and plays the
first move with the best mean.

The worlds' interface, beside ``draw``: ``walks`` (whether this decision can be walked;
if not, the strong level's :func:`.search.halving` decides), ``walk(world)`` (a fresh
copy to play on), ``mover(walk)`` (the seat to move, None at the horizon), ``moves(walk)``
(the legal move ids), ``preferred(walk)`` (the rollout policy's move), ``play(walk, id)``
and ``finish(walk, rng)`` (played out: every seat's payoff). Like the other searches it
sees the deciding seat's view alone: the worlds are built from it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from .base import Action, GameBot, View
from .search import _Arm, _limits, _now, halving, root_ids, settled, settles, worlds_of

#: The UCB constant, on payoffs scaled to the spread seen so far. OpenSpiel's ISMCTS uses
#: 2 on raw oh_hell returns (about a tenth of their spread); at 0.7 the later moves, whose
#: payoffs differ by a few points in a spread of twenty, were tried nearly uniformly.
EXPLORATION = 0.2
BATCH = 8  # worlds drawn at a time and resampled by their weights
SETTLE_EVERY = 8  # worlds between two looks at whether the choice is settled


class _Edge:
    """A move at a node: its visits, its mover's payoff summed, how often it was legal
    when its node was visited (availability), and the node it leads to."""

    __slots__ = ("avail", "child", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.child: dict[int, _Edge] | None = None


def _worlds_batch(worlds: Any, rng: random.Random) -> list[Any]:
    """:data:`BATCH` worlds resampled by weight from as many drawn (uniformly if every
    weight is zero), in the order they are to be used."""
    drawn = [worlds.draw(rng) for _ in range(BATCH)]
    weights = [weight for _, weight in drawn]
    if sum(weights) <= 0:
        weights = None
    return rng.choices([world for world, _ in drawn], weights, k=BATCH)


def _select(
    edges: dict[int, _Edge],
    moves: list[int],
    preferred: Any,
    walk: Any,
    rng: random.Random,
    scale: float,
) -> tuple[_Edge, int, bool]:
    """The move to walk at a node: an untried legal one (``preferred(walk)``'s first), else by
    UCB over the legal ones. Returns (edge, move, whether the edge is new)."""
    untried = [move for move in moves if move not in edges]
    for move in moves:
        edge = edges.get(move)
        if edge is not None:
            edge.avail += 1
    if untried:
        move = preferred(walk)
        if move not in untried:
            move = untried[rng.randrange(len(untried))]
        edge = edges[move] = _Edge()
        edge.avail = 1
        return edge, move, True
    best, best_score = None, -math.inf
    for move in moves:
        edge = edges[move]
        score = edge.total / edge.visits * scale + EXPLORATION * math.sqrt(
            math.log(edge.avail) / edge.visits
        )
        if score > best_score:
            best, best_score = move, score
    return edges[best], best, False


def tree_search(
    bot: GameBot,
    game: Any,
    view: View,
    legal: list[Action],
    rng: random.Random,
    limits: Mapping[str, float],
) -> Action:
    """The strong level's ISMCTS over the game's fast worlds (see the module's doc): the
    move of ``legal`` with the best mean. A decision they cannot walk goes to
    :func:`.search.halving`."""
    worlds = worlds_of(bot, game, view)
    if not getattr(worlds, "walks", False):
        return halving(bot, game, view, legal, rng, limits)
    means = root_means(worlds, game, view, legal, rng, limits)
    return legal[max(range(len(legal)), key=means.__getitem__)]


def root_means(
    worlds: Any,
    game: Any,
    view: View,
    legal: list[Action],
    rng: random.Random,
    limits: Mapping[str, float],
) -> list[float]:
    """The tree's walks on ``worlds`` (a decision they can walk) until ``limits`` say
    stop, and what they found: each move of ``legal``'s mean payoff for the seat over
    the worlds walked (-inf for a move no whole world saw). :func:`tree_search` plays
    the best; a benchmark may read how far apart they are."""
    iterations, deadline = _limits(limits)
    may_settle = settles(limits)
    seat = view["seat"]
    ids = root_ids(game, legal)
    root = {action_id: _Edge() for action_id in ids}
    arms = [_Arm() for _ in ids]  # the root's values again, world by world, for settled()
    everyone = list(range(len(ids)))
    low, high = math.inf, -math.inf
    batch: list[Any] = []
    for done in range(1, iterations + 1):
        if not batch:
            batch = _worlds_batch(worlds, rng)
        world = batch.pop()
        seed = rng.getrandbits(32)
        seen = []
        for index, first in enumerate(ids):
            walk = worlds.walk(world)
            edge = root[first]
            edge.avail += 1
            path = [(edge, seat)]
            worlds.play(walk, first)
            mover = worlds.mover(walk)
            scale = 1.0 / (high - low) if high > low else 1.0
            while mover is not None:
                if edge.child is None:
                    edge.child = {}
                moves = worlds.moves(walk)
                edge, move, grown = _select(edge.child, moves, worlds.preferred, walk, rng, scale)
                path.append((edge, mover))
                worlds.play(walk, move)
                mover = worlds.mover(walk)
                if grown:
                    break
            # the same random numbers for every first move of a world: they differ by the
            # move and what follows from it, not by luck
            values = worlds.finish(walk, random.Random(seed))
            low, high = min(low, *values), max(high, *values)
            for visited, who in path:
                visited.visits += 1
                visited.total += values[who]
            arms[index].add(values[seat], 1.0)
            seen.append((index, values[seat]))
            if _now() >= deadline:
                break
        if len(seen) < len(ids):
            # out of time within a world not every move saw: forget it at the root
            for index, value in seen:
                arms[index].add(-value, -1.0, -1)
            break
        if _now() >= deadline:
            break
        if may_settle and done % SETTLE_EVERY == 0 and settled(arms, everyone) is not None:
            break
    return [arm.mean() for arm in arms]

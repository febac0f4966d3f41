"""Information-set MCTS over a game's fast worlds (a game opts in with
``GameBot.strong_search = "tree"`` and worlds that can be walked a move at a time).

One tree per decision, over every seat's later moves from the decision on (a tree of open
moves, as in a trick-taking game's play: every seat sees every card played, so a node is
the moves made since the decision, the same node in every world). Each iteration draws a
world consistent with the seat's view (its weight from :meth:`Worlds.draw`: worlds come in
small batches, resampled by weight), walks down the tree choosing at each node among the
moves legal in that world (UCB with availability counts, Cowling, Powley and Whitehouse
2012: the single-observer ISMCTS, each seat choosing for its own payoff), adds one node,
plays the world out with the game's rollout policy and backs every seat's payoff up the
path. Untried moves go first, the rollout policy's own move first among them.

It stops when its time is up, its iterations are done, or no other root move could catch
the most visited one with the iterations the time left affords (a settled choice). The
root's most visited move is played (ties: the better mean).

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
from .search import _limits, _now, halving, root_ids, worlds_of

EXPLORATION = 0.7  # UCB constant, on payoffs scaled to the spread seen so far
BATCH = 8  # worlds drawn at a time and resampled by their weights
SETTLE_EVERY = 8  # iterations between two looks at whether the choice is settled


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
    """The strong level's ISMCTS over the game's fast worlds (see the module's doc); a
    decision they cannot walk goes to :func:`.search.halving`."""
    worlds = worlds_of(bot, game, view)
    if not getattr(worlds, "walks", False):
        return halving(bot, game, view, legal, rng, limits)
    iterations, deadline = _limits(limits)
    started = _now()
    ids = root_ids(game, legal)
    root: dict[int, _Edge] = {}
    low, high = math.inf, -math.inf
    batch: list[Any] = []
    for done in range(1, iterations + 1):
        if not batch:
            batch = _worlds_batch(worlds, rng)
        walk = worlds.walk(batch.pop())
        scale = 1.0 / (high - low) if high > low else 1.0
        path: list[tuple[_Edge, int]] = []
        edges = root
        mover = worlds.mover(walk)
        while mover is not None:
            moves = ids if edges is root else worlds.moves(walk)
            edge, move, grown = _select(edges, moves, worlds.preferred, walk, rng, scale)
            path.append((edge, mover))
            worlds.play(walk, move)
            mover = worlds.mover(walk)
            if grown:
                break
            if edge.child is None:
                edge.child = {}
            edges = edge.child
        values = worlds.finish(walk, rng)
        low, high = min(low, *values), max(high, *values)
        for edge, seat in path:
            edge.visits += 1
            edge.total += values[seat]
        now = _now()
        if now >= deadline:
            break
        if done % SETTLE_EVERY == 0 and len(root) == len(ids) > 1:
            # settled: no other move can catch the most visited one in the time left
            left = iterations - done
            pace = (now - started) / done
            if deadline != math.inf and pace > 0:
                left = min(left, int((deadline - now) / pace))
            first, second = sorted((edge.visits for edge in root.values()), reverse=True)[:2]
            if first - second > left:
                break
    best = max(
        range(len(ids)),
        key=lambda i: (
            root[ids[i]].visits if ids[i] in root else -1,
            root[ids[i]].total / root[ids[i]].visits if ids[i] in root else -math.inf,
        ),
    )
    return legal[best]

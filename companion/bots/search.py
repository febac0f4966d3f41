"""The two searches over sampled worlds: determinized Monte Carlo and SO-ISMCTS.

Both only ever see the deciding seat's view: every world is ``bot.sample(view, rng)``
loaded with ``game.state_from_dict``. Both count iterations (reproducible with a seeded
``rng``) and stop early at ``seconds`` of thinking.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from .base import Action, GameBot, View, action_key

MAX_PLAYOUT_STEPS = 10_000
EXPLORATION = 0.7  # UCT constant, on values scaled to the spread seen so far


def playout(bot: GameBot, start: View, state: Any, rng: random.Random) -> None:
    """Play ``state`` on with the rollout policy until the bot's horizon."""
    for _ in range(MAX_PLAYOUT_STEPS):
        if bot.done(start, state):
            return
        seat = bot.actor(state)
        if seat is None:
            return
        state.apply_id(seat, bot.rollout_id(state, seat, rng))
    raise RuntimeError(f"a {state.slug} playout did not reach its horizon")


def _limits(limits: Mapping[str, float]) -> tuple[int, float]:
    iterations = max(1, int(limits.get("iterations", 1)))
    deadline = time.perf_counter() + float(limits.get("seconds", math.inf))
    return iterations, deadline


def monte_carlo(
    bot: GameBot,
    game: Any,
    view: View,
    legal: list[Action],
    rng: random.Random,
    limits: Mapping[str, float],
) -> Action:
    """Determinized Monte Carlo: in each sampled world try every legal action (the same
    world for all of them, so they are compared on equal cards), play on with the rollout
    policy, and return the action with the best mean value."""
    seat = view["seat"]
    iterations, deadline = _limits(limits)
    totals = [0.0] * len(legal)
    counts = [0] * len(legal)
    for _ in range(iterations):
        world = bot.sample(view, rng)
        for index, action in enumerate(legal):
            state = game.state_from_dict(world)
            state.apply(seat, action)
            playout(bot, view, state, rng)
            totals[index] += bot.value(state, seat)
            counts[index] += 1
        if time.perf_counter() >= deadline:
            break
    pairs = zip(totals, counts, strict=True)
    means = [total / count if count else -math.inf for total, count in pairs]
    return legal[max(range(len(legal)), key=means.__getitem__)]


class _Decision:
    """One information set of the deciding seat: its statistics per action tried there."""

    __slots__ = ("actions",)

    def __init__(self) -> None:
        self.actions: dict[tuple, _Edge] = {}


class _Edge:
    """An action at a decision node; ``after`` leads on, by what the seat saw next."""

    __slots__ = ("after", "avail", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.after: dict[tuple, _Decision] = {}


def _others_move(
    bot: GameBot, start: View, state: Any, seat: int, rng: random.Random
) -> tuple[tuple, bool]:
    """Play the other seats with the rollout policy until ``seat`` is to act again:
    returns what ``seat`` saw of their moves and whether the horizon came first."""
    seen = []
    for _ in range(MAX_PLAYOUT_STEPS):
        if bot.done(start, state):
            return tuple(seen), True
        mover = bot.actor(state)
        if mover is None:
            return tuple(seen), True
        if mover == seat:
            return tuple(seen), False
        action = bot.rollout(state, mover, rng)
        seen.append((mover, bot.observe(action, mover, seat)))
        state.apply(mover, action)
    raise RuntimeError(f"a {state.slug} playout did not reach its horizon")


INFERENCE_DRAWS = 6  # samples drawn per world the strong level keeps (by their weight)


def inferred_sample(bot: GameBot, view: View, rng: random.Random) -> dict[str, Any]:
    """One of several samples, chosen in proportion to :meth:`GameBot.weight`: worlds that
    explain the others' open moves better come up more often."""
    worlds = [bot.sample(view, rng) for _ in range(INFERENCE_DRAWS)]
    weights = [bot.weight(view, world) for world in worlds]
    total = sum(weights)
    if total <= 0:
        return worlds[0]
    pick = rng.random() * total
    for world, weight in zip(worlds, weights, strict=True):
        pick -= weight
        if pick < 0:
            return world
    return worlds[-1]


def ismcts(
    bot: GameBot,
    game: Any,
    view: View,
    legal: list[Action],
    rng: random.Random,
    limits: Mapping[str, float],
) -> Action:
    """Information-set MCTS (after Cowling, Powley and Whitehouse, 2012) over the deciding
    seat's own information sets.

    Each iteration samples a world and, as the normal level does, tries every legal action
    of the decision in it (the actions are compared on the same cards). Below that first
    move a tree grows over the seat's later decisions: the other seats answer with the
    rollout policy, and what the seat saw of their moves (:meth:`GameBot.observe`, a hidden
    card stays hidden) picks the next decision node. At a node, the move the rollout
    policy would make is tried first, then the others, then UCB (with availability counts,
    as only the actions legal in the world compete) chooses. One node is added per walk,
    the playout runs to the horizon and the seat's value is backed up along the path. So
    the seat plays its own later moves at least as well as the rollout policy does, and
    better where the tree has learnt it. Worlds are drawn by :func:`inferred_sample`."""
    seat = view["seat"]
    iterations, deadline = _limits(limits)
    root = [_Edge() for _ in legal]
    low, high = math.inf, -math.inf
    for _ in range(iterations):
        world = inferred_sample(bot, view, rng)
        for first, action in zip(root, legal, strict=True):
            state = game.state_from_dict(world)
            state.apply(seat, action)
            path = [first]
            edge = first
            seen, finished = _others_move(bot, view, state, seat, rng)
            while not finished:
                node = edge.after.get(seen)
                if node is None:
                    node = edge.after[seen] = _Decision()
                edge, action, grown = _choose(bot, node, state, seat, rng, high - low)
                state.apply(seat, action)
                path.append(edge)
                seen, finished = _others_move(bot, view, state, seat, rng)
                if grown:
                    break
            playout(bot, view, state, rng)
            value = bot.value(state, seat)
            low, high = min(low, value), max(high, value)
            for visited in path:
                visited.visits += 1
                visited.total += value
        if time.perf_counter() >= deadline:
            break
    means = [edge.total / edge.visits if edge.visits else -math.inf for edge in root]
    return legal[max(range(len(legal)), key=means.__getitem__)]


def _choose(
    bot: GameBot, node: _Decision, state: Any, seat: int, rng: random.Random, spread: float
) -> tuple[_Edge, Action, bool]:
    """The seat's move at ``node`` in this world: the rollout policy's move if untried,
    else another untried one, else by UCB. Returns (edge, action, whether it is new)."""
    pairs = [(action_key(action), action) for action in state.legal_actions(seat)]
    untried = []
    for key, action in pairs:
        edge = node.actions.get(key)
        if edge is None:
            untried.append((key, action))
        else:
            edge.avail += 1
    if untried:
        preferred = bot.rollout(state, seat, rng)
        key, action = next(
            ((k, a) for k, a in untried if a == preferred),
            untried[rng.randrange(len(untried))],
        )
        edge = node.actions[key] = _Edge()
        return edge, action, True
    spread = max(spread, 1e-9)
    best = None
    best_score = -math.inf
    for key, action in pairs:
        edge = node.actions[key]
        score = edge.total / edge.visits / spread + EXPLORATION * math.sqrt(
            math.log(edge.avail) / edge.visits
        )
        if score > best_score:
            best, best_score = (edge, action), score
    return best[0], best[1], False

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

from .base import Action, GameBot, View

MAX_PLAYOUT_STEPS = 10_000
EXPLORATION = 0.7  # UCT constant, on values scaled to the spread seen so far


def action_key(action: Action) -> tuple:
    """A hashable key for a JSON action (lists become tuples)."""
    return tuple(sorted((key, _frozen(value)) for key, value in action.items()))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return action_key(value)
    return value


def playout(bot: GameBot, start: View, state: Any, rng: random.Random) -> None:
    """Play ``state`` on with the rollout policy until the bot's horizon."""
    for _ in range(MAX_PLAYOUT_STEPS):
        if bot.done(start, state):
            return
        seat = bot.actor(state)
        if seat is None:
            return
        state.apply(seat, bot.rollout(state, seat, rng))
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


class _Node:
    """A node of the information-set tree: reached by ``seat``'s action from its parent."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int | None):
        self.seat = seat
        self.children: dict[tuple, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def ismcts(
    bot: GameBot,
    game: Any,
    view: View,
    legal: list[Action],
    rng: random.Random,
    limits: Mapping[str, float],
) -> Action:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012): one
    tree over the deciding seat's information set; each iteration samples a world, walks
    the tree choosing among the actions legal in that world (UCB with availability
    counts), adds one node, plays on with the rollout policy and backs up each seat's
    own value to the nodes where that seat chose."""
    seat = view["seat"]
    iterations, deadline = _limits(limits)
    root = _Node(None)
    low, high = math.inf, -math.inf
    for _ in range(iterations):
        state = game.state_from_dict(bot.sample(view, rng))
        node, path = root, [root]
        mover, options = seat, legal
        while True:
            pairs = [(action_key(action), action) for action in options]
            untried = [pair for pair in pairs if pair[0] not in node.children]
            for key, _action in pairs:
                child = node.children.get(key)
                if child is not None:
                    child.avail += 1
            if untried:
                key, action = untried[rng.randrange(len(untried))]
                child = node.children[key] = _Node(mover)
                child.avail = 1
                state.apply(mover, action)
                path.append(child)
                break
            spread = max(high - low, 1e-9)
            best_key, best_action, best_score = None, None, -math.inf
            for key, action in pairs:
                child = node.children[key]
                score = child.total / child.visits / spread + EXPLORATION * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_key, best_action, best_score = key, action, score
            node = node.children[best_key]
            state.apply(mover, best_action)
            path.append(node)
            if bot.done(view, state):
                break
            mover = bot.actor(state)
            if mover is None:
                break
            options = state.legal_actions(mover)
        playout(bot, view, state, rng)
        values: dict[int, float] = {}
        for visited in path[1:]:
            if visited.seat not in values:
                values[visited.seat] = bot.value(state, visited.seat)
                low = min(low, values[visited.seat])
                high = max(high, values[visited.seat])
            visited.visits += 1
            visited.total += values[visited.seat]
        if time.perf_counter() >= deadline:
            break
    best, best_rank = legal[0], (-1, -math.inf)
    for action in legal:
        child = root.children.get(action_key(action))
        if child is not None and child.visits:
            rank = (child.visits, child.total / child.visits)
            if rank > best_rank:
                best, best_rank = action, rank
    return best

"""The searches over sampled worlds: determinized Monte Carlo, sequential halving, and
information-set MCTS for a game whose bot asks for it (``GameBot.strong_search``).

Both only ever see the deciding seat's view: every world is ``bot.sample(view, rng)``
loaded with ``game.state_from_dict``. Both work on the integer action path (the root's
actions as ids, ``state.apply_id``; playouts apply ``bot.rollout_id``), count their work
(reproducible with a seeded ``rng``) and stop at ``seconds`` of thinking: the clock is
read after every playout, so a decision overruns its cap by one playout at most.

The clock is :data:`CLOCK`: wall time by default (what a player waits), which a benchmark
on a shared machine may set to the thread's CPU time (``time.thread_time``), so that the
other processes' share of the cores does not count as thinking.
"""

from __future__ import annotations

import marshal
import math
import random
import time
from collections.abc import Mapping
from typing import Any

from .base import Action, GameBot, View, action_key

MAX_PLAYOUT_STEPS = 10_000

#: The searches' clock (seconds, any origin): see the module's doc.
CLOCK = time.perf_counter


def _now() -> float:
    return CLOCK()


def playout(bot: GameBot, start: View, state: Any, rng: random.Random, noise: float = 0.0) -> None:
    """Play ``state`` on with the rollout policy until the bot's horizon. With ``noise``,
    each move of a seat other than the deciding one (``start``'s) is that often a random
    legal move instead (:attr:`GameBot.others_noise`)."""
    me = start.get("seat")
    for _ in range(MAX_PLAYOUT_STEPS):
        if bot.done(start, state):
            return
        seat = bot.actor(state)
        if seat is None:
            return
        if noise and seat != me and rng.random() < noise:
            legal = state.legal_ids(seat)
            state.apply_id(seat, legal[rng.randrange(len(legal))])
        else:
            state.apply_id(seat, bot.rollout_id(state, seat, rng))
    raise RuntimeError(f"a {state.slug} playout did not reach its horizon")


def _limits(limits: Mapping[str, float]) -> tuple[int, float]:
    iterations = max(1, int(limits.get("iterations", 1)))
    deadline = _now() + float(limits.get("seconds", math.inf))
    return iterations, deadline


def settles(limits: Mapping[str, float]) -> bool:
    """Whether a search may stop early on a settled choice (:func:`settled`): unless the
    limits' ``settle`` is 0 (the expert level's)."""
    return bool(limits.get("settle", 1))


def root_ids(game: Any, legal: list[Action]) -> list[int]:
    """The ids of the root's actions on the game's integer action path (a game without
    its own numbering numbers them now, as its legal lists would)."""
    table = game.state_class.ids()
    found = [table.id_of(action) for action in legal]
    return [table.add(a) if i is None else i for i, a in zip(found, legal, strict=True)]


class World:
    """A sampled world loaded once, handing out fresh states of it: each a copy of the
    loaded state's attributes through :mod:`marshal` (C speed; lists stay lists, ints
    stay ints), so the engine's own loading (cards read into integers) runs once per
    world rather than once per action tried. A state holding anything marshal cannot copy
    is loaded from the snapshot each time instead."""

    __slots__ = ("frozen", "game", "kind", "snapshot")

    def __init__(self, game: Any, snapshot: dict[str, Any]):
        self.game, self.snapshot = game, snapshot
        state = game.state_from_dict(snapshot)
        self.kind = type(state)
        try:
            self.frozen: bytes | None = marshal.dumps(state.__dict__)
        except (ValueError, AttributeError):
            self.frozen = None

    def fresh(self) -> Any:
        if self.frozen is None:
            return self.game.state_from_dict(self.snapshot)
        state = self.kind.__new__(self.kind)
        state.__dict__.update(marshal.loads(self.frozen))
        return state


def _try(
    bot: GameBot,
    view: View,
    world: World,
    action_id: int,
    rng: random.Random,
    noise: float = 0.0,
) -> float:
    """The deciding seat's value after ``action_id`` in ``world``, played on to the horizon
    (the others with ``noise``: :func:`playout`)."""
    seat = view["seat"]
    state = world.fresh()
    state.apply_id(seat, action_id)
    playout(bot, view, state, rng, noise)
    return bot.value(state, seat)


class Worlds:
    """One decision's hidden worlds as the searches use them: :meth:`draw` samples one
    (with its weight), :meth:`value` plays an action in it to the horizon. This default
    goes through the game's snapshots and engine (:meth:`GameBot.sample`,
    :meth:`GameBot.weight`, :class:`World`, :func:`playout`); a game's bot may hand the
    searches a faster one of its own (:meth:`GameBot.search_worlds`) that plays the same policy
    on its own integer model of a world."""

    def __init__(self, bot: GameBot, game: Any, view: View):
        self.bot, self.game, self.view = bot, game, view

    def draw(self, rng: random.Random) -> tuple[Any, float]:
        snapshot = self.bot.sample(self.view, rng)
        weight = self.bot.weight(self.view, snapshot)
        return World(self.game, snapshot), weight

    def value(self, world: Any, action_id: int, rng: random.Random) -> float:
        return _try(self.bot, self.view, world, action_id, rng)


def worlds_of(bot: GameBot, game: Any, view: View) -> Any:
    """The bot's own :class:`Worlds` for ``view`` if it has one, else the default."""
    own = getattr(bot, "search_worlds", None)  # a duck-typed bot may not have the hook
    return (own(view) if own else None) or Worlds(bot, game, view)


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
    policy, and return the action with the best mean value. ``iterations`` worlds.

    The budget's ``noise`` (from :attr:`GameBot.others_noise`) makes the other seats of
    the playouts move at random that often; the playouts then draw random numbers, and
    every action of a world draws the same ones (as :func:`halving`'s do), so the actions
    are compared on the same luck. Without it the search runs as it always has."""
    iterations, deadline = _limits(limits)
    noise = float(limits.get("noise", 0.0))
    ids = root_ids(game, legal)
    totals = [0.0] * len(legal)
    counts = [0] * len(legal)
    for _ in range(iterations):
        world = World(game, bot.sample(view, rng))
        seed = rng.getrandbits(32) if noise else 0
        for index, action_id in enumerate(ids):
            luck = random.Random(seed) if noise else rng
            totals[index] += _try(bot, view, world, action_id, luck, noise)
            counts[index] += 1
            if _now() >= deadline:
                break
        else:
            continue
        break
    pairs = zip(totals, counts, strict=True)
    means = [total / count if count else -math.inf for total, count in pairs]
    best = max(range(len(legal)), key=means.__getitem__)
    margin = bot.easy_margin
    if margin > 0:
        # the easy move unless the look-ahead finds one clearly better (GameBot.easy_margin)
        easy = bot.easy(view, legal, rng)
        if easy in legal:
            default = legal.index(easy)
            if counts[default] and means[best] - means[default] <= margin:
                return legal[default]
    return legal[best]


class _Arm:
    """One root action's statistics: plain and weighted sums of its values (and the
    weighted sum of squares and of squared weights, for how sure the mean is)."""

    __slots__ = ("count", "square", "squares", "total", "weight", "weighted")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.weight = 0.0
        self.weighted = 0.0
        self.squares = 0.0  # sum of weight * value ** 2
        self.square = 0.0  # sum of weight ** 2

    def add(self, value: float, weight: float, count: int = 1) -> None:
        self.count += count
        self.total += value
        self.weight += weight
        self.weighted += weight * value
        self.squares += weight * value * value
        self.square += weight * abs(weight)  # a world taken back takes its square back

    def mean(self) -> float:
        if not self.count:
            return -math.inf
        if self.weight > 1e-12 * self.count:
            return self.weighted / self.weight
        return self.total / self.count  # every world it saw was (nearly) impossible

    def error(self) -> float:
        """The standard error of :meth:`mean` (weighted: the spread over the effective
        number of worlds); infinite while too few worlds are in."""
        if self.count < SETTLE_WORLDS or self.weight <= 1e-12 * self.count:
            return math.inf
        mean = self.weighted / self.weight
        spread = max(0.0, self.squares / self.weight - mean * mean)
        effective = self.weight * self.weight / self.square if self.square > 0 else 0.0
        return math.sqrt(spread / effective) if effective >= 1 else math.inf


#: A choice is settled (the strong search stops early) when the best action's mean leads
#: every other action still in the running by SETTLE_Z standard errors of the difference
#: (taken as independent: the common random numbers only make the true error smaller),
#: each mean resting on at least SETTLE_WORLDS worlds.
SETTLE_Z = 3.0
SETTLE_WORLDS = 24
SETTLE_EVERY = 8  # worlds between two looks


def settled(arms: list[_Arm], alive: list[int]) -> int | None:
    """The action of ``alive`` whose lead is settled, or None."""
    best = max(alive, key=lambda i: arms[i].mean())
    lead, error = arms[best].mean(), arms[best].error()
    if error == math.inf:
        return None
    for index in alive:
        if index != best:
            other = arms[index].error()
            if lead - arms[index].mean() <= SETTLE_Z * math.sqrt(error**2 + other**2):
                return None
    return best


def halving(
    bot: GameBot,
    game: Any,
    view: View,
    legal: list[Action],
    rng: random.Random,
    limits: Mapping[str, float],
) -> Action:
    """The strong level: determinized Monte Carlo that spends its playouts where they
    decide something (sequential halving, Karnin, Koren and Somekh 2013, as in Gumbel
    MuZero's root), compares actions more sharply and weighs what it samples.

    - Rounds: every action still in the running is tried on the round's worlds; then the
      worse half drops out, until one is left (ceil(log2 k) rounds for k actions). Each
      round gets an equal share of the playouts, so the last two actions are compared on
      many more worlds than a uniform spread gives them. The share is ``iterations``
      worlds' worth of playouts for all k actions, cut to what the time left affords at
      the pace measured so far, so a slow game still reaches its last round in time.
    - Common random numbers: within a world every action's playout draws from the same
      seed, so two actions differ by the action and what follows from it, not by luck.
    - Importance weights: each world counts in proportion to :meth:`GameBot.weight` (how
      well it explains the others' open moves), one sample per world (self-normalized
      importance sampling, no sample thrown away).
    """
    iterations, deadline = _limits(limits)
    started = _now()
    ids = root_ids(game, legal)
    worlds_here = worlds_of(bot, game, view)
    arms = [_Arm() for _ in legal]
    alive = list(range(len(legal)))
    rounds = max(1, math.ceil(math.log2(len(legal))))
    left = iterations * len(legal)  # playouts still planned
    done = 0
    out_of_time = False
    settle = settles(limits)
    while len(alive) > 1 and not out_of_time:
        worlds = 0
        while worlds < _round_worlds(left, rounds, len(alive), worlds, done, started, deadline):
            worlds += 1
            world, weight = worlds_here.draw(rng)
            seed = rng.getrandbits(32)
            seen = []
            for index in alive:
                value = worlds_here.value(world, ids[index], random.Random(seed))
                arms[index].add(value, weight)
                seen.append((index, value))
                done += 1
                if _now() >= deadline:
                    out_of_time = True
                    break
            if out_of_time:
                if len(seen) < len(alive) and arms[alive[-1]].count:
                    # a world not every action saw: forget it, keep the comparison fair
                    for index, value in seen:
                        arms[index].add(-value, -weight, -1)
                break
            if settle and worlds % SETTLE_EVERY == 0 and settled(arms, alive) is not None:
                return legal[settled(arms, alive)]
        left = max(0, left - worlds * len(alive))
        rounds = max(1, rounds - 1)
        if not out_of_time:
            alive.sort(key=lambda i: arms[i].mean(), reverse=True)
            alive = sorted(alive[: (len(alive) + 1) // 2])
    return legal[max(alive, key=lambda i: arms[i].mean())]


def _round_worlds(
    left: int, rounds: int, alive: int, worlds: int, done: int, started: float, deadline: float
) -> int:
    """How many worlds this round of :func:`halving` gets: its equal share of the
    playouts planned (``left`` at the round's start over ``rounds`` to go), cut, once the
    pace is known, to its equal share of what the time left affords (counting the
    ``worlds`` it has played already); at least one."""
    share = left / rounds
    if done and deadline != math.inf:
        now = _now()
        pace = (now - started) / done
        share = min(share, (worlds * alive + (deadline - now) / pace) / rounds)
    return max(1, int(share / alive))


# -- information-set MCTS (a game opts in with GameBot.strong_search = "ismcts") ----------

EXPLORATION = 0.7  # UCT constant, on values scaled to the spread seen so far


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
    better where the tree has learnt it. Worlds are drawn by ``bot.sample``."""
    seat = view["seat"]
    iterations, deadline = _limits(limits)
    root = [_Edge() for _ in legal]
    arms = [_Arm() for _ in legal]  # the root's values again, for settled()
    everyone = list(range(len(legal)))
    low, high = math.inf, -math.inf
    settle = settles(limits)
    for done in range(1, iterations + 1):
        world = bot.sample(view, rng)
        for index, (first, action) in enumerate(zip(root, legal, strict=True)):
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
            arms[index].add(value, 1.0)
        if _now() >= deadline:
            break
        if settle and done % SETTLE_EVERY == 0 and settled(arms, everyone) is not None:
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

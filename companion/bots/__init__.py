"""Bots that fill empty seats: one decision function for every game, three levels.

    action = decide(game, view, legal, level, rng)

``view`` is ``state.view(seat)`` and ``legal`` is ``state.legal_actions(seat)``; ``rng`` is the
bot's own seeded :class:`random.Random`. :func:`decide` never sees the state, so a bot is
honest by construction: it knows what the seat's phone shows and nothing more.

Each game brings its own player in ``companion/games/<slug>/bot.py`` (exporting ``BOT``, a
:class:`GameBot`), found here by itself like the games are. The levels:

``easy``    the game's rule-of-thumb player (:meth:`GameBot.easy`);
``normal``  determinized Monte Carlo (:mod:`.search`): sample hidden worlds consistent with
            the view, try every legal action in each, play on with the rollout policy to
            the game's horizon, keep the best mean value;
``strong``  the same worlds searched by sequential halving (:mod:`.search`): the actions
            still in the running tried on each round's worlds, the worse half dropping
            out after each round, every action of a world played on with the same
            random numbers, each world weighed by how well it explains the others' open
            moves (:meth:`GameBot.weight`). It thinks until its time is up or its choice
            is settled (the best action ahead of every other by three standard errors),
            where normal looks at a handful of worlds. A game may name another strong
            search (``GameBot.strong_search``): Shoot!'s card play grows a tree over
            every seat's later cards on its fast worlds (:mod:`.tree`);
``expert``  strong's search with eight times its time, all of it spent (no stop on a
            settled choice: a few seconds a move, for the background worker rather than a
            request).

A game's ``candidates`` narrow the actions the searches try (a level it names in
``GameBot.every_action`` tries every legal one); one candidate is played without a
search. Searches count iterations (seeded, so a decision is reproducible) and also stop
at a time cap, read after every playout; both come from :data:`BUDGETS` (the
app's ``BOT_BUDGETS`` config overrides them). Strong's and expert's counts are ceilings
their time reaches first: they stop on time, strong also on a settled choice (expert
thinks its whole time). How strong each level
plays, measured, is :data:`STRENGTH` (bench/README.md has the runs).
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Mapping, Sequence
from typing import Any

from .base import Action, GameBot, View
from .search import halving, ismcts, monte_carlo
from .tree import tree_search

LEVELS = ("easy", "normal", "strong", "expert")

# iterations: normal samples that many worlds and tries every candidate in each; strong
# spends as many playouts (iterations x candidates) over its rounds, most of them on the
# last contenders. seconds: a cap on thinking time whatever the count.
#
# The levels are meant to feel different, so their budgets are far apart: normal looks at
# a handful of worlds (a quick look ahead: each candidate played out a few times, which
# already beats the rules of thumb clearly), strong at a hundred times as many playouts
# (with halving, most of them on the last contenders) and mostly thinks up to its cap.
# With 24 worlds for normal and 96 for strong the two were measured level in Shoot! and
# PULL! (bench/README.md, "Bots: levels far apart"). Strong and expert think on time (their
# counts are ceilings); strong stops early once its choice is settled (search.settled).
BUDGETS: dict[str, dict[str, float]] = {
    "normal": {"iterations": 4, "seconds": 0.3},
    "strong": {"iterations": 100_000, "seconds": 0.4},
    "expert": {"iterations": 1_000_000, "seconds": 3.2},
}

# Whether a level's search stops early once its choice is settled (search.settled): strong
# does, to answer sooner; expert spends its whole time, the deeper tree's later worlds
# included (a limits' "settle" of 0 says so; a budget may set it either way).
SETTLES = {"normal": True, "strong": True, "expert": False}

# The strong level's search, by GameBot.strong_search.
STRONG = {"halving": halving, "ismcts": ismcts, "tree": tree_search}

_BOTS: dict[str, GameBot | None] = {}


def bot_for(game: Any) -> GameBot | None:
    """The :class:`GameBot` of ``game`` (its package's ``bot`` module), or None."""
    slug = game.slug
    if slug not in _BOTS:
        package = type(game).__module__.rpartition(".")[0] or type(game).__module__
        name = f"{package}.bot"
        found = None
        try:
            if importlib.util.find_spec(name) is not None:
                found = getattr(importlib.import_module(name), "BOT", None)
        except ModuleNotFoundError:
            found = None
        if found is not None and not isinstance(found, GameBot):
            raise TypeError(f"{name}.BOT must be a GameBot, not {type(found).__name__}")
        if found is not None:
            found.game = game
        _BOTS[slug] = found
    return _BOTS[slug]


def strength(game: Any, level: str) -> str:
    """How strong ``level`` has been measured to play ``game`` (:attr:`GameBot.strength`),
    in a few words; "" when not measured."""
    bot = bot_for(game)
    return bot.strength.get(level, "") if bot is not None else ""


def has_bot(game: Any) -> bool:
    return bot_for(game) is not None


def should_act(game: Any, view: View) -> bool:
    """Whether the seat of ``view`` has a move to make now (a seat that has sealed its
    choice in a phase where everyone acts at once may still change it: a bot does not)."""
    bot = bot_for(game)
    if bot is None:
        return False
    return bot.should_act(view)


def decide(
    game: Any,
    view: View,
    legal: Sequence[Action],
    level: str,
    rng: random.Random,
    budget: Mapping[str, float] | None = None,
) -> Action:
    """One element of ``legal``: the move of a ``level`` bot seeing ``view``."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}: choose one of {', '.join(LEVELS)}.")
    if not legal:
        raise ValueError("The bot has no legal action: it is not this seat's turn.")
    bot = bot_for(game)
    if bot is None:
        raise ValueError(f"{game.name} has no bot yet.")
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        choice = bot.easy(view, legal, rng)
    else:
        # expert thinks its whole time: no stop on a settled choice (SETTLES)
        limits = {"settle": float(SETTLES[level]), **BUDGETS[level], **(budget or {})}
        scale = bot.iterations_scale.get(level)
        if scale:  # a game whose playouts are cheap looks at more worlds
            limits["iterations"] = max(1, round(limits.get("iterations", 1) * scale))
        noise = bot.others_noise.get(level)
        if noise:  # the others in its worlds not always the rollout policy's players
            limits["noise"] = noise
        search = monte_carlo if level == "normal" else STRONG[bot.strong_search]  # or expert
        tried = legal if level in bot.every_action else bot.candidates(view, legal, rng)
        choice = tried[0] if len(tried) == 1 else search(bot, game, view, tried, rng, limits)
    for action in legal:
        if action == choice:
            return action
    raise RuntimeError(f"the {game.slug} bot chose {choice!r}, which is not legal")


__all__ = [
    "BUDGETS",
    "LEVELS",
    "GameBot",
    "bot_for",
    "decide",
    "has_bot",
    "should_act",
    "strength",
]

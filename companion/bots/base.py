"""The interface a game's bot module implements (``companion/games/<slug>/bot.py``)."""

from __future__ import annotations

import random
from typing import Any

Action = dict[str, Any]
View = dict[str, Any]


def action_key(action: Action) -> tuple:
    """A hashable key for a JSON action (lists become tuples)."""
    return tuple(sorted((key, _frozen(value)) for key, value in action.items()))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return action_key(value)
    return value


class GameBot:
    """One game's player. Subclasses implement :meth:`easy` and :meth:`sample`; the rest
    has working defaults that a game refines for speed or a nearer horizon.

    The search (normal and strong levels) never reads the real state: it builds worlds
    with :meth:`sample` (a snapshot in the game's ``to_dict`` format, hidden parts drawn at
    random) and ``game.state_from_dict``, and plays them on with :meth:`rollout` until
    :meth:`done`, scoring each seat with :meth:`value`.
    """

    game: Any = None  # the Game object, set when the bot is found (companion.bots.bot_for)

    #: The table ``bench/bots.py`` measures on: ``{"players": n, "options": {...}}`` (a
    #: shorter game than the default where the game allows, so 500 games stay affordable).
    bench: dict[str, Any] = {}

    #: What each level has been measured to do, in a few words a player reads beside the
    #: level on the Play page (``{"normal": "wins 4 games in 10 against three easy bots"}``);
    #: the runs behind each figure are in bench/README.md.
    strength: dict[str, str] = {}

    #: The normal level plays the easy move unless another candidate's mean value is
    #: higher by more than this (0: the best mean, always). A few worlds' means are noisy,
    #: and where the easy player's rules of thumb are good, a look-ahead that models the
    #: others as easy players too should overrule them only when it sees a clear gain.
    easy_margin: float = 0.0

    #: Per level, a factor on the budget's iterations for this game (``{"normal": 3}``: its
    #: normal level samples three times the worlds the budget names, its playouts being
    #: cheap enough to stay quick). Empty: the budgets as they are.
    iterations_scale: dict[str, float] = {}

    #: Per level, how often the other seats in the search's playouts make a random legal
    #: move instead of the rollout policy's (``{"normal": 0.5}``). A look-ahead whose
    #: worlds hold only easy players expects sensible answers to every move, and against
    #: players unlike them it overrates the moves that rely on those answers. Only the
    #: normal level's search reads it (search.monte_carlo). Empty: the policy always.
    others_noise: dict[str, float] = {}

    #: The strong level's search: "halving" (sequential halving over the root's actions,
    #: companion.bots.search.halving), "ismcts" (a tree over the seat's own later
    #: decisions, for a game where what the seat does next depends on what it sees the
    #: others do, as in Call the Shot's duels of claims and calls) or "tree"
    #: (companion.bots.tree: an ISMCTS over every seat's later moves, on worlds of the
    #: game's own that can be walked a move at a time; halving where they cannot).
    strong_search: str = "halving"

    #: The levels whose search tries every legal action, not only :meth:`candidates`' few
    #: (``("expert",)``: with its time, expert can afford the moves the rules of thumb rank
    #: low, and finds the good ones among them). Empty: every level tries the candidates.
    every_action: tuple[str, ...] = ()

    # -- what every game provides ------------------------------------------------------

    def easy(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """The rule-of-thumb player: one element of ``legal``, from the view alone."""
        raise NotImplementedError

    def sample(self, view: View, rng: random.Random) -> dict[str, Any]:
        """A snapshot (``{"game", "state"}``) consistent with every fact of ``view``: the
        hidden parts (other hands, the stock, sealed choices) drawn with ``rng``, so that
        ``game.state_from_dict(sample).view(seat) == view``."""
        raise NotImplementedError

    # -- refinements with defaults -----------------------------------------------------

    def weight(self, view: View, world: dict[str, Any]) -> float:
        """How likely the sampled ``world`` is given what the other seats did in the open
        (e.g. the bids they revealed), up to a constant; the strong level counts each
        world's playouts in proportion to this. Default: all alike."""
        return 1.0

    def search_worlds(self, view: View) -> Any:
        """A faster model of this decision's hidden worlds for the strong search (an
        object with ``draw(rng) -> (world, weight)`` and ``value(world, action_id, rng)``,
        as :class:`companion.bots.search.Worlds`), or None (the default): the search then
        samples snapshots and plays them on the game's engine. A game's own model must
        play its rollout policy and value a world exactly as the engine path would."""
        return None

    def candidates(self, view: View, legal: list[Action], rng: random.Random) -> list[Action]:
        """The legal actions the searches try (each on every sampled world). Default: all
        of them; a game with many near-equal choices (a bid of any amount, any two cards)
        keeps the few its rules of thumb rank best, so each is tried on more worlds."""
        return legal

    def should_act(self, view: View) -> bool:
        """Whether the viewing seat has a move to make (default: it is in ``to_act``)."""
        return view.get("seat") in view.get("to_act", ())

    def actor(self, state: Any) -> int | None:
        """In a sampled world, the seat that moves next (None: nobody). A game where
        several seats act at once names the next one still owing its choice."""
        to_act = state.to_act()
        return to_act[0] if to_act else None

    def rollout(self, state: Any, seat: int, rng: random.Random) -> Action:
        """The fast policy inside a sampled world (it may read that world's state, which is
        not the real one). Default: the easy player on the world's view."""
        return self.easy(state.view(seat), state.legal_actions(seat), rng)

    def rollout_id(self, state: Any, seat: int, rng: random.Random) -> int:
        """The rollout policy's move as an id of the world's integer action path
        (``state.legal_ids`` / ``state.apply_id``), which playouts apply. A game overrides
        it to choose among ``state.legal_ids(seat)`` reading the engine's integer cards, with
        no dict built. Default: the id of :meth:`rollout`'s action."""
        return state.ids().add(self.rollout(state, seat, rng))

    def observe(self, action: Action, mover: int, seat: int) -> Any:
        """What ``seat`` sees of ``mover``'s ``action`` (hashable). Default: all of it; a
        game hides what is hidden (a card played face down, a sealed choice never shown).
        No search reads it at present: it keyed the information sets of the tree the
        strong level searched before (see docs/architecture.md, "Bots")."""
        return action_key(action)

    def done(self, start: View, state: Any) -> bool:
        """Whether a playout from the decision seen as ``start`` has reached its horizon."""
        return state.is_over()

    #: What the searches maximise: "lead", a seat's score ahead of the others' mean (to
    #: win a game against them), or "own", its own score alone (the payoff of a game that
    #: pays each seat its own score, as OpenSpiel's ``oh_hell`` does:
    #: bench/bots_vs_openspiel.py sets it).
    payoff: str = "lead"

    def value(self, state: Any, seat: int) -> float:
        """The payoff of ``seat`` at the horizon: by default its score ahead of the mean of
        the others (a constant offset does not matter: actions are compared), or its own
        score with :attr:`payoff` "own"; negated in a game where the lower score wins."""
        scores = state.scores()
        if self.payoff == "own":
            ahead = float(scores[seat])
        else:
            others = [s for i, s in enumerate(scores) if i != seat]
            mean = sum(others) / len(others) if others else 0.0
            ahead = float(scores[seat]) - mean
        return -ahead if state.lower_wins else ahead

"""The engine contract shared by every game (see DESIGN.md, "Engine contract").

A :class:`Game` holds the fixed rules and checks options once; a :class:`State` is one game
in progress. Subclasses keep *all* their data in JSON-safe attributes (``None``, ``bool``,
``int``, ``str``, ``list``, ``dict`` with string keys; never tuples, sets or enums), so
that :meth:`State.to_dict` / :meth:`Game.state_from_dict` round-trip exactly, and so that
the settings plus the action log replay to the same state (:meth:`Game.replay`).

A subclass implements the underscored hooks:

``_to_act()``            seats that may act now ([] once the game is over)
``_legal(seat)``         the actions that seat may take now, as JSON-safe dicts
``_apply(seat, action)`` perform one action already checked against ``_legal``; it must not
                         raise, so a failed action never leaves a half-changed state
``_explain(seat, action)`` optional: why an action is not allowed, in the player's words
``view(seat)``           what one seat (or the table, ``None``) may see
``scores()`` and ``is_over()``
"""

from __future__ import annotations

import copy
import secrets
from typing import Any, ClassVar


class IllegalAction(ValueError):
    """An action (or a setup) the rules do not allow. ``str(error)`` is for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SheetError(IllegalAction):
    """A score-sheet entry the sheet refuses, saying where the fault is so a form can put
    the message next to it: ``round`` (the sheet's row, a deal in Shoot!, from 1),
    ``player`` (a seat from 0) and ``field`` (the fact's name)."""

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        player: int | None = None,
        field: str | None = None,
    ):
        super().__init__(message)
        self.round = round
        self.player = player
        self.field = field


Action = dict[str, Any]

_SCALARS = (str, int, float, bool, type(None))


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON data; :class:`TypeError` names anything that is not JSON-safe.

    Much faster than :func:`copy.deepcopy` on plain data, and it catches a tuple, set,
    enum or non-string key at the moment a state is saved rather than after a round trip.
    """
    kind = type(value)
    if kind is dict:
        copied = {}
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"state keys must be strings, not {key!r}")
            copied[key] = plain_copy(item)
        return copied
    if kind is list:
        return [plain_copy(item) for item in value]
    if kind in _SCALARS:
        return value
    raise TypeError(f"a state may hold only JSON data, not {kind.__name__}: {value!r:.60}")


class State:
    """One game in progress. See the module docstring for what a subclass provides."""

    slug: ClassVar[str] = ""

    players: int
    options: dict[str, Any]
    seed: int
    deal: dict[str, Any] | None
    log: list[list[Any]]

    def __init__(self, players: int, options: dict[str, Any], seed: int, deal: dict | None):
        self.players = players
        self.options = options
        self.seed = seed
        self.deal = copy.deepcopy(deal)
        self.log = []

    # -- the contract -------------------------------------------------------------------

    def to_act(self) -> list[int]:
        return [] if self.is_over() else list(self._to_act())

    def legal_actions(self, seat: int) -> list[Action]:
        if not self._is_seat(seat) or seat not in self.to_act():
            return []
        return self._legal(seat)

    def apply(self, seat: int, action: Action) -> None:
        """Perform ``action`` for ``seat`` or raise :class:`IllegalAction`, changing nothing."""
        if not self._is_seat(seat):
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action must be an object with a "type".')
        if self.is_over():
            raise IllegalAction("The game is over.")
        if seat not in self.to_act():
            raise IllegalAction(self._not_your_turn(seat))
        legal = self._legal(seat)
        try:
            # The legal list's own copy: JSON true == 1 must not slip in as a bool.
            canonical = legal[legal.index(action)]
        except ValueError:
            raise IllegalAction(self._explain(seat, action)) from None
        canonical = plain_copy(canonical)
        self._apply(seat, canonical)
        self.log.append([seat, canonical])

    def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[int]:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.slug, "state": plain_copy(vars(self))}

    # -- hooks for subclasses -----------------------------------------------------------

    def _to_act(self) -> list[int]:
        raise NotImplementedError

    def _legal(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def _apply(self, seat: int, action: Action) -> None:
        raise NotImplementedError

    def _explain(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal now; subclasses give the rule's own reason."""
        kinds = sorted({a["type"] for a in self._legal(seat)})
        if action.get("type") not in kinds:
            return f"You can't {action.get('type')!s:.20} now; you can: {', '.join(kinds)}."
        return "That move is not allowed now."

    def _not_your_turn(self, seat: int) -> str:
        return "It is not your turn."

    def _is_seat(self, seat: Any) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players


class Game:
    """The fixed rules of one game; creates, restores and replays its states."""

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    tagline: ClassVar[str] = ""
    state_class: ClassVar[type[State]]

    def new_state(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
    ) -> State:
        if isinstance(players, bool) or not isinstance(players, int):
            raise IllegalAction("The number of players must be a whole number.")
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                f"{self.name} is for {self.min_players} to {self.max_players} players."
            )
        if options is not None and not isinstance(options, dict):
            raise IllegalAction("Options must be an object.")
        if deal is not None and not isinstance(deal, dict):
            raise IllegalAction("A deal must be an object.")
        options = self.check_options(players, dict(options or {}))
        if seed is None:
            seed = secrets.randbits(52)  # exact in a JavaScript number too
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise IllegalAction("A seed must be a whole number.")
        return self.start(players, options, seed, deal)

    def check_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Validate ``options`` and fill in defaults; must be idempotent."""
        if options:
            raise IllegalAction(f"{self.name} has no options {sorted(options)}.")
        return options

    def start(self, players: int, options: dict, seed: int, deal: dict | None) -> State:
        """Create the first state from checked settings (a subclass deals here)."""
        raise NotImplementedError

    def state_from_dict(self, d: dict[str, Any]) -> State:
        if d.get("game") != self.slug:
            raise ValueError(f"not a {self.slug} state: {d.get('game')!r}")
        state = self.state_class.__new__(self.state_class)
        state.__dict__.update(plain_copy(d["state"]))
        return state

    def replay(self, state: State, upto: int | None = None) -> State:
        """A fresh state from ``state``'s settings with its first ``upto`` actions replayed."""
        fresh = self.start(state.players, copy.deepcopy(state.options), state.seed, state.deal)
        for seat, action in state.log[:upto]:
            fresh.apply(seat, action)
        return fresh

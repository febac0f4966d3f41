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
``_is_legal(seat, action)`` optional: whether ``action`` is in ``_legal(seat)``, checked
                         directly (without building the list) and as strictly as
                         :func:`action_key`: exact JSON types, exactly the same keys
``_view(seat)``          the game's own part of what one seat (or the table, ``None``)
                         may see; :meth:`State.view` puts the common block beside it
``scores()`` (one per seat) and ``is_over()``; optionally ``sides()``, ``winners()``,
``prompt(seat)``, ``doing()``, ``describe(action)``, ``hand_of(seat)`` and
``why_not(seat, card)`` (a refused card's reason and the rule's anchor)
``sealed_step()``        optional: the sealed step in progress, in words, for the host's
                         undo (see :meth:`Game.undo_point`)

The integer action path (:meth:`State.legal_ids`, :meth:`State.apply_id`,
:meth:`Game.action_of`, :meth:`Game.id_of`): a game that numbers its actions itself sets
``action_ids`` to an :class:`ActionIds` table of every action it can ever offer and
implements ``_legal_ids(seat)``, ``_apply_id(seat, id)`` and optionally ``_id_of(action)``
and ``_id_legal(seat, id)`` instead of ``_legal``, ``_is_legal`` and ``_apply``: the dict
contract is then read through the same numbering, so the two cannot disagree. Such a
game may take ``legal_ids``/``apply_id`` over for speed, handing whatever it does not
apply itself to the base. Any other game gets ids from a table that numbers each action
the first time a legal list holds it.

A game may also give a rematch its first dealer or challenger (:meth:`Game.rematch_deal`).

A :class:`Game` declares its :class:`~companion.games.spec.Spec` (``spec``), its state
class and its score sheet (a :class:`Sheet` subclass); options are checked against the
spec by one :func:`~companion.games.spec.check_options` in both modes.
"""

from __future__ import annotations

import copy
import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar

from .errors import IllegalAction, SheetError
from .spec import (
    PLAY,
    SCORE,
    Field,
    Spec,
    Step,
    box_indices,
    check_options,
    field_key,
    is_whole,
    read_fields,
    winners,
)

Action = dict[str, Any]

ROUND_STEP = "round"  # the one step of a sheet declared without steps, on the phones
_SCALARS = (str, int, float, bool, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)
_CONTAINERS = frozenset((dict, list))
_JSON_TYPES = _SCALAR_TYPES | _CONTAINERS

# Set by :func:`shared_json` for the service's save and load path (see there).
_SHARED = ContextVar("shared_json", default=False)


@contextmanager
def shared_json() -> Iterator[None]:
    """Within this block :meth:`State.to_dict` and :meth:`Game.state_from_dict` share
    lists and dicts with the state instead of copying them. Only for data nobody else
    holds: a dict just parsed from JSON, a snapshot serialised before the state changes
    again (the service's load and save; SQLAlchemy must then be told the column changed,
    since the loaded value and the new one share their contents)."""
    token = _SHARED.set(True)
    try:
        yield
    finally:
        _SHARED.reset(token)


def json_is_fresh() -> bool:
    """Whether the code runs inside a :func:`shared_json` block: a state loaded there takes
    the snapshot's lists over instead of copying them (a game's own ``state_from_dict``
    asks this as the base's does)."""
    return _SHARED.get()


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


def action_key(value: Any) -> Any:
    """A hashable key of JSON data that keeps the JSON type: ``true``, ``1.0`` and ``"1"``
    all have keys different from ``1``'s (while ``True == 1 == 1.0`` in Python). Anything
    that is not JSON data gets a key equal to nothing else."""
    kind = type(value)
    if kind is dict:
        return frozenset((key, action_key(item)) for key, item in value.items())
    if kind is list:
        return (list, tuple(action_key(item) for item in value))
    if kind in _SCALARS:
        return (kind, value)
    return object()


def _private_copy(action: Action) -> Action:
    """A copy of an action (JSON data) that shares nothing with it."""
    for value in action.values():
        if type(value) not in _SCALAR_TYPES:
            return plain_copy(action)
    return dict(action)


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a == b`` holds as JSON too, given that it holds in Python: the same JSON
    type all the way down (``action_key(a) == action_key(b)``, without building keys)."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        for key, item in a.items():
            other = b[key]
            if type(item) is not type(other):
                return False
            if type(item) in _CONTAINERS and not same_json(item, other):
                return False  # scalars need no call: their types match, checked below
            if type(item) not in _JSON_TYPES:
                return False
        return True
    if kind is list:
        return all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return kind in _SCALAR_TYPES


class ActionIds:
    """A numbering of a game's actions: id ``i`` is the action ``actions[i]``.

    A game with its own id path gives its whole table at once (ids fixed by the code, the
    same in every process). The fallback for the others starts empty and numbers each
    action the first time it is :meth:`add`-ed, so its ids hold for the life of the
    process only. The table's dicts are never handed out: :meth:`action_of` copies.
    """

    def __init__(self, actions: Sequence[Action] = ()):
        self._actions: list[Action] = []
        self._ids: dict[Any, int] = {}
        self._lock = threading.Lock()
        #: Whether every action is a flat dict of scalars (then ``dict.copy`` copies it).
        self.flat = True
        self.size = 0  # len(self), read without a call
        for number, action in enumerate(actions):
            if self.add(action) != number:
                raise ValueError(f"{action!r} is in the table twice")

    def __len__(self) -> int:
        return self.size

    def action_of(self, action_id: int) -> Action:
        """A fresh copy of action ``action_id`` (:class:`KeyError` for an unknown id)."""
        if type(action_id) is not int or not 0 <= action_id < len(self._actions):
            raise KeyError(f"no action has the id {action_id!r}")
        return plain_copy(self._actions[action_id])

    def id_of(self, action: Any) -> int | None:
        """The id of ``action`` as JSON (:func:`action_key`: ``true`` is not ``1``), or
        None when the table does not hold it."""
        return self._ids.get(action_key(action))

    def copy_of(self, action_id: int) -> Action:
        """A fresh copy of action ``action_id``, an id known to be in the table."""
        action = self._actions[action_id]
        return action.copy() if self.flat else plain_copy(action)

    def add(self, action: Action) -> int:
        """The id of ``action``, numbering it first if the table does not hold it yet."""
        key = action_key(action)
        found = self._ids.get(key)
        if found is not None:
            return found
        with self._lock:  # two threads numbering one new action give it one id
            found = self._ids.get(key)
            if found is None:
                found = len(self._actions)
                self._actions.append(plain_copy(action))
                self.flat = self.flat and all(type(v) in _SCALAR_TYPES for v in action.values())
                self._ids[key] = found
                self.size = found + 1
            return found


def join_names(names: Sequence[str]) -> str:
    """``["Ada", "Bo", "Cy"]`` -> ``"Ada, Bo and Cy"``."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class State:
    """One game in progress. See the module docstring for what a subclass provides."""

    #: The game's declaration, bound by its :class:`Game` when the game class is made
    #: (``Game.__init_subclass__``): the one source of :attr:`slug` and :attr:`lower_wins`,
    #: which a state class may not set itself.
    spec: ClassVar[Spec]

    players: int
    options: dict[str, Any]
    seed: int
    deal: dict[str, Any] | None
    #: Every action applied since the start, ``[seat, action]``; the snapshot leaves it
    #: out (the service keeps it in its action table), so a state restored from one has
    #: ``None`` here until someone who has the log sets it (the host's undo does).
    log: list[list[Any]] | None
    #: How many actions the game has had (the log's length, kept in the snapshot).
    moves: int
    #: The last action applied, ``[seat, action]`` (None before the first).
    last_action: list[Any] | None
    #: How the cards are drawn from the seed (see :attr:`Game.dealings`). The first way is
    #: this class default, so the snapshot of a game dealt that way (every game stored
    #: before a game had a second way) holds no ``dealing`` and restores to 1.
    dealing: int = 1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("slug", "lower_wins"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__}.{name}: the game's spec says it (Spec.{name}), not its state"
                )

    @property
    def slug(self) -> str:
        """The game's slug, from its spec: the ``game`` of every view and snapshot."""
        return self.spec.slug

    @property
    def lower_wins(self) -> bool:
        """Whether the lowest score wins, from the game's spec."""
        return self.spec.lower_wins

    def __init__(self, players: int, options: dict[str, Any], seed: int, deal: dict | None):
        self.players = players
        self.options = options
        self.seed = seed
        self.deal = None if deal is None else copy.deepcopy(deal)
        self.log = []
        self.moves = 0
        self.last_action = None

    # -- the contract -------------------------------------------------------------------

    def to_act(self) -> list[int]:
        return [] if self.is_over() else list(self._to_act())

    def legal_actions(self, seat: int) -> list[Action]:
        # _is_seat inline: this and apply run once per action of every playout.
        if type(seat) is not int or not 0 <= seat < self.players:
            return []
        if self.is_over() or seat not in self._to_act():
            return []
        return self._legal(seat)

    def apply(self, seat: int, action: Action) -> None:
        """Perform ``action`` for ``seat`` or raise :class:`IllegalAction`, changing nothing.

        ``action`` must be one of ``legal_actions(seat)`` by JSON type as well as by value
        (:func:`action_key`): ``{"bid": true}`` or ``{"bid": 1.0}`` is never ``{"bid": 1}``.
        """
        if type(seat) is not int or not 0 <= seat < self.players:  # _is_seat inline
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if type(action) is not dict or type(action.get("type")) is not str:
            raise IllegalAction('An action must be an object with a "type".')
        table = self.action_ids
        if table is not None:  # the game's own numbering: the dict is read as its id
            parse = self._id_of
            action_id = table.id_of(action) if parse is None else parse(action)
            if action_id is None or not self._id_legal(seat, action_id):
                raise self._refused(seat, action)
            self._apply_id(seat, action_id)
            self._record([seat, table.copy_of(action_id)])
            return
        if self.is_over():
            raise IllegalAction("The game is over.")
        if seat not in self._to_act():
            raise IllegalAction(self._not_your_turn(seat))
        is_legal = self._is_legal
        if is_legal is None:
            canonical = self._listed_copy(seat, action)
        elif is_legal(seat, action):
            canonical = _private_copy(action)
        else:
            canonical = None
        if canonical is None:
            raise IllegalAction(self._refusal(seat, action))
        self._apply(seat, canonical)
        self._record([seat, canonical])

    def _record(self, entry: list[Any]) -> None:
        """Count an applied action ``[seat, action]`` (a private copy) and keep it as
        the last action, and in the log when this state holds one. (Pirate Tricks'
        ``apply_id`` repeats these lines for a play, PULL!'s for every action: change
        all three.)"""
        self.moves += 1
        self.last_action = entry
        if self.log is not None:
            self.log.append(entry)

    # -- the integer action path ----------------------------------------------------------

    #: The game's own numbering of every action it can offer (see the module docstring),
    #: or None: then :meth:`ids` numbers actions as legal lists show them.
    action_ids: ClassVar[ActionIds | None] = None

    @classmethod
    def ids(cls) -> ActionIds:
        """The numbering of this game's actions: its own, or the fallback that numbers
        each action the first time a legal list holds it (one table per state class)."""
        if cls.action_ids is not None:
            return cls.action_ids
        table = _NUMBERED.get(cls)
        return table if table is not None else _NUMBERED.setdefault(cls, ActionIds())

    def legal_ids(self, seat: int) -> list[int]:
        """The ids of ``legal_actions(seat)``, in the same order: ``[game.action_of(i) for
        i in state.legal_ids(seat)] == state.legal_actions(seat)``."""
        if type(seat) is not int or not 0 <= seat < self.players:
            return []
        if self.action_ids is not None:
            return self._legal_ids(seat)  # which answers [] for a seat not to act
        if self.is_over() or seat not in self._to_act():
            return []
        add = self.ids().add
        return [add(action) for action in self._legal(seat)]

    def apply_id(self, seat: int, action_id: int) -> None:
        """:meth:`apply` of the action with id ``action_id``: the same checks, refusals
        and log entry (a copy of the action, never the table's own dict)."""
        table = self.action_ids
        if table is None:
            table = self.ids()
            if type(action_id) is not int or not 0 <= action_id < table.size:
                raise IllegalAction(f"There is no action with the id {action_id!r:.20}.")
            self.apply(seat, table._actions[action_id])  # apply logs its own copy
            return
        if (
            type(seat) is int
            and type(action_id) is int
            and 0 <= seat < self.players
            and 0 <= action_id < table.size
            and self._id_legal(seat, action_id)  # which answers False for a seat not to act
        ):
            self._apply_id(seat, action_id)
            action = table._actions[action_id]  # table.copy_of inline
            self._record([seat, action.copy() if table.flat else plain_copy(action)])
            return
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if type(action_id) is not int or not 0 <= action_id < table.size:
            raise IllegalAction(f"There is no action with the id {action_id!r:.20}.")
        raise self._refused(seat, table.copy_of(action_id))

    def _refused(self, seat: int, action: Action) -> IllegalAction:
        """The refusal of an action found not legal for a valid seat, as apply words it."""
        if self.is_over():
            return IllegalAction("The game is over.")
        if seat not in self._to_act():
            return IllegalAction(self._not_your_turn(seat))
        return IllegalAction(self._refusal(seat, action))

    def _legal_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` (any seat of the table) may play now, in the order of its
        legal list, [] when it may not act or the game is over (the base does not ask
        ``to_act`` first): a game with ``action_ids`` implements it. A fresh list."""
        raise NotImplementedError

    def _id_legal(self, seat: int, action_id: int) -> bool:
        """Whether the id (one of the table's) is legal for ``seat`` (any seat of the
        table: False when it may not act); a game may answer without the list."""
        return action_id in self._legal_ids(seat)

    def _apply_id(self, seat: int, action_id: int) -> None:
        """Perform the legal action ``action_id``; like ``_apply`` it must not raise."""
        raise NotImplementedError

    #: Optional ``(action) -> int | None``: the id of ``action`` (a dict with a string
    #: ``type``) read directly, as strictly as the table's :meth:`ActionIds.id_of`; None
    #: looks the action up in the table.
    _id_of: Any = None

    def _refusal(self, seat: int, action: Action) -> str:
        """The game's reason for refusing ``action``; the generic one if the game's own
        explanation trips over a value it did not expect (a refusal never fails)."""
        try:
            return self._explain(seat, action)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return State._explain(self, seat, action)

    def _legal_copy(self, seat: int, action: Action) -> Action | None:
        """A private copy of ``action`` if it is legal for ``seat`` (to act), else None
        (what :meth:`apply` does inline)."""
        table = self.action_ids
        if table is not None:
            action_id = table.id_of(action) if self._id_of is None else self._id_of(action)
            if action_id is None or not self._id_legal(seat, action_id):
                return None
            return table.copy_of(action_id)
        if self._is_legal is None:
            return self._listed_copy(seat, action)
        return _private_copy(action) if self._is_legal(seat, action) else None

    def _listed_copy(self, seat: int, action: Action) -> Action | None:
        """The legal list's own copy of ``action`` if it is in the list, else None."""
        legal = self._legal(seat)
        start = 0
        while True:
            # == finds a candidate (fast, in C); same_json then tells true and 1.0 from 1.
            try:
                start = legal.index(action, start) + 1
            except ValueError:
                return None
            if same_json(action, legal[start - 1]):
                return plain_copy(legal[start - 1])

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (or the table, ``None``) may see: the common block that every
        game fills the same way, with the game's own part (:meth:`_view`) beside it.

        Common block: ``game``, ``seat``, ``players`` (how many), ``sides`` (lists of
        seats; one-seat sides without teams), ``scores`` (one per seat; a partner shows the
        side's score), ``winners`` (seats; [] until the game is over), ``over``,
        ``to_act``, ``prompt`` (what this seat must do now, in words) and ``result``
        (what ended last, :meth:`result`).
        """
        own = self._view(seat)
        over = self.is_over()
        own.update(
            game=self.slug,
            seat=seat,
            players=self.players,
            sides=[list(side) for side in self.sides()],
            scores=self.visible_scores(seat),
            winners=list(self.winners()) if over else [],
            over=over,
            to_act=self.to_act(),
            doing="" if over else self.doing(),
            prompt=self.prompt(seat),
            result=self.result(),
        )
        return own

    def result(self) -> dict[str, Any] | None:
        """What ended last (a trick, a deal, a round, a target, a duel), for the result
        card every screen shows at its top; None before anything has ended. Public: the
        same for every seat, naming only what everybody has seen. A game returns
        :func:`result_card` (``companion/games/moments.py``); a new ``id`` is a new card."""
        return None

    def chapter(self) -> str:
        """The part of the game in progress, in words ("Deal 3"): the game log groups
        its events by it. "" by default (one group)."""
        return ""

    def public_words(self, seat: int, action: Action) -> str | None:
        """``action`` of ``seat`` (about to be applied) as everybody may read it now, for
        the game log: :meth:`describe`, except within a sealed step, where nobody learns
        the choice (a game may say more, e.g. a claim made aloud); None leaves out an
        action nobody saw at all."""
        if self.sealed_step() is not None:
            return "Makes a secret choice"
        return self.describe(action)

    def shown(self) -> list[Any] | None:
        """Just after a sealed step closed: what it showed everybody, as words parts
        (see ``moments.py``), for the game log; None when a result says it already."""
        return None

    def doing(self) -> str:
        """What the seats in ``to_act`` are doing, as a badge says it ("to bid")."""
        return "to play"

    def hand_of(self, seat: int) -> list[str]:
        """The cards ``seat`` holds (its own hand only); none by default."""
        return []

    def blocked(self, seat: int | None) -> dict[str, dict[str, str]]:
        """Each card of ``seat``'s own hand it may not play now, with why: ``{card:
        {"reason", "anchor"}}``. Only while the seat is to act and some card of its hand
        may be played (while it bids, the hand is only to look at); never another hand."""
        if seat is None or not self._is_seat(seat) or seat not in self.to_act():
            return {}
        playable: set[str] = set()
        for action in self.legal_actions(seat):
            if isinstance(action.get("card"), str):
                playable.add(action["card"])
            if isinstance(action.get("cards"), list):
                playable.update(action["cards"])
        hand = self.hand_of(seat)
        if not playable & set(hand):
            return {}
        return {card: self.why_not(seat, card) for card in hand if card not in playable}

    def why_not(self, seat: int, card: str) -> dict[str, str]:
        """Why ``seat`` may not play ``card`` from its hand now, in the engine's words
        (``reason``), and the rules page's section that says so (``anchor``, one of the
        spec's anchors, "" when none fits)."""
        return {"reason": "You can't play that card now.", "anchor": ""}

    def is_over(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[int]:
        """One score per seat; in a team game each partner shows the side's score."""
        raise NotImplementedError

    def visible_scores(self, seat: int | None) -> list[int | None]:
        """The scores ``seat`` may see (the view's ``scores``): all of them by default; a
        game whose scores are secret until the end gives ``None`` for the hidden ones."""
        return list(self.scores())

    def sides(self) -> list[list[int]]:
        """The seats playing together; every seat alone when there are no teams."""
        return [[seat] for seat in range(self.players)]

    def winners(self) -> list[int]:
        """The winning seats once the game is over (both partners of a winning side)."""
        return winners(self.scores(), self.lower_wins)

    def prompt(self, seat: int | None) -> str:
        """What ``seat`` must do now, in a player's words ("" when it waits)."""
        if self.is_over():
            return "The game is over."
        if seat is not None and seat in self.to_act():
            return "Your move."
        return ""

    def describe(self, action: Action) -> str:
        """``action`` in a player's words, for buttons and the move log."""
        rest = [f"{key} {value}" for key, value in action.items() if key != "type"]
        return " ".join([str(action.get("type", "")).capitalize(), *rest]).strip()

    def sealed_step(self) -> str | None:
        """The sealed step in progress, in words ("the bids of deal 3"), or None when the
        next action is made in the open. A sealed step is a set of choices made in secret
        and shown together; the host's undo never reopens one choice of it alone once it
        is shown (:meth:`Game.undo_point`). Two steps one after the other must have
        different words."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The snapshot: every attribute but the log (see :func:`shared_json`)."""
        state = {key: value for key, value in vars(self).items() if key != "log"}
        return {"game": self.slug, "state": state if _SHARED.get() else plain_copy(state)}

    # -- hooks for subclasses -----------------------------------------------------------

    def _to_act(self) -> list[int]:
        raise NotImplementedError

    def _legal(self, seat: int) -> list[Action]:
        table = self.action_ids
        if table is None:
            raise NotImplementedError
        copy_of = table.copy_of  # a game with its own ids lists them as fresh dicts
        return [copy_of(action_id) for action_id in self._legal_ids(seat)]

    #: Optional ``(seat, action) -> bool``: whether ``action`` is one of ``_legal(seat)``
    #: for a seat already known to be to act, without building the list. It must be as
    #: strict as :func:`action_key` (exact JSON types, the same keys); None compares
    #: ``action`` with every legal action.
    _is_legal: Any = None

    def _apply(self, seat: int, action: Action) -> None:
        raise NotImplementedError

    def _view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def _setup(self) -> None:
        """Deal the first hand (called once by :meth:`Game.start`)."""
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
        return type(seat) is int and 0 <= seat < self.players


_NUMBERED: dict[type[State], ActionIds] = {}  # the fallback numbering of each state class


class Game:
    """The fixed rules of one game; creates, restores and replays its states.

    ``spec`` declares the game (name, player counts, options, sheet fields); ``state_class``
    plays it in engine mode and ``sheet_class`` keeps its score sheet.
    """

    spec: ClassVar[Spec]
    state_class: ClassVar[type[State]]
    sheet_class: ClassVar[type[Sheet] | None] = None
    #: The ways this game can draw its cards from the seed, oldest first; a new game
    #: deals the newest way and keeps it (``State.dealing``), so a stored game deals the
    #: same cards again when it is replayed. A game gains a way, never changes one.
    dealings: ClassVar[tuple[int, ...]] = (1,)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Bind the game's spec to its state class, so a state reads its slug and
        ``lower_wins`` from the one declaration. A state class another game's spec already
        holds (a variant reusing a state) is given a subclass of its own."""
        super().__init_subclass__(**kwargs)
        spec = getattr(cls, "spec", None)
        state_class = getattr(cls, "state_class", None)
        if spec is None or state_class is None:
            return
        if (SCORE in spec.modes) != (getattr(cls, "sheet_class", None) is not None):
            raise TypeError(
                f"{cls.__name__}: a game has a sheet_class exactly when its spec's modes "
                f"include score mode (modes: {sorted(spec.modes)})"
            )
        if "spec" not in state_class.__dict__:
            state_class.spec = spec
        elif state_class.spec is not spec:
            cls.state_class = type(
                state_class.__name__,
                (state_class,),
                {"spec": spec, "__module__": state_class.__module__},
            )

    @property
    def slug(self) -> str:
        return self.spec.slug

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def min_players(self) -> int:
        return self.spec.min_players

    @property
    def max_players(self) -> int:
        return self.spec.max_players

    @property
    def tagline(self) -> str:
        return self.spec.tagline

    def new_state(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        dealing: int | None = None,
    ) -> State:
        """A new game's first state. ``dealing`` is one of :attr:`dealings`, the newest
        when left out: the one to give is a stored game's own (``State.dealing``)."""
        self.spec.check_players(players)
        if options is not None and not isinstance(options, dict):
            raise IllegalAction("Options must be an object.")
        if deal is not None and not isinstance(deal, dict):
            raise IllegalAction("A deal must be an object.")
        options = self.check_options(players, dict(options or {}))
        if seed is None:
            seed = secrets.randbits(52)  # exact in a JavaScript number too
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise IllegalAction("A seed must be a whole number.")
        if dealing is None:
            dealing = self.dealings[-1]
        elif type(dealing) is not int or dealing not in self.dealings:
            raise IllegalAction(f"{self.name} deals in these ways: {self.dealings}.")
        if deal is not None:
            self.check_deal(players, options, deal)
        return self.start(players, options, seed, deal, dealing)

    def check_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate engine-mode ``options`` against the spec, defaults filled in
        (idempotent). The defaults (no option given) are checked once per player count
        and handed out as copies: checking them is a good part of starting a short game,
        which the bots' searches and the benches do by the thousand."""
        if options == {} and type(players) is int:
            cache = self.__dict__.setdefault("_checked_defaults", {})
            checked = cache.get(players)
            if checked is None:
                checked = check_options(self.spec, players, {}, PLAY, together=self.check_together)
                cache[players] = checked
            return plain_copy(checked)
        return check_options(self.spec, players, options, PLAY, together=self.check_together)

    def check_together(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Checks that concern several options at once (both modes); a hook."""
        return options

    def check_deal(self, players: int, options: dict[str, Any], deal: dict[str, Any]) -> None:
        """Refuse an explicit first deal that could not happen; a hook."""

    def start(
        self, players: int, options: dict, seed: int, deal: dict | None, dealing: int = 1
    ) -> State:
        """Create the first state from checked settings: the state's one setup hook."""
        state = self.state_class(players, options, seed, deal)
        if dealing != State.dealing:  # the first way is the class's (see State.dealing)
            state.dealing = dealing
        state._setup()
        return state

    def state_from_dict(self, d: dict[str, Any]) -> State:
        if d.get("game") != self.slug:
            raise ValueError(f"not a {self.slug} state: {d.get('game')!r}")
        state = self.state_class.__new__(self.state_class)
        state.__dict__.update(d["state"] if _SHARED.get() else plain_copy(d["state"]))
        # Snapshots saved before the log left them hold it; a hand-written one may hold
        # neither the log nor the counters.
        log = state.__dict__.setdefault("log", None)
        state.__dict__.setdefault("moves", len(log) if log else 0)
        state.__dict__.setdefault("last_action", log[-1] if log else None)
        return state

    def action_of(self, action_id: int) -> Action:
        """The action numbered ``action_id`` (a fresh dict), :class:`KeyError` if none is.
        See :meth:`State.legal_ids`."""
        return self.state_class.ids().action_of(action_id)

    def id_of(self, action: Any) -> int | None:
        """The id of ``action`` (the same JSON, :func:`action_key`), or None when it has
        none: not an action of this game (or, for a game without its own numbering, not
        yet offered by a legal list in this process)."""
        return self.state_class.ids().id_of(action)

    def replay(self, state: State, upto: int | None = None) -> State:
        """A fresh state from ``state``'s settings with its first ``upto`` actions replayed."""
        fresh = self._restart(state)
        for seat, action in _log_of(state)[:upto]:
            fresh.apply(seat, action)
        return fresh

    def _restart(self, state: State) -> State:
        """The first state of ``state``'s game: its settings, seed and way of dealing."""
        options = copy.deepcopy(state.options)
        return self.start(state.players, options, state.seed, state.deal, state.dealing)

    # -- the host's undo ------------------------------------------------------------------

    def sealed_steps(self, state: State) -> list[str | None]:
        """The sealed step (:meth:`State.sealed_step`) before each action of ``state``'s
        log, and after the last one: one replay of the log."""
        fresh = self._restart(state)
        steps: list[str | None] = []
        for seat, action in _log_of(state):
            steps.append(fresh.sealed_step())
            fresh.apply(seat, action)
        steps.append(fresh.sealed_step())
        return steps

    def undo_point(self, state: State, steps: list[str | None] | None = None) -> int:
        """How many actions of ``state``'s log stay after the host's undo; raises
        :class:`IllegalAction` with the reason when the game refuses.

        One action goes back, but undo stops at a reveal: the action that closed a
        sealed step showed every choice of it, and no choice may open again once the
        others are known (its player, or all of them, would choose again knowing them),
        so that undo is refused with the reason. A choice of a step still sealed goes
        back alone (the notice keeps it secret). A game may refuse more (override)."""
        if not state.moves:
            raise IllegalAction("There is nothing to undo.")
        steps = steps if steps is not None else self.sealed_steps(state)
        point = state.moves - 1
        step = steps[point]
        if step is not None and steps[-1] != step:
            raise IllegalAction(
                f"Undo stops at {step}: it was shown to every phone, and taking it back "
                "would let players choose again knowing the others' choices."
            )
        return point

    def undo(self, state: State, names: Sequence[str | None]) -> tuple[State, str]:
        """The host's undo: the state taken back to :meth:`undo_point` and what every
        phone is told, in words that name no choice still sealed after the undo."""
        steps = self.sealed_steps(state)
        point = self.undo_point(state, steps)
        undone = _log_of(state)[point:]

        def name(seat: int) -> str:
            return (names[seat] if seat < len(names) else None) or f"Seat {seat + 1}"

        seat, action = undone[0]
        if steps[point] is None:
            text = f"The host took back {name(seat)}'s move: {state.describe(action)}."
        else:  # a choice of a step still sealed (undo_point refuses a shown one)
            text = (
                f"The host took back {name(seat)}'s choice in {steps[point]}; "
                "what it was stays secret."
            )
        return self.replay(state, upto=point), text

    def rematch_deal(self, state: State) -> dict[str, Any] | None:
        """The explicit first ``deal`` of a rematch of the finished ``state`` by the same
        seats: the next game's first dealer or challenger as the rules pass it on (e.g.
        ``{"dealer": 2}``); None leaves it to the game's own start (a draw, a toss)."""
        return None

    def card_faces(self, options: Mapping[str, Any] | None = None) -> dict[str, dict[str, str]]:
        """Every card id of the game -> ``{"text", "label", "colour"}``: what a screen
        prints (``"7♦"``), what a screen reader says (``"7 of diamonds"``) and a colour
        class. The pages read card names from here, never from their own copy."""
        return {}

    def option_from_form(self, name: str, form: Mapping[str, str]) -> Any:
        """A ``data`` option read from a submitted form (its boxes are the game's own);
        ``None`` keeps the default."""
        return None

    def sheet(self, names: Sequence[str], options: Mapping[str, Any] | None = None) -> Sheet:
        """The score sheet of ``names`` with ``options`` (raises :class:`SheetError`)."""
        if self.sheet_class is None:
            raise SheetError(f"{self.name} has no score sheet.")
        return self.sheet_class(names, options)


def _log_of(state: State) -> list[list[Any]]:
    if state.log is None:
        raise ValueError("this state was restored from a snapshot without its log; set the log")
    return state.log


class Sheet:
    """One game's score sheet: named players and checked options in, figures out.

    Rows are the facts of each round as stored (JSON). Every method leaves the rows it is
    given untouched and raises :class:`SheetError` (naming the round, player and field at
    fault, and the players by their names) for an entry the rules or the deck make
    impossible. A subclass sets ``spec`` and implements :meth:`check_row` and
    :meth:`summary`; games whose form boxes are not the stored facts themselves also
    implement :meth:`facts_from_values` and :meth:`values_of`.
    """

    spec: ClassVar[Spec]

    def __init__(self, names: Sequence[str], options: Mapping[str, Any] | None = None):
        if isinstance(names, str) or not isinstance(names, Sequence):
            raise SheetError("Give the players' names.")
        self.names = [str(name) for name in names]
        self.players = len(self.names)
        try:
            self.spec.check_players(self.players)
            self.options = check_options(
                self.spec, self.players, options, SCORE, together=self.check_together
            )
        except SheetError:
            raise
        except IllegalAction as error:
            raise SheetError(error.message) from None

    # -- settings ------------------------------------------------------------------------

    def check_together(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Checks that concern several options at once; a hook."""
        return options

    def sides(self) -> list[list[int]]:
        """The seats that score together (one-seat sides without teams)."""
        return [[seat] for seat in range(self.players)]

    def side_names(self) -> list[str]:
        return [" & ".join(self.names[seat] for seat in side) for side in self.sides()]

    # -- rows ----------------------------------------------------------------------------

    def check_row(self, index: int, facts: Any, before: list[Any]) -> Any:
        """Row ``index`` (from 0) checked and normalised, knowing the rows ``before`` it
        (already checked); raises :class:`SheetError`."""
        raise NotImplementedError

    def check(self, rows: Any) -> list[Any]:
        """Every row checked and normalised, or :class:`SheetError` naming the first bad
        one."""
        if not isinstance(rows, list):
            raise SheetError("A score sheet is a list of rounds.")
        done: list[Any] = []
        for index, facts in enumerate(rows):
            done.append(self.check_row(index, facts, done))
        return done

    def add(self, rows: list, facts: Any) -> list[Any]:
        """A new list of rows with ``facts`` as the next round."""
        return self.check([*rows, facts])

    def replace(self, rows: list, index: Any, facts: Any) -> list[Any]:
        """A new list with round ``index`` (from 0) corrected."""
        self._check_index(rows, index)
        return self.check([*rows[:index], facts, *rows[index + 1 :]])

    def delete(self, rows: list, index: Any) -> list[Any]:
        """A new list without round ``index``; the rounds after it move up and must fit."""
        self._check_index(rows, index)
        return self.check([*rows[:index], *rows[index + 1 :]])

    def _check_index(self, rows: list, index: Any) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rows):
            raise SheetError(f"There is no such {self.spec.round_word} on this sheet.")

    def summary(self, rows: list) -> dict[str, Any]:
        """Everything derived from the rows. Opens with the common block: ``players``
        (names), ``sides`` (lists of seats), ``side_names``, ``totals`` (one per seat; a
        partner shows the side's total), ``rows`` (one dict per round), ``running`` (the
        per-seat totals after each round, from ``start``), ``over``,
        ``winners`` (seats; [] until over) and ``next`` (what the next round needs, or
        ``None``); the game's own figures beside it."""
        raise NotImplementedError

    def common(self, totals: Sequence[int], over: bool, **own: Any) -> dict[str, Any]:
        """The common block of :meth:`summary` with the game's own figures beside it.

        ``running`` (one list of per-seat totals after each row, for the chart and the
        export) is the game's own when given, else each row's ``totals``; ``start`` (the
        per-seat totals before the first row) is the game's own, else zeros."""
        rows = own.get("rows") or []
        running = own.get("running")
        if running is None:
            running = [
                list(row["totals"]) for row in rows if isinstance(row, dict) and "totals" in row
            ]
            if len(running) != len(rows):
                running = []
        return {
            **own,
            "players": list(self.names),
            "sides": self.sides(),
            "side_names": self.side_names(),
            "totals": list(totals),
            "running": [list(seats) for seats in running],
            "start": list(own.get("start") or [0] * self.players),
            "over": over,
            "winners": own.get("winners")
            or (winners(totals, self.spec.lower_wins) if over else []),
        }

    # -- the round form ------------------------------------------------------------------

    def choices(self, field: Field) -> list[tuple[str, str]]:
        """The (value, label) pairs a ``choice`` field offers."""
        return []

    def read(self, form: Mapping[str, str], stage: str | None = None) -> Any:
        """A submitted round form -> the round's facts (:class:`SheetError` at a box)."""
        return self.facts_from_values(self.read_values(form, stage))

    def read_values(self, form: Mapping[str, str], stage: str | None = None) -> dict[str, Any]:
        """A submitted round form -> typed values of the fields (of ``stage`` only, if
        given), each box checked (:class:`SheetError` at a box)."""
        return read_fields(
            self.spec.sheet_fields,
            form,
            self.players,
            len(self.sides()),
            self.choices,
            stage=stage,
        )

    def facts_from_values(self, values: dict[str, Any]) -> Any:
        """Typed form values -> the facts to store (by default the same)."""
        return values

    def values_of(self, facts: Any) -> dict[str, Any]:
        """Stored facts -> typed form values (by default the same), to edit a round."""
        return dict(facts)

    # -- a round entered step by step -----------------------------------------------------
    #
    # The round in progress is kept apart from the rows (the rows stay complete rounds):
    # ``boxes`` maps each box key entered so far to its text, as the form sent it, and
    # ``done`` lists the names of the steps saved. See ``spec.sheet_steps``.

    def step_named(self, name: Any) -> Step | None:
        return next((s for s in self.spec.sheet_steps if s.name == name), None)

    def next_step(self, done: Sequence[str]) -> Step | None:
        """The first declared step not yet saved; None when every step is."""
        return next((s for s in self.spec.sheet_steps if s.name not in done), None)

    def step_boxes(self, step: Step, form: Mapping[str, str]) -> dict[str, str]:
        """The boxes of ``step`` in a submitted form, as texts (a hook: a game may turn a
        choice of its step form into the boxes the round form has)."""
        return {str(k): str(v) for k, v in form.items() if step.takes(str(k))}

    def check_step(self, rows: list, boxes: Mapping[str, str], done: Sequence[str]) -> None:
        """The steps ``done`` of the next round, entered as ``boxes``, checked as far as
        they go: every box of their fields typed and in range, then :meth:`check_partial`
        on the typed values. Raises :class:`SheetError` at the first wrong box."""
        names: set[str] = set()
        for step in filter(None, map(self.step_named, done)):
            names |= step.field_names()
        fields = [f for f in self.spec.sheet_fields if f.name in names]
        values = read_fields(fields, boxes, self.players, len(self.sides()), self.choices)
        self.check_partial(len(rows), values, self.check(rows))

    def check_partial(self, index: int, values: dict[str, Any], before: list[Any]) -> None:
        """Round ``index``'s typed values of the steps saved so far, checked against the
        rules (a hook; the whole round is checked by :meth:`check_row` when it is added)."""

    # -- a round entered by every phone at the table (issue 28) --------------------------
    #
    # On a sheet the players joined, the step in progress is entered box by box, each box
    # by its owner (``Step.owner``); the step is saved when every box of
    # :meth:`step_keys` is in and :meth:`check_step` passes on them together.

    def open_step(self, done: Sequence[str], boxes: Mapping[str, str]) -> Step | None:
        """The step in progress, knowing the steps ``done`` and every box entered in them
        (``boxes``: form keys to text); None when the round is complete. By default the
        first declared step not done. A game whose steps depend on the facts entered
        (Pirate Tricks' auction: row by row, only the players still without a row, a
        second pass when its condition holds) builds them here (``Step.seats`` limits a
        step to some players) and finds them by name in :meth:`step_named`. A game
        declared without steps is entered as one open step of all its fields
        (:data:`ROUND_STEP`, owner "table")."""
        if not self.spec.sheet_steps:
            if ROUND_STEP in done:
                return None
            names = tuple(f.name for f in self.spec.sheet_fields)
            return Step(ROUND_STEP, self.spec.round_word, names, owner="table")
        return self.next_step(done)

    def step_keys(self, step: Step) -> list[str]:
        """Every box key ``step`` asks for, in form order: the boxes of its fields (or of
        the parts of a field it names), limited to ``step.seats`` when set."""
        keys: list[str] = []
        sides = len(self.sides())
        for box in step.boxes:
            name, *part = box.split("-")
            f = next(f for f in self.spec.sheet_fields if f.name == name)
            prefix = tuple(int(i) for i in part)
            for index in box_indices(f.shape(self.players, sides)):
                if index[: len(prefix)] != prefix:
                    continue
                key = field_key(name, *index)
                if step.seats is None or set(self.box_owner(step, key) or ()) & set(step.seats):
                    keys.append(key)
        return keys

    def box_owner(self, step: Step, key: str) -> tuple[int, ...] | None:
        """The players whose phones own box ``key`` of ``step`` (the keeper may enter any
        box); None for a box of the whole table (``owner`` "table" or "keeper"). Reads
        ``step.owner`` and the field's ``repeat``: the box's index along the "players"
        axis (owner "each") or the "sides" axis (owner "side"). A hook for a game whose
        boxes name their owner otherwise."""
        if step.owner not in ("each", "side"):
            return None
        name, *index = key.split("-")
        f = next((f for f in self.spec.sheet_fields if f.name == name), None)
        axis = "players" if step.owner == "each" else "sides"
        if f is None or axis not in f.repeat or len(index) != len(f.repeat):
            return None
        at = int(index[f.repeat.index(axis)])
        return (at,) if step.owner == "each" else tuple(self.sides()[at])

    def visible_totals(self, summary: dict[str, Any], seat: int | None) -> list[Any]:
        """The totals a phone (``seat``; None: the keeper, the shared screen, the watch
        page) may see on a joined sheet; None where one is secret until the end. Read
        from :meth:`seen_by` (a game whose totals are hidden, as Pirate Tricks' loon,
        overrides that one; a summary already seen stays as it is)."""
        return list(self.seen_by(summary, seat)["totals"])

    def box_label(self, step: Step, key: str) -> str:
        """One box in words for a phone or the keeper ("Bea's bid", "Round 2 target 1")."""
        name, *index = key.split("-")
        f = next((f for f in self.spec.sheet_fields if f.name == name), None)
        if f is None:
            return key
        owners = self.box_owner(step, key)
        if owners is not None and step.owner == "each":
            return f"{self.names[owners[0]]}: {f.label.lower()}"
        if owners is not None:
            return f"{' & '.join(self.names[s] for s in owners)}: {f.label.lower()}"
        return " ".join([f.label, *(str(int(i) + 1) for i in index)])

    def box_choices(self, step: Step, key: str) -> list[tuple[str, str]] | None:
        """The (value, label) pairs box ``key`` of ``step`` offers on the phones and the
        keeper's panel, when the step narrows its field's choices (Pirate Tricks: a card
        show's winner is one of the tied players); None: the field's own choices."""
        return None

    def seen_by(self, summary: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """:meth:`summary` as ``seat`` may see it on a sheet the players joined (None:
        the keeper, the shared screen, the watch page, the CSV). A hook for a game whose
        totals stay behind each player's screen until the game is over (Pirate Tricks'
        loon: a hidden figure becomes None, in a copy); by default all is public."""
        return summary

    def table_view(
        self, summary: dict[str, Any], boxes: Mapping[str, str], seat: int | None
    ) -> dict[str, Any] | None:
        """The game's own part of a joined sheet's round in progress, as ``seat`` may see
        it (None: the keeper, the shared screen), from the full ``summary`` and the boxes
        of the steps saved; drawn by the game's ``templates/games/<slug>/joined_table.html``
        on the phones, the keeper's panel and the shared screen. A hook (Pirate Tricks:
        the rows auctioned and the phone's own loon); None by default."""
        return None

    def round_intro(self, summary: dict[str, Any]) -> str:
        """What the table needs to know about the next round, in words ("Bea deals, 7 cards
        each"); a hook, "" by default."""
        return ""

    def next_after(self, summary: dict[str, Any], more: int) -> dict[str, Any] | None:
        """The summary's ``next`` for the round ``more`` rounds after the next one, when
        it follows from the number of rounds alone (who deals, how many cards): what a
        phone with rounds waiting to be sent shows for the round it enters next. A hook:
        None (it depends on what the rounds hold) by default."""
        return None

    # -- every fact, for the CSV and the printed sheet -----------------------------------

    def fact_table(self, rows: list, summary: dict[str, Any]) -> dict[str, list]:
        """Every fact of every round in the game's own words: ``columns`` (one title per
        fact, a player's facts titled with the player's name), ``rows`` (per round, one
        cell per column: a number or a short text, "" where a fact does not apply) and
        ``totals`` (a last row, aligned to the columns). ``rows`` are the checked facts and
        ``summary`` their :meth:`summary`.

        This default reads the spec: each field's boxes (per player or side when the field
        repeats so) as :meth:`values_of` gives them, then each side's running total under
        the game's ``score_word``. A game whose figures say more (points per round, a
        ledger) gives its own table."""
        sides = self.side_names()
        columns: list[str] = [self.spec.round_word.capitalize()]
        getters = []
        for f in self.spec.sheet_fields:
            shape = f.shape(self.players, len(sides))
            for index in box_indices(shape):
                who = [
                    self.names[i] if r == "players" else sides[i] if r == "sides" else str(i + 1)
                    for r, i in zip(f.repeat, index, strict=True)
                ]
                columns.append(" ".join([*who, f.label.lower() if who else f.label]))
                getters.append((f, index))
        for side in sides:
            columns.append(f"{side} {self.spec.score_word.lower()}")
        out_rows = []
        running = summary.get("running") or []
        for number, facts in enumerate(rows, start=1):
            values = self.values_of(facts)
            line: list[Any] = [number]
            for f, index in getters:
                value = values.get(f.name)
                for i in index:
                    value = value[i] if isinstance(value, list) and i < len(value) else None
                line.append(self.fact_text(f, value))
            totals = running[number - 1] if number - 1 < len(running) else []
            line += [totals[side[0]] if totals else "" for side in self.sides()]
            out_rows.append(line)
        final: list[Any] = ["Total"] + [""] * len(getters)
        final += [summary["totals"][side[0]] for side in self.sides()]
        return {"columns": columns, "rows": out_rows, "totals": final}

    def fact_text(self, field: Field, value: Any) -> Any:
        """One box's value for the fact table: numbers as they are, a choice by its label,
        a seat or side by its name, a yes/no box in words, "" for an empty box."""
        if value is None:
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if field.kind == "seat" and is_whole(value) and 0 <= value < self.players:
            return self.names[value]
        if field.kind == "side" and is_whole(value) and 0 <= value < len(self.sides()):
            return self.side_names()[value]
        if field.kind == "choice":
            return dict(self.choices(field)).get(str(value), str(value))
        return value

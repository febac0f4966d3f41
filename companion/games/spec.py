"""A game's declared specification: pure data that the generic code reads.

Each game's ``spec.py`` builds one :class:`Spec`. Nothing here imports Flask: the engine,
the score sheet, both modes' forms, the API documentation and the tests all read the same
declaration, so an option or a sheet field is described exactly once.

- :class:`Option` — one setting of a table or a sheet (``kind``, range, default, label,
  help, whether the value is a *house* rule, and in which modes it is asked).
- :class:`Field` — one fact the score sheet asks for each round (a bid per player, the
  challenger of a duel, a count per player per card ...).
- :func:`check_options` — the one option checker both modes use.
- :func:`read_fields` — a submitted form (a mapping of strings) to typed field values,
  refusing what is not a number, out of range or not one of the choices.

Small helpers every game needs are here too, written once: :func:`is_whole`,
:func:`whole_number` and :func:`winners`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction, SheetError

PLAY, SCORE = "play", "score"
BOTH = frozenset({PLAY, SCORE})

OPTION_KINDS = ("bool", "int", "ints", "choice", "seat", "data")
FIELD_KINDS = ("int", "bool", "choice", "seat", "side", "picks")


# -- small shared helpers --------------------------------------------------------------


def is_whole(value: Any) -> bool:
    """A whole number that is not a bool (JSON ``true`` is not the number 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number in ``low..high``, else :class:`IllegalAction`
    saying so about ``what`` ("The target score")."""
    if not is_whole(value):
        raise IllegalAction(f"{what} must be a whole number.")
    if low is not None and high is not None and not low <= value <= high:
        raise IllegalAction(f"{what} must be from {low} to {high}.")
    if low is not None and value < low:
        raise IllegalAction(f"{what} must be at least {low}.")
    if high is not None and value > high:
        raise IllegalAction(f"{what} must be at most {high}.")
    return value


def winners(scores: Sequence[int], lower_wins: bool = False) -> list[int]:
    """The seats (or sides) with the best score; several on a tie."""
    if not scores:
        return []
    best = min(scores) if lower_wins else max(scores)
    return [i for i, score in enumerate(scores) if score == best]


# -- options ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One setting of a table (Play) or a sheet (Score).

    ``kind``:
      ``bool``    yes or no
      ``int``     a whole number in ``low..high``; ``presets`` are offered as quick picks
      ``ints``    a list of whole numbers; ``presets`` (value, label) pairs name common lists
      ``choice``  one of ``choices`` ((value, label) pairs)
      ``seat``    a seat from 0 (a player named in the sheet, e.g. the first dealer)
      ``data``    structured (e.g. a group's own card values); drawn by the game's own
                  template ``games/<slug>/option_<name>.html`` and read by
                  ``Game.option_from_form``
    ``default`` is the value when the option is not given; ``default_for`` (players ->
    value) overrides it where the default depends on the number of players. ``optional``
    options may be left out entirely (``None``). ``check`` (players, value) -> value does
    the game's own validation beyond kind and range (a schedule that fits the deck).
    ``house`` marks a rule the rulebook does not have.
    """

    name: str
    kind: str
    label: str
    default: Any = None
    help: str = ""
    low: int | None = None
    high: int | None = None
    presets: tuple[tuple[Any, str], ...] = ()
    choices: tuple[tuple[Any, str], ...] = ()
    optional: bool = False
    house: bool = False
    modes: frozenset[str] = BOTH
    default_for: Callable[[int], Any] | None = None
    check: Callable[[int, Any], Any] | None = None

    def __post_init__(self):
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")

    def default_value(self, players: int) -> Any:
        if self.default_for is not None:
            return self.default_for(players)
        return self.default

    def validate(self, players: int, value: Any) -> Any:
        """The value checked (and, for ``check``, normalised); raises IllegalAction."""
        if value is None:
            if self.optional:
                return None
            raise IllegalAction(f"{self.label}: a value is needed.")
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise IllegalAction(f"{self.label}: on or off (true or false).")
        elif kind == "int":
            whole_number(value, self.label, self.low, self.high)
        elif kind == "ints":
            if not isinstance(value, list) or not all(is_whole(v) for v in value):
                raise IllegalAction(f"{self.label}: a list of whole numbers.")
            for v in value:
                whole_number(v, self.label, self.low, self.high)
            value = list(value)
        elif kind == "choice":
            allowed = [choice for choice, _ in self.choices]
            if value not in allowed or isinstance(value, bool) != any(
                isinstance(a, bool) for a in allowed if a == value
            ):
                raise IllegalAction(
                    f"{self.label}: one of {', '.join(label for _, label in self.choices)}."
                )
        elif kind == "seat":
            whole_number(value, self.label, 0, players - 1)
        if self.check is not None:
            value = self.check(players, value)
        return value


@dataclass(frozen=True)
class Field:
    """One fact a score sheet asks for in a round.

    ``repeat`` says how many boxes: ``()`` one for the round; ``("players",)`` one per
    player; ``("sides",)`` one per side; whole numbers for fixed counts, e.g. ``(5, 2)``
    for two targets in each of five rounds, ``(4, "players")`` for four counts per player.
    ``kind``: ``int`` (``low..high``), ``bool``, ``choice`` (values from the sheet's
    :meth:`~companion.games.base.Sheet.choices`), ``seat`` (a player) or ``side``.
    ``optional`` boxes may stay empty (``None``). ``stage`` ``"choose"`` fields are asked
    first, on a page of their own, because the other boxes depend on them.
    """

    name: str
    kind: str
    label: str
    repeat: tuple[str | int, ...] = ()
    low: int | None = None
    high: int | None = None
    optional: bool = False
    help: str = ""
    stage: str = "enter"
    default: Any = None
    anchor: str = ""  # the rules-page section that governs this box (one of spec.anchors)

    def __post_init__(self):
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name}: unknown kind {self.kind!r}")

    def shape(self, players: int, sides: int) -> tuple[int, ...]:
        counts = {"players": players, "sides": sides}
        return tuple(counts[r] if isinstance(r, str) else r for r in self.repeat)


OWNERS = ("table", "each", "side", "keeper")


@dataclass(frozen=True)
class Step:
    """One step of entering a round, in the order the table plays it (bids, then tricks).

    ``boxes`` names what the step asks for: sheet field names (``"bids"``, every box of
    the field) or one part of a repeated field (``"target-0"``: the boxes of round 1 of
    ``target``). ``label`` says it in words after "enter the" ("bids", "round 1 targets").
    Each step is saved as it is entered; the round is added when its last step is.

    On a sheet the players have joined with their phones (issue 28, "Every phone at the
    table"), each box of the step is entered by its owner:

    ``owner``
      ``"table"``  (default) any joined phone or the keeper;
      ``"each"``   the player the box belongs to: its index along its field's
                   ``"players"`` axis (``bids-2`` is the third player's); the keeper may
                   enter it for them;
      ``"side"``   a player of the side the box belongs to: its index along its field's
                   ``"sides"`` axis; a game whose boxes name their side otherwise (a
                   slot's taker) says so with :meth:`Sheet.box_owner`;
      ``"keeper"`` the keeper only.
    ``sealed``
      the step is played hidden or simultaneously (Shoot!'s bids): each entry stays on
      the server, unseen by every phone but its owner's (not the keeper's, the watch
      page's, a stream's, an error's or the CSV's), until every box is in; then all are
      revealed at once, and no entry of the step changes again (undo stops there).
    ``call``
      the words the shared screen calls, one after another, before a sealed step is
      revealed (Shoot!: "Ready?", "SHOOT!"); none: the values simply appear.
    ``seats``
      only these players' boxes are asked (None: every player's). A game whose steps
      depend on the facts entered (an auction that only the remaining players bid in)
      builds such steps in :meth:`Sheet.open_step`.
    """

    name: str
    label: str
    boxes: tuple[str, ...]
    sealed: bool = False
    owner: str = "table"
    seats: tuple[int, ...] | None = None
    call: tuple[str, ...] = ()

    def __post_init__(self):
        if self.owner not in OWNERS:
            raise ValueError(f"step {self.name}: unknown owner {self.owner!r}")
        if self.sealed and self.owner not in ("each", "side"):
            raise ValueError(f"step {self.name}: a sealed step's boxes need owners (each, side)")

    def takes(self, key: str) -> bool:
        """Whether the form box ``key`` (``bids-2``, ``target-0-1``) belongs to this step."""
        return any(key == box or key.startswith(box + "-") for box in self.boxes)

    def field_names(self) -> set[str]:
        return {box.split("-", 1)[0] for box in self.boxes}


@dataclass(frozen=True)
class Spec:
    """Everything generic code needs to know about one game, as data."""

    slug: str
    name: str
    tagline: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    sheet_fields: tuple[Field, ...] = ()
    sheet_steps: tuple[Step, ...] = ()  # a round entered step by step (see Step)
    round_word: str = "round"  # "deal", "duel", "hand": in headings and messages
    teams: str = ""  # how teams form, in words ("" when there are none)
    lower_wins: bool = False
    score_word: str = "Score"  # the column title of ``scores`` ("Shots taken")
    suit: tuple[str, str] = ("spades", "♠")  # the emblem on the home page: (css, symbol)
    anchors: tuple[str, ...] = ()  # the rules page's stable section anchors, in order
    # Each Play decision (an action's ``type``) and the anchor of the rule that governs it.
    action_anchors: Mapping[str, str] = field(default_factory=dict)
    modes: frozenset[str] = BOTH
    order: int = 100  # where the app lists it (lower first)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def options_for(self, mode: str) -> tuple[Option, ...]:
        return tuple(o for o in self.options if mode in o.modes)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def players_text(self) -> str:
        if self.min_players == self.max_players:
            return f"{self.min_players} players"
        return f"{self.min_players}–{self.max_players} players"

    def check_players(self, players: int) -> None:
        if not is_whole(players):
            raise IllegalAction("The number of players must be a whole number.")
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise IllegalAction(f"{self.name} is for exactly {self.min_players} players.")
            raise IllegalAction(
                f"{self.name} is for {self.min_players} to {self.max_players} players."
            )


def check_options(
    spec: Spec,
    players: int,
    options: Mapping[str, Any] | None,
    mode: str,
    *,
    together: Callable[[int, dict[str, Any]], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``options`` checked against the spec for ``mode`` with defaults filled in.

    Unknown names are refused; each option is checked by kind, range and its own
    ``check``; ``together`` (players, options) -> options checks what concerns several
    options at once. Idempotent: checking the result again gives the same result.
    """
    if options is not None and not isinstance(options, Mapping):
        raise IllegalAction("Options must be an object.")
    given = dict(options or {})
    known = spec.options_for(mode)
    unknown = sorted(set(given) - {o.name for o in known}, key=str)
    if unknown:
        raise IllegalAction(f"{spec.name} has no option {', '.join(map(str, unknown))}.")
    checked = {}
    for option in known:
        value = given.get(option.name, option.default_value(players))
        checked[option.name] = option.validate(players, value)
    if together is not None:
        checked = together(players, checked)
    return checked


# -- score-sheet fields from a submitted form -------------------------------------------


def field_key(name: str, *index: int) -> str:
    """The form key of one box: ``bids-2``, ``target-1-0`` (WTForms' FieldList naming)."""
    return "-".join([name, *map(str, index)])


def box_indices(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every index of a field's boxes, in order: ``(2, 2)`` -> (0, 0), (0, 1), (1, 0) …"""
    out: list[tuple[int, ...]] = [()]
    for size in shape:
        out = [(*prefix, i) for prefix in out for i in range(size)]
    return out


def _nest(shape: tuple[int, ...], values: dict[tuple[int, ...], Any]) -> Any:
    def build(prefix: tuple[int, ...], depth: int) -> Any:
        if depth == len(shape):
            return values[prefix]
        return [build((*prefix, i), depth + 1) for i in range(shape[depth])]

    return build((), 0)


def read_fields(
    fields: Sequence[Field],
    form: Mapping[str, str],
    players: int,
    sides: int,
    choices: Callable[[Field], Sequence[tuple[str, str]]],
    *,
    stage: str | None = None,
) -> dict[str, Any]:
    """Typed values of the declared ``fields`` from a submitted ``form``.

    Numbers and choices are checked here (a box with no number, out of range, or a choice
    that is not offered raises :class:`SheetError` with ``field`` set to the box's key);
    the rules of the game are the sheet's to check. A repeated field gives nested lists
    in the order of its ``repeat``. A ``bool`` box left out of the form is false.
    """
    values: dict[str, Any] = {}
    for f in fields:
        if stage is not None and f.stage != stage:
            continue
        shape = f.shape(players, sides)
        read: dict[tuple[int, ...], Any] = {}
        offered = None
        for index in box_indices(shape):
            key = field_key(f.name, *index)
            raw = form.get(key)
            text = "" if raw is None else str(raw).strip()
            if f.kind == "bool":
                read[index] = text not in ("", "0", "false", "n", "no", "off")
                continue
            if text == "":
                if f.optional:
                    read[index] = None
                    continue
                raise SheetError(f"{f.label}: enter a value.", field=key)
            if f.kind == "int":
                try:
                    number = int(text)
                except ValueError:
                    raise SheetError(f"{f.label}: enter a whole number.", field=key) from None
                if (f.low is not None and number < f.low) or (
                    f.high is not None and number > f.high
                ):
                    raise SheetError(
                        f"{f.label}: enter a number from {f.low} to {f.high}.", field=key
                    )
                read[index] = number
            elif f.kind == "picks":
                if offered is None:
                    offered = {str(value) for value, _ in choices(f)}
                read[index] = _picks(f, key, text, offered, choices)
            elif f.kind in ("seat", "side"):
                count = players if f.kind == "seat" else sides
                if not text.isdigit() or not 0 <= int(text) < count:
                    raise SheetError(f"{f.label}: choose one of those listed.", field=key)
                read[index] = int(text)
            else:
                if offered is None:
                    offered = {str(value) for value, _ in choices(f)}
                if text not in offered:
                    raise SheetError(f"{f.label}: choose one of those listed.", field=key)
                read[index] = text
        values[f.name] = _nest(shape, read)
    return values


def _picks(f: Field, key: str, text: str, offered: set[str], choices) -> str:
    """A ``picks`` box: some of the offered choices, written with spaces or commas between
    them; read as one text, in the order they are offered (None-free, no repeats, at most
    ``high``)."""
    picked = [part for part in text.replace(",", " ").split() if part]
    unknown = [part for part in picked if part not in offered]
    if unknown:
        raise SheetError(f"{f.label}: {unknown[0]} is not one of those listed.", field=key)
    if len(set(picked)) != len(picked):
        raise SheetError(f"{f.label}: each one once.", field=key)
    if f.high is not None and len(picked) > f.high:
        raise SheetError(f"{f.label}: {f.high} at most.", field=key)
    order = [str(value) for value, _ in choices(f)]
    return " ".join(sorted(picked, key=order.index))


def form_values(fields: Sequence[Field], values: Mapping[str, Any]) -> dict[str, str]:
    """The inverse of :func:`read_fields`: box key -> text, for filling a form again."""
    out: dict[str, str] = {}

    def walk(name: str, value: Any, index: tuple[int, ...]) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                walk(name, item, (*index, i))
        elif value is None or value is False:
            return
        elif value is True:
            out[field_key(name, *index)] = "y"
        else:
            out[field_key(name, *index)] = str(value)

    for f in fields:
        if f.name in values:
            walk(f.name, values[f.name], ())
    return out

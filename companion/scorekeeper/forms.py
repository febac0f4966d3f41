"""Score-mode forms (Flask-WTF, CSRF on every POST), built from the game's spec.

The new-sheet form asks the players' names and one field per ``spec.options_for("score")``
option, drawn by its kind (:func:`option_field`); the same builders serve the new-table
form of engine mode. The round form has one WTForms field per ``spec.sheet_fields`` field,
nested in fixed-size lists per ``repeat`` (``form["bids"][2]`` is the box ``bids-2``).
The boxes are read by the game's ``Sheet.read`` only, so typing, range and rule errors all
come back as one :class:`~companion.games.SheetError` naming the box it concerns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import NumberInput

from ..games import Game
from ..games.base import Sheet
from ..games.spec import SCORE, Field, Option, field_key, form_values
from ..names import BadName, clean_name

NUMBER = "Enter a whole number."
OTHER = "other"


class SeatList(FieldList):
    """One entry per seat (or any fixed count), always numbered 0 to n-1 (``max_entries``).

    A plain FieldList numbers its entries by the indices found in the post, so a box the
    browser leaves out (an unticked checkbox) would shift the later values onto the wrong
    players; here each value stays with its own index.
    """

    def _extract_indices(self, prefix, formdata):
        return iter(range(self.max_entries))


class WholeNumberField(IntegerField):
    """An integer field with a message a player understands when the box holds no number."""

    def process_formdata(self, valuelist):
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(NUMBER) from None


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def parse_ints(text: str) -> list[int]:
    try:
        return [int(part) for part in str(text).replace(" ", ",").split(",") if part]
    except ValueError:
        raise ValidationError("Write whole numbers separated by commas.") from None


class VersionedForm(FlaskForm):
    """Every change carries where it applies and what the page showed (stale check)."""

    position = HiddenField()
    version = HiddenField()


class ConfirmForm(VersionedForm):
    """Delete a round or remove a broken one: nothing but the CSRF token and the version."""


class ChangeForm(FlaskForm):
    """Undo or redo: the number of the change the button named (stale check)."""

    change = HiddenField()


class OpenForm(FlaskForm):
    class Meta:
        csrf = False  # a GET form that only looks a sheet up

    code = StringField("Sheet code", validators=[InputRequired(), Length(max=32)])


# -- option fields, from the spec (both modes) ---------------------------------------------


def _ints_text(value: Any) -> str:
    return ", ".join(str(v) for v in value or [])


def option_field(option: Option, players: int, mode: str) -> dict[str, Any]:
    """The WTForms fields of one option: ``opt_<name>`` (and ``opt_<name>_other`` for the
    free box beside quick picks). ``data`` options have none (the game's partial)."""
    name, label, kind = f"opt_{option.name}", option.label, option.kind
    default = option.default_value(players)
    desc = option.help
    fields: dict[str, Any] = {}
    if kind == "bool":
        # A default that depends on the number of players can't be ticked in advance:
        # it is then asked as in Play ("the rules' default" first), as the names decide.
        if mode == SCORE and option.default_for is None:
            fields[name] = BooleanField(label, default=bool(default), description=desc)
        else:
            fields[name] = SelectField(
                label,
                choices=[
                    SelectChoice("", "The rules' default"),
                    SelectChoice("yes", "Yes"),
                    SelectChoice("no", "No"),
                ],
                default="",
                description=desc,
            )
    elif kind == "int":
        box = {"min": option.low, "max": option.high}
        box = {k: v for k, v in box.items() if v is not None}
        rng = [NumberRange(option.low, option.high)] if option.low is not None else []
        if option.presets:
            choices = [SelectChoice(str(v), text) for v, text in option.presets]
            choices.append(SelectChoice(OTHER, "another"))
            preset = str(default) if any(v == default for v, _ in option.presets) else OTHER
            fields[name] = RadioField(label, choices=choices, default=preset, description=desc)
            fields[f"{name}_other"] = WholeNumberField(
                f"{label}: another",
                validators=[Optional(), *rng],
                default=None if preset != OTHER else default,
                widget=NumberInput(**box),
            )
        else:
            # Play: blank keeps the rules' default (which may depend on the players).
            shown = default if mode == SCORE else None
            hint = f"Leave blank for {default}." if mode != SCORE and default is not None else ""
            fields[name] = WholeNumberField(
                label,
                validators=[Optional(), *rng],
                default=shown,
                description=desc or hint,
                widget=NumberInput(**box),
                render_kw={
                    "inputmode": "numeric",
                    "placeholder": "" if default is None else str(default),
                },
            )
    elif kind == "ints":
        if option.presets:
            choices = [SelectChoice(str(i), text) for i, (_, text) in enumerate(option.presets)]
            choices.append(SelectChoice(OTHER, "another list"))
            picked = next((str(i) for i, (v, _) in enumerate(option.presets) if v == default), None)
            fields[name] = RadioField(
                label, choices=choices, default=picked or OTHER, description=desc
            )
            fields[f"{name}_other"] = StringField(
                f"{label}: whole numbers separated by commas",
                validators=[Optional()],
                default="" if picked else _ints_text(default),
            )
        else:
            shown = _ints_text(default)
            fields[name] = StringField(
                label,
                validators=[Optional()],
                description=desc or f"Whole numbers separated by commas; leave blank for {shown}.",
                render_kw={"placeholder": shown},
            )
    elif kind == "choice":
        choices = [SelectChoice(str(i), text) for i, (_, text) in enumerate(option.choices)]
        picked = next((str(i) for i, (v, _) in enumerate(option.choices) if v == default), None)
        fields[name] = RadioField(label, choices=choices, default=picked, description=desc)
    elif kind == "seat":
        fields[name] = SelectField(
            label,
            choices=[
                SelectChoice(str(s), f"the {ordinal(s + 1)} player listed") for s in range(players)
            ],
            default=str(default or 0),
            description=desc,
        )
    return fields


def option_value(option: Option, form: FlaskForm, game: Game, formdata: Mapping) -> Any:
    """The value one option's fields hold; :data:`None` (left out) keeps the default."""
    name, kind = f"opt_{option.name}", option.kind
    if kind == "data":
        return game.option_from_form(option.name, formdata)
    data = form[name].data
    if kind == "bool":
        if isinstance(data, bool):
            return data
        return None if data in (None, "") else data == "yes"
    if kind == "int":
        if option.presets:
            if data == OTHER:
                other = form[f"{name}_other"].data
                if other is None:
                    raise ValidationError(f"{option.label}: enter the number.")
                return other
            return None if data in (None, "") else int(data)
        return data
    if kind == "ints":
        if option.presets:
            if data == OTHER:
                text = form[f"{name}_other"].data or ""
                if not text.strip():
                    raise ValidationError(f"{option.label}: write the numbers.")
                return parse_ints(text)
            if data in (None, ""):
                return None
            return list(option.presets[int(data)][0])
        return parse_ints(data) if data and str(data).strip() else None
    if kind == "choice":
        if data in (None, ""):
            return None
        return option.choices[int(data)][0]
    if kind == "seat":
        return None if data in (None, "") else int(data)
    return None  # pragma: no cover


def option_fields(form: FlaskForm) -> list[tuple[Option, list[Any]]]:
    """Each option with its bound fields (none for a ``data`` option), in spec order."""
    out = []
    for option in form.spec_options:  # type: ignore[attr-defined]
        name = f"opt_{option.name}"
        fields = [form[key] for key in (name, f"{name}_other") if key in form]
        out.append((option, fields))
    return out


def chosen_options(form: FlaskForm, game: Game, formdata: Mapping) -> dict[str, Any]:
    """The options set on the form (those left blank are left out: the default holds).
    Raises :class:`ValidationError` for a quick pick of "another" with nothing in it."""
    options: dict[str, Any] = {}
    for option in form.spec_options:  # type: ignore[attr-defined]
        value = option_value(option, form, game, formdata)
        if value is not None:
            options[option.name] = value
    return options


# -- new sheet ----------------------------------------------------------------------------


class NewSheetForm(FlaskForm):
    """Player names plus the game's score-mode options (see :func:`new_sheet_form`)."""

    min_players = 2

    def validate_players(self, field):
        try:
            names = self.names()
        except BadName as error:
            raise ValidationError(str(error)) from None
        if len(names) < self.min_players:
            raise ValidationError(f"Enter at least {self.min_players} player names.")
        seen = set()
        for name in names:
            if name.casefold() in seen:
                raise ValidationError(f"Two players are called {name}: give each a different name.")
            seen.add(name.casefold())

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if ok:
            for option, fields in option_fields(self):
                if option.kind == "seat" and int(fields[0].data) >= len(self.names()):
                    fields[0].errors = [f"{option.label}: choose one of the players listed."]
                    ok = False
        return ok

    def names(self) -> list[str]:
        """The names filled in, each cleaned as in Play mode (blank boxes left out);
        raises :class:`BadName` for one that cannot be used."""
        return [clean_name(e.data) for e in self.players.entries if str(e.data or "").strip()]


def new_sheet_form(game: Game, **kwargs) -> NewSheetForm:
    """The new-sheet form of a game: as many name boxes as it allows players, then its
    score-mode options."""
    spec = game.spec
    options = spec.options_for(SCORE)
    attrs: dict[str, Any] = {
        "min_players": spec.min_players,
        "spec_options": options,
        "players": SeatList(
            StringField("Name", validators=[Length(max=200)]),
            min_entries=spec.max_players,
            max_entries=spec.max_players,
        ),
    }
    for option in options:
        attrs.update(option_field(option, spec.max_players, SCORE))
    cls = type("NewSheetFormBound", (NewSheetForm,), attrs)
    return cls(**kwargs)


# -- one round ----------------------------------------------------------------------------


class RoundForm(VersionedForm):
    """A round's boxes, one WTForms field per box; read by the sheet (:meth:`Sheet.read`)."""

    boxes: dict[str, Any]
    hidden_names: set[str]

    def carried(self) -> list[tuple[str, str]]:
        """The hidden boxes' (name, value) pairs: the first step's choices."""
        out = []
        for key, box in self.boxes.items():
            if key.split("-", 1)[0] in self.hidden_names:
                if box.type == "BooleanField":
                    value = "y" if box.data else ""
                else:
                    value = "" if box.data is None else str(box.data)
                out.append((key, value))
        return out

    def shown(self) -> list[Field]:
        """The spec fields this form shows as boxes."""
        return [f for f in self.fields_spec if f.name not in self.hidden_names]

    def place_error(self, error) -> bool:
        """Put a sheet error next to the box it names (its ``field`` key, or the field
        name with its ``player``); False if it names none on this form."""
        field, player = getattr(error, "field", None), getattr(error, "player", None)
        box = None
        if field is not None:
            box = self.boxes.get(field)
            if box is None and player is not None:
                box = self.boxes.get(field_key(field, player))
        if box is None or box.name.split("-", 1)[0] in self.hidden_names:
            return False
        box.errors = [*box.errors, error.message]
        return True


def _box(f: Field, sheet: Sheet, names: list[str], sides: list[str]):
    """One WTForms box of a sheet field (unvalidated: the sheet reads and checks it)."""
    box = {"min": f.low, "max": f.high}
    box = {k: v for k, v in box.items() if v is not None}
    if f.kind == "int":
        return StringField(f.label, widget=NumberInput(**box), render_kw={"inputmode": "numeric"})
    if f.kind == "bool":
        return BooleanField(f.label)
    if f.kind == "picks":  # some of the choices, in one text (the game's form draws them)
        return StringField(f.label)
    if f.kind == "seat":
        choices = [SelectChoice(str(s), name) for s, name in enumerate(names)]
    elif f.kind == "side":
        choices = [SelectChoice(str(s), name) for s, name in enumerate(sides)]
    else:
        choices = [SelectChoice(str(v), text) for v, text in sheet.choices(f)]
    if f.optional or len(choices) > 5:
        choices = [SelectChoice("", "—"), *choices]
        return SelectField(f.label, choices=choices, default="", validate_choice=False)
    return RadioField(f.label, choices=choices, validate_choice=False)


def _nested(box, shape: tuple[int, ...]):
    field = box
    for size in reversed(shape):
        field = SeatList(field, min_entries=size, max_entries=size)
    return field


def stage_fields(spec, stage: str | None) -> list[Field]:
    return [f for f in spec.sheet_fields if stage is None or f.stage == stage]


def round_form(
    sheet: Sheet,
    stage: str | None = None,
    values: Mapping[str, Any] | None = None,
    hidden: bool = False,
    **kwargs,
) -> RoundForm:
    """The round form of ``sheet`` for ``stage`` (all fields when None), with the boxes
    filled from typed ``values`` when given (editing, or the next round's defaults).
    ``hidden``: the "choose" boxes travel as hidden inputs (the second step), so an error
    about one of them goes to the top of the form."""
    spec = sheet.spec
    names = list(sheet.names)
    sides = sheet.side_names()
    attrs: dict[str, Any] = {}
    fields = stage_fields(spec, stage)
    for f in fields:
        shape = f.shape(sheet.players, len(sides))
        attrs[f.name] = _nested(_box(f, sheet, names, sides), shape)
    cls = type("RoundFormBound", (RoundForm,), attrs)
    if values is not None and "formdata" not in kwargs:
        data = MultiDict(form_values(fields, values))
        for key in ("position", "version"):
            data.pop(key, None)
        kwargs["formdata"] = data
    form = cls(**kwargs)
    form.fields_spec = fields  # type: ignore[attr-defined]
    form.boxes = {}
    form.hidden_names = {f.name for f in fields if hidden and f.stage == "choose"}

    def walk(name: str, field: Any, index: tuple[int, ...]) -> None:
        if isinstance(field, FieldList):
            for i, entry in enumerate(field.entries):
                walk(name, entry, (*index, i))
        else:
            form.boxes[field_key(name, *index)] = field

    for f in fields:
        walk(f.name, form[f.name], ())
    return form

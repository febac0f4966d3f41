"""The HTML form that starts a table: the number of players and the game's own options.

The option fields are built from the game's defaults (``check_options`` with nothing
given): a yes/no option becomes a choice with "the rules' default" first, a number a
number box and a list of numbers a text box; a blank field keeps the default, so
defaults that depend on the number of players (PULL! teams) stay right. The engine checks
the result and its message is shown on the form.

PULL! also gets the fields its score sheet has (one module for both,
:mod:`companion.pull_form`): how the game ends (200, 400, another score or a fixed number
of hands) instead of a bare ``goal`` box, and the table of target values, whose changes
become the ``targets`` option.
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, StringField, ValidationError
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional

from ..games.base import Game
from ..pull_form import PullEndFields, add_target_fields, pull_options

DEFAULT = ""

LABELS = {  # friendlier words for the option names (else the name itself)
    "chips": "Play for chips",
    "schedule": "Hand sizes, deal by deal",
    "shots_to_lose": "Shots that lose the game",
    "rounds": "Rounds",
    "teams": "Play in two teams (4 players, partners sit across)",
    "max_hands": "Safety stop: end after at most this many hands",
}

# Options a game's own fields set (see table_form), so no generic box is made for them.
OWN_FIELDS = {"pull": {"goal", "hands", "targets"}}


def label_of(key: str) -> str:
    return LABELS.get(key) or key.replace("_", " ").capitalize()


def option_fields(game: Game) -> dict[str, str]:
    """Option name -> kind ("bool", "int" or "ints") for the options a form can set."""
    defaults = game.check_options(game.min_players, {})
    kinds: dict[str, str] = {}
    for key, value in defaults.items():
        if key in OWN_FIELDS.get(game.slug, ()):
            continue
        if isinstance(value, bool):
            kinds[key] = "bool"
        elif isinstance(value, int):
            kinds[key] = "int"
        elif isinstance(value, list) and value and all(type(v) is int for v in value):
            kinds[key] = "ints"
    return kinds


def parse_ints(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", ",").split(",") if part]
    except ValueError:
        raise ValidationError("Write whole numbers separated by commas.") from None


def table_form(game: Game, formdata: Any = None) -> FlaskForm:
    """A form instance for ``game``: ``players`` plus one ``opt_<name>`` per option."""
    kinds = option_fields(game)
    defaults = game.check_options(game.min_players, {})

    bases: tuple[type, ...] = (PullEndFields, FlaskForm) if game.slug == "pull" else (FlaskForm,)

    class TableForm(*bases):  # type: ignore[misc]
        players = SelectField(
            "Number of players",
            choices=[
                SelectChoice(n, str(n)) for n in range(game.min_players, game.max_players + 1)
            ],
            coerce=int,
            validators=[InputRequired()],
        )

    for key, kind in kinds.items():
        label = label_of(key)
        if kind == "bool":
            field = SelectField(
                label,
                choices=[
                    SelectChoice(DEFAULT, "The rules' default"),
                    SelectChoice("yes", "Yes"),
                    SelectChoice("no", "No"),
                ],
                default=DEFAULT,
            )
        elif kind == "int":
            field = IntegerField(
                label,
                validators=[Optional()],
                description=f"Leave blank for {defaults[key]}.",
                render_kw={"inputmode": "numeric", "placeholder": str(defaults[key])},
            )
        else:
            shown = ", ".join(str(v) for v in defaults[key])
            field = StringField(
                label,
                validators=[Optional()],
                description=f"Whole numbers separated by commas; leave blank for {shown}.",
                render_kw={"placeholder": shown},
            )
        setattr(TableForm, f"opt_{key}", field)

    if game.slug == "pull":
        add_target_fields(TableForm)
    form = TableForm(formdata=formdata) if formdata is not None else TableForm()
    form.option_kinds = kinds  # type: ignore[attr-defined]
    form.game_slug = game.slug  # type: ignore[attr-defined]
    return form


def chosen_options(form: FlaskForm) -> dict[str, Any]:
    """The options the host set (blank fields left out, so the engine's default holds)."""
    options: dict[str, Any] = {}
    for key, kind in form.option_kinds.items():  # type: ignore[attr-defined]
        data = getattr(form, f"opt_{key}").data
        if data in (None, DEFAULT):
            continue
        if kind == "bool":
            options[key] = data == "yes"
        elif kind == "int":
            options[key] = data
        else:
            options[key] = parse_ints(data)
    if form.game_slug == "pull":  # type: ignore[attr-defined]
        options.update(pull_options(form))
    return options


def option_field_list(form: FlaskForm) -> list[Any]:
    return [getattr(form, f"opt_{key}") for key in form.option_kinds]  # type: ignore[attr-defined]

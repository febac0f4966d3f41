"""The HTML form that starts a table: the number of players and the game's own options.

The option fields come from the game's spec (``spec.options_for("play")``), drawn by kind
with the same builders as the new-sheet form (:mod:`companion.scorekeeper.forms`): a
yes/no option becomes a choice with "the rules' default" first, a number a number box (or
quick picks and "another"), a list of numbers a comma-separated box, a choice radio
buttons, and a ``data`` option the game's own partial read by ``Game.option_from_form``.
A blank field keeps the default, so defaults that depend on the number of players stay
right. The engine checks the result and its message is shown on the form.
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from ..games.base import Game
from ..games.spec import PLAY
from ..scorekeeper.forms import chosen_options, option_field, option_fields

__all__ = ["chosen_options", "option_fields", "table_form"]


def table_form(game: Game, formdata: Any = None) -> FlaskForm:
    """A form instance for ``game``: ``players`` plus the fields of each play option."""
    spec = game.spec
    options = spec.options_for(PLAY)
    attrs: dict[str, Any] = {
        "spec_options": options,
        "players": SelectField(
            "Number of players",
            choices=[
                SelectChoice(n, str(n)) for n in range(spec.min_players, spec.max_players + 1)
            ],
            coerce=int,
            validators=[InputRequired()],
        ),
    }
    for option in options:
        attrs.update(option_field(option, spec.max_players, PLAY))
    cls = type("TableForm", (FlaskForm,), attrs)
    return cls(formdata=formdata) if formdata is not None else cls()

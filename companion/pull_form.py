"""PULL!'s option fields, shared by score mode (a new sheet) and engine mode (a new table).

Both ask the same two things, so both use this one module and the partials
``templates/_pull_end.html`` and ``templates/_pull_targets.html``:

- how the game ends: :class:`PullEndFields` (200, 400, another score or a fixed number of
  hands) and :func:`end_options`, which turns the choice into ``goal`` or ``hands``;
- the target values: :func:`add_target_fields` adds a double-value box and an animal
  box per target to a form class, filled with the values in force (seed or house), and
  :func:`target_overrides` reads back only what the group changed, in the shape the
  ``targets`` option takes (``{"trap-T2": {"double": 9}}``);
- :func:`pull_options` gives both at once, ready to merge into a form's options.

The rules (ranges, which values may change) stay in :mod:`companion.games.pull.rules`;
the ranges here only give a friendlier message next to the box.
"""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, IntegerField, RadioField, SelectChoice
from wtforms.validators import NumberRange, Optional, StopValidation

from .games.pull.engine import GAME as PULL

NUMBER = "Enter a whole number."
DOUBLE_RANGE = (-1000, 1000)  # as rules.check_target_overrides allows
GOAL_RANGE = (1, 10_000)  # as rules.check_options allows
HANDS_RANGE = (1, 1000)


class WholeNumberField(IntegerField):
    """An integer field with a message a player understands when the box holds no number."""

    def process_formdata(self, valuelist):
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(NUMBER) from None


def pull_targets(overrides: dict | None = None) -> list[dict[str, Any]]:
    """The 24 PULL! targets for forms and tables: the engine's card rows plus a form id
    and a label."""
    return [
        {"id": row["card"], "label": f"{row['symbol']} {row['suit_name']} {row['left']}", **row}
        for row in PULL.card_rows(overrides)
    ]


class PullEndFields:
    """How the game ends; mix in before the form class (``class F(PullEndFields, Form)``)."""

    goal = RadioField(
        "The game ends",
        choices=[
            SelectChoice("200", "at 200 points"),
            SelectChoice("400", "at 400 points"),
            SelectChoice("custom", "at another score"),
            SelectChoice("hands", "after a number of hands"),
        ],
        default="200",
    )
    custom_goal = WholeNumberField(
        "Target score", validators=[Optional(), NumberRange(*GOAL_RANGE)], default=None
    )
    hands = WholeNumberField("Number of hands", validators=[Optional(), NumberRange(*HANDS_RANGE)])

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)  # type: ignore[misc]
        # Checked here, not inline: Optional() stops a field's own validators when empty.
        if self.goal.data == "custom" and self.custom_goal.data is None:
            if not self.custom_goal.errors:
                self.custom_goal.errors = ["Enter the target score."]
            ok = False
        if self.goal.data == "hands" and self.hands.data is None:
            if not self.hands.errors:
                self.hands.errors = ["Enter the number of hands."]
            ok = False
        return ok


def end_options(form: Any) -> dict[str, int]:
    """``{"goal": n}`` or ``{"hands": n}`` from a validated :class:`PullEndFields` form."""
    if form.goal.data == "hands":
        return {"hands": form.hands.data}
    if form.goal.data == "custom":
        return {"goal": form.custom_goal.data}
    return {"goal": int(form.goal.data)}


def _double_box(form: Any, field: Any) -> None:
    """A double-value box: left out of the post entirely, the deck's value stays (a post
    without the table, e.g. from a script); sent empty, the player is asked for a number."""
    if field.process_errors:  # not a number: already said
        raise StopValidation()
    if not field.raw_data:
        raise StopValidation()
    if not str(field.raw_data[0]).strip():
        raise StopValidation(NUMBER)


def _table_sent(form: Any) -> bool:
    return any(form[f"double_{t['id']}"].raw_data for t in pull_targets())


def add_target_fields(cls: type) -> None:
    """Give a form class ``double_<id>`` and ``animal_<id>`` for every target."""
    for target in pull_targets():
        setattr(
            cls,
            f"double_{target['id']}",
            WholeNumberField(
                f"{target['label']}: double value",
                default=target["double"],
                validators=[
                    _double_box,
                    NumberRange(
                        *DOUBLE_RANGE,
                        message="A double value must be between -1000 and 1000.",
                    ),
                ],
            ),
        )
        setattr(
            cls,
            f"animal_{target['id']}",
            BooleanField(f"{target['label']} is an animal", default=target["animal"]),
        )


def target_overrides(form: Any) -> dict[str, dict]:
    """The values the group changed (those equal to the deck's stay out); nothing when the
    post did not carry the table at all (an unticked box is then no answer)."""
    overrides: dict[str, dict] = {}
    if not _table_sent(form):
        return overrides
    for target in pull_targets():
        change: dict[str, Any] = {}
        double = form[f"double_{target['id']}"].data
        if double is not None and double != target["double"]:
            change["double"] = double
        animal = bool(form[f"animal_{target['id']}"].data)
        if animal != target["animal"]:
            change["animal"] = animal
        if change:
            overrides[target["id"]] = change
    return overrides


def pull_options(form: Any) -> dict[str, Any]:
    """Everything both forms ask about PULL!: :func:`end_options` plus, when the group
    changed any target value, ``targets`` (:func:`target_overrides`)."""
    options: dict[str, Any] = dict(end_options(form))
    overrides = target_overrides(form)
    if overrides:
        options["targets"] = overrides
    return options

"""The round forms as a page shows them: the whole round (in two steps, "choose" then
"enter", when the spec has a "choose" stage), one step of a round entered step by step,
and a refused entry's message placed next to the box it concerns.

Built from the game's :class:`~companion.games.Sheet` with :func:`forms.round_form`; the
boxes are read by the sheet itself (:meth:`Sheet.read`), in the use cases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import MultiDict

from ..games import IllegalAction
from ..games.base import Sheet
from ..games.spec import form_values
from .forms import RoundForm, round_form
from .rounds import CHOOSE, ENTER, fingerprint, has_choose, next_defaults, pending_version

STEP_PREFIX = "step"  # a step form's boxes, so the whole-round form can sit on the page


def choose_keys_in(keeper: Sheet, args: Mapping) -> bool:
    """Whether ``args`` carries the "choose" step's boxes (the first step was sent)."""
    names = {f.name for f in keeper.spec.sheet_fields if f.stage == CHOOSE}
    return any(key.split("-", 1)[0] in names for key in args)


def refuse(form: RoundForm, error: IllegalAction) -> None:
    """Show a sheet error next to the box it concerns, else at the top of the form."""
    if not form.place_error(error):
        form.form_errors.append(error.message)


def entry_form(keeper: Sheet, args, values: dict[str, Any] | None) -> tuple[RoundForm, str]:
    """The round form for a GET page: the "choose" step when the spec has one and it
    was not sent yet (or ``?choose=1`` asks to change it), else the whole round form.
    Returns (form, step)."""
    if has_choose(keeper):
        if args.get("choose") or not choose_keys_in(keeper, args):
            if choose_keys_in(keeper, args):  # "Change the first step": keep what was chosen
                return round_form(keeper, CHOOSE, formdata=args), CHOOSE
            return round_form(keeper, CHOOSE, values=values or {}), CHOOSE
        form = round_form(keeper, formdata=_merged(keeper, args, values), hidden=True)
        try:
            keeper.read_values(args, stage=CHOOSE)
        except IllegalAction as error:
            form = round_form(keeper, CHOOSE, formdata=args)
            refuse(form, error)
            return form, CHOOSE
        return form, ENTER
    return round_form(keeper, values=values or {}), ENTER


def _merged(keeper: Sheet, args, values: dict[str, Any] | None) -> MultiDict:
    """Typed ``values`` as form boxes, with the "choose" boxes taken from ``args``."""
    data = MultiDict(form_values(keeper.spec.sheet_fields, values or {}))
    choose = {f.name for f in keeper.spec.sheet_fields if f.stage == CHOOSE}
    for key in list(data.keys()):
        if key.split("-", 1)[0] in choose:
            data.pop(key)
    for key, value in args.items(multi=True):
        if key.split("-", 1)[0] in choose:
            data.add(key, value)
    return data


def next_round_form(keeper: Sheet, summary: dict[str, Any], args, rows: int):
    """The form to enter the next round with, from the page's address (``args``) and the
    summary's defaults. Returns (form, step)."""
    form, step = entry_form(keeper, args, next_defaults(summary))
    form.position.data = str(rows)
    return form, step


def stamp(form, index: int, facts: Any) -> None:
    """Mark a form as made for round ``index`` holding ``facts`` (the use case checks the
    mark against the sheet as it is when the form comes back)."""
    form.position.data, form.version.data = str(index), fingerprint(index, facts)


def round_edit_form(keeper: Sheet, args, index: int, facts: Any):
    """The form to correct a stored round (the "choose" step first when ``args`` asks
    for it). Returns (form, step)."""
    if has_choose(keeper) and (args.get("choose") or choose_keys_in(keeper, args)):
        form, step = entry_form(keeper, args, keeper.values_of(facts))
    else:
        form, step = current_round_form(keeper, facts), ENTER
    stamp(form, index, facts)
    return form, step


def current_round_form(keeper: Sheet, facts: Any) -> RoundForm:
    """The whole-round form filled with a stored round's facts."""
    return round_form(keeper, values=keeper.values_of(facts), hidden=has_choose(keeper))


# -- a round entered step by step (spec.sheet_steps) ---------------------------------------


def step_defaults(keeper: Sheet, step, summary: dict[str, Any]) -> dict[str, str]:
    """Boxes prefilled for a step not entered yet: the summary's next-round defaults,
    else the lowest value of a whole-number box that must be filled (0 bids, 0 tricks),
    so the steppers start from it."""
    defaults = form_values(keeper.spec.sheet_fields, next_defaults(summary))
    out = {key: value for key, value in defaults.items() if step.takes(key)}
    players, sides = keeper.players, len(keeper.sides())
    for f in keeper.spec.sheet_fields:
        if f.kind != "int" or f.optional or f.low is None or f.name not in step.field_names():
            continue
        shape = f.shape(players, sides)
        keys = [f.name]
        for size in shape:
            keys = [f"{key}-{i}" for key in keys for i in range(size)]
        for key in keys:
            if step.takes(key):
                out.setdefault(key, str(f.default if f.default is not None else f.low))
    return out


def step_form(keeper: Sheet, step, pending: dict[str, Any], summary: dict[str, Any]) -> RoundForm:
    """The form of ``step``: every field of the round (a game's step template may read
    the boxes of the steps before), filled from the round in progress."""
    boxes = {**step_defaults(keeper, step, summary), **pending["boxes"]}
    form = sent_step_form(keeper, MultiDict({f"{STEP_PREFIX}-{k}": v for k, v in boxes.items()}))
    form.position.data = str(pending["position"])
    form.version.data = pending_version(pending)
    return form


def sent_step_form(keeper: Sheet, formdata: Mapping) -> RoundForm:
    """A step's form as it was sent (``formdata``)."""
    return round_form(keeper, formdata=formdata, prefix=STEP_PREFIX)


def step_boxes_sent(formdata: Mapping[str, str]) -> dict[str, str]:
    """A step form's boxes as sent, their prefix taken off."""
    start = STEP_PREFIX + "-"
    return {key[len(start) :]: value for key, value in formdata.items() if key.startswith(start)}


def refuse_step(form: RoundForm, step, error: IllegalAction) -> None:
    """A step's error next to its box when the box is on this step, else at the top."""
    field, player = getattr(error, "field", None), getattr(error, "player", None)
    key = field if field is None or player is None or field in form.boxes else f"{field}-{player}"
    if key is not None and step.takes(key) and form.place_error(error):
        return
    form.form_errors.append(error.message)

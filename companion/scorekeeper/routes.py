"""Score mode pages: choose a game, start a sheet, enter, correct and remove rounds.

Generic: every page is driven by the game's spec and its :class:`~companion.games.Sheet`
(``game.sheet(names, options)``). The database keeps only the facts of each round
(``ScoreEntry.facts``); every figure on a page comes from ``Sheet.summary``. A change is
checked on the whole list of rows first and stored only when the sheet accepts it, so a
refused entry stores nothing.

A game may draw parts of the pages itself with ``templates/games/<slug>/sheet_*.html``;
without them the pages draw the same parts from the spec and the summary's common block.

Stale forms: the add form carries the position it fills; edit, delete and undo forms carry
the position and a fingerprint of the round as the page showed it. If another phone
changed the sheet meanwhile, the change is refused (409) and the page shows the sheet as
it is now.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.datastructures import MultiDict
from wtforms import ValidationError

from .. import codes
from ..extensions import db
from ..games import GAMES, Game, IllegalAction
from ..games.base import Sheet
from ..games.spec import form_values
from ..models import ScoreEntry, ScoreSheet, utcnow
from .forms import (
    ConfirmForm,
    OpenForm,
    chosen_options,
    new_sheet_form,
    option_fields,
    round_form,
)

bp = Blueprint("scorekeeper", __name__, url_prefix="/score")

RECENT = 20
CHOOSE, ENTER = "choose", "enter"


def score_slugs() -> list[str]:
    return [slug for slug, game in GAMES.items() if game.sheet_class is not None]


@bp.app_template_global("score_games")
def score_games() -> list[str]:
    """Slugs of the games whose score mode works (only these are linked anywhere)."""
    return score_slugs()


# -- helpers ------------------------------------------------------------------------------


def fingerprint(position: int, facts: Any) -> str:
    """A short digest of one stored round: changes whenever the round does."""
    data = json.dumps([position, facts], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:20]


def remember(code: str) -> None:
    """Keep ``code`` in this browser's list of recent sheets (newest first).

    The list lives in the signed session cookie, so a phone sees the sheets it made or
    opened, never the other groups' sheets on the same server.
    """
    codes_ = [c for c in session.get("sheets", []) if c != code]
    session["sheets"] = [code, *codes_][:RECENT]


def new_code() -> str:
    return codes.new_code(
        lambda code: (
            db.session.scalar(select(ScoreSheet.id).where(ScoreSheet.code == code)) is not None
        )
    )


def game_of(slug: str) -> Game:
    game = GAMES.get(slug)
    if game is None or game.sheet_class is None:
        abort(404)
    return game


def load(code: str, lock: bool = False) -> ScoreSheet:
    query = select(ScoreSheet).where(ScoreSheet.code == code.upper())
    if lock:
        query = query.with_for_update()
    sheet = db.session.scalar(query)
    if sheet is None or sheet.game not in score_slugs():
        abort(404)
    return sheet


def rows_of(sheet: ScoreSheet) -> list[Any]:
    return [entry.facts for entry in sheet.entries]


def store(sheet: ScoreSheet, rows: list[Any]) -> None:
    """Make the stored entries equal ``rows`` (already accepted by the sheet)."""
    entries = list(sheet.entries)
    for position, facts in enumerate(rows):
        if position < len(entries):
            if entries[position].facts != facts:
                entries[position].facts = facts
        else:
            sheet.entries.append(ScoreEntry(position=position, facts=facts))
    for entry in entries[len(rows) :]:
        sheet.entries.remove(entry)
    sheet.updated_at = utcnow()
    db.session.commit()


def int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def keeper_of(sheet: ScoreSheet) -> Sheet:
    return GAMES[sheet.game].sheet(sheet.players, sheet.options)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "—" if value is None else str(value)


def round_cells(keeper: Sheet, rows: list[Any], summary: dict[str, Any]) -> list[dict]:
    """For the generic table: per round, per player, the facts entered for that player
    (fields repeated per player) and, when the summary gives them, points and total."""
    fields = keeper.spec.sheet_fields
    out = []
    for index, facts in enumerate(rows):
        values = keeper.values_of(facts)
        info = summary["rows"][index] if index < len(summary.get("rows") or []) else {}
        info = info if isinstance(info, dict) else {}
        shared = [
            f"{f.label} {_text(values.get(f.name))}"
            for f in fields
            if not f.repeat and f.name in values
        ]
        cells = []
        for seat in range(keeper.players):
            parts = [
                f"{f.label.lower()} {_text(values[f.name][seat])}"
                for f in fields
                if f.repeat[:1] == ("players",) and f.name in values and len(f.repeat) == 1
            ]
            points = info.get("points")
            totals = info.get("totals")
            cells.append(
                {
                    "facts": ", ".join(parts),
                    "points": points[seat] if isinstance(points, list) else None,
                    "total": totals[seat] if isinstance(totals, list) else None,
                }
            )
        out.append({"number": index + 1, "meta": " · ".join(shared), "cells": cells})
    return out


def context(sheet: ScoreSheet) -> dict[str, Any]:
    game = GAMES[sheet.game]
    keeper = keeper_of(sheet)
    rows = rows_of(sheet)
    summary = keeper.summary(rows)
    word = game.spec.round_word
    return {
        "sheet": sheet,
        "game": game,
        "spec": game.spec,
        "keeper": keeper,
        "names": sheet.players,
        "rows": rows,
        "summary": summary,
        "cells": round_cells(keeper, rows, summary),
        "versions": [fingerprint(i, facts) for i, facts in enumerate(rows)],
        "over": summary["over"],
        "word": word,
        "Word": word.capitalize(),
        "has_choose": has_choose(keeper),
    }


def has_choose(keeper: Sheet) -> bool:
    return any(f.stage == CHOOSE for f in keeper.spec.sheet_fields)


def choose_keys_in(keeper: Sheet, args) -> bool:
    """Whether ``args`` carries the "choose" step's boxes (the first step was sent)."""
    names = {f.name for f in keeper.spec.sheet_fields if f.stage == CHOOSE}
    return any(key.split("-", 1)[0] in names for key in args)


def next_defaults(summary: dict[str, Any]) -> dict[str, Any]:
    nxt = summary.get("next")
    return dict(nxt.get("defaults") or {}) if isinstance(nxt, dict) else {}


def refuse(form, error: IllegalAction) -> None:
    """Show a sheet error next to the box it concerns, else at the top of the form."""
    if not form.place_error(error):
        form.form_errors.append(error.message)


def entry_form(keeper: Sheet, args, values: dict[str, Any] | None):
    """The round form for a GET page: the "choose" step when the spec has one and it
    was not sent yet (or ``?choose=1`` asks to change it), else the whole round form.
    Returns (form, step)."""
    if has_choose(keeper):
        if args.get("choose") or not choose_keys_in(keeper, args):
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


# -- pages --------------------------------------------------------------------------------


@bp.get("")
def index():
    form = OpenForm(request.args)
    if request.args.get("code") is not None:
        code = codes.normalise(request.args.get("code") or "")
        if form.validate() and code:
            found = db.session.scalar(select(ScoreSheet).where(ScoreSheet.code == code))
            if found is not None and found.game in score_slugs():
                return redirect(url_for(".sheet", code=found.code))
        form.code.errors = ["There is no score sheet with that code."]
    mine = [str(code) for code in session.get("sheets", [])][:RECENT]
    recent = db.session.scalars(
        select(ScoreSheet)
        .where(ScoreSheet.game.in_(score_slugs()), ScoreSheet.code.in_(mine))
        .order_by(ScoreSheet.updated_at.desc(), ScoreSheet.id.desc())
    ).all()
    status = 404 if form.code.errors else 200
    games = [GAMES[slug] for slug in score_slugs()]
    return render_template("scorekeeper/index.html", games=games, recent=recent, form=form), status


@bp.route("/new/<game>", methods=["GET", "POST"])
def new(game: str):
    chosen = game_of(game)
    form = new_sheet_form(chosen)
    status = 200
    if form.validate_on_submit():
        names = form.names()
        try:
            keeper = chosen.sheet(names, chosen_options(form, chosen, request.form))
            keeper.summary([])
        except ValidationError as error:
            form.form_errors.append(str(error))
        except IllegalAction as error:
            form.form_errors.append(error.message)
        else:
            sheet = ScoreSheet(
                code=new_code(), game=chosen.slug, players=names, options=keeper.options
            )
            db.session.add(sheet)
            db.session.commit()
            remember(sheet.code)
            return redirect(url_for(".sheet", code=sheet.code))
    if request.method == "POST":
        status = 422
    return render_template(
        "scorekeeper/new.html",
        game=chosen,
        spec=chosen.spec,
        form=form,
        option_rows=option_fields(form),
        mode="score",
    ), status


@bp.get("/<code>")
def sheet(code: str):
    sheet = load(code)
    remember(sheet.code)
    ctx = context(sheet)
    form, step = entry_form(ctx["keeper"], request.args, next_defaults(ctx["summary"]))
    form.position.data = str(len(ctx["rows"]))
    return sheet_page(sheet, ctx, form, step, wanted=request.args.get("step"))


@bp.post("/<code>/rounds")
def add_round(code: str):
    sheet = load(code, lock=True)
    ctx = context(sheet)
    rows, keeper, word = ctx["rows"], ctx["keeper"], ctx["word"]
    form = round_form(keeper, hidden=ctx["has_choose"])
    status = 422
    if form.validate_on_submit():
        if int_or_none(form.position.data) != len(rows):
            form.form_errors.append(
                f"The sheet changed on another phone: it now has {len(rows)} "
                f"{word}s. Check it, then enter this {word} again."
            )
            status = 409
        else:
            try:
                new_rows = keeper.add(rows, keeper.read(request.form))
            except IllegalAction as error:
                refuse(form, error)
            else:
                return round_added(sheet, ctx, new_rows)
    form.position.data = str(len(rows))
    return sheet_page(sheet, ctx, form, ENTER, whole_open=True), status


def round_added(sheet: ScoreSheet, ctx: dict[str, Any], new_rows: list[Any]):
    """Store ``new_rows`` (one round more, accepted by the sheet) and go back to the
    totals; 409 when another phone added a round at the same moment."""
    try:
        store(sheet, new_rows)
    except IntegrityError:
        db.session.rollback()
        abort(409, "Another phone added a round at the same moment. Reload the sheet.")
    flash(f"{ctx['Word']} {len(new_rows)} added.")
    return redirect(url_for(".sheet", code=sheet.code) + "#totals")


def _round(rows: list[Any], number: int) -> tuple[int, Any]:
    if not 1 <= number <= len(rows):
        abort(404)
    return number - 1, rows[number - 1]


def changed_since_shown(form, index: int, facts: Any) -> bool:
    """Whether the round the form was made for is no longer at ``index`` as it was."""
    return int_or_none(form.position.data) != index or form.version.data != fingerprint(
        index, facts
    )


@bp.route("/<code>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(code: str, number: int):
    sheet = load(code, lock=request.method == "POST")
    ctx = context(sheet)
    keeper = ctx["keeper"]
    index, facts = _round(ctx["rows"], number)
    status = 200
    step = ENTER
    if request.method == "POST":
        form = round_form(keeper, hidden=ctx["has_choose"])
        status = 422
        if form.validate_on_submit():
            if changed_since_shown(form, index, facts):
                form = round_form(keeper, values=keeper.values_of(facts), hidden=ctx["has_choose"])
                form.form_errors.append(
                    f"{ctx['Word']} {number} was changed on another phone since you opened it. "
                    "Here it is as it is now: check it and make your correction again."
                )
                status = 409
            else:
                try:
                    new_rows = keeper.replace(ctx["rows"], index, keeper.read(request.form))
                except IllegalAction as error:
                    refuse(form, error)
                else:
                    store(sheet, new_rows)
                    flash(f"{ctx['Word']} {number} corrected.")
                    return redirect(url_for(".sheet", code=sheet.code) + f"#round-{number}")
    elif ctx["has_choose"] and (request.args.get("choose") or choose_keys_in(keeper, request.args)):
        form, step = entry_form(keeper, request.args, keeper.values_of(facts))
    else:
        form = round_form(keeper, values=keeper.values_of(facts), hidden=ctx["has_choose"])
    form.position.data = str(index)
    form.version.data = fingerprint(index, facts)
    return render_template(
        "scorekeeper/edit.html", form=form, step=step, number=number, row=facts, **ctx
    ), status


@bp.route("/<code>/rounds/<int:number>/delete", methods=["GET", "POST"])
def delete_round(code: str, number: int):
    sheet = load(code, lock=request.method == "POST")
    ctx = context(sheet)
    index, facts = _round(ctx["rows"], number)
    form = ConfirmForm()
    error = None
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            if changed_since_shown(form, index, facts):
                error = (
                    f"{ctx['Word']} {number} was changed on another phone since you opened it. "
                    "Check it below before deleting it."
                )
                status = 409
            else:
                try:
                    new_rows = ctx["keeper"].delete(ctx["rows"], index)
                except IllegalAction as refused:
                    error = f"This {ctx['word']} can't be deleted: {refused.message}"
                else:
                    store(sheet, new_rows)
                    flash(f"{ctx['Word']} {number} deleted.")
                    return redirect(url_for(".sheet", code=sheet.code))
    form.position.data = str(index)
    form.version.data = fingerprint(index, facts)
    return render_template(
        "scorekeeper/delete.html", form=form, number=number, row=facts, error=error, **ctx
    ), status


@bp.post("/<code>/undo")
def undo(code: str):
    sheet = load(code, lock=True)
    game = GAMES[sheet.game]
    rows = rows_of(sheet)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    word = game.spec.round_word
    index = len(rows) - 1
    if not rows:
        flash(f"There is no {word} to undo.", "error")
    elif changed_since_shown(form, index, rows[index]):
        flash(
            f"The sheet changed on another phone, so nothing was undone. "
            f"Check the last {word} and undo again if needed.",
            "error",
        )
        return redirect(url_for(".sheet", code=sheet.code)), 303
    else:
        try:
            new_rows = keeper_of(sheet).delete(rows, index)
        except IllegalAction as error:  # pragma: no cover - removing the last row always fits
            flash(error.message, "error")
        else:
            store(sheet, new_rows)
            flash(f"{word.capitalize()} {index + 1} removed.")
    return redirect(url_for(".sheet", code=sheet.code))


# -- a round entered step by step (spec.sheet_steps) ---------------------------------------
#
# The round in progress lives in ``ScoreSheet.pending`` (see the model), apart from the
# complete rounds, so every stored row keeps its shape. Each step is a form of its own
# (boxes prefixed ``step-`` so the whole-round form can sit on the same page), saved as it
# is entered; the last step adds the round. A step already saved can be entered again to
# correct it. The form carries the position and a fingerprint of the round in progress:
# a change made meanwhile on another phone is refused (409) and the page shows it.

STEP_PREFIX = "step"


def pending_of(sheet: ScoreSheet, rows: list[Any]) -> dict[str, Any]:
    """The round in progress (``position``, ``done`` step names, ``boxes``); an empty one
    when none is stored or the stored one is not for the next round any more."""
    stored = sheet.pending
    if isinstance(stored, dict) and stored.get("position") == len(rows):
        return {
            "position": len(rows),
            "done": [str(name) for name in stored.get("done") or []],
            "boxes": {str(k): str(v) for k, v in (stored.get("boxes") or {}).items()},
        }
    return {"position": len(rows), "done": [], "boxes": {}}


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


def step_form(keeper: Sheet, step, pending: dict[str, Any], summary: dict[str, Any], formdata=None):
    """The form of ``step``: every field of the round (a game's step template may read
    the boxes of the steps before), filled from the round in progress."""
    if formdata is None:
        boxes = {**step_defaults(keeper, step, summary), **pending["boxes"]}
        formdata = MultiDict({f"{STEP_PREFIX}-{k}": v for k, v in boxes.items()})
        form = round_form(keeper, formdata=formdata, prefix=STEP_PREFIX)
        form.position.data = str(pending["position"])
        form.version.data = pending_version(pending)
        return form
    return round_form(keeper, formdata=formdata, prefix=STEP_PREFIX)


def pending_version(pending: dict[str, Any]) -> str:
    return fingerprint(pending["position"], [pending["done"], pending["boxes"]])


def step_lines(keeper: Sheet, pending: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps saved so far, each with what was entered, in words, for the page."""
    labels = {f.name: f.label for f in keeper.spec.sheet_fields}
    choices = {
        f.name: dict(keeper.choices(f)) for f in keeper.spec.sheet_fields if f.kind == "choice"
    }
    kinds = {f.name: f.kind for f in keeper.spec.sheet_fields}
    sides = keeper.side_names()
    out = []
    for step in keeper.spec.sheet_steps:
        if step.name not in pending["done"]:
            continue
        parts = []
        for key, text in pending["boxes"].items():
            if not step.takes(key) or text in ("", None):
                continue
            name, *index = key.split("-")
            value = choices.get(name, {}).get(text, text)
            if kinds.get(name) == "side" and text.isdigit() and int(text) < len(sides):
                value = sides[int(text)]
            if kinds.get(name) == "seat" and text.isdigit() and int(text) < keeper.players:
                value = keeper.names[int(text)]
            if kinds.get(name) == "bool":
                value = "yes"
            who = ""
            field = next((f for f in keeper.spec.sheet_fields if f.name == name), None)
            if field is not None and field.repeat[-1:] == ("players",) and index:
                who = keeper.names[int(index[-1])] + " "
            parts.append(f"{who}{value}" if who else f"{labels.get(name, name)} {value}")
        out.append({"step": step, "text": " · ".join(parts) or "—"})
    return out


def step_context(ctx: dict[str, Any], sheet: ScoreSheet, wanted: str | None, form=None):
    """What the sheet page needs for the round in progress: the step to enter (the next
    one, or ``wanted`` when it is a saved step to correct), its form and the steps saved."""
    keeper = ctx["keeper"]
    if not keeper.spec.sheet_steps or ctx["over"]:
        return {"steps": None}
    pending = pending_of(sheet, ctx["rows"])
    step = keeper.next_step(pending["done"])
    if wanted in pending["done"]:
        step = keeper.step_named(wanted)
    if form is None:
        form = step_form(keeper, step, pending, ctx["summary"])
    number = len(ctx["rows"]) + 1
    intro = keeper.round_intro(ctx["summary"])
    prompt = f"{ctx['Word']} {number}: enter the {step.label}"
    return {
        "steps": {
            "step": step,
            "form": form,
            "pending": pending,
            "saved": step_lines(keeper, pending),
            "last": keeper.next_step([*pending["done"], step.name]) is None,
            "prompt": prompt + (f" — {intro}" if intro else ""),
            "number": number,
        }
    }


def sheet_page(sheet: ScoreSheet, ctx, form, step: str, wanted=None, entry=None, **extra):
    """The sheet page: the whole-round ``form`` at ``step`` and, for a game entered in
    steps, the step ``wanted`` (or the next one) with its form ``entry`` when given."""
    return render_template(
        "scorekeeper/sheet.html",
        form=form,
        step=step,
        undo=ConfirmForm(),
        **extra,
        **ctx,
        **step_context(ctx, sheet, wanted, entry),
    )


def refuse_step(form, step, error: IllegalAction) -> None:
    """A step's error next to its box when the box is on this step, else at the top."""
    field, player = getattr(error, "field", None), getattr(error, "player", None)
    key = field if field is None or player is None or field in form.boxes else f"{field}-{player}"
    if key is not None and step.takes(key) and form.place_error(error):
        return
    form.form_errors.append(error.message)


@bp.post("/<code>/steps/<name>")
def save_step(code: str, name: str):
    """Save one step of the round in progress; the last step adds the round."""
    sheet = load(code, lock=True)
    ctx = context(sheet)
    keeper, rows = ctx["keeper"], ctx["rows"]
    step = keeper.step_named(name)
    if step is None:
        abort(404)
    if ctx["over"]:
        abort(409, f"This game is over: there is no {ctx['word']} left to enter.")
    pending = pending_of(sheet, rows)
    form = step_form(keeper, step, pending, ctx["summary"], formdata=request.form)
    status = 422
    if form.validate_on_submit():
        if int_or_none(form.position.data) != len(rows) or form.version.data != pending_version(
            pending
        ):
            form = step_form(keeper, step, pending, ctx["summary"])
            form.form_errors.append(
                f"The sheet changed on another phone: here is {ctx['word']} {len(rows) + 1} "
                "as it is now. Check it, then enter this step again."
            )
            status = 409
        else:
            sent = {
                key[len(STEP_PREFIX) + 1 :]: value
                for key, value in request.form.items()
                if key.startswith(STEP_PREFIX + "-")
            }
            boxes = {k: v for k, v in pending["boxes"].items() if not step.takes(k)}
            boxes.update(keeper.step_boxes(step, sent))
            done = pending["done"] if name in pending["done"] else [*pending["done"], name]
            finished = keeper.next_step(done) is None
            try:
                keeper.check_step(rows, boxes, done)
                new_rows = keeper.add(rows, keeper.read(boxes)) if finished else None
            except IllegalAction as error:
                refuse_step(form, step, error)
            else:
                number = len(rows) + 1
                if new_rows is not None:
                    sheet.pending = None
                    return round_added(sheet, ctx, new_rows)
                sheet.pending = {"position": len(rows), "done": done, "boxes": boxes}
                sheet.updated_at = utcnow()
                db.session.commit()
                flash(f"{ctx['Word']} {number}: {step.label} saved.")
                return redirect(url_for(".sheet", code=sheet.code) + "#entry-heading")
    whole, whole_step = entry_form(keeper, MultiDict(), next_defaults(ctx["summary"]))
    whole.position.data = str(len(rows))
    return sheet_page(sheet, ctx, whole, whole_step, wanted=name, entry=form), status


@bp.post("/<code>/steps")
def discard_steps(code: str):
    """Throw away the round in progress (its steps saved so far)."""
    sheet = load(code, lock=True)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    if sheet.pending is not None:
        sheet.pending = None
        sheet.updated_at = utcnow()
        db.session.commit()
        flash(f"The {GAMES[sheet.game].spec.round_word} in progress was cleared.")
    return redirect(url_for(".sheet", code=sheet.code) + "#entry-heading")

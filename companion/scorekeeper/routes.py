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

Every write runs in one transaction that holds the sheet's lock (``database.locked``:
``FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so the stale checks hold
until the commit; the rows are checked to replay (``keeper.check``) right before it. Each
change is logged (``ScoreChange``) with its name in words, so the last change can be
undone and an undone one redone. A stored sheet that fails to replay anyway (older data)
shows the repair page, which names the offending round and offers to remove it.
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
from sqlalchemy.exc import IntegrityError, OperationalError
from werkzeug.datastructures import MultiDict
from wtforms import ValidationError

from .. import codes
from ..database import locked
from ..extensions import db
from ..games import GAMES, Game, IllegalAction
from ..games.base import Sheet
from ..games.spec import form_values
from ..models import ScoreChange, ScoreEntry, ScoreSheet, utcnow
from .forms import (
    ChangeForm,
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
    """The sheet; with ``lock``, in a fresh write transaction holding its lock (the
    request's commit or its end releases it)."""
    query = select(ScoreSheet).where(ScoreSheet.code == code.upper())
    if lock:
        try:
            sheet = locked(query)
        except OperationalError:
            db.session.rollback()
            abort(503, "The sheet is busy; try again in a moment.")
    else:
        sheet = db.session.scalar(query)
    if sheet is None or sheet.game not in score_slugs():
        abort(404)
    return sheet


def rows_of(sheet: ScoreSheet) -> list[Any]:
    return [entry.facts for entry in sheet.entries]


def store(sheet: ScoreSheet, rows: list[Any]) -> None:
    """Make the stored entries equal ``rows`` and commit."""
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


def commit_change(
    sheet: ScoreSheet,
    keeper: Sheet | None,
    rows: list[Any],
    kind: str,
    position: int,
    before: Any,
    after: Any,
    label: str,
) -> None:
    """Store ``rows`` with the change that made them logged; a new change clears the
    undone ones (nothing left to redo). With a ``keeper``, the rows are checked to replay
    first (:class:`IllegalAction` if not: nothing is written). Only the repair passes
    None: removing an offending round must be possible even when the rest still fails."""
    if keeper is not None:
        rows = keeper.check(rows)
    for change in [c for c in sheet.changes if c.undone]:
        sheet.changes.remove(change)
    # Numbered after every change ever logged, so a cleared number is never reused.
    seq = db.session.scalar(
        select(db.func.coalesce(db.func.max(ScoreChange.seq), 0)).where(
            ScoreChange.sheet_id == sheet.id
        )
    )
    sheet.changes.append(
        ScoreChange(
            seq=seq + 1,
            kind=kind,
            position=position,
            before=before,
            after=after,
            label=label,
            undone=False,
        )
    )
    store(sheet, rows)


def last_done(sheet: ScoreSheet) -> ScoreChange | None:
    """The change an undo reverts: the newest one not undone."""
    done = [c for c in sheet.changes if not c.undone]
    return done[-1] if done else None


def first_undone(sheet: ScoreSheet) -> ScoreChange | None:
    """The change a redo applies again: the oldest undone one (undone newest first)."""
    undone = [c for c in sheet.changes if c.undone]
    return undone[0] if undone else None


def apply(keeper: Sheet, rows: list[Any], position: int, old: Any, new: Any) -> list[Any]:
    """Rows with round ``position`` turned from ``old`` into ``new`` (None: no round), for
    undo (after -> before) and redo (before -> after); refused when the sheet does not hold
    ``old`` there, or when the result does not replay."""
    holds = (
        old is None
        and position <= len(rows)
        or (old is not None and position < len(rows) and rows[position] == old)
    )
    if not holds:
        raise IllegalAction("The sheet no longer holds that change.")
    if old is None:
        return keeper.check([*rows[:position], new, *rows[position:]])
    if new is None:
        return keeper.delete(rows, position)
    return keeper.replace(rows, position, new)


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


class BrokenSheet(Exception):
    """The stored rows do not replay: ``index`` (from 0) is the first offending round."""

    def __init__(self, sheet: ScoreSheet, index: int, message: str):
        super().__init__(message)
        self.sheet, self.index, self.message = sheet, index, message


# What a sheet's checks may raise on malformed older data, besides its own refusals.
REPLAY_ERRORS = (ValueError, LookupError, TypeError, AttributeError)


def replay(sheet: ScoreSheet, keeper: Sheet, rows: list[Any]) -> None:
    """Raise :class:`BrokenSheet` naming the first round that does not replay."""
    try:
        keeper.check(rows)
        return
    except REPLAY_ERRORS as error:
        whole = error
    for index in range(len(rows)):
        try:
            keeper.check(rows[: index + 1])
        except REPLAY_ERRORS as error:
            raise BrokenSheet(sheet, index, message_of(error)) from None
    raise BrokenSheet(sheet, max(len(rows) - 1, 0), message_of(whole))  # pragma: no cover


def message_of(error: Exception) -> str:
    if isinstance(error, IllegalAction):
        return error.message
    return "Its facts cannot be read."


def context(sheet: ScoreSheet) -> dict[str, Any]:
    game = GAMES[sheet.game]
    keeper = keeper_of(sheet)
    rows = rows_of(sheet)
    replay(sheet, keeper, rows)
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
        "last_change": last_done(sheet),
        "redo_change": first_undone(sheet),
        "change_form": ChangeForm(),
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
    return sheet_page(sheet)


def sheet_page(sheet: ScoreSheet, status: int = 200):
    ctx = context(sheet)
    form, step = entry_form(ctx["keeper"], request.args, next_defaults(ctx["summary"]))
    form.position.data = str(len(ctx["rows"]))
    return render_template("scorekeeper/sheet.html", form=form, step=step, **ctx), status


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
                number = len(new_rows)
                commit_change(
                    sheet, keeper, new_rows, "add", number - 1, None, new_rows[-1],
                    f"{word} {number} added",
                )  # fmt: skip
            except IllegalAction as error:
                refuse(form, error)
            except IntegrityError:
                db.session.rollback()
                abort(409, "Another phone added a round at the same moment. Reload the sheet.")
            else:
                flash(f"{ctx['Word']} {number} added.")
                return redirect(url_for(".sheet", code=sheet.code) + "#totals")
    form.position.data = str(len(rows))
    return render_template("scorekeeper/sheet.html", form=form, step=ENTER, **ctx), status


def _round(rows: list[Any], number: int) -> tuple[int, Any]:
    if not 1 <= number <= len(rows):
        if request.method == "POST":
            abort(409, f"That round is no longer on the sheet: it has {len(rows)} now.")
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
    keeper, word = ctx["keeper"], ctx["word"]
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
                    if new_rows[index] != facts:
                        commit_change(
                            sheet, keeper, new_rows, "edit", index, facts, new_rows[index],
                            f"{word} {number} corrected",
                        )  # fmt: skip
                except IllegalAction as error:
                    refuse(form, error)
                else:
                    done = "corrected" if new_rows[index] != facts else "unchanged"
                    flash(f"{ctx['Word']} {number} {done}.")
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
                keeper = ctx["keeper"]
                try:
                    new_rows = keeper.delete(ctx["rows"], index)
                    commit_change(
                        sheet, keeper, new_rows, "delete", index, facts, None,
                        f"{ctx['word']} {number} deleted",
                    )  # fmt: skip
                except IllegalAction as refused:
                    error = f"This {ctx['word']} can't be deleted: {refused.message}"
                else:
                    flash(f"{ctx['Word']} {number} deleted.")
                    return redirect(url_for(".sheet", code=sheet.code))
    form.position.data = str(index)
    form.version.data = fingerprint(index, facts)
    return render_template(
        "scorekeeper/delete.html", form=form, number=number, row=facts, error=error, **ctx
    ), status


def _undo_or_redo(code: str, redo: bool):
    """Undo the last change, or redo the last undone one: the form names the change it
    showed, so a sheet changed meanwhile is answered 409 and nothing moves."""
    sheet = load(code, lock=True)
    ctx = context(sheet)
    form = ChangeForm()
    if not form.validate_on_submit():
        abort(400)
    verb = "redone" if redo else "undone"
    change = first_undone(sheet) if redo else last_done(sheet)
    if change is None or int_or_none(form.change.data) != change.seq:
        flash(
            f"The sheet changed on another phone, so nothing was {verb}. "
            "Check it and try again if needed.",
            "error",
        )
        return sheet_page(sheet, 409)
    old, new = (change.before, change.after) if redo else (change.after, change.before)
    try:
        new_rows = apply(ctx["keeper"], ctx["rows"], change.position, old, new)
    except IllegalAction as error:
        flash(f"“{change.label}” can't be {verb}: {error.message}", "error")
        return sheet_page(sheet, 409)
    change.undone = not redo
    store(sheet, new_rows)
    flash(f"{verb.capitalize()}: {change.label}.")
    return redirect(url_for(".sheet", code=sheet.code) + "#totals")


@bp.post("/<code>/undo")
def undo(code: str):
    return _undo_or_redo(code, redo=False)


@bp.post("/<code>/redo")
def redo(code: str):
    return _undo_or_redo(code, redo=True)


# -- repair -------------------------------------------------------------------------------


@bp.errorhandler(BrokenSheet)
def broken(error: BrokenSheet):
    """A stored sheet that does not replay (older data): the repair page, never a 500."""
    sheet = error.sheet
    keeper = keeper_of(sheet)
    rows = rows_of(sheet)
    form = ConfirmForm()
    form.position.data = str(error.index)
    form.version.data = fingerprint(error.index, rows[error.index]) if rows else ""
    spec = GAMES[sheet.game].spec
    return render_template(
        "scorekeeper/repair.html",
        sheet=sheet,
        spec=spec,
        names=sheet.players,
        keeper=keeper,
        number=error.index + 1,
        message=error.message,
        facts=keeper_values(keeper, rows[error.index]) if rows else [],
        word=spec.round_word,
        Word=spec.round_word.capitalize(),
        form=form,
    ), (200 if request.method == "GET" else 409)


def keeper_values(keeper: Sheet, facts: Any) -> list[str]:
    """The stored facts of a round, in words as far as they can be read."""
    try:
        values = keeper.values_of(facts)
    except REPLAY_ERRORS:
        values = facts if isinstance(facts, dict) else {"facts": facts}
    labels = {f.name: f.label for f in keeper.spec.sheet_fields}
    return [f"{labels.get(name, name)}: {_text_of(value)}" for name, value in values.items()]


def _text_of(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_text_of(v) for v in value)
    return _text(value)


@bp.post("/<code>/repair")
def repair(code: str):
    """Remove the round the repair page named (checked by position and fingerprint). The
    rest is stored as it is, even if it still does not replay: the page then names the
    next offending round, so each removal is progress."""
    sheet = load(code, lock=True)
    keeper = keeper_of(sheet)
    rows = rows_of(sheet)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        replay(sheet, keeper, rows)
    except BrokenSheet as error:
        if changed_since_shown(form, error.index, rows[error.index]):
            flash("The sheet changed on another phone, so nothing was removed.", "error")
            raise
        word, number = keeper.spec.round_word, error.index + 1
        rest = [*rows[: error.index], *rows[error.index + 1 :]]
        commit_change(
            sheet, None, rest, "delete", error.index, rows[error.index], None,
            f"{word} {number} removed",
        )  # fmt: skip
        flash(f"{word.capitalize()} {number} removed.")
    else:
        flash("This sheet needs no repair.")
    return redirect(url_for(".sheet", code=sheet.code))

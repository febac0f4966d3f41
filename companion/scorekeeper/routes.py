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
import secrets
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
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

from .. import codes, live, streams
from ..database import locked
from ..extensions import db
from ..games import GAMES, Game, IllegalAction
from ..games.base import Sheet
from ..games.spec import form_values
from ..models import ScoreChange, ScoreEntry, ScoreSheet, utcnow
from ..network import base_url, qr_svg
from . import retries
from .forms import (
    ChangeForm,
    ConfirmForm,
    OpenForm,
    chosen_options,
    new_sheet_form,
    option_fields,
    round_form,
)
from .show import chart

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


def new_watch_code() -> str:
    """The share link's code: long and random, so it cannot be guessed from the sheet's."""
    return secrets.token_urlsafe(12)


def watch_code_of(sheet: ScoreSheet) -> str:
    """The sheet's watch code, made (and stored) the first time it is asked for."""
    if not sheet.watch_code:
        sheet.watch_code = new_watch_code()
        db.session.commit()
    return sheet.watch_code


def channel(sheet: ScoreSheet) -> str:
    """The live channel of one sheet (named by its id: never shown to anyone)."""
    return f"score:{sheet.id}"


@bp.app_template_filter("utc_iso")
def utc_iso(moment: datetime) -> str:
    """A stored time as ISO 8601 in UTC (SQLite gives it back without a zone: it is UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@bp.app_template_filter("utc_text")
def utc_text(moment: datetime) -> str:
    """The same time for a page without JavaScript, labelled as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%d %b %H:%M UTC")


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
    live.publish(channel(sheet), str(len(rows)))


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


def context(sheet: ScoreSheet, *, keeping: bool = True) -> dict[str, Any]:
    """Everything a sheet's pages show. ``keeping`` False (the read-only share page) leaves
    out the change forms, whose CSRF token would start a session."""
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
        "chart": chart(summary),
        "versions": [fingerprint(i, facts) for i, facts in enumerate(rows)],
        "over": summary["over"],
        "word": word,
        "Word": word.capitalize(),
        "has_choose": has_choose(keeper),
        "last_change": last_done(sheet),
        "redo_change": first_undone(sheet),
        "change_form": ChangeForm() if keeping else None,
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
    return render_template(
        "scorekeeper/index.html", games=games, recent=[listed(s) for s in recent], form=form
    ), status


def listed(sheet: ScoreSheet) -> dict[str, Any]:
    """One line of the recent sheets: rounds in the game's own word, finished or not, and
    who won."""
    word = GAMES[sheet.game].spec.round_word
    count = len(sheet.entries)
    try:
        summary = keeper_of(sheet).summary(rows_of(sheet))
    except IllegalAction:  # a sheet that no longer replays is listed, not judged
        summary = {"over": False, "winners": [], "players": sheet.players}
    winners = [summary["players"][seat] for seat in summary["winners"]]
    return {
        "sheet": sheet,
        "rounds": f"{count} {word if count == 1 else word + 's'}",
        "over": summary["over"],
        "winners": winners,
    }


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
                code=new_code(),
                watch_code=new_watch_code(),
                game=chosen.slug,
                players=names,
                options=keeper.options,
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
    return show_sheet(sheet)


def show_sheet(sheet: ScoreSheet, status: int = 200):
    """The sheet page as it is now, with the entry forms the page's address asks for."""
    ctx = context(sheet)
    form, step = entry_form(ctx["keeper"], request.args, next_defaults(ctx["summary"]))
    form.position.data = str(len(ctx["rows"]))
    return sheet_page(sheet, ctx, form, step, wanted=request.args.get("step")), status


def share_of(sheet: ScoreSheet) -> dict[str, str]:
    watch = watch_code_of(sheet)
    return {
        "url": base_url(request.host_url) + url_for(".watch", watch=watch),
        "qr": url_for(".watch_qr", watch=watch),
    }


def already_answered(sheet: ScoreSheet):
    """The answer to a change this phone already sent (same idempotency key), or None."""
    prior = retries.answered(sheet, retries.key_of(request.headers))
    if prior is None:
        return None
    db.session.rollback()
    flash(prior.message)
    return redirect(url_for(".sheet", code=sheet.code) + prior.anchor)


@bp.post("/<code>/rounds")
def add_round(code: str):
    sheet = load(code, lock=True)
    prior = already_answered(sheet)
    if prior is not None:
        return prior
    ctx = context(sheet)
    rows, keeper, word = ctx["rows"], ctx["keeper"], ctx["word"]
    form = round_form(keeper, hidden=ctx["has_choose"])
    status = 422
    kept = retries.key_of(request.headers) is not None
    if form.validate_on_submit():
        # An entry kept on a phone (it has a key) adds its round at the end, whatever
        # another phone added meanwhile: every entry is kept, in the order it arrives.
        if not kept and int_or_none(form.position.data) != len(rows):
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
    """Store ``new_rows`` (one round more, accepted by the sheet) as a logged change and
    go back to the totals; 409 when another phone added a round at the same moment."""
    number = len(new_rows)
    over = ctx["keeper"].summary(new_rows)["over"]
    retries.note(
        sheet,
        retries.key_of(request.headers),
        f"{ctx['Word']} {number} added.",
        "#standings" if over else "#totals",
    )
    try:
        commit_change(
            sheet, ctx["keeper"], new_rows, "add", number - 1, None, new_rows[-1],
            f"{ctx['word']} {number} added",
        )  # fmt: skip
    except IntegrityError:
        db.session.rollback()
        abort(409, "Another phone added a round at the same moment. Reload the sheet.")
    flash(f"{ctx['Word']} {number} added.")
    # The last round opens the page on the standings (the end of the game).
    over = ctx["keeper"].summary(new_rows)["over"]
    return redirect(url_for(".sheet", code=sheet.code) + ("#standings" if over else "#totals"))


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
    prior = already_answered(sheet) if request.method == "POST" else None
    if prior is not None:
        return prior
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
                        retries.note(
                            sheet,
                            retries.key_of(request.headers),
                            f"{ctx['Word']} {number} corrected.",
                            f"#round-{number}",
                        )
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
        return show_sheet(sheet, 409)
    old, new = (change.before, change.after) if redo else (change.after, change.before)
    try:
        new_rows = apply(ctx["keeper"], ctx["rows"], change.position, old, new)
    except IllegalAction as error:
        flash(f"“{change.label}” can't be {verb}: {error.message}", "error")
        return show_sheet(sheet, 409)
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


# -- showing the game -----------------------------------------------------------------------


@bp.post("/<code>/rematch")
def rematch(code: str):
    """A new sheet with the same players and options, once this one is finished; the
    sheet remembers it, so a second Rematch (another phone, a double tap) opens the same
    one, and its share page follows it."""
    sheet = load(code, lock=True)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    if sheet.rematch_code:
        db.session.rollback()
        flash("The rematch is already on: here it is.")
        return redirect(url_for(".sheet", code=sheet.rematch_code))
    ctx = context(sheet)
    if not ctx["over"]:
        db.session.rollback()
        flash(f"A rematch starts once this game is over: finish the last {ctx['word']}.", "error")
        return redirect(url_for(".sheet", code=sheet.code)), 303
    again = ScoreSheet(
        code=new_code(),
        watch_code=new_watch_code(),
        game=sheet.game,
        players=list(sheet.players),
        options=dict(sheet.options),
    )
    db.session.add(again)
    sheet.rematch_code = again.code
    db.session.commit()
    live.publish(channel(sheet), str(len(ctx["rows"])))  # its share pages follow
    remember(again.code)
    flash(f"Rematch: a new sheet for {', '.join(again.players)}.")
    return redirect(url_for(".sheet", code=again.code))


def rematch_watch(sheet: ScoreSheet) -> str | None:
    """The share page of the rematch a sheet started (None before one is)."""
    if not sheet.rematch_code:
        return None
    again = db.session.scalar(select(ScoreSheet).where(ScoreSheet.code == sheet.rematch_code))
    return url_for(".watch", watch=watch_code_of(again)) if again is not None else None


def watched(watch: str) -> ScoreSheet:
    sheet = db.session.scalar(select(ScoreSheet).where(ScoreSheet.watch_code == watch))
    if sheet is None or sheet.game not in score_slugs():
        abort(404)
    return sheet


@bp.get("/watch/<watch>")
def watch(watch: str):
    """The read-only sheet a share link opens: where the game stands, the chart and the
    totals, updated live. No form, no sheet code, nothing kept in the session.
    ``?part=1`` gives only the part that changes (what the page's script fetches)."""
    sheet = watched(watch)
    ctx = context(sheet, keeping=False)
    template = (
        "scorekeeper/_watch_live.html" if request.args.get("part") else "scorekeeper/watch.html"
    )
    events = None if request.args.get("part") else sheet_events_url(watch)
    follow = rematch_watch(sheet)
    html = render_template(template, watch=watch, watch_events=events, follow=follow, **ctx)
    response = Response(html)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/watch/<watch>/qr.svg")
def watch_qr(watch: str):
    watched(watch)
    url = base_url(request.host_url) + url_for(".watch", watch=watch)
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


def sheet_events_url(watch: str) -> str:
    """The share page's event stream with a fresh ticket (the watch code is the
    credential: whoever may see the page may follow it)."""
    ticket = streams.issue("sheet", watch, "watch")
    return url_for(".watch_events", watch=watch, ticket=ticket)


@bp.get("/watch/<watch>/ticket")
def watch_ticket(watch: str):
    """A new ticket for the share page's event stream (the page asks again after one
    expired)."""
    watched(watch)
    body = {"events_url": sheet_events_url(watch), "expires_in": streams.ticket_seconds()}
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/watch/<watch>/events")
def watch_events(watch: str):
    """Server-sent events: ``rounds`` (how many rounds the sheet has) now and after every
    change, a ``ping`` as a keep-alive; the stream ends after ``TABLES_SSE_SECONDS`` (the
    browser reconnects) or, for tests, after ``TABLES_SSE_MAX_EVENTS`` events. It needs
    a ticket (``?ticket=``, from the page or ``/ticket``): 401 at once without one."""
    streams.check("sheet", watch, request.args.get("ticket"))
    release = streams.admit(f"sheet:{watch}")
    try:
        sheet = watched(watch)
        # Subscribe before reading the sheet: a change in between is in the count or
        # announced.
        subscription = live.subscribe(channel(sheet))
    except BaseException:
        release()
        raise
    try:
        count = len(sheet.entries)
    except BaseException:  # pragma: no cover - a database failure while reading
        subscription.close()
        release()
        raise
    db.session.remove()  # do not hold a pooled connection for the life of the stream
    return live.event_stream(subscription, "rounds", str(count), on_close=release)


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
        share=share_of(sheet),
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
    prior = already_answered(sheet)
    if prior is not None:
        return prior
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
                message = f"{ctx['Word']} {number}: {step.label} saved."
                retries.note(sheet, retries.key_of(request.headers), message, "#entry-heading")
                db.session.commit()
                flash(message)
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

"""Score mode's pages for the phone that keeps a sheet: choose a game, start a sheet,
enter, correct and remove rounds, undo and redo, repair, rematch, CSV.

Each view reads the request (its form validated, CSRF included), calls one use case of
:mod:`.book` and redirects, or renders the page again with the refusal placed by the form
it concerns (the presenters of :mod:`.pages` build what the template reads). The stale
check, the lock and the rules are the use cases' business.
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, session, url_for
from werkzeug.datastructures import MultiDict
from wtforms import ValidationError

from .. import codes
from ..games import IllegalAction
from ..network import base_url
from . import again, book, boxes, kept, retries
from .blueprint import bp
from .book import Done, Shown, State
from .entry import (
    current_round_form,
    next_round_form,
    refuse,
    refuse_step,
    round_edit_form,
    sent_step_form,
    stamp,
    step_boxes_sent,
    step_form,
)
from .errors import Refused, Stale, WrongMoment
from .exports import facts_csv
from .forms import (
    ChangeForm,
    ConfirmForm,
    OpenForm,
    chosen_options,
    new_sheet_form,
    option_fields,
    round_form,
)
from .pages import SheetPage, listed
from .phone_views import phone_panel
from .rounds import ENTER, has_choose

RECENT = 20


def remember(code: str) -> None:
    """Keep ``code`` in this browser's list of recent sheets (newest first).

    The list lives in the signed session cookie, so a phone sees the sheets it made or
    opened, never the other groups' sheets on the same server. It is written only when it
    changes: a sheet viewed again sends no cookie, so a view answered after an entry's
    answer (the service worker's copy, a second tab) cannot put back a cookie without
    that entry's flashed message.
    """
    codes_ = [c for c in session.get("sheets", []) if c != code]
    recent = [code, *codes_][:RECENT]
    if session.get("sheets") != recent:
        session["sheets"] = recent


def int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def shown(form) -> Shown:
    """What the page showed when it made ``form`` (its hidden position and version), and
    the kept entry's idempotency key when the phone sent one."""
    return Shown(int_or_none(form.position.data), form.version.data, kept_entry())


def kept_entry() -> retries.Kept:
    """A kept entry's idempotency key, digest and reference (400 for a malformed one)."""
    return retries.kept_of(request.headers, request.path, request.form)


def back(done: Done):
    """After a change: say what was done and go back to the sheet."""
    if done.message:
        flash(done.message)
    return redirect(url_for(".sheet", code=done.code) + done.anchor)


def share_of(page: SheetPage) -> dict[str, str]:
    watch = book.watch_code(page.sheet)
    return {
        "url": base_url(request.host_url) + url_for(".watch", watch=watch),
        "qr": url_for(".watch_qr", watch=watch),
    }


def sheet_page(page: SheetPage, form, step: str, wanted=None, entry=None, **extra: Any) -> str:
    """The sheet page: the whole-round ``form`` at ``step`` and, for a game entered in
    steps, the step ``wanted`` (or the next one) with its form ``entry`` when given."""
    draft = extra.pop("draft", False)
    steps = None if draft else page.steps(wanted, entry)
    return render_template(
        "scorekeeper/sheet.html",
        form=form,
        step=step,
        share=None if draft else share_of(page),
        draft=draft,
        steps=steps,
        page_ahead=page.ahead(),
        phones=phone_panel(page),
        joined=boxes.joined(page.sheet),
        **extra,
        **page.args(),
    )


def show_sheet(state: State, status: int = 200):
    """The sheet page as it is now, with the entry forms the page's address asks for."""
    page = SheetPage(state)
    form, step = next_round_form(page.keeper, page.summary, request.args, len(page.rows))
    return sheet_page(page, form, step, wanted=request.args.get("step")), status


# -- pages --------------------------------------------------------------------------------


@bp.get("")
def index():
    form = OpenForm(request.args)
    if request.args.get("code") is not None:
        code = codes.normalise(request.args.get("code") or "")
        found = book.lookup(code) if form.validate() and code else None
        if found is not None:
            return redirect(url_for(".sheet", code=found))
        form.code.errors = ["There is no score sheet with that code."]
    mine = [str(code) for code in session.get("sheets", [])][:RECENT]
    recent = [listed(state) for state in book.recent(mine)]
    games = [book.game_of(slug) for slug in book.score_slugs()]
    keep = [url_for(".new", game=g.slug) for g in games] + [d for g in games for d in drafts_of(g)]
    return render_template(
        "scorekeeper/index.html", games=games, recent=recent, form=form, keep_pages=keep
    ), (404 if form.code.errors else 200)


def drafts_of(game) -> list[str]:
    """The draft pages a phone keeps to start a sheet of ``game`` with no connection."""
    counts = range(game.spec.min_players, game.spec.max_players + 1)
    return [url_for(".draft", game=game.slug, players=n) for n in counts]


@bp.route("/new/<game>", methods=["GET", "POST"])
def new(game: str):
    chosen = book.game_of(game)
    form = new_sheet_form(chosen)
    if form.validate_on_submit():
        try:
            options = chosen_options(form, chosen, request.form)
            key = retries.key_of(request.headers)  # a sheet started offline
            code = book.new_sheet(chosen.slug, form.names(), options, key)
        except ValidationError as error:  # an option's boxes
            form.form_errors.append(str(error))
        except (IllegalAction, Refused) as error:  # an option's data, or the game refuses
            form.form_errors.append(error.message)
        else:
            remember(code)
            return redirect(url_for(".sheet", code=code))
    return render_template(
        "scorekeeper/new.html",
        game=chosen,
        spec=chosen.spec,
        form=form,
        option_rows=option_fields(form),
        mode="score",
        drafts=drafts_of(chosen),
    ), (422 if request.method == "POST" else 200)


@bp.get("/new/<game>/draft/<int:players>")
def draft(game: str, players: int):
    """The page a sheet started with no connection is kept on (static/js/score-offline.js):
    whole rounds only, names put in by the script, sent when the connection is back."""
    page = SheetPage(kept.draft(game, players))
    form, step = next_round_form(page.keeper, page.summary, MultiDict(), 0)
    return sheet_page(page, form, step, draft=True)


@bp.get("/<code>")
def sheet(code: str):
    state = book.read(code)
    remember(state.sheet.code)
    return show_sheet(state)


@bp.post("/<code>/rounds")
def add_round(code: str):
    keeper = book.keeper(code)
    form = round_form(keeper, hidden=has_choose(keeper))
    status = 422
    if form.validate_on_submit():
        try:
            return back(book.add_round(code, shown(form), request.form))
        except Refused as error:
            refuse(form, error.cause)
        except Stale as error:
            form.form_errors.append(error.message)
            status = error.status
    page = SheetPage(book.read(code))
    form.position.data = str(len(page.rows))
    return sheet_page(page, form, ENTER, whole_open=True), status


def edit_page(page: SheetPage, form, step: str, number: int, facts: Any):
    return render_template(
        "scorekeeper/edit.html", form=form, step=step, number=number, row=facts, **page.args()
    )


def round_page(code: str, number: int) -> tuple[SheetPage, int, Any]:
    """The sheet and its round ``number`` (from 1) as (index, facts): 404 when none."""
    page = SheetPage(book.read(code))
    index, facts = page.state.round_at(number) or abort(404)
    return page, index, facts


@bp.get("/<code>/rounds/<int:number>/edit")
def edit_round(code: str, number: int):
    page, index, facts = round_page(code, number)
    form, step = round_edit_form(page.keeper, request.args, index, facts)
    return edit_page(page, form, step, number, facts)


@bp.post("/<code>/rounds/<int:number>/edit")
def correct_round(code: str, number: int):
    keeper = book.keeper(code)
    form = round_form(keeper, hidden=has_choose(keeper))
    stale, status = None, 422
    if form.validate_on_submit():
        try:
            return back(book.edit_round(code, number, shown(form), request.form))
        except Refused as error:
            refuse(form, error.cause)
        except Stale as error:
            stale, status = error, error.status
    page = SheetPage(book.read(code))
    index, facts = book.round_of(page.state, number)
    if stale is not None:  # the round as it is now, to correct again
        form = current_round_form(keeper, facts)
        form.form_errors.append(stale.message)
    stamp(form, index, facts)
    return edit_page(page, form, ENTER, number, facts), status


def delete_page(page: SheetPage, form, index: int, facts: Any, error: str | None = None):
    stamp(form, index, facts)
    number = index + 1
    return render_template(
        "scorekeeper/delete.html", form=form, number=number, row=facts, error=error, **page.args()
    )


@bp.get("/<code>/rounds/<int:number>/delete")
def delete_round(code: str, number: int):
    page, index, facts = round_page(code, number)
    return delete_page(page, ConfirmForm(), index, facts)


@bp.post("/<code>/rounds/<int:number>/delete")
def remove_round(code: str, number: int):
    form = ConfirmForm()
    error, status = None, 422
    if form.validate_on_submit():
        entry = shown(form)
        try:
            if entry.key is not None:  # a delete kept on a phone
                seen = int_or_none(request.form.get("seen"))
                return back(kept.delete(code, number, entry, seen))
            return back(book.delete_round(code, number, entry))
        except (Refused, Stale) as refused:
            error, status = refused.message, refused.status
    page = SheetPage(book.read(code))
    index, facts = book.round_of(page.state, number)
    return delete_page(page, form, index, facts, error), status


def _change_log(code: str, use_case):
    """Undo or redo: the form names the change it showed, so a sheet changed meanwhile
    is answered 409 and nothing moves."""
    form = ChangeForm()
    if not form.validate_on_submit():
        abort(400)
    entry = kept_entry()
    if entry.key is not None and use_case is book.undo:  # an undo kept on a phone
        use_case = kept.undo
    try:
        return back(use_case(code, Shown(int_or_none(form.change.data), kept=entry)))
    except (Refused, Stale) as error:
        flash(error.message, "error")
        return show_sheet(book.read(code), error.status)


@bp.post("/<code>/undo")
def undo(code: str):
    return _change_log(code, book.undo)


@bp.post("/<code>/redo")
def redo(code: str):
    return _change_log(code, book.redo)


@bp.post("/<code>/repair")
def repair(code: str):
    """Remove the round the repair page named (checked by position and fingerprint)."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        return back(book.repair(code, shown(form)))
    except Stale as error:
        flash(error.message, "error")
        return show_sheet(book.read(code), error.status)  # the repair page while broken


@bp.get("/<code>/export.csv")
def export(code: str):
    """Every fact of every round, one column per fact per player, and the totals."""
    page = SheetPage(book.read(code))  # its summary: as nobody's screen, when joined
    state = page.state
    body = facts_csv(state.keeper, state.rows, page.summary)
    response = Response(body, mimetype="text/csv")
    filename = f"{state.keeper.spec.slug}-{state.sheet.code}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<code>/rematch")
def rematch(code: str):
    """A new sheet with the same players and options, once this one is finished."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        done = again.rematch(code)
    except WrongMoment as error:
        flash(error.message, "error")
        return redirect(url_for(".sheet", code=code.upper())), 303
    remember(done.code)
    return back(done)


# -- a round entered step by step (spec.sheet_steps) ---------------------------------------


@bp.post("/<code>/steps/<name>")
def save_step(code: str, name: str):
    """Save one step of the round in progress; the last step adds the round."""
    keeper = book.keeper(code)
    step = keeper.step_named(name) or abort(404)
    form = sent_step_form(keeper, request.form)
    stale, status = None, 422
    if form.validate_on_submit():
        try:
            sent = step_boxes_sent(request.form)
            return back(book.save_step(code, name, shown(form), sent))
        except Refused as error:
            refuse_step(form, step, error.cause)
        except Stale as error:
            stale, status = error, error.status
    page = SheetPage(book.read(code))
    if stale is not None:  # the step as it is now, to enter again
        form = step_form(keeper, step, page.state.pending, page.summary)
        form.form_errors.append(stale.message)
    whole, whole_step = next_round_form(keeper, page.summary, MultiDict(), len(page.rows))
    return sheet_page(page, whole, whole_step, wanted=name, entry=form), status


@bp.post("/<code>/steps")
def discard_steps(code: str):
    """Throw away the round in progress (its steps saved so far)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    return back(book.clear_steps(code))

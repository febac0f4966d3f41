"""Score mode pages: choose a game, start a sheet, enter, correct and remove rounds.

The database keeps only the facts of each round (``ScoreEntry.facts``); every figure on a
page comes from the game's sheet module through :mod:`.adapters`. A change is checked on
the whole list of rows first and stored only when the sheet module accepts it, so a
refused entry stores nothing.

Stale forms: the add form carries the position it fills; edit, delete and undo forms carry
the position and a fingerprint of the round as the page showed it. If another phone
changed the sheet meanwhile, the change is refused (409) and the page shows the sheet as
it is now.
"""

from __future__ import annotations

import hashlib
import json
import secrets
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

from ..extensions import db
from ..games.base import IllegalAction
from ..models import ScoreEntry, ScoreSheet, utcnow
from ..pull_form import pull_targets
from .adapters import ADAPTERS, Adapter, pirate_cards
from .forms import PIRATE_CARD_FIELDS, ConfirmForm, OpenForm, new_sheet_form, round_form

bp = Blueprint("scorekeeper", __name__, url_prefix="/score")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
RECENT = 20
GAME_SLUGS = ", ".join(ADAPTERS)


@bp.app_template_global("score_games")
def score_games() -> list[str]:
    """Slugs of the games whose score mode works (only these are linked anywhere)."""
    return list(ADAPTERS)


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
    codes = [c for c in session.get("sheets", []) if c != code]
    session["sheets"] = [code, *codes][:RECENT]


def new_code() -> str:
    for _ in range(20):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.scalar(select(ScoreSheet.id).where(ScoreSheet.code == code)) is None:
            return code
    raise RuntimeError("could not find a free sheet code")  # pragma: no cover


def load(code: str, lock: bool = False) -> ScoreSheet:
    query = select(ScoreSheet).where(ScoreSheet.code == code.upper())
    if lock:
        query = query.with_for_update()
    sheet = db.session.scalar(query)
    if sheet is None or sheet.game not in ADAPTERS:
        abort(404)
    return sheet


def rows_of(sheet: ScoreSheet) -> list[dict[str, Any]]:
    return [entry.facts for entry in sheet.entries]


def store(sheet: ScoreSheet, rows: list[dict[str, Any]]) -> None:
    """Make the stored entries equal ``rows`` (already accepted by the sheet module)."""
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


def context(sheet: ScoreSheet, adapter: Adapter) -> dict[str, Any]:
    rows = rows_of(sheet)
    summary = adapter.summary(sheet.players, sheet.options, rows)
    return {
        "sheet": sheet,
        "adapter": adapter,
        "names": sheet.players,
        "rows": rows,
        "summary": summary,
        "versions": [fingerprint(i, facts) for i, facts in enumerate(rows)],
        "over": summary["over"],
        "word": adapter.round_word,
        "Word": adapter.round_word.capitalize(),
        "targets": {t["id"]: t for t in pull_targets()} if adapter.slug == "pull" else {},
        "cards": pirate_card_names(sheet.options) if adapter.slug == "pirate_tricks" else {},
    }


def pirate_card_names(options: dict) -> dict[str, dict[str, Any]]:
    return {card["id"]: card for deck in pirate_cards(options).values() for card in deck}


def cards_from_args(adapter: Adapter) -> bool:
    """Pirate Tricks: whether the page was asked for with the round's cards chosen."""
    return adapter.slug == "pirate_tricks" and any(
        request.args.get(name) for name in PIRATE_CARD_FIELDS
    )


def prefill(adapter: Adapter, form, summary: dict[str, Any]) -> None:
    """Sensible defaults for the next round (Call the Shot: the next challenger)."""
    if adapter.slug == "call_the_shot" and summary["next_challenger"] is not None:
        form.challenger.data = str(summary["next_challenger"])


def refuse(form, error: IllegalAction) -> None:
    """Show a sheet error next to the field it concerns, else at the top of the form."""
    if not form.sheet_error(error):
        form.form_errors.append(error.message)


# -- pages --------------------------------------------------------------------------------


@bp.get("")
def index():
    form = OpenForm(request.args)
    if request.args.get("code") is not None:
        code = "".join(str(request.args.get("code")).split()).upper()
        if form.validate() and code:
            found = db.session.scalar(select(ScoreSheet).where(ScoreSheet.code == code))
            if found is not None and found.game in ADAPTERS:
                return redirect(url_for(".sheet", code=found.code))
        form.code.errors = ["There is no score sheet with that code."]
    mine = [str(code) for code in session.get("sheets", [])][:RECENT]
    recent = db.session.scalars(
        select(ScoreSheet)
        .where(ScoreSheet.game.in_(list(ADAPTERS)), ScoreSheet.code.in_(mine))
        .order_by(ScoreSheet.updated_at.desc(), ScoreSheet.id.desc())
    ).all()
    status = 404 if form.code.errors else 200
    return render_template(
        "scorekeeper/index.html", adapters=list(ADAPTERS.values()), recent=recent, form=form
    ), status


@bp.route(f"/new/<any({GAME_SLUGS}):game>", methods=["GET", "POST"])
def new(game: str):
    adapter = ADAPTERS[game]
    form = new_sheet_form(adapter)
    status = 200
    if form.validate_on_submit():
        names = form.names()
        try:
            options = adapter.check_options(names, form.options())
            adapter.summary(names, options, [])
        except IllegalAction as error:
            form.form_errors.append(error.message)
        else:
            sheet = ScoreSheet(code=new_code(), game=game, players=names, options=options)
            db.session.add(sheet)
            db.session.commit()
            remember(sheet.code)
            return redirect(url_for(".sheet", code=sheet.code))
    if request.method == "POST":
        status = 422
    return render_template(
        "scorekeeper/new.html",
        adapter=adapter,
        form=form,
        targets=pull_targets() if game == "pull" else [],
    ), status


@bp.get("/<code>")
def sheet(code: str):
    sheet = load(code)
    remember(sheet.code)
    adapter = ADAPTERS[sheet.game]
    ctx = context(sheet, adapter)
    if cards_from_args(adapter):
        # Pirate Tricks, second step: the cards were chosen, now the players' facts.
        form = round_form(
            sheet.game, sheet.players, ctx["summary"], sheet.options, formdata=request.args
        )
    else:
        form = round_form(sheet.game, sheet.players, ctx["summary"], sheet.options)
    form.position.data = str(len(ctx["rows"]))
    prefill(adapter, form, ctx["summary"])
    return render_template("scorekeeper/sheet.html", form=form, undo=ConfirmForm(), **ctx)


@bp.post("/<code>/rounds")
def add_round(code: str):
    sheet = load(code, lock=True)
    adapter = ADAPTERS[sheet.game]
    ctx = context(sheet, adapter)
    rows = ctx["rows"]
    form = round_form(sheet.game, sheet.players, ctx["summary"], sheet.options)
    status = 422
    if form.validate_on_submit():
        if int_or_none(form.position.data) != len(rows):
            form.form_errors.append(
                f"The sheet changed on another phone: it now has {len(rows)} "
                f"{adapter.round_word}s. Check it, then enter this {adapter.round_word} again."
            )
            status = 409
        else:
            try:
                new_rows = adapter.add(sheet.players, sheet.options, rows, form.entry())
            except IllegalAction as error:
                refuse(form, error)
            else:
                try:
                    store(sheet, new_rows)
                except IntegrityError:
                    db.session.rollback()
                    abort(409, "Another phone added a round at the same moment. Reload the sheet.")
                flash(f"{adapter.round_word.capitalize()} {len(new_rows)} added.")
                return redirect(url_for(".sheet", code=sheet.code) + "#totals")
    form.position.data = str(len(rows))
    return render_template("scorekeeper/sheet.html", form=form, undo=ConfirmForm(), **ctx), status


def _round(rows: list[dict[str, Any]], number: int) -> tuple[int, dict[str, Any]]:
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
    adapter = ADAPTERS[sheet.game]
    ctx = context(sheet, adapter)
    index, facts = _round(ctx["rows"], number)
    form = round_form(sheet.game, sheet.players, ctx["summary"], sheet.options)
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            if changed_since_shown(form, index, facts):
                form = round_form(
                    sheet.game, sheet.players, ctx["summary"], sheet.options, formdata=None
                )
                form.fill(facts)
                form.form_errors.append(
                    f"{ctx['Word']} {number} was changed on another phone since you opened it. "
                    "Here it is as it is now: check it and make your correction again."
                )
                status = 409
            else:
                try:
                    new_rows = adapter.replace(
                        sheet.players, sheet.options, ctx["rows"], index, form.entry()
                    )
                except IllegalAction as error:
                    refuse(form, error)
                else:
                    store(sheet, new_rows)
                    flash(f"{ctx['Word']} {number} corrected.")
                    return redirect(url_for(".sheet", code=sheet.code) + f"#round-{number}")
    else:
        form.fill(facts)
        if cards_from_args(adapter):
            for name in PIRATE_CARD_FIELDS:
                form[name].data = request.args.get(name, "")
            form.fill_players(facts)
    form.position.data = str(index)
    form.version.data = fingerprint(index, facts)
    return render_template(
        "scorekeeper/edit.html", form=form, number=number, row=facts, **ctx
    ), status


@bp.route("/<code>/rounds/<int:number>/delete", methods=["GET", "POST"])
def delete_round(code: str, number: int):
    sheet = load(code, lock=request.method == "POST")
    adapter = ADAPTERS[sheet.game]
    ctx = context(sheet, adapter)
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
                    new_rows = adapter.delete(sheet.players, sheet.options, ctx["rows"], index)
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
    adapter = ADAPTERS[sheet.game]
    rows = rows_of(sheet)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    word = adapter.round_word
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
            new_rows = adapter.delete(sheet.players, sheet.options, rows, index)
        except IllegalAction as error:  # pragma: no cover - removing the last row always fits
            flash(error.message, "error")
        else:
            store(sheet, new_rows)
            flash(f"{word.capitalize()} {index + 1} removed.")
    return redirect(url_for(".sheet", code=sheet.code))

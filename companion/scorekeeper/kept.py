"""Undo kept on a phone (issue 27): with no connection, Undo is kept like an entry, with
its idempotency key, and sent in order when the connection is back. It names the change it
undoes — by its number when the server had it, or by the key of the kept entry that made
it when that entry was still waiting — so it undoes that change whatever another phone did
meanwhile. The views send an undo to :func:`undo` when it comes with a key; the one
transaction, the retry check and the change log are :mod:`.book`'s. A delete kept on a
phone (:func:`delete`) is made the same way: of the round it names, found again whatever
another phone added, deleted or corrected since.

A sheet started with no connection is entered on :func:`draft`'s page (kept by the service
worker) until it is first sent: then :func:`.book.new_sheet` makes it under its key.
"""

from __future__ import annotations

from ..games import IllegalAction
from ..models import ScoreSheet
from . import retries, store
from .book import (
    Done,
    Shown,
    State,
    _answered,
    _changing,
    _commit,
    _save,
    game_of,
    round_of,
)
from .errors import NotFound, Refused, WrongMoment
from .rounds import apply
from .stops import count_stop, dropped_note, undo_stop

DRAFT = "DRAFT"  # the code in a draft page's addresses, until the sheet is sent


def undo(code: str, shown: Shown) -> Done:
    """Undo the change a kept undo names (``shown.position``: its number, or
    ``shown.kept.of``: the key of the kept entry that made it)."""
    with _changing(code) as state:
        done = _answered(state, shown) or _undo_in(state, shown)
    return done


def _undo_in(state: State, shown: Shown) -> Done:
    """An undo kept on a phone: of the change it names (by number, or by the key of the
    kept entry that made it), even when another phone changed the sheet since. The newest
    change is undone as online (marked undone, redo offers it again); an older one is
    turned back by a change of its own, logged, so every entry stays in the log."""
    code, kept = state.sheet.code, shown.kept
    if kept.of is not None:
        change = retries.change_named(state.sheet, kept.of)
    else:
        change = store.change_of(state.sheet, shown.position) if shown.position else None
    if change is None or change.undone:
        message = "Nothing to undo: that change is already undone."
        retries.note(state.sheet, kept, message, "#totals")
        return Done(code, message, "#totals")
    stop = undo_stop(state, change)  # kept offline or not, undo stops at a reveal
    if stop:
        raise WrongMoment(stop)
    old, new = change.after, change.before
    try:
        new_rows = apply(state.keeper, state.rows, change.position, old, new)
    except IllegalAction as error:
        message = f"“{change.label}” can't be undone: {error.message}"
        raise Refused(error, message, status=409) from None
    last = state.last_done()
    message = f"Undone: {change.label}.{dropped_note(state, new_rows)}"
    if last is not None and last.seq == change.seq:
        store.mark_undone(change, True)
        _save(state, new_rows)
        retries.note(state.sheet, kept, message, "#totals")
    else:
        kind = {"add": "delete", "delete": "add"}.get(change.kind, "edit")
        label = f"undo of {change.label}"[:80]
        made = _commit(state, new_rows, kind, change.position, old, new, label)
        retries.note(state.sheet, kept, message, "#totals", made)
    return Done(code, message, "#totals")


def delete(code: str, number: int, shown: Shown, seen: int | None) -> Done:
    """Delete the round a kept delete names: round ``number`` of the sheet as the phone
    last had it (after change number ``seen``), or the round a kept entry still waiting
    added (``shown.kept.of``, its key). It is deleted whatever another phone did to it
    meanwhile (the change log shows both); one another phone deleted already is left so."""
    with _changing(code) as state:
        done = _answered(state, shown) or _delete_in(state, number, shown, seen)
    return done


def _delete_in(state: State, number: int, shown: Shown, seen: int | None) -> Done:
    sheet, kept, word = state.sheet, shown.kept, state.word
    if kept.of is not None:
        now = retries.round_added(sheet, kept.of) - 1
    else:
        now = retries.moved(sheet, number - 1, seen) if seen is not None else number - 1
    if now is None or state.round_at(now + 1) is None:
        message = f"{word.capitalize()} {number} was already deleted on another phone."
        retries.note(sheet, kept, message, "#totals")
        return Done(sheet.code, message, "#totals")
    index, facts = round_of(state, now + 1)
    stop = count_stop(state)  # kept offline or not, a revealed round in progress stays
    if stop:
        raise WrongMoment(stop)
    try:
        new_rows = state.keeper.check(state.keeper.delete(state.rows, index))
    except IllegalAction as error:
        raise Refused(error, f"This {word} can't be deleted: {error.message}") from None
    label = f"{word} {index + 1} deleted"
    note = dropped_note(state, new_rows)
    made = _commit(state, new_rows, "delete", index, facts, None, label)
    message = f"{word.capitalize()} {index + 1} deleted.{note}"
    retries.note(sheet, kept, message, "#totals", made)
    return Done(sheet.code, message, "#totals")


def draft(slug: str, players: int) -> State:
    """An empty sheet of game ``slug`` for ``players`` placeholder names, never stored: the
    page a phone with no connection enters rounds on (names put in by its script) until
    the sheet is first sent and gets its code."""
    game = game_of(slug)
    if not game.spec.min_players <= players <= game.spec.max_players:
        raise NotFound()
    names = [f"⟦{seat + 1}⟧" for seat in range(players)]
    keeper = game.sheet(names, {})
    sheet = ScoreSheet(code=DRAFT, game=slug, players=names, options=keeper.options)
    return State(sheet, keeper, [])

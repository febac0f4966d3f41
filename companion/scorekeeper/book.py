"""Score mode's use cases: one function per thing a player does to a sheet.

Each change is one transaction holding the sheet's lock (:func:`store.writing`): it reads
the sheet, checks that the form was made for the sheet as it is now (:func:`_fresh`, the
one stale check), lets the game's :class:`~companion.games.Sheet` judge the new rows, and
stores them with the change logged. It returns :class:`Done` (what to tell the player and
where to go back to) or raises a :class:`~.errors.ScoreError`; nothing is stored then.
After commit, :data:`~companion.events.sheet_changed` is sent (see :mod:`.feed`).

Reads: :func:`read` gives a sheet's :class:`State` (raising :class:`BrokenSheet` when its
stored rounds no longer replay, which the views answer with the repair page).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ..events import announce, sheet_changed
from ..games import GAMES, Game, IllegalAction
from ..games.base import Sheet
from ..models import ScoreChange, ScoreSheet
from . import retries, store
from .boxes import forgotten, joined, sealed_message
from .errors import BrokenSheet, NotFound, Refused, ScoreError, Stale, WrongMoment
from .rounds import apply, fingerprint, first_broken
from .state import Done, Shown, State, keeper_of
from .stops import count_stop, dropped_note, redo_stop, revealed_step, undo_stop


def score_slugs() -> list[str]:
    """Slugs of the games whose score mode works (only these are linked anywhere)."""
    return [slug for slug, game in GAMES.items() if game.sheet_class is not None]


def game_of(slug: str) -> Game:
    """The game of a new sheet: :class:`NotFound` unless it has a score mode."""
    game = GAMES.get(slug)
    if game is None or game.sheet_class is None:
        raise NotFound()
    return game


# -- reads --------------------------------------------------------------------------------


def _scored(sheet: ScoreSheet | None) -> ScoreSheet:
    if sheet is None or sheet.game not in score_slugs():
        raise NotFound()
    return sheet


def state_of(sheet: ScoreSheet, replayed: bool = True) -> State:
    """The sheet's state; ``replayed``: :class:`BrokenSheet` if its rounds do not replay."""
    state = State(sheet, keeper_of(sheet), store.rows_of(sheet))
    if replayed:
        broken = first_broken(state.keeper, state.rows)
        if broken is not None:
            raise BrokenSheet(sheet, *broken)
    return state


def read(code: str) -> State:
    """A sheet as it is now (no lock)."""
    return state_of(_scored(store.find(code)))


def read_watched(watch: str) -> State:
    """The sheet a share link opens."""
    return state_of(_scored(store.find_watched(watch)))


def watched(watch: str) -> ScoreSheet:
    """The sheet a share link opens, its rounds not read (:class:`NotFound` if none)."""
    return _scored(store.find_watched(watch))


def lookup(code: str) -> str | None:
    """The code of the score sheet ``code`` names, or None."""
    sheet = store.find(code)
    return sheet.code if sheet is not None and sheet.game in score_slugs() else None


def keeper(code: str) -> Sheet:
    """The game's sheet of ``code`` (what a round form is built from), rounds not read."""
    return keeper_of(_scored(store.find(code)))


def recent(sheet_codes: list[str]) -> list[State]:
    """This phone's recent sheets, the last changed first (not replayed: listed as they
    are, even broken)."""
    return [state_of(sheet, replayed=False) for sheet in store.recent(sheet_codes, score_slugs())]


def watch_code(sheet: ScoreSheet) -> str:
    """The code of the sheet's share link (made the first time it is asked for)."""
    return store.watch_code_of(sheet)


def round_count(sheet: ScoreSheet) -> int:
    """How many rounds the sheet holds (what its watch pages are told)."""
    return store.round_count(sheet)


def let_go() -> None:
    """Give the database connection back before a long event stream."""
    store.let_go()


# -- the transaction every change runs in ---------------------------------------------------


@contextmanager
def _changing(code: str, replayed: bool = True) -> Iterator[State]:
    """The locked transaction of one change; after its commit, a change of the rounds is
    announced."""
    with store.writing(code) as sheet:
        state, sheet_code = state_of(_scored(sheet), replayed), sheet.code
        yield state
        version = {"version": (sheet.open_boxes or {}).get("version", 0)} if state.announce else {}
    if state.saved_rounds is not None or state.announce:
        rounds = len(state.rows) if state.saved_rounds is None else state.saved_rounds
        announce(sheet_changed, sheet_code, rounds=rounds, **version)


changing = _changing  # the phones' use cases (:mod:`.phones`) run in the same transaction


def _fresh(shown: Shown, position: int | None, message: str, facts: Any = ...) -> None:
    """The stale check, the one place it is made: :class:`Stale` unless the form was made
    for ``position`` (None: there is nothing left to change) and, when ``facts`` is
    given, for the same thing there."""
    if position is None or shown.position != position:
        raise Stale(message)
    if facts is not ... and shown.version != fingerprint(position, facts):
        raise Stale(message)


def _save(state: State, rows: list[Any]) -> None:
    """Store ``rows``. A change that adds or removes a round makes the round in progress
    another round: what was entered for it is thrown away with it."""
    if len(rows) != len(state.rows):
        _forget_entries(state)
    store.save_rows(state.sheet, rows)
    state.saved_rounds = len(rows)


def _commit(
    state: State, rows, kind: str, position: int, before, after, label: str, revealed=False
) -> ScoreChange:
    """Store ``rows`` with the change that made them logged."""
    change = store.log_change(state.sheet, kind, position, before, after, label, revealed)
    _save(state, rows)
    return change


def round_of(state: State, number: int) -> tuple[int, Any]:
    """Round ``number`` of a change's sheet: 409 when it is gone (another phone deleted
    it since the page was shown)."""
    found = state.round_at(number)
    if found is None:
        raise ScoreError(f"That round is no longer on the sheet: it has {len(state.rows)} now.")
    return found


def _forget_entries(state: State) -> None:
    """Drop what was entered for the round in progress (its saved steps, its boxes on the
    phones), so that it never comes back if the count of rounds does."""
    store.save_pending(state.sheet, None)
    if isinstance(state.sheet.open_boxes, dict):
        store.save_open(state.sheet, forgotten(state.sheet.open_boxes))


def _added(
    state: State,
    rows: list[Any],
    kept: retries.Kept | None = None,
    note: str = "",
    revealed: bool = False,
) -> Done:
    number = len(rows)
    # The last round opens the page on the standings (the end of the game).
    anchor = "#standings" if state.keeper.summary(rows)["over"] else "#totals"
    message = f"{state.word.capitalize()} {number} added."
    label = f"{state.word} {number} added{note}"[:80]
    change = _commit(state, rows, "add", number - 1, None, rows[-1], label, revealed)
    retries.note(state.sheet, kept or retries.Kept(), message, anchor, change)
    return Done(state.sheet.code, message, anchor)


def keep_step(
    state: State,
    label: str,
    boxes: dict[str, str],
    done: list[str],
    kept: retries.Kept | None = None,
    note: str = "",
) -> Done:
    """Steps ``done`` entered as ``boxes``, checked together: the last step adds the round
    (``note`` joins its logged label), any other is kept in progress."""
    keeper, rows, word = state.keeper, state.rows, state.word
    try:
        keeper.check_step(rows, boxes, done)
        finished = keeper.open_step(done, boxes) is None
        new_rows = keeper.add(rows, keeper.read(boxes)) if finished else None
    except IllegalAction as error:
        raise Refused(error) from None
    if new_rows is not None:
        revealed = revealed_step(state, done) is not None
        return _added(state, new_rows, kept, note, revealed)
    store.save_pending(state.sheet, {"position": len(rows), "done": done, "boxes": boxes})
    message = f"{word.capitalize()} {len(rows) + 1}: {label} saved."
    retries.note(state.sheet, kept or retries.Kept(), message, "#entry-heading")
    state.saved_rounds = len(rows)
    return Done(state.sheet.code, message, "#entry-heading")


def _answered(state: State, shown: Shown) -> Done | None:
    """The answer already given to this kept entry (same key), if it was sent before."""
    prior = retries.answered(state.sheet, shown.kept)
    return None if prior is None else Done(state.sheet.code, prior.message, prior.anchor)


# -- the use cases --------------------------------------------------------------------------


def new_sheet(slug: str, names: list[str], options: dict[str, Any], key: str | None = None) -> str:
    """Start a sheet of game ``slug`` for ``names``; returns its code. :class:`Refused`
    when the game does not accept these players or options. One started offline has an
    idempotency ``key``: sent again, it gives the sheet it made (the same key for other
    players or options is refused)."""
    game = game_of(slug)
    try:
        keeper = game.sheet(names, options)
        keeper.summary([])
    except IllegalAction as error:
        raise Refused(error) from None
    made = store.started(key) if key is not None else None
    if made is None:
        made = store.add_sheet(game.slug, names, keeper.options, start_key=key)
    if (made.game, made.players, made.options) != (game.slug, list(names), keeper.options):
        raise retries.BadKey(
            "This new sheet's key was already used for another sheet: nothing was started."
        )
    return made.code


def add_round(code: str, shown: Shown, boxes: Mapping[str, Any]) -> Done:
    """Add the round entered in ``boxes`` (the form's fields) as round ``shown.position``."""
    with _changing(code) as state:
        prior = _answered(state, shown)
        if prior is not None:
            return prior
        rows, keeper, word = state.rows, state.keeper, state.word
        # An entry kept on a phone (it has a key) adds its round at the end, whatever
        # another phone added meanwhile: every entry is kept, in the order it arrives.
        if shown.key is None:
            _fresh(
                shown,
                len(rows),
                f"The sheet changed on another phone: it now has {len(rows)} {word}s. "
                f"Check it, then enter this {word} again.",
            )
        try:
            new_rows = keeper.add(rows, keeper.read(boxes))
        except IllegalAction as error:
            raise Refused(error) from None
        revealed = revealed_step(state, state.pending["done"]) is not None
        done = _added(state, new_rows, shown.kept, revealed=revealed)
    return done


def edit_round(code: str, number: int, shown: Shown, boxes: Mapping[str, Any]) -> Done:
    """Correct round ``number`` (from 1) to what ``boxes`` hold."""
    with _changing(code) as state:
        prior = _answered(state, shown)
        if prior is not None:
            return prior
        keeper, Word = state.keeper, state.word.capitalize()
        if shown.kept.of is not None:  # a round that was still waiting on this phone
            number = retries.round_added(state.sheet, shown.kept.of)
        index, facts = round_of(state, number)
        # A kept correction (it has a key) is made whatever another phone did to the
        # round meanwhile: both are in the change log, the later one holds.
        if shown.key is None:
            _fresh(
                shown,
                index,
                f"{Word} {number} was changed on another phone since you opened it. "
                "Here it is as it is now: check it and make your correction again.",
                facts,
            )
        try:
            new_rows = keeper.replace(state.rows, index, keeper.read(boxes))
            changed = new_rows[index] != facts
            if changed:
                new_rows = keeper.check(new_rows)
        except IllegalAction as error:
            raise Refused(error) from None
        if changed:
            label = f"{state.word} {number} corrected"
            change = _commit(state, new_rows, "edit", index, facts, new_rows[index], label)
            retries.note(
                state.sheet, shown.kept, f"{Word} {number} corrected.", f"#round-{number}", change
            )
        done = Done(
            code=state.sheet.code,
            message=f"{Word} {number} {'corrected' if changed else 'unchanged'}.",
            anchor=f"#round-{number}",
        )
    return done


def delete_round(code: str, number: int, shown: Shown) -> Done:
    """Delete round ``number`` (from 1); the later rounds move up."""
    with _changing(code) as state:
        word = state.word
        index, facts = round_of(state, number)
        _fresh(
            shown,
            index,
            f"{word.capitalize()} {number} was changed on another phone since you opened it. "
            "Check it below before deleting it.",
            facts,
        )
        stop = count_stop(state)
        if stop:
            raise WrongMoment(stop)
        try:
            new_rows = state.keeper.check(state.keeper.delete(state.rows, index))
        except IllegalAction as error:
            raise Refused(error, f"This {word} can't be deleted: {error.message}") from None
        note = dropped_note(state, new_rows)
        _commit(state, new_rows, "delete", index, facts, None, f"{word} {number} deleted")
        done = Done(state.sheet.code, f"{word.capitalize()} {number} deleted.{note}")
    return done


def undo(code: str, shown: Shown) -> Done:
    """Undo the last change (``shown.position``: the number of the change the button
    named)."""
    return _step_log(code, shown, redo=False)


def redo(code: str, shown: Shown) -> Done:
    """Make the last undone change again."""
    return _step_log(code, shown, redo=True)


def _step_log(code: str, shown: Shown, redo: bool) -> Done:
    verb = "redone" if redo else "undone"
    with _changing(code) as state:
        change = state.first_undone() if redo else state.last_done()
        _fresh(
            shown,
            change.seq if change is not None else None,
            f"The sheet changed on another phone, so nothing was {verb}. "
            "Check it and try again if needed.",
        )
        assert change is not None  # _fresh refused a missing one (position None)
        stop = redo_stop(state, change) if redo else undo_stop(state, change)
        if stop:
            raise WrongMoment(stop)
        old, new = (change.before, change.after) if redo else (change.after, change.before)
        try:
            new_rows = apply(state.keeper, state.rows, change.position, old, new)
        except IllegalAction as error:
            message = f"“{change.label}” can't be {verb}: {error.message}"
            raise Refused(error, message, status=409) from None
        note = dropped_note(state, new_rows)
        store.mark_undone(change, not redo)
        _save(state, new_rows)
        done = Done(state.sheet.code, f"{verb.capitalize()}: {change.label}.{note}", "#totals")
    return done


def repair(code: str, shown: Shown) -> Done:
    """Remove the first round that does not replay (the one the repair page named). The
    rest is stored as it is, even if it still does not replay: the page then names the
    next offending round, so each removal is progress."""
    with _changing(code, replayed=False) as state:
        broken = first_broken(state.keeper, state.rows)
        if broken is None:
            return Done(state.sheet.code, "This sheet needs no repair.")
        index, _ = broken
        rows, word, number = state.rows, state.word, index + 1
        _fresh(
            shown, index, "The sheet changed on another phone, so nothing was removed.", rows[index]
        )
        rest = [*rows[:index], *rows[index + 1 :]]
        _commit(state, rest, "delete", index, rows[index], None, f"{word} {number} removed")
        done = Done(state.sheet.code, f"{word.capitalize()} {number} removed.")
    return done


def save_step(code: str, name: str, shown: Shown, sent: Mapping[str, str]) -> Done:
    """Save step ``name`` of the round in progress from its boxes ``sent`` (form keys to
    text); the last step adds the round."""
    with _changing(code) as state:
        prior = _answered(state, shown)
        if prior is not None:
            return prior
        keeper, rows, word = state.keeper, state.rows, state.word
        step = keeper.step_named(name)
        if step is None:
            raise NotFound()
        if state.over:
            raise WrongMoment(f"This game is over: there is no {word} left to enter.")
        pending = state.pending
        _fresh(
            shown,
            pending["position"],
            f"The sheet changed on another phone: here is {word} {len(rows) + 1} "
            "as it is now. Check it, then enter this step again.",
            [pending["done"], pending["boxes"]],
        )
        if joined(state.sheet) and step.sealed:
            raise WrongMoment(sealed_message(step))
        boxes = {k: v for k, v in pending["boxes"].items() if not step.takes(k)}
        boxes.update(keeper.step_boxes(step, dict(sent)))
        done = pending["done"] if name in pending["done"] else [*pending["done"], name]
        result = keep_step(state, step.label, boxes, done, shown.kept)
    return result


def clear_steps(code: str) -> Done:
    """Throw away the round in progress (its steps saved so far)."""
    with _changing(code, replayed=False) as state:
        message = ""
        sealed = revealed_step(state, state.pending["done"])
        if sealed is not None:
            raise WrongMoment(sealed_message(sealed))
        if state.sheet.pending is not None:
            store.save_pending(state.sheet, None)
            message = f"The {state.word} in progress was cleared."
    return Done(state.sheet.code, message, "#entry-heading")

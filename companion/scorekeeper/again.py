"""Use cases of a sheet as a whole, beside :mod:`.book`'s rounds: a rematch (once a sheet
is over) and a sheet imported from its JSON copy. Each is one locked transaction (or one
insert) in :mod:`.store`, as :mod:`.book`'s are."""

from __future__ import annotations

from ..events import announce, sheet_changed
from ..games import IllegalAction
from ..models import ScoreSheet
from . import store
from .book import Done, _scored, state_of
from .errors import Refused, WrongMoment
from .exports import read_sheet_json


def rematch(code: str) -> Done:
    """A new sheet with the same players and options, once this one is finished. The
    sheet remembers it (under its lock), so a second Rematch (another phone, a double tap)
    opens the same one, and the sheet's share pages are told, to follow it."""
    with store.writing(code) as sheet:
        sheet = _scored(sheet)
        if sheet.rematch_code:
            return Done(sheet.rematch_code, "The rematch is already on: here it is.")
        state = state_of(sheet)
        if not state.over:
            raise WrongMoment(
                f"A rematch starts once this game is over: finish the last {state.word}."
            )
        again = store.add_sheet(sheet.game, sheet.players, sheet.options, commit=False)
        sheet.rematch_code = again.code
        old, rounds = sheet.code, len(state.rows)
        done = Done(again.code, f"Rematch: a new sheet for {', '.join(again.players)}.")
    announce(sheet_changed, old, rounds=rounds)
    return done


def rematch_watch(sheet: ScoreSheet) -> str | None:
    """The watch code of the rematch a sheet started (None before one is)."""
    again = store.find(sheet.rematch_code) if sheet.rematch_code else None
    return store.watch_code_of(again) if again is not None else None


def import_sheet(text: str | bytes) -> str:
    """A new sheet from a JSON copy (:mod:`.exports`); its code. :class:`Refused` when
    the text is not a sheet this app can take."""
    try:
        game, players, options, rounds = read_sheet_json(text)
    except IllegalAction as error:
        raise Refused(error) from None
    return store.add_sheet(game, players, options, rounds).code

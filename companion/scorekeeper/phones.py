"""Use cases of the phones at the table (issue 28): join a sheet under one of its names,
move to another phone, leave, the keeper freeing a name, and entering one box of the
step in progress; and the reads of what each viewer sees. Each change is one locked
transaction (:func:`book.changing`) that announces itself after commit
(``events.sheet_changed``); the rules of the open step are :mod:`.boxes`'.

A phone holds a bearer token (``credentials.new_token``, stored hashed in ``score_seat``,
as Play mode's seats); the sheet's code stays the keeper's credential, and the join code
(``score_sheet.join_code``) only lets a phone take a free name. A phone's own rejoin link
carries its token in the address's fragment: opened on another phone, it trades the token
for a fresh one (:func:`move`), and the first phone is told it no longer holds the name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import codes
from ..credentials import hash_token, new_token, same_hash
from ..games.spec import form_values, is_whole
from ..models import ScoreSeat, ScoreSheet
from . import asking, book, boxes, store
from .errors import NotFound, ScoreError, WrongMoment
from .rounds import next_defaults

GONE = (
    "This phone no longer holds a name on this sheet: it moved to another phone or the "
    "keeper freed it. Take your name again to go on."
)


class PhoneError(ScoreError):
    """A phone's request refused (401 token, 403 not yours, 409 stale, 422 wrong)."""


@dataclass(frozen=True)
class Phone:
    """Who asks: a seat (``seat``), the keeper (``KEEPER``) or nobody (public)."""

    seat: int | None


# -- reads --------------------------------------------------------------------------------


def joined_sheet(join: str) -> ScoreSheet:
    sheet = store.find_joined(codes.normalise(join)[:16])
    if sheet is None or sheet.game not in book.score_slugs():
        raise NotFound()
    return sheet


def holder(sheet: ScoreSheet, token: str | None) -> ScoreSeat | None:
    """The seat ``token`` holds (compared with every stored hash, no early exit)."""
    if token is None:
        return None
    digest, found = hash_token(token), None
    for seat in sheet.seats:
        if same_hash(digest, seat.token_hash):
            found = seat
    return found


def seat_of(sheet: ScoreSheet, token: str | None) -> int:
    seat = holder(sheet, token)
    if seat is None:
        raise PhoneError(GONE if token else "Take a name on this sheet first.", 401)
    return seat.index


def held(sheet: ScoreSheet) -> set[int]:
    return {seat.index for seat in sheet.seats}


def join_code(sheet: ScoreSheet) -> str:
    return store.join_code_of(sheet)


def find_joins(guesses: list[str]) -> list[str]:
    """The join codes among ``guesses`` (``/join`` looks a typed code up here too)."""
    return store.joins_among(guesses)


def look(state: book.State, viewer: int | str) -> dict[str, Any]:
    """Everything ``viewer`` (a seat, ``boxes.KEEPING`` or ``boxes.PUBLIC``) sees of the
    sheet's step in progress, with the sheet's names and totals (as ``Sheet.seen_by``
    lets the viewer see them) and the game's own part (``Sheet.table_view``)."""
    keeper, sheet = state.keeper, state.sheet
    pending = state.pending if not state.over else {**state.pending, "done": []}
    step = None if state.over else boxes.the_step(keeper, pending)
    record = boxes.opened(sheet.open_boxes, pending, step)
    out = boxes.view(keeper, pending, record, step, viewer, held(sheet))
    seat = viewer if isinstance(viewer, int) else None
    summary = keeper.seen_by(state.summary, seat)  # a game's hidden totals: own only
    suggested = form_values(keeper.spec.sheet_fields, next_defaults(summary))
    for box in (out["step"] or {}).get("boxes", []):  # a box not in starts at the round's
        if not box["in"] and box["key"] in suggested:  # suggestion (who challenges next)
            box["field"]["default"] = suggested[box["key"]]
    table = None if state.over else keeper.table_view(state.summary, pending["boxes"], seat)
    out |= {
        "game": keeper.spec.name,
        "word": state.word,
        "names": list(sheet.players),
        "held": sorted(held(sheet)),
        "seat": seat,
        "rounds": len(state.rows),
        "over": state.over,
        "intro": keeper.round_intro(summary) if not state.over else "",
        "sides": summary["sides"],
        "side_names": summary["side_names"],
        "totals": keeper.visible_totals(summary, viewer if isinstance(viewer, int) else None),
        "winners": summary["winners"],
        "table": table,
        # "I am …" requests waiting: the name's phone and the keeper answer them.
        "requests": asking.waiting(sheet, seat) if viewer != boxes.PUBLIC else [],
    }
    return out


def look_phone(join: str, token: str | None) -> dict[str, Any]:
    sheet = joined_sheet(join)
    seat = seat_of(sheet, token)
    return look(book.state_of(sheet), seat) | {"rematch": rematch_join(sheet)}


def rematch_join(sheet: ScoreSheet) -> str | None:
    """The join code of the rematch a finished sheet started (the phones follow it)."""
    again = store.find(sheet.rematch_code) if sheet.rematch_code else None
    return store.join_code_of(again) if again is not None else None


def names_of(join: str) -> dict[str, Any]:
    """The names a phone may take (and which are taken), before it holds one."""
    sheet = joined_sheet(join)
    spec = book.keeper_of(sheet).spec
    return {"game": spec.name, "names": list(sheet.players), "held": sorted(held(sheet))}


# -- changes ------------------------------------------------------------------------------


def join(join_: str, player: Any) -> tuple[int, str]:
    """Take name ``player`` (its place in the sheet's names); returns it and the token."""
    sheet = joined_sheet(join_)
    if not is_whole(player) or not 0 <= player < len(sheet.players):
        raise PhoneError(f"Choose one of the {len(sheet.players)} names on this sheet.", 422)
    with book.changing(sheet.code, replayed=False) as state:
        name = state.sheet.players[player]
        if player in held(state.sheet):
            raise PhoneError(
                f"{name} already has a phone on this sheet. If you are {name} on a new "
                f"phone: open the rejoin link on {name}'s phone, or ask the keeper to free "
                f"{name}.",
                409,
            )
        token = new_token()
        store.add_seat(state.sheet, player, hash_token(token))
        state.announce = True
    return player, token


def move(join_: str, token: str | None) -> tuple[int, str]:
    """A rejoin link opened on another phone: its token traded for a fresh one (the old
    phone no longer holds the name)."""
    sheet = joined_sheet(join_)
    with book.changing(sheet.code, replayed=False) as state:
        seat = holder(state.sheet, token)
        if seat is None:
            raise PhoneError(
                "That rejoin link no longer works (the name moved again or was freed). "
                "Take your name again on the join page.",
                410,
            )
        fresh = new_token()
        seat.token_hash = hash_token(fresh)
        index = seat.index
        state.announce = True
    return index, fresh


def leave(join_: str, token: str | None) -> None:
    """The phone gives its name back."""
    sheet = joined_sheet(join_)
    with book.changing(sheet.code, replayed=False) as state:
        seat = holder(state.sheet, token)
        if seat is None:
            raise PhoneError(GONE, 401)
        store.drop_seat(state.sheet, seat)
        state.announce = True


def free(code: str, player: int) -> book.Done:
    """The keeper frees a name (its phone is lost or moved without its link)."""
    with book.changing(code, replayed=False) as state:
        seat = next((s for s in state.sheet.seats if s.index == player), None)
        if seat is None:
            raise WrongMoment("Nobody's phone holds that name.")
        store.drop_seat(state.sheet, seat)
        state.announce = True
        name = state.sheet.players[player]
    return book.Done(state.sheet.code, f"{name}'s name is free: {name} can join again.", "#phones")


def enter_box(
    code: str, who: int, step_name: Any, key: Any, text: Any, seen: Any, number: Any = None
) -> str:
    """Box ``key`` of step ``step_name`` of round ``number`` (from 1; None: not sent, as
    by a page from before it was) entered as ``text`` by ``who`` (a seat, or
    ``boxes.KEEPER``), who saw it at revision ``seen``. Returns what to tell the sender.
    :class:`PhoneError` (nothing changed) for a stale round, step or box, another's box, a
    bad value; the words never carry another's sealed entry."""
    for value, what in ((step_name, "step"), (key, "key"), (text, "text")):
        if not isinstance(value, str) or len(value) > 80:
            raise PhoneError(f"Send the {what} as text.", 400)
    if seen is not None and not is_whole(seen):
        raise PhoneError("Send the box's revision you saw as a whole number.", 400)
    if number is not None and not is_whole(number):
        raise PhoneError("Send the round you saw as a whole number.", 400)
    with book.changing(code) as state:
        if state.over:
            raise PhoneError(f"This game is over: there is no {state.word} left to enter.", 409)
        keeper, pending = state.keeper, state.pending
        step = boxes.the_step(keeper, pending)
        record = boxes.opened(state.sheet.open_boxes, pending, step)
        # An empty box is at revision 0 in every round: the round tells a bid sent for
        # one deal from the same box of the next (the keeper added or undid a round).
        now_at = pending["position"] + 1
        if number is not None and number != now_at:
            raise PhoneError(
                f"The sheet moved on to {state.word} {now_at}: look at it again before entering.",
                409,
            )
        if step is None or step.name != step_name:
            now = f"the {step.label}" if step is not None else "nothing"
            raise PhoneError(f"The sheet moved on: it is now waiting for {now}.", 409)
        try:
            outcome = boxes.enter(keeper, state.rows, pending, record, step, key, text, who, seen)
        except boxes.BoxRefused as error:
            raise PhoneError(error.message, error.status) from None
        message = f"{keeper.box_label(step, key)}: in."
        if outcome.merged is not None:
            note = boxes.keeper_entered(keeper, step, outcome.record)
            extra = f" (entered by the keeper: {', '.join(note)})" if note else ""
            done = book.keep_step(state, step.label, outcome.merged, outcome.done, note=extra)
            outcome.record |= {"boxes": {}, "step": None, "by_keeper": note}
            message = done.message
        elif outcome.problem:
            message = outcome.problem
        store.save_open(state.sheet, outcome.record)
        state.announce = True
    return message

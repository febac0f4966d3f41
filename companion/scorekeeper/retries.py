"""Changes sent with an idempotency key (issue 27): a phone keeps each entry until the
server has answered it and sends it with its id in the ``Idempotency-Key`` header
(``static/js/score.js``). When an answer is lost (the connection dropped after the save),
the phone sends the entry again; the server finds the key it already stored with that
sheet and answers the same again — saved, never "changed on another phone", never twice.

The key is stored in the transaction of the change it names, under the sheet's lock, so a
retry racing the first send waits for it and then finds its key. With it are stored a
digest of what was sent (the same key with other content is refused: nothing changes) and
the number of the change it made, so an entry kept after it on the same phone — the
correction or the undo of a round still waiting when it was made — names that change by
the key (the form's ``of``), whatever number the round got when it arrived.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from werkzeug.datastructures import MultiDict

from ..models import ScoreChange, ScoreRequest, ScoreSheet
from . import store
from .errors import ScoreError

HEADER = "Idempotency-Key"
REFERENCE = "of"  # the form field naming an earlier kept entry by its key
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
NOT_SENT = {"csrf_token"}


class BadKey(ScoreError):
    """A key that is not one, or one already used for something else: nothing changes."""

    status = 400


@dataclass(frozen=True)
class Kept:
    """What a kept entry carries besides its form: its key, a digest of what it sends,
    and the key of the earlier kept entry it corrects or undoes (``of``)."""

    key: str | None = None
    digest: str | None = None
    of: str | None = None


def _checked(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not KEY.fullmatch(value):
        raise BadKey(
            f"This entry's {what} is not one this app makes (8 to 64 letters, digits, - or _): "
            "nothing was saved."
        )
    return value


def key_of(headers) -> str | None:
    """The request's idempotency key; None when it sends none, :class:`BadKey` when the
    header holds something else."""
    return _checked(headers.get(HEADER), "key")


def digest_of(path: str, fields: Iterable[tuple[str, str]]) -> str:
    """What an entry sends, in 40 hex digits: its address and its fields (the CSRF token
    left out, which a page may renew)."""
    sent = sorted((k, v) for k, v in fields if k not in NOT_SENT)
    data = json.dumps([path, sent], separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:40]


def kept_of(headers, path: str, form: MultiDict) -> Kept:
    """The key, digest and reference of a request (all None when it sends no key)."""
    key = key_of(headers)
    if key is None:
        return Kept()
    of = _checked(form.get(REFERENCE) or None, "reference")
    return Kept(key, digest_of(path, form.items(multi=True)), of)


def answered(sheet: ScoreSheet, kept: Kept) -> ScoreRequest | None:
    """The answer already given to this key on this sheet, if any; :class:`BadKey` when
    the key was used for an entry with other content."""
    if kept.key is None:
        return None
    prior = store.request_of(sheet, kept.key)
    if prior is not None and prior.digest and kept.digest and prior.digest != kept.digest:
        raise BadKey(
            "This entry's key was already used for a different entry on this sheet: "
            "nothing was saved. Enter it again."
        )
    return prior


def change_named(sheet: ScoreSheet, of: str) -> ScoreChange:
    """The logged change an earlier kept entry of the phone (key ``of``) made: 422 when it
    made none on this sheet (it was refused, or the key was never sent here)."""
    prior = store.request_of(sheet, of)
    change = store.change_of(sheet, prior.change_seq) if prior and prior.change_seq else None
    if change is None:
        raise ScoreError(
            "The entry this one follows was not saved on this sheet, so this one was not "
            "either: check the sheet and enter it again if needed.",
            status=422,
        )
    return change


def moved(sheet: ScoreSheet, position: int, since: int) -> int | None:
    """Where the round at ``position`` (from 0) after change number ``since`` is now:
    moved up by each round deleted before it since, down by each put back before it;
    None when it was deleted since. Undone changes are reverted, so they are skipped."""
    for later in sheet.changes:
        if later.seq <= since or later.undone:
            continue
        if later.kind == "delete" and later.position == position:
            return None
        if later.kind == "delete" and later.position < position:
            position -= 1
        elif later.kind == "add" and later.position <= position:
            position += 1
    return position


def round_added(sheet: ScoreSheet, of: str) -> int:
    """The number (from 1) the round an earlier kept entry (key ``of``) added has now
    (:func:`moved`): 422 when it is no longer there (undone, or deleted since)."""
    change = change_named(sheet, of)
    now = None
    if change.kind == "add" and not change.undone:
        now = moved(sheet, change.position, change.seq)
    if now is None:
        raise ScoreError(
            "The round this entry was for is no longer on the sheet (it was undone or "
            "deleted): nothing was changed.",
            status=422,
        )
    return now + 1


def note(
    sheet: ScoreSheet, kept: Kept, message: str, anchor: str, change: ScoreChange | None = None
) -> None:
    """Store the answer to the kept entry with the change being made (its transaction
    commits)."""
    if kept.key is not None:
        seq = change.seq if change is not None else None
        store.keep_request(sheet, kept.key, message[:300], anchor[:40], kept.digest, seq)

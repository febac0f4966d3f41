"""Changes sent with an idempotency key (issue 27): a phone keeps each entry until the
server has answered it and sends it with its id in the ``Idempotency-Key`` header
(``static/js/score.js``). When an answer is lost (the connection dropped after the save),
the phone sends the entry again; the server finds the key it already stored with that
sheet and answers the same again — saved, never "changed on another phone", never twice.

The key is stored in the transaction of the change it names, under the sheet's lock, so a
retry racing the first send waits for it and then finds its key.
"""

from __future__ import annotations

import re

from ..models import ScoreRequest, ScoreSheet
from . import store

HEADER = "Idempotency-Key"
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def key_of(headers) -> str | None:
    """The request's idempotency key, when it is one (8 to 64 letters, digits, - or _)."""
    key = (headers.get(HEADER) or "").strip()
    return key if KEY.fullmatch(key) else None


def answered(sheet: ScoreSheet, key: str | None) -> ScoreRequest | None:
    """The answer already given to ``key`` on this sheet, if any."""
    return None if key is None else store.request_of(sheet, key)


def note(sheet: ScoreSheet, key: str | None, message: str, anchor: str) -> None:
    """Store the answer to ``key`` with the change being made (its transaction commits)."""
    if key is not None:
        store.keep_request(sheet, key, message[:300], anchor[:40])

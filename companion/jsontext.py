"""JSON text on the hot path of a move: the snapshot and the log's row written, the table's
facts sent to the other processes, every stream's event. orjson encodes these some eight
times faster than the standard library (measured in bench/README.md, "A move and its
fan-out"); a value it refuses (an integer past 64 bits) falls back to :mod:`json`.

The text is the same JSON as ``json.dumps(value, separators=(",", ":"))`` gives, except
that characters outside ASCII are written as themselves (UTF-8) rather than as ``\\u``
escapes: the same value to any JSON reader. Keys must be strings, as everywhere in the
app's JSON (a state keeps only JSON-safe data: ``games.base``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> str:
    """``value`` as compact JSON text."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson's refusals (a huge integer, a non-string key): as before
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)

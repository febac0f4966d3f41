"""The JSON API's door check: every POST body is looked at before any route reads it.

A body must be a JSON object, nested no deeper than ``MAX_JSON_DEPTH`` (counted on the raw
text before parsing, so a hostile body never reaches the parser's recursion), carrying
only the fields its route declares in :data:`FIELDS`, each of the declared JSON type.
Anything else is answered 400 with the API's JSON error and changes nothing.

Whole numbers are type-strict: JSON ``true`` and ``1.0`` are equal to ``1`` in Python,
so they are refused here rather than let through to a comparison.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import request

from ..games import GAMES
from ..games.spec import is_whole
from .errors import TableError

MAX_JSON_DEPTH = 16

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def too_deep(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when the JSON text ``raw`` nests arrays/objects deeper than ``limit``
    (brackets inside strings do not count)."""
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        if match.group() in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def whole(name: str, value: Any, body: dict) -> None:
    if not is_whole(value):
        raise TableError(400, f'"{name}" must be a whole number (not {kind_of(value)}).')


def optional_whole(name: str, value: Any, body: dict) -> None:
    if value is not None:
        whole(name, value, body)


def text(name: str, value: Any, body: dict) -> None:
    if not isinstance(value, str):
        raise TableError(400, f'"{name}" must be text (not {kind_of(value)}).')


def optional_text(name: str, value: Any, body: dict) -> None:
    if value is not None:
        text(name, value, body)


def optional_levels(name: str, value: Any, body: dict) -> None:
    """A list with one entry per seat: null (a person) or a bot level as text."""
    if value is None:
        return
    if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
        raise TableError(400, f'"{name}" must be a list of bot levels or null, one per seat.')


def obj(name: str, value: Any, body: dict) -> None:
    if not isinstance(value, dict):
        raise TableError(400, f'"{name}" must be an object (not {kind_of(value)}).')


def optional_obj(name: str, value: Any, body: dict) -> None:
    if value is not None:
        obj(name, value, body)


def action(name: str, value: Any, body: dict) -> None:
    """An action holds only text, whole numbers, lists and objects: no game's legal
    action has a boolean, a fraction or null in it (tests/web/test_api_guard.py sweeps
    them), and ``true`` or ``1.0`` would otherwise compare equal to a legal ``1``."""
    obj(name, value, body)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif not (isinstance(item, str) or is_whole(item)):
            got = kind_of(item)
            raise TableError(
                400, f"An action holds only text, whole numbers, lists and objects, not {got}."
            )


# Option kinds whose JSON type is fixed: checked here, the rest by the game's spec (422).
OPTION_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (is_whole, "a whole number"),
    "seat": (is_whole, "a whole number"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "ints": (lambda v: isinstance(v, list) and all(is_whole(i) for i in v), "whole numbers"),
}


def options(name: str, value: Any, body: dict) -> None:
    if value is None:
        return
    obj(name, value, body)
    game = GAMES.get(body.get("game")) if isinstance(body.get("game"), str) else None
    if game is None:
        return  # the service names the games it knows
    for option in game.spec.options:
        if option.name in value and option.kind in OPTION_TYPES:
            check, wanted = OPTION_TYPES[option.kind]
            if not check(value[option.name]):
                got = kind_of(value[option.name])
                raise TableError(400, f'Option "{option.name}" must be {wanted} (not {got}).')


def kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, float):
        return "a fraction"
    if value is None:
        return "null"
    return {
        str: "text",
        int: "a whole number",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


Check = Callable[[str, Any, dict], None]

# The fields each POST route of the API takes (an empty body, or none, is always fine).
FIELDS: dict[str, dict[str, Check]] = {
    "tables.api_create": {
        "game": text,
        "players": whole,
        "options": options,
        "deal": optional_obj,
        "bots": optional_levels,
    },
    "tables.api_join": {"name": text, "seat": optional_whole},
    "tables.api_act": {"action": action, "version": whole},
    "tables.api_undo": {"version": optional_whole},
    "tables.api_rematch": {},
    "tables.api_release": {},
    "tables.api_rejoin": {},
    "tables.api_seat_transfer": {},
    "tables.api_host_transfer": {},
    "tables.api_claim": {"ticket": text},
    "tables.api_ask": {"name": optional_text},
    "tables.api_answer": {},
    "tables.api_stream_ticket": {},
    "tables.api_bot": {"level": text},
}


def check_body() -> None:
    """``before_request`` of the tables blueprint: refuse a bad POST body to the API."""
    if request.method != "POST" or not request.path.startswith("/api/"):
        return
    raw = request.get_data(cache=True)
    if not raw.strip():
        return
    if not request.is_json:
        raise TableError(400, "Send a JSON body with Content-Type: application/json.")
    if too_deep(raw):
        raise TableError(400, f"The JSON body is nested too deeply (at most {MAX_JSON_DEPTH}).")
    body = request.get_json(silent=True)
    if body is None:
        raise TableError(400, "The body is not valid JSON.")
    if not isinstance(body, dict):
        raise TableError(400, "The body must be a JSON object.")
    fields = FIELDS.get(request.endpoint or "")
    if fields is None:
        return
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise TableError(400, f"Unknown field: {', '.join(unknown)}.")
    for name, check in fields.items():
        if name in body:
            check(name, body[name], body)

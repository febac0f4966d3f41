"""What a client sees: the envelope (the one answer shape of ``view`` and ``actions``,
see docs/api.md), the seat news in it, the cards a seat may not play and why, and the
address phones join at. Envelopes are built once per (table, version, viewer) and kept
for a few seconds (:mod:`.kept`); the viewer is part of the key, so one seat's hand is
never served to another viewer.
"""

from __future__ import annotations

from typing import Any

from ..games.base import State
from ..network import base_url
from ..rules import has_rules, rule_url
from . import kept, store
from .tokens import Who

MISSING = object()


def envelope(table: Any, who: Who, state: State | None = None) -> dict[str, Any]:
    """The one answer shape for ``view`` and ``actions`` (see docs/api.md)."""
    state = state or store.state_of(table)
    is_started = store.started(table)
    mine = viewer_fields(table, who, state, is_started)
    news = shared_news(table, state, is_started)
    return {
        "version": table.version,
        "seat": mine["seat"],
        "to_act": state.to_act() if is_started else [],
        "legal": mine["legal"],
        "over": state.is_over(),
        "view": mine["view"],
        "game": table.game,
        "code": table.code,
        "players": store.seat_names(table),
        "started": is_started,
        "host": mine["host"],
        "can_undo": mine["can_undo"],
        "labels": mine["labels"],
        "blocked": mine["blocked"],
        "scores": mine["scores"],
        "last_undo": table.last_undo,
        "rematch": table.rematch_code,
        "seat_changes": news["seat_changes"],
        "missing": news["missing"],
        "begun": news["begun"],
        "requests": mine["requests"],
        "bots": news["bots"],
        "bot_seats_asked": news["bot_seats_asked"],
    }


def viewer_fields(table: Any, who: Who, state: State, is_started: bool) -> dict[str, Any]:
    """The fields of an envelope that depend on who looks (every other field is the same
    for every viewer of a version), in the envelope's order."""
    seat = who.seat
    legal = state.legal_actions(seat) if seat is not None and is_started else []
    view = state.view(seat)
    return {
        "seat": seat,
        "legal": legal,
        "view": view,
        "host": who.host,
        "can_undo": who.host and state.moves > 0,
        "labels": [state.describe(action) for action in legal],
        "blocked": blocked_cards(table.game, state, seat) if is_started else {},
        "scores": view["scores"] if state.is_over() else None,
        "requests": pending_requests(table, who),
    }


def own_part(public: dict[str, Any], table: Any, who: Who, state: State) -> dict[str, Any] | None:
    """``private_part(public, envelope(table, who, state))`` without building the fields
    every viewer shares (``public`` is the spectator's envelope of the same version):
    a stream event's part for each seat is built this way (``stream.ready_lines``)."""
    return differences(public, viewer_fields(table, who, state, public["started"]))


def news_of(table: Any) -> dict[str, Any]:
    """A copy of what every envelope says about the seats, kept on the table row so that
    the hot path (an action) reads nothing more: ``changes`` (latest per seat, oldest
    first), ``missing`` (a freed seat's last name, by seat) and pending ``requests``."""
    news = table.seat_news or {}
    return {
        "changes": [dict(c) for c in news.get("changes", [])],
        "missing": dict(news.get("missing", {})),
        "requests": [dict(r) for r in news.get("requests", [])],
    }


def shared_news(table: Any, state: State, is_started: bool) -> dict[str, Any]:
    """What every phone is told about the seats, from the table row alone: the latest
    change of each seat (moved to another phone, freed, taken again; ``seat`` None for the
    host role), the free seats with their last names (``missing``), whether the game had
    begun (the board stays while a seat is free), and each seat's bot level."""
    news = table.seat_news or {}
    last_names = news.get("missing", {})
    taken = {s.index for s in table.seats}
    missing = [
        {"seat": seat, "name": last_names.get(str(seat))}
        for seat in range(table.players)
        if seat not in taken
    ]
    return {
        "seat_changes": [dict(c) for c in news.get("changes", [])],
        "missing": missing,
        "begun": is_started or state.moves > 0 or any(m["name"] for m in missing),
        "bots": levels_of(table),
        # once a move is made, a bot's seat is asked for (the host answers), not taken
        "bot_seats_asked": state.moves > 0,
    }


def pending_requests(table: Any, who: Who) -> list[dict[str, Any]]:
    """The pending requests for a seat, shown only to the host and to that seat."""
    if not who.host and who.seat is None:
        return []
    asked = (table.seat_news or {}).get("requests", [])
    if not asked:
        return []
    names = store.seat_names(table)
    moment = store.now().isoformat()
    return [
        {**r, "seat_name": names[r["seat"]], "status": "pending"}
        for r in asked
        if r["expires_at"] > moment and (who.host or r["seat"] == who.seat)
    ]


def levels_of(table: Any) -> list[str | None]:
    """Each seat's bot level (None for a person or a free seat), as envelopes carry it."""
    levels: list[str | None] = [None] * table.players
    for s in table.seats:
        levels[s.index] = s.bot
    return levels


def blocked_cards(slug: str, state: State, seat: int | None) -> dict[str, dict[str, str]]:
    """The viewing seat's own cards it may not play now: the engine's reason and a link
    to the rule (``/rules/<slug>#anchor``); nothing for the table or another seat."""
    answer = {}
    for card, why in state.blocked(seat).items():
        anchor = why.get("anchor") or None
        url = rule_url(slug, anchor) if has_rules(slug) else ""
        answer[card] = {"reason": why["reason"], "anchor": anchor or "", "url": url}
    return answer


# -- kept envelopes -----------------------------------------------------------------------


def shared_state(table: Any) -> State:
    """The table's restored state at its current version, shared by every viewer; it is
    only read (``envelope`` never changes it)."""
    return kept.states().get((table.code, table.version), lambda: store.state_of(table))


def kept_envelope(table: Any, who: Who, keep: bool = True) -> dict[str, Any]:
    """:func:`envelope` of ``table`` for ``who``, built once per (table, version, viewer).
    ``keep=False``: a kept one serves, but one built now is not kept (a viewer's own
    stream builds its envelope once per version: kept for seconds, it would only age into
    the garbage collector's oldest generation and lengthen every full collection)."""
    key = (table.code, table.version, *who.viewer)
    if not keep:
        found = kept.envelopes().peek(key)
        return found if found is not None else envelope(table, who, shared_state(table))
    return kept.envelopes().get(key, lambda: envelope(table, who, shared_state(table)))


def public(code: str, version: int) -> dict[str, Any] | None:
    """The spectator's envelope of ``code`` at ``version`` if it is kept."""
    return kept.envelopes().peek((code, version, False, None))


def private_part(public: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any] | None:
    """What ``mine`` (a viewer's envelope) adds to ``public`` (the spectator's envelope of
    the same version, which the phone has from its stream event): the fields that differ,
    and of ``view`` the keys that differ. ``{**public, **part, "view": {**public["view"],
    **part["view"]}}`` is ``mine`` again; ``None`` when that shallow merge could not
    rebuild it (a key of ``public`` that ``mine`` lacks)."""
    if set(public) - set(mine):
        return None
    return differences(public, mine)


def differences(public: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of ``mine`` (a whole envelope, or only the fields that depend on the
    viewer) that differ from ``public``'s, and of ``view`` the keys that differ, with
    ``public``'s version; None when ``mine``'s view lacks a key of ``public``'s."""
    view, public_view = mine.get("view"), public.get("view")
    if not isinstance(view, dict) or not isinstance(public_view, dict):
        return None
    if set(public_view) - set(view):
        return None
    part = {k: v for k, v in mine.items() if k != "view" and public.get(k, MISSING) != v}
    part["view"] = {k: v for k, v in view.items() if public_view.get(k, MISSING) != v}
    part["version"] = public["version"]
    part["partial"] = True
    return part


def own_view(table: Any, who: Who, since: str | None) -> dict[str, Any]:
    """The viewer's envelope; only what it adds to the public one when the caller says it
    has that version's public envelope (``since``, the ``?private=`` of a view)."""
    mine = kept_envelope(table, who)
    if since == str(table.version) and (who.host or who.seat is not None):
        part = private_part(kept_envelope(table, Who()), mine)
        if part is not None:
            return part
    return mine


# -- the address phones use ---------------------------------------------------------------


def join_url(code: str, host_url: str) -> str:
    """Where a phone joins: ``PUBLIC_URL``, else this request's address, with a loopback
    host replaced by this machine's LAN address (phones cannot reach ``localhost``)."""
    return base_url(host_url) + f"/t/{code}/seat"


def watch_url(host_url: str, path: str) -> str:
    return base_url(host_url) + path

"""Rate limits against abuse, with Flask-Limiter (memory storage by default, Redis when
``REDIS_URL`` is set, so every worker counts against the same numbers).

The limits are kept apart from the routes: :data:`RULES` names each limited group of
endpoints, and :func:`init_app` wraps those endpoints' views once the blueprints are
registered, so a route file needs no decorator and a new route that takes a table or
sheet code (``<code>``, ``<watch>``) is covered by the look-up limit by itself.

Numbers are per client address (``PROXY_HOPS`` tells how many proxies to trust for it).
A venue's phones share one public address behind its router, so the limits are set for a
whole room playing, not for one phone:

* ``create``: new tables and score sheets (each POST of the forms and the API);
* ``lookup``: requests that name a code, counted only when the code (or what hangs off
  it) is *not* found, so normal play never counts, while guessing codes stops after a
  few dozen misses. Once the limit is reached, every code look-up from that address is
  refused until the window has moved on, found or not (else a hit among the refusals
  would give the code away);
* ``join``, ``seat_request``: taking a seat, asking for a taken one;
* ``claim``: trading a one-time ticket for a token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix


@dataclass(frozen=True)
class Rule:
    config: str  # the config key holding the limit string
    endpoints: tuple[str, ...]
    methods: tuple[str, ...] | None = None  # None: every method
    deduct_when: Callable | None = None  # None: every request counts
    by_code: bool = False  # also every endpoint whose URL takes a code


def not_found(response) -> bool:
    return response.status_code == 404


RULES: dict[str, Rule] = {
    "create": Rule(
        "RATELIMIT_CREATE",
        ("tables.api_create", "tables.new", "scorekeeper.new", "scorekeeper.rematch"),
        methods=("POST",),
    ),
    "lookup": Rule(
        "RATELIMIT_LOOKUP",
        ("tables.join_page", "scorekeeper.index"),
        deduct_when=not_found,
        by_code=True,
    ),
    "join": Rule("RATELIMIT_JOIN", ("tables.api_join",)),
    "seat_request": Rule("RATELIMIT_SEAT_REQUEST", ("tables.api_ask",)),
    "claim": Rule("RATELIMIT_CLAIM", ("tables.api_claim",)),
}

# URL arguments that name a table or a score sheet.
CODE_ARGUMENTS = {"code", "watch"}

DEFAULTS = {
    "RATELIMIT_CREATE": "60 per minute; 600 per hour",
    "RATELIMIT_LOOKUP": "30 per minute; 300 per hour",
    "RATELIMIT_JOIN": "300 per minute",
    "RATELIMIT_SEAT_REQUEST": "60 per minute",
    "RATELIMIT_CLAIM": "60 per minute",
}


def settings(environ) -> dict:
    """The limits' config from the environment (``RATELIMIT_ENABLED=0`` turns them off)."""
    values = {name: environ.get(name) or value for name, value in DEFAULTS.items()}
    values["RATELIMIT_ENABLED"] = environ.get("RATELIMIT_ENABLED", "1") != "0"
    values["PROXY_HOPS"] = int(environ.get("PROXY_HOPS") or 0)
    return values


def limited_endpoints(app: Flask, rule: Rule) -> list[str]:
    names = set(rule.endpoints)
    if rule.by_code:
        names |= {
            url_rule.endpoint
            for url_rule in app.url_map.iter_rules()
            if CODE_ARGUMENTS & set(url_rule.arguments)
        }
    return sorted(name for name in names if name in app.view_functions)


def limit_of(config: str) -> Callable[[], str]:
    return lambda: current_app.config[config]


def init_app(app: Flask) -> Limiter:
    """Bind a limiter to ``app`` (after its blueprints are registered)."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.config.setdefault("RATELIMIT_ENABLED", True)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_STRATEGY", "sliding-window-counter")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "companion")
    # A storage outage must not take the app down: count in memory until it is back.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)

    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    # One limiter per app: its limits are registered by view name, and tests build many apps.
    limiter = Limiter(get_remote_address, app=app)
    for scope, rule in RULES.items():
        for endpoint in limited_endpoints(app, rule):
            limit = limiter.shared_limit(
                limit_of(rule.config),
                scope=scope,
                methods=list(rule.methods) if rule.methods else None,
                deduct_when=rule.deduct_when,
            )
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    app.extensions["companion.limiter"] = limiter  # the limits hold it only weakly
    return limiter

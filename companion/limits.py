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
* ``claim``: trading a one-time ticket for a token;
* ``solo``: Play solo tables (each one starts bots at once, so fewer than ``create``);
* ``bot_seats``: bot seats made (a solo table's, a new table's ``bots``, the host's "seat
  a bot"), counted by seat, only when the request made them;
* ``token``: requests on a table answered 401 (a token or a ticket that is not good
  there), counted per address *and table*; past the limit every request naming that
  table from that address is refused, so tokens cannot be tried by the thousand.

**Holders are not counted.** A request whose bearer token holds a seat or the host at
the table its URL names (in the role its route takes), or whose stream ticket was issued
to one, is exempt from ``lookup`` and ``token`` (Flask-Limiter's ``exempt_when``:
:func:`companion.tables.holders.holds_the_table`), so a move, a view or a stream ticket
of a phone that plays makes no round trip to the limits' storage (four a request on
Redis before: two limits, a minute and an hour each). Those two limits exist only to stop
guessing codes and tokens, and such a request guesses nothing: its holder already knows
the code, and a token is 256 random bits (``secrets.token_urlsafe(32)``), so a guesser
who could make a request exempt would already hold the token; exempting the correct one
tells a guesser nothing it could use. A request without a valid credential for the table
it names (none, a forged one, another table's, the host's on a seat's route...) is
counted as before, and past the limit refused whether the code exists or not, so a hit
among the refusals still gives no code away. The credential is checked once a request:
the exemption finds the table this process keeps (else reads it, and keeps it for the
view), and the view's ``tokens.identify`` finds the answer kept on ``flask.g``. A view
whose every limit exempts alike (a move, a view...) calls the plain view for a holder,
without Flask-Limiter's wrapper (:func:`skipped_when`).

A look-up costs one per code it tries: ``/join?code=`` tries each look-alike reading of
what was typed (O as D or Q…, up to ``codes.MAX_GUESSES``), and each counts (at most a
whole minute's allowance for one look-up, so such a code can still be found).

The bots' thinking time per client is limited apart from these (it is spent off the
request path): see ``BOT_THINKING`` in :mod:`companion.tables.bots`.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from . import codes
from .tables.holders import holds_the_table


@dataclass(frozen=True)
class Rule:
    config: str  # the config key holding the limit string
    endpoints: tuple[str, ...]
    methods: tuple[str, ...] | None = None  # None: every method
    deduct_when: Callable | None = None  # None: every request counts
    by_code: bool = False  # also every endpoint whose URL takes a code
    cost: Callable[[], int] | int = 1  # what one request counts
    key: Callable[[], str] = get_remote_address  # whom it counts against
    exempt_when: Callable[[], bool] | None = None  # None: no request is exempt


def not_found(response) -> bool:
    return response.status_code == 404


def made(response) -> bool:
    return response.status_code < 400


def unauthorised(response) -> bool:
    return response.status_code == 401


def codes_tried() -> int:
    """A look-up's cost: how many codes its ``?code=`` tries (one when it names none), at
    most the smallest allowance of the look-up limit (so that a code typed with many
    look-alikes can still be looked up, using a whole window's allowance)."""
    typed = request.args.get("code")
    if not typed:  # every request but /join's and the score page's look-ups (a move too)
        return 1
    tried = max(1, len(codes.candidates(typed[:40])))
    allowance = min(item.amount for item in parse_many(current_app.config["RATELIMIT_LOOKUP"]))
    return min(tried, allowance)


# The bot levels of a new table's JSON "bots" list, read on the raw text (the body is
# checked, depth first, only by the API's own door; it is not parsed here).
_BOTS_LIST = re.compile(rb'"bots"\s*:\s*\[([^\]]*)\]')
_LEVEL = re.compile(rb'"[^"]*"')


def bot_seats_asked() -> int:
    """How many bot seats a request asks for (counted once the request made them)."""
    endpoint = request.endpoint or ""
    if endpoint.endswith(".api_bot"):
        return 1
    if request.is_json:
        found = _BOTS_LIST.search(request.get_data(cache=True))
        return len(_LEVEL.findall(found.group(1))) if found else 0
    form = request.form
    if "level" in form:  # Play solo: every seat but the player's
        try:
            return max(1, int(form.get("players") or 2) - 1)
        except ValueError:
            return 1
    return sum(1 for name, value in form.items() if name.startswith("bot-") and value)


def client_and_table() -> str:
    """The ``token`` limit's key: the client address and the table (a wrong token on one
    table does not lock its players out of another)."""
    code = codes.normalise((request.view_args or {}).get("code", ""))
    return f"{get_remote_address()}/{code}"


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
        cost=codes_tried,
        exempt_when=holds_the_table,
    ),
    "join": Rule("RATELIMIT_JOIN", ("tables.api_join",)),
    "seat_request": Rule("RATELIMIT_SEAT_REQUEST", ("tables.api_ask",)),
    "claim": Rule("RATELIMIT_CLAIM", ("tables.api_claim",)),
    "solo": Rule("RATELIMIT_SOLO", ("tables.solo",), methods=("POST",)),
    "bot_seats": Rule(
        "RATELIMIT_BOT_SEATS",
        ("tables.solo", "tables.new", "tables.api_create", "tables.api_bot"),
        methods=("POST",),
        deduct_when=made,
        cost=bot_seats_asked,
    ),
    "token": Rule(
        "RATELIMIT_TOKEN",
        (),
        deduct_when=unauthorised,
        by_code=True,
        key=client_and_table,
        exempt_when=holds_the_table,
    ),
}

# URL arguments that name a table or a score sheet.
CODE_ARGUMENTS = {"code", "watch"}

DEFAULTS = {
    "RATELIMIT_CREATE": "60 per minute; 600 per hour",
    "RATELIMIT_LOOKUP": "30 per minute; 300 per hour",
    "RATELIMIT_JOIN": "300 per minute",
    "RATELIMIT_SEAT_REQUEST": "60 per minute",
    "RATELIMIT_CLAIM": "60 per minute",
    "RATELIMIT_SOLO": "20 per minute; 120 per hour",
    "RATELIMIT_BOT_SEATS": "60 per minute; 300 per hour",
    "RATELIMIT_TOKEN": "60 per minute; 300 per hour",
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
    missing = sorted(set(rule.endpoints) - set(app.view_functions))
    if missing:  # a renamed view must not lose its limit silently
        raise RuntimeError(f"{rule.config} names views that do not exist: {missing}")
    return sorted(names)


def limit_of(config: str) -> Callable[[], str]:
    return lambda: current_app.config[config]


def init_app(app: Flask) -> Limiter:
    """Bind a limiter to ``app`` (after its blueprints are registered)."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.config.setdefault("RATELIMIT_ENABLED", True)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_STRATEGY", "sliding-window-counter")
    # No X-RateLimit-* headers: they cost every limited request one more read of the
    # storage (a Redis round trip of the five a move made with them; bench/README.md,
    # session 34), and the limits here count failures, which a working client never
    # sees. A refusal still says when to come back (``retry_after`` below).
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "companion")
    # A storage outage must not take the app down: count in memory until it is back.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)

    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    # One limiter per app: its limits are registered by view name, and tests build many apps.
    limiter = Limiter(get_remote_address, app=app)
    drop_the_request_pass(app, limiter)
    plain = dict(app.view_functions)
    rules_of: dict[str, list[Rule]] = {}
    for scope, rule in RULES.items():
        for endpoint in limited_endpoints(app, rule):
            rules_of.setdefault(endpoint, []).append(rule)
            limit = limiter.shared_limit(
                limit_of(rule.config),
                scope=scope,
                key_func=rule.key,
                methods=list(rule.methods) if rule.methods else None,
                deduct_when=rule.deduct_when,
                cost=rule.cost,
                exempt_when=rule.exempt_when,
            )
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    for endpoint, rules in rules_of.items():
        exempt = {rule.exempt_when for rule in rules}
        if len(exempt) == 1 and None not in exempt:  # every limit of the view exempts alike
            limited = app.view_functions[endpoint]
            skipped = skipped_when(limiter, exempt.pop(), limited, plain[endpoint])
            app.view_functions[endpoint] = skipped
    app.extensions["companion.limiter"] = limiter  # the limits hold it only weakly
    app.after_request(retry_after)
    return limiter


def drop_the_request_pass(app: Flask, limiter: Limiter) -> None:
    """Every limit here is a view's, tested by the view's own wrapper. Flask-Limiter also
    tests, before every request, the limits set for the whole app (default, application
    and meta limits): this app sets none, so that pass can refuse nothing, yet it works
    out the view's limits on every request (0.1 ms of a move, bench/README.md, session
    39). It is taken out unless one of those is configured."""
    whole_app = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")
    if any(app.config.get(name) for name in whole_app):
        return
    passes = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in passes:
        passes.remove(limiter._check_request_limit)


def skipped_when(
    limiter: Limiter, exempt: Callable[[], bool], limited: Callable, plain: Callable
) -> Callable:
    """A view whose every limit is exempt when ``exempt()`` holds: then ``plain`` is called
    without Flask-Limiter's wrapper, which would come to the same (no limit tested or
    counted) after resolving and filtering the view's limits, some 0.1 ms of CPU a request
    (bench/README.md, ``limits4``); otherwise the limited view, which asks ``exempt``
    again (kept for the request: see ``holders.holds_the_table``). With the limits off,
    the limited view at once (it tests nothing then), and ``exempt`` is never asked."""

    @functools.wraps(plain)
    def view(*args, **kwargs):
        if limiter.enabled and exempt():
            return plain(*args, **kwargs)
        return limited(*args, **kwargs)

    return view


def retry_after(response):
    """A refusal by a limit says in ``Retry-After`` when its window lets the client in
    again (read from the storage for a 429 only; the other answers carry no limit's
    headers). An answer that set its own (a refused stream) keeps it."""
    if response.status_code != 429 or "Retry-After" in response.headers:
        return response
    limiter = current_app.extensions.get("companion.limiter")
    breached = limiter.current_limit if limiter is not None else None
    if breached is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(breached.reset_at - time.time())))
    return response

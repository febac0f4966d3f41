"""Live streams of a table: every committed change is published on the table's channel
(:func:`on_table_changed`, a receiver of ``events.table_changed``), and each open stream
turns the message into a ``version`` event carrying the public envelope and, on a seat's
or the host's stream, that viewer's own part of it under ``"mine"``.

The message is the new version, followed by the table as it now is (``TableFacts`` as
JSON) when the broker reaches other processes, which then need not read it. On that
broker the message also carries the event's text, built once by the process that made
the change (:func:`ready_lines`): the public envelope's JSON and, for each seat that a
phone holds, what that seat's own view adds to it. A stream then sends its phone's event
from those texts after checking, against the table of that version, that its token still
holds the seat (:func:`ready_event`); no stream builds an envelope, and no other process
restores the state. A seat's part is only ever put in that seat's own stream.

Message: ``<version> <facts>``, then, a line each (JSON text holds no line break), the
public envelope and ``<seat> <its part>`` per seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from .. import events, jsontext, live, streams
from . import kept, store
from .envelope import kept_envelope, own_part, private_part, shared_state
from .errors import TableError
from .kept import TableFacts
from .tokens import Who, hash_token, holder_mark, identify, same_hash

# Seconds a version's event texts are kept: its streams take them within moments.
READY_SECONDS = 30.0


def channel(code: str) -> str:
    return f"table:{code}"


def publish(code: str, version: int, facts: TableFacts | None = None) -> None:
    """Tell every live listener of this table that it changed (after the commit). The
    change is already stored, so a broker that is down (Redis unreachable) must not turn
    its answer into an error: it is logged, and the phones catch up by polling."""
    message = str(version)
    if facts is not None and live.broker().crosses_processes:
        lines = ready_lines(facts)
        message = "\n".join([f"{version} {facts.to_json()}", *lines])
        keep_ready(current_app.extensions["ready_events"], facts, lines)
    try:
        live.publish(channel(code), message)
    except Exception:
        current_app.logger.exception("Could not announce version %d of table %s", version, code)


def ready_lines(facts: TableFacts) -> list[str]:
    """The event's texts of ``facts``' version, built once here for every process: the
    public envelope's JSON, then ``<seat> <JSON of what its view adds>`` for each seat a
    phone holds (a bot's seat has no stream). A seat whose envelope of that version this
    process keeps (the mover's, which its answer built: ``kept.remember``) gets what that
    envelope adds, not a second build of its view."""
    public_env = kept_envelope(facts, Who())
    state = shared_state(facts)
    lines = [jsontext.dumps(public_env)]
    built = kept.envelopes()
    for seat in facts.seats:
        if seat.bot:
            continue
        mine = built.peek((facts.code, facts.version, False, seat.index))
        if mine is not None:
            part = private_part(public_env, mine)
        else:
            part = own_part(public_env, facts, Who(seat=seat.index), state)
        if part is not None:
            lines.append(f"{seat.index} {jsontext.dumps(part)}")
    return lines


@dataclass(frozen=True)
class ReadyEvent:
    """The texts of one version's event, as :func:`ready_lines` built them, with the table
    of that version (to check a stream's holder against)."""

    table: TableFacts
    public_body: str
    parts: dict[int, str]


def keep_ready(cache: kept.TimedCache, table: TableFacts, lines: list[str]) -> None:
    """Keep ``lines`` (:func:`ready_lines` of ``table``) as its table's latest event."""
    if not lines:
        return
    parts = {}
    for line in lines[1:]:
        seat, _, part = line.partition(" ")
        parts[int(seat)] = part
    found = cache.peek(table.code)
    if found is None or found.table.version < table.version:
        cache.put(table.code, ReadyEvent(table, lines[0], parts))


def ready_event(cache: kept.TimedCache, code: str, version: int, holder: StreamHolder | None):
    """A stream's event of ``version`` from the texts the change's process built: the
    public body for a spectator, with a seat's own part under ``"mine"`` for the seat's
    holder once its token is seen to hold the seat at that version (:data:`live.END` when
    it no longer does). None when there are no such texts here for this stream (the host,
    a seat without its part, another version): the stream builds the event itself."""
    found = cache.peek(code)
    if found is None or found.table.version != version:
        return None
    if holder is None:
        return found.public_body
    if holder.who.host:
        return None
    part = found.parts.get(holder.who.seat)
    if part is None:
        return None
    if not holder.holds(found.table):
        return live.END
    return f'{found.public_body[:-1]},"mine":{part}}}'


def on_table_changed(code: str, facts: TableFacts, **_: Any) -> None:
    """``events.table_changed``: publish the new version with the table's facts."""
    publish(code, facts.version, facts)


def connect() -> None:
    events.table_changed.connect(on_table_changed)


def init_app(app: Flask) -> None:
    """Keep the table a message from another process carries as soon as it arrives (if a
    stream here follows that table), before the streams wake: a move that this process
    serves right after then plays on an up-to-date copy (one statement) instead of
    finding its copy one version behind and going the locked way. The streams' event then
    finds the table kept (``public_event``)."""
    tables = app.extensions["tables"]
    ready = app.extensions["ready_events"] = kept.TimedCache(
        int(app.config.get("KEPT_TABLES", 4096)), READY_SECONDS
    )

    def arrived(channel_name: str, message: str) -> None:
        prefix, _, code = channel_name.partition(":")
        first, *lines = message.split("\n")
        head, _, facts = first.partition(" ")
        if prefix != "table" or not facts or not head.isdigit():
            return
        version = int(head)
        built = ready.peek(code)
        if built is not None and built.table.version >= version:
            return  # this process made the change (or a later one): all kept already
        found = tables.peek(code)
        if found is None or found.version < version:
            found = TableFacts.from_json(facts)
            kept.keep_in(tables, found)
        if found.version == version:
            keep_ready(ready, found, lines)

    live_broker = app.extensions["live"]
    if live_broker.crosses_processes:
        live_broker.on_arrival(arrived)


@dataclass(frozen=True)
class StreamHolder:
    """The host or a seat (``who``) whose stream carries its own view, and the mark of the
    token it opened the stream with (``tokens.holder_mark``)."""

    who: Who
    mark: str

    def holds(self, table: TableFacts) -> bool:
        """Whether that token still holds the role or the seat at ``table``'s version."""
        if self.who.host:
            stored = table.host_token_hash
        else:
            stored = next((s.token_hash for s in table.seats if s.index == self.who.seat), "")
        return bool(stored) and same_hash(holder_mark(stored), self.mark)


def stream_ticket(code: str, token: str | None) -> tuple[str, str, int]:
    """A short-lived ticket that opens the table's stream, for the holder of ``token``
    (a spectator's without one), with the table's code and the seconds it is good for."""
    table = store.current_table(code)
    who = identify(table, token)
    role = "host" if who.host else "seat" if who.seat is not None else "watch"
    holder = None if token is None or role == "watch" else holder_mark(hash_token(token))
    ticket = streams.issue("table", table.code, role, who.seat, holder)
    return ticket, table.code, streams.ticket_seconds()


def credential(code: str, ticket: str | None, token: str | None) -> StreamHolder | None:
    """A stream needs a ticket or a seat's or the host's token; without one it is refused
    at once (401), before any query or subscription. Returns whose own view the stream may
    carry: None for a spectator (or a ticket without a holder's mark), whose stream
    carries only what every phone may see."""
    if ticket is not None or token is None:
        claims = streams.check("table", code, ticket)
        mark, role, seat = claims.get("h"), claims.get("r"), claims.get("s")
        if not isinstance(mark, str):
            return None
        if role == "host":
            return StreamHolder(Who(host=True), mark)
        if role == "seat" and isinstance(seat, int):
            return StreamHolder(Who(seat=seat), mark)
        return None
    who = identify(store.current_table(code), token)
    if not who.host and who.seat is None:  # pragma: no cover - identify refuses first
        raise TableError(401, "Send a seat or host token, or a stream ticket.")
    return StreamHolder(who, holder_mark(hash_token(token)))


def public_event(
    code: str, version: int | None = None, facts: str | None = None
) -> tuple[TableFacts, str]:
    """The event's data: the spectator's envelope (what every phone may see) of the
    table at ``version`` (its current version when None) as JSON text, with the table it
    was built from, built and encoded once per version in this process however many of its
    streams follow the table. The table is this process's kept copy of ``version``, else
    the copy the announcement carried (``facts``, JSON), else read from the database."""

    def build() -> tuple[TableFacts, str]:
        table = None if version is None else kept.kept(code, version)
        if table is None and facts:
            table = TableFacts.from_json(facts)
            kept.keep(table)
        table = table or store.current_table(code)
        env = kept_envelope(table, Who())
        found = (table, jsontext.dumps(env))
        kept.envelopes().put((code, table.version, "event"), found)
        if version is not None and version != table.version:
            kept.envelopes().put((code, version, "event"), found)
        return found

    if version is None:
        return build()
    # One read and encoding per version in this process: its other streams of the table,
    # woken by the same event, wait for it instead of each reading the table again.
    return live.once(
        ("event", code, version), lambda: kept.envelopes().peek((code, version, "event")), build
    )


def own_event(table: TableFacts, public_body: str, holder: StreamHolder) -> str:
    """A holder's event: ``public_body`` (the public envelope's JSON of ``table``) with,
    under ``"mine"``, what the holder's own view adds to it (as ``?private=`` answers), so
    its phone needs no refetch. :data:`live.END` when the token no longer holds the seat
    or the role (the stream closes; the phone's next ticket or view is refused and says
    why)."""
    if not holder.holds(table):
        return live.END
    mine = kept_envelope(table, holder.who, keep=False)
    part = private_part(kept_envelope(table, Who()), mine)
    if part is None:
        return public_body
    return f'{public_body[:-1]},"mine":{jsontext.dumps(part)}}}'


def open_stream(code: str, holder: StreamHolder | None) -> Any:
    """Server-sent events of the table (see ``api.api_events``): subscribed before the
    table is read, so that a change committed in between is either in the first event or
    announced to this subscription."""
    release = streams.admit(f"table:{code}")
    app = current_app._get_current_object()
    try:
        subscription = live.subscribe(channel(code))
    except BaseException:
        release()
        raise
    try:
        table, first = public_event(code)
        if holder is not None:
            first = own_event(table, first, holder)
            if first is live.END:
                raise TableError(401, "That seat has passed to another phone; take it again.")
    except BaseException:
        subscription.close()
        release()
        raise
    store.let_go()  # do not hold a pooled connection for the life of the stream
    sent = {"version": table.version}
    ready = app.extensions.get("ready_events")

    def data(message: str) -> str | None:
        # The version, then (from another process) the table as it now is and the texts.
        end = message.find(" ")
        try:
            announced = int(message if end < 0 else message[:end])
        except ValueError:
            return None
        if announced <= sent["version"]:
            return None  # already sent (a later version was read meanwhile)
        body = None if ready is None else ready_event(ready, code, announced, holder)
        if body is not None:
            sent["version"] = announced
            return body
        facts = message[end + 1 :].split("\n", 1)[0] if end >= 0 else ""
        with app.app_context():
            table, body = public_event(code, announced, facts)
            if table.version <= sent["version"]:
                return None
            sent["version"] = table.version
            return body if holder is None else own_event(table, body, holder)

    return live.event_stream(subscription, "version", first, data=data, on_close=release)

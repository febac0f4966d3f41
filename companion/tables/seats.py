"""Use cases of the seats: join, release (the host frees a seat), and bots in seats (the
host adds one, a table starts with some). Each is one locked transaction (``store.changing``)
that returns its answer or raises :class:`TableError`; the change announces itself once
committed.

A bot seat is an ordinary :class:`~companion.models.Seat` row with ``bot`` (its level) and
``bot_seed`` set; its token is random and thrown away, so no phone can play it. A person
who sits down in a bot's seat takes the row over (and the hand with it) before the game's
first move; once play has begun, the bot's hand and what it saw are at stake, so taking its
seat is a request the host answers (``tickets.ask_for_seat``), as for a person's seat. The
host frees a bot's seat like any other (``release``).
"""

from __future__ import annotations

import secrets
from typing import Any

from .. import names
from ..bots import LEVELS, has_bot
from ..games import GAMES
from ..models import Seat, SeatChange, Table
from . import store
from .envelope import envelope, news_of
from .errors import TableError, whole_seat
from .tokens import Who, hash_token, new_token, the_host


def clean_name(name: Any) -> str:
    """A seat name, cleaned by the shared :func:`companion.names.clean_name`; a refused
    one is a 400."""
    try:
        return names.clean_name(name)
    except names.BadName as error:
        raise TableError(400, str(error)) from None


def in_range(table: Any, seat: int) -> int:
    if not 0 <= seat < table.players:
        raise TableError(422, f"This table has seats 1 to {table.players}.")
    return seat


def join(code: str, name: Any, seat: Any = None) -> tuple[int, str, int]:
    """Take a seat (the one asked for, else the lowest free one); returns the seat, its
    token and the version the join made."""
    name = clean_name(name)
    if seat is not None:
        whole_seat(seat)
    with store.changing(code) as table:
        seat = free_seat(table, seat)
        if mid_game_bot(table, seat):
            raise TableError(
                409,
                f"Seat {seat + 1} is played by a bot in a game under way: ask the host for "
                "it (the host lets you take over).",
            )
        others = [s.name for s in table.seats if s.index != seat]
        if any(other.casefold() == name.casefold() for other in others):
            raise TableError(
                409,
                f"Someone at this table is already called {name}. If that is you on a new "
                f'phone, ask for your seat back ("I am {name}").',
            )
        token = new_token()
        robot = next((s for s in table.seats if s.index == seat), None)
        if robot is not None:
            take_over(robot, name, token)
        else:
            table.seats.append(Seat(index=seat, name=name, token_hash=hash_token(token)))
        table.version += 1
        version = table.version
        # a freed seat taken again, or a bot's: say so
        if robot is not None or str(seat) in news_of(table)["missing"]:
            note_change(table, seat, name, "taken", None)
    return seat, token, version


def mid_game_bot(table: Any, seat: int) -> bool:
    """Whether ``seat`` is a bot's in a game that has begun (a move made): a person takes
    it only with the host's approval."""
    row = next((s for s in table.seats if s.index == seat), None)
    return row is not None and bool(row.bot) and store.state_of(table).moves > 0


def free_seat(table: Table, seat: int | None) -> int:
    """The seat a person joining may take: ``seat`` if free or a bot's, else (None) the
    lowest free one, else the first bot's. 409 when there is none."""
    taken = {s.index: s.name for s in table.seats}
    robots = sorted(s.index for s in table.seats if s.bot)  # a person may take these
    if seat is not None:
        in_range(table, seat)
    if len(taken) >= table.players and not robots:
        raise TableError(409, "Every seat at this table is taken.")
    if seat is not None and seat in taken and seat not in robots:
        raise TableError(409, f"Seat {seat + 1} is taken by {taken[seat]}.")
    if seat is None:
        free = [i for i in range(table.players) if i not in taken]
        seat = min(free) if free else robots[0]
    return seat


def release(code: str, token: str | None, seat: Any) -> dict[str, Any]:
    """Host only: free a seat (its phone was lost without its rejoin link). The seat's old
    token stops working; whoever takes the seat next gets its hand back. Play pauses until
    the seat is taken again."""
    whole_seat(seat)
    with store.changing(code) as table:
        the_host(table, token, "free a seat")
        taken = next((s for s in table.seats if s.index == seat), None)
        if taken is None:
            raise TableError(422, f"Seat {seat + 1} is not taken.")
        store.forget_seat(table, taken)
        table.version += 1
        note_change(table, seat, taken.name, "freed", taken.token_hash)
        news = news_of(table)
        if not taken.bot:  # a bot taken out is not a player the game waits for
            news["missing"][str(seat)] = taken.name
        table.seat_news = news
        answer = envelope(table, Who(host=True))
    return answer


def note_change(table: Any, seat: int | None, name: str, how: str, old: str | None) -> None:
    """Remember that a seat (or, with ``seat`` None, the host role) changed phone: the old
    token's holder is told why, every envelope carries the latest change of each seat."""
    news = news_of(table)
    news["changes"] = [c for c in news["changes"] if c["seat"] != seat]
    news["changes"].append({"seat": seat, "name": name, "how": how, "version": table.version})
    if how != "freed":
        news["missing"].pop(str(seat), None)
    table.seat_news = news
    store.add(
        SeatChange(
            table_id=table.id,
            seat=seat,
            name=name,
            how=how,
            old_token_hash=old,
            version=table.version,
        )
    )


def held_seat(table: Any, seat: Any, bots_too: bool = False) -> Seat:
    """The row of a seat a person holds (one a ticket or a request may move); with
    ``bots_too``, a bot's seat as well (a request the host answers, mid-game)."""
    in_range(table, whole_seat(seat))
    for taken in table.seats:
        if taken.index == seat:
            if taken.bot and not bots_too:  # a person sits down in it from the join page
                raise TableError(
                    409, f"Seat {seat + 1} is played by a bot: take it from the join page."
                )
            return taken
    raise TableError(409, f"Seat {seat + 1} is free: take it from the join page.")


# -- bots in seats ------------------------------------------------------------------------


def check_level(level: Any) -> str:
    if not isinstance(level, str) or level not in LEVELS:
        raise TableError(422, f"Unknown bot level: choose one of {', '.join(LEVELS)}.")
    return level


def check_game(slug: str) -> None:
    game = GAMES[slug]
    if not has_bot(game):
        raise TableError(422, f"{game.name} has no bot player yet.")


#: The bots' first names: friendly, short, distinct at one table (issue 26).
BOT_NAMES = ("Robin", "Juno", "Milo", "Tess", "Remy", "Nova", "Wren", "Otto", "Ines", "Kit")
BOT_MARK = " · bot"


def bot_name(table: Any, seat: int, level: str) -> str:
    """ "Robin · bot": a name no other seat of the table has (nor a person of that
    name), starting from the seat's own place in :data:`BOT_NAMES`."""
    taken = {s.name.casefold().removesuffix(BOT_MARK) for s in table.seats if s.index != seat}
    for k in range(len(BOT_NAMES)):
        name = BOT_NAMES[(seat + k) % len(BOT_NAMES)]
        if name.casefold() not in taken:
            return name + BOT_MARK
    return f"Bot {seat + 1}{BOT_MARK}"


def is_bot_name(name: str) -> bool:
    """Whether a person's name would pass for a bot's ("… · bot")."""
    return name.casefold().endswith(BOT_MARK) or name.casefold().startswith("bot (")


def sit(table: Any, seat: int, level: str) -> Seat:
    """Put a ``level`` bot in ``seat`` of the table (in the caller's transaction): a free
    seat, or a bot's (its level changes). A person's seat is refused (409)."""
    row = next((s for s in table.seats if s.index == seat), None)
    name = bot_name(table, seat, level)
    if row is None:
        row = Seat(index=seat, name=name, token_hash=hash_token(new_token()))
        table.seats.append(row)
    elif row.bot is None:
        raise TableError(
            409, f"Seat {seat + 1} is taken by {row.name}: a bot can only sit in a free seat."
        )
    row.name = name
    row.bot = level
    row.bot_seed = secrets.randbits(62)
    return row


def seat_bots(table: Table, bots: Any) -> None:
    """The bots asked for when a table starts: one entry per seat, None for a person or a
    level. Refused whole (nothing stored) when anything is wrong."""
    if bots is None:
        return
    if not isinstance(bots, list) or len(bots) != table.players:
        raise TableError(
            400,
            f'"bots" must be a list of {table.players} entries, one per seat: null for a '
            f"person, or a level ({', '.join(LEVELS)}).",
        )
    levels = [None if level is None else check_level(level) for level in bots]
    if not any(levels):
        return
    check_game(table.game)
    if all(levels):
        raise TableError(422, "Leave at least one seat for a person.")
    for seat, level in enumerate(levels):
        if level is not None:
            sit(table, seat, level)


def take_over(row: Seat, name: str, token: str) -> None:
    """A person sits down in a bot's seat: the row becomes theirs, with the bot's hand."""
    row.name = name
    row.token_hash = hash_token(token)
    row.bot = None
    row.bot_seed = None


def add_bot(code: str, token: str | None, seat: Any, level: Any) -> dict[str, Any]:
    """Host only: a ``level`` bot in a free seat (a player who left), or a new level for a
    bot. The host's envelope of the table afterwards."""
    whole_seat(seat)
    level = check_level(level)
    with store.changing(code) as table:
        the_host(table, token, "seat a bot")
        check_game(table.game)
        in_range(table, seat)
        state = store.state_of(table)
        if state.is_over():
            raise TableError(409, "The game is over: start a rematch instead.")
        row = sit(table, seat, level)
        if all(s.bot for s in table.seats) and len(table.seats) == table.players:
            raise TableError(422, "Leave at least one seat for a person.")
        table.version += 1
        note_change(table, seat, row.name, "taken", None)
        answer = envelope(table, Who(host=True), state)
    return answer


def levels_from_form(form: Any, players: int) -> list[str | None] | None:
    """The Play form's ``bot-<seat>`` choices ("" for a person) for the seats in play."""
    levels = [form.get(f"bot-{seat}") or None for seat in range(players)]
    return levels if any(levels) else None


def solo_games() -> list[Any]:
    """The games a person can play alone against bots."""
    return [game for game in GAMES.values() if has_bot(game)]

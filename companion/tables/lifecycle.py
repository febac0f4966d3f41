"""Use cases that start a table: create one (with bots in some seats), play solo
(a person against bots, seated at once) and the rematch after the end. Each is one
transaction that returns its answer or raises :class:`TableError` with nothing stored.
"""

from __future__ import annotations

from typing import Any

from ..games import GAMES, IllegalAction
from ..games.base import State
from ..models import Seat, Table
from . import saving, store
from .errors import TableError
from .kept import TableFacts
from .seats import check_game, check_level, clean_name, is_bot_name, join, seat_bots
from .tokens import hash_token, identify, new_token


def create_table(
    game: Any,
    players: Any,
    options: Any = None,
    seed: int | None = None,
    deal: dict | None = None,
    bot_seats: Any = None,
) -> tuple[Table, str]:
    """A new table and its host token; ``bot_seats`` (one entry per seat, None or a bot
    level) seats bots. Bad settings raise :class:`TableError` 4xx, and nothing is stored."""
    if not isinstance(game, str) or game not in GAMES:
        raise TableError(422, f"Unknown game. Choose one of: {', '.join(GAMES)}.")
    if options is None:
        options = {}
    try:
        state = GAMES[game].new_state(players, options, seed=seed, deal=deal)
    except IllegalAction as error:
        raise TableError(422, error.message) from None
    token = new_token()
    table = saving.new_table_row(game, state, deal, hash_token(token))
    try:
        seat_bots(table, bot_seats)
    except TableError:
        store.rollback()
        raise
    store.commit_new(table)
    return table, token


def start_solo(slug: str, name: Any, players: Any, level: Any) -> tuple[str, str]:
    """A table with the player in seat 1 and ``level`` bots in the others, started at
    once. Returns the table's code and the player's seat token."""
    game = GAMES[slug]
    check_game(slug)
    level = check_level(level)
    name = clean_name(name.strip() if isinstance(name, str) and name.strip() else "You")
    if players in (None, ""):
        count = game.min_players
    else:
        try:
            count = int(players)
        except (TypeError, ValueError):
            raise TableError(400, "The number of players must be a whole number.") from None
    if not game.min_players <= count <= game.max_players:
        raise TableError(
            422, f"{game.name} plays with {game.min_players} to {game.max_players} players."
        )
    if is_bot_name(name):
        raise TableError(409, f"{name} is what the bots are called: choose another name.")
    table, _host = create_table(slug, count, {}, bot_seats=[None] + [level] * (count - 1))
    _seat, token, _version = join(table.code, name, 0)
    return table.code, token


def rematch(code: str, token: str | None) -> dict[str, Any]:
    """After the end, the host or a seated phone starts a rematch with the same seats (or
    joins the one already started): the same game, options and names, the first dealer
    or challenger from the game's ``rematch_deal``. Each caller gets a new token for its
    own place at the new table (its old token is what proves the place), so every phone
    moves by itself when its envelope shows ``rematch``; a second call re-issues."""
    with store.changing(code) as table:
        if token is None:
            raise TableError(401, "Send your seat or host token to start a rematch.")
        who = identify(table, token)
        state = store.state_of(table)
        if not state.is_over():
            raise TableError(409, "A rematch can start once this game is over.")
        if table.rematch_code is None:
            new_table = start_rematch(table, state)
            table.rematch_code = new_table.code
            table.version += 1
        else:
            new_table = store.lock_also(table.rematch_code)
        fresh = new_token()
        if who.host:
            new_table.host_token_hash = hash_token(fresh)
        else:
            seat = next(s for s in new_table.seats if s.index == who.seat)
            seat.token_hash = hash_token(fresh)
        new_table.version += 1
        answer = {"code": new_table.code, "token": fresh, "seat": who.seat, "host": who.host}
        new_facts = TableFacts.of(new_table)
    store.committed(new_facts)
    return answer


def start_rematch(table: Table, state: State) -> Table:
    game = store.game_of(table)
    deal = game.rematch_deal(state)
    fresh = game.new_state(table.players, table.options, deal=deal)
    # Nobody knows these tokens until each place is claimed with the old table's.
    new_table = saving.new_table_row(table.game, fresh, deal, hash_token(new_token()))
    for s in table.seats:
        new_table.seats.append(
            Seat(
                index=s.index,
                name=s.name,
                token_hash=hash_token(new_token()),
                bot=s.bot,
                bot_seed=s.bot_seed,
            )
        )
    store.add(new_table)
    return new_table

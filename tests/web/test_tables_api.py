"""Engine mode over HTTP: the JSON API (create, join, view, act, undo) for every game.

``TablePlayers`` (in the spirit of flaskr's ``AuthActions``) creates a table through the
API and seats N phones, each with its own test client and token; every response it sees is
kept, so a test can check that none of them ever carried the seed, a token hash or the
state snapshot.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from companion import live
from companion.extensions import db
from companion.games import GAMES, IllegalAction, base
from companion.games.spec import PLAY
from companion.models import Action, Seat, Table
from companion.tables import store, tokens
from companion.tables import stream as stream_module

# Generic behaviour is played on games picked from the registry by what a test needs; no
# test here names a game (a game's own scenarios live in tests/games/<slug>/).
FEWEST = min(GAMES, key=lambda slug: (GAMES[slug].min_players, GAMES[slug].spec.order))
DUEL = FEWEST  # the quickest table to fill, at its fewest seats


def seating(players: int) -> str:
    """A game that can be played by ``players`` (the first listed)."""
    return next(s for s, g in GAMES.items() if g.min_players <= players <= g.max_players)


THREE, FOUR = seating(3), seating(4)
BOGUS = {"type": "no-such-action"}


def a_bounded_option() -> tuple[str, str, int]:
    """A game with a whole-number Play option that has a least value, that option's name
    and a value under it (refused)."""
    for slug, game in GAMES.items():
        for option in game.spec.options_for(PLAY):
            if option.kind == "int" and option.low is not None:
                return slug, option.name, option.low - 1
    raise LookupError("no game has a bounded whole-number option")


class TablePlayers:
    """A table made through the API, with one client (phone) per seat."""

    def __init__(
        self,
        app,
        game: str,
        players: int | None = None,
        options: dict | None = None,
        deal: dict | None = None,
    ):
        self.app = app
        self.game = game
        self.players = players or GAMES[game].min_players
        self.responses: list[str] = []
        self.host = app.test_client()
        body = {"game": game, "players": self.players}
        if options is not None:
            body["options"] = options
        if deal is not None:  # an explicit first deal
            body["deal"] = deal
        answer = self.post(self.host, "/api/tables", body)
        assert answer.status_code == 201, answer.get_json()
        body = answer.get_json()
        self.code: str = body["code"]
        self.host_token: str = body["host_token"]
        self.phones = [app.test_client() for _ in range(self.players)]
        self.tokens: list[str] = []

    # -- requests, each recorded -------------------------------------------------------

    def _keep(self, response):
        self.responses.append(response.get_data(as_text=True))
        return response

    def post(self, client, url: str, body: Any, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self._keep(client.post(url, json=body, headers=headers))

    def get(self, client, url: str, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self._keep(client.get(url, headers=headers))

    # -- the table ---------------------------------------------------------------------

    def join_all(self, names: list[str] | None = None) -> TablePlayers:
        names = names or [f"Player {i + 1}" for i in range(self.players)]
        for i, name in enumerate(names):
            self.join(i, name)
        return self

    def join(self, phone: int, name: str, seat: int | None = None):
        body = {"name": name} if seat is None else {"name": name, "seat": seat}
        answer = self.post(self.phones[phone], f"/api/tables/{self.code}/seats", body)
        if answer.status_code == 201:
            assert answer.get_json()["seat"] == phone
            self.tokens.append(answer.get_json()["token"])
        return answer

    def view(self, seat: int | None = None, token: str | None = None):
        client = self.host if seat is None else self.phones[seat]
        token = token if token is not None else (None if seat is None else self.tokens[seat])
        return self.get(client, f"/api/tables/{self.code}/view", token)

    def envelope(self, seat: int | None = None) -> dict:
        answer = self.view(seat)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def act(self, seat: int, action: Any, version: Any = None, token: str | None = None):
        if version is None:
            version = self.envelope(seat)["version"]
        body = {"action": action, "version": version}
        return self.post(
            self.phones[seat], f"/api/tables/{self.code}/actions", body, token or self.tokens[seat]
        )

    def undo(self, token: str | None, body: Any = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url = f"/api/tables/{self.code}/undo"
        if body is None:
            return self._keep(self.host.post(url, headers=headers))
        return self._keep(self.host.post(url, json=body, headers=headers))

    def random_move(self, rng: random.Random) -> tuple[int, dict]:
        to_act = self.envelope(None)["to_act"]
        seat = rng.choice(to_act)
        env = self.envelope(seat)
        action = rng.choice(env["legal"])
        answer = self.act(seat, action, env["version"])
        assert answer.status_code == 200, answer.get_json()
        return seat, action

    # -- the stored row ----------------------------------------------------------------

    def row(self) -> Table:
        with self.app.app_context():
            table = db.session.scalar(db.select(Table).where(Table.code == self.code))
            db.session.expunge(table)
            return table

    def state(self):
        """The stored state with its log (read from the action table)."""
        with self.app.app_context():
            table = db.session.scalar(db.select(Table).where(Table.code == self.code))
            return store.full_state(table)

    def snapshot(self) -> tuple[int, dict, int, int]:
        """Everything an accepted change would alter: version, state, log and seats."""
        with self.app.app_context():
            table = db.session.scalar(db.select(Table).where(Table.code == self.code))
            actions = db.session.scalar(
                db.select(db.func.count()).select_from(Action).where(Action.table_id == table.id)
            )
            seats = db.session.scalar(
                db.select(db.func.count()).select_from(Seat).where(Seat.table_id == table.id)
            )
            return table.version, json.loads(json.dumps(table.state)), actions, seats

    def secrets(self) -> list[str]:
        with self.app.app_context():
            table = db.session.scalar(db.select(Table).where(Table.code == self.code))
            found = [str(table.seed), table.host_token_hash]
            found += [seat.token_hash for seat in table.seats]
            return found


def walk_keys(value: Any) -> set[str]:
    keys: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(key)
            keys |= walk_keys(item)
    elif isinstance(value, list):
        for item in value:
            keys |= walk_keys(item)
    return keys


def assert_nothing_secret(players: TablePlayers) -> None:
    """No response ever held the seed, a token hash, or the raw state snapshot."""
    secrets = players.secrets()
    for text in players.responses:
        for secret in secrets:
            assert secret not in text
        try:
            body = json.loads(text)
        except ValueError:
            continue
        assert not {"seed", "log", "token_hash", "host_token_hash"} & walk_keys(body)


@pytest.fixture
def table_players(app):
    made: list[TablePlayers] = []

    def make(game: str, players: int | None = None) -> TablePlayers:
        made.append(TablePlayers(app, game, players))
        return made[-1]

    yield make
    for players in made:
        assert_nothing_secret(players)


def replayed_from_log(app, code: str) -> dict:
    with app.app_context():
        table = store.get_table(code)
        return store.replay_log(table).to_dict()


# -- create, join, view, act ----------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_create_join_view_and_play_every_game(app, table_players, game):
    players = table_players(game).join_all()
    rng = random.Random(7)
    for _ in range(8):
        state = players.state()
        if state.is_over():
            break
        before = players.envelope(None)["version"]
        seat, action = players.random_move(rng)
        after = players.state()
        assert after.log[-1] == [seat, action]
        assert players.envelope(None)["version"] == before + 1
    table = players.row()
    # The stored snapshot is what the stored log replays to, and what the engine replays.
    assert replayed_from_log(app, players.code) == table.state
    state = players.state()
    assert GAMES[game].replay(state).to_dict() == table.state


@pytest.mark.parametrize("game", list(GAMES))
def test_envelope_is_the_engines_view_of_that_seat_only(table_players, game):
    players = table_players(game).join_all()
    rng = random.Random(3)
    for _ in range(4):
        state = players.state()
        public = players.envelope(None)
        assert public["seat"] is None and public["legal"] == []
        assert public["view"] == json.loads(json.dumps(state.view(None)))
        assert public["view"].get("hand") is None  # the table screen holds no hand
        assert public["to_act"] == state.to_act()
        for seat in range(players.players):
            env = players.envelope(seat)
            assert env["seat"] == seat
            assert env["view"] == json.loads(json.dumps(state.view(seat)))
            assert env["legal"] == json.loads(json.dumps(state.legal_actions(seat)))
            # One label per legal action, in the order of `legal`: the engine's words.
            assert env["labels"] == [state.describe(a) for a in state.legal_actions(seat)]
            assert all(isinstance(label, str) and label for label in env["labels"])
            mine = env["view"].get("hand") or []
            for other in range(players.players):
                theirs = state.view(other).get("hand") or []
                hands = [state.view(s).get("hand") or [] for s in range(players.players)]
                dealt = [str(card) for hand in hands for card in hand]
                if other != seat and len(dealt) == len(set(dealt)):
                    # Where every card is dealt once, none of theirs is in my hand.
                    assert not set(map(str, theirs)) & set(map(str, mine))
        if state.is_over():
            break
        players.random_move(rng)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_envelopes_scores_wait_for_the_end_of_the_game(table_players, game):
    # docs/api.md: the envelope's own `scores` is null until the game is over (the final
    # scores); running scores are the game's business, in its view's common block.
    players = table_players(game).join_all()
    for seat in (None, *range(players.players)):
        env = players.envelope(seat)
        assert env["over"] is False and env["scores"] is None
        assert len(env["view"]["scores"]) == players.players


def test_the_view_says_who_is_missing_and_play_waits_for_every_seat(table_players):
    players = table_players(THREE, 3)
    players.join(0, "Ann")
    env = players.envelope(0)
    assert env["players"] == ["Ann", None, None]
    assert env["started"] is False and env["legal"] == [] and env["to_act"] == []
    state = players.state()
    before = players.snapshot()
    # A move the game would take from a seat to act, were everyone seated.
    move = state.legal_actions(state.to_act()[0])[0]
    answer = players.act(0, move, env["version"])
    assert answer.status_code == 422
    assert "2 still to join" in answer.get_json()["error"]
    assert players.snapshot() == before


# -- refusals change nothing ----------------------------------------------------------


def test_a_stale_version_is_refused_with_the_current_one(table_players):
    players = table_players(DUEL).join_all()
    env = players.envelope(None)
    seat = env["to_act"][0]
    legal = players.envelope(seat)["legal"]
    before = players.snapshot()
    answer = players.act(seat, legal[0], env["version"] - 1)
    assert answer.status_code == 409
    assert answer.get_json()["version"] == env["version"]
    assert players.snapshot() == before
    # The same move with the current version goes through exactly once.
    assert players.act(seat, legal[0], env["version"]).status_code == 200
    again = players.act(seat, legal[0], env["version"])
    assert again.status_code == 409
    assert players.snapshot()[0] == env["version"] + 1


def test_an_illegal_action_gets_the_engines_message_and_changes_nothing(table_players):
    players = table_players(DUEL).join_all()
    env = players.envelope(None)
    seat = env["to_act"][0]
    other = (seat + 1) % players.players
    state = players.state()
    bogus = {"type": "play", "card": "joker", "claim": "headshot"}
    with pytest.raises(IllegalAction) as expected:
        state.apply(seat, bogus)
    before = players.snapshot()
    answer = players.act(seat, bogus, env["version"])
    assert answer.status_code == 422
    assert answer.get_json()["error"] == expected.value.message
    assert players.snapshot() == before
    # Out of turn: the engine's own words too.
    with pytest.raises(IllegalAction) as turn:
        state.apply(other, state.legal_actions(seat)[0])
    answer = players.act(other, state.legal_actions(seat)[0], env["version"])
    assert answer.status_code == 422
    assert answer.get_json()["error"] == turn.value.message
    assert players.snapshot() == before


CURRENT = object()  # stands for the table's current version, so the version check passes


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"version": CURRENT}, "Missing field: action"),
        ({"action": BOGUS}, "Missing field: version"),
        ({"action": "nonsense", "version": CURRENT}, '"action" must be an object'),
        ({"action": ["nonsense"], "version": CURRENT}, '"action" must be an object'),
        ({"action": BOGUS, "version": "0"}, '"version"'),
        ({"action": BOGUS, "version": True}, '"version"'),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_malformed_action_bodies_are_refused(table_players, body, words):
    players = table_players(DUEL).join_all()
    before = players.snapshot()
    if isinstance(body, dict) and body.get("version") is CURRENT:
        body = {**body, "version": before[0]}
    answer = players.post(
        players.phones[0], f"/api/tables/{players.code}/actions", body, players.tokens[0]
    )
    assert answer.status_code == 400
    assert words in answer.get_json()["error"]
    assert players.snapshot() == before


def test_not_json_is_refused(app, table_players):
    players = table_players(DUEL).join_all()
    before = players.snapshot()
    url = f"/api/tables/{players.code}/actions"
    auth = {"Authorization": f"Bearer {players.tokens[0]}"}
    broken = players._keep(
        players.phones[0].post(url, data="{not json", headers=auth, content_type="application/json")
    )
    assert broken.status_code == 400 and "not valid JSON" in broken.get_json()["error"]
    form = players._keep(players.phones[0].post(url, data={"action": "x"}, headers=auth))
    assert form.status_code == 400 and "application/json" in form.get_json()["error"]
    assert players.snapshot() == before


# -- tokens ---------------------------------------------------------------------------


def test_forged_and_foreign_tokens_get_401(app, table_players):
    players = table_players(DUEL).join_all()
    elsewhere = table_players(DUEL).join_all()
    before = players.snapshot()
    for token in ("forged-" + "x" * 40, elsewhere.tokens[0], elsewhere.host_token):
        view = players.view(0, token=token)
        assert view.status_code == 401
        assert view.get_json()["error"]
        assert view.headers["WWW-Authenticate"].startswith("Bearer")
        acted = players.act(0, BOGUS, before[0], token=token)
        assert acted.status_code == 401
    bad_scheme = players.phones[0].get(
        f"/api/tables/{players.code}/view", headers={"Authorization": "Basic abc"}
    )
    assert bad_scheme.status_code == 401
    assert players.snapshot() == before


def test_no_token_is_the_public_view_and_the_host_token_adds_host_powers(table_players):
    players = table_players(DUEL).join_all()
    public = players.envelope(None)
    host = players.view(None, token=players.host_token).get_json()
    assert public["host"] is False and host["host"] is True
    assert public["view"] == host["view"] and host["seat"] is None and host["legal"] == []
    # The host cannot play a seat's cards, and nobody plays without a token.
    version = public["version"]
    answer = players.act(0, BOGUS, version, token=players.host_token)
    assert answer.status_code == 403
    anonymous = players.host.post(
        f"/api/tables/{players.code}/actions", json={"action": BOGUS, "version": version}
    )
    assert anonymous.status_code == 401


def test_tokens_are_stored_only_as_hashes(table_players):
    players = table_players(FEWEST).join_all()
    table = players.row()
    with players.app.app_context():
        seats = db.session.scalars(db.select(Seat).where(Seat.table_id == table.id)).all()
        stored = {seat.token_hash for seat in seats} | {table.host_token_hash}
    assert stored == {tokens.hash_token(t) for t in players.tokens + [players.host_token]}
    assert not set(players.tokens + [players.host_token]) & stored


# -- creating and joining -------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "poker", "players": 2}, 422, "Unknown game"),
        ({"game": FEWEST, "players": GAMES[FEWEST].max_players + 1}, 422, "players"),
        ({"game": FOUR, "players": "4"}, 400, "whole number"),
        ({"game": FOUR, "players": 4, "options": []}, 400, "object"),
        ({"game": FOUR, "players": 4, "options": {"colour": "red"}}, 422, ""),
        (
            {
                "game": a_bounded_option()[0],
                "players": GAMES[a_bounded_option()[0]].min_players,
                "options": {a_bounded_option()[1]: a_bounded_option()[2]},
            },
            422,
            "",
        ),
        ({"players": 4}, 400, "Missing field: game"),
        (FOUR, 400, "object"),
    ],
)
def test_bad_tables_are_refused_with_a_clear_message(app, client, body, status, words):
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status
    assert words in answer.get_json()["error"] and answer.get_json()["error"]
    if status == 422 and isinstance(body, dict) and body.get("game") in GAMES:
        with pytest.raises(IllegalAction) as expected:
            GAMES[body["game"]].new_state(body["players"], body.get("options"))
        assert answer.get_json()["error"] == expected.value.message
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 0


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "enter a name"),
        ("   ", "enter a name"),
        ("x" * 25, "at most 24"),
        ("x" * 10_000, "at most 24"),
        ("Ann\x00", "control"),
        ("An\nn", "control"),
        ("A\u202eB", "invisible"),
        (42, "text"),
        (None, "text"),
    ],
)
def test_bad_names_are_refused_and_nothing_changes(table_players, name, words):
    players = table_players(DUEL)
    before = players.snapshot()
    answer = players.join(0, name)
    assert answer.status_code == 400
    assert words in answer.get_json()["error"]
    assert players.snapshot() == before


def test_names_may_be_any_script_or_emoji(table_players):
    players = table_players(THREE, 3)
    for phone, name in enumerate(["Zoë", "海賊", "🏴\u200d☠️ Jack"]):
        assert players.join(phone, name).status_code == 201
    assert players.envelope(None)["players"] == ["Zoë", "海賊", "🏴\u200d☠️ Jack"]


def test_names_are_trimmed_unique_and_seats_are_not_taken_twice(table_players):
    players = table_players(THREE, 3)
    assert players.join(0, "  Ann  ").status_code == 201
    assert players.envelope(None)["players"][0] == "Ann"
    assert players.join(1, "ann").status_code == 409
    assert players.join(1, "Bob", seat=0).status_code == 409
    assert players.join(1, "Bob", seat=7).status_code == 422
    assert players.join(1, "Bob", seat="1").status_code == 400
    assert players.join(1, "Bob", seat=1).status_code == 201
    assert players.join(2, "Cy").status_code == 201
    before = players.snapshot()
    assert players.join(2, "Dee").status_code == 409
    assert players.snapshot() == before


def test_an_unknown_table_is_404_json(client):
    answer = client.get("/api/tables/NOPE42/view")
    assert answer.status_code == 404 and "no table" in answer.get_json()["error"]


def test_a_huge_body_is_refused(table_players):
    players = table_players(DUEL)
    before = players.snapshot()
    answer = players.join(0, "x" * 100_000)
    assert answer.status_code in (400, 413)
    assert players.snapshot() == before


# -- undo -----------------------------------------------------------------------------


def test_undo_with_nothing_to_undo_is_refused(table_players):
    players = table_players(DUEL).join_all()
    before = players.snapshot()
    answer = players.undo(players.host_token)
    assert answer.status_code == 422 and "nothing to undo" in answer.get_json()["error"]
    assert players.snapshot() == before


# -- live events ----------------------------------------------------------------------


def events_url(players: TablePlayers, token: str | None = None, client=None) -> str:
    """The table's stream address with a fresh ticket (a spectator's without a token)."""
    client = client or players.host
    answer = players.post(client, f"/api/tables/{players.code}/stream-ticket", {}, token)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["events_url"]


def version_events(text: str) -> list[dict]:
    """The data of each ``version`` event in a stream's text, decoded."""
    found = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        if "event: version" in lines:
            found.append(json.loads(next(x for x in lines if x.startswith("data: "))[6:]))
    return found


def split_event(event: dict) -> tuple[dict, dict | None]:
    """A ``version`` event's public envelope, and what its stream's holder's own view adds
    (``"mine"``: None on a spectator's stream)."""
    return {k: v for k, v in event.items() if k != "mine"}, event.get("mine")


def merged(public: dict, part: dict | None) -> dict:
    """What the page's ``mergePrivate`` (static/js/table-live.js) makes of a public
    envelope and a viewer's own part of it (a ``?private=`` answer or an event's
    ``"mine"``)."""
    assert part is not None and part["partial"] is True
    mine = {k: v for k, v in part.items() if k != "partial"}
    return {**public, **mine, "view": {**public["view"], **mine.get("view", {})}}


def test_events_send_the_public_envelope_now_and_after_each_change(make_app):
    app = make_app(TABLES_SSE_MAX_EVENTS=2, TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=5)
    players = TablePlayers(app, DUEL).join_all()
    stream = players.host.get(events_url(players), buffered=False)
    try:
        assert stream.status_code == 200
        assert stream.mimetype == "text/event-stream"
        chunks = iter(stream.response)
        text = ""
        while "event: version" not in text:
            text += next(chunks).decode()
        public = players.envelope(None)
        assert version_events(text) == [public]
        players.random_move(random.Random(1))
        rest = b"".join(chunks).decode()  # ends after the second event
        (after,) = version_events(rest)
        assert after == players.envelope(None) and after["version"] == public["version"] + 1
        # what every phone may see: the public view, never a seat's hand
        assert after["seat"] is None and after["legal"] == [] and after["host"] is False
        assert after["view"] == players.state().view(None)
    finally:
        stream.close()


#: The seed of the table whose events are checked seat by seat (see the test).
EVENTS_SEED = 2026


def next_event(chunks) -> dict:
    """The next ``version`` event read from a stream's chunks."""
    text = ""
    while "event: version" not in text or not text.endswith("\n\n"):
        text += next(chunks).decode()
    (event,) = version_events(text)
    return event


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seats_event_carries_its_own_view_and_nobody_elses(make_app, game, monkeypatch):
    seat_events_check(make_app, game, monkeypatch)


def seat_events_check(make_app, game, monkeypatch) -> int:
    """A seat's (or the host's) stream adds to the public envelope what that viewer's own
    view adds (``"mine"``), so the phone needs no refetch; merged, it is the viewer's view
    exactly (its blocked cards and their rule links included), and it holds nothing else,
    so nothing of another seat's hand.

    The deal is pinned (a table's seed is otherwise drawn afresh): with some deals 12
    random moves meet no blocked card, or end a duel before the last move."""
    monkeypatch.setattr(base, "secrets", SimpleNamespace(randbits=lambda bits: EVENTS_SEED))
    moves = 12
    app = make_app(TABLES_SSE_MAX_EVENTS=moves + 1, TABLES_SSE_KEEPALIVE=5, TABLES_SSE_SECONDS=30)
    players = TablePlayers(app, game).join_all()
    assert players.state().seed == EVENTS_SEED
    viewers = [(seat, players.tokens[seat]) for seat in range(players.players)]
    viewers.append((None, players.host_token))
    opened = [players.host.get(events_url(players, token), buffered=False) for _, token in viewers]
    chunks = [iter(stream.response) for stream in opened]
    rng = random.Random(3)
    blocked = 0
    try:
        for move in range(moves + 1):
            if move:
                players.random_move(rng)
            public = players.envelope(None)
            for (seat, token), stream in zip(viewers, chunks, strict=True):
                event = next_event(stream)
                public_part, mine = split_event(event)
                assert public_part == public
                own = players.get(players.host, f"/api/tables/{players.code}/view", token)
                assert merged(public_part, mine) == own.get_json(), (move, seat)
                # Nothing else: every field of the part is the viewer's own (merged over
                # the public envelope it gives the viewer's view, no more).
                assert set(mine) - {"partial"} <= set(own.get_json())
                assert set(mine["view"]) <= set(own.get_json()["view"])
                blocked += bool(own.get_json()["blocked"])
    finally:
        for stream in opened:
            stream.close()
    return blocked  # how many envelopes held blocked cards (and their rule links)


def test_a_seats_stream_ends_when_its_seat_passes_to_another_phone(make_app):
    """Freed by the host, a seat's open stream closes at the next version instead of
    carrying the new holder's hand, and its ticket no longer opens one."""
    app = make_app(TABLES_SSE_MAX_EVENTS=5, TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=5)
    players = TablePlayers(app, THREE, 3).join_all()
    url = events_url(players, players.tokens[1])
    stream = players.host.get(url, buffered=False)
    try:
        chunks = iter(stream.response)
        text = ""
        while "event: version" not in text:
            text += next(chunks).decode()
        release = f"/api/tables/{players.code}/seats/1/release"
        assert players.post(players.host, release, {}, players.host_token).status_code == 200
        rest = b"".join(chunks).decode()  # ends without another version event
        assert version_events(rest) == []
    finally:
        stream.close()
    again = players.host.get(url)
    assert again.status_code == 401 and "another phone" in again.get_json()["error"]
    taken = players.post(players.phones[0], f"/api/tables/{players.code}/seats", {"name": "Di"})
    assert taken.status_code == 201 and taken.get_json()["seat"] == 1
    assert players.host.get(url).status_code == 401


def test_the_event_stream_ends_on_its_own(make_app):
    app = make_app(TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=0.3)
    players = TablePlayers(app, DUEL)
    stream = players.host.get(events_url(players), buffered=False)
    try:
        text = b"".join(stream.response).decode()
    finally:
        stream.close()
    assert text.count("event: version") == 1 and "event: ping\ndata: 0.05\n\n" in text


@pytest.mark.scale
def test_events_reach_a_stream_held_by_another_worker_through_redis(make_app, redis_url):
    """Two app instances (two workers) on one database and one Redis: an action taken in
    one reaches the event stream held open by the other."""
    one = make_app(REDIS_URL=redis_url, TABLES_SSE_MAX_EVENTS=2, TABLES_SSE_SECONDS=10)
    two = make_app(REDIS_URL=redis_url, TABLES_SSE_MAX_EVENTS=2, TABLES_SSE_SECONDS=10)
    players = TablePlayers(one, DUEL).join_all()
    watcher = two.test_client()
    stream = watcher.get(events_url(players, client=watcher), buffered=False)
    try:
        chunks = iter(stream.response)
        text = ""
        while "event: version" not in text:
            text += next(chunks).decode()
        version = players.envelope(None)["version"]
        players.random_move(random.Random(2))
        rest = b"".join(chunks).decode()
        assert [e["version"] for e in version_events(rest)] == [version + 1]
    finally:
        stream.close()


def test_a_message_from_another_worker_keeps_its_table_before_streams_wake(make_app, redis_url):
    """Two workers on one database and one Redis; the second follows the table (a
    subscription of its own). When the first moves, the second keeps the table as the
    message carries it as soon as the message arrives, before its subscriptions are
    handed the message: a move it serves right after plays on an up-to-date copy (one
    statement) instead of one a version behind. A worker that follows nothing of the table
    parses nothing."""
    one = make_app(REDIS_URL=redis_url)
    two = make_app(REDIS_URL=redis_url)
    three = make_app(REDIS_URL=redis_url)
    players = TablePlayers(one, DUEL).join_all()
    version = players.envelope(None)["version"]
    with two.app_context():
        subscription = live.subscribe(stream_module.channel(players.code))
    with three.app_context():  # its listener runs, for another table only
        elsewhere = live.subscribe(stream_module.channel("OTHER1"))
    try:
        players.random_move(random.Random(2))
        assert subscription.get(timeout=5) is not None  # handed over after the keeping
        facts = two.extensions["tables"].peek(players.code)
        assert facts is not None and facts.version == version + 1
        with one.app_context():
            assert facts == one.extensions["tables"].peek(players.code)
        assert three.extensions["tables"].peek(players.code) is None
    finally:
        subscription.close()
        elsewhere.close()


# -- freeing a seat -------------------------------------------------------------------


def test_the_host_frees_a_lost_phones_seat_and_a_new_phone_gets_its_hand(table_players):
    players = table_players(THREE, 3).join_all(["Ann", "Bob", "Cy"])
    hand = players.envelope(1)["view"]["hand"]
    url = f"/api/tables/{players.code}/seats/1/release"
    before = players.snapshot()
    assert players.post(players.host, url, {}, players.tokens[0]).status_code == 403
    assert players.post(players.host, url, {}).status_code == 401
    assert players.snapshot() == before

    freed = players.post(players.host, url, {}, players.host_token)
    assert freed.status_code == 200
    body = freed.get_json()
    assert body["players"] == ["Ann", None, "Cy"] and body["started"] is False
    assert players.view(1).status_code == 401  # the lost phone's token is dead
    # Play waits for the seat to be taken again.
    state = players.state()
    waiting = players.act(0, state.legal_actions(state.to_act()[0])[0], body["version"])
    assert waiting.status_code == 422 and "1 still to join" in waiting.get_json()["error"]
    again = players.post(players.host, url, {}, players.host_token)
    assert again.status_code == 422 and "not taken" in again.get_json()["error"]

    joined = players.post(players.phones[1], f"/api/tables/{players.code}/seats", {"name": "Bo"})
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1
    players.tokens[1] = joined.get_json()["token"]
    env = players.envelope(1)
    assert env["view"]["hand"] == hand and env["started"] is True
    assert env["players"] == ["Ann", "Bo", "Cy"]


# -- the hot path ---------------------------------------------------------------------


@pytest.mark.parametrize("kept", ["current", "none", "stale"])
def test_an_action_reads_the_table_row_once(app, table_players, kept):
    """A move locks the table's row and reads it once, then writes; nothing is read again
    after the commit (announcing the new version uses what was already loaded). When this
    process keeps the table at its current version (``store.locked_kept``: the views just
    read it), the lock reads the version alone; when it keeps nothing, or an older version
    (another process moved meanwhile), the row is locked and loaded, then its seats (a
    second statement, after the lock: ``store.lock_table``)."""
    from sqlalchemy import event

    from companion.tables.kept import TableFacts

    players = table_players(DUEL).join_all()
    seat = players.envelope(None)["to_act"][0]
    env = players.envelope(seat)
    if kept != "current":
        with app.app_context():
            tables = app.extensions["tables"]
            facts = tables.peek(players.code)
            tables.clear()
            if kept == "stale":  # kept by this process at the version before
                older = TableFacts(**{**vars(facts), "version": facts.version - 1})
                tables.put(players.code, older)
    statements: list[str] = []

    def record(conn, cursor, statement, *args):
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        answer = players.act(seat, env["legal"][0], env["version"])
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert answer.status_code == 200
    assert answer.get_json()["version"] == env["version"] + 1
    assert players.envelope(seat) == answer.get_json()
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    versions = [s for s in reads if s.startswith("SELECT version FROM game_table")]
    loads = [s for s in reads if "FROM game_table" in s and s not in versions]  # the row
    seats = [s for s in reads if "FROM seat" in s and "game_table" not in s]  # then its seats
    assert (len(versions), len(loads), len(seats)) == {
        "current": (1, 0, 0),
        "none": (0, 1, 1),
        "stale": (1, 1, 1),
    }[kept], reads
    assert len(reads) == len(versions) + len(loads) + len(seats), reads
    # Everything a move sends: the write lock, those reads, the snapshot, the log's row
    # (a stale copy's version read is given up, and the lock taken again with the load).
    kinds = [s.split()[0].upper() for s in statements]
    expected = {
        "current": ["BEGIN", "SELECT", "UPDATE", "INSERT"],
        "none": ["BEGIN", "SELECT", "SELECT", "UPDATE", "INSERT"],
        "stale": ["BEGIN", "SELECT", "BEGIN", "SELECT", "SELECT", "UPDATE", "INSERT"],
    }
    assert kinds == expected[kept], statements


def test_a_change_made_while_a_stream_subscribes_is_not_lost(make_app, monkeypatch):
    """A move committed while the events route is subscribing is either in the first
    version the stream sends or announced on it: a phone reconnecting with the old version
    must not be left without news of it."""
    from companion import live

    app = make_app(TABLES_SSE_MAX_EVENTS=1, TABLES_SSE_SECONDS=5)
    players = TablePlayers(app, DUEL).join_all()
    version = players.envelope(None)["version"]
    subscribe = live.subscribe

    def subscribe_after_a_move(channel):
        with app.app_context():  # another phone's move, committed and announced just now
            players.random_move(random.Random(4))
        return subscribe(channel)

    url = events_url(players)
    monkeypatch.setattr(live, "subscribe", subscribe_after_a_move)
    stream = players.host.get(url, buffered=False)
    try:
        text = b"".join(stream.response).decode()
    finally:
        stream.close()
    assert [e["version"] for e in version_events(text)] == [version + 1]


def test_a_broker_that_is_down_does_not_turn_a_stored_move_into_an_error(
    table_players, monkeypatch, caplog
):
    from companion import live

    players = table_players(DUEL).join_all()
    seat = players.envelope(None)["to_act"][0]
    env = players.envelope(seat)

    def down(channel, message):
        raise ConnectionError("Redis is unreachable")

    monkeypatch.setattr(live, "publish", down)
    answer = players.act(seat, env["legal"][0], env["version"])
    assert answer.status_code == 200
    assert answer.get_json()["version"] == env["version"] + 1 == players.snapshot()[0]
    assert "Could not announce" in caplog.text


def test_a_move_stores_its_snapshot_version_and_log_row(app, table_players):
    """The move's two plain statements write what the ORM used to: the snapshot (it
    restores to the state the answer shows), the version, the row's ``updated_at``, and
    one log row; the table object holds nothing more for the commit to write."""
    from sqlalchemy import select

    players = table_players(FOUR, 4).join_all()
    seat = players.envelope(None)["to_act"][0]
    env = players.envelope(seat)
    with app.app_context():
        before = db.session.scalar(select(Table).where(Table.code == players.code))
        updated, version = before.updated_at, before.version
        db.session.remove()
    answer = players.act(seat, env["legal"][0], env["version"])
    assert answer.status_code == 200
    with app.app_context():
        table = db.session.scalar(select(Table).where(Table.code == players.code))
        assert table.version == version + 1 == answer.get_json()["version"]
        assert table.updated_at > updated
        assert store.state_of(table).view(seat) == answer.get_json()["view"]
        rows = db.session.scalars(select(Action).where(Action.table_id == table.id)).all()
        assert [(r.version, r.seat, r.action) for r in rows] == [
            (version + 1, seat, env["legal"][0])
        ]

"""The game log and the replay over HTTP (issue 26, companion/tables/log.py).

Every phone reads the same public log (it needs no token and answers the same whoever
asks), which is exactly the engine's public log of the stored actions; its words for a
move are proven no more telling than the public view by tests/games/test_moments.py, and
the shared ``table_players`` harness checks that no answer held the seed, a token hash or
the raw state. The replay opens after the game only."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import GAMES, moments

from .test_tables_api import table_players  # noqa: F401  (the fixture)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_phone_reads_the_public_log_of_the_stored_actions(table_players, game):  # noqa: F811
    players = table_players(game)
    players.join_all()
    rng = random.Random(5)
    url = f"/api/tables/{players.code}/log"
    for step in range(40):
        state = players.state()
        if state.is_over():
            break
        if step % 5 == 0:
            expected = json.loads(json.dumps(moments.public_log(GAMES[game], state)))
            answers = [players.get(players.host, url).get_json()]
            for seat, phone in enumerate(players.phones):
                answers.append(players.get(phone, url, players.tokens[seat]).get_json())
            for answer in answers:
                assert answer["events"] == expected
                assert answer["version"] == players.envelope(None)["version"]
        players.random_move(rng)


def test_the_replay_opens_after_the_game_and_shows_the_table_as_it_was(table_players):  # noqa: F811
    players = table_players("call_the_shot")
    players.join_all()
    url = f"/api/tables/{players.code}/replay"
    early = players.get(players.host, f"{url}?step=0")
    assert early.status_code == 409 and "once the game is over" in early.get_json()["error"]
    rng = random.Random(2)
    while not players.state().is_over():
        players.random_move(rng)
    state = players.state()
    steps = len(state.log)
    for step in (0, 1, steps):
        answer = players.get(players.phones[0], f"{url}?step={step}").get_json()
        expected = GAMES["call_the_shot"].replay(state, upto=step).view(None)
        assert answer == {"step": step, "steps": steps, "view": json.loads(json.dumps(expected))}
        assert "hand" not in answer["view"]  # the table's view: never a hand
    for bad, status in ((f"{url}?step={steps + 1}", 422), (f"{url}?step=x", 400), (url, 400)):
        answer = players.get(players.host, bad)
        assert answer.status_code == status, (bad, answer.get_json())

"""The hot path's JSON text (orjson) reads back as the standard library's does."""

from __future__ import annotations

import json
import random

from companion import jsontext
from companion.games import GAMES


def test_a_played_states_snapshot_and_views_read_back_the_same():
    rng = random.Random(7)
    for game in GAMES.values():
        players = game.min_players
        state = game.new_state(players, seed=11)
        for _ in range(40):
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for value in (state.to_dict(), state.view(None), state.view(0)):
            text = jsontext.dumps(value)
            assert json.loads(text) == value == jsontext.loads(text)
            assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_names_outside_ascii_and_huge_integers():
    value = {"name": "Zoë 🂡", "seed": 2**70, "n": [1.5, None, True]}
    text = jsontext.dumps(value)  # orjson refuses 2 ** 70: the standard library writes it
    assert json.loads(text) == value
    assert jsontext.loads(jsontext.dumps({"name": "Zoë"})) == {"name": "Zoë"}

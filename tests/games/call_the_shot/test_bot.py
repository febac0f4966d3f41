"""The Call the Shot bot: its easy play, its sampled worlds, its searches."""

from __future__ import annotations

import random

import pytest

from companion.bots import bot_for, decide, should_act
from companion.games import GAMES

GAME = GAMES["call_the_shot"]
BOT = bot_for(GAME)
BUDGET = {"iterations": 40, "seconds": 1e9}

MOH, AIM, WOUND, KILL, HEAD, COWARD = (
    "man_of_honour", "deadly_aim", "shoot_to_wound", "shoot_to_kill", "headshot", "coward",
)  # fmt: skip


def duel(hands, face_up, face_down, challenger=0):
    deal = {"challenger": challenger, "hands": hands, "face_up": face_up, "face_down": face_down}
    return GAME.new_state(2, None, seed=3, deal=deal)


def play(card, claim=None):
    return {"type": "play", "card": card, "claim": claim or card}


def easy(state, seat):
    return decide(GAME, state.view(seat), state.legal_actions(seat), "easy", random.Random(2))


def test_easy_plays_the_coward_first_with_a_strong_claim():
    state = duel(
        [[COWARD, HEAD, WOUND, MOH, AIM], [MOH, MOH, AIM, AIM, WOUND]],
        face_up=[KILL, KILL],
        face_down=[HEAD, WOUND],
    )
    action = easy(state, 0)
    assert action["card"] == COWARD and action["claim"] in (HEAD, KILL)


def test_easy_calls_when_its_top_card_beats_the_claim_and_plays_on_when_not():
    state = duel(
        [[HEAD, WOUND, MOH, AIM, AIM], [MOH, MOH, AIM, WOUND, KILL]],
        face_up=[COWARD, HEAD],
        face_down=[WOUND, KILL],
    )
    state.apply(0, play(HEAD))
    state.apply(1, play(WOUND))
    assert easy(state, 0) == {"type": "call"}, "a Headshot beats a claimed Shoot to Wound"
    other = duel(
        [[WOUND, HEAD, MOH, AIM, AIM], [MOH, MOH, AIM, WOUND, KILL]],
        face_up=[COWARD, HEAD],
        face_down=[WOUND, KILL],
    )
    other.apply(0, play(WOUND))
    other.apply(1, play(KILL, WOUND))
    assert easy(other, 0) == play(HEAD), "a tie is no reason to call: play the Headshot"


def test_easy_answers_a_claimed_headshot_with_a_man_of_honour():
    state = duel(
        [[HEAD, WOUND, AIM, AIM, KILL], [MOH, WOUND, AIM, WOUND, KILL]],
        face_up=[COWARD, HEAD],
        face_down=[MOH, MOH],
    )
    state.apply(0, play(HEAD))
    assert easy(state, 1) == play(MOH)


def test_samples_keep_what_the_claims_prove():
    # seat 1 plays a Shoot to Wound claimed as one: from seat 0's view that card is not a
    # Man of Honour, though two Men of Honour are unseen
    state = duel(
        [[HEAD, WOUND, MOH, AIM, AIM], [MOH, WOUND, AIM, KILL, HEAD]],
        face_up=[COWARD, KILL],
        face_down=[WOUND, MOH],
    )
    state.apply(0, play(HEAD))
    state.apply(1, play(WOUND, KILL))
    view = state.view(0)
    rng = random.Random(1)
    cards = set()
    for _ in range(300):
        world = GAME.state_from_dict(BOT.sample(view, rng))
        card = world.to_dict()["state"]["played"][1][0]["card"]  # ids in the snapshot
        assert card != MOH
        cards.add(card)
        assert world.view(0) == view and world.legal_actions(0) == state.legal_actions(0)
    assert cards == {WOUND, AIM, KILL, HEAD}, "every other unseen card is possible"


def test_should_act_on_its_turn_only():
    state = duel(
        [[HEAD, WOUND, MOH, AIM, AIM], [MOH, WOUND, AIM, KILL, HEAD]],
        face_up=[COWARD, KILL],
        face_down=[WOUND, MOH],
    )
    assert should_act(GAME, state.view(0)) and not should_act(GAME, state.view(1))


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_searches_call_a_sure_win(level):
    # seat 0 shows a Headshot; the other Headshot and the Coward are face up, and seat 0
    # holds every Man of Honour: nothing seat 1 played can win, so seat 0 calls
    state = duel(
        [[HEAD, MOH, MOH, MOH, AIM], [WOUND, WOUND, AIM, KILL, KILL]],
        face_up=[COWARD, HEAD],
        face_down=[WOUND, AIM],
    )
    state.apply(0, play(HEAD))
    state.apply(1, play(KILL))
    view = state.view(0)
    action = decide(GAME, view, state.legal_actions(0), level, random.Random(4), BUDGET)
    assert action == {"type": "call"}


def test_the_fast_rollout_plays_as_the_easy_player():
    """rollout and rollout_id read the engine's integer cards (no view) and choose what
    the easy player chooses from the view, with the same draws for a bluff."""
    from tests.games.test_bots import positions

    checked = 0
    for players in range(GAME.min_players, GAME.max_players + 1):
        for index, (state, seat) in enumerate(positions(GAME.slug, players)):
            view, legal = state.view(seat), state.legal_actions(seat)
            easy = BOT.easy(view, legal, random.Random(index))
            blind = GAME.state_from_dict(state.to_dict())
            blind.view = None  # a rollout that builds a view fails
            fast = BOT.rollout(blind, seat, random.Random(index))
            assert fast == easy, (view, fast)
            assert GAME.action_of(BOT.rollout_id(blind, seat, random.Random(index))) == easy
            checked += 1
    assert checked > 10


def test_a_playout_never_builds_a_view_or_an_action(monkeypatch):
    from companion.bots.search import playout

    def refuse(*args, **kwargs):
        raise AssertionError("a playout went the slow way")

    for seed in range(10):
        state = GAME.new_state(2, {"shots_to_lose": 3}, seed=seed)
        start = state.view(0)
        for name in ("view", "legal_actions", "apply", "_view"):
            monkeypatch.setattr(type(state), name, refuse)
        playout(BOT, start, state, random.Random(seed))
        monkeypatch.undo()
        assert state.duel == 1

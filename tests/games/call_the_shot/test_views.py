"""What each seat and the table may see, and what nobody ever sees."""

import json

import pytest

from companion.games.call_the_shot.engine import CallTheShotState

from .checks import disguise, leak_check
from .helpers import GAME, act, duel, make_deal, new, snap

DEAL = make_deal(
    ["headshot", "deadly_aim", "shoot_to_kill", "man_of_honour", "man_of_honour"],
    ["shoot_to_wound", "shoot_to_wound", "deadly_aim", "man_of_honour", "coward"],
    ["headshot", "deadly_aim"],
    ["shoot_to_wound", "shoot_to_kill"],
)


def test_a_seat_sees_its_hand_the_face_up_cards_claims_counts_and_shots():
    state = new(DEAL)
    act(state, ("deadly_aim", "headshot"), ("coward", "man_of_honour"))
    view = state.view(0)
    assert view["hand"] == ["man_of_honour", "man_of_honour", "shoot_to_kill", "headshot"]
    assert view["face_up"] == ["deadly_aim", "headshot"]
    assert view["claims"] == [["headshot"], ["man_of_honour"]]
    assert view["hand_counts"] == [4, 4] and view["face_down_count"] == 2
    assert view["scores"] == [0, 0] and view["shots_to_lose"] == 3
    assert (view["turn"], view["my_turn"], view["can_call"]) == (0, True, True)
    assert view["my_plays"] == [{"card": "deadly_aim", "claim": "headshot"}]
    assert state.view(1)["my_plays"] == [{"card": "coward", "claim": "man_of_honour"}]
    assert state.view(1)["my_turn"] is False
    table = state.view(None)
    assert "hand" not in table and "my_plays" not in table
    assert table["claims"] == view["claims"] and table["face_up"] == view["face_up"]


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_hidden_cards_do_not_change_any_view(seat):
    state = new(DEAL)
    act(state, ("deadly_aim", "headshot"), "man_of_honour", ("shoot_to_kill", "headshot"))
    leak_check(state, seat, state.view(seat))
    text = json.dumps(state.view(seat))
    if seat != 0:  # the face-down set-aside one, and seat 0's last play
        assert "shoot_to_kill" not in text
    if seat != 1:  # only in seat 1's hand and the face-down set-aside cards
        assert "coward" not in text and "shoot_to_wound" not in text


def test_the_leak_check_catches_a_view_showing_hidden_cards(monkeypatch):
    state = new(DEAL)
    act(state, ("deadly_aim", "headshot"), "man_of_honour")
    honest = CallTheShotState.view
    leaks = {
        "the other hand": lambda s, seat: snap(s)["hands"][1 - (seat or 0)],
        "the face-down cards": lambda s, seat: snap(s)["face_down"],
        "the other plays": lambda s, seat: snap(s)["played"][1 - (seat or 0)],
        "a past deal": lambda s, seat: snap(GAME.start(2, s.options, s.seed, None))["hands"],
    }
    for what, leak in leaks.items():

        def leaky(self, seat, leak=leak):
            return {**honest(self, seat), "extra": leak(self, seat)}

        monkeypatch.setattr(CallTheShotState, "view", leaky)
        for seat in (None, 0, 1):
            with pytest.raises(AssertionError):
                leak_check(state, seat, state.view(seat))
                pytest.fail(f"{what} leaked unnoticed")
    monkeypatch.setattr(CallTheShotState, "view", honest)
    leak_check(state, 0, state.view(0))


def test_the_disguised_state_differs_in_every_hidden_card():
    state = new(DEAL)
    act(state, "headshot", "coward")
    other = disguise(state, 0)
    assert (
        snap(other)["hands"][0] == snap(state)["hands"][0]
        and snap(other)["played"][0] == snap(state)["played"][0]
    )
    assert all(
        a != b for a, b in zip(snap(other)["hands"][1], snap(state)["hands"][1], strict=True)
    )
    assert snap(other)["played"][1][0]["card"] != "coward"
    assert all(
        a != b for a, b in zip(snap(other)["face_down"], snap(state)["face_down"], strict=True)
    )


def test_after_a_call_everyone_sees_the_revealed_cards_and_the_deadly_aim():
    state, result = duel(["deadly_aim", "shoot_to_kill"], ["man_of_honour", "headshot"], 0)
    for seat in (None, 0, 1):
        last = state.view(seat)["last_duel"]
        assert last == result and state.view(seat)["duels"] == [result]
        assert [r["card"] for r in last["revealed"]] == ["shoot_to_kill", "headshot"]
        assert [r["deadly_aim"] for r in last["revealed"]] == [True, False]
        assert last["claims"] == [["deadly_aim", "shoot_to_kill"], ["man_of_honour", "headshot"]]
        assert (last["shot"], last["challenger"], last["caller"]) == (1, 0, 0)


def test_the_coward_shown_from_hand_is_in_everyones_view():
    state, result = duel(["shoot_to_wound"], ["headshot"], 0, held1=["coward"])
    for seat in (None, 0, 1):
        last = state.view(seat)["last_duel"]
        assert last["coward"] == 1 and last["revealed"][1]["from_hand"] is True


def _after_one_duel(first_card_of_seat_1):
    """Seat 1 plays an unrevealed first card (then a Headshot that is revealed)."""
    hand1 = [first_card_of_seat_1, "headshot"]
    spare = [c for c in ("shoot_to_kill", "shoot_to_wound") if c != first_card_of_seat_1]
    state = new(make_deal(["man_of_honour", "man_of_honour"], hand1, face_down=spare))
    act(state, "man_of_honour", (first_card_of_seat_1, "headshot"), "man_of_honour", "headshot")
    act(state, "call")
    return state


def test_unrevealed_played_cards_stay_secret_after_the_duel():
    shoot_to_kill, shoot_to_wound = (
        _after_one_duel("shoot_to_kill"),
        _after_one_duel("shoot_to_wound"),
    )
    assert shoot_to_kill.results[0]["shot"] == 1
    for seat in (None, 0, 1):
        assert shoot_to_kill.view(seat) == shoot_to_wound.view(seat)


def test_own_face_down_cards_are_shown_only_while_the_duel_runs():
    state = new(DEAL, shots_to_lose=1)
    act(state, "deadly_aim", "shoot_to_wound", "headshot", ("deadly_aim", "headshot"))
    assert state.view(0)["my_plays"] == [
        {"card": "deadly_aim", "claim": "deadly_aim"},
        {"card": "headshot", "claim": "headshot"},
    ]
    act(state, "call")  # seat 1 still holds the Coward
    assert state.is_over() and state.loser == 1
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert view.get("my_plays", []) == []
        assert view["last_duel"]["revealed"] == [
            {"card": "headshot", "deadly_aim": True, "value": 18, "from_hand": False},
            {"card": "coward", "deadly_aim": False, "value": 0, "from_hand": True},
        ]
        assert view["claims"] == [["deadly_aim", "headshot"], ["shoot_to_wound", "headshot"]]
        leak_check(state, seat, view)


def test_a_view_is_json_and_shares_nothing_with_the_state():
    state, _ = duel(["headshot"], ["shoot_to_kill"], 0)
    view = state.view(0)
    assert json.loads(json.dumps(view)) == view
    before = state.to_dict()
    view["hand"].clear()
    view["duels"][0]["revealed"][0]["card"] = "coward"
    view["face_up"].clear()
    assert state.to_dict() == before

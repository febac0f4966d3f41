"""The rulebook's worked example round, replayed from an explicit deal."""

from .helpers import EXAMPLE, act, new, snap


def test_the_worked_example_round():
    state = new(EXAMPLE)
    act(
        state,
        ("headshot", "headshot"),  # player one tells the truth
        ("coward", "man_of_honour"),  # player two bluffs with the Coward
        ("man_of_honour", "man_of_honour"),  # a Man of Honour can only tell the truth
        ("shoot_to_kill", "shoot_to_wound"),  # player two bluffs again
    )
    assert state.view(0)["claims"] == [
        ["headshot", "man_of_honour"],
        ["man_of_honour", "shoot_to_wound"],
    ]
    assert state.view(0)["hand"].count("shoot_to_wound") == 2
    act(state, "call")  # player one does not believe the Shoot to Wound

    result = state.results[0]
    assert [r["card"] for r in result["revealed"]] == ["man_of_honour", "shoot_to_kill"]
    # Player two had already played the Coward, so it no longer catches her.
    assert result["coward"] is None and result["reason"] == "honour"
    assert result["shot"] == 1
    assert state.shots == [0, 1] and state.scores() == [0, 1]
    # Play continues with a fresh setup and the other player starting.
    assert not state.is_over()
    assert state.duel == 1 and state.challenger == 1 and state.to_act() == [1]
    assert [len(hand) for hand in snap(state)["hands"]] == [5, 5] and snap(state)["played"] == [
        [],
        [],
    ]


def test_the_example_had_player_two_kept_the_coward_in_hand():
    state = new(EXAMPLE)
    act(
        state,
        ("headshot", "headshot"),
        ("man_of_honour", "man_of_honour"),
        ("man_of_honour", "man_of_honour"),
        ("shoot_to_kill", "shoot_to_wound"),
        "call",
    )
    result = state.results[0]
    assert result["coward"] == 1 and result["reason"] == "coward" and result["shot"] == 1
    assert result["revealed"][1]["card"] == "coward"


def test_had_the_bluff_been_true_player_one_would_have_been_shot():
    example = {**EXAMPLE, "hands": [list(EXAMPLE["hands"][0]), list(EXAMPLE["hands"][1])]}
    example["hands"][1][1] = "shoot_to_wound"  # swap her Shoot to Kill with the hidden card
    example["face_down"] = ["shoot_to_kill", "shoot_to_kill"]
    state = new(example)
    act(
        state,
        ("headshot", "headshot"),
        ("coward", "man_of_honour"),
        ("man_of_honour", "man_of_honour"),
        ("shoot_to_wound", "shoot_to_wound"),
        "call",
    )
    assert state.results[0]["shot"] == 0 and state.results[0]["reason"] == "higher"

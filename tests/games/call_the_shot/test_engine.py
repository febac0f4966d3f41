"""Call the Shot engine: setup, turns, calling, showdowns, shots and the end of the game."""

import random
from collections import Counter

import pytest

from companion.games.base import IllegalAction
from companion.games.call_the_shot.rules import CARDS, DECK
from companion.games.cards import rng, shuffled

from .checks import conservation_check
from .helpers import EXAMPLE, GAME, act, duel, make_deal, new, snap


def play_until(state, chooser, stop):
    while not state.is_over() and not stop(state):
        (seat,) = state.to_act()
        state.apply(seat, chooser.choice(state.legal_actions(seat)))


# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_every_duel_sets_two_aside_face_down_two_face_up_and_deals_five_each(seed):
    state = new(seed=seed)
    chooser = random.Random(seed)
    seen = 0
    while not state.is_over():
        duel_number = state.duel
        assert [len(h) for h in snap(state)["hands"]] == [5, 5]
        assert len(snap(state)["face_up"]) == 2 and len(snap(state)["face_down"]) == 2
        assert snap(state)["played"] == [[], []]
        conservation_check(state)
        play_until(state, chooser, lambda s, n=duel_number: s.duel != n)
        seen += 1
    assert seen == len(state.results) >= 3


def test_later_duels_are_shuffled_from_the_seed_per_duel():
    state = new(seed=99)
    chooser = random.Random(3)
    face_downs = []
    while not state.is_over():
        deck = shuffled(DECK, rng(99, "duel", state.duel))
        assert sorted(snap(state)["face_down"]) == sorted(deck[:2])
        assert sorted(snap(state)["face_up"]) == sorted(deck[2:4])
        assert sorted(snap(state)["hands"][0] + snap(state)["hands"][1]) == sorted(deck[4:])
        face_downs.append(sorted(snap(state)["face_down"]))
        number = state.duel
        play_until(state, chooser, lambda s, n=number: s.duel != n)
    assert len(face_downs) >= 3 and len({tuple(f) for f in face_downs}) > 1


def test_an_explicit_deal_is_used_for_the_first_duel():
    deal = {**EXAMPLE, "challenger": 1}
    state = new(deal)
    assert [Counter(h) for h in snap(state)["hands"]] == [Counter(h) for h in deal["hands"]]
    assert Counter(snap(state)["face_up"]) == Counter(deal["face_up"])
    assert snap(state)["face_down"] == deal["face_down"]
    assert state.challenger == 1 and state.to_act() == [1]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].__setitem__(0, "coward"), "exactly once"),
        (lambda d: d["hands"][0].pop(), "exactly 5 cards in hand 0"),
        (lambda d: d["hands"][1].append(d["face_up"].pop()), "exactly 5 cards in hand 1"),
        (lambda d: d["face_down"].append(d["hands"][0].pop()), "exactly 5 cards"),
        (lambda d: d["face_up"].append(d["face_down"].pop()), "exactly 3 cards face up|2 cards"),
        (lambda d: d["hands"].append([]), "two hands"),
        (lambda d: d["hands"][0].__setitem__(0, "joker"), "'joker' .* not a Call the Shot card"),
        (lambda d: d.__setitem__("challenger", 2), "seat 0 or seat 1"),
        (lambda d: d.__setitem__("challenger", True), "seat 0 or seat 1"),
        (lambda d: d.pop("face_down"), "missing face_down"),
        (lambda d: d.__setitem__("dealer", 0), "has no dealer"),
        (lambda d: d.__setitem__("face_up", "headshot"), "exactly 2 cards face up"),
    ],
)
def test_a_bad_deal_is_refused(change, message):
    deal = make_deal()
    change(deal)
    with pytest.raises(IllegalAction, match=message):
        new(deal)


def test_the_deal_must_hold_the_fourteen_cards_exactly():
    deal = make_deal(face_down=["headshot", "coward"])
    deal["face_down"] = ["headshot", "headshot"]  # three Headshots, no Coward
    with pytest.raises(IllegalAction, match="too many: headshot; missing: coward"):
        new(deal)


def test_the_first_challenger_is_a_seeded_coin_toss_shown_to_everyone():
    firsts = [new(seed=seed).first_challenger for seed in range(40)]
    assert set(firsts) == {0, 1}
    for seed in range(6):
        state = new(seed=seed)
        assert new(seed=seed).first_challenger == state.first_challenger
        assert state.first_challenger == rng(seed, "challenger").randrange(2)
        assert state.to_act() == [state.first_challenger]
        for seat in (None, 0, 1):
            assert state.view(seat)["first_challenger"] == state.first_challenger
            assert state.view(seat)["challenger"] == state.first_challenger


def test_a_deal_without_challenger_tosses_for_it():
    deal = make_deal()
    del deal["challenger"]
    firsts = {new(deal, seed=seed).first_challenger for seed in range(20)}
    assert firsts == {0, 1}


# -- turns -----------------------------------------------------------------------------------


@pytest.mark.parametrize("challenger", [0, 1])
def test_the_challenger_moves_first_then_turns_alternate(challenger):
    state = new(make_deal(["man_of_honour"], ["man_of_honour"], challenger=challenger))
    assert state.to_act() == [challenger]
    with pytest.raises(IllegalAction, match="your opponent's turn"):
        honest = {"type": "play", "card": "man_of_honour", "claim": "man_of_honour"}
        state.apply(1 - challenger, honest)
    act(state, "man_of_honour")
    assert state.to_act() == [1 - challenger]
    act(state, "man_of_honour")
    assert state.to_act() == [challenger]


def test_the_challenger_alternates_every_duel_ties_included():
    state = new(seed=7, shots_to_lose=9)
    chooser = random.Random(7)
    play_until(state, chooser, lambda s: False)
    first = state.first_challenger
    assert len(state.results) >= 9
    assert any(r["shot"] is None for r in state.results), "no tie in this game"
    for k, result in enumerate(state.results):
        assert result["challenger"] == (first if k % 2 == 0 else 1 - first)


def test_any_of_the_six_names_may_be_claimed_lies_included():
    state = new(make_deal(["headshot"]))
    claims = {a["claim"] for a in state.legal_actions(0) if a.get("card") == "headshot"}
    assert claims == set(CARDS)
    act(state, ("headshot", "coward"))
    assert state.view(1)["claims"] == [["coward"], []]
    assert state.view(None)["claims"] == [["coward"], []]


def test_a_man_of_honour_must_be_announced_as_one():
    state = new(make_deal(["man_of_honour", "headshot"]))
    claims = {a["claim"] for a in state.legal_actions(0) if a.get("card") == "man_of_honour"}
    assert claims == {"man_of_honour"}
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="Man of Honour can't lie"):
        state.apply(0, {"type": "play", "card": "man_of_honour", "claim": "headshot"})
    assert state.to_dict() == before
    act(state, ("headshot", "man_of_honour"))  # claiming a Man of Honour is fine
    assert snap(state)["played"][0] == [{"card": "headshot", "claim": "man_of_honour"}]


def test_the_shot_can_be_called_only_once_both_have_played():
    state = new(make_deal())
    assert {"type": "call"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="before you have played a card yourself"):
        state.apply(0, {"type": "call"})
    act(state, "man_of_honour")
    assert {"type": "call"} not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="before you have played a card yourself"):
        state.apply(1, {"type": "call"})
    act(state, "deadly_aim")
    assert {"type": "call"} in state.legal_actions(0)
    assert state.view(0)["can_call"] is True
    act(state, "call")
    assert len(state.results) == 1


def test_a_player_with_no_card_left_must_call_and_a_duel_never_sticks():
    state = new(make_deal(challenger=1))
    for _ in range(10):
        (seat,) = state.to_act()
        act(state, snap(state)["hands"][seat][0])
    # The challenger started, so it is the first to run out, with its turn coming up.
    assert state.to_act() == [1] and snap(state)["hands"] == [[], []]
    assert state.legal_actions(1) == [{"type": "call"}]
    assert state.view(None)["must_call"] is True
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="no cards left, so you must call"):
        state.apply(1, {"type": "play", "card": "headshot", "claim": "headshot"})
    assert state.to_dict() == before
    act(state, "call")
    assert state.results[0]["caller"] == 1 and state.duel == 1


def test_the_last_card_of_the_second_player_may_still_be_played():
    state = new(make_deal())
    for _ in range(9):
        act(state, snap(state)["hands"][state.to_act()[0]][0])
    assert state.to_act() == [1] and len(snap(state)["hands"][1]) == 1
    kinds = {a["type"] for a in state.legal_actions(1)}
    assert kinds == {"play", "call"}


# -- the showdown -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays0", "plays1", "caller", "shot", "reason"),
    [
        # higher value wins
        (["headshot"], ["shoot_to_kill"], 0, 1, "higher"),
        (["shoot_to_wound"], ["shoot_to_kill"], 0, 0, "higher"),
        (["deadly_aim"], ["shoot_to_wound"], 0, 0, "higher"),
        # Man of Honour beats Headshot and Shoot to Kill, doubled or not ...
        (["man_of_honour"], ["headshot"], 0, 1, "honour"),
        (["shoot_to_kill"], ["man_of_honour"], 0, 0, "honour"),
        (["man_of_honour"] * 2, ["deadly_aim", "headshot"], 0, 1, "honour"),
        (["deadly_aim", "shoot_to_kill"], ["man_of_honour", "man_of_honour"], 0, 0, "honour"),
        # ... but is worth 0 otherwise, doubled or not
        (["man_of_honour"], ["shoot_to_wound"], 0, 0, "higher"),
        (["deadly_aim", "man_of_honour"], ["man_of_honour", "shoot_to_wound"], 0, 0, "higher"),
        # Deadly Aim doubles the card its owner played directly after it
        (["deadly_aim", "shoot_to_kill"], ["man_of_honour", "headshot"], 0, 1, "higher"),
        (["deadly_aim", "shoot_to_wound"], ["man_of_honour", "shoot_to_kill"], 0, 1, "higher"),
        (["headshot", "deadly_aim"], ["deadly_aim", "headshot"], 0, 0, "higher"),
        # not when another card came in between
        (["deadly_aim", "man_of_honour", "shoot_to_kill"], ["headshot"] * 2, 1, 0, "higher"),
        # a Deadly Aim revealed as the last card is worth 0, even on another Deadly Aim
        (["deadly_aim"], ["man_of_honour"], 0, None, "tie"),
        (["deadly_aim", "deadly_aim"], ["man_of_honour", "man_of_honour"], 0, None, "tie"),
        (["deadly_aim", "deadly_aim"], ["man_of_honour", "shoot_to_wound"], 0, 0, "higher"),
        # equal values: nobody is shot
        (["headshot"], ["headshot"], 0, None, "tie"),
        (["man_of_honour"], ["man_of_honour"], 0, None, "tie"),
        (["headshot", "shoot_to_wound"], ["shoot_to_wound"], 1, None, "tie"),
        (["deadly_aim", "man_of_honour"], ["shoot_to_wound", "deadly_aim"], 0, None, "tie"),
        # a Coward played face down is just worth 0
        (["coward"], ["man_of_honour"], 0, None, "tie"),
        (["coward"], ["shoot_to_wound"], 0, 0, "higher"),
    ],
)
def test_showdown(plays0, plays1, caller, shot, reason):
    state, result = duel(plays0, plays1, caller)
    assert (result["shot"], result["reason"]) == (shot, reason)
    assert result["caller"] == caller
    assert [r["card"] for r in result["revealed"]] == [plays0[-1], plays1[-1]]
    assert state.shots == [int(shot == 0), int(shot == 1)]


def shown(card, value, deadly_aim=False):
    """A card revealed from the table (not the Coward shown from the hand)."""
    return {"card": card, "deadly_aim": deadly_aim, "value": value, "from_hand": False}


@pytest.mark.parametrize(
    ("plays0", "plays1", "caller", "revealed", "shot"),
    [
        pytest.param(
            ["deadly_aim", "shoot_to_kill"],
            ["shoot_to_wound", "headshot"],
            0,
            [shown("shoot_to_kill", 10, deadly_aim=True), shown("headshot", 9)],
            1,
            id="revealed-with-the-card-it-doubles",
        ),
        pytest.param(
            ["deadly_aim", "deadly_aim"],
            ["man_of_honour", "man_of_honour"],
            0,
            [shown("deadly_aim", 0, deadly_aim=True), shown("man_of_honour", 0)],
            None,
            id="two-in-a-row-reveal-the-one-below-doubling-nothing",
        ),
        pytest.param(
            # The Shoot to Kill follows seat 0's Deadly Aim on the table, but it is seat 1's.
            ["deadly_aim", "headshot"],
            ["shoot_to_kill"],
            1,
            [shown("headshot", 18, deadly_aim=True), shown("shoot_to_kill", 5)],
            1,
            id="doubles-only-its-owners-next-card",
        ),
    ],
)
def test_a_deadly_aim(plays0, plays1, caller, revealed, shot):
    _, result = duel(plays0, plays1, caller)
    assert result["revealed"] == revealed
    assert result["shot"] == shot


def test_the_callers_opponent_holding_the_coward_shows_it_and_loses():
    # Seat 1 would win with its Headshot, but still holds the Coward when seat 0 calls.
    state, result = duel(["shoot_to_wound"], ["headshot"], 0, held1=["coward"])
    assert result["shot"] == 1 and result["reason"] == "coward" and result["coward"] == 1
    # The caller still reveals; the Coward is shown from the hand instead of the Headshot.
    assert result["revealed"] == [
        shown("shoot_to_wound", 3),
        {"card": "coward", "deadly_aim": False, "value": 0, "from_hand": True},
    ]
    assert state.shots == [0, 1]


def test_the_challenger_can_be_caught_holding_the_coward_too():
    state, result = duel(["headshot", "headshot"], ["man_of_honour"], 1, held0=["coward"])
    assert result["shot"] == 0 and result["reason"] == "coward"


def test_a_caller_holding_the_coward_gets_nothing_special():
    _, result = duel(["shoot_to_wound"], ["headshot"], 0, held0=["coward"])
    assert result["shot"] == 0 and result["reason"] == "higher" and result["coward"] is None
    _, result = duel(["headshot"], ["shoot_to_wound"], 0, held0=["coward"])
    assert result["shot"] == 1 and result["reason"] == "higher"


def test_a_coward_set_aside_face_up_plays_no_part():
    _, result = duel(["shoot_to_wound"], ["headshot"], 0, face_up=["coward"])
    assert result["shot"] == 0 and result["reason"] == "higher"


# -- shots and the end of the game --------------------------------------------------------


def test_a_tie_shoots_nobody_and_the_next_duel_starts_with_the_other_challenger():
    state, result = duel(["headshot"], ["headshot"], 0)
    assert result["shot"] is None and state.shots == [0, 0]
    assert state.duel == 1 and not state.is_over()
    assert state.challenger == 1 and state.to_act() == [1]
    assert [len(h) for h in snap(state)["hands"]] == [5, 5] and snap(state)["played"] == [[], []]
    assert state.view(None)["last_duel"] == result


def test_after_a_shot_the_next_duel_is_dealt_at_once():
    state, result = duel(["headshot"], ["shoot_to_kill"], 0)
    assert state.shots == [0, 1] and state.scores() == [0, 1]
    assert state.duel == 1 and state.challenger == 1 and state.to_act() == [1]
    deck = shuffled(DECK, rng(state.seed, "duel", 1))
    assert sorted(snap(state)["face_down"]) == sorted(deck[:2])
    conservation_check(state)


@pytest.mark.parametrize("shots_to_lose", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_the_first_player_to_take_enough_shots_loses(shots_to_lose, seed):
    state = new(seed=seed, shots_to_lose=shots_to_lose)
    chooser = random.Random(seed)
    while not state.is_over():
        assert max(state.shots) < shots_to_lose
        (seat,) = state.to_act()
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert max(state.shots) == shots_to_lose
    loser = state.shots.index(shots_to_lose)
    assert min(state.shots) < shots_to_lose
    assert state.loser == loser and state.results[-1]["shot"] == loser
    assert state.scores() == state.shots
    assert state.to_act() == [] and state.legal_actions(0) == state.legal_actions(1) == []
    view = state.view(None)
    assert (view["loser"], view["winners"], view["phase"]) == (loser, [1 - loser], "over")
    assert view["scores"] == state.shots and view["over"] is True
    assert state.winners() == [1 - loser]
    with pytest.raises(IllegalAction, match="The game is over"):
        state.apply(1 - loser, {"type": "call"})


def test_three_shots_by_default():
    state = new(seed=3)
    assert state.options == {"shots_to_lose": 3}
    assert state.view(0)["shots_to_lose"] == 3
    with pytest.raises(IllegalAction, match="from 1 to 9"):
        new(seed=3, shots_to_lose=0)


def test_round_trip_and_replay_of_a_scripted_game():
    state, _ = duel(["deadly_aim", "shoot_to_kill"], ["headshot", "man_of_honour"], 0)
    copy = GAME.state_from_dict(state.to_dict())
    assert copy.to_dict() == state.to_dict()
    assert GAME.replay(state).to_dict() == state.to_dict()


def test_default_options_are_checked_once_and_each_state_has_its_own_copy():
    first = GAME.new_state(2, seed=1)
    second = GAME.new_state(2, {}, seed=2)
    assert first.options == second.options == GAME.check_options(2, {"shots_to_lose": 3})
    assert first.options is not second.options
    first.options["shots_to_lose"] = 9
    assert GAME.new_state(2, seed=3).options == {"shots_to_lose": 3}


def test_a_loaded_state_plays_on_without_changing_its_snapshot():
    import copy
    import random

    for seed in range(20):
        state = GAME.new_state(2, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(3, 15)):
            seat = state.to_act()[0]
            state.apply_id(seat, rng.choice(state.legal_ids(seat)))
        snapshot = state.to_dict()
        kept = copy.deepcopy(snapshot)
        loaded = GAME.state_from_dict(snapshot)
        assert loaded.to_dict() == kept
        twin = GAME.state_from_dict(copy.deepcopy(kept))
        while not loaded.is_over():
            seat = loaded.to_act()[0]
            action = rng.choice(loaded.legal_ids(seat))
            loaded.apply_id(seat, action)
            twin.apply_id(seat, action)
        assert snapshot == kept
        assert loaded.to_dict() == twin.to_dict()

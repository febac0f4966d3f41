"""Pirate Tricks engine: setup, the row auction and its tie paths, ditch, predictions."""

from __future__ import annotations

import copy
import random

import pytest

from companion.games import GAMES
from companion.games.base import IllegalAction
from companion.games.pirate_tricks import rules
from tests.games.pirate_tricks.helpers import saved
from tests.games.pirate_tricks.test_sweep import conservation_check, leak_check

GAME = GAMES["pirate_tricks"]
PLAIN = {
    "recruitment": ["beringa_backing", "even_keel"],
    "treasure": "rich_rewards",
    "capture": "mustel_bounty",
}


def make_deal(players: int, seat_cards: dict | None = None, score: dict | None = None) -> dict:
    """A first-round deal. ``seat_cards[s]`` lists cards for seat ``s`` in this order: its
    5 cards in hand, then row ``s``'s 5 face-up and 2 face-down cards; a shorter list is
    completed, and the other seats filled, from the rest of the deck in order."""
    seat_cards = seat_cards or {}
    used = {c for cards in seat_cards.values() for c in cards}
    rest = iter([c for c in rules.crew_deck(players) if c not in used])
    hands, rows = [], []
    for seat in range(players):
        cards = list(seat_cards.get(seat, []))
        cards += [next(rest) for _ in range(12 - len(cards))]
        hands.append(cards[:5])
        rows.append({"up": cards[5:10], "down": cards[10:12]})
    return {"score_cards": copy.deepcopy(score or PLAIN), "hands": hands, "rows": rows}


def new(players=3, seat_cards=None, score=None, options=None, seed=11):
    deal = make_deal(players, seat_cards, score)
    return GAME.new_state(players, options or {}, seed=seed, deal=deal)


def bid(state, amounts):
    """Bids by seat (None: that seat does not bid)."""
    for seat, loon in enumerate(amounts):
        if loon is not None:
            state.apply(seat, {"type": "bid", "loon": loon})


def take_own_rows(state):
    """Seat r bids 1 on row r, the others 0: seat r takes row r, the last row goes free."""
    while state.phase == "bid":
        row = state.auction["row"]
        for seat in state.auction["bidders"]:
            state.apply(seat, {"type": "bid", "loon": 1 if seat == row else 0})


def ditch(state, choice=None):
    choice = choice or {}
    for seat in state.to_act():
        cards = choice.get(seat) or saved(state)["hands"][seat][:2]
        state.apply(seat, {"type": "ditch", "cards": list(cards)})


def refused(state, seat, action, *words):
    """The action is refused with a message naming ``words``, and nothing changes."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    for word in words:
        assert word.lower() in str(info.value).lower(), str(info.value)
    assert state.to_dict() == before
    return str(info.value)


def all_views_safe(state):
    conservation_check(state)
    for seat in [None, *range(state.players)]:
        leak_check(state, seat, state.view(seat))


# -- setup ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "lowest"), [(3, 36, 9), (4, 48, 5), (5, 60, 1)])
def test_deck_sizes_and_row_layout(players, size, lowest):
    state = GAME.new_state(players, seed=3)
    assert len(rules.crew_deck(players)) == size
    assert min(rules.number(c) for c in rules.crew_deck(players)) == lowest
    assert all(len(hand) == 5 for hand in saved(state)["hands"])
    assert len(state.rows) == players
    assert all(len(r["up"]) == 5 and len(r["down"]) == 2 for r in saved(state)["rows"])
    dealt = [c for h in saved(state)["hands"] for c in h] + [
        c for r in saved(state)["rows"] for c in r["up"] + r["down"]
    ]
    assert sorted(dealt) == sorted(rules.crew_deck(players))  # every card, once
    assert state.loon == [12] * players
    view = state.view(None)
    assert [r["go_first"] for r in view["rows"]] == [True] + [False] * (players - 1)
    assert view["go_first"] is None
    assert view["auction"]["row"] == 0 and view["auction"]["bidders"] == list(range(players))
    assert state.to_act() == list(range(players))
    all_views_safe(state)


def test_round_draws_two_recruitment_one_treasure_one_capture():
    state = GAME.new_state(4, seed=9)
    cards = state.view(None)["score_cards"]
    catalog = GAME.catalog()
    assert len(cards["recruitment"]) == 2
    assert cards["recruitment"][0]["id"] != cards["recruitment"][1]["id"]
    assert all(c in catalog["recruitment"] for c in cards["recruitment"])
    assert cards["treasure"] in catalog["treasure"]
    assert cards["capture"] in catalog["capture"]


def play_out(state, seed=0):
    chooser = random.Random(seed)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    return state


def test_score_cards_are_drawn_without_replacement():
    state = play_out(GAME.new_state(5, {"rounds": 5}, seed=21))
    drawn = [h["score_cards"] for h in state.history]
    recruitment = [c for d in drawn for c in d["recruitment"]]
    assert len(set(recruitment)) == 10
    assert len({d["treasure"] for d in drawn}) == 5
    assert len({d["capture"] for d in drawn}) == 5


def test_same_seed_same_game_and_each_round_reshuffled():
    a, b = GAME.new_state(3, seed=5), GAME.new_state(3, seed=5)
    assert a.to_dict() == b.to_dict()
    assert saved(GAME.new_state(3, seed=6))["hands"] != saved(a)["hands"]
    take_own_rows(a)
    ditch(a)
    first = [list(h) for h in saved(a)["hands"]]
    while a.round == 1:
        seat = a.to_act()[0]
        a.apply(seat, a.legal_actions(seat)[0])
    assert saved(a)["hands"] != first and all(len(h) == 5 for h in saved(a)["hands"])


def test_deal_option_sets_the_first_round():
    deal = make_deal(4, score={**PLAIN, "treasure": "bountiful_booty"})
    state = GAME.new_state(4, seed=1, deal=deal)
    assert saved(state)["hands"] == [
        sorted(h, key=lambda c: ("RGB".index(c[0]), int(c[1:]))) for h in deal["hands"]
    ]
    assert [r["up"] for r in saved(state)["rows"]] == [r["up"] for r in deal["rows"]]
    score_cards = state.view(None)["score_cards"]
    assert score_cards["treasure"]["id"] == "bountiful_booty"
    assert [c["id"] for c in score_cards["recruitment"]] == PLAIN["recruitment"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["hands"].pop(), "each of the 3"),
        (lambda d: d["rows"].pop(), "one row for each"),
        (lambda d: d["hands"][0].pop(), "5 crew cards"),
        (lambda d: d["rows"][0]["down"].pop(), "face-down"),
        (lambda d: d["hands"][0].__setitem__(0, "R1"), "3-player deck"),
        (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "twice"),
        (lambda d: d.pop("rows"), "both"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["score_cards"].update(treasure="no_such"), "no treasure card"),
        (lambda d: d["score_cards"].update(recruitment=["gang_of_two"] * 2), "two different"),
        (lambda d: d["score_cards"].pop("capture"), "capture"),
    ],
)
def test_bad_deal_is_refused(change, words):
    deal = make_deal(3)
    change(deal)
    with pytest.raises(IllegalAction, match=f"(?i){words}"):
        GAME.new_state(3, seed=1, deal=deal)


def test_options_are_checked():
    assert GAME.check_options(3, {}) == {"rounds": 3, "catalog": None}
    assert GAME.check_options(3, {"rounds": 5}) == {"rounds": 5, "catalog": None}
    for bad in ({"rounds": 2}, {"rounds": 6}, {"rounds": "3"}, {"rounds": True}, {"speed": 1}):
        with pytest.raises(IllegalAction):
            GAME.check_options(3, bad)
    with pytest.raises(IllegalAction):
        GAME.check_options(3, {"catalog": {"treasure": [{"id": "x"}]}})
    with pytest.raises(IllegalAction):
        GAME.check_options(3, {"catalog": "nope"})
    # five rounds need five treasure cards: a group may not remove too many
    few = {"remove": [c["id"] for c in GAME.catalog()["treasure"][:3]]}
    with pytest.raises(IllegalAction, match="treasure deck needs at least 5"):
        GAME.check_options(3, {"rounds": 3, "catalog": few})
    custom = {"remove": ["gang_of_four"], "recruitment": [_card("own", [_per_card(2)])]}
    once = GAME.check_options(3, {"catalog": custom})
    assert GAME.check_options(3, dict(once)) == once
    assert len(GAME.catalog(once)["recruitment"]) == 10
    assert {c["id"] for c in GAME.catalog()["recruitment"]} >= {"gang_of_four"}


def test_catalog_lists_the_three_decks():
    catalog = GAME.catalog()
    assert [len(catalog[k]) for k in ("recruitment", "treasure", "capture")] == [10, 7, 9]


def _card(card_id, effects):
    return {"id": card_id, "name": card_id.replace("_", " ").title(), "effects": effects}


def _per_card(loon):
    return {"kind": "per_card", "filter": {}, "loon": loon}


# -- the auction: a clear winner ----------------------------------------------------------


def test_clear_winner_pays_takes_the_row_and_the_go_first_marker():
    state = new(3)
    row = saved(state)["rows"][0]
    bid(state, [3, 1, 0])
    assert state.loon == [9, 12, 12]
    assert (
        set(row["up"] + row["down"]) <= set(saved(state)["hands"][0])
        and len(saved(state)["hands"][0]) == 12
    )
    assert state.go_first == 0 and state.rows[0]["owner"] == 0
    # the next row, by the players still without one
    assert state.auction["row"] == 1 and state.auction["bidders"] == [1, 2]
    assert state.to_act() == [1, 2]
    event = state.view(None)["events"][-1]
    assert event["bids"] == [3, 1, 0] and event["taker"] == 0 and event["paid"] == 3
    all_views_safe(state)


def test_winner_of_a_lower_row_gets_no_marker():
    state = new(3)
    bid(state, [0, 0, 0])  # row 0: zero tie
    bid(state, [0, 4, 2])  # row 1: seat 1
    assert state.rows[1]["owner"] == 1 and state.go_first is None
    assert state.loon == [12, 8, 12]


def test_a_bid_is_sealed_and_final_until_everyone_has_bid():
    state = new(3)
    state.apply(0, {"type": "bid", "loon": 5})
    assert state.to_act() == [1, 2]
    assert state.view(0)["auction"]["your_bid"] == 5
    for seat in (None, 1, 2):
        view = state.view(seat)
        assert view["auction"]["your_bid"] is None and view["events"] == []
        assert view["auction"]["waiting"] == [1, 2]
    refused(state, 0, {"type": "bid", "loon": 2}, "already bid")
    all_views_safe(state)


def test_bids_are_limited_to_your_own_loon():
    state = new(3)
    message = refused(state, 0, {"type": "bid", "loon": 13}, "0 to 12")
    assert "loon" in message
    refused(state, 0, {"type": "bid", "loon": -1}, "0 to 12")
    refused(state, 0, {"type": "bid", "loon": 2.5}, "whole number")
    refused(state, 0, {"type": "play", "card": "R15"}, "bid")
    state.apply(0, {"type": "bid", "loon": 12})  # everything you have is fine


def test_a_player_with_a_row_bids_no_more():
    state = new(3)
    bid(state, [2, 0, 0])
    refused(state, 0, {"type": "bid", "loon": 0}, "already have your row")
    assert state.legal_actions(0) == []


# -- ties above zero ----------------------------------------------------------------------


def reveal(state, cards):
    for seat, card in enumerate(cards):
        if card is not None:
            state.apply(seat, {"type": "reveal", "card": card})


def test_tie_above_zero_is_broken_by_the_higher_card_and_the_winner_pays():
    state = new(3, {0: ["B16"], 1: ["R15"]})
    bid(state, [2, 2, 1])
    assert state.phase == "reveal" and state.to_act() == [0, 1]
    assert state.view(None)["auction"]["tied"] == [0, 1]
    refused(state, 2, {"type": "reveal", "card": saved(state)["hands"][2][0]}, "tied")
    refused(state, 0, {"type": "reveal", "card": "R15"}, "in your hand")
    state.apply(0, {"type": "reveal", "card": "B16"})
    # sealed until both have chosen
    assert state.view(0)["auction"]["your_reveal"] == "B16"
    for seat in (None, 1, 2):
        assert "B16" not in str(state.view(seat))
    all_views_safe(state)
    state.apply(1, {"type": "reveal", "card": "R15"})
    assert state.rows[0]["owner"] == 0 and state.go_first == 0
    assert state.loon == [10, 12, 12]
    assert "B16" in saved(state)["hands"][0] and "R15" in saved(state)["hands"][1]  # back in hand
    event = state.view(2)["events"][-1]
    assert event["reveals"] == ["B16", "R15", None] and event["result"] == "tie"
    assert state.auction["row"] == 1 and state.auction["bidders"] == [1, 2]
    all_views_safe(state)


@pytest.mark.parametrize(
    ("first", "second", "winner"),
    [("R15", "G15", 0), ("G15", "R15", 1), ("G15", "B15", 0), ("B15", "G15", 1), ("B15", "R15", 1)],
)
def test_equal_numbers_go_red_over_green_over_blue(first, second, winner):
    state = new(3, {0: [first], 1: [second]})
    bid(state, [4, 4, 0])
    reveal(state, [first, second, None])
    assert state.rows[0]["owner"] == winner
    assert state.loon[winner] == 8 and state.loon[1 - winner] == 12


def test_three_way_tie_reveals_all_three():
    state = new(3, {0: ["G20"], 1: ["R20"], 2: ["B20"]})
    bid(state, [6, 6, 6])
    assert state.to_act() == [0, 1, 2]
    reveal(state, ["G20", "R20", "B20"])
    assert state.rows[0]["owner"] == 1 and state.loon == [12, 6, 12]


# -- zero ties, the second pass and the last row -------------------------------------------


def test_zero_tie_puts_two_loon_on_the_row_and_bidding_moves_on():
    state = new(3)
    bid(state, [0, 0, 0])
    assert state.rows[0]["loon"] == 2 and state.rows[0]["owner"] is None
    assert state.loon == [12, 12, 12]
    assert state.auction == {**state.auction, "row": 1, "pass": 1, "bidders": [0, 1, 2]}
    assert state.view(None)["rows"][0]["loon"] == 2
    assert state.view(None)["events"][-1]["result"] == "zero"


def test_open_rows_are_bid_on_again_from_the_top_and_carry_their_loon():
    state = new(3)
    bid(state, [0, 0, 0])  # row 0: 2 loon
    bid(state, [1, 0, 0])  # row 1: seat 0
    bid(state, [None, 0, 0])  # row 2: 2 loon
    assert state.rows[2]["loon"] == 2
    assert state.auction["pass"] == 2 and state.auction["row"] == 0
    assert state.auction["bidders"] == [1, 2]
    bid(state, [None, 2, 1])  # row 0 again: seat 1 pays 2 and finds 2
    assert state.rows[0]["owner"] == 1 and state.go_first == 1
    # the last row goes free to the last player, with its loon
    assert state.rows[2]["owner"] == 2 and state.phase == "ditch"
    assert state.loon == [11, 12, 14]
    assert [e["result"] for e in state.events] == ["zero", "won", "zero", "won", "free"]
    assert all(len(h) == 12 for h in saved(state)["hands"])
    all_views_safe(state)


@pytest.mark.parametrize("choose_self", [False, True])
def test_zero_tie_on_a_row_with_loon_reveal_winner_chooses(choose_self):
    state = new(3, {1: ["G18"], 2: ["B19"]})
    bid(state, [0, 0, 0])
    bid(state, [1, 0, 0])
    bid(state, [None, 0, 0])
    bid(state, [None, 0, 0])  # second bid on row 0: zero again
    assert state.phase == "reveal" and state.rows[0]["loon"] == 2  # no more loon added
    reveal(state, [None, "G18", "B19"])
    assert state.phase == "assign" and state.to_act() == [2]
    assert state.legal_actions(2) == [{"type": "assign", "seat": 1}, {"type": "assign", "seat": 2}]
    refused(state, 2, {"type": "assign", "seat": 0}, "tied players: seat 2 or 3.")
    refused(state, 1, {"type": "assign", "seat": 1}, "seat 3 won the reveal", "chooses")
    target = 2 if choose_self else 1
    state.apply(2, {"type": "assign", "seat": target})
    assert state.rows[0]["owner"] == target and state.go_first == target
    assert state.loon[target] == 14  # paid nothing, took the 2 loon
    other = 3 - target
    assert state.rows[2]["owner"] == other and state.loon[other] == 14
    assert state.phase == "ditch"
    results = [e["result"] for e in state.events]
    assert results == ["zero", "won", "zero", "chosen", "free"]
    assert state.events[3]["chooser"] == 2 and state.events[3]["taker"] == target


def test_nobody_bids_more_than_twice_on_a_row():
    # All-zero bidding is the longest auction: one pass of zero ties, then the second pass.
    for players in (3, 4, 5):
        state = new(players)
        bids_per_row = {}
        while state.phase in ("bid", "reveal", "assign"):
            if state.phase == "bid":
                row = state.auction["row"]
                for seat in state.auction["bidders"]:
                    bids_per_row[(seat, row)] = bids_per_row.get((seat, row), 0) + 1
                    state.apply(seat, {"type": "bid", "loon": 0})
            else:
                seat = state.to_act()[0]
                state.apply(seat, state.legal_actions(seat)[0])
        assert max(bids_per_row.values()) == 2
        assert sorted(r["owner"] for r in saved(state)["rows"]) == list(range(players))
        assert all(len(h) == 12 for h in saved(state)["hands"])


def test_random_auctions_always_end_with_one_row_each():
    for seed in range(300):
        chooser = random.Random(seed)
        players = 3 + seed % 3
        state = GAME.new_state(players, seed=seed)
        steps = 0
        while state.phase in ("bid", "reveal", "assign"):
            seat = chooser.choice(state.to_act())
            # low bids make ties (the interesting paths) common
            legal = (
                state.legal_actions(seat)[:3] if state.phase == "bid" else state.legal_actions(seat)
            )
            state.apply(seat, chooser.choice(legal))
            steps += 1
        assert steps <= 2 * players * players + 3 * players
        assert sorted(r["owner"] for r in saved(state)["rows"]) == list(range(players))
        per_row = {}
        for event in state.events:
            for seat, amount in enumerate(event.get("bids") or []):
                if amount is not None:
                    per_row[(seat, event["row"])] = per_row.get((seat, event["row"]), 0) + 1
        assert max(per_row.values(), default=0) <= 2
        conservation_check(state)


def test_last_row_goes_free_to_the_last_player():
    state = new(3)
    bid(state, [1, 0, 0])
    bid(state, [None, 1, 0])
    assert state.phase == "ditch" and state.rows[2]["owner"] == 2
    assert state.loon == [11, 11, 12]
    assert state.events[-1] == {
        "row": 2,
        "pass": 1,
        "result": "free",
        "taker": 2,
        "paid": 0,
        "row_loon": 0,
    }


def test_last_row_free_can_be_the_top_row_with_marker_and_loon():
    state = new(3)
    bid(state, [0, 0, 0])
    bid(state, [1, 0, 0])
    bid(state, [None, 1, 0])
    assert state.rows[0]["owner"] == 2 and state.go_first == 2
    assert state.loon == [11, 11, 14]


@pytest.mark.parametrize("players", [4, 5])
def test_bigger_tables_auction_every_row(players):
    state = new(players)
    take_own_rows(state)
    assert [r["owner"] for r in saved(state)["rows"]] == list(range(players))
    assert state.loon == [11] * (players - 1) + [12]
    assert all(len(h) == 12 for h in saved(state)["hands"])


def test_face_down_row_cards_only_for_the_owner_once_taken():
    state = new(3)
    down = list(saved(state)["rows"][0]["down"])
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["rows"][0]["down"] is None
        assert not set(down) & set(str(state.view(seat)).split("'"))
    bid(state, [1, 0, 0])
    assert state.view(0)["rows"][0]["down"] == down
    for seat in (None, 1, 2):
        view = state.view(seat)
        assert view["rows"][0]["down"] is None and view["rows"][0]["down_count"] == 2
        assert not set(down) & set(str(view).split("'"))
    all_views_safe(state)


# -- ditch --------------------------------------------------------------------------------


def test_each_player_ditches_two_cards_sealed():
    state = new(3)
    take_own_rows(state)
    assert state.phase == "ditch" and state.to_act() == [0, 1, 2]
    assert len(state.legal_actions(0)) == 66
    hand = list(saved(state)["hands"][0])
    refused(state, 0, {"type": "ditch", "cards": [hand[0]]}, "two")
    refused(state, 0, {"type": "ditch", "cards": [hand[0], hand[0]]}, "different")
    refused(
        state, 0, {"type": "ditch", "cards": [hand[0], saved(state)["hands"][1][0]]}, "in your hand"
    )
    refused(state, 0, {"type": "ditch", "cards": hand[:3]}, "two")
    state.apply(0, {"type": "ditch", "cards": [hand[5], hand[2]]})  # any order
    assert saved(state)["ditched"][0] == [hand[2], hand[5]]
    assert len(saved(state)["hands"][0]) == 10 and hand[2] not in saved(state)["hands"][0]
    assert state.to_act() == [1, 2]
    refused(state, 0, {"type": "ditch", "cards": saved(state)["hands"][0][:2]}, "already")
    assert state.view(0)["ditched"] == [hand[2], hand[5]]
    assert state.view(1)["ditched"] is None and state.view(None)["ditch_done"] == [
        True,
        False,
        False,
    ]
    all_views_safe(state)
    ditch(state, {1: saved(state)["hands"][1][:2], 2: saved(state)["hands"][2][:2]})
    assert state.phase == "play" and all(len(h) == 10 for h in saved(state)["hands"])
    all_views_safe(state)


# -- predictions --------------------------------------------------------------------------


@pytest.mark.parametrize("treasure", ["tempt_fortune", "extra_loot"])
def test_predictions_go_round_from_the_go_first_holder(treasure):
    state = new(3, score={**PLAIN, "treasure": treasure})
    bid(state, [0, 1, 0])  # row 0 (and the marker) to seat 1
    bid(state, [0, None, 1])
    assert state.go_first == 1
    ditch(state)
    assert state.phase == "predict" and state.to_act() == [1]
    assert state.legal_actions(1) == [{"type": "predict", "tricks": n} for n in range(11)]
    refused(state, 0, {"type": "predict", "tricks": 3}, "seat 2's turn")
    refused(state, 1, {"type": "predict", "tricks": 11}, "0 to 10")
    state.apply(1, {"type": "predict", "tricks": 4})
    assert state.to_act() == [2]
    assert state.view(None)["predictions"] == [None, 4, None]  # public
    state.apply(2, {"type": "predict", "tricks": 0})
    assert state.to_act() == [0]
    state.apply(0, {"type": "predict", "tricks": 10})
    assert state.predictions == [10, 4, 0]
    assert state.phase == "play" and state.to_act() == [1]  # the holder leads


def test_no_predictions_without_a_prediction_card():
    state = new(3)
    take_own_rows(state)
    ditch(state)
    assert state.phase == "play" and state.view(None)["predictions"] is None


def test_tie_above_zero_on_the_second_pass_is_a_reveal_and_the_winner_pays():
    state = new(3, {1: ["R11"], 2: ["G11"]})
    bid(state, [0, 0, 0])
    bid(state, [1, 0, 0])
    bid(state, [None, 0, 0])
    bid(state, [None, 3, 3])  # second bid on row 0
    assert state.phase == "reveal" and state.to_act() == [1, 2]
    reveal(state, [None, "R11", "G11"])  # equal numbers: red wins
    assert state.rows[0]["owner"] == 1 and state.go_first == 1
    assert state.loon == [11, 12 - 3 + 2, 14]
    assert [e["result"] for e in state.events] == ["zero", "won", "zero", "tie", "free"]


@pytest.mark.parametrize(
    ("first", "second", "chooser"),
    [("R17", "G17", 1), ("G17", "R17", 2), ("G17", "B17", 1), ("B17", "G17", 2)],
)
def test_zero_again_reveal_on_equal_numbers_goes_red_over_green_over_blue(first, second, chooser):
    # The rulebook repeats the colour order for the reveal on a row holding 2 loon.
    state = new(3, {1: [first], 2: [second]})
    bid(state, [0, 0, 0])  # row 0: 2 loon
    bid(state, [1, 0, 0])  # row 1: seat 0
    bid(state, [None, 0, 0])  # row 2: 2 loon
    bid(state, [None, 0, 0])  # row 0 again: zero again
    reveal(state, [None, first, second])
    assert state.phase == "assign" and state.to_act() == [chooser]
    assert state.events[-1]["reveal_winner"] == chooser
    assert first in saved(state)["hands"][1] and second in saved(state)["hands"][2]  # back in hand

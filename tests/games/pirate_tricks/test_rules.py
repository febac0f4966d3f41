"""Pirate Tricks scoring: recruitment, the treasure and capture cards, settling, top-ups.

Every worked example of the rulebook is a test here, under its own name.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.pirate_tricks import deck, rules
from companion.games.spec import winners

from .helpers import settle

CATALOG = rules.load_catalog()
CARDS = {c["id"]: c for d in rules.DECKS for c in CATALOG[d]}

GANG_OF_THREE = CARDS["gang_of_three"]
GANG_OF_TWO = CARDS["gang_of_two"]
PARTNERS = CARDS["partners_in_crime"]
BERINGA = CARDS["beringa_backing"]
RICH_REWARDS = CARDS["rich_rewards"]
BOUNTIFUL_BOOTY = CARDS["bountiful_booty"]
MUSTEL_BOUNTY = CARDS["mustel_bounty"]
TEMPT_FORTUNE = CARDS["tempt_fortune"]
EXTRA_LOOT = CARDS["extra_loot"]


def card(kind_deck: str, *effects: dict) -> dict:
    """A custom card through the validating loader, so tests use real card data."""
    raw = {"id": "test_card", "name": "Test Card", "effects": list(effects)}
    catalog = rules.load_catalog({kind_deck: [raw]})
    return next(c for c in catalog[kind_deck] if c["id"] == "test_card")


# -- the rulebook's recruitment examples -------------------------------------------------


def test_example_gang_of_three_red_15_to_18_is_one_run():
    hand = ["R15", "R16", "R17", "R18", "G2", "B4"]
    detail = deck.recruitment_detail(GANG_OF_THREE, hand)
    assert detail["loon"] == 3
    assert len(detail["groups"]) == 1
    assert detail["cards"] == ["R15", "R16", "R17"]


def test_gang_of_three_two_separate_runs_pay_twice():
    assert deck.recruitment_loon(GANG_OF_THREE, ["R15", "R16", "R17", "R18", "R19", "R20"]) == 6
    # numbers in a row but not in one suit are no run
    assert deck.recruitment_loon(GANG_OF_THREE, ["R15", "G16", "R17"]) == 0
    # a gap breaks the run
    assert deck.recruitment_loon(GANG_OF_THREE, ["B9", "B10", "B12", "B13"]) == 0


def test_example_gang_of_two_three_fourteens_pay_2():
    detail = deck.recruitment_detail(GANG_OF_TWO, ["G14", "R14", "B14"])
    assert detail["loon"] == 2
    assert len(detail["groups"]) == 1
    assert len(detail["cards"]) == 2


def test_gang_of_two_counts_neighbours_in_a_suit_too():
    # our reading: two in a row of one suit, or one number in two suits
    assert deck.recruitment_loon(GANG_OF_TWO, ["R7", "R8"]) == 2
    assert deck.recruitment_loon(GANG_OF_TWO, ["R7", "R8", "R9", "R10"]) == 4
    assert deck.recruitment_loon(GANG_OF_TWO, ["R7", "G9"]) == 0
    # the best split, not the first one found: R8+G8 would leave R7 and G9 alone
    detail = deck.recruitment_detail(GANG_OF_TWO, ["R7", "R8", "G8", "G9"])
    assert detail["loon"] == 4
    assert sorted(map(sorted, detail["groups"])) == [["G8", "G9"], ["R7", "R8"]]


def test_example_partners_in_crime_three_of_a_kind_pay_only_2():
    assert deck.recruitment_loon(PARTNERS, ["R11", "G11", "B11"]) == 2
    assert deck.recruitment_loon(PARTNERS, ["R11", "G11"]) == 2
    assert deck.recruitment_loon(PARTNERS, ["R11", "G11", "B12", "G12"]) == 4
    assert deck.recruitment_loon(PARTNERS, ["R11", "R12"]) == 0


def test_example_one_card_serves_both_recruitment_cards():
    hand = ["R13", "R14", "R15", "G13"]
    run = deck.recruitment_detail(GANG_OF_THREE, hand)
    pair = deck.recruitment_detail(PARTNERS, hand)
    assert run["loon"] == 3 and pair["loon"] == 2
    assert "R13" in run["cards"] and "R13" in pair["cards"]


def test_example_beringa_backing_odd_greens():
    assert deck.recruitment_loon(BERINGA, ["G1", "G3", "G4", "R5", "B7", "G19"]) == 3
    assert deck.recruitment_detail(BERINGA, ["G1", "G2", "R3"])["cards"] == ["G1"]
    assert deck.recruitment_loon(BERINGA, ["G2", "R3", "B5"]) == 0


def test_recruitment_refuses_a_bad_hand():
    with pytest.raises(IllegalAction, match="appears twice"):
        deck.recruitment_loon(BERINGA, ["G1", "G1"])
    with pytest.raises(IllegalAction, match="not a crew card"):
        deck.recruitment_loon(BERINGA, ["G21"])


def test_filters_combine():
    c = card(
        "recruitment",
        {"kind": "per_card", "filter": {"suits": "RB", "numbers": [3, 4, 9]}, "loon": 2},
    )
    assert deck.recruitment_loon(c, ["R3", "B4", "G3", "R9", "R10"]) == 6
    c = card(
        "recruitment",
        {"kind": "per_card", "filter": {"min": 5, "max": 6, "parity": "even"}, "loon": 1},
    )
    assert deck.recruitment_loon(c, ["R5", "R6", "G6", "B7", "B4"]) == 2


def test_a_card_with_two_effects_adds_them():
    c = card(
        "recruitment",
        {"kind": "per_card", "filter": {"suits": "R"}, "loon": 1},
        {"kind": "groups", "shape": "set", "size": 3, "loon": 4},
    )
    assert deck.recruitment_loon(c, ["R2", "G2", "B2", "R9"]) == 2 + 4


def _brute_force(shape: str, size: int, hand: list[str]) -> int:
    groups = rules._candidates(shape, size, hand)
    for k in range(len(hand) // size, 0, -1):
        for pick in combinations(groups, k):
            used = [c for g in pick for c in g]
            if len(used) == len(set(used)):
                return k
    return 0


hands = st.lists(
    st.sampled_from([f"{s}{n}" for s in "RGB" for n in range(1, 8)]),
    min_size=0,
    max_size=9,
    unique=True,
)


@settings(max_examples=150, deadline=None)
@given(hand=hands, shape=st.sampled_from(rules.SHAPES), size=st.sampled_from([2, 3]))
def test_groups_are_disjoint_real_and_as_many_as_possible(hand, shape, size):
    found = deck.best_groups_in(shape, size, hand)
    used = [c for g in found for c in g]
    assert len(used) == len(set(used)) and set(used) <= set(hand)
    for group in found:
        assert tuple(group) in rules._candidates(shape, size, group)
    assert len(found) == _brute_force(shape, size, hand)


# -- after the tricks -------------------------------------------------------------------


def test_example_bountiful_booty_ties():
    # Troy 3, Luke 3, Faith 2, Drake 2: 6, 6, 4, 4, nobody third
    assert rules.card_payouts(BOUNTIFUL_BOOTY, [3, 3, 2, 2]) == [6, 6, 4, 4]


@pytest.mark.parametrize(
    ("tricks", "paid"),
    [
        ([5, 3, 2], [6, 4, 2]),
        ([4, 4, 2], [6, 6, 4]),
        ([4, 3, 3], [6, 4, 4]),
        ([10, 0, 0], [6, 0, 0]),  # no trick, no place
        ([4, 3, 2, 1], [6, 4, 2, 0]),
        ([2, 2, 2, 2, 2], [6, 6, 6, 6, 6]),
        ([3, 3, 2, 1, 1], [6, 6, 4, 2, 2]),
    ],
)
def test_bountiful_booty_dense_ranking(tricks, paid):
    assert rules.card_payouts(BOUNTIFUL_BOOTY, tricks) == paid


def test_example_rich_rewards_two_per_trick():
    assert rules.card_payouts(RICH_REWARDS, [4, 6, 0]) == [8, 12, 0]


def test_example_mustel_bounty_one_per_blue_taken():
    won = [["B9", "B10", "R11"], ["G9", "G10", "G11"], ["B20", "R20", "G20"]]
    assert rules.card_payouts(MUSTEL_BOUNTY, [1, 1, 1], won=won) == [2, 0, 1]
    # the shortcut: counts instead of cards
    assert rules.card_payouts(MUSTEL_BOUNTY, [1, 1, 1], counts=[[2], [0], [1]]) == [2, 0, 1]


def test_captured_rank_ties_and_no_place_for_none():
    c = card("capture", {"kind": "captured_rank", "filter": {"suits": "R"}, "payouts": [5, 2]})
    won = [["R9", "R10"], ["R11", "B9"], ["G9"], ["R12", "R13", "R14"]]
    assert rules.card_payouts(c, [1, 1, 1, 1], won=won) == [2, 0, 0, 5]
    won = [["R9"], ["R11"], ["G9"], []]
    assert rules.card_payouts(c, [1, 1, 1, 1], won=won) == [5, 5, 0, 0]


def test_fewest_tricks_ties_collect_and_zero_counts():
    c = card("treasure", {"kind": "fewest_tricks", "loon": 5})
    assert rules.card_payouts(c, [0, 5, 5]) == [5, 0, 0]
    assert rules.card_payouts(c, [2, 2, 6]) == [5, 5, 0]


def test_tempt_fortune_exact_or_one_per_trick_off():
    assert rules.card_payouts(TEMPT_FORTUNE, [3, 5, 2], predictions=[3, 2, 0]) == [6, -3, -2]


def test_extra_loot_per_trick_plus_exact_bonus():
    assert rules.card_payouts(EXTRA_LOOT, [3, 5, 2], predictions=[3, 2, 2]) == [7, 5, 6]


def test_a_prediction_card_needs_predictions():
    with pytest.raises(IllegalAction, match="prediction"):
        rules.card_payouts(TEMPT_FORTUNE, [3, 5, 2])


def test_recruitment_cards_do_not_settle():
    with pytest.raises(IllegalAction, match="not a treasure or capture card"):
        rules.card_payouts(BERINGA, [5, 5, 0])


# -- settle ----------------------------------------------------------------------------


COST = card("capture", {"kind": "per_captured", "filter": {"suits": "R"}, "loon": -2})


def test_settle_pays_both_cards():
    won = [["B9", "B10", "B11"], ["R9", "G10", "G11"], ["R20", "R19", "B20"]]
    result = settle(RICH_REWARDS, MUSTEL_BOUNTY, won, [4, 3, 3], None, [10, 0, 7])
    assert result == {
        "treasure": [8, 6, 6],
        "capture": [3, 0, 1],
        "paid": [11, 6, 7],
        "loon": [21, 6, 14],
    }


def test_settle_a_debt_beyond_your_loon_takes_all_you_have():
    won = [["R9", "R10", "R11"], ["R12", "B9", "B10"], []]
    tricks = [1, 1, 8]
    result = settle(RICH_REWARDS, COST, won, tricks, None, [3, 5, 0])
    # player 1: +2 -6 = -4 with 3 loon: pays all 3; player 2: +2 -2 = 0
    assert result["treasure"] == [2, 2, 16]
    assert result["capture"] == [-6, -2, 0]
    assert result["paid"] == [-3, 0, 16]
    assert result["loon"] == [0, 5, 16]


def test_settle_nets_the_two_cards_before_the_floor():
    # 0 loon, treasure -3 (a miss by 3), capture +2: net -1, floored at 0 (never -1)
    won = [["B9", "B10"], [], []]
    result = settle(TEMPT_FORTUNE, MUSTEL_BOUNTY, won, [0, 5, 5], [3, 5, 5], [0, 4, 4])
    assert result["treasure"][0] == -3 and result["capture"][0] == 2
    assert result["paid"][0] == 0 and result["loon"][0] == 0
    # with 1 loon the same round costs exactly 1: the gain offsets the debt first
    result = settle(TEMPT_FORTUNE, MUSTEL_BOUNTY, won, [0, 5, 5], [3, 5, 5], [1, 4, 4])
    assert result["paid"][0] == -1 and result["loon"][0] == 0


def test_paid_by_place_directly():
    def paid(values, payouts):
        return rules.paid_by_place(rules.places(values), payouts)

    assert paid([0, 0, 0], [6, 4, 2]) == [0, 0, 0]
    assert paid([1, 9, 5], [6]) == [0, 6, 0]
    assert paid([3, 3, 2, 2], [-4]) == [-4, -4, 0, 0]


# -- between rounds and at the end --------------------------------------------------------


def test_top_up_to_five():
    assert rules.top_up([0, 4, 5, 6, 30]) == [5, 5, 5, 6, 30]


def test_winners_most_loon_and_ties_share():
    assert winners([10, 14, 9]) == [1]
    assert winners([14, 14, 9, 14]) == [0, 1, 3]


def test_starting_loon_is_twelve():
    assert rules.STARTING_LOON == 12 and rules.TOP_UP == 5


def test_payout_lines_explain_the_places():
    lines = rules.payout_lines(BOUNTIFUL_BOOTY, [3, 3, 2, 2])
    assert lines == [
        {
            "text": "most tricks: +6 loon; 2nd most tricks: +4 loon; 3rd most tricks: +2 loon "
            "(ties all collect)",
            "kind": "trick_rank",
            "measure": [3, 3, 2, 2],
            "places": [1, 1, 2, 2],
            "amounts": [6, 6, 4, 4],
        }
    ]
    extra = rules.payout_lines(EXTRA_LOOT, [3, 7, 0], predictions=[3, 5, 0])
    assert [line["amounts"] for line in extra] == [[3, 7, 0], [4, 0, 4]]
    assert extra[1]["measure"] == [0, 2, 0]
    with pytest.raises(IllegalAction, match="needs the cards each player took"):
        rules.payout_lines(MUSTEL_BOUNTY, [5, 5, 0])


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    n=st.integers(3, 5),
    treasure=st.sampled_from(CATALOG["treasure"]),
    capture=st.sampled_from(CATALOG["capture"]),
)
def test_settle_never_leaves_negative_loon_and_pays_what_is_owed(data, n, treasure, capture):
    deck = rules.crew_deck(n)
    order = data.draw(st.permutations(deck))
    cuts = sorted(data.draw(st.lists(st.integers(0, 10), min_size=n - 1, max_size=n - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 10], strict=True)]
    won, at = [], 0
    for t in tricks:
        won.append(order[at : at + t * n])
        at += t * n
    predictions = data.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))
    loon = data.draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    result = settle(treasure, capture, won, tricks, predictions, loon)
    for p in range(n):
        owed = result["treasure"][p] + result["capture"][p]
        assert result["loon"][p] >= 0
        assert result["paid"][p] == max(owed, -loon[p])
        assert result["loon"][p] == loon[p] + result["paid"][p]

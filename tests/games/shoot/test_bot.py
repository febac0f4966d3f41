"""The Shoot! bot: its easy bids and plays, its sampled worlds, its searches."""

from __future__ import annotations

import random

import pytest

from companion.bots import bot_for, decide, should_act
from companion.games import GAMES
from companion.games.cards import CARD_IDS, CARD_INDEX
from companion.games.shoot import worlds
from companion.games.shoot.policy import card_chances, expected_tricks
from companion.games.shoot.rules import max_hand
from tests.games.test_bots import positions

GAME = GAMES["shoot"]
BOT = bot_for(GAME)
BUDGET = {"iterations": 40, "seconds": 1e9}


def one_card(hands, trump, dealer=0):
    deal = {"dealer": dealer, "hands": hands, "trump": trump}
    return GAME.new_state(len(hands), {"schedule": [1]}, seed=5, deal=deal)


def bid_of(state, seat, level="easy"):
    view = state.view(seat)
    return decide(GAME, view, state.legal_actions(seat), level, random.Random(1), BUDGET)["bid"]


def test_easy_bids_the_last_deal_as_the_rulebook_advises():
    # seat 1 leads (dealer 0): it bids 1 even with a low card; a non-trump ace without
    # the lead bids 0; any trump without the lead bids 1
    state = one_card([["AC"], ["2H"], ["2S"], ["KD"]], trump="5S")
    assert [bid_of(state, seat) for seat in range(4)] == [0, 1, 1, 0]


def test_easy_bids_more_with_high_trumps():
    strong = [["AS", "KS", "QS", "AH", "AD"], ["2C", "3C", "4C", "5C", "7D"]]
    state = GAME.new_state(
        2, {"schedule": [5]}, seed=1, deal={"dealer": 0, "hands": strong, "trump": "9S"}
    )
    assert bid_of(state, 0) >= 4
    assert bid_of(state, 1) <= 1


def played_to(state, plays):
    for seat, action in plays:
        state.apply(seat, action)
    return state


def test_easy_ducks_with_its_highest_losing_card_once_its_bid_is_made():
    hands = [["KC", "2D", "3D"], ["AC", "QC", "2C"], ["4D", "5D", "6D"]]
    state = GAME.new_state(
        3, {"schedule": [3]}, seed=1, deal={"dealer": 2, "hands": hands, "trump": "9H"}
    )
    played_to(state, [(0, {"type": "bid", "bid": 1}), (1, {"type": "bid", "bid": 0})])
    played_to(state, [(2, {"type": "bid", "bid": 0}), (0, {"type": "play", "card": "KC"})])
    # seat 1 bid 0: the queen loses to the king and is the highest card that loses
    assert decide(GAME, state.view(1), state.legal_actions(1), "easy", random.Random(1)) == {
        "type": "play",
        "card": "QC",
    }


def test_easy_wins_as_cheaply_as_it_can_when_last():
    hands = [["TC", "2D", "3D"], ["4D", "5D", "6D"], ["AC", "JC", "2C"]]
    state = GAME.new_state(
        3, {"schedule": [3]}, seed=1, deal={"dealer": 2, "hands": hands, "trump": "9H"}
    )
    for seat, bid in ((0, 0), (1, 0), (2, 2)):
        state.apply(seat, {"type": "bid", "bid": bid})
    played_to(state, [(0, {"type": "play", "card": "TC"}), (1, {"type": "play", "card": "4D"})])
    action = decide(GAME, state.view(2), state.legal_actions(2), "easy", random.Random(1))
    assert action == {"type": "play", "card": "JC"}


def test_samples_keep_the_voids_shown_and_the_cards_played():
    hands = [["AH", "2C", "3C"], ["2S", "3S", "4S"], ["KH", "5D", "6D"]]
    state = GAME.new_state(
        3, {"schedule": [3]}, seed=1, deal={"dealer": 2, "hands": hands, "trump": "9D"}
    )
    for seat in range(3):
        state.apply(seat, {"type": "bid", "bid": 1})
    played_to(state, [(0, {"type": "play", "card": "AH"}), (1, {"type": "play", "card": "2S"})])
    view = state.view(2)
    rng = random.Random(3)
    for _ in range(200):
        world = GAME.state_from_dict(BOT.sample(view, rng))
        assert not any(card.endswith("H") for card in world.hand_of(1)), "seat 1 showed no heart"
        assert "AH" not in world.hand_of(0) and "2S" not in world.hand_of(1)
        assert world.view(2) == view


def test_should_act_only_while_owing_a_bid_or_on_turn():
    state = one_card([["AC"], ["2H"]], trump="5S")
    assert should_act(GAME, state.view(0))
    state.apply(0, {"type": "bid", "bid": 0})
    assert not should_act(GAME, state.view(0)), "a bid is in: the bot does not bid again"
    state.apply(1, {"type": "bid", "bid": 1})
    assert should_act(GAME, state.view(1)) and not should_act(GAME, state.view(0))


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_searches_bid_one_with_the_ace_of_trumps_and_zero_with_a_low_card(level):
    # dealer 3: seat 0 leads; seat 2 holds the ace of trumps, seat 3 a low card off trump
    state = one_card([["9C"], ["KD"], ["AS"], ["3H"]], trump="5S", dealer=3)
    assert bid_of(state, 2, level) == 1
    assert bid_of(state, 3, level) == 0


def test_the_fast_rollout_plays_as_the_easy_player():
    """rollout and rollout_id read the engine's integer cards (no view) and choose what
    the easy player chooses from the view; a bid, the others' bid the searches expect
    (OTHERS_BID times the easy estimate)."""
    from companion.games.cards import card_ints
    from companion.games.shoot.bot import others_bid
    from tests.games.test_bots import positions

    checked = bids = 0
    for players in range(GAME.min_players, GAME.max_players + 1):
        for index, (state, seat) in enumerate(positions(GAME.slug, players)):
            view, legal = state.view(seat), state.legal_actions(seat)
            easy = BOT.easy(view, legal, random.Random(index))
            if view["phase"] == "bid":
                leads = (view["dealer"] + 1) % players == seat
                hand, trump = card_ints(view["hand"]), card_ints([view["trump"]])[0]
                easy = {"type": "bid", "bid": others_bid(hand, trump, players, leads)}
                bids += 1
            blind = GAME.state_from_dict(state.to_dict())
            blind.view = None  # a rollout that builds a view fails
            fast = BOT.rollout(blind, seat, random.Random(index))
            assert fast == easy, (view, fast)
            fast_id = BOT.rollout_id(blind, seat, random.Random(index))
            assert GAME.action_of(fast_id) == easy
            checked += 1
    assert checked > 10 and bids > 3


def test_a_playout_never_builds_a_view_or_an_action(monkeypatch):
    from companion.bots.search import playout

    def refuse(*args, **kwargs):
        raise AssertionError("a playout went the slow way")

    for players in range(GAME.min_players, GAME.max_players + 1):
        for seed in range(3):
            state = GAME.new_state(players, {"schedule": [5, 3]}, seed=seed)
            rng = random.Random(seed)
            start = state.view(0)
            for name in ("view", "legal_actions", "apply", "_view"):
                monkeypatch.setattr(type(state), name, refuse)
            playout(BOT, start, state, rng)
            monkeypatch.undo()
            assert state.is_over() or state.deal_index == 1


def test_the_real_world_explains_every_play_of_easy_players(monkeypatch):
    """weight replays the deal: against easy players the real hands never misplay, while
    some sampled worlds do (and weigh less)."""
    from tests.games.test_bots import positions

    monkeypatch.setattr(worlds, "MISPLAY", 0.0)
    checked = misplayed = 0
    for players in range(GAME.min_players, GAME.max_players + 1):
        for index, (state, seat) in enumerate(positions(GAME.slug, players)):
            view = state.view(seat)
            if view["phase"] != "play":
                continue
            assert BOT.weight(view, state.to_dict()) > 0, view
            world = BOT.sample(view, random.Random(index))
            misplayed += BOT.weight(view, world) == 0
            checked += 1
    assert checked > 20 and misplayed > 0


def test_easy_takes_tricks_once_its_bid_is_overshot():
    # seat 0 bid 0 and took the first trick: the bonus is gone, each trick is a point, so
    # it leads its ace (a master) to take the next one instead of ducking with the two
    hands = [["KC", "AD", "2D"], ["QC", "3D", "4D"], ["JC", "5D", "6D"]]
    state = GAME.new_state(
        3, {"schedule": [3]}, seed=1, deal={"dealer": 2, "hands": hands, "trump": "9H"}
    )
    for seat in range(3):
        state.apply(seat, {"type": "bid", "bid": 0})
    played_to(state, [(0, {"type": "play", "card": "KC"}), (1, {"type": "play", "card": "QC"})])
    played_to(state, [(2, {"type": "play", "card": "JC"})])  # seat 0 took it: 1 over its bid
    action = decide(GAME, state.view(0), state.legal_actions(0), "easy", random.Random(1))
    assert action == {"type": "play", "card": "AD"}


def test_candidates_keep_one_card_of_each_run_and_the_bids_near_the_estimate():
    hands = [
        ["4C", "5C", "7C", "JC", "TD", "JD", "KD"],
        ["2C", "3C", "8C", "9C", "2D", "3D", "QD"],
    ]
    state = GAME.new_state(
        2, {"schedule": [7]}, seed=1, deal={"dealer": 1, "hands": hands, "trump": "6C"}
    )
    from companion.games.cards import card_ints
    from companion.games.shoot.bot import BID_REACH, BID_REACH_PER_CARD, expected_tricks

    view = state.view(1)  # weak: its estimate is near 0, so the high bids are left out
    bids = [a["bid"] for a in BOT.candidates(view, state.legal_actions(1), random.Random(1))]
    guess = expected_tricks(card_ints(hands[1]), card_ints(["6C"])[0], 2, False)
    reach = BID_REACH + 7 * BID_REACH_PER_CARD
    assert bids == [b for b in range(8) if abs(b - guess) <= reach or b == 0]  # 0 always
    assert 0 in bids and 7 not in bids
    state.apply(0, {"type": "bid", "bid": 2})
    state.apply(1, {"type": "bid", "bid": 2})
    cards = [a["card"] for a in BOT.candidates(state.view(0), state.legal_actions(0), None)]
    # 4C 5C (adjacent) and 7C (6C is the turned-up trump) are one run; JC apart (8C-TC
    # are out); TD JD one run; KD apart (QD is out)
    assert cards == ["4C", "JC", "TD", "KD"]
    # once 8C, 9C are played (a finished trick) and TC is still out, JC is still apart;
    # the 2C on the table now splits nothing of seat 1's: it follows with 3C, 8C / 9C
    state.apply(0, {"type": "play", "card": "4C"})
    cards = [a["card"] for a in BOT.candidates(state.view(1), state.legal_actions(1), None)]
    assert cards == ["2C", "8C"]


def _engine_worlds(view, seat, players, rng):
    """A world sampled the engine's way (a snapshot) and the same world as
    :class:`ShootWorlds` holds one: every hand, and the bids it plays with."""
    from companion.games.cards import CARD_INDEX
    from companion.games.shoot.policy import others_bid

    snapshot = BOT.sample(view, rng)
    hands = [sorted(CARD_INDEX[c] for c in hand) for hand in snapshot["state"]["hands"]]
    bids = list(view["bids"])
    if view["phase"] == "bid":
        trump, leader = CARD_INDEX[view["trump"]], (view["dealer"] + 1) % players
        bids = [others_bid(hands[s], trump, players, s == leader) for s in range(players)]
    return snapshot, (hands, bids)


@pytest.mark.parametrize("payoff", ["lead", "own"])
def test_the_fast_worlds_play_and_weigh_as_the_engine_path(payoff, monkeypatch):
    """ShootWorlds (the strong search's worlds on integer cards, no engine) gives every
    action the value the engine-path playout gives it in the same world, and the same
    weight, when the others play exactly as the easy player (no noise)."""
    from companion.bots import search
    from tests.games.test_bots import positions

    monkeypatch.setattr(worlds, "NOISE", 0.0)
    monkeypatch.setattr(BOT, "payoff", payoff)
    checked = 0
    for players in range(GAME.min_players, GAME.max_players + 1):
        for index, (state, seat) in enumerate(positions(GAME.slug, players)):
            view = state.view(seat)
            if not BOT.should_act(view):
                continue
            fast = BOT.search_worlds(view)
            ids = search.root_ids(GAME, state.legal_actions(seat))
            snapshot, world = _engine_worlds(view, seat, players, random.Random(index))
            engine = search.World(GAME, snapshot)
            for action_id in ids:
                slow = search._try(BOT, view, engine, action_id, random.Random(1))
                assert fast.value(world, action_id, random.Random(1)) == slow
                checked += 1
            assert fast.weight(world[0]) == pytest.approx(BOT.weight(view, snapshot))
    assert checked > 100


def test_the_fast_worlds_keep_what_the_view_shows_and_are_seeded():
    """Every world ShootWorlds draws holds the seat's own hand, deals only unseen cards to
    the others (none of a suit a seat showed void in), and the same seed draws the same
    world and values it the same, noise included."""
    from companion.games.cards import CARD_INDEX
    from companion.games.shoot.policy import SUIT, voids
    from tests.games.test_bots import positions

    for players in (3, 4):
        for index, (state, seat) in enumerate(positions(GAME.slug, players)):
            view = state.view(seat)
            if not BOT.should_act(view):
                continue
            fast = BOT.search_worlds(view)
            world, weight = fast.draw(random.Random(index))
            again, weight_again = fast.draw(random.Random(index))
            assert world == again and weight == weight_again
            hands = world[0]
            mine = sorted(CARD_INDEX[c] for c in view["hand"])
            assert hands[seat] == mine
            seen = {CARD_INDEX[c] for c in [*view["hand"], *view["played"], view["trump"]]}
            seen |= {CARD_INDEX[c] for _, c in view["trick"]}
            dealt = [c for s, hand in enumerate(hands) if s != seat for c in hand]
            assert not seen & set(dealt) and len(dealt) == len(set(dealt))
            assert [len(hand) for hand in hands] == view["hand_sizes"]
            lacking = voids(view)
            for s, hand in enumerate(hands):
                assert all(not lacking[s] >> SUIT[c] & 1 for c in hand)
            for action_id in ids_of(state, seat):
                one = fast.value(world, action_id, random.Random(7))
                assert fast.value(world, action_id, random.Random(7)) == one
            assert world == again  # valuing a world leaves it as it was


def ids_of(state, seat):
    from companion.bots import search

    return search.root_ids(GAME, state.legal_actions(seat))


def test_the_noise_plays_the_others_at_random_never_the_seat(monkeypatch):
    """With NOISE 1 every other seat plays a random card (the easy play is never asked
    for its move); the deciding seat (0) always plays the easy card. Without noise all
    of them ask the easy play."""

    hands = [[0, 1, 2, 3], [13, 14, 26, 27], [15, 16, 28, 29]]  # clubs; no clubs; no clubs
    asked = []

    def spy(hand, *rest):
        asked.append(set(hand) <= {0, 1, 2, 3})  # seat 0's hand
        return real(hand, *rest)

    real = worlds.play_card
    monkeypatch.setattr(worlds, "play_card", spy)
    taken = [0, 0, 0]
    play = [[h.copy() for h in hands], [], 0, [0, 1, 2], taken, 51, 0]
    worlds.play_out(*play, 0, 1.0, random.Random(3))
    assert asked and all(asked) and taken == [4, 0, 0]  # seat 0 leads clubs every trick
    asked.clear()
    play = [[h.copy() for h in hands], [], 0, [0, 1, 2], [0, 0, 0], 51, 0]
    worlds.play_out(*play, 0, 0.0, None)
    assert not all(asked)


def test_worlds_told_the_others_cards_deal_only_those():
    """A benchmark's view may carry ``others_hold`` (what OpenSpiel's oh_hell resampling
    tells its ISMCTS: the cards the other seats hold): the worlds, fast and engine path,
    then deal the others exactly those cards, in varying seats; a game's own view never
    carries it."""
    for players in (3, 4):
        for index, (state, seat) in enumerate(positions(GAME.slug, players)):
            view = state.view(seat)
            assert "others_hold" not in view
            if not BOT.should_act(view):
                continue
            held = sorted(c for s, hand in enumerate(state.hands) if s != seat for c in hand)
            told = dict(view, others_hold=[CARD_IDS[c] for c in held])
            fast = BOT.search_worlds(told)
            drawn = [fast.draw(random.Random(index * 100 + k))[0][0] for k in range(6)]
            for hands in drawn:
                assert sorted(c for s, h in enumerate(hands) if s != seat for c in h) == held
                assert [len(hand) for hand in hands] == view["hand_sizes"]
            world = BOT.sample(told, random.Random(index))["state"]
            dealt = [CARD_INDEX[c] for s, h in enumerate(world["hands"]) if s != seat for c in h]
            assert sorted(dealt) == held
            every = [*dealt, *(CARD_INDEX[c] for c in [*world["stock"], *view["hand"]])]
            assert len(set(every)) == len(every)
            if len(held) > 2 * players:
                assert any(hands != drawn[0] for hands in drawn)


def test_worlds_shown_the_earlier_bids_keep_them_and_weigh_the_hands_by_them():
    """A benchmark's view may carry ``open_bids`` (the bids OpenSpiel's oh_hell shows its
    ISMCTS before its turn): the bidding worlds, fast and engine path, keep those bids and
    weigh each world by how well its hands explain them; without them every bidding
    world weighs 1."""
    state = GAME.new_state(4, {"schedule": [6]}, seed=11)
    seat = 2
    view = state.view(seat)
    assert view["phase"] == "bid" and "open_bids" not in view
    plain = BOT.search_worlds(view)
    assert {plain.draw(random.Random(k))[1] for k in range(20)} == {1.0}
    shown = dict(view, open_bids=[0, 5, None, None])
    fast = BOT.search_worlds(shown)
    weights = []
    for k in range(40):
        (hands, bids), weight = fast.draw(random.Random(k))
        assert bids[:2] == [0, 5]
        assert weight == pytest.approx(BOT.weight(shown, BOT.sample(shown, random.Random(k))))
        weights.append(weight)
    assert max(weights) <= 1.0 and min(weights) < max(weights)
    world = BOT.sample(shown, random.Random(3))["state"]
    assert world["bids"][:2] == [0, 5] and world["bids"][seat] is None


def test_a_tight_deal_keeps_every_void_and_hand_size():
    """Where the voids leave few ways to deal (the quick way's dead ends), the tight way
    still deals every hand its size, no seat a suit it showed void in, every card once;
    the left-over pile gets the rest."""
    clubs, diamonds, hearts, spades = (list(range(13 * s, 13 * s + 13)) for s in range(4))
    lacking = [0, 0b1110, 0b0111, 0b1011]  # seat 1 only clubs, 2 only spades, 3 only hearts
    for spare in (0, 3):
        pool = clubs[:3] + spades[:3] + hearts[:3] + diamonds[:spare]
        sizes = [3, 3, 3, 3]
        for seed in range(30):
            hands, left = worlds._deal_tight(pool, sizes, lacking, [1, 2, 3], random.Random(seed))
            assert hands[0] == [] and [len(h) for h in hands[1:]] == [3, 3, 3]
            assert hands[1:] == [clubs[:3], spades[:3], hearts[:3]]
            assert sorted(left) == diamonds[:spare]
    pool = clubs[:4] + spades[:4]
    lacking = [0, 0b1110, 0, 0]
    seen = set()
    for seed in range(40):
        hands, left = worlds.deal_pool(pool, [2, 2, 3, 3], lacking, 0, random.Random(seed))
        assert all(c in clubs for c in hands[1]) and not left
        assert sorted(c for h in hands for c in h) == sorted(pool)
        seen.add(tuple(hands[2]))
    assert len(seen) > 3


def random_hands(players, size, deals, rng):
    """``deals`` random deals' hands (integer cards) and turned-up cards."""
    deck = list(range(52))
    for _ in range(deals):
        rng.shuffle(deck)
        yield [sorted(deck[s * size : (s + 1) * size]) for s in range(players)], deck[-1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_bid_estimate_matches_the_tricks_random_hands_take(players):
    # every trick goes to someone, so random hands take size / players tricks on
    # average; the uncalibrated estimate took 0.73 at 10 cards and 4 players (share 2.5)
    rng = random.Random(players)
    for size in range(2, max_hand(players) + 1):
        estimates = [
            expected_tricks(hand, trump, players, seat == 0)
            for hands, trump in random_hands(players, size, 100, rng)
            for seat, hand in enumerate(hands)
        ]
        assert sum(estimates) / len(estimates) == pytest.approx(size / players, abs=0.15)


def test_the_calibrated_estimate_keeps_the_ordering_of_hands():
    rng = random.Random(3)
    for players, size in [(2, 12), (4, 10), (4, 3), (5, 7)]:
        pairs = sorted(
            (card_chances(hand, trump, players), expected_tricks(hand, trump, players, False))
            for hands, trump in random_hands(players, size, 50, rng)
            for hand in hands
        )
        estimates = [estimate for _, estimate in pairs]
        assert estimates == sorted(estimates)
        assert estimates[0] < estimates[-1]

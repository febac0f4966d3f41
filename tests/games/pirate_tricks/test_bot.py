"""The Pirate Tricks bot: its easy choices, its worked-out loon, its sampled worlds."""

from __future__ import annotations

import random

import pytest

from companion.bots import bot_for, decide
from companion.games import GAMES
from companion.games.pirate_tricks import bot as pt_bot
from companion.games.pirate_tricks import rules
from companion.games.pirate_tricks.engine import BID, DITCH, PLAY, PREDICT

GAME = GAMES["pirate_tricks"]
BOT = bot_for(GAME)


def states(players, seed):
    """Every state met while easy bots play a 3-round game, with the seat to act."""
    state = GAME.new_state(players, {"rounds": 3}, seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()[0]
        yield state, seat
        view, legal = state.view(seat), state.legal_actions(seat)
        state.apply(seat, decide(GAME, view, legal, "easy", rng))


def test_loon_behind_the_screens_is_worked_out_from_the_open_payments():
    checked = 0
    for state, seat in states(4, 3):
        assert pt_bot.loon_of(state.view(seat)) == state.loon
        checked += 1
    assert checked > 100


def test_samples_keep_shown_cards_in_hand_and_taken_cards_out():
    rng = random.Random(5)
    seen_play = 0
    for state, seat in states(5, 8):
        if state.phase != PLAY or rng.random() < 0.7:
            continue
        view = state.view(seat)
        world = GAME.state_from_dict(BOT.sample(view, rng))
        for per_card in view["recruitment"]:
            for s, entry in enumerate(per_card):
                unplayed = set(entry["cards"]) - {c for p in view["won"] for c in p}
                unplayed -= {c for _, c in view["trick"]["plays"]}
                assert unplayed <= set(world.hand_of(s))
        taken = {c for pile in view["won"] for c in pile}
        assert not taken & {c for s in range(world.players) for c in world.hand_of(s)}
        seen_play += 1
    assert seen_play


def test_easy_reveals_its_highest_card_and_ditches_two_of_its_cards():
    met = set()
    for state, seat in states(3, 1):
        view, legal = state.view(seat), state.legal_actions(seat)
        action = BOT.easy(view, legal, random.Random(1))
        assert action in legal
        if action["type"] == "reveal":
            assert action["card"] == max(view["hand"], key=rules.reveal_key)
        met.add(action["type"])
    assert {"bid", "ditch", "play"} <= met


def test_easy_bids_more_for_a_row_of_high_reds():
    hand = ["B9", "G10", "B11", "G12", "B13"]
    rows = [
        {"up": ["R20", "R19", "R18", "R17", "G20"], "owner": None, "loon": 0},
        {"up": ["B10", "G11", "B12", "G9", "B14"], "owner": None, "loon": 0},
        {"up": ["G13", "B15", "G14", "B16", "G15"], "owner": None, "loon": 0},
    ]
    cards = GAME.new_state(3, None, seed=1).view(0)["score_cards"]
    assert pt_bot.easy_bid(hand, rows, 0, 12, cards, 3) > 0
    assert pt_bot.easy_bid(hand, rows, 1, 12, cards, 3) == 0
    assert pt_bot.easy_bid(hand, rows, 0, 12, cards, 3) <= 12 * pt_bot.BID_CAP


def test_easy_follows_with_the_cheapest_winner_when_last():
    cards = {
        "treasure": {"effects": [{"kind": "per_trick", "loon": 2}]},
        "capture": {"effects": []},
    }
    trick = [[1, "G10"], [2, "G12"]]
    card = pt_bot.play_card(["G14", "G19", "B9"], ["G14", "G19"], trick, 3, True, set(), cards)
    assert card == "G14"
    # a seat that wants no more tricks plays under
    card = pt_bot.play_card(["G11", "G19", "B9"], ["G11", "G19"], trick, 3, False, set(), cards)
    assert card == "G11"


def test_search_candidates_are_legal_and_keep_the_easy_choice():
    phases = set()
    for state, seat in states(4, 2):
        if state.phase not in (BID, DITCH, PREDICT):
            continue
        view, legal = state.view(seat), state.legal_actions(seat)
        few = BOT.candidates(view, legal, random.Random(1))
        assert few and all(a in legal for a in few)
        assert BOT.easy(view, legal, random.Random(1)) in few
        if state.phase == DITCH:
            assert len(few) <= 6 < len(legal)
        phases.add(state.phase)
    assert {BID, DITCH} <= phases


def string_rollout(state, seat):
    """The fast policy written with the string-card rules of thumb (what the bot's
    rollout did before the engine kept integer cards), read from the state's snapshot."""
    saved = state.to_dict()["state"]
    n = state.players
    hand = saved["hands"][seat]
    in_play = state._score_cards()
    phase = state.phase
    if phase == BID:
        rows, row = saved["rows"], saved["auction"]["row"]

        def worth(r):
            return sum(pt_bot.quick_value(c, in_play, n) for c in rows[r]["up"]) + rows[r]["loon"]

        others = [r for r, entry in enumerate(rows) if entry["owner"] is None and r != row]
        have = state.loon[seat]
        gain = worth(row) - sum(map(worth, others)) / len(others) if others else 0.0
        bid = 0
        if gain > 0:
            bid = max(0, min(int(gain * pt_bot.BID_SHARE + 0.5), int(have * pt_bot.BID_CAP)))
        return {"type": "bid", "loon": min(bid, have)}
    if phase == DITCH:
        low = sorted(hand, key=lambda c: pt_bot.quick_value(c, in_play, n))[:2]
        return {"type": "ditch", "cards": sorted(low, key=hand.index)}
    if phase == PREDICT:
        guess = int(pt_bot.expected_tricks(hand, n) + 0.5)
        return {"type": "predict", "tricks": max(0, min(rules.TRICKS, guess))}
    if phase != PLAY:
        return None
    trick = saved["trick"]
    playable = [a["card"] for a in state.legal_actions(seat)]
    gone = set(hand) | {c for pile in saved["won"] for c in pile} | {c for _, c in trick}
    predictions = state.predictions if state._round_cards().predicting else None
    wants = pt_bot.wants_tricks(seat, in_play, predictions, state.tricks, n)
    card = pt_bot.play_card(hand, playable, trick, n, wants, gone, in_play)
    return {"type": "play", "card": card}


def test_the_integer_rollout_plays_as_the_string_rules_of_thumb():
    compared = set()
    for players in (3, 4, 5):
        state = GAME.new_state(players, {"rounds": 3}, seed=40 + players)
        rng = random.Random(players)
        while not state.is_over():
            seat = state.to_act()[0]
            action_id = BOT.rollout_id(state, seat, rng)
            assert action_id in state.legal_ids(seat)
            expected = string_rollout(state, seat)
            if expected is not None:
                assert GAME.action_of(action_id) == expected, state.phase
                compared.add(state.phase)
            assert BOT.rollout(state, seat, rng) == GAME.action_of(action_id)
            state.apply_id(seat, action_id)
    assert {BID, DITCH, PLAY} <= compared


def test_a_playout_never_reads_a_view(monkeypatch):
    from companion.bots import search

    def no_view(self, seat):
        raise AssertionError("a playout built a view")

    for players in (3, 5):
        real = GAME.new_state(players, {"rounds": 3}, seed=players)
        rng = random.Random(players)
        steps = 0
        while not real.is_over() and steps < 400:
            seat = real.to_act()[0]
            view = real.view(seat)
            world = GAME.state_from_dict(BOT.sample(view, rng))
            with monkeypatch.context() as patch:
                patch.setattr(type(world), "view", no_view)
                search.playout(BOT, view, world, rng)
            assert BOT.done(view, world)
            real.apply_id(seat, BOT.rollout_id(real, seat, rng))
            steps += 1


def test_the_bots_recruitment_on_bitmasks_pays_as_the_rules():
    from companion.games.pirate_tricks import deck
    from companion.games.pirate_tricks.engine import _index

    rng = random.Random(4)
    for card in _index({})["recruitment"].values():
        for _ in range(60):
            hand = rng.sample(rules.crew_deck(5), rng.randint(0, 12))
            mask = deck.mask_of(deck.indexes(hand))
            assert deck.recruit_loon(card, mask) == deck.recruitment_loon(card, hand)


def test_another_seats_ditch_is_observed_without_its_cards():
    ditch_a = {"type": "ditch", "cards": ["R1", "G2"]}
    ditch_b = {"type": "ditch", "cards": ["B3", "B4"]}
    assert BOT.observe(ditch_a, 1, 0) == BOT.observe(ditch_b, 1, 0)
    assert BOT.observe(ditch_a, 0, 0) != BOT.observe(ditch_b, 0, 0)
    play = {"type": "play", "card": "R1"}
    assert BOT.observe(play, 1, 0) != BOT.observe({"type": "play", "card": "R2"}, 1, 0)


def test_a_worlds_weight_is_what_its_cards_explain_whichever_it_holds_as_ditched():
    """The weight is per seat the mean likelihood over the ways its cards could split, so
    a world weighs the same whether it holds a seat's cheapest or its dearest cards as
    ditched, and the same as the sample worked out (worlds made elsewhere included)."""
    state, seat = next(
        (state, seat)
        for state, seat in states(4, 6)
        if state.phase == PLAY and sum(state.tricks) == 2
    )
    view = state.view(seat)
    world = BOT.sample(view, random.Random(1))
    other = (seat + 1) % 4
    saved = world["state"]
    hand, out = saved["hands"][other], saved["ditched"][other]
    tables = pt_bot._round_tables(view["score_cards"], 4, view["catalog"])
    worth = {c: tables.quick[pt_bot.deck.INDEX[c]] for c in hand + out}
    pool = sorted(hand + out, key=worth.get)
    low = {**saved, "hands": list(saved["hands"]), "ditched": list(saved["ditched"])}
    high = {**saved, "hands": list(saved["hands"]), "ditched": list(saved["ditched"])}
    low["hands"][other], low["ditched"][other] = pool[2:], pool[:2]
    high["hands"][other], high["ditched"][other] = pool[:-2], pool[-2:]
    made = {k: v for k, v in world.items() if k != "weight"}
    light = BOT.weight(view, {**made, "state": high})
    heavy = BOT.weight(view, {**made, "state": low})
    assert 0 < light < 1
    assert light == pytest.approx(heavy)
    assert light == pytest.approx(BOT.weight(view, world))


def play_view(seed=6):
    state, seat = next(
        (state, seat)
        for state, seat in states(4, seed)
        if state.phase == PLAY and sum(state.tricks) == 2
    )
    return state.view(seat)


def test_a_ditch_of_the_cards_worth_least_is_the_likeliest_split():
    view = play_view()
    quick = pt_bot._round_tables(view["score_cards"], 4, view["catalog"]).quick
    world = BOT.sample(view, random.Random(1))["state"]
    other = (view["seat"] + 1) % 4
    cards = world["hands"][other] + world["ditched"][other]
    worth = {c: quick[pt_bot.deck.INDEX[c]] for c in cards}
    pairs, odds = pt_bot.ditch_splits(cards, set(), set(), quick)
    assert len(pairs) == len(cards) * (len(cards) - 1) // 2
    by_odds = dict(zip(pairs, odds, strict=True))
    cheapest = max(pairs, key=by_odds.get)
    dearest = min(pairs, key=by_odds.get)
    assert sorted(worth[c] for c in cheapest) == sorted(worth.values())[:2]
    assert sorted(worth[c] for c in dearest) == sorted(worth.values())[-2:]
    # a card shown for recruitment stays in hand; one of a suit the seat lacks was ditched
    shown, lacking = cards[0], cards[-1]
    rest = {c[0] for c in cards if c != lacking}
    suit = lacking[0] if lacking[0] not in rest else None
    pairs, _ = pt_bot.ditch_splits(cards, {shown}, {suit} if suit else set(), quick)
    assert pairs and all(shown not in pair for pair in pairs)
    if suit:
        assert all(lacking in pair for pair in pairs)


def test_sampled_ditches_follow_their_likelihood_and_weigh_what_the_cards_explain():
    """The sample chooses each other seat's ditch among its cards in proportion to the
    ditch's likelihood (so cheap ditches far more often than a uniform choice would), and
    the world's weight is, per seat, the mean likelihood over the ways its cards split."""
    view = play_view()
    quick = pt_bot._round_tables(view["score_cards"], 4, view["catalog"]).quick
    seat = view["seat"]
    rng = random.Random(2)
    chosen_below, uniform_below = [], []
    for _ in range(200):
        world = BOT.sample(view, rng)
        state = world["state"]
        weight = 1.0
        for other in range(4):
            out = state["ditched"][other]
            if other == seat or not out:
                continue
            cards = state["hands"][other] + out
            seen = BOT._seen(view)  # what the seat saw: cards shown, suits lacking
            pairs, odds = pt_bot.ditch_splits(
                cards, seen["shown"][other], seen["lacks"][other], quick
            )
            by_odds = dict(zip(pairs, odds, strict=True))
            chosen = tuple(sorted(out, key=cards.index))
            chosen_below.append(by_odds[chosen])
            uniform_below.append(sum(odds) / len(odds))
            weight *= sum(odds) / len(odds)
        assert BOT.weight(view, world) == pytest.approx(weight)
    # the likelihood of the ditch chosen, on average, against that of a ditch at random
    assert sum(chosen_below) > 3 * sum(uniform_below)


def test_search_plays_one_card_of_each_run_with_nothing_between():
    from companion.games.pirate_tricks import deck

    fewer = checked = 0
    for state, seat in states(4, 9):
        if state.phase not in (PLAY, "reveal"):
            continue
        view, legal = state.view(seat), state.legal_actions(seat)
        few = BOT.candidates(view, legal, random.Random(1))
        assert few and all(a in legal for a in few)
        assert BOT.easy(view, legal, random.Random(1)) in few
        fewer += len(few) < len(legal)
        if state.phase != PLAY:
            continue
        # No two kept cards of a suit have only cards out of others' reach between them.
        out = set(view["hand"]) | set(view["ditched"] or [])
        out |= {c for pile in view["won"] for c in pile} | {c for _, c in view["trick"]["plays"]}
        counted = [
            {c for c in deck.CARD if rules.matches(effect["filter"], c)}
            for kind in ("treasure", "capture")
            for effect in rules.filtered_effects(view["score_cards"][kind])
        ]
        kept = sorted(deck.INDEX[a["card"]] for a in few)
        for a, b in zip(kept, kept[1:], strict=False):
            a_id, b_id = deck.CARD[a], deck.CARD[b]
            if deck.SUIT[a] == deck.SUIT[b] and all((a_id in m) == (b_id in m) for m in counted):
                checked += 1
                assert any(deck.CARD[c] not in out for c in range(a + 1, b))
    assert fewer > 5 and checked > 5


def test_a_playout_settles_the_round_and_deals_no_other():
    from companion.bots import search

    checked = 0
    for state, seat in states(4, 12):
        if state.round != 1 or state.phase != PLAY:
            continue
        view = state.view(seat)
        world = GAME.state_from_dict(BOT.sample(view, random.Random(checked)))
        twin = GAME.state_from_dict(world.to_dict())
        search.playout(BOT, view, world, random.Random(3))
        assert world.is_over() and world.round == 1 and len(world.history) == 1
        # The same moves in an untouched copy reach the same settlement, then deal on.
        rng = random.Random(3)
        while twin.round == 1:
            mover = twin.to_act()[0]
            twin.apply_id(mover, BOT.rollout_id(twin, mover, rng))
        assert twin.history[0] == world.history[0] and twin.round == 2
        checked += 1
    assert checked > 5


def test_a_view_sampled_many_times_is_worked_out_once(monkeypatch):
    calls = []
    real = BOT._work_out
    monkeypatch.setattr(BOT, "_work_out", lambda view: calls.append(1) or real(view))
    state, seat = next((s, seat) for s, seat in states(3, 4) if s.phase == PLAY)
    view = state.view(seat)
    for index in range(5):
        world = GAME.state_from_dict(BOT.sample(view, random.Random(index)))
        assert world.view(seat) == view
    assert len(calls) == 1
    BOT.sample(state.view(seat), random.Random(9))  # an equal view, another object
    assert len(calls) == 2

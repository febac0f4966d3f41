"""The PULL! bot: its easy shots, its sampled worlds, its horizon."""

from __future__ import annotations

import random

from companion.bots import bot_for, decide
from companion.bots.search import playout
from companion.games import GAMES
from companion.games.pull import deck, rules
from tests.games.pull.helpers import new, second, shoot

GAME = GAMES["pull"]
BOT = bot_for(GAME)


def easy(state, seat):
    return decide(GAME, state.view(seat), state.legal_actions(seat), "easy", random.Random(1))


def test_easy_takes_a_clay_with_the_lowest_shot_that_still_wins_it():
    # 2 players, seat 1 shoots first: a trap 4 on the 10-point trap target; seat 0 (the
    # last to shoot at it) takes it with its 5, keeping the 8
    state = new(2, {0: ["trap-5", "trap-8"], 1: ["trap-4"]}, ["trap-T3", "skeet-T4"])
    shoot(state, 1, "trap-4", 0)
    assert easy(state, 0) == {"type": "shoot", "card": "trap-5", "target": 0}


def test_easy_second_shot_loses_the_animal():
    # seat 0's second shot goes on the skeet animal after seat 1's 6 is there: it picks a
    # card that loses to the 6, never one that would take the animal
    hands = {0: ["trap-5", "tower-8", "tower-7", "tower-2"], 1: ["trap-4", "looper-6"]}
    state = new(2, hands, ["trap-T3", "skeet-T4"])
    shoot(state, 1, "trap-4", 0)
    shoot(state, 0, "trap-5", 0)
    second(state, 1, "looper-6")
    card = easy(state, 0)["card"]
    assert rules.shot_value(card) < 6 or rules.shot_value(card) == 1


def test_samples_keep_the_suits_a_seat_showed_it_lacks():
    # seat 1 shoots a looper at a trap/skeet pair: it holds neither suit, in every world
    state = new(3, {1: ["looper-3"]}, ["trap-T2", "skeet-T2"], dealer=0)
    assert state.to_act() == [1]
    shoot(state, 1, "looper-3", 0)
    view = state.view(2)
    rng = random.Random(4)
    for _ in range(30):
        world = GAME.state_from_dict(BOT.sample(view, rng))
        assert world.view(2) == view
        assert not {rules.shot_suit(c) for c in world.hand_of(1)} & {"trap", "skeet"}
        assert "looper-3" not in world.to_dict()["state"]["unused"]


def test_samples_keep_the_played_shots_out_of_every_hand():
    state = GAME.new_state(4, {"hands": 1, "teams": True}, seed=9)
    rng = random.Random(2)
    while state.round_no < 3:
        seat = state.to_act()[0]
        state.apply(seat, easy(state, seat))
    seat = state.to_act()[0]
    view = state.view(seat)
    assert len(view["played"]) == 16
    world = GAME.state_from_dict(BOT.sample(view, rng))
    cards = world.to_dict()["state"]  # ids, as the view shows them
    held = {c for hand in cards["hands"] for c in hand} | set(cards["unused"])
    assert not held & set(view["played"])


def test_value_is_the_side_ahead_of_the_other_side():
    state = GAME.new_state(4, {"hands": 1, "teams": True}, seed=1)
    state.totals = [30, 10]
    assert BOT.value(state, 0) == BOT.value(state, 2) == 20
    assert BOT.value(state, 1) == -20


def test_the_horizon_is_the_end_of_the_hand():
    state = GAME.new_state(2, {"hands": 2}, seed=1)
    start = state.view(state.to_act()[0])
    assert not BOT.done(start, state)
    while state.hand_no == 1:
        seat = state.to_act()[0]
        state.apply(seat, easy(state, seat))
    assert BOT.done(start, state)


def test_a_playout_reads_integer_cards_and_never_builds_a_view(monkeypatch):
    state = GAME.new_state(4, {"hands": 2, "teams": True}, seed=3)
    seat = state.to_act()[0]
    view = state.view(seat)
    world = GAME.state_from_dict(BOT.sample(view, random.Random(5)))

    def no_view(self, seat):
        raise AssertionError("a playout built a view")

    monkeypatch.setattr(type(world), "view", no_view)
    monkeypatch.setattr(type(world), "legal_actions", no_view)
    playout(BOT, view, world, random.Random(6))
    assert BOT.done(view, world) and world.hand_no == 2


def test_a_noisy_playout_moves_the_others_at_random_never_the_deciding_seat(monkeypatch):
    # noise 1: every other seat's move is a random legal one, so the rollout policy is
    # asked for the deciding seat's moves alone; noise 0: for every seat's
    state = GAME.new_state(3, {"hands": 1}, seed=4)
    seat = state.to_act()[0]
    view = state.view(seat)
    asked = []
    policy = BOT.rollout_id

    def rollout_id(world, mover, rng):
        asked.append(mover)
        return policy(world, mover, rng)

    monkeypatch.setattr(BOT, "rollout_id", rollout_id)
    for noise, seats in ((1.0, {seat}), (0.0, {0, 1, 2})):
        asked.clear()
        world = GAME.state_from_dict(BOT.sample(view, random.Random(5)))
        playout(BOT, view, world, random.Random(6), noise)
        assert BOT.done(view, world)
        assert set(asked) == seats


def test_the_rollout_is_the_easy_player_on_the_integer_cards():
    # The playouts' policy must be the easy level's choice, made without a view.
    checked = 0
    for players, options in [(2, {}), (3, {}), (4, {"teams": True})]:
        options = {"hands": 1, **options, "targets": {"trap-T2": {"double": 9}}}
        state = GAME.new_state(players, options, seed=players)
        chooser = random.Random(players)
        while not state.is_over():
            for seat in state.to_act():
                action = easy(state, seat)
                assert BOT.rollout(state, seat, chooser) == action
                assert GAME.action_of(BOT.rollout_id(state, seat, chooser)) == action
                checked += 1
            seat = chooser.choice(state.to_act())
            state.apply_id(seat, chooser.choice(state.legal_ids(seat)))
    assert checked > 50


def reference_chance(target, shots, seat, card, side_of):
    """The easy player's chance of taking a target, written out on ids with the rules'
    own resolve_target (the oracle for the bot's card-by-card shortcut)."""
    from companion.games.pull.bot import HOLDS

    result = deck.resolve_target(target, [*shots, [seat, card]], side_of)
    side = side_of[seat]
    if result["side"] != side:
        return 0.0
    best = result["card"]
    shot_at = {s for s, _ in shots} | {seat}
    pending = sum(1 for s in range(len(side_of)) if side_of[s] != side and s not in shot_at)
    matching = rules.shot_suit(best) == rules.target_suit(target)
    return HOLDS[rules.shot_value(best)][matching] ** pending


def test_the_card_by_card_gains_agree_with_the_rules():
    from companion.games.pull import deck
    from companion.games.pull.bot import CARD_COSTS, gains

    chooser = random.Random(12)
    for _ in range(1500):
        players = chooser.choice((2, 3, 4))
        side_of = (
            [s % 2 for s in range(players)] if chooser.random() < 0.5 else list(range(players))
        )
        # Many 1s and 8s, so that cancelled 8s and ties come up often.
        pool = [c for c in range(48) if deck.SHOT_VALUE[c] in (1, 7, 8)] * 2 + list(range(48))
        cards = list(dict.fromkeys(chooser.sample(pool, 14)))
        on, hand = cards[: chooser.randint(0, 2 * players - 1)], cards[2 * players :]
        shots = [[chooser.randrange(players), card] for card in on]
        seat = chooser.randrange(players)
        target = chooser.randrange(len(deck.TARGET))
        got = gains(target, shots, seat, hand, side_of, 6.5)
        ids = [[s, deck.SHOT[c]] for s, c in shots]
        for card in hand:
            chance = reference_chance(deck.TARGET[target], ids, seat, deck.SHOT[card], side_of)
            assert got[card] == 6.5 * chance - CARD_COSTS[card]


def play_easy_until(state, stop):
    while not stop(state):
        seat = state.to_act()[0]
        state.apply(seat, easy(state, seat))
    return state


def test_a_sealed_pick_in_a_sampled_world_is_the_easy_players_choice():
    state = GAME.new_state(4, {"hands": 1, "teams": False}, seed=21)
    play_easy_until(state, lambda s: s.phase == "second" and sum(s.view(0)["picked"]) == 2)
    seat = next(s for s in range(4) if not state.view(0)["picked"][s])
    view = state.view(seat)
    rng = random.Random(3)
    for _ in range(10):
        world = BOT.sample(view, rng)
        loaded = GAME.state_from_dict(world)
        assert loaded.view(seat) == view
        for other in range(4):
            pick = world["state"]["sealed"][other]
            if other == seat or pick is None:
                continue
            # Give the pick back: the easy player chooses it again from that hand.
            again = GAME.state_from_dict(world)
            again.hands[other] = bytes(sorted([*again.hands[other], again.sealed[other]]))
            again.sealed[other] = None
            assert easy(again, other) == {"type": "second", "card": pick}


def test_worlds_where_the_first_shots_are_not_the_easy_ones_weigh_less():
    state = GAME.new_state(4, {"hands": 1, "teams": True}, seed=5)
    play_easy_until(state, lambda s: s.round_no == 2 and len(s.shots[0]) + len(s.shots[1]) == 3)
    seat = state.to_act()[0]
    view = state.view(seat)
    # The real world: everyone shot as the easy player does.
    assert BOT.weight(view, state.to_dict()) == 1.0
    weights = [BOT.weight(view, BOT.sample(view, random.Random(i))) for i in range(40)]
    assert min(weights) < 1.0 and all(w > 0 for w in weights)


def test_the_searches_try_the_easy_players_best_moves():
    state = GAME.new_state(2, {"hands": 1}, seed=2)
    tried = 0
    while not state.is_over():
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        kept = BOT.candidates(view, legal, random.Random(1))
        assert kept == [a for a in legal if a in kept]
        assert len(kept) == min(len(legal), 6) and easy(state, seat) in kept
        tried += len(legal) > 6
        state.apply(seat, easy(state, seat))
    assert tried


def test_worlds_of_two_views_asked_in_turn_each_fit_their_own_view():
    # The bot keeps what one view's worlds share while the same view object is asked.
    state = GAME.new_state(3, {"hands": 1}, seed=4)
    views = []
    while len(views) < 2:
        seat = state.to_act()[0]
        views.append(state.view(seat))
        state.apply(seat, easy(state, seat))
    rng = random.Random(9)
    for _ in range(3):
        for view in views:
            world = GAME.state_from_dict(BOT.sample(view, rng))
            assert world.view(view["seat"]) == view

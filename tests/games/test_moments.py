"""The result card and the public game log of every game (issue 26, games/moments.py).

The log's leak check is generic: at every step of random games, two legal actions of the
seat to move that leave the same public table view must be logged in the same words. So
the log never tells a sealed bid, a face-down card or a pick apart where the table could
not; and the result card, part of every view, is covered by each game's own leak check
(run by the sweep). The rest checks each game's card against its own records."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import GAMES
from companion.games.base import State
from companion.games.moments import public_log, replay_view, words_text

SHORT = {
    "shoot": (3, {"schedule": [3, 2, 1]}),
    "call_the_shot": (2, {"shots_to_lose": 2}),
    "pull": (4, {"hands": 1}),
    "pirate_tricks": (3, {"rounds": 3}),
}


def play(slug: str, seed: int, on_step=None) -> State:
    players, options = SHORT[slug]
    game = GAMES[slug]
    state = game.new_state(players, options, seed=seed)
    chooser = random.Random(seed)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        action = chooser.choice(state.legal_actions(seat))
        if on_step is not None:
            on_step(state, seat)
        state.apply(seat, action)
    return state


def twin(state: State) -> State:
    copy = GAMES[state.slug].state_from_dict(state.to_dict())
    copy.log = list(state.log)
    return copy


@pytest.mark.parametrize("slug", sorted(SHORT))
def test_the_log_says_no_more_than_the_table_saw(slug):
    """Actions the public view cannot tell apart are logged alike (sealed bids, face-down
    plays, secret picks); every state on the way, for three games of each kind."""
    checked = 0
    for seed in range(3):

        def check(state, seat):
            nonlocal checked
            words: dict[str, set] = {}
            for action in state.legal_actions(seat)[:40]:
                after = twin(state)
                said = after.public_words(seat, action)
                after.apply(seat, action)
                seen = json.dumps(after.view(None), sort_keys=True)
                words.setdefault(seen, set()).add(said)
            for said in words.values():
                assert len(said) == 1, f"{slug}: the log tells apart {said}"
            checked += 1

        play(slug, seed, check)
    assert checked > 50


@pytest.mark.parametrize("slug", sorted(SHORT))
def test_the_log_holds_every_result_once_in_order_and_only_public_cards(slug):
    seen_cards: set[str] = set()
    views = []

    def remember(state, seat):
        views.append(json.dumps(state.view(None)))

    state = play(slug, 7, remember)
    views.append(json.dumps(state.view(None)))
    log = public_log(GAMES[slug], state)
    assert [e["step"] for e in log] == sorted(e["step"] for e in log)
    ids = [e["result"]["id"] for e in log if "result" in e]
    assert len(ids) == len(set(ids)) and ids, ids
    assert log[-1].get("result") == state.result()  # the game's last moment closes the log
    for event in log:
        # a card the log names was on the public table by then
        public = "".join(views[: event["step"] + 1])
        parts = event.get("words") or [
            *event["result"]["headline"],
            *[p for line in event["result"]["lines"] for p in line],
        ]
        for part in parts:
            if isinstance(part, dict) and "card" in part:
                seen_cards.add(part["card"])
                assert f'"{part["card"]}"' in public, (slug, event)
        json.dumps(event)


#: Bo (seat 1) holds the only hearts: leading them, he takes both tricks of the first deal.
SHOOT_DEAL = {"dealer": 0, "hands": [["AS", "KS"], ["2H", "3H"], ["QD", "JD"]], "trump": "7C"}


def test_shoot_bids_are_sealed_in_the_log_until_all_are_in():
    game = GAMES["shoot"]
    state = game.new_state(3, {"schedule": [2, 1]}, seed=3, deal=SHOOT_DEAL)
    state.apply(0, {"type": "bid", "bid": 0})
    state.apply(1, {"type": "bid", "bid": 1})
    state.apply(1, {"type": "bid", "bid": 2})  # a change: nobody saw it
    log = public_log(game, state)
    assert [e["words"] for e in log] == [["Locks in a bid"], ["Locks in a bid"]]
    state.apply(2, {"type": "bid", "bid": 0})
    log = public_log(game, state)
    text = words_text(log[-1]["words"], ["Ada", "Bo", "Cy"])
    assert text == "Bids shown: Ada 0; Bo 2; Cy 0 (2 bid for 2 tricks)"


def test_shoot_result_cards_trick_then_deal():
    game = GAMES["shoot"]
    state = game.new_state(3, {"schedule": [2, 1]}, seed=3, deal=SHOOT_DEAL)
    assert state.result() is None
    for seat, bid in ((0, 0), (1, 2), (2, 0)):
        state.apply(seat, {"type": "bid", "bid": bid})
    for seat, card in ((1, "2H"), (2, "QD"), (0, "KS")):
        state.apply(seat, {"type": "play", "card": card})
    trick = state.view(0)["result"]
    assert trick["id"] == "trick-1-1" and trick["headline"][0] == {"seat": 1}
    assert trick["cards"] == [[1, "2H"], [2, "QD"], [0, "KS"]]
    for seat, card in ((1, "3H"), (2, "JD"), (0, "AS")):
        state.apply(seat, {"type": "play", "card": card})
    card = state.view(None)["result"]
    assert card["id"] == "deal-1" and card["kind"] == "deal"
    assert [r["cells"] for r in card["rows"]] == [[0, 0, "+5", 5], [2, 2, "+7", 7], [0, 0, "+5", 5]]
    assert words_text(card["headline"], ["Ada", "Bo", "Cy"]) == "Bo leads with 7"
    # The card stays through the next deal's bidding, for every seat the same.
    state.apply(0, {"type": "bid", "bid": 0})
    assert state.view(2)["result"] == card


CTS_DEAL = {
    "challenger": 0,
    "hands": [
        ["deadly_aim", "headshot", "shoot_to_wound", "man_of_honour", "man_of_honour"],
        ["shoot_to_kill", "shoot_to_wound", "deadly_aim", "man_of_honour", "headshot"],
    ],
    "face_up": ["shoot_to_wound", "shoot_to_kill"],
    "face_down": ["deadly_aim", "coward"],
}


def test_call_the_shot_reveal_card_and_a_log_that_keeps_played_cards_face_down():
    game = GAMES["call_the_shot"]
    state = game.new_state(2, None, seed=1, deal=CTS_DEAL)
    state.apply(0, {"type": "play", "card": "deadly_aim", "claim": "headshot"})
    state.apply(1, {"type": "play", "card": "shoot_to_wound", "claim": "shoot_to_kill"})
    state.apply(0, {"type": "play", "card": "headshot", "claim": "headshot"})
    log = public_log(game, state)
    text = " ".join(words_text(e["words"], ["Ada", "Bo"]) for e in log)
    assert "Deadly Aim" not in text and "Wound" not in text, text
    assert text.count("says “Headshot”") == 2
    state.apply(1, {"type": "call"})
    card = state.view(1)["result"]
    assert card["id"] == "duel-1" and card["headline"] == [{"seat": 1}, " is shot"]
    assert card["cards"] == [[0, "headshot"], [1, "shoot_to_wound"]]
    assert [r["cells"] for r in card["rows"]] == [[18, "0 of 3"], [3, "1 of 3"]]
    names = ["Ada", "Bo"]
    assert [words_text(line, names) for line in card["lines"]] == [
        "Bo called the shot.",
        "Ada's Headshot is doubled by a Deadly Aim under it.",
        "Ada wins the duel: the higher value wins.",
    ]
    assert card["own"] == {"claims": [["headshot", "headshot"], ["shoot_to_kill"]]}
    assert public_log(game, state)[-1]["result"] == card


def test_pull_target_and_hand_cards_follow_the_records():
    game = GAMES["pull"]
    state = game.new_state(4, {"hands": 1}, seed=5)
    chooser = random.Random(5)
    seen = set()
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
        card = state.result()
        if card is None or card["id"] in seen:
            continue
        seen.add(card["id"])
        last = state.last_round
        if card["kind"] == "target":
            taken = [t for t in last["targets"] if t["seat"] is not None]
            assert card["cards"] == [[t["seat"], t["winning_shot"]] for t in taken]
            if last["double"] is not None:
                assert card["headline"] == [
                    {"side": last["double"]},
                    " take both targets: a Double!",
                ]
        else:
            done = state.history[-1]
            assert card["id"] == f"hand-{done['hand']}"
            assert [r["seats"] for r in card["rows"]] == [[0, 2], [1, 3]]
            assert [r["cells"][-1] for r in card["rows"]] == done["totals"]
            assert [r["cells"][2] for r in card["rows"]] == done["fouls"]
    assert len(seen) == 5  # four rounds, then the hand that the fifth ends


def test_pirate_tricks_round_card_shows_the_loon_paid_not_the_totals():
    state = play("pirate_tricks", 2)
    card = state.result()
    done = state.history[-1]
    assert card["id"] == f"round-{done['round']}"
    assert [r["cells"][-1] for r in card["rows"]] == [f"{p:+d}" for p in done["paid"]]
    assert [r["cells"][0] for r in card["rows"]] == done["tricks"]


def test_the_replay_shows_the_table_as_it_was():
    state = play("shoot", 4)
    game = GAMES["shoot"]
    assert replay_view(game, state, 0) == game.replay(state, upto=0).view(None)
    assert replay_view(game, state, len(state.log)) == state.view(None)
    assert replay_view(game, state, 10**6) == state.view(None)


def test_the_log_leak_check_catches_a_told_bid(monkeypatch):
    shoot = type(GAMES["shoot"].new_state(3, None, seed=1))
    monkeypatch.setattr(shoot, "public_words", lambda self, seat, action: self.describe(action))
    with pytest.raises(AssertionError, match="tells apart"):
        test_the_log_says_no_more_than_the_table_saw("shoot")


def test_the_log_leak_check_catches_a_told_face_down_card(monkeypatch):
    duel = type(GAMES["call_the_shot"].new_state(2, None, seed=1))
    monkeypatch.setattr(duel, "public_words", lambda self, seat, action: self.describe(action))
    with pytest.raises(AssertionError, match="tells apart"):
        test_the_log_says_no_more_than_the_table_saw("call_the_shot")


def test_pull_winning_now_names_who_takes_the_target_when_the_round_ends():
    """A target's ``winning`` is who takes it if no more shots come: at two players the
    round ends on a second shot at the other target, so the target it did not touch goes
    to the seat its row named just before (nobody on a tie)."""
    game = GAMES["pull"]
    checked = 0
    for seed in range(8):
        state = game.new_state(2, {"hands": 1}, seed=seed)
        chooser = random.Random(seed)
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            before = state.view(None)["targets"]
            last = state.last_round
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
            if state.last_round is None or state.last_round == last:
                continue
            for target, then in zip(state.last_round["targets"], before, strict=True):
                shots = [[s["seat"], s["card"]] for s in then["shots"]]
                if [list(s) for s in target["shots"]] == shots:  # untouched by the last shot
                    assert then["winning"] == target["seat"], (seed, target, then)
                    checked += 1
    assert checked >= 20, checked

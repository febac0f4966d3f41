"""PULL! on a sheet every player joined (issue 28): with 3 or 4 players each phone lays
its second shot face down (a sealed step: nobody else sees it, not the keeper, the watch
page or the shared screen, until all are in; then all are shown at once), and each side
enters the targets it took; the hand stored equals the same facts entered by one keeper.
With 2 players the seconds are played in turn (tests/web/test_sheet_phones.py)."""

from __future__ import annotations

import random
import re

import pytest

from companion.games.pull import rules

from ..games.pull.test_pages import FORM_DEFAULTS
from .pages import new_sheet, stored_sheet
from .phones import Phones, seen_by_others

NAMES = ["Ada", "Bea", "Cy", "Di"]
TEAMS = FORM_DEFAULTS | {"opt_teams": "yes"}
SHOTS = rules.shot_ids()


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def teams(app) -> Phones:
    return Phones.start(app, "pull", NAMES, TEAMS, (0, 1, 2, 3))


def seconds(phones: Phones, r: int, cards) -> None:
    for player, card in enumerate(cards):
        answer = phones.enter(player, f"second-{r}-{player}", card)
        assert answer.status_code == 200, answer.get_json()


def took(phones: Phones, r: int, by_side: dict[int, tuple[int, list[str]]]) -> None:
    """Each side's targets of round ``r``, entered on the phone of ``(player, cards)``."""
    for side, (player, cards) in by_side.items():
        for k in (0, 1):
            card = cards[k] if k < len(cards) else ""
            answer = phones.enter(player, f"took-{r}-{side}-{k}", card)
            assert answer.status_code == 200, answer.get_json()


# A hand for two teams (Ada & Cy, Bea & Di): round by round, each side's targets.
HAND = [
    {0: (0, ["trap-T2", "skeet-T2"]), 1: (1, [])},
    {0: (2, ["tower-T4"]), 1: (3, ["crosser-T3"])},
    {0: (0, []), 1: (3, ["incomer-T3"])},
    {0: (2, []), 1: (1, [])},
    {0: (0, []), 1: (1, ["looper-T2", "looper-T4"])},
]


def play_hand(phones: Phones, rng: random.Random) -> None:
    shots = rng.sample(SHOTS, 4 * len(HAND))
    for r, by_side in enumerate(HAND):
        assert phones.view(0)["step"]["name"] == f"shots-{r + 1}"
        seconds(phones, r, shots[4 * r : 4 * r + 4])
        assert phones.view(3)["step"]["name"] == f"targets-{r + 1}"
        took(phones, r, by_side)


def test_a_hand_by_four_phones_equals_the_keepers(app):
    phones = teams(app)
    play_hand(phones, random.Random(1))
    alone = app.test_client()
    code = new_sheet(alone, "pull", NAMES, TEAMS)
    form = {"position": "0"}
    for r, by_side in enumerate(HAND):
        slot = 0
        for side, (_, cards) in by_side.items():
            for card in cards:
                form |= {f"target-{r}-{slot}": card, f"taker-{r}-{slot}": str(side)}
                slot += 1
    assert alone.post(f"/score/{code}/rounds", data=form).status_code == 302
    assert phones.rows() == stored_sheet(app, code)[2]
    csv = phones.keeper.get(f"/score/{phones.code}/export.csv").get_data(as_text=True)
    assert csv == alone.get(f"/score/{code}/export.csv").get_data(as_text=True)
    assert phones.view(2)["step"]["name"] == "shots-1" and phones.view(2)["rounds"] == 1


def test_the_seconds_are_sealed_then_revealed_together_on_every_viewer(app):
    phones = teams(app)
    seconds(phones, 0, ["trap-8", "skeet-3", "tower-1"])
    mine = {b["key"]: b for b in phones.view(0)["step"]["boxes"]}
    assert mine["second-0-0"]["shown"] == "Trap 8"  # the owner sees its own card
    assert mine["second-0-1"]["in"] and mine["second-0-1"]["text"] is None
    panel = phones.keeper_view()
    assert all(b["text"] is None for b in panel["step"]["boxes"])
    assert panel["step"]["waiting"] == ["Di"]
    screen = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "selected" not in screen.split('id="phones"')[1].split("</section>")[0]
    answer = phones.enter(3, "second-0-3", "looper-5")
    revealed = answer.get_json()["view"]["revealed"]
    assert [v["shown"] for v in revealed["values"]] == ["Trap 8", "Skeet 3", "Tower 1", "Looper 5"]
    for player in range(4):
        assert phones.view(player)["revealed"]["id"] == revealed["id"]
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    watch = re.search(r"/score/watch/([A-Za-z0-9_-]+)/screen", page).group(1)
    shared = phones.keeper.get(f"/score/watch/{watch}/screen?part=1").get_data(as_text=True)
    assert "Looper 5" in shared and "round 1 second shots" in shared
    # Revealed: no phone and no keeper changes them again.
    assert phones.view(0)["step"]["name"] == "targets-1"
    assert phones.keeper.post(f"/score/{phones.code}/steps", data={}).status_code == 409
    assert phones.view(0)["step"]["name"] == "targets-1"


def test_each_sides_targets_are_its_own_and_the_keeper_corrects_any(app):
    phones = teams(app)
    seconds(phones, 0, ["trap-8", "skeet-3", "tower-1", "looper-5"])
    refused = phones.enter(1, "took-0-0-0", "trap-T2")  # Bea is on the other side
    assert refused.status_code == 403
    assert "Ada & Cy" in refused.get_json()["error"]
    assert phones.enter(2, "took-0-0-0", "trap-T2").status_code == 200  # Cy, Ada's partner
    assert phones.keeper_enter("took-0-0-1", "").status_code == 303
    took(phones, 0, {1: (3, ["skeet-T2"])})
    boxes = {
        b["key"]: b["by"] for b in phones.view(0)["revealed"] and phones.view(0)["step"]["boxes"]
    }
    assert phones.view(0)["step"]["name"] == "shots-2" and boxes
    shots = iter(SHOTS[24:])
    for r in range(1, 5):
        seconds(phones, r, [next(shots) for _ in range(4)])
        took(phones, r, {0: (0, []), 1: (1, [])})
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "entered by the keeper: Ada &amp; Cy: a second target (a Double) taken" in page
    assert phones.rows()[0]["sides"][0]["rounds"] == [["trap-T2"]]


def test_targets_that_do_not_fit_together_are_told_and_nothing_is_saved(app):
    phones = teams(app)
    seconds(phones, 0, ["trap-8", "skeet-3", "tower-1", "looper-5"])
    took(phones, 0, {0: (0, ["trap-T2", "skeet-T2"])})
    third = phones.enter(1, "took-0-1-0", "tower-T2")  # the other boxes are open: refused
    assert third.status_code == 422
    assert "only two targets fly in a round" in third.get_json()["error"]
    took(phones, 0, {0: (0, ["trap-T2"]), 1: (1, ["trap-T2"])})  # both claim one: told to all
    step = phones.view(3)["step"]
    assert step["name"] == "targets-1" and "listed twice" in step["problem"]
    assert phones.enter(1, "took-0-1-0", "").status_code == 200
    assert phones.view(3)["step"]["name"] == "shots-2"
    assert phones.view(3)["revealed"]["round"] == 1


def test_a_shot_card_is_a_second_once_a_hand(app):
    phones = teams(app)
    empty = phones.enter(0, "second-0-0", "")  # a sealed entry is a card, never none
    assert empty.status_code == 422
    assert empty.get_json()["error"] == (
        "Ada: second shot: choose one; a sealed entry can't be left empty."
    )
    seconds(phones, 0, ["trap-8", "skeet-3", "tower-1", "looper-5"])
    took(phones, 0, {0: (0, []), 1: (1, [])})
    again = phones.enter(0, "second-1-0", "skeet-3")  # shown in round 1: public
    assert again.status_code == 422
    assert "already a second shot in round 1" in again.get_json()["error"]
    # Two phones laying the same card at once are told in words naming no card.
    seconds(phones, 1, ["crosser-2", "crosser-2", "trap-1", "trap-2"])
    problem = phones.view(0)["step"]["problem"]
    assert problem.startswith("The round 2 second shots do not fit together")
    assert "Crosser" not in problem


ROUND_1 = ["trap-8", "skeet-3", "tower-1", "looper-5"]


def test_no_sealed_second_reaches_another_viewer_before_the_reveal(make_app):
    """Two sheets through the same steps with different random seconds: everything any
    viewer but the card's owner gets is byte-equal until the reveal."""
    rng = random.Random(2028)
    for trial in range(4):
        app = make_app(WTF_CSRF_ENABLED=False)
        left, right = teams(app), teams(app)
        for sheet in (left, right):
            seconds(sheet, 0, ROUND_1)
            took(sheet, 0, {0: (0, []), 1: (1, [])})
        order = rng.sample(range(4), 4)
        for player in order[:-1]:
            cards = rng.sample([c for c in SHOTS if c not in ROUND_1 + ["incomer-4"]], 2)
            for sheet, card in zip((left, right), cards, strict=True):
                entered = sheet.enter(player, f"second-1-{player}", card)
                assert entered.status_code == 200
            wrong = "second-1-{owner}"
            assert seen_by_others(left, player, wrong) == seen_by_others(right, player, wrong)
        last = order[-1]
        for sheet in (left, right):
            sheet.enter(last, f"second-1-{last}", "incomer-4")
        assert left.view(0)["revealed"] != right.view(0)["revealed"], trial


def test_three_players_seal_their_seconds_too(app):
    phones = Phones.start(app, "pull", NAMES[:3], FORM_DEFAULTS, (0, 1, 2))
    step = phones.view(1)["step"]
    assert (step["name"], step["sealed"], len(step["boxes"])) == ("shots-1", True, 3)
    seconds(phones, 0, ["trap-8", "skeet-3", "tower-1"])
    assert phones.view(0)["revealed"]["label"] == "round 1 second shots"
    targets = phones.view(0)["step"]
    assert targets["owner"] == "side" and len(targets["boxes"]) == 6


def test_a_sheet_nobody_joins_keeps_its_round_steps(app):
    keeper = app.test_client()
    code = new_sheet(keeper, "pull", NAMES, TEAMS)
    page = keeper.get(f"/score/{code}").get_data(as_text=True)
    assert "enter the round 1 targets" in page and "second shots" not in page
    assert 'name="step-target-0-0"' in page

"""PULL! entered as the table plays a hand: round by round, one tap for the side that took
each target or "Nobody took it", each round saved as it is entered; the hand closes (is
added) after its fifth round. The rulebook's scoring example: a team that took a Double
and one animal scores 9 points and records one Foul."""

from __future__ import annotations

import pytest

from ...web.pages import message_at, messages, new_sheet, stored_sheet, visible_text
from ...web.steps import enter_step, pending
from .test_pages import FORM_DEFAULTS, summary


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def round_boxes(r, *slots):
    """Step boxes of round ``r`` (from 0): per slot (target card, taker side or "nobody")."""
    out = {}
    for slot, (card, taker) in enumerate(slots):
        out[f"target-{r}-{slot}"] = card
        out[f"taker-{r}-{slot}"] = taker
    return out


HAND = [
    # Ann takes both 5-targets of round 1: a Double (7 + 7); Bo takes nothing yet.
    (("trap-T2", 0), ("skeet-T2", 0)),
    # Ann shoots an animal (-5, a Foul); a tie on the other: nobody took it.
    (("tower-T4", 0), ("crosser-T3", "nobody")),
    (("incomer-T3", 1), ("", "nobody")),
    (("", "nobody"), ("", "nobody")),
    (("looper-T2", 1), ("", "nobody")),
]


def test_a_hand_entered_round_by_round_scores_the_rulebook_example(app, client):
    code = new_sheet(client, "pull", ["Ann", "Bo"], FORM_DEFAULTS)
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Hand 1: enter the round 1 targets — Ann deals" in text
    assert "Nobody took it" in text
    for r, slots in enumerate(HAND):
        response = enter_step(client, code, f"round-{r + 1}", round_boxes(r, *slots))
        assert response.status_code == 302, messages(response.get_data(as_text=True))
        if r < len(HAND) - 1:
            assert stored_sheet(app, code)[2] == []
            assert pending(app, code)["done"] == [f"round-{n + 1}" for n in range(r + 1)]
            text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
            assert f"Hand 1: enter the round {r + 2} targets" in text
    assert pending(app, code) is None
    assert stored_sheet(app, code)[2] == [
        {
            "sides": [
                {"rounds": [["trap-T2", "skeet-T2"], ["tower-T4"], [], [], []]},
                {"rounds": [[], [], ["incomer-T3"], [], ["looper-T2"]]},
            ]
        }
    ]
    ann, bo = summary(app, code)["rows"][0]["sides"]
    assert (ann["points"], ann["doubles"], ann["fouls"]) == (9, 1, 1)
    assert (bo["points"], bo["fouls"]) == (10 + 5, 0)
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Hand 2: enter the round 1 targets — Bo deals" in text


def test_a_target_taken_twice_in_the_hand_is_refused_at_its_box(app, client):
    code = new_sheet(client, "pull", ["Ann", "Bo"], FORM_DEFAULTS)
    assert (
        enter_step(
            client, code, "round-1", round_boxes(0, ("trap-T2", 0), ("", "nobody"))
        ).status_code
        == 302
    )
    refused = enter_step(client, code, "round-2", round_boxes(1, ("trap-T2", 1), ("", "nobody")))
    assert refused.status_code == 422
    assert "listed twice in this hand" in " ".join(messages(refused.get_data(as_text=True)))
    assert pending(app, code)["done"] == ["round-1"]
    no_taker = enter_step(client, code, "round-2", {"target-1-0": "trap-T3", "target-1-1": ""})
    assert no_taker.status_code == 422
    assert "say which side took" in message_at(no_taker.get_data(as_text=True), "step-taker-1-0")

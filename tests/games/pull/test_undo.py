"""PULL!: the host's undo stops at the reveal of the sealed second shots."""

from __future__ import annotations

from companion.games import GAMES
from tests.undo_helpers import act, host_undo, refused_undo, seated


def first_shots(table) -> None:
    """Every seat takes its first shot, in turn."""
    while table.envelope(None)["view"]["phase"] == "first":
        (seat,) = table.envelope(None)["to_act"]
        act(table, seat, table.envelope(seat)["legal"][0])


def pick(table, seat: int) -> str:
    card = table.envelope(seat)["legal"][-1]["card"]
    act(table, seat, {"type": "second", "card": card})
    return card


def test_an_unshown_pick_goes_back_alone_and_the_notice_keeps_it_secret(app):
    table = seated(app, "pull", 3)
    first_shots(table)
    pick(table, 0)
    card = pick(table, 1)
    body = host_undo(table)
    text = body["last_undo"]["text"]
    assert "Bo" in text and "secret" in text
    face = GAMES["pull"].card_faces()[card]
    assert face["label"] not in text and card not in text
    assert table.envelope(None)["view"]["picked"] == [True, False, False]
    assert table.envelope(1)["view"]["my_second"] is None


# Issue 25: undo used to take back every second shot of the round once shown, so
# everyone picked again knowing the others' picks; now undo stops at the reveal.
def test_undo_stops_at_the_reveal_of_the_second_shots_and_says_why(app):
    table = seated(app, "pull", 3)
    first_shots(table)
    for seat in range(3):
        pick(table, seat)
    assert table.envelope(None)["view"]["round"] == 2  # shown, scored, next round
    log = table.state().log

    reason = refused_undo(table)
    assert reason.startswith("Undo stops at the second shots of hand 1, round 1")
    assert "shown to every phone" in reason
    assert table.state().log == log


def test_face_up_second_shots_of_two_players_go_back_one_at_a_time(app):
    table = seated(app, "pull", 2)
    first_shots(table)
    firsts = table.state().log
    (seat,) = table.envelope(None)["to_act"]
    card = pick(table, seat)
    body = host_undo(table)
    assert body["last_undo"]["text"].endswith(
        "'s move: " + table.state().describe({"type": "second", "card": card}) + "."
    )
    assert table.state().log == firsts

"""Call the Shot: the host's undo takes back face-down plays, never a called shot."""

from __future__ import annotations

from companion.games import GAMES
from tests.undo_helpers import act, host_undo, refused_undo, seated


def play(table) -> tuple[int, str]:
    (seat,) = table.envelope(None)["to_act"]
    action = next(a for a in table.envelope(seat)["legal"] if a["type"] == "play")
    act(table, seat, action)
    return seat, action["card"]


def test_a_face_down_play_goes_back_and_the_notice_does_not_name_the_card(app):
    table = seated(app, "call_the_shot", 2)
    play(table)
    seat, card = play(table)
    body = host_undo(table)
    text = body["last_undo"]["text"]
    face = GAMES["call_the_shot"].card_faces()[card]
    assert ["Ada", "Bo"][seat] in text and "secret" in text
    assert face["text"] not in text and face["label"] not in text
    assert len(table.state().log) == 1
    assert card in table.envelope(seat)["view"]["hand"]


def test_a_called_shot_cannot_be_taken_back(app):
    table = seated(app, "call_the_shot", 2)
    play(table)
    play(table)
    (caller,) = table.envelope(None)["to_act"]
    act(table, caller, {"type": "call"})
    assert len(table.envelope(None)["view"]["duels"]) == 1

    reason = refused_undo(table)
    assert "called" in reason and "cannot be taken back" in reason
    # A play of the next duel still goes back, but never past the call.
    play(table)
    host_undo(table)
    assert refused_undo(table) == reason

"""Every phone at the table (issue 28): players join a score sheet with their own phones,
each enters its own boxes, a sealed step (Shoot!'s bids) stays on the server until all
are in, then is revealed at once; the keeper keeps every power. Here: a Shoot! deal by
four phones equals the same deal entered by one keeper; the leak harness; forged tokens,
another's box, a stale step or box, malformed bodies; the keeper's entries in the change
log; undo stopping at the reveal; moving a phone; and two phones entering one box at once
on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import threading

import pytest

from companion.games import GAMES
from companion.scorekeeper.rounds import fingerprint, pending_of, pending_version

from ..games.pull.test_pages import FORM_DEFAULTS as PULL_FORM
from .pages import new_sheet, stored_sheet
from .phones import Phones, box_in, seen_by_others
from .steps import pending, post_step

OPTIONS = {"opt_schedule": "0", "opt_dealer": "0"}
NAMES = ["Ada", "Bea", "Cy", "Di"]


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def shoot(app, join=(0, 1, 2, 3)) -> Phones:
    return Phones.start(app, "shoot", NAMES, OPTIONS, join)


def play_deal(phones: Phones, bids, tricks) -> None:
    for player, bid in enumerate(bids):
        assert phones.enter(player, f"bids-{player}", bid).status_code == 200
    for player, took in enumerate(tricks):
        assert phones.enter(player, f"tricks-{player}", took).status_code == 200


# -- one deal by four phones, the same as one keeper's ------------------------------------


def test_a_deal_entered_by_four_phones_equals_the_keepers(app):
    phones = shoot(app)
    play_deal(phones, [3, 2, 4, 0], [3, 3, 4, 0])
    alone = app.test_client()
    code = new_sheet(alone, "shoot", NAMES, OPTIONS)
    data = {f"bids-{i}": str(b) for i, b in enumerate([3, 2, 4, 0])}
    data |= {f"tricks-{i}": str(t) for i, t in enumerate([3, 3, 4, 0])}
    assert alone.post(f"/score/{code}/rounds", data=data | {"position": "0"}).status_code == 302
    assert phones.rows() == stored_sheet(app, code)[2]
    csv_phones = phones.keeper.get(f"/score/{phones.code}/export.csv").get_data(as_text=True)
    csv_alone = alone.get(f"/score/{code}/export.csv").get_data(as_text=True)
    assert csv_phones == csv_alone
    # The next deal opens on every phone.
    for player in range(4):
        view = phones.view(player)
        assert (view["round"], view["step"]["name"], view["rounds"]) == (2, "bids", 1)


def test_the_bids_are_revealed_at_once_with_the_call_and_tricks_are_open(app):
    phones = shoot(app)
    for player, bid in enumerate([1, 2, 3]):
        phones.enter(player, f"bids-{player}", bid)
        assert phones.view(player)["revealed"] is None
    answer = phones.enter(3, "bids-3", 0)
    assert answer.status_code == 200
    revealed = answer.get_json()["view"]["revealed"]
    assert [v["text"] for v in revealed["values"]] == ["1", "2", "3", "0"]
    assert revealed["call"] == ["Ready?", "SHOOT!"]
    for player in range(4):
        assert phones.view(player)["revealed"]["id"] == revealed["id"]
    # Tricks are not sealed: a box entered shows on every phone.
    phones.enter(2, "tricks-2", 3)
    seen = {b["key"]: b["text"] for b in phones.view(0)["step"]["boxes"]}
    assert seen["tricks-2"] == "3" and seen["tricks-0"] is None


# -- the leak harness ------------------------------------------------------------------------


def test_no_sealed_bid_reaches_another_viewer_before_the_reveal(make_app):
    """Two sheets go through the same steps with different sealed bids: everything any
    viewer but the bid's owner gets (other phones' views, refusals, the keeper's pages and
    panel, the CSV, JSON and printed sheet, the watch page, the shared screen, the join
    pages) is the same on both, until the reveal."""
    rng = random.Random(28)
    for trial in range(6):
        app = make_app(WTF_CSRF_ENABLED=False)
        left, right = shoot(app), shoot(app)
        order = rng.sample(range(4), 4)
        for turn, player in enumerate(order[:-1]):
            bids = rng.sample(range(11), 2)
            for sheet, bid in zip((left, right), bids, strict=True):
                assert sheet.enter(player, f"bids-{player}", bid).status_code == 200
                # Changed before the reveal: allowed, and still sealed.
                if turn == 0:
                    again = sheet.enter(player, f"bids-{player}", (bid + 1) % 11)
                    assert again.status_code == 200
            assert seen_by_others(left, player, "bids-{owner}") == seen_by_others(
                right, player, "bids-{owner}"
            ), trial
            mine = {b["key"]: b["text"] for b in left.view(player)["step"]["boxes"]}
            assert mine[f"bids-{player}"] is not None  # the owner sees it
        last = order[-1]
        for sheet in (left, right):
            sheet.enter(last, f"bids-{last}", 1)
        assert left.view(order[0])["revealed"] != right.view(order[0])["revealed"]


def test_a_sealed_entry_is_refused_in_words_that_name_only_the_senders_value(app):
    phones = shoot(app)
    phones.enter(1, "bids-1", 7)
    refused = phones.enter(0, "bids-0", 11)
    assert refused.status_code == 422
    assert "7" not in refused.get_json()["error"]
    assert refused.get_json()["error"] == (
        "Deal 1: Ada's bid must be from 0 to 10 (each hand has 10 cards)."
    )


# -- refusals: nothing changes ---------------------------------------------------------------


def _record(app, phones):
    from companion.extensions import db
    from companion.models import ScoreSheet

    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == phones.code))
        return sheet.open_boxes, sheet.pending, [e.facts for e in sheet.entries]


def test_forged_tokens_other_boxes_stale_steps_and_bad_bodies_change_nothing(app):
    phones = shoot(app)
    phones.enter(0, "bids-0", 2)
    before = _record(app, phones)
    url = f"/score/join/{phones.join}/boxes"
    client = app.test_client()
    body = {"step": "bids", "key": "bids-1", "text": "3", "seen": 0}
    cases = [
        ({"Authorization": "Bearer forged-token-xyz"}, body, 401, "no longer holds a name"),
        ({}, body, 401, "Take a name"),
        (phones.auth(0), body, 403, "only their phone or the keeper"),
        (phones.auth(1), body | {"step": "tricks"}, 409, "waiting for the bids"),
        (phones.auth(1), body | {"key": "tricks-1"}, 422, "not part of the bids"),
        (phones.auth(1), body | {"key": "nope-1"}, 422, "not part of the bids"),
        (phones.auth(1), body | {"text": "three"}, 422, "whole number"),
        (phones.auth(1), body | {"text": 3}, 400, "text"),
        (phones.auth(1), body | {"seen": "0"}, 400, "revision"),
        (phones.auth(0), body | {"key": "bids-0", "seen": 0}, 409, "meanwhile"),
        (phones.auth(1), [1, 2], 400, "JSON object"),
        (phones.auth(1), None, 400, "JSON object"),
    ]
    for headers, sent, status, words in cases:
        if sent is None:
            answer = client.post(url, data="{not json", headers=headers)
        else:
            answer = client.post(url, json=sent, headers=headers)
        assert answer.status_code == status, (sent, answer.get_json())
        assert words in answer.get_json()["error"], answer.get_json()
        assert _record(app, phones) == before
    assert client.get("/score/join/NOPE42/view").status_code == 404


def test_a_taken_name_is_refused_and_the_keeper_frees_it(app):
    phones = shoot(app, join=(0,))
    again = app.test_client().post(f"/score/join/{phones.join}/seats", json={"player": 0})
    assert again.status_code == 409 and "already has a phone" in again.get_json()["error"]
    for bad in ({"player": 4}, {"player": "0"}, {"player": True}, {}):
        answer = app.test_client().post(f"/score/join/{phones.join}/seats", json=bad)
        assert answer.status_code == 422
    old = phones.tokens[0]
    assert phones.keeper.post(f"/score/{phones.code}/phones/0/free").status_code == 303
    gone = app.test_client().get(
        f"/score/join/{phones.join}/view", headers={"Authorization": f"Bearer {old}"}
    )
    assert gone.status_code == 401 and "freed it" in gone.get_json()["error"]
    phones.take(0)
    assert phones.view(0)["seat"] == 0


def test_a_phone_moves_with_its_rejoin_link_and_the_old_one_stops(app):
    phones = shoot(app, join=(2,))
    phones.enter(2, "bids-2", 4)
    old = phones.tokens[2]
    moved = app.test_client().post(
        f"/score/join/{phones.join}/move", headers={"Authorization": f"Bearer {old}"}
    )
    assert moved.status_code == 200
    phones.tokens[2] = moved.get_json()["token"]
    mine = {b["key"]: b["text"] for b in phones.view(2)["step"]["boxes"]}
    assert mine["bids-2"] == "4"  # the sealed bid travels with the name
    stale = app.test_client().get(
        f"/score/join/{phones.join}/view", headers={"Authorization": f"Bearer {old}"}
    )
    assert stale.status_code == 401
    again = app.test_client().post(
        f"/score/join/{phones.join}/move", headers={"Authorization": f"Bearer {old}"}
    )
    assert again.status_code == 410


def test_the_join_page_finds_a_sheets_join_code(app):
    phones = shoot(app, join=())
    typed = phones.join.lower()[:3] + " " + phones.join.lower()[3:]
    found = app.test_client().get(f"/join?code={typed}")
    assert found.status_code == 303
    assert found.headers["Location"].endswith(f"/score/join/{phones.join}")
    assert app.test_client().get("/join?code=ZZZZZZ").status_code == 404


# -- the keeper ------------------------------------------------------------------------------


def test_the_keeper_enters_a_box_for_a_player_and_the_log_says_so(app):
    phones = shoot(app, join=(0, 1, 2))
    for player, bid in enumerate([1, 2, 3]):
        phones.enter(player, f"bids-{player}", bid)
    view = phones.keeper_view()
    sealed = {b["key"]: (b["in"], b["text"]) for b in view["step"]["boxes"]}
    assert sealed == {f"bids-{i}": (i < 3, None) for i in range(4)}  # in, never what
    assert view["step"]["waiting"] == ["Di"]
    assert phones.keeper_enter("bids-3", 0).status_code == 303
    for player, took in enumerate([1, 2, 3, 4]):
        if player in (1, 3):
            assert phones.keeper_enter(f"tricks-{player}", took).status_code == 303
        else:
            phones.enter(player, f"tricks-{player}", took)
    assert phones.rows() == [{"bids": [1, 2, 3, 0], "tricks": [1, 2, 3, 4]}]
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "deal 1 added (entered by the keeper: Di: bid, Bea: tricks, Di: tricks)" in page


def test_undo_stops_at_the_reveal_and_the_keepers_step_form_cannot_reopen_it(app):
    phones = shoot(app)
    for player, bid in enumerate([1, 2, 3, 4]):
        phones.enter(player, f"bids-{player}", bid)
    stored = pending(app, phones.code)
    form = {f"step-bids-{i}": "0" for i in range(4)}
    form |= {"step-position": "0", "step-version": pending_version(pending_of(stored, []))}
    refused = phones.keeper.post(f"/score/{phones.code}/steps/bids", data=form)
    assert refused.status_code == 409
    assert "once revealed they no longer change" in refused.get_data(as_text=True)
    cleared = phones.keeper.post(f"/score/{phones.code}/steps")
    assert cleared.status_code == 409
    for player, took in enumerate([1, 2, 3, 4]):
        phones.enter(player, f"tricks-{player}", took)
    # The keeper's page offers no undo of the round the reveal went into: it says why.
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "Undo: " not in page and 'class="undo-form"' not in page
    assert "Undo stops at the reveal: the bids of deal 1 were revealed" in page
    undo = phones.keeper.post(f"/score/{phones.code}/undo", data={"change": "1"})
    assert undo.status_code == 409
    assert "Undo stops at the reveal" in undo.get_data(as_text=True)
    # An undo kept offline (sent with its key when the connection is back) stops there too.
    kept = phones.keeper.post(
        f"/score/{phones.code}/undo",
        data={"change": "1"},
        headers={"Idempotency-Key": "kept-undo-0001"},
    )
    assert kept.status_code == 409
    assert "Undo stops at the reveal" in kept.get_data(as_text=True)
    assert phones.rows() == [{"bids": [1, 2, 3, 4], "tricks": [1, 2, 3, 4]}]


def test_a_sheet_nobody_joins_keeps_its_step_forms(app):
    phones = shoot(app, join=())
    html = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    bids = {f"bids-{i}": "1" for i in range(4)}
    saved = post_step(phones.keeper, phones.code, "bids", bids, html)
    assert saved.status_code == 302
    assert phones.keeper.post(f"/score/{phones.code}/steps").status_code == 302


def test_the_tricks_that_do_not_add_up_are_told_to_every_phone_and_kept_open(app):
    phones = shoot(app)
    play_deal(phones, [0, 0, 0, 0], [])
    for player, took in enumerate([1, 1, 1, 1]):
        phones.enter(player, f"tricks-{player}", took)
    view = phones.view(0)
    assert view["step"]["name"] == "tricks" and "add up to 4" in view["step"]["problem"]
    assert phones.enter(0, "tricks-0", 7).status_code == 200
    assert phones.rows() == [{"bids": [0, 0, 0, 0], "tricks": [7, 1, 1, 1]}]


# -- two phones, one box, at once ----------------------------------------------------------


def race(phones: Phones, rev: int) -> list:
    """The box's phone and the keeper enter ``bids-0`` from revision ``rev``, released
    together by a barrier; their status codes."""
    start = threading.Barrier(2)
    answers = [None, None]

    def phone():
        start.wait(10)
        answers[0] = phones.enter(0, "bids-0", 2, seen=rev).status_code

    def keeper():
        start.wait(10)
        answers[1] = phones.keeper_enter("bids-0", 3, seen=rev).status_code

    threads = [threading.Thread(target=phone), threading.Thread(target=keeper)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_phones_entering_one_box_at_once_keep_one_value(race_app):
    """The box's phone and the keeper enter the same box from the same revision, released
    together: one value stays, the other is told (409) and changes nothing."""
    app = race_app
    for attempt in range(5):
        phones = shoot(app, join=(0, 1))
        if attempt % 2:
            phones.enter(0, "bids-0", 5)  # from a revision other than empty
        _, box = phones.box(0, "bids-0")
        answers = race(phones, box["rev"])
        text = {b["key"]: b["text"] for b in phones.view(0)["step"]["boxes"]}["bids-0"]
        flashed = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
        if answers[0] == 200:
            assert text == "2" and "on another phone meanwhile" in flashed
        else:
            assert answers[0] == 409 and text == "3"
        assert answers[1] == 303
        assert GAMES["shoot"].spec.sheet_steps[0].sealed


# -- the other games, declared not coded -------------------------------------------------------


def test_a_pull_hand_for_two_is_entered_by_each_side_round_by_round(app):
    """PULL! for two: the seconds are played in turn, face up (nothing sealed); each
    side enters the targets it took (owner "side"), an empty box for none."""
    phones = Phones.start(app, "pull", ["Ann", "Bo"], PULL_FORM, (0, 1))
    hand = [
        (["trap-T2", "skeet-T2"], []),
        (["tower-T4"], []),
        ([], ["incomer-T3"]),
        ([], []),
        ([], ["looper-T2"]),
    ]
    for r, took in enumerate(hand):
        assert phones.view(0)["step"]["name"] == f"targets-{r + 1}"
        for side, cards in enumerate(took):
            for k in (0, 1):
                card = cards[k] if k < len(cards) else ""
                answer = phones.enter(side, f"took-{r}-{side}-{k}", card)
                assert answer.status_code == 200, answer.get_json()
    assert phones.rows() == [
        {
            "sides": [
                {"rounds": [["trap-T2", "skeet-T2"], ["tower-T4"], [], [], []]},
                {"rounds": [[], [], ["incomer-T3"], [], ["looper-T2"]]},
            ]
        }
    ]


def duel(phones: Phones, challenger: int, hits: tuple[str, str]) -> None:
    assert phones.enter(challenger, "challenger", str(challenger)).status_code == 200
    for player, hit in enumerate(hits):
        assert phones.enter(player, f"hit-{player}", hit).status_code == 200


def test_a_call_the_shot_duel_is_recorded_by_the_players_phones(app):
    """Each player records their own shot (box ``hit-<player>``, theirs alone); the
    duel lands on the sheet as the keeper's form would put it."""
    phones = Phones.start(app, "call_the_shot", ["Ada", "Bo"], {"opt_shots_to_lose": "3"}, (0, 1))
    assert phones.enter(0, "challenger", "0").status_code == 200
    assert phones.view(1)["step"]["waiting"] == ["Ada", "Bo"]
    assert phones.enter(0, "hit-1", "yes").status_code == 403  # Bo's box, not Ada's
    assert phones.enter(1, "hit-1", "yes").status_code == 200
    assert phones.view(0)["rounds"] == 0
    assert phones.enter(0, "hit-0", "no").status_code == 200
    assert phones.rows() == [{"challenger": 0, "shot": 1}]
    assert phones.view(0)["rounds"] == 1
    # Duel 2: the challenger box starts at Bo (the role passes), still to be entered.
    challenger = phones.box(1, "challenger")[1]
    assert (challenger["in"], challenger["field"]["default"]) == (False, "1")


def test_the_phones_are_offered_the_rematch_under_the_same_name(app):
    phones = Phones.start(app, "call_the_shot", ["Ada", "Bo"], {"opt_shots_to_lose": "3"}, (0, 1))
    for number in range(3):
        duel(phones, number % 2, ("no", "yes"))
    assert phones.view(0)["over"] and phones.view(0)["rematch"] is None
    again = phones.keeper.post(f"/score/{phones.code}/rematch")
    assert again.status_code == 302
    join = phones.view(1)["rematch"]
    taken = app.test_client().post(f"/score/join/{join}/seats", json={"player": 1})
    assert taken.status_code == 200


def test_a_round_the_keeper_entered_whole_on_a_joined_sheet_may_be_undone(race_app):
    """Only a round that went through a reveal stops undo: one the keeper entered whole
    (no phone entered or saw its bids first) goes back like any other."""
    app = race_app
    phones = shoot(app)
    data = {f"bids-{i}": str(b) for i, b in enumerate([1, 2, 3, 4])}
    data |= {f"tricks-{i}": str(t) for i, t in enumerate([1, 2, 3, 4])}
    added = phones.keeper.post(f"/score/{phones.code}/rounds", data=data | {"position": "0"})
    assert added.status_code == 302
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "Undo stops at the reveal" not in page and 'class="undo-form"' in page
    undo = phones.keeper.post(f"/score/{phones.code}/undo", data={"change": "1"})
    assert undo.status_code == 302
    assert phones.rows() == []
    # The next deal, entered by the phones, goes through the reveal: undo stops there.
    play_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    assert phones.rows() == [{"bids": [1, 2, 3, 4], "tricks": [1, 2, 3, 4]}]
    undo = phones.keeper.post(f"/score/{phones.code}/undo", data={"change": "2"})
    assert undo.status_code == 409 and "Undo stops at the reveal" in undo.get_data(as_text=True)


def test_a_round_logged_before_the_reveal_mark_was_kept_still_stops_undo(race_app):
    """Changes logged before ``ScoreChange.revealed`` existed have None: on a joined sheet
    they are taken as revealed, as every such round was then."""
    app = race_app
    from companion.database import db
    from companion.models import ScoreChange

    phones = shoot(app)
    play_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    with app.app_context():
        for change in db.session.query(ScoreChange).all():
            assert change.revealed is True
            change.revealed = None
        db.session.commit()
    undo = phones.keeper.post(f"/score/{phones.code}/undo", data={"change": "1"})
    assert undo.status_code == 409 and "Undo stops at the reveal" in undo.get_data(as_text=True)


def keeper_deal(phones: Phones, bids, tricks):
    """The keeper enters a whole deal with the whole-round form."""
    data = {f"bids-{i}": str(b) for i, b in enumerate(bids)}
    data |= {f"tricks-{i}": str(t) for i, t in enumerate(tricks)}
    position = str(len(phones.rows()))
    answer = phones.keeper.post(f"/score/{phones.code}/rounds", data=data | {"position": position})
    assert answer.status_code == 302


def test_a_box_sent_for_a_round_the_sheet_has_left_changes_nothing(app):
    """An empty box is at revision 0 in every round: the round the phone saw tells a bid
    sent for deal 1 from deal 2's. The keeper adds deal 1 whole meanwhile: the late bid
    is refused and deal 2's box stays empty (before, it became deal 2's bid)."""
    phones = shoot(app)
    assert phones.view(0)["round"] == 1
    keeper_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    late = phones.enter(0, "bids-0", 2, at=1)
    assert late.status_code == 409
    assert (
        late.get_json()["error"]
        == "The sheet moved on to deal 2: look at it again before entering."
    )
    _, box = phones.box(0, "bids-0")
    assert phones.view(0)["round"] == 2 and not box["in"]
    stale = {"step": "bids", "key": "bids-0", "text": "2", "seen": "0", "round": "1"}
    answer = phones.keeper.post(f"/score/{phones.code}/boxes", data=stale)
    assert answer.status_code == 303
    _, box = phones.box(0, "bids-0")
    assert not box["in"]
    for field in ("round", "seen"):  # the keeper's form: text that is no whole number
        bad_form = stale | {"round": "2", "seen": "0"} | {field: "two"}
        answer = phones.keeper.post(
            f"/score/{phones.code}/boxes", data=bad_form, follow_redirects=True
        )
        assert "as a whole number" in answer.get_data(as_text=True)
        assert not phones.box(0, "bids-0")[1]["in"]
    for bad in ("1", 1.5, True, [1]):
        sent = {"step": "bids", "key": "bids-0", "text": "2", "seen": 0, "round": bad}
        answer = phones.client().post(
            f"/score/join/{phones.join}/boxes", json=sent, headers=phones.auth(0)
        )
        assert answer.status_code == 400, bad
    assert phones.enter(0, "bids-0", 2).status_code == 200  # the round it sees now


def test_a_bid_and_the_keepers_undo_at_once_never_move_the_bid_to_another_deal(race_app):
    """The keeper undoes the deal they entered whole while a phone bids for the next one,
    released together: the undo goes through, and the bid is either refused (the sheet
    moved back to deal 1) or entered for deal 2 and dropped with it: deal 1's box stays
    empty either way. On SQLite and on PostgreSQL."""
    app = race_app
    for _ in range(6):
        phones = shoot(app, join=(0, 1))
        keeper_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
        view = phones.view(0)
        start, got = threading.Barrier(2), {}

        def bid(view=view, phones=phones, start=start, got=got):
            start.wait(10)
            got["bid"] = phones.enter(0, "bids-0", 2, seen=0, at=view["round"]).status_code

        def undo(phones=phones, start=start, got=got):
            start.wait(10)
            answer = phones.keeper.post(f"/score/{phones.code}/undo", data={"change": "1"})
            got["undo"] = answer.status_code

        threads = [threading.Thread(target=bid), threading.Thread(target=undo)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert got["undo"] == 302 and got["bid"] in (200, 409), got
        assert phones.rows() == []
        now = phones.view(0)
        assert now["round"] == 1
        assert not box_in(now["step"], "bids-0")["in"]


def test_a_round_in_progress_whose_bids_were_revealed_is_never_thrown_away(race_app):
    """Deal 2's bids are revealed to every phone: a change that adds or removes a deal
    (deleting deal 1, undoing it, redoing an undone one) would throw deal 2 away with
    them, so it is refused, as clearing deal 2 is, until deal 2 is in. A correction
    (Edit) changes no count and goes through. On SQLite and on PostgreSQL."""
    app = race_app
    phones = shoot(app)
    play_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    for player, bid in enumerate([0, 1, 2, 3]):
        assert phones.enter(player, f"bids-{player}", bid).status_code == 200
    assert phones.view(0)["revealed"]["round"] == 2
    code, keeper = phones.code, phones.keeper
    deal_1 = {"bids": [1, 2, 3, 4], "tricks": [1, 2, 3, 4]}
    stale_guard = {"position": "0", "version": fingerprint(0, deal_1)}
    refused = "The bids of deal 2 were revealed to everyone"
    answer = keeper.post(f"/score/{code}/rounds/1/delete", data=stale_guard)
    assert answer.status_code == 409 and refused in answer.get_data(as_text=True)
    answer = keeper.post(f"/score/{code}/undo", data={"change": "1"})
    assert answer.status_code == 409
    page = keeper.get(f"/score/{code}").get_data(as_text=True)
    assert refused in page and 'class="undo-form"' not in page
    assert phones.rows() == [deal_1]
    assert phones.view(0)["round"] == 2 and phones.view(0)["step"]["name"] == "tricks"
    # A correction of deal 1 goes through; deal 2 stays where it was.
    edit = {f"bids-{i}": str(b) for i, b in enumerate([1, 2, 3, 4])}
    edit |= {f"tricks-{i}": str(t) for i, t in enumerate([2, 1, 3, 4])}
    answer = keeper.post(f"/score/{code}/rounds/1/edit", data=edit | stale_guard)
    assert answer.status_code == 302
    assert phones.view(0)["round"] == 2 and phones.view(0)["step"]["name"] == "tricks"
    # Once deal 2 is in, a deal may be deleted again.
    for player, took in enumerate([0, 1, 2, 6]):
        assert phones.enter(player, f"tricks-{player}", took).status_code == 200
    deal_2 = {"bids": [0, 1, 2, 3], "tricks": [0, 1, 2, 6]}
    assert phones.rows() == [{"bids": [1, 2, 3, 4], "tricks": [2, 1, 3, 4]}, deal_2]
    answer = keeper.post(
        f"/score/{code}/rounds/2/delete",
        data={"position": "1", "version": fingerprint(1, deal_2)},
    )
    assert answer.status_code == 302 and len(phones.rows()) == 1


def test_a_redo_that_would_throw_away_revealed_bids_waits(race_app):
    """The keeper enters deal 1 whole and undoes it; the phones then bid deal 1 again and
    the bids are revealed. Redoing "deal 1 added" would throw those bids away: it is not
    offered, and refused if sent; once the deal is in, the redo is gone with it."""
    app = race_app
    phones = shoot(app)
    keeper_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    code, keeper = phones.code, phones.keeper
    assert keeper.post(f"/score/{code}/undo", data={"change": "1"}).status_code == 302
    page = keeper.get(f"/score/{code}").get_data(as_text=True)
    assert 'class="redo-form"' in page
    for player, bid in enumerate([0, 1, 2, 3]):
        assert phones.enter(player, f"bids-{player}", bid).status_code == 200
    refused = "The bids of deal 1 were revealed to everyone"
    page = keeper.get(f"/score/{code}").get_data(as_text=True)
    assert 'class="redo-form"' not in page and refused in page
    answer = keeper.post(f"/score/{code}/redo", data={"change": "1"})
    assert answer.status_code == 409 and refused in answer.get_data(as_text=True)
    assert phones.rows() == [] and phones.view(0)["step"]["name"] == "tricks"


def test_an_undo_that_throws_away_unrevealed_entries_says_so(race_app):
    """Bea has bid for deal 2, nobody else yet (nothing revealed), when the keeper undoes
    deal 1: the undo goes through and its message says deal 2's entries were cleared;
    Bea's box is empty again, for deal 1, and stays so when deal 1 is entered again. On
    SQLite and on PostgreSQL."""
    phones = shoot(race_app)
    keeper_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    assert phones.enter(1, "bids-1", 3).status_code == 200
    answer = phones.keeper.post(
        f"/score/{phones.code}/undo", data={"change": "1"}, follow_redirects=True
    )
    text = answer.get_data(as_text=True)
    assert "Undone: deal 1 added. What was entered for deal 2 was cleared: enter it again." in text
    _, box = phones.box(1, "bids-1")
    assert phones.view(1)["round"] == 1 and not box["in"]
    # Nothing was entered for deal 1 meanwhile: the next undo's message says nothing more.
    keeper_deal(phones, [1, 2, 3, 4], [1, 2, 3, 4])
    answer = phones.keeper.post(
        f"/score/{phones.code}/undo", data={"change": "1"}, follow_redirects=True
    )
    text = answer.get_data(as_text=True)
    assert "Undone: deal 1 added." in text and "was cleared" not in text

"""Every change kept, never an entry lost (score mode, generic): the change log with undo
and redo of the last change, one locked transaction per write on SQLite and PostgreSQL
(races run many times), the repair page for a sheet that does not replay, and names
cleaned as in Play mode."""

from __future__ import annotations

import re
import threading
from functools import partial
from html import unescape
from itertools import product

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.models import ScoreSheet
from companion.scorekeeper import book
from companion.scorekeeper.book import Shown
from companion.scorekeeper.rounds import apply, fingerprint

from .. import fifth_game
from .pages import change_offered, press_change

SLUG = fifth_game.SLUG


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


def text_of(response) -> str:
    html = response.get_data(as_text=True)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def rows(app, code: str) -> list:
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return [e.facts for e in sheet.entries]


def changes(app, code: str) -> list[tuple[str, bool]]:
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return [(c.label, c.undone) for c in sheet.changes]


def new_sheet(client, names, game=SLUG, **fields) -> str:
    data = {f"players-{i}": name for i, name in enumerate(names)}
    if game == SLUG:
        data.update({"opt_cards": "3", "opt_target": "99"})
    data.update(fields)
    response = client.post(f"/score/new/{game}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def add(client, code, tricks, position):
    data = {f"tricks-{i}": str(n) for i, n in enumerate(tricks)}
    return client.post(f"/score/{code}/rounds", data=data | {"position": str(position)})


def edit(client, code, number, tricks, before):
    data = {f"tricks-{i}": str(n) for i, n in enumerate(tricks)}
    data |= {"position": str(number - 1), "version": fingerprint(number - 1, before)}
    return client.post(f"/score/{code}/rounds/{number}/edit", data=data)


def delete(client, code, number, before):
    data = {"position": str(number - 1), "version": fingerprint(number - 1, before)}
    return client.post(f"/score/{code}/rounds/{number}/delete", data=data)


def named(client, code, verb) -> tuple[str, str] | None:
    """(label, change number) of the sheet page's Undo or Redo button, or None."""
    return change_offered(client.get(f"/score/{code}").get_data(as_text=True), code, verb)


# -- undo and redo -------------------------------------------------------------------------


def test_undo_reverts_the_last_change_not_the_last_round(app, client):
    code = new_sheet(client, ["Ada", "Bo", "Cy"])
    assert named(client, code, "Undo") is None  # nothing to undo on a new sheet
    for position, tricks in enumerate(([1, 1, 1], [3, 0, 0], [0, 3, 0])):
        assert add(client, code, tricks, position).status_code == 302
    assert named(client, code, "Undo")[0] == "hand 3 added"
    assert edit(client, code, 1, [2, 1, 0], {"tricks": [1, 1, 1]}).status_code == 302
    assert named(client, code, "Undo")[0] == "hand 1 corrected"
    assert named(client, code, "Redo") is None

    # Undo puts hand 1 back as it was; hand 3 stays.
    answer = press_change(client, code, "Undo")
    assert answer.status_code == 302
    assert rows(app, code) == [{"tricks": [1, 1, 1]}, {"tricks": [3, 0, 0]}, {"tricks": [0, 3, 0]}]
    page = text_of(client.get(f"/score/{code}"))
    assert "Undone: hand 1 corrected." in page
    assert named(client, code, "Undo")[0] == "hand 3 added"
    assert named(client, code, "Redo")[0] == "hand 1 corrected"

    # Redo applies it again.
    assert press_change(client, code, "Redo").status_code == 302
    assert rows(app, code)[0] == {"tricks": [2, 1, 0]}
    assert "Redone: hand 1 corrected." in text_of(client.get(f"/score/{code}"))
    assert named(client, code, "Redo") is None

    # Two undos in a row: the correction, then the third hand.
    assert press_change(client, code, "Undo").status_code == 302
    assert press_change(client, code, "Undo").status_code == 302
    assert rows(app, code) == [{"tricks": [1, 1, 1]}, {"tricks": [3, 0, 0]}]
    assert named(client, code, "Redo")[0] == "hand 3 added"  # the last one undone comes back first
    stale_redo = named(client, code, "Redo")[1]

    # A new change clears what could be redone.
    assert add(client, code, [0, 0, 3], 2).status_code == 302
    assert named(client, code, "Redo") is None
    answer = client.post(f"/score/{code}/redo", data={"change": stale_redo})
    assert answer.status_code == 409
    assert "nothing was redone" in text_of(answer)
    assert rows(app, code)[2] == {"tricks": [0, 0, 3]}
    # The undone changes are gone from the log; the new hand is logged as the third.
    assert changes(app, code) == [
        ("hand 1 added", False),
        ("hand 2 added", False),
        ("hand 3 added", False),
    ]


def test_undo_of_a_deletion_puts_the_round_back_in_its_place(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    for position, tricks in enumerate(([3, 0], [2, 1], [1, 2])):
        add(client, code, tricks, position)
    assert delete(client, code, 2, {"tricks": [2, 1]}).status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [1, 2]}]
    assert named(client, code, "Undo")[0] == "hand 2 deleted"
    assert press_change(client, code, "Undo").status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [2, 1]}, {"tricks": [1, 2]}]
    assert press_change(client, code, "Redo").status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [1, 2]}]


def test_a_stale_undo_changes_nothing(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    add(client, code, [3, 0], 0)
    _, shown = named(client, code, "Undo")
    add(client, code, [2, 1], 1)  # another phone adds a hand meanwhile
    answer = client.post(f"/score/{code}/undo", data={"change": shown})
    assert answer.status_code == 409
    assert "The sheet changed on another phone, so nothing was undone." in text_of(answer)
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [2, 1]}]
    for bad in ({}, {"change": "x"}, {"change": "999"}):
        assert client.post(f"/score/{code}/undo", data=bad).status_code in (400, 409)
        assert client.post(f"/score/{code}/redo", data=bad).status_code in (400, 409)
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [2, 1]}]


def test_an_unchanged_correction_is_not_a_change(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    add(client, code, [3, 0], 0)
    assert edit(client, code, 1, [3, 0], {"tricks": [3, 0]}).status_code == 302
    assert "Hand 1 unchanged." in text_of(client.get(f"/score/{code}"))
    assert changes(app, code) == [("hand 1 added", False)]


def test_undo_and_redo_are_named_and_confirmed_without_script(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    add(client, code, [3, 0], 0)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    block = html[html.index('<div class="change-actions">') :]
    block = block[: block.index("</div>")]
    # The button only opens the confirm step; the form's own button undoes.
    assert '<details class="confirm-change">' in block
    assert "<summary>Undo: hand 1 added</summary>" in block
    assert "Yes, undo it" in block and "<script" not in block and "onclick" not in block


def test_undo_and_redo_need_the_csrf_token(make_app, high_card):
    app = make_app()
    client = app.test_client()
    page = client.get(f"/score/new/{SLUG}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {"csrf_token": token, "players-0": "Ada", "players-1": "Bo", "opt_cards": "3"}
    code = client.post(f"/score/new/{SLUG}", data=data).headers["Location"].rsplit("/", 1)[1]
    sheet = client.get(f"/score/{code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', sheet).group(1)
    add_data = {"csrf_token": token, "position": "0", "tricks-0": "3", "tricks-1": "0"}
    assert client.post(f"/score/{code}/rounds", data=add_data).status_code == 302
    assert client.post(f"/score/{code}/undo", data={"change": "1"}).status_code == 400
    assert len(rows(app, code)) == 1
    assert (
        client.post(f"/score/{code}/undo", data={"change": "1", "csrf_token": token}).status_code
        == 302
    )
    assert rows(app, code) == []


# -- repair -------------------------------------------------------------------------------


def break_sheet(app, code, position, facts) -> None:
    """Store a round as older code might have (no check), as a race once could."""
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        entry = next(e for e in sheet.entries if e.position == position)
        entry.facts = facts
        db.session.commit()


def test_a_sheet_that_does_not_replay_shows_the_repair_page(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    for position, tricks in enumerate(([3, 0], [2, 1], [1, 2])):
        add(client, code, tricks, position)
    break_sheet(app, code, 1, {"tricks": [3, 3]})
    for path in ("", "/rounds/1/edit", "/rounds/3/delete"):
        page = client.get(f"/score/{code}{path}")
        assert page.status_code == 200, path
        words = text_of(page)
        assert "This sheet needs a repair" in words
        assert (
            "Hand 2 cannot be counted" in words and "The tricks must add up to 3, not 6." in words
        )
        assert "Tricks: 3, 3" in words  # the stored facts, so the table can enter them again
    # Changes are refused with the same page, nothing stored.
    assert add(client, code, [3, 0], 3).status_code == 409
    assert edit(client, code, 1, [0, 3], {"tricks": [3, 0]}).status_code == 409
    assert len(rows(app, code)) == 3
    # A repair form for another round (stale) removes nothing.
    stale = {"position": "0", "version": fingerprint(0, {"tricks": [3, 0]})}
    assert client.post(f"/score/{code}/repair", data=stale).status_code == 409
    assert len(rows(app, code)) == 3
    # Removing the offending round repairs the sheet.
    html = client.get(f"/score/{code}").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="([^"]+)"', html).group(1)
    answer = client.post(f"/score/{code}/repair", data={"position": "1", "version": version})
    assert answer.status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [1, 2]}]
    page = text_of(client.get(f"/score/{code}"))
    assert "Hand 2 removed." in page and "needs a repair" not in page
    # Undoing the repair would break the sheet again: refused, named.
    assert named(client, code, "Undo")[0] == "hand 2 removed"
    answer = press_change(client, code, "Undo")
    assert answer.status_code == 409
    assert "“hand 2 removed” can't be undone: The tricks must add up to 3, not 6." in text_of(
        answer
    )
    assert len(rows(app, code)) == 2
    assert (
        client.post(f"/score/{code}/repair", data={"position": "1", "version": version}).status_code
        == 302
    )
    assert "This sheet needs no repair." in text_of(client.get(f"/score/{code}"))


def test_unreadable_facts_are_repaired_too(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    add(client, code, [3, 0], 0)
    add(client, code, [0, 3], 1)
    break_sheet(app, code, 0, ["not", "a", "hand"])
    page = client.get(f"/score/{code}")
    assert page.status_code == 200 and "Hand 1 cannot be counted" in text_of(page)
    version = fingerprint(0, ["not", "a", "hand"])
    answer = client.post(f"/score/{code}/repair", data={"position": "0", "version": version})
    assert answer.status_code == 302
    assert rows(app, code) == [{"tricks": [0, 3]}]


# -- names --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\u202eevil", "bell\x07", "\x01soh", "tab\there", "a\u2028b"])
def test_hostile_names_refused_in_score_mode(app, client, name):
    data = {"players-0": "Ada", "players-1": name, "opt_cards": "3"}
    answer = client.post(f"/score/new/{SLUG}", data=data)
    assert answer.status_code == 422
    assert "A name cannot contain control or invisible characters." in text_of(answer)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0


def test_names_cleaned_as_in_play_mode(app, client):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    code = new_sheet(client, ["  Ada   Lovelace ", family, ""])
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        assert sheet.players == ["Ada Lovelace", family]
    answer = client.post(
        f"/score/new/{SLUG}", data={"players-0": "Ada", "players-1": "x" * 25, "opt_cards": "3"}
    )
    assert answer.status_code == 422 and "at most 24 characters" in text_of(answer)
    # Play mode answers the same words through its own error.
    table = client.post("/api/tables", json={"game": SLUG, "players": 2})
    assert table.status_code in (200, 201), table.get_json()
    body = table.get_json()
    joined = client.post(
        f"/api/tables/{body['code']}/seats",
        json={"name": "\u202eevil"},
        headers={"Authorization": f"Bearer {body['host_token']}"},
    )
    assert joined.status_code == 400
    assert joined.get_json()["error"] == "A name cannot contain control or invisible characters."


# -- races: one locked transaction per write, on SQLite and on PostgreSQL --------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def race_app(request, make_app, high_card):
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
        return make_app(WTF_CSRF_ENABLED=False, SQLALCHEMY_DATABASE_URI=url)
    return make_app(WTF_CSRF_ENABLED=False)


def at_once(calls) -> list:
    """Run the calls in threads released together; their answers' status codes."""
    start = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i, call):
        try:
            start.wait(10)
            answers[i] = call()
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return answers


def edit_status(*args) -> int:
    return edit(*args).status_code


def post_status(client, path, data) -> int:
    return client.post(path, data=data).status_code


def test_twenty_simultaneous_edits_of_one_round_apply_exactly_one(race_app):
    app = race_app
    client = app.test_client()
    hands = [list(t) for t in product(range(5), repeat=4) if sum(t) == 4 and t != (1, 1, 1, 1)]
    for attempt in range(6):
        code = new_sheet(client, ["Ada", "Bo", "Cy", "Di"], opt_cards="4")
        assert add(client, code, [1, 1, 1, 1], 0).status_code == 302
        mine = hands[attempt : attempt + 20]
        phones = [app.test_client() for _ in mine]
        answers = at_once(
            [
                partial(edit_status, p, code, 1, t, {"tricks": [1, 1, 1, 1]})
                for p, t in zip(phones, mine, strict=True)
            ]
        )
        assert sorted(answers) == [302] + [409] * 19, answers
        kept = mine[answers.index(302)]
        assert rows(app, code) == [{"tricks": kept}]
        assert changes(app, code) == [("hand 1 added", False), ("hand 1 corrected", False)]


def test_delete_while_edit_never_leaves_a_sheet_that_fails_to_replay(race_app):
    """Call the Shot: the challenger alternates, so moving duels up can break the sheet if
    a deletion and a correction both apply to what they read before the other."""
    app = race_app
    client = app.test_client()
    game = GAMES["call_the_shot"]
    duels = [
        {"challenger": 0, "shot": 1},
        {"challenger": 1, "shot": 0},
        {"challenger": 0, "shot": None},
        {"challenger": 1, "shot": 1},
    ]

    def duel(number, facts, **change):
        values = facts | change
        shot = "none" if values["shot"] is None else str(values["shot"])
        return {
            "challenger": str(values["challenger"]),
            "shot": shot,
            "position": str(number - 1),
            "version": fingerprint(number - 1, facts),
        }

    for attempt in range(10):
        code = new_sheet(client, ["Ann", "Bo"], game="call_the_shot")
        for position, facts in enumerate(duels):
            answer = client.post(f"/score/{code}/rounds", data=duel(position + 1, facts))
            assert answer.status_code == 302, text_of(answer)
        moves = [
            ("rounds/1/delete", duel(1, duels[0])),
            ("rounds/2/edit", duel(2, duels[1], shot=None)),
            ("rounds/3/delete", duel(3, duels[2])),
            ("rounds/4/edit", duel(4, duels[3], shot=0)),
            ("rounds/2/delete", duel(2, duels[1])),
            ("rounds", duel(5, {"challenger": 0, "shot": 0})),
        ]
        calls = [
            partial(post_status, app.test_client(), f"/score/{code}/{path}", data)
            for path, data in moves
        ]
        order = calls[attempt % 6 :] + calls[: attempt % 6]
        answers = at_once(order)
        assert set(answers) <= {302, 409, 422}, answers
        stored = rows(app, code)
        with app.app_context():
            sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
            keeper = game.sheet(sheet.players, sheet.options)
            logged = len(sheet.changes)
        assert keeper.check(stored) == stored  # the stored sheet replays
        assert logged == len(duels) + answers.count(302)  # every change answered saved is logged
        assert client.get(f"/score/{code}").status_code == 200
        assert "needs a repair" not in text_of(client.get(f"/score/{code}"))


def sheet_with(app, tricks: list[list[int]]) -> str:
    """A sheet of the fifth game with these rounds, made through the use cases."""
    with app.test_request_context():
        code = book.new_sheet(SLUG, ["Ada", "Bo", "Cy"], {"cards": 3, "target": 99})
        for position, row in enumerate(tricks):
            book.add_round(code, Shown(position), boxes(row))
    return code


def boxes(tricks: list[int]) -> dict[str, str]:
    return {f"tricks-{i}": str(n) for i, n in enumerate(tricks)}


def test_simultaneous_undos_of_one_change_undo_it_exactly_once(race_app):
    app = race_app
    for _attempt in range(5):
        code = sheet_with(app, [[1, 2, 0], [0, 0, 3]])
        page = app.test_client().get(f"/score/{code}").get_data(as_text=True)
        _, number = change_offered(page, code, "Undo")
        path = f"/score/{code}/undo"
        answers = at_once(
            [partial(post_status, app.test_client(), path, {"change": number}) for _ in range(12)]
        )
        assert sorted(answers) == [302] + [409] * 11, answers
        with app.test_request_context():
            assert book.read(code).rows == [{"tricks": [1, 2, 0]}]
            assert [c.undone for c in book.read(code).sheet.changes] == [False, True]


def test_the_log_always_rebuilds_the_sheet_whatever_the_order_of_changes(race_app):
    """Adds, a correction, a deletion, undo and redo sent at once: whichever win, the
    changes logged as done, applied in order to an empty sheet, give the stored rounds."""
    app = race_app
    first, second = {"tricks": [1, 2, 0]}, {"tricks": [0, 0, 3]}
    for attempt in range(6):
        code = sheet_with(app, [[1, 2, 0], [0, 0, 3]])
        moves = [
            ("rounds", boxes([3, 0, 0]) | {"position": "2"}),
            (
                "rounds/1/edit",
                boxes([0, 3, 0]) | {"position": "0", "version": fingerprint(0, first)},
            ),
            ("rounds/2/delete", {"position": "1", "version": fingerprint(1, second)}),
            ("undo", {"change": "2"}),
            ("redo", {"change": "2"}),
        ]
        calls = [
            partial(post_status, app.test_client(), f"/score/{code}/{path}", data)
            for path, data in moves
        ]
        answers = at_once(calls[attempt % 5 :] + calls[: attempt % 5])
        assert set(answers) <= {302, 409}, answers
        with app.test_request_context():
            state = book.read(code)  # replays, or raises
            rows: list = []
            for change in state.sheet.changes:
                if not change.undone:
                    old, new = change.before, change.after
                    rows = apply(state.keeper, rows, change.position, old, new)
            assert rows == state.rows

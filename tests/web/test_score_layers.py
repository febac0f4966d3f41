"""Score mode's layers (issue 24): the use cases of ``scorekeeper.book`` called directly
(a result or a domain error with its status, nothing stored on a refusal), the
after-commit event that feeds the watch pages, and the shape the layers keep (SQL only in
the store, short views, small modules). The races through the use cases are in
test_score_changes.py, with the other races."""

from __future__ import annotations

import ast
import inspect
import logging
from pathlib import Path

import pytest
from sqlalchemy import func, select

from companion.events import sheet_changed
from companion.extensions import db
from companion.models import ScoreChange, ScoreEntry, ScoreSheet
from companion.scorekeeper import again, book, feed
from companion.scorekeeper.book import Shown
from companion.scorekeeper.errors import NotFound, Refused, Stale, WrongMoment
from companion.scorekeeper.rounds import fingerprint

from .. import fifth_game

PACKAGE = Path(book.__file__).parent
NAMES = ["Ada", "Bo", "Cy"]


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


@pytest.fixture
def ctx(app):
    with app.test_request_context():
        yield app


def boxes(tricks: list[int]) -> dict[str, str]:
    return {f"tricks-{i}": str(n) for i, n in enumerate(tricks)}


def committed(code: str) -> tuple[int, int]:
    """(rounds, logged changes) as another connection sees them: only what is committed."""
    sheet_id = db.session.scalar(select(ScoreSheet.id).where(ScoreSheet.code == code))
    with db.engine.connect() as other:
        rounds = other.scalar(
            select(func.count(ScoreEntry.id)).where(ScoreEntry.sheet_id == sheet_id)
        )
        logged = other.scalar(
            select(func.count(ScoreChange.id)).where(ScoreChange.sheet_id == sheet_id)
        )
    return rounds, logged


def new(target: int = 99) -> str:
    return book.new_sheet(fifth_game.SLUG, NAMES, {"cards": 3, "target": target})


# -- use cases: a result, or a domain error and nothing stored -------------------------------


def test_each_change_returns_what_to_tell_the_player(ctx):
    code = new()
    done = book.add_round(code, Shown(0), boxes([1, 2, 0]))
    assert (done.code, done.message, done.anchor) == (code, "Hand 1 added.", "#totals")
    done = book.edit_round(
        code, 1, Shown(0, fingerprint(0, {"tricks": [1, 2, 0]})), boxes([3, 0, 0])
    )
    assert done.message == "Hand 1 corrected." and done.anchor == "#round-1"
    assert book.undo(code, Shown(2)).message == "Undone: hand 1 corrected."
    assert book.redo(code, Shown(2)).message == "Redone: hand 1 corrected."
    facts = {"tricks": [3, 0, 0]}
    assert book.delete_round(code, 1, Shown(0, fingerprint(0, facts))).message == "Hand 1 deleted."
    assert book.read(code).rows == [] and committed(code) == (0, 3)


@pytest.mark.parametrize(
    "change",
    [
        lambda code: book.add_round(code, Shown(0), boxes([1, 1, 1])),  # the sheet has 1 now
        lambda code: book.add_round(code, Shown(None), boxes([1, 1, 1])),
        lambda code: book.edit_round(code, 1, Shown(0, "an old version"), boxes([3, 0, 0])),
        lambda code: book.edit_round(code, 1, Shown(1, None), boxes([3, 0, 0])),
        lambda code: book.delete_round(code, 1, Shown(0, fingerprint(0, {"tricks": [3, 0, 0]}))),
        lambda code: book.undo(code, Shown(2)),  # the change shown was number 2; it is 1
        lambda code: book.redo(code, Shown(1)),  # nothing to redo
    ],
)
def test_a_form_made_for_another_sheet_is_stale_and_changes_nothing(ctx, change):
    code = new()
    book.add_round(code, Shown(0), boxes([1, 2, 0]))
    heard: list = []
    listener = sheet_changed.connected_to(lambda sender, **facts: heard.append(facts))
    with listener, pytest.raises(Stale) as raised:
        change(code)
    assert raised.value.status == 409 and "another phone" in raised.value.message
    assert committed(code) == (1, 1) and heard == []
    assert book.read(code).rows == [{"tricks": [1, 2, 0]}]


def test_a_round_the_rules_refuse_is_refused_by_its_box(ctx):
    code = new()
    with pytest.raises(Refused) as raised:
        book.add_round(code, Shown(0), boxes([1, 1, 2]))  # 4 tricks of 3 cards
    assert raised.value.status == 422
    assert raised.value.message == raised.value.cause.message
    assert committed(code) == (0, 0)


def test_domain_errors_for_no_sheet_and_the_wrong_moment(ctx):
    with pytest.raises(NotFound) as missing:
        book.add_round("NOSUCH", Shown(0), boxes([1, 1, 1]))
    assert missing.value.status == 404
    with pytest.raises(NotFound):
        book.game_of("no-such-game")
    code = new()
    with pytest.raises(WrongMoment) as early:
        again.rematch(code)
    assert early.value.status == 409 and "once this game is over" in early.value.message
    assert book.read(code).rows == []


def test_a_round_gone_meanwhile_is_a_conflict_not_a_missing_page(ctx):
    code = new()
    book.add_round(code, Shown(0), boxes([1, 2, 0]))
    book.delete_round(code, 1, Shown(0, fingerprint(0, {"tricks": [1, 2, 0]})))
    with pytest.raises(book.ScoreError) as gone:
        book.edit_round(code, 1, Shown(0, "x"), boxes([3, 0, 0]))
    assert gone.value.status == 409 and "no longer on the sheet" in gone.value.message


# -- the after-commit event ----------------------------------------------------------------


def test_a_stored_change_is_announced_once_after_its_commit(ctx):
    code = new()
    heard: list = []

    def listener(sender, **facts):
        heard.append((sender, facts, committed(sender)))

    with sheet_changed.connected_to(listener):
        book.add_round(code, Shown(0), boxes([1, 2, 0]))
        book.undo(code, Shown(1))
        book.clear_steps(code)  # nothing in progress: no rounds stored, no event
    # Each listener saw the change already committed (another connection reads it).
    assert heard == [(code, {"rounds": 1}, (1, 1)), (code, {"rounds": 0}, (0, 1))]


def test_a_failing_listener_does_not_undo_or_fail_the_change(ctx, caplog):
    code = new()

    def broken(sender, **facts):
        raise RuntimeError("a listener's own bug")

    with sheet_changed.connected_to(broken), caplog.at_level(logging.ERROR):
        done = book.add_round(code, Shown(0), boxes([1, 2, 0]))
    assert done.message == "Hand 1 added." and committed(code) == (1, 1)
    assert "sheet-changed listener failed" in caplog.text


def test_the_live_feed_listens_once_the_app_is_built(app):
    assert feed.publish_rounds in list(sheet_changed.receivers_for("ANY"))


# -- the shape of the layers ----------------------------------------------------------------


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_only_the_store_reaches_the_database():
    database = {"sqlalchemy", "..extensions", "..database", "flask_sqlalchemy"}
    for path in PACKAGE.glob("*.py"):
        reached = {name for name in imports_of(path) if name.split(".")[0] in ("sqlalchemy",)}
        reached |= imports_of(path) & database
        if path.name != "store.py":
            assert not reached, f"{path.name} reaches the database through {reached}"


def test_no_module_over_500_lines_and_no_view_over_40(app):
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 500, path.name
    views = [f for name, f in app.view_functions.items() if name.startswith("scorekeeper.")]
    assert len(views) >= 18
    for view in views:
        lines, _ = inspect.getsourcelines(view)
        assert len(lines) < 40, view.__name__


@pytest.mark.parametrize("number", [None, -1, 0, 5])
def test_undo_or_redo_with_nothing_to_change_is_stale_whatever_the_form_says(ctx, number):
    code = new()
    for change in (book.undo, book.redo):
        with pytest.raises(Stale):
            change(code, Shown(number))
    assert committed(code) == (0, 0)

"""Helpers for the host's undo over the API, shared by the games' undo tests."""

from __future__ import annotations

from typing import Any

from tests.web.test_tables_api import TablePlayers, replayed_from_log

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]


def seated(
    app, game: str, players: int, options: dict | None = None, deal: dict | None = None
) -> TablePlayers:
    """A table of ``players`` seats through the API (with an explicit first ``deal``),
    everyone seated (Ada, Bo, …)."""
    table = TablePlayers(app, game, players, options, deal)
    return table.join_all(NAMES[:players])


def act(table: TablePlayers, seat: int, action: dict[str, Any]) -> dict:
    answer = table.act(seat, action)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def host_undo(table: TablePlayers) -> dict:
    """The host's undo; checks that every phone and the table are told the same words."""
    answer = table.undo(table.host_token, {"version": table.envelope(None)["version"]})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    notice = body["last_undo"]
    assert notice["version"] == body["version"] and notice["text"].startswith("The host took")
    for seat in [None, *range(table.players)]:
        assert table.envelope(seat)["last_undo"] == notice
    assert replayed_from_log(table.app, table.code) == table.row().state
    return body


def refused_undo(table: TablePlayers) -> str:
    """An undo the game refuses: 422 with its reason, and nothing changed."""
    before = table.snapshot()
    answer = table.undo(table.host_token)
    assert answer.status_code == 422, answer.get_json()
    assert table.snapshot() == before
    return answer.get_json()["error"]

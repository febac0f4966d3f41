"""A snapshot stored before cards became integers in the engine loads and plays on."""

from pathlib import Path

from companion.games import GAMES
from tests.games.snapshots import check_snapshot_plays_on, check_unknown_card_refused


def test_a_snapshot_of_today_loads_and_plays_on():
    check_snapshot_plays_on(GAMES["shoot"], Path(__file__).with_name("snapshot_today.json"))


def test_a_snapshot_with_an_unknown_card_is_refused():
    path = Path(__file__).with_name("snapshot_today.json")
    check_unknown_card_refused(GAMES["shoot"], path, "hands")

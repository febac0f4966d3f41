"""The "our reading" partial on the rules page states what the engine and sheet do."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.shoot import rules

from .helpers import GAME

PARTIAL = Path(__file__).resolve().parents[3] / "templates/games/shoot/reading.html"


def items() -> dict[str, str]:
    html = PARTIAL.read_text(encoding="utf-8")
    return dict(re.findall(r'<li id="([a-z-]+)">(.*?)</li>', html, re.S))


def test_every_reading_has_a_stable_id():
    found = items()
    assert set(found) >= {
        "shoot-first-dealer",
        "shoot-schedule",
        "shoot-sealed-bids",
        "shoot-no-hook",
        "shoot-play",
        "shoot-scoring",
        "shoot-winner",
        "shoot-chips",
        "shoot-sheet",
    }
    assert not PARTIAL.read_text(encoding="utf-8").lstrip().startswith("{% extends")


def test_numbers_in_the_readings_match_the_rules():
    found = items()
    assert f"up to {rules.MAX_DEALS} deals" in found["shoot-schedule"]
    assert GAME.check_options(2, {"schedule": [1] * rules.MAX_DEALS})
    assert f"puts {rules.STAKE} in the pot" in found["shoot-chips"]
    assert f"another {rules.STAKE}" in found["shoot-chips"]
    assert f"adds {rules.BONUS}" in found["shoot-scoring"]
    assert f"takes {rules.BONUS} away" in found["shoot-scoring"]
    assert f"worth {rules.deal_points(0, 0)}" in found["shoot-scoring"]
    assert "10 cards each down to 1" in found["shoot-schedule"]
    assert rules.default_schedule() == list(range(10, 0, -1))

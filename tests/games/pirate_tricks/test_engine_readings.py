"""The engine's "our reading" partial states what the engine does, and the page shows it."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.pirate_tricks import engine, rules
from companion.games.pirate_tricks.spec import SPEC

ROOT = Path(__file__).resolve().parents[3]
PARTIAL = ROOT / "templates/games/pirate_tricks/reading_engine.html"


def items() -> dict[str, str]:
    html = PARTIAL.read_text(encoding="utf-8")
    found = dict(re.findall(r'<li id="([a-z-]+)">(.*?)</li>', html, re.S))
    return {key: " ".join(text.split()) for key, text in found.items()}


def test_every_reading_has_a_stable_id():
    assert set(items()) >= {
        "pt-auction-order",
        "pt-sealed-bids",
        "pt-clear-winner",
        "pt-tie-reveal",
        "pt-zero-tie",
        "pt-second-pass",
        "pt-last-row",
        "pt-face-down",
        "pt-ditch",
        "pt-predictions",
        "pt-recruitment",
        "pt-tricks",
        "pt-round-end",
        "pt-screens",
        "pt-end",
    }
    assert not PARTIAL.read_text(encoding="utf-8").lstrip().startswith("{% extends")


def test_numbers_in_the_readings_match_the_engine():
    found = items()
    assert f"puts {engine.ZERO_TIE_LOON} loon on the row" in found["pt-zero-tie"]
    assert (
        f"anyone under {rules.TOP_UP} loon is brought up to {rules.TOP_UP}"
        in (found["pt-round-end"])
    )
    cards = engine.HAND_SIZE + engine.ROW_UP + engine.ROW_DOWN
    assert f"exactly one row: {cards} cards" in found["pt-last-row"]
    assert f"all {engine.ROW_UP + engine.ROW_DOWN} cards" in found["pt-clear-winner"].replace(
        "seven", "7"
    )
    low, *more = [value for value, _ in SPEC.option("rounds").choices]
    assert f"lasts {low} rounds, or {more[0]} or {more[1]}" in found["pt-end"]
    assert engine.GAME.check_options(3, {}) == {"rounds": low, "catalog": None}
    assert "two cards" in found["pt-ditch"] and "two face-down cards" in found["pt-face-down"]
    assert engine.ROW_DOWN == 2


def test_the_engine_module_documents_the_same_readings():
    doc = " ".join(engine.__doc__.split())
    for phrase in (
        "bid is final once made",
        "red over green over blue",
        "the bank puts 2 loon on it",
        "rows still open (each now holds 2 loon) are auctioned once more from the top",
        "the reveal winner chooses which of the tied players takes the row",
        "takes it free, with any loon on it",
        "topped up to 5",
    ):
        assert phrase in doc, phrase


def test_the_rules_page_includes_the_engine_readings(client):
    html = client.get("/rules/pirate_tricks").get_data(as_text=True)
    for anchor in ("pt-second-pass", "pt-tie-reveal", "pt-last-row"):
        assert f'id="{anchor}"' in html

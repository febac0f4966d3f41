"""Shoot! over HTTP: a seat's live events carry the rule links of its blocked cards (a
card that does not follow suit), met in the pinned deal of the generic events test."""

from __future__ import annotations

from tests.web.test_tables_api import seat_events_check


def test_blocked_cards_reach_a_seats_events(make_app, monkeypatch):
    assert seat_events_check(make_app, "shoot", monkeypatch)

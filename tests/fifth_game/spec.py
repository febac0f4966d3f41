"""High card, declared: the spec of the test-only fifth game (see the package)."""

from __future__ import annotations

from companion.games.spec import Field, Option, Spec

SLUG = "high_card"

SPEC = Spec(
    slug=SLUG,
    name="High card",
    tagline="Everyone plays a card; the highest takes the trick.",
    min_players=2,
    max_players=4,
    round_word="hand",
    score_word="Tricks",
    suit=("hearts", "♥"),
    order=999,
    options=(
        Option(
            "cards", "int", "Cards each", default=3, low=1, high=8, help="Also tricks per hand."
        ),
        Option(
            "target", "int", "Tricks to win", default=10, low=1, high=99, modes=frozenset({"score"})
        ),
    ),
    sheet_fields=(Field("tricks", "int", "Tricks", repeat=("players",), low=0, high=8),),
)

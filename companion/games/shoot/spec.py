"""Shoot! declared as data: name, players, options of both modes and the sheet's boxes.

On a sheet the players joined with their phones (issue 28), each phone enters its own bid,
sealed: the rulebook has every bid shown at once, so no phone, not the keeper nor the
shared screen sees a bid until all are in; then the shared screen calls "Ready?" and
"SHOOT!" and shows them all, and each phone holds its own bid up in large digits. Each
phone then enters its own tricks, in the open.
"""

from __future__ import annotations

from ..spec import SCORE, Field, Option, Spec, Step
from . import rules

TEN_DOWN = rules.default_schedule()
UP_AND_DOWN = [*range(1, 11), *range(9, 0, -1)]

SPEC = Spec(
    slug="shoot",
    name="Shoot!",
    tagline="An Oh Hell relative: bid exactly, shouted all at once.",
    min_players=2,
    max_players=5,
    teams="",
    lower_wins=False,
    round_word="deal",
    score_word="Score",
    suit=("spades", "♠"),
    order=3,
    anchors=(
        "components",
        "setup",
        "schedule",
        "deal",
        "trump",
        "bidding",
        "turn",
        "follow-suit",
        "trick-winner",
        "scoring",
        "end-of-game",
        "chips",
        "example",
        "our-reading",
    ),
    action_anchors={
        "bid": "bidding",
        "play": "follow-suit",
    },
    options=(
        Option(
            "schedule",
            "ints",
            "Hand sizes",
            default=TEN_DOWN,
            help=(
                "Cards in each hand, deal by deal. The rulebook plays ten deals, 10 cards "
                "down to 1; every deal must leave one card to turn up for trump, and a "
                f"game has at most {rules.MAX_DEALS} deals."
            ),
            presets=(
                (TEN_DOWN, "10 cards down to 1 (10 deals)"),
                (UP_AND_DOWN, "1 card up to 10 and back down to 1 (19 deals)"),
            ),
            house=True,
            check=rules.check_schedule,
        ),
        Option(
            "chips",
            "bool",
            "Play for chips",
            default=False,
            help=(
                f"Everyone puts {rules.STAKE} into the pot; after each deal a negative score "
                "is paid in and a positive one taken out; at the end the pot is shared."
            ),
        ),
        Option(
            "dealer",
            "seat",
            "First dealer",
            default=0,
            help="The player who deals first; the deal then passes to the left.",
            modes=frozenset({SCORE}),
        ),
    ),
    sheet_fields=(
        Field(
            "bids",
            "int",
            "Bid",
            repeat=("players",),
            low=0,
            high=rules.max_hand(2),
            help="The tricks each player said they would take.",
            anchor="bidding",
        ),
        Field(
            "tricks",
            "int",
            "Tricks",
            repeat=("players",),
            low=0,
            high=rules.max_hand(2),
            help="The tricks each player took; they add up to the hand size.",
            anchor="scoring",
        ),
    ),
    sheet_steps=(
        # Bids are shouted all at once: each phone enters its own, sealed until all are in.
        Step("bids", "bids", ("bids",), sealed=True, owner="each", call=("Ready?", "SHOOT!")),
        Step("tricks", "tricks", ("tricks",), owner="each"),
    ),
)

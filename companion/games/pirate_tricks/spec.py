"""Pirate Tricks declared as data: name, players, options of both modes and the sheet's boxes.

Options (both modes): ``rounds`` (3, 4 or 5; default 3) and ``catalog`` (a group's changes
to the score cards, :func:`rules.load_catalog`; ``None`` keeps the printed cards). Checking
the result again gives the same result, so stored options stay as they are.

On a sheet the players joined with their phones (issue 28) the rows are not entered: the
table bids row by row on the phones, sealed, and the sheet works out each player's ``bid``
and ``row_loon`` from that record (``row_bid``, ``row_winner``; :mod:`.joined`).

The score sheet asks first for the round's four score cards (``stage="choose"``: the other
boxes depend on them), then for each player's facts. A player's ``count`` boxes are one per
effect of the chosen treasure and capture cards that counts captured crew cards, in card
order (``PirateTricksSheet.counted``); boxes beyond those are left empty.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ..errors import IllegalAction
from ..spec import Field, Option, Spec, Step
from . import rules

MAX_RECRUITMENT = 200
MAX_BID = 10**6
# A row costs nothing when it is the last one left, or when a zero tie hands it over.
FREE_ROW_HINT = (
    "The loon paid for the row taken (0 for the last row or one handed over after a zero tie)."
)
COUNT_BOXES = 4  # count boxes per player: enough for a treasure and a capture card
# A joined sheet's auction, entry by entry (auction.py): a row's sealed bids or a card
# show's winner. At most 2n - 1 bid steps (every row once, the open ones again; the last
# row goes free) and n - 1 card shows for n players: 13 for five.
AUCTION_STEPS = 3 * 5 - 2


def check_catalog(players: int, value: Any) -> Any:
    """A group's score-card changes: an object that :func:`rules.load_catalog` accepts
    (raising its reason), kept as given (a copy)."""
    if not isinstance(value, dict):
        raise IllegalAction("The score-card corrections must be an object.")
    rules.load_catalog(value)
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        raise IllegalAction("The options must be plain JSON values.") from None
    return copy.deepcopy(value)


SPEC = Spec(
    slug="pirate_tricks",
    name="Pirate Tricks",
    tagline="Bid loon for rows of crew, then take tricks for more loon.",
    min_players=3,
    max_players=5,
    teams="",
    lower_wins=False,
    round_word="round",
    score_word="Loon",
    suit=("diamonds", "♦"),
    order=2,
    anchors=(
        "components",
        "setup",
        "round-setup",
        "turn",
        "auction",
        "ties",
        "ditch",
        "predictions",
        "recruitment",
        "tricks",
        "follow-suit",
        "trump",
        "trick-winner",
        "scoring",
        "payouts",
        "top-up",
        "special-cards",
        "end-of-game",
        "example",
        "our-reading",
    ),
    action_anchors={
        "bid": "auction",
        "reveal": "ties",
        "assign": "ties",
        "ditch": "ditch",
        "predict": "predictions",
        "play": "follow-suit",
    },
    options=(
        Option(
            "rounds",
            "choice",
            "Rounds",
            default=3,
            choices=((3, "3 rounds"), (4, "4 rounds"), (5, "5 rounds")),
            help="A game lasts 3, 4 or 5 rounds; the most loon at the end wins.",
        ),
        Option(
            "catalog",
            "data",
            "Score-card changes",
            default=None,
            optional=True,
            house=True,
            check=check_catalog,
            help=(
                "Your group's corrections to the score cards: cards by deck "
                '("recruitment", "treasure", "capture"; a known id replaces that card, '
                'a new id adds one) and "remove" (ids to take out). Every deck keeps '
                "enough cards for five rounds."
            ),
        ),
    ),
    sheet_fields=(
        Field(
            "recruitment",
            "choice",
            "Recruitment card",
            repeat=(2,),
            stage="choose",
            help="The round's two recruitment cards.",
            anchor="recruitment",
        ),
        Field("treasure", "choice", "Treasure card", stage="choose", anchor="special-cards"),
        Field("capture", "choice", "Capture card", stage="choose", anchor="special-cards"),
        Field(
            "bid",
            "int",
            "Bid",
            repeat=("players",),
            low=0,
            high=MAX_BID,
            help=FREE_ROW_HINT,
            anchor="auction",
        ),
        Field(
            "row_loon",
            "bool",
            "Took a row with 2 loon on it",
            repeat=("players",),
            anchor="ties",
        ),
        Field(
            "crew",
            "int",
            "Recruitment",
            repeat=("players",),
            low=0,
            high=MAX_RECRUITMENT,
            optional=True,
            help=(
                "The loon the shown crew earned from the two recruitment cards, or leave it "
                "empty and tick the cards shown: the sheet works it out."
            ),
            anchor="recruitment",
        ),
        Field(
            "shown",
            "picks",
            "Cards shown",
            repeat=("players",),
            high=rules.HAND,
            optional=True,
            help=(
                "On a sheet the players joined: the crew cards the player lays down for the "
                "two recruitment cards (none: no loon); the sheet works out the loon."
            ),
            anchor="recruitment",
        ),
        Field(
            "prediction",
            "int",
            "Prediction",
            repeat=("players",),
            low=0,
            high=rules.TRICKS,
            optional=True,
            help="Only while a prediction card is in play.",
            anchor="predictions",
        ),
        Field(
            "tricks",
            "int",
            "Tricks",
            repeat=("players",),
            low=0,
            high=rules.TRICKS,
            help="Tricks taken; they add up to 10.",
            anchor="payouts",
        ),
        Field(
            "count",
            "int",
            "Count",
            repeat=(COUNT_BOXES, "players"),
            low=0,
            high=rules.TRICKS * 5,
            optional=True,
            help=(
                "For each effect of the treasure and capture cards that counts captured "
                "crew: how many such cards the player took."
            ),
            anchor="special-cards",
        ),
        Field(
            "row_bid",
            "int",
            "Sealed bid",
            repeat=(AUCTION_STEPS, "players"),
            low=0,
            high=MAX_BID,
            optional=True,
            help="On a sheet the players joined: the loon held out for the row being bid on.",
            anchor="auction",
        ),
        Field(
            "row_winner",
            "seat",
            "Takes the row",
            repeat=(AUCTION_STEPS,),
            optional=True,
            help="On a sheet the players joined: who takes a tied row after the card show.",
            anchor="ties",
        ),
    ),
    # A round as the table plays it: the score cards turned up, rows taken with bids (and,
    # under a prediction card, the predictions the table makes after the ditch, before
    # recruitment), recruitment, then tricks and captures; the last step adds the round.
    sheet_steps=(
        Step("cards", "score cards", ("recruitment", "treasure", "capture")),
        # Sealed: the table bids with hidden fists (on a joined sheet, row by row: joined.py)
        Step("rows", "rows and bids", ("bid", "row_loon", "prediction"), sealed=True, owner="each"),
        Step("recruitment", "recruitment", ("crew",), owner="each"),
        Step("tricks", "tricks and captures", ("tricks", "count"), owner="each"),
    ),
)

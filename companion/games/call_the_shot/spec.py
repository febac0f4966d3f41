"""Call the Shot declared as data: name, players, the one option and the sheet's boxes."""

from __future__ import annotations

from ..spec import Field, Option, Spec
from . import rules

SPEC = Spec(
    slug="call_the_shot",
    name="Call the Shot",
    tagline="A two-player bluffing duel: say what you played, lie if you dare.",
    min_players=2,
    max_players=2,
    teams="",
    lower_wins=True,  # the scores are the shot cards each player took
    round_word="duel",
    score_word="Shots taken",
    suit=("hearts", "♥"),
    order=4,
    anchors=(
        "components",
        "setup",
        "turn",
        "claim",
        "call",
        "duel",
        "equal-values",
        "special-cards",
        "man-of-honour",
        "deadly-aim",
        "coward",
        "scoring",
        "end-of-game",
        "example",
        "our-reading",
    ),
    action_anchors={
        "play": "claim",
        "call": "call",
    },
    options=(
        Option(
            "shots_to_lose",
            "int",
            "Shots that lose the game",
            default=rules.SHOTS_TO_LOSE,
            help=(
                f"The first player to be shot this many times loses. The rulebook plays to "
                f"{rules.SHOTS_TO_LOSE}; a group may choose {rules.MIN_SHOTS} to "
                f"{rules.MAX_SHOTS}."
            ),
            low=rules.MIN_SHOTS,
            high=rules.MAX_SHOTS,
            presets=((rules.SHOTS_TO_LOSE, f"{rules.SHOTS_TO_LOSE} (the rulebook)"),),
            house=True,
        ),
    ),
    sheet_fields=(
        Field(
            "challenger",
            "seat",
            "Who challenged?",
            help="The challenger plays first; the role passes to the other player every duel.",
            anchor="setup",
        ),
        Field(
            "shot",
            "choice",
            "Who was shot?",
            help=(
                "The player who lost the duel takes a shot card; on equal values nobody "
                "(our reading: the rulebook is silent)."
            ),
            anchor="duel",
        ),
        # On a sheet the players joined, each phone says whether its player was shot
        # (sheet.py turns the two answers into ``shot``).
        Field(
            "hit",
            "choice",
            "Were you shot?",
            repeat=("players",),
            optional=True,
            help="On a sheet the players joined: whether you took a shot card this duel.",
            anchor="duel",
        ),
    ),
)

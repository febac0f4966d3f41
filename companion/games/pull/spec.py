"""PULL! declared as data: name, players, teams, options of both modes and the sheet's boxes.

How the game ends: ``goal`` (a target score, default 200) or ``hands`` (a fixed number of
hands). ``hands``, when set, replaces the goal: the checked options then hold
``goal: None``. With ``hands`` left out the goal is in force (200 unless given). Checking
the result again gives the same result, so stored options stay as they are.
"""

from __future__ import annotations

from ..spec import SCORE, Field, Option, Spec, Step
from . import rules

TARGET_CHOICES = "every target card, named by suit and left value"

SPEC = Spec(
    slug="pull",
    name="PULL!",
    tagline="Trap shooting as a trick-taker: two targets a round, first shot follows suit.",
    min_players=2,
    max_players=4,
    teams=(
        "Four players may play as two teams: partners sit across "
        "(the 1st and 3rd players against the 2nd and 4th)."
    ),
    lower_wins=False,
    round_word="hand",
    score_word="Score",
    suit=("clubs", "♣"),
    order=1,
    anchors=(
        "components",
        "teams",
        "setup",
        "turn",
        "first-shot",
        "second-shot",
        "trick-winner",
        "special-cards",
        "distracted",
        "scoring",
        "double",
        "fouls",
        "end-of-game",
        "example",
        "our-reading",
    ),
    action_anchors={
        "shoot": "first-shot",
        "second": "second-shot",
    },
    options=(
        Option(
            "teams",
            "bool",
            "Two teams (partners sit across)",
            default=False,
            default_for=lambda players: players == 4,
            help=(
                "Only with 4 players: the players across from each other score together. "
                "Four players play as teams unless you say otherwise."
            ),
        ),
        Option(
            "goal",
            "int",
            "Target score",
            default=rules.DEFAULT_GOAL,
            low=1,
            high=rules.MAX_GOAL,
            presets=((200, "200 points"), (400, "400 points")),
            optional=True,
            help=(
                "The game ends after the hand in which a side reaches this score, once one "
                "side leads alone. Not used when a number of hands is set."
            ),
        ),
        Option(
            "hands",
            "int",
            "Number of hands",
            default=None,
            low=1,
            high=rules.MAX_HANDS,
            optional=True,
            help=(
                "Play a fixed number of hands instead of to a target score (a tie for the "
                "lead still plays one more hand). Leave empty to play to the target score."
            ),
        ),
        Option(
            "max_hands",
            "int",
            "Hand limit",
            default=rules.DEFAULT_MAX_HANDS,
            low=1,
            high=rules.MAX_HANDS,
            house=True,
            help=(
                "A safety stop: after this many hands the game ends whatever the scores, "
                "and a tie for the lead is shared."
            ),
        ),
        Option(
            "targets",
            "data",
            "Target card values",
            default={},
            optional=True,
            house=True,
            check=lambda players, value: rules.check_target_overrides(value),
            help=(
                "The rulebook does not print the double values nor which targets are "
                'animals; change them to match your deck, e.g. {"trap-T2": {"double": 9}}. '
                "Only the changes are kept."
            ),
        ),
        Option(
            "dealer",
            "seat",
            "First dealer",
            default=0,
            modes=frozenset({SCORE}),
            help="The player who deals the first hand; the deal passes to the left.",
        ),
    ),
    sheet_fields=(
        Field(
            "points",
            "int",
            "Points",
            repeat=("sides",),
            low=-rules.MAX_POINTS,
            high=rules.MAX_POINTS,
            optional=True,
            help="Quick entry: each side's target points for the hand, doubles counted.",
            anchor="scoring",
        ),
        Field(
            "fouls",
            "int",
            "Fouls",
            repeat=("sides",),
            low=0,
            high=2 * rules.ROUNDS_PER_HAND,
            optional=True,
            help="Quick entry: the animals each side took this hand.",
            anchor="fouls",
        ),
        Field(
            "target",
            "choice",
            "Target",
            repeat=(rules.ROUNDS_PER_HAND, 2),
            optional=True,
            help="Or, round by round, the targets taken (" + TARGET_CHOICES + ").",
            anchor="scoring",
        ),
        Field(
            "taker",
            "side",
            "Taken by",
            repeat=(rules.ROUNDS_PER_HAND, 2),
            optional=True,
            help="The side that took that target.",
            anchor="trick-winner",
        ),
        # On a sheet the players joined (joined.py): each phone's sealed second shot, and
        # each side's own targets; turned into the boxes above when the hand is added.
        Field(
            "second",
            "choice",
            "Second shot",
            repeat=(rules.ROUNDS_PER_HAND, "players"),
            optional=True,
            help="On a sheet the players joined: the shot card you lay face down.",
            anchor="second-shot",
        ),
        Field(
            "took",
            "choice",
            "Target taken",
            repeat=(rules.ROUNDS_PER_HAND, "sides", 2),
            optional=True,
            help="On a sheet the players joined: a target your side took this round.",
            anchor="trick-winner",
        ),
    ),
    # The hand as the table plays it: round by round, each of the two targets taken by a
    # side or by nobody; the hand closes after its last round.
    sheet_steps=tuple(
        Step(f"round-{r + 1}", f"round {r + 1} targets", (f"target-{r}", f"taker-{r}"))
        for r in range(rules.ROUNDS_PER_HAND)
    ),
)

"""The stable anchors of the rules pages, for other screens to link to the exact rule.

``rule_url("shoot", "follow-suit")`` gives ``/rules/shoot#follow-suit`` and refuses an
anchor that is not listed here, so a typo fails loudly instead of linking to the top of a
page. It is a template global too: ``{{ rule_url("pull", "double") }}``. A test checks that
each page has exactly these sections (its "our reading" partial may add its own), so an
anchor cannot disappear or be renamed by accident.
"""

from __future__ import annotations

from flask import url_for

ANCHORS: dict[str, tuple[str, ...]] = {
    "pull": (
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
    "pirate_tricks": (
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
    "shoot": (
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
        "tactics",
        "example",
        "our-reading",
    ),
    "call_the_shot": (
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
}


def rule_url(slug: str, anchor: str | None = None) -> str:
    """URL of one game's rules page, or of one rule on it."""
    if slug not in ANCHORS:
        raise ValueError(f"no rules page for game {slug!r}")
    if anchor is not None and anchor not in ANCHORS[slug]:
        raise ValueError(f"no rule {anchor!r} on the {slug} rules page")
    return url_for("rules.game", slug=slug, _anchor=anchor)

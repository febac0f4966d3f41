"""What a game's rules page must hold (``templates/games/<slug>/rules.html``), checked.

A rules page is optional; one that exists must give

- an at-a-glance card: the template sets ``glance``, which the page shows first as the
  section ``#at-a-glance`` (set-up, a turn, points, the end);
- every anchor of :data:`COMMON_ANCHORS`, declared in ``spec.anchors`` and on the page as a
  ``<section id>`` (with its permalink, the ``section`` macro's): every game's page has the
  same skeleton, so a player finds "scoring" in the same place in each;
- at least one sub-rule: a section inside a top-level one (``section(..., level=3)``),
  which a "?" link can open on its own;
- outside the "our reading" part, exactly the sections of ``spec.anchors``, in order.

:func:`page_problems` says what a rendered page lacks; ``tests/web/test_rules_contract.py``
holds every registered game's page to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .search import sections_of

GLANCE = "at-a-glance"
READING = "our-reading"
COMMON_ANCHORS = ("components", "setup", "turn", "scoring", "end-of-game", "example", READING)


def page_problems(anchors: Sequence[str], html: str) -> list[str]:
    """What the rendered rules page ``html`` of a game whose ``spec.anchors`` are
    ``anchors`` lacks against the contract above; empty when it holds."""
    problems = []
    found = sections_of(html)
    parent = {s["anchor"]: s["parent"] for s in found}

    def in_reading(anchor: str | None) -> bool:
        while anchor is not None:
            if parent.get(anchor) == READING:
                return True
            anchor = parent.get(anchor)
        return False

    if not found or found[0]["anchor"] != GLANCE:
        problems.append(f"the page does not open with the at-a-glance card (#{GLANCE})")
    missing = [a for a in COMMON_ANCHORS if a not in anchors]
    if missing:
        problems.append(f"spec.anchors lacks the common anchors {missing}")
    own = [s["anchor"] for s in found if s["anchor"] != GLANCE and not in_reading(s["anchor"])]
    if own != list(anchors):
        problems.append(f"the page's sections {own} are not spec.anchors {list(anchors)}")
    if not any(s["depth"] >= 1 and not in_reading(s["anchor"]) for s in found):
        problems.append("no sub-rule: no section inside a top-level rule")
    for anchor in anchors:
        if not re.search(rf'<a class="permalink[^"]*" href="#{re.escape(anchor)}"', html):
            problems.append(f"#{anchor} has no permalink")
    return problems

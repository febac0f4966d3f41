"""bench/bots_vs_openspiel.py with module constants of the card play changed for one side.

    PYTHONPATH=. VARIANT="worlds.NOISE=1.0,tree.EXPLORATION=0.4" python bench/tree_variant.py \\
        --side expert --side strong --budget strong=100000:0.025 \\
        --budget expert=100000:0.025:settle --deals 100 --workers 2

``VARIANT`` names constants of ``companion.bots.tree`` or of the game's ``worlds`` or
``policy`` module (beside its bot) and their values (Python literals). They hold while
the ``expert`` side (or, with ``VARIANT_ALL=1``, every one of our sides) chooses a card;
bids are left alone unless ``VARIANT_BIDS=1`` (then they hold for its bids too).
Given strong's budget and settled stop, as above, the expert side is strong with the
variant: a head-to-head of the variant against strong on the same duplicate deals.
``VARIANT_EASY=1`` makes that side play its cards by the easy rules instead (what the
search is worth). Bench only: nothing here reaches the app.
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bots_vs_openspiel  # noqa: E402

from companion.bots import bot_for, tree  # noqa: E402

PACKAGE = type(bot_for(bots_vs_openspiel.SHOOT)).__module__.rpartition(".")[0]
MODULES = {
    "tree": tree,
    **{name: importlib.import_module(f"{PACKAGE}.{name}") for name in ("worlds", "policy")},
}


def changes(spec: str) -> list[tuple[object, str, object]]:
    """``module.NAME=value,...`` as (module, name, value)."""
    found = []
    for part in filter(None, spec.split(",")):
        name, _, value = part.partition("=")
        module, _, constant = name.partition(".")
        getattr(MODULES[module], constant)  # a typo fails here, not silently
        found.append((MODULES[module], constant, ast.literal_eval(value)))
    return found


CHANGES = changes(os.environ.get("VARIANT", ""))
EVERY_SIDE = os.environ.get("VARIANT_ALL") == "1"
EASY = os.environ.get("VARIANT_EASY") == "1"
BIDS = os.environ.get("VARIANT_BIDS") == "1"
real_decide = bots_vs_openspiel.decide


def decide(game, view, legal, level, rng, budget=None):
    """Our side's move, with the variant in force for the variant side's card play."""
    if (view["phase"] != "play" and not BIDS) or not (EVERY_SIDE or level == "expert"):
        return real_decide(game, view, legal, level, rng, budget)
    if EASY and view["phase"] == "play":
        return bot_for(game).easy(view, legal, rng)
    saved = [(module, name, getattr(module, name)) for module, name, _ in CHANGES]
    for module, name, value in CHANGES:
        setattr(module, name, value)
    try:
        return real_decide(game, view, legal, level, rng, budget)
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


if __name__ == "__main__":
    bots_vs_openspiel.decide = decide
    print(f"variant {CHANGES} {'every side' if EVERY_SIDE else 'expert side'}", flush=True)
    bots_vs_openspiel.main()

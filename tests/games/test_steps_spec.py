"""Every game that declares its round in steps (spec.sheet_steps) covers each box of its
round form with exactly one step, so the last step completes the round; the generic
step hooks of the Sheet follow the declared order."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.spec import box_indices, field_key

STEPPED = [slug for slug, game in GAMES.items() if game.spec.sheet_steps]


def test_some_game_declares_steps():
    # Which games do is each game's own test (tests/games/<slug>/test_spec.py).
    assert STEPPED, "no game declares steps: the tests below check nothing"


@pytest.mark.parametrize("slug", STEPPED)
def test_each_box_of_the_round_belongs_to_exactly_one_step(slug):
    spec = GAMES[slug].spec
    keeper = GAMES[slug].sheet(["A", "B", "C", "D"][: spec.min_players])
    stepped = {s.name for s in spec.sheet_steps}
    assert len(stepped) == len(spec.sheet_steps)  # names are unique
    every = [
        field_key(f.name, *index)
        for f in spec.sheet_fields
        for index in box_indices(f.shape(keeper.players, len(keeper.sides())))
    ]
    for key in every:
        owners = [s.name for s in spec.sheet_steps if s.takes(key)]
        field = key.split("-", 1)[0]
        quick = next(f for f in spec.sheet_fields if f.name == field)
        if quick.optional and not owners:
            continue  # an optional box the steps leave to the whole-round form
        assert len(owners) == 1, (key, owners)
    for step in spec.sheet_steps:
        assert any(step.takes(key) for key in every), step.name


@pytest.mark.parametrize("slug", STEPPED)
def test_next_step_follows_the_declared_order(slug):
    spec = GAMES[slug].spec
    keeper = GAMES[slug].sheet(["A", "B", "C", "D"][: spec.min_players])
    done: list[str] = []
    for step in spec.sheet_steps:
        assert keeper.next_step(done) is step
        done.append(step.name)
    assert keeper.next_step(done) is None
    # A step corrected out of order leaves the first missing one next.
    first, *rest = [s.name for s in spec.sheet_steps]
    assert keeper.next_step(rest) is spec.sheet_steps[0]
    assert keeper.step_named(first) is spec.sheet_steps[0]
    assert keeper.step_named("no such step") is None

"""docs/architecture.md's "Adding a game: the checklist", followed literally for the
test-only game High card, whose files all live under tests/ (``tests/fifth_game/``, its
hooks in ``tests/games/high_card/``): each step's files exist and say what the step says,
and, once the game is registered, the app carries it with no other file changed: no file
outside its own places names it, and the home page, both modes, the options reference and
the generic game tests take it in."""

from __future__ import annotations

import importlib
import inspect
import random
import re
import subprocess
from pathlib import Path

import pytest

from companion import options_doc
from companion.games import GAMES, Game, register, unregister
from companion.games.base import Sheet, State
from tests import fifth_game
from tests.games.sweep import run_sweep
from tests.games.test_sweep import checks_of, common_block_check

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
SLUG = fifth_game.SLUG
PACKAGE = ROOT / "tests" / "fifth_game"  # where companion/games/<slug>/ would be
HOOKS = ROOT / "tests" / "games" / SLUG  # tests/games/<slug>/
# The game's own places for a game that lives in the tests (the checklist's places, moved
# under tests/), and the tests that play it.
OWN_PLACES = ("tests/",)


def checklist() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Adding a game: the checklist")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def documented_hooks() -> set[str]:
    """The hook names the checklist's table of ``checks.py`` hooks lists."""
    text = checklist()
    table = text[text.index("| hook |") :]
    return set(re.findall(r"^\s*\| `(\w+)", table, flags=re.M)) - {"hook"}


# -- step 1: the game's package ----------------------------------------------------------


def test_step_1_the_package_holds_the_modules_the_checklist_names():
    text = checklist()
    named = set(re.findall(r"`(\w+)\.py`", text.split("2.", 1)[0]))
    required = {"__init__", "spec", "rules", "engine", "sheet"}
    assert required <= named, f"the checklist no longer names {required - named}"
    assert required <= {p.stem for p in PACKAGE.glob("*.py")}
    spec = importlib.import_module("tests.fifth_game.spec").SPEC
    engine = importlib.import_module("tests.fifth_game.engine")
    sheet = importlib.import_module("tests.fifth_game.sheet")
    assert isinstance(fifth_game.GAME, Game) and fifth_game.GAME.spec is spec
    assert issubclass(fifth_game.GAME.state_class, State)
    assert fifth_game.GAME.state_class.__module__ == engine.__name__
    assert issubclass(fifth_game.GAME.sheet_class, Sheet)
    assert fifth_game.GAME.sheet_class.__module__ == sheet.__name__


def test_step_1_the_state_takes_slug_and_lower_wins_from_the_spec():
    state_class = fifth_game.GAME.state_class
    assert "slug" not in vars(state_class) and "lower_wins" not in vars(state_class)
    state = fifth_game.GAME.new_state(3, seed=5)
    assert state.slug == SLUG and state.lower_wins is fifth_game.SPEC.lower_wins
    assert fifth_game.GAME.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
    # A variant reusing the state under its own spec round-trips under its own slug.
    lead = fifth_game.LEAD_GAME.new_state(2, seed=5)
    assert lead.slug == fifth_game.LEAD_SPEC.slug
    assert fifth_game.LEAD_GAME.state_from_dict(lead.to_dict()).to_dict() == lead.to_dict()
    with pytest.raises(TypeError, match="spec"):
        type("Bad", (State,), {"slug": "bad"})


# -- step 2: its tests' hooks ------------------------------------------------------------


def test_step_2_the_hooks_are_the_documented_ones_and_the_sweep_takes_them():
    checks = checks_of(SLUG)
    assert checks is not None and Path(checks.__file__).parent == HOOKS
    own = {
        name
        for name, f in inspect.getmembers(checks, inspect.isfunction)
        if f.__module__ == checks.__name__
    }
    assert own and own <= documented_hooks(), own - documented_hooks()
    totals = run_sweep(
        fifth_game.GAME,
        12,
        [2, 3, 4],
        options=checks.sweep_options,
        leak_check=common_block_check(checks.leak_check),
        conservation_check=checks.conservation_check,
    )
    assert totals


def test_the_documented_hooks_are_the_ones_the_generic_tests_look_up():
    """The checklist's table and the code that finds hooks by name agree both ways."""
    looked_up = set()
    for path in (ROOT / "tests" / "games").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        looked_up |= set(re.findall(r"getattr\(\s*checks(?:_of\(\w+\))?,\s*\"(\w+)\"", text))
        looked_up |= set(re.findall(r"\bchecks\.(\w+)\(", text))
    assert looked_up == documented_hooks()


# -- step 4: nothing else ------------------------------------------------------------------


def test_step_4_no_file_outside_its_places_names_it():
    tracked = subprocess.run(
        ["git", "grep", "-l", "-I", "-e", SLUG, "--", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert tracked, "git grep found nothing: the scan would prove nothing"
    outside = [name for name in tracked if not name.startswith(OWN_PLACES)]
    assert outside == []


@pytest.fixture
def registered():
    game = register(fifth_game.GAME)
    yield game
    unregister(SLUG)


@pytest.fixture
def app(make_app, registered):
    return make_app(WTF_CSRF_ENABLED=False)


def test_step_4_registered_the_app_carries_it_everywhere(client, registered):
    assert list(GAMES)[-1] == SLUG  # listed by spec.order
    home = client.get("/").get_data(as_text=True)
    assert f'id="game-{SLUG}"' in home and fifth_game.SPEC.name in home
    assert 'name="opt_cards"' in client.get(f"/score/new/{SLUG}").get_data(as_text=True)
    assert 'name="opt_cards"' in client.get(f"/play/{SLUG}").get_data(as_text=True)
    assert client.get("/rules").status_code == 200
    assert f"| `{SLUG}` | `cards` |" in options_doc.options_table()
    # A whole game through the API, by the generic code alone.
    made = client.post("/api/tables", json={"game": SLUG, "players": 2}).get_json()
    tokens = [
        client.post(f"/api/tables/{made['code']}/seats", json={"name": n}).get_json()["token"]
        for n in ("Ann", "Bo")
    ]
    chooser = random.Random(1)
    for _ in range(40):
        env = client.get(f"/api/tables/{made['code']}/view").get_json()
        if env["over"]:
            break
        seat = env["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = client.get(f"/api/tables/{made['code']}/view", headers=auth).get_json()
        body = {"action": chooser.choice(mine["legal"]), "version": mine["version"]}
        assert (
            client.post(f"/api/tables/{made['code']}/actions", json=body, headers=auth).status_code
            == 200
        )
    assert client.get(f"/api/tables/{made['code']}/view").get_json()["over"]


def test_step_1_a_sheet_class_goes_with_score_mode_in_the_spec():
    from dataclasses import replace

    play_only = replace(fifth_game.SPEC, slug="play_only", modes=frozenset({"play"}))
    with pytest.raises(TypeError, match="sheet_class"):
        type("PlayOnly", (fifth_game.HighCardGame,), {"spec": play_only})
    game = type("PlayOnly", (fifth_game.HighCardGame,), {"spec": play_only, "sheet_class": None})
    assert game().new_state(2, seed=1).slug == "play_only"

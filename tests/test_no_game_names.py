"""Outside a game's own places no file names a game (issue 9, "One game, one place").

Scans every tracked source file outside ``companion/games/``, ``templates/games/``,
``static/js/games/``, ``static/css/games/``, ``tests/`` and ``docs/`` for a game slug as a
string literal (``"pull"``, ``'shoot'``), a slug used as an identifier (a dict or object
key ``pull:``, a name or keyword ``shoot =``, a call ``pull(``, an attribute or module
``GAMES.pull``, ``pull.x``, ``import shoot``, a path ``games/pull.js``; a slug with an
underscore anywhere as a word, since no prose has it) or a branch on the game (``game ==``,
``game ===``, ``slug ==``), and fails naming the file and line. Single-word slugs are
English words too ("pull the row"), so in prose only those shapes count.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXEMPT = (
    "companion/games/",
    "templates/games/",
    "static/js/games/",
    "static/css/games/",
    "tests/",
    "docs/",
    # A yardstick that plays one game against an outside implementation of the same game
    # (OpenSpiel's oh_hell for Shoot!) names that game by nature; generic benches don't.
    "bench/bots_vs_openspiel.py",
)
SOURCE = (".py", ".html", ".js", ".css", ".json", ".toml", ".cfg", ".ini", ".mako", ".txt")
# A branch on the game: its slug or game compared with a string ("game == 'x'", "'x' !==
# slug"). Comparing two variables (a filter by the slug asked for) names no game.
BRANCH = re.compile(
    r"""\b(?:game|slug)\s*(?:===?|!==?)\s*["']|["']\s*(?:===?|!==?)\s*(?:game|slug)\b"""
)


def slugs() -> list[str]:
    """Every game folder under companion/games (found without importing them)."""
    return sorted(
        path.parent.name
        for path in (ROOT / "companion" / "games").glob("*/__init__.py")
        if not path.parent.name.startswith("_")
    )


def tracked() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover - not a checkout
        out = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]
    return [
        name
        for name in out
        if name.endswith(SOURCE) and not name.startswith(EXEMPT) and (ROOT / name).is_file()
    ]


def patterns(names: list[str]) -> list[re.Pattern]:
    """The shapes in which a line names one of the games ``names``."""
    if not names:
        return [BRANCH]
    alternatives = "|".join(re.escape(s) for s in names)
    word = rf"(?<![\w$-])(?:{alternatives})(?![\w$-])"
    found = [
        BRANCH,
        re.compile(rf"""(["'])(?:{alternatives})\1"""),  # "pull", 'shoot'
        # a key, a name or keyword, a call, a module: pull: / shoot = / pull( / pull.x
        re.compile(rf"{word}(?=\s*(?::(?!//)|=(?!=)|\(|\.[A-Za-z_]))"),
        re.compile(rf"(?<=\.)(?:{alternatives})\b"),  # GAMES.pull, from .shoot
        re.compile(rf"\bimport\s+(?:{alternatives})\b"),
    ]
    compound = "|".join(re.escape(s) for s in names if "_" in s)
    if compound:
        found.append(re.compile(rf"(?<![A-Za-z0-9$])(?:{compound})(?![A-Za-z0-9$])"))
    return found


def offences(names: list[str], text_of) -> list[str]:
    shapes = patterns(names)
    found = []
    for name in tracked():
        for number, line in enumerate(text_of(name).splitlines(), 1):
            if any(shape.search(line) for shape in shapes):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_there_are_games_to_look_for():
    assert slugs(), "no game folders found under companion/games"


def test_no_file_outside_the_games_places_names_a_game():
    found = offences(
        slugs(), lambda name: (ROOT / name).read_text(encoding="utf-8", errors="replace")
    )
    assert not found, "a game is named outside its own places:\n" + "\n".join(found)


def test_a_comparison_of_two_variables_is_no_branch_on_a_game(monkeypatch):
    assert scan_one(monkeypatch, "rows.filter((r) => !game || r.slug === game)") == []
    assert scan_one(monkeypatch, "if (slug !== 'x') go();") != []
    assert scan_one(monkeypatch, 'if "x" == game:') != []


def test_the_scan_catches_a_slug_and_a_branch(monkeypatch):
    fake = {"companion/x.py": 'if game == "shoot":\n    pass\n', "static/js/y.js": "ok\n"}
    monkeypatch.setattr("tests.test_no_game_names.tracked", lambda: list(fake))
    found = offences(["shoot"], fake.__getitem__)
    assert found == ['companion/x.py:1: if game == "shoot":']


def scan_one(monkeypatch, line: str) -> list[str]:
    """The offences the scan finds in a one-line file ``companion/x.py``."""
    monkeypatch.setattr("tests.test_no_game_names.tracked", lambda: ["companion/x.py"])
    return offences(["pull", "shoot", "pirate_tricks"], {"companion/x.py": line}.__getitem__)


@pytest.mark.parametrize(
    "line",
    [
        "SCORE = {pull: 1}",  # a JS object key
        '{"x": 1, pull: 2}',
        "FIELDS = dict(shoot=3)",  # a keyword
        "pull = GAMES[code]",  # a name
        "if GAMES.pull:",  # an attribute
        "from companion.games.shoot import engine",  # a module
        "from .pull import rules",
        "import shoot",
        "pull.engine.run()",
        "  pirate_tricks_rows(x)",
        "const row = state.pirate_tricks;",
        'url = "/static/js/games/pull.js"',
        "name = f'{pirate_tricks}'",
    ],
)
def test_the_scan_catches_a_slug_as_an_identifier(monkeypatch, line):
    assert scan_one(monkeypatch, line) == [f"companion/x.py:1: {line.strip()}"]


@pytest.mark.parametrize(
    "line",
    [
        "/* pull the row into view */",
        "# Players shoot the moon. Then pull.",
        "a pullover, a shootout, puller(), x_pull = 1, pull_request = 2",
        "pirate-tricks-like hyphen words",
    ],
)
def test_the_scan_leaves_prose_and_longer_words_alone(monkeypatch, line):
    assert scan_one(monkeypatch, line) == []


def action_types() -> set[str]:
    """Every kind of Play decision any registered game declares (spec.action_anchors)."""
    from companion.games import GAMES

    return {kind for game in GAMES.values() for kind in game.spec.action_anchors}


def action_offences(kinds: set[str], text_of, names: list[str]) -> list[str]:
    alternatives = "|".join(re.escape(k) for k in sorted(kinds))
    key = re.compile(rf"(?<![\w$.-])(?:{alternatives})\s*:(?!//)")  # { predict: … }
    quoted = re.compile(rf"""(["'])(?:{alternatives})\1""")  # type === "assign"
    element = re.compile(r"getElementById\(|querySelector(?:All)?\(")  # an id, not an action
    found = []
    for name in names:
        for number, line in enumerate(text_of(name).splitlines(), 1):
            code = line.split("//", 1)[0]
            if key.search(code) or (quoted.search(code) and not element.search(code)):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def generic_scripts() -> list[str]:
    return [n for n in tracked() if n.startswith("static/js/") and n.endswith(".js")]


def test_no_generic_script_names_a_game_action():
    """The phone's and the host's generic modules know no game's action types: a game's
    own words for its decisions live in its board module (``choiceTitles``)."""
    kinds = action_types()
    assert {"play", "bid"} <= kinds
    found = action_offences(
        kinds,
        lambda name: (ROOT / name).read_text(encoding="utf-8", errors="replace"),
        generic_scripts(),
    )
    assert not found, "a game's action is named in generic code:\n" + "\n".join(found)


def test_the_action_scan_catches_a_key_and_a_comparison():
    fake = {
        "a.js": 'const T = { bid: "Your bid", predict: "x" };',
        "b.js": 'if (action.type === "assign") go();',
        "c.js": 'const play = document.getElementById("play"); // a bid: later',
    }
    found = action_offences({"bid", "predict", "assign", "play"}, fake.__getitem__, list(fake))
    assert [f.split(":")[0] for f in found] == ["a.js", "b.js"]

"""A game's own look and board live in its own static files (issue 24, "a game is one
place"): ``static/css/games/<slug>.css`` holds the classes only that game uses, every page
about one game's sheet or table links it, and the shared sheets hold only what is used
outside a single game's places."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
SHARED_SHEETS = ("static/css/app.css", "static/css/score.css", "static/css/table.css")


def classes_of(css: str) -> set[str]:
    """The class names a stylesheet's selectors name."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: set[str] = set()
    for selector in re.findall(r"([^{}]+)\{", css):
        if not selector.strip().startswith("@"):
            found |= set(re.findall(r"\.([A-Za-z][\w-]*)", selector))
    return found


def owner(path: str) -> str | None:
    """The game whose own place ``path`` is, or None for a generic file."""
    for pattern in (
        r"^templates/games/([^/]+)/",
        r"^static/js/games/([^/.]+)\.js$",
        r"^companion/games/([^/]+)/",
    ):
        match = re.match(pattern, path)
        if match:
            return match.group(1)
    return None


def users() -> dict[str, str]:
    files = [
        *ROOT.glob("templates/**/*.html"),
        *ROOT.glob("static/js/**/*.js"),
        *ROOT.glob("companion/**/*.py"),
    ]
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}


def single_game_classes(sheet: str, texts: dict[str, str]) -> dict[str, str]:
    """Classes of ``sheet`` that only one game's own files use: ``{class: slug}``."""
    found = {}
    for name in classes_of((ROOT / sheet).read_text(encoding="utf-8")):
        word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        owners = {owner(path) for path, text in texts.items() if word.search(text)}
        # A class built from data in a generic template ("suit-{{ suit[0] }}") is generic.
        prefix = name.rsplit("-", 1)[0] + "-"
        built = any(
            prefix + "{{" in text or prefix + "${" in text
            for path, text in texts.items()
            if owner(path) is None
        )
        if len(owners) == 1 and None not in owners and not built:
            found[name] = owners.pop()
    return found


@pytest.mark.parametrize("sheet", SHARED_SHEETS)
def test_shared_sheets_hold_no_class_only_one_game_uses(sheet):
    found = single_game_classes(sheet, users())
    assert not found, f"move these to static/css/games/<slug>.css: {found}"


def test_the_class_scan_finds_a_game_only_class(tmp_path, monkeypatch):
    texts = {
        "templates/games/pull/sheet_fields.html": '<p class="target-pair">',
        "templates/scorekeeper/sheet.html": '<p class="score-table suit-{{ s }}">',
    }
    monkeypatch.setattr("tests.web.test_game_assets.ROOT", tmp_path)
    (tmp_path / "static/css").mkdir(parents=True)
    (tmp_path / "static/css/x.css").write_text(
        ".target-pair, .score-table td {}\n.suit-hearts {}\n/* .ghost {} */"
    )
    assert single_game_classes("static/css/x.css", texts) == {"target-pair": "pull"}


def test_game_stylesheets_belong_to_registered_games():
    sheets = {p.stem for p in (ROOT / "static/css/games").glob("*.css")}
    assert sheets and sheets <= set(GAMES)


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def sheet_link(slug: str) -> str:
    return f'<link rel="stylesheet" href="/static/css/games/{slug}.css?v='


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_page_of_a_game_links_its_own_stylesheet(client, slug):
    has_sheet = (ROOT / f"static/css/games/{slug}.css").is_file()
    game = GAMES[slug]
    pages = []
    if "score" in game.spec.modes:
        pages.append(f"/score/new/{slug}")
    if "play" in game.spec.modes:
        pages.append(f"/play/{slug}")
        players = game.spec.min_players
        response = client.post(f"/play/{slug}", data={"players": str(players)})
        assert response.status_code == 303, response.get_data(as_text=True)
        code = re.search(r"/t/([A-Z0-9]+)", response.headers["Location"]).group(1)
        pages += [f"/t/{code}", f"/t/{code}/seat", f"/t/{code}/watch"]
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        assert (sheet_link(slug) in html) == has_sheet, path
        for other in GAMES:
            if other != slug:
                assert sheet_link(other) not in html, path


def test_a_game_without_a_stylesheet_links_none(client, high_card):
    html = client.get(f"/score/new/{high_card.slug}").get_data(as_text=True)
    assert "/static/css/games/" not in html

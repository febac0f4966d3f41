"""Home page, navigation, every route, and the base template's promises."""

from __future__ import annotations

import re

from flask import url_for

from companion.games import GAMES

from .pages import page


def player_count(game) -> str:
    if game.min_players == game.max_players:
        return f"{game.min_players} players"
    return f"{game.min_players}–{game.max_players} players"


def test_home_lists_every_registered_game_with_player_counts(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert GAMES and html.count('<li class="game-card">') == len(GAMES)
    for game in GAMES.values():
        card = re.search(
            rf'<li class="game-card">\s*<h3 id="game-{game.slug}">.*?</li>\s*</ul>|'
            rf'<li class="game-card">\s*<h3 id="game-{game.slug}">.*?</p>\s*</li>',
            response.get_data(as_text=True),
            re.S,
        )
        assert card, game.slug
        assert game.name in card.group(0)
        assert player_count(game) in card.group(0)


def test_home_links_each_game_to_its_rules(client):
    hrefs = page(client.get("/")).hrefs()
    for slug in GAMES:
        assert f"/rules/{slug}" in hrefs


def test_every_link_on_home_and_offline_page_works(client):
    """No link to a page that does not exist."""
    for start in ("/", "/offline"):
        for href in set(page(client.get(start)).hrefs()):
            if href.startswith("#"):
                continue
            assert client.get(href).status_code == 200, (start, href)


def test_nav_links_score_play_and_rules(app, client):
    nav_html = re.search(
        r'<nav class="site-nav".*?</nav>', client.get("/").get_data(as_text=True), re.S
    )
    nav = page_of(nav_html.group(0))
    links = [(nav_link_text(nav_html.group(0), a), a["href"]) for a in nav.find_all("a")]
    with app.test_request_context():
        expected = [
            ("Score", url_for("scorekeeper.index")),
            ("Play", url_for("tables.index")),
            ("Rules", url_for("rules.index")),
        ]
    assert links == expected


def page_of(html: str):
    from .pages import Page

    return Page(html)


def nav_link_text(nav_html: str, attrs) -> str:
    match = re.search(rf'href="{re.escape(attrs["href"])}"[^>]*>([^<]*)<', nav_html)
    return match.group(1) if match else ""


def test_current_section_is_marked_in_the_nav(app, client):
    current = page(client.get(f"/rules/{next(iter(GAMES))}")).find_all("a", aria_current="page")
    with app.test_request_context():
        assert [a["href"] for a in current] == [url_for("rules.index")]
    assert page(client.get("/")).find_all("a", aria_current="page") == []


def test_base_template_landmarks_and_skip_link(client):
    home = page(client.get("/"))
    skip = home.find_all("a", **{"class": "skip-link"})
    assert skip and skip[0]["href"] == "#main"
    assert home.find_all("main", id="main")
    assert home.find_all("nav")[0].get("aria-label") == "Main"
    assert home.find_all("footer")
    assert home.find_all("html")[0]["lang"] == "en"
    viewport = home.find_all("meta", name="viewport")[0]["content"]
    assert "width=device-width" in viewport and "viewport-fit=cover" in viewport
    assert home.find_all("meta", name="color-scheme")[0]["content"] == "light dark"


def routes_to_check(app) -> list[str]:
    """Every GET route without arguments, and every route taking a game ``slug``
    with each game's slug."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        if not rule.arguments:
            urls.append(rule.rule)
        elif rule.arguments == {"slug"}:
            urls += [rule.rule.replace("<slug>", slug) for slug in GAMES]
    return sorted(set(urls))


def test_every_route_answers(app, client):
    urls = routes_to_check(app)
    assert {"/", "/offline", "/manifest.webmanifest", "/sw.js"} <= set(urls)
    for url in urls:
        with client.get(url) as response:
            assert response.status_code in (200, 301, 302, 308), url


def test_pages_use_no_inline_script_or_style_and_no_outside_assets(app, client):
    """The CSP forbids inline script and style, and the app loads nothing from elsewhere."""
    for url in routes_to_check(app) + ["/no-such-page"]:
        response = client.get(url)
        if response.mimetype != "text/html":
            continue
        html = page(response)
        assert html.inline == [], url
        for tag, attrs in html.tags:
            assert "style" not in attrs, (url, tag)
            assert not any(name.startswith("on") for name in attrs), (url, tag)
            if tag == "script" and attrs.get("type") not in ("importmap", "application/json"):
                assert attrs.get("src", "").startswith("/static/"), url
            for name in ("src", "href"):
                value = attrs.get(name) or ""
                if tag == "a":
                    continue  # links to elsewhere are fine; loading from elsewhere is not
                assert not re.match(r"^(https?:)?//", value), (url, tag, value)


def test_every_asset_the_pages_load_is_served(app, client):
    for url in ("/", "/offline", "/no-such-page"):
        html = page(client.get(url))
        for tag, attrs in html.tags:
            ref = attrs.get("src") if tag in ("script", "img") else None
            if tag == "link":
                ref = attrs.get("href")
            if ref:
                with client.get(ref) as response:
                    assert response.status_code == 200, (url, ref)


def test_offline_page(client):
    response = client.get("/offline")
    assert response.status_code == 200
    assert "You are offline" in page(response).text

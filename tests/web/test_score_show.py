"""Showing the game: chart of running totals, CSV export, finished sheets in the recent list,
rematch, local times and the read-only share page with its live events."""

from __future__ import annotations

import csv
import io
import re
from html import unescape

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.games.spec import form_values
from companion.models import ScoreEntry, ScoreSheet
from companion.scorekeeper import book
from companion.scorekeeper.book import Shown
from companion.scorekeeper.show import chart, export_csv
from tests.fifth_game import HighCardSheet

# One sheet of each game: players, options, the facts of each round, and the running totals
# per side after each round, worked out by hand from the rulebooks.
SAMPLES = {
    "shoot": {
        "names": ["Al", "Bea", "Cy"],
        "options": {"schedule": [3, 2, 1], "dealer": 2},
        "rows": [
            {"bids": [1, 0, 2], "tricks": [1, 0, 2]},  # all exact: 6, 5, 7
            {"bids": [1, 1, 1], "tricks": [2, 0, 0]},  # all missed: -3, -5, -5
            {"bids": [0, 1, 0], "tricks": [0, 0, 1]},  # 5, -5, -4
        ],
        "running": [[6, 5, 7], [3, 0, 2], [8, -5, -2]],
        "over": True,
        "winners": ["Al"],
    },
    "call_the_shot": {
        "names": ["Ada", "Bo"],
        "options": {},
        "rows": [
            {"challenger": 0, "shot": 1},
            {"challenger": 1, "shot": None},
            {"challenger": 0, "shot": 1},
            {"challenger": 1, "shot": 1},
        ],
        "running": [[0, 1], [0, 1], [0, 2], [0, 3]],
        "over": True,
        "winners": ["Ada"],
    },
    "pull": {
        "names": ["Ann", "Bo", "Cy", "Di"],
        "options": {"teams": True},
        "rows": [
            {"sides": [{"points": 40, "fouls": 0}, {"points": 20, "fouls": 0}]},
            {"sides": [{"points": 30, "fouls": 1}, {"points": 50, "fouls": 0}]},
        ],
        "running": [[40, 20], [70, 70]],  # sides: Ann & Cy, Bo & Di
        "over": False,
        "winners": [],
    },
    "pirate_tricks": {  # everyone starts with 12 loon: the chart and the CSV start there
        "names": ["Ann", "Bo", "Cy"],
        "options": {},
        "rows": [
            {
                "cards": {
                    "recruitment": ["gang_of_three", "partners_in_crime"],
                    "treasure": "rich_rewards",
                    "capture": "mustel_bounty",
                },
                "players": [
                    {"bid": 3, "tricks": 4, "recruitment": 2, "captured": ["B9", "B10"]},
                    {"bid": 0, "row_loon": 2, "tricks": 3, "recruitment": 0, "captured": []},
                    {"bid": 1, "tricks": 3, "recruitment": 5, "captured": ["B11"]},
                ],
            }
        ],
        "running": [[21, 20, 23]],  # as tests/games/pirate_tricks/test_sheet.py works out
        "start": [12, 12, 12],
        "over": False,
        "winners": [],
    },
}
SLUGS = [slug for slug in SAMPLES if slug in GAMES]


@pytest.fixture
def app(make_app):
    return make_app()


def make_sheet(app, slug: str, code: str, rows=None, names=None, options=None) -> ScoreSheet:
    sample = SAMPLES[slug]
    names = names or sample["names"]
    keeper = GAMES[slug].sheet(names, sample["options"] if options is None else options)
    rows = sample["rows"] if rows is None else rows
    keeper.check(rows)
    with app.app_context():
        sheet = ScoreSheet(
            code=code,
            watch_code=f"watch-{code.lower()}-0123456789",
            game=slug,
            players=names,
            options=keeper.options,
        )
        sheet.entries = [ScoreEntry(position=i, facts=facts) for i, facts in enumerate(rows)]
        db.session.add(sheet)
        db.session.commit()
        return sheet


def svg_of(html: str) -> str:
    match = re.search(r'<figure class="score-chart".*?</figure>', html, re.S)
    assert match, "no chart on the page"
    return match.group(0)


def chart_lines(html: str) -> list[list[float]]:
    """Each line of the chart read back as values, through the labelled grid lines."""
    figure = svg_of(html)
    grid = [
        (float(y), int(value))
        for y, value in re.findall(
            r'<line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)" y2="\1"[^>]*></line>\s*'
            r'<text[^>]*class="y-label"[^>]*>(-?\d+)</text>',
            figure,
        )
    ]
    assert len(grid) >= 2, figure
    (y0, v0), (y1, v1) = grid[0], grid[-1]
    lines = []
    for points in re.findall(r'<polyline points="([^"]+)"', figure):
        ys = [float(pair.split(",")[1]) for pair in points.split()]
        lines.append([round(v0 + (y - y0) * (v1 - v0) / (y1 - y0), 3) for y in ys])
    return lines


def chart_table(html: str) -> list[list[int]]:
    figure = svg_of(html)
    body = re.search(r'<table class="chart-table">.*?<tbody>(.*?)</tbody>', figure, re.S).group(1)
    return [
        [int(v) for v in re.findall(r"<td>(-?\d+)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


@pytest.mark.parametrize("slug", SLUGS)
def test_summary_gives_running_totals_per_seat(slug):
    sample = SAMPLES[slug]
    keeper = GAMES[slug].sheet(sample["names"], sample["options"])
    summary = keeper.summary(sample["rows"])
    by_side = [[seats[side[0]] for side in summary["sides"]] for seats in summary["running"]]
    assert by_side == sample["running"]
    assert summary["running"][-1] == summary["totals"]
    for side in summary["sides"]:  # partners show their side's figure every round
        for seats in summary["running"]:
            assert len({seats[seat] for seat in side}) == 1
    assert keeper.summary([])["running"] == []


@pytest.mark.parametrize("slug", SLUGS)
def test_chart_draws_each_sides_running_totals(app, slug):
    make_sheet(app, slug, "CHART2")
    html = app.test_client().get("/score/CHART2").get_data(as_text=True)
    running = SAMPLES[slug]["running"]
    sides = len(running[0])
    start = SAMPLES[slug].get("start", [0] * sides)
    expected = [[start[side], *(row[side] for row in running)] for side in range(sides)]
    assert chart_lines(html) == expected
    assert chart_table(html) == running
    figure = svg_of(html)
    assert 'role="img"' in figure and "style=" not in figure
    assert figure.count('<li class="series-') == sides


def test_running_totals_default_to_the_rows_totals():
    keeper = HighCardSheet(["Ann", "Bo"], {})
    summary = keeper.summary([{"tricks": [3, 1]}, {"tricks": [0, 4]}])
    assert summary["running"] == [[3, 1], [3, 5]]
    assert summary["start"] == [0, 0]


def test_a_game_that_starts_above_zero_charts_and_exports_from_its_start():
    summary = {
        "sides": [[0], [1]],
        "side_names": ["Ann", "=Bo"],
        "totals": [12, 3],
        "start": [10, 10],
        "running": [[14, 6], [12, 3]],
    }
    drawn = chart(summary)
    assert [s["total"] for s in drawn["series"]] == [12, 3]
    assert drawn["low"] <= 0 and drawn["high"] >= 14
    first = [s["points"].split()[0] for s in drawn["series"]]
    assert first[0] == first[1]  # both lines leave from 10
    rows = list(csv.reader(io.StringIO(export_csv(summary, "round"))))
    assert rows[0] == ["Round", "Ann points", "Ann total", "'=Bo points", "'=Bo total"]
    assert rows[1] == ["Start", "10", "10", "10", "10"]
    assert rows[2:4] == [["1", "4", "14", "-4", "6"], ["2", "-2", "12", "-3", "3"]]
    assert rows[4] == ["Total", "12", "12", "3", "3"]


def test_no_chart_before_the_first_round(app):
    make_sheet(app, SLUGS[0], "EMPTY2", rows=[])
    html = app.test_client().get("/score/EMPTY2").get_data(as_text=True)
    assert 'class="score-chart"' not in html


def read_csv(app, code: str) -> list[list[str]]:
    response = app.test_client().get(f"/score/{code}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


@pytest.mark.parametrize("slug", SLUGS)
def test_csv_rounds_points_totals_and_the_sums_equal_the_totals(app, slug):
    sample = SAMPLES[slug]
    make_sheet(app, slug, "CSVCSV")
    table = read_csv(app, "CSVCSV")
    keeper = GAMES[slug].sheet(sample["names"], sample["options"])
    summary = keeper.summary(sample["rows"])
    start = [summary["start"][side[0]] for side in summary["sides"]]
    if any(start):  # a game that does not start at 0 says where it starts
        assert table[1][0] == "Start" and [int(v) for v in table[1][2::2]] == start
        table = [table[0], *table[2:]]
    header, rows, last = table[0], table[1:-1], table[-1]
    assert header[0] == keeper.spec.round_word.capitalize()
    assert header[1::2] == [f"{name} points" for name in summary["side_names"]]
    assert header[2::2] == [f"{name} total" for name in summary["side_names"]]
    assert [int(row[0]) for row in rows] == list(range(1, len(sample["rows"]) + 1))
    assert [[int(v) for v in row[2::2]] for row in rows] == sample["running"]
    totals = [summary["totals"][side[0]] for side in summary["sides"]]
    assert last[0] == "Total"
    sums = [
        start[side] + sum(int(row[1 + 2 * side]) for row in rows) for side in range(len(totals))
    ]
    assert sums == totals
    assert [int(v) for v in last[1::2]] == totals
    assert [int(v) for v in last[2::2]] == totals


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "+1+1", "-2-3", "@SUM(A1)"])
def test_csv_cannot_run_a_formula_from_a_name(app, name):
    slug = "call_the_shot" if "call_the_shot" in GAMES else SLUGS[0]
    names = [name, *SAMPLES[slug]["names"][1:]]
    make_sheet(app, slug, "INJECT", names=names)
    header = read_csv(app, "INJECT")[0]
    assert header[1] == f"'{name} points"
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in header)


def test_csv_of_an_unknown_sheet_is_404(app):
    assert app.test_client().get("/score/NOSUCH/export.csv").status_code == 404


def test_recent_sheets_show_finished_winners_and_round_words(app):
    client = app.test_client()
    for n, slug in enumerate(SLUGS):
        make_sheet(app, slug, f"RECNT{n}")
        client.get(f"/score/RECNT{n}")  # opened on this phone
    html = client.get("/score").get_data(as_text=True)
    items = re.findall(
        r"<li( class=\"finished\")?>\s*<a href=\"/score/(RECNT\d)\">(.*?)</a>", html, re.S
    )
    assert len(items) == len(SLUGS)
    for finished, code, inner in items:
        slug = SLUGS[int(code[-1])]
        sample, word = SAMPLES[slug], GAMES[slug].spec.round_word
        text = " ".join(unescape(re.sub(r"<[^>]+>", " ", inner)).split())
        count = len(sample["rows"])
        assert f"{count} {word}{'s' if count != 1 else ''}" in text
        if sample["over"]:
            assert finished and "Finished" in text
            assert f"Won by {' & '.join(sample['winners'])}" in text
        else:
            assert not finished and "Finished" not in text and "Won by" not in text


def test_times_are_utc_in_the_page_and_marked_for_local_display(app):
    make_sheet(app, SLUGS[0], "TIMES2")
    client = app.test_client()
    html = client.get("/score/TIMES2").get_data(as_text=True)
    stamp = re.search(r'<time datetime="([^"]+)" data-local>([^<]+)</time>', html)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp.group(1))
    assert stamp.group(2).endswith("UTC")
    index = client.get("/score").get_data(as_text=True)
    assert re.search(r'<time datetime="[^"]+Z" data-local>[^<]+UTC</time>', index)


def test_rematch_makes_a_new_sheet_with_the_same_players_and_options(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    slug = "shoot" if "shoot" in GAMES else SLUGS[0]
    make_sheet(app, slug, "FINAL2")
    client = app.test_client()
    html = client.get("/score/FINAL2").get_data(as_text=True)
    form = re.search(r'<form method="post" action="/score/FINAL2/rematch".*?</form>', html, re.S)
    assert form, "no rematch button on a finished sheet"
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form.group(0)).group(1)
    assert client.post("/score/FINAL2/rematch").status_code == 400  # no CSRF token
    response = client.post("/score/FINAL2/rematch", data={"csrf_token": token})
    assert response.status_code == 302
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert code != "FINAL2"
    with app.app_context():
        old = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == "FINAL2"))
        new = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        assert (new.game, new.players, new.options) == (old.game, old.players, old.options)
        assert new.entries == [] and len(old.entries) == len(SAMPLES[slug]["rows"])
        assert new.watch_code and new.watch_code != old.watch_code
    assert code in client.get("/score").get_data(as_text=True)


def test_no_rematch_before_the_game_is_over(make_app):
    app = make_app(WTF_CSRF_ENABLED=False)
    slug = next(s for s in SLUGS if not SAMPLES[s]["over"])
    make_sheet(app, slug, "GOING2")
    client = app.test_client()
    assert "/rematch" not in client.get("/score/GOING2").get_data(as_text=True)
    response = client.post("/score/GOING2/rematch")
    assert response.status_code == 303
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 1


def share_link(html: str) -> str:
    match = re.search(r'<p class="share-link"><a href="([^"]+)"', html)
    assert match, "no share link on the sheet"
    return unescape(match.group(1))


@pytest.mark.parametrize("slug", SLUGS)
def test_share_link_shows_a_read_only_sheet(make_app, slug):
    app = make_app(WTF_CSRF_ENABLED=True)
    make_sheet(app, slug, "SHARE2")
    keeper = app.test_client()
    html = keeper.get("/score/SHARE2").get_data(as_text=True)
    path = "/" + share_link(html).split("/", 3)[3]
    assert "SHARE2" not in path
    qr = re.search(r'<img class="share-qr" src="([^"]+)"', html).group(1)
    assert keeper.get(qr).mimetype == "image/svg+xml"

    watcher = app.test_client()
    response = watcher.get(path)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers  # no session, so no CSRF token either
    assert "SHARE2" not in page and "csrf" not in page.lower()
    assert "<form" not in page and "/rounds" not in page and "/edit" not in page
    assert chart_table(page) == SAMPLES[slug]["running"]
    part = watcher.get(path + "?part=1").get_data(as_text=True)
    assert "<html" not in part and chart_table(part) == SAMPLES[slug]["running"]
    # the watcher's phone did not get the sheet into its own list
    assert "SHARE2" not in watcher.get("/score").get_data(as_text=True)
    assert watcher.get("/score/watch/not-a-code").status_code == 404


@pytest.mark.parametrize("backend", ["sqlite", "postgresql+redis"])
def test_share_events_announce_each_change(make_app, request, backend):
    config = {}
    if backend != "sqlite":  # the scaled set-up: PostgreSQL and the Redis broker
        config = {
            "SQLALCHEMY_DATABASE_URI": request.getfixturevalue("postgres_url"),
            "REDIS_URL": request.getfixturevalue("redis_url"),
        }
    app = make_app(
        TABLES_SSE_MAX_EVENTS=2, TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=5, **config
    )
    slug = "shoot" if "shoot" in GAMES else SLUGS[0]
    sample = SAMPLES[slug]
    make_sheet(app, slug, "EVENTS", rows=sample["rows"][:1])
    client = app.test_client()
    path = "/" + share_link(client.get("/score/EVENTS").get_data(as_text=True)).split("/", 3)[3]
    page = client.get(path).get_data(as_text=True)
    events = re.search(r'data-watch-events="([^"]+)"', page).group(1)
    assert events.startswith(path + "/events?ticket=")
    response = client.get(events, buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = response.response
    seen = ""
    while "data: 1" not in seen:
        seen += next(chunks).decode()
    with app.test_request_context():  # another phone adds a round (the page's use case)
        keeper = GAMES[slug].sheet(sample["names"], sample["options"])
        boxes = form_values(keeper.spec.sheet_fields, keeper.values_of(sample["rows"][1]))
        book.add_round("EVENTS", Shown(1), boxes)
    rest = b"".join(chunks).decode()
    assert "event: rounds\ndata: 2" in rest
    response.close()

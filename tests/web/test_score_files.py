"""A sheet as files (issue 27): the CSV and the printed sheet with every fact in each game's
own words (one column per fact per player), and the JSON copy that imports back as a new
sheet equal to the first; a file that is not a sheet is refused and stores nothing."""

from __future__ import annotations

import csv
import io
import json

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.models import ScoreSheet
from companion.scorekeeper.exports import read_sheet_json

from .pages import stored_sheet, visible_text
from .test_score_show import SAMPLES, SLUGS, make_sheet


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def read_csv(client, code: str) -> list[list[str]]:
    response = client.get(f"/score/{code}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_csv_holds_the_games_fact_table_and_its_totals(app, slug):
    sample = SAMPLES[slug]
    make_sheet(app, slug, "FACTS1")
    keeper = GAMES[slug].sheet(sample["names"], sample["options"])
    rows = keeper.check(sample["rows"])
    summary = keeper.summary(rows)
    table = keeper.fact_table(rows, summary)
    got = read_csv(app.test_client(), "FACTS1")
    assert got[0] == table["columns"]
    assert len(got) == len(rows) + 2
    for line, expected in zip(got[1:-1], table["rows"], strict=True):
        assert line == [str(v) for v in expected]
    assert got[-1][0] == "Total"
    # Every column has one cell in every line, and each side's final total is in the last.
    assert {len(line) for line in got} == {len(table["columns"])}
    totals = {summary["totals"][side[0]] for side in summary["sides"]}
    assert totals <= {int(v) for v in got[-1] if v.lstrip("-").isdigit()}


def test_shoot_csv_has_bids_tricks_points_per_player():
    keeper = GAMES["shoot"].sheet(["Ann", "Bo", "Cy"], {"schedule": [3, 2]})
    rows = [{"bids": [1, 1, 0], "tricks": [1, 2, 0]}]
    table = keeper.fact_table(rows, keeper.summary(rows))
    assert table["columns"][:7] == [
        "Deal",
        "Cards",
        "Dealer",
        "Ann bid",
        "Ann tricks",
        "Ann points",
        "Ann total",
    ]
    assert table["rows"] == [[1, 3, "Ann", 1, 1, 6, 6, 1, 2, -3, -3, 0, 0, 5, 5]]


def test_call_the_shot_says_shots_taken_not_points():
    keeper = GAMES["call_the_shot"].sheet(["Ann", "Bo"], {})
    rows = [{"challenger": 0, "shot": 1}, {"challenger": 1, "shot": None}]
    table = keeper.fact_table(rows, keeper.summary(rows))
    assert table["columns"] == ["Duel", "Challenger", "Shot", "Ann shots taken", "Bo shots taken"]
    assert table["rows"] == [[1, "Ann", "Bo", 0, 1], [2, "Bo", "nobody (a tie)", 0, 1]]
    assert not any("points" in title for title in table["columns"])


def test_pull_csv_names_the_targets_doubles_and_fouls():
    keeper = GAMES["pull"].sheet(["Ann", "Bo"], {})
    rows = [
        {
            "sides": [
                {"rounds": [["trap-T2", "skeet-T2"], ["tower-T4"]]},
                {"rounds": [[], [], ["incomer-T3"]]},
            ]
        }
    ]
    table = keeper.fact_table(rows, keeper.summary(rows))
    line = dict(zip(table["columns"], table["rows"][0], strict=True))
    assert line["Ann targets"] == (
        "round 1: ▲ Trap target 5 + ● Skeet target 5 (double); round 2: ■ Tower target -5"
    )
    assert (line["Ann doubles"], line["Ann fouls"], line["Ann points"]) == (1, 1, 9)
    assert line["Bo targets"] == "round 3: ◆ Incomer target 10"


def test_pirate_csv_has_the_loon_ledger_per_player():
    from ..games.pirate_tricks.test_steps import CARDS, CREW, NAMES, ROWS, TRICKS

    keeper = GAMES["pirate_tricks"].sheet(NAMES, {})
    row = keeper.read({**CARDS, **ROWS, **CREW, **TRICKS})
    rows = keeper.check([row])
    table = keeper.fact_table(rows, keeper.summary(rows))
    line = dict(zip(table["columns"], table["rows"][0], strict=True))
    assert line["Treasure card"] == "Bountiful Booty"
    assert (line["Troy bid"], line["Troy tricks"], line["Troy treasure"]) == (2, 3, 6)
    assert line["Faith row loon"] == 2
    assert line["Troy captured counts"] == "Mustel Bounty 1"
    assert line["Troy loon at the end"] == keeper.summary(rows)["totals"][0]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_printed_sheet_shows_every_fact(app, slug):
    make_sheet(app, slug, "PRINT1")
    sample = SAMPLES[slug]
    keeper = GAMES[slug].sheet(sample["names"], sample["options"])
    rows = keeper.check(sample["rows"])
    table = keeper.fact_table(rows, keeper.summary(rows))
    response = app.test_client().get("/score/PRINT1/print")
    assert response.status_code == 200
    text = visible_text(response.get_data(as_text=True))
    assert " ".join(table["columns"]) in text
    for line in table["rows"]:
        assert " ".join(str(v) for v in line if v != "") in text


@pytest.mark.parametrize("slug", SLUGS)
def test_a_json_copy_imports_as_a_new_equal_sheet(app, slug):
    make_sheet(app, slug, "COPY01")
    client = app.test_client()
    saved = client.get("/score/COPY01/export.json")
    assert saved.status_code == 200 and saved.mimetype == "application/json"
    data = json.loads(saved.get_data(as_text=True))
    assert data["game"] == slug and data["format"] == "table-companion-sheet"
    response = client.post(
        "/score/import",
        data={"file": (io.BytesIO(saved.get_data()), "sheet.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert code != "COPY01"
    names, options, rows = stored_sheet(app, code)
    first = stored_sheet(app, "COPY01")
    assert (names, options) == first[:2]
    keeper = GAMES[slug].sheet(names, options)
    assert rows == keeper.check(first[2])  # the same rounds, as the sheet reads them
    assert keeper.summary(rows) == keeper.summary(first[2])
    assert client.get(f"/score/{code}").status_code == 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not a score sheet"),
        ('{"format": "other"}', "not a score sheet"),
        ('{"format": "table-companion-sheet", "version": 9}', "another version"),
        (
            '{"format": "table-companion-sheet", "version": 1, "game": "chess",'
            ' "players": [], "options": {}, "rounds": []}',
            "does not keep scores",
        ),
    ],
)
def test_a_file_that_is_not_a_sheet_is_refused_and_stores_nothing(app, text, message):
    response = app.test_client().post("/score/import", data={"text": text})
    assert response.status_code == 422
    assert message in visible_text(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0


def test_an_impossible_round_in_a_copy_is_refused():
    slug = "shoot"
    sample = SAMPLES[slug]
    data = {
        "format": "table-companion-sheet",
        "version": 1,
        "game": slug,
        "players": sample["names"],
        "options": sample["options"],
        "rounds": [{"bids": [1] * len(sample["names"]), "tricks": [99] * len(sample["names"])}],
    }
    with pytest.raises(Exception, match="Deal 1"):
        read_sheet_json(json.dumps(data))
    data["rounds"] = []
    data["players"] = ["Ann", "ann"]
    with pytest.raises(Exception, match="different"):
        read_sheet_json(json.dumps(data))

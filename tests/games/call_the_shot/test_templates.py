"""The game's score-sheet templates render from the sheet's summary (Jinja only, no app)."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest
from wtforms import Form, RadioField
from wtforms.fields.choices import SelectChoice

from companion.games.call_the_shot.sheet import CallTheShotSheet
from companion.games.call_the_shot.spec import SPEC

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
NAMES = ["Ada", "Bo"]


class Sheet:
    code = "abc"


@pytest.fixture
def render():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    env.globals["url_for"] = lambda endpoint, **args: f"/{endpoint}/{args.get('number')}"

    def render(name, rows, **extra):
        sheet = CallTheShotSheet(NAMES, {"shots_to_lose": 2})
        summary = sheet.summary(rows)
        context = {
            "sheet": Sheet(),
            "spec": SPEC,
            "names": NAMES,
            "rows": rows,
            "summary": summary,
            "over": summary["over"],
            "number": None,
            **extra,
        }
        return " ".join(env.get_template(f"games/call_the_shot/{name}").render(context).split())

    return render


def test_about_and_status_while_playing(render):
    rows = [{"challenger": 0, "shot": 1}]
    assert "shot 2 times loses" in render("sheet_about.html", rows)
    status = render("sheet_status.html", rows)
    assert "Next: duel 2 · <strong>Bo</strong> challenges." in status
    assert "Shots taken: Ada 0 of 2 · Bo 1 of 2" in status
    assert "toss for who challenges first" in render("sheet_status.html", [])


def test_status_and_table_once_over(render):
    rows = [{"challenger": 0, "shot": 1}, {"challenger": 1, "shot": None}]
    rows.append({"challenger": 0, "shot": 1})
    status = render("sheet_status.html", rows)
    assert "Winner: <strong>Ada</strong> — Bo was shot 2 times." in status
    table = render("sheet_table.html", rows)
    assert '<th scope="col">Duel</th>' in table and "Shots taken" in table
    assert "nobody (tie)" in table and len(re.findall(r'id="round-\d+"', table)) == 3


def test_fields(render):
    class RoundForm(Form):
        challenger = RadioField("Who challenged?", choices=[SelectChoice("0", "Ada")])
        shot = RadioField("Who was shot?", choices=[SelectChoice("none", "Nobody (a tie)")])

    html = render("sheet_fields.html", [], form=RoundForm())
    assert "Who challenged?" in html and "Who was shot?" in html and 'value="none"' in html

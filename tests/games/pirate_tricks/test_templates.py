"""The game's score-sheet templates render from the sheet's summary and a round form built
from the spec's boxes as the generic layer builds it (Jinja and WTForms only, no app)."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Form, SelectField, StringField
from wtforms.fields import FieldList
from wtforms.fields.choices import SelectChoice

from companion.games.pirate_tricks.sheet import PirateTricksSheet
from companion.games.pirate_tricks.spec import SPEC
from companion.games.spec import form_values

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
NAMES = ["Ann", "Bo", "Cy"]


class Sheet:
    code = "abc"


def round_form(sheet, values):
    """A round form with one box per spec box (FieldLists per ``repeat``), filled."""
    attrs = {}
    for f in SPEC.sheet_fields:
        if f.kind == "bool":
            box = BooleanField(f.label)
        elif f.kind == "choice":
            choices = [SelectChoice(v, t) for v, t in [("", "—"), *sheet.choices(f)]]
            box = SelectField(f.label, choices=choices, validate_choice=False)
        else:
            box = StringField(f.label)
        for size in reversed(f.shape(sheet.players, sheet.players)):
            box = FieldList(box, min_entries=size, max_entries=size)
        attrs[f.name] = box
    cls = type("RoundForm", (Form,), attrs)
    return cls(formdata=MultiDict(form_values(SPEC.sheet_fields, values)))


def facts(treasure, capture, counts):
    return {
        "cards": {
            "recruitment": ["gang_of_three", "partners_in_crime"],
            "treasure": treasure,
            "capture": capture,
        },
        "players": [
            {"bid": 3, "tricks": 4, "recruitment": 2, "counts": counts[0]},
            {"bid": 0, "row_loon": 2, "tricks": 3, "recruitment": 0, "counts": counts[1]},
            {"bid": 1, "tricks": 3, "recruitment": 5, "counts": counts[2]},
        ],
    }


ROUND = facts("rich_rewards", "mustel_bounty", [{"mustel_bounty": n} for n in (2, 0, 1)])


@pytest.fixture
def render():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    env.globals["url_for"] = lambda endpoint, **args: f"/{endpoint}/{args.get('number')}"

    def render(name, rows, options=None, **extra):
        sheet = PirateTricksSheet(NAMES, options)
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
        html = env.get_template(f"games/pirate_tricks/{name}").render(context)
        return " ".join(html.split())

    return render


def test_about_status_and_table(render):
    assert "3 rounds · everyone starts with 12 loon" in render("sheet_about.html", [])
    status = render("sheet_status.html", [ROUND])
    assert "Next: round 2 of 3." in status and "Ann 21" in status
    table = render("sheet_table.html", [ROUND])
    assert "Gang of Three, Partners in Crime · Rich Rewards · Mustel Bounty" in table
    assert '<span class="total">21</span>' in table


def test_status_once_over(render):
    rounds = [
        ROUND,
        facts("lions_share", "crimson_haul", [{"crimson_haul": 0}] * 3),
        facts("fair_wages", "emerald_haul", [{"emerald_haul": 0}] * 3),
    ]
    rounds[1]["cards"]["recruitment"] = ["gang_of_two", "beringa_backing"]
    rounds[2]["cards"]["recruitment"] = ["old_salts", "deck_hands"]
    status = render("sheet_status.html", rounds)
    assert "Shared win: <strong>Ann, Cy</strong> with 34 loon." in status


def test_choose_step_lists_the_cards_already_drawn(render):
    sheet = PirateTricksSheet(NAMES)
    form = round_form(sheet, {})
    html = render("sheet_choose.html", [ROUND], form=form)
    assert "Already drawn in other rounds: Gang of Three, Mustel Bounty" in html
    assert "Recruitment card 2" in html and 'name="recruitment-1"' in html
    assert 'name="treasure"' in html and 'value="tempt_fortune"' in html


def test_fields_show_only_the_boxes_the_cards_need(render):
    sheet = PirateTricksSheet(NAMES)
    plain = render("sheet_fields.html", [], form=round_form(sheet, sheet.values_of(ROUND)))
    assert 'name="bid-0"' in plain and 'name="crew-2"' in plain and 'name="row_loon-1"' in plain
    assert 'name="prediction-0"' not in plain
    assert "Blue cards taken" in plain and 'name="count-0-2"' in plain
    assert 'name="count-1-0"' not in plain
    assert "Rich Rewards:" in plain
    both = facts("tempt_fortune", "green_gold", [{"green_gold": [0, 0]}] * 3)
    for p, entry in enumerate(both["players"]):
        entry["prediction"] = p
    html = render("sheet_fields.html", [], form=round_form(sheet, sheet.values_of(both)))
    assert 'name="prediction-2"' in html
    assert "Green cards numbered 18 or more taken" in html and 'name="count-1-2"' in html
    assert 'name="count-2-0"' not in html

"""PULL!'s own page parts render from the sheet's summary, the spec's boxes and the game."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup
from wtforms import Form, IntegerField, SelectChoice, SelectField
from wtforms.fields import FieldList

from companion.games.pull import rules
from companion.games.pull.engine import GAME
from companion.games.pull.sheet import PullSheet

ROOT = Path(__file__).resolve().parents[3]
NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def env():
    env = Environment(loader=FileSystemLoader(str(ROOT / "templates")), autoescape=True)
    env.globals["url_for"] = lambda endpoint, **kw: f"/{endpoint}/{kw.get('number', '')}"
    return env


def context(options, rows):
    sheet = PullSheet(NAMES, options)
    summary = sheet.summary(sheet.check(rows))
    model = SimpleNamespace(code="abc", options=sheet.options, players=NAMES)
    return {
        "sheet": model,
        "names": NAMES,
        "rows": rows,
        "summary": summary,
        "over": summary["over"],
        "number": None,
    }


ROWS = [
    {"sides": [{"points": 50, "fouls": 4}, {"points": 20, "fouls": 0}]},
    {"sides": [{"rounds": [["trap-T3", "skeet-T2"]]}, {"rounds": [[], ["tower-T4"]]}]},
]


def test_sheet_parts_show_sides_totals_and_the_group_values(env):
    ctx = context({"targets": {"trap-T2": {"double": 9}}, "goal": 150}, ROWS)
    about = env.get_template("games/pull/sheet_about.html").render(**ctx)
    assert "Two teams: Ann &amp; Cy against Bo &amp; Di" in about
    assert "first to 150 points" in about and "▲ Trap target 5 double 9" in about
    table = env.get_template("games/pull/sheet_table.html").render(**ctx)
    side_totals = ctx["summary"]["side_totals"]
    assert f'<span class="total">{side_totals[0]}</span>' in table
    assert "Ann dealt" in table and "Bo dealt" in table
    status = env.get_template("games/pull/sheet_status.html").render(**ctx)
    if ctx["over"]:
        assert "Winner: <strong>Ann &amp; Cy</strong>" in status
    else:
        assert "Next: hand 3" in status and "<strong>Cy</strong> deals" in status


def test_status_names_the_winning_side(env):
    ctx = context({"hands": 1}, ROWS[:1])
    status = env.get_template("games/pull/sheet_status.html").render(**ctx)
    assert "Winner: <strong>Ann &amp; Cy</strong> with 50 points." in status


def round_form(sheet, data=None):
    sides = len(sheet.sides())
    targets = [("", "—"), *sheet.choices(sheet.spec.sheet_fields[2])]
    takers = [("", "—"), *((str(s), n) for s, n in enumerate(sheet.side_names()))]
    targets = [SelectChoice(value, label) for value, label in targets]
    takers = [SelectChoice(value, label) for value, label in takers]

    class RoundForm(Form):
        points = FieldList(IntegerField(), min_entries=sides)
        fouls = FieldList(IntegerField(), min_entries=sides)
        target = FieldList(FieldList(SelectField(choices=targets), min_entries=2), min_entries=5)
        taker = FieldList(FieldList(SelectField(choices=takers), min_entries=2), min_entries=5)

    return RoundForm(data=data)


def test_the_round_form_draws_every_box_by_its_key(env):
    ctx = context({}, ROWS)
    sheet = PullSheet(NAMES)
    values = sheet.values_of(ROWS[1])
    form = round_form(sheet, data=values)
    html = env.get_template("games/pull/sheet_fields.html").render(form=form, **ctx)
    for side in (0, 1):
        assert f'name="points-{side}"' in html and f'name="fouls-{side}"' in html
    for r in range(rules.ROUNDS_PER_HAND):
        for slot in (0, 1):
            assert f'name="target-{r}-{slot}"' in html and f'name="taker-{r}-{slot}"' in html
    assert '<details class="targets-taken" open>' in html  # a hand of targets: shown
    assert '<option selected value="trap-T3">' in html


def test_the_targets_option_draws_the_values_in_force(env):
    html = env.get_template("games/pull/option_targets.html").render(
        game=GAME, spec=GAME.spec, form=None, mode="score"
    )
    rows = rules.target_rows()
    assert html.count('name="double_') == 24 and html.count('name="animal_') == 24
    for row in rows:
        assert f'name="double_{row["card"]}" value="{row["double"]}"' in html
    animals = [row for row in rows if row["animal"]]
    assert html.count(" checked") == len(animals)
    assert str(Markup.escape(rows[0]["label"])) in html
    # What the browser sends back is read as no change.
    form = {f"double_{row['card']}": str(row["double"]) for row in rows}
    form.update({f"animal_{row['card']}": "y" for row in animals})
    assert GAME.option_from_form("targets", form) is None

"""Score mode pages: sheets for Shoot!, Call the Shot and PULL! kept from the facts entered.

Every figure a page shows is cross-checked against the game's pure sheet module; refused
input must show a message next to the form and store nothing.
"""

from __future__ import annotations

import re
from html import unescape

from companion.extensions import db
from companion.models import ScoreSheet

# What a browser sends for the options left as they are on the new-sheet form.
FORM_DEFAULTS = {
    "shoot": {"schedule": "down", "dealer": "0"},
    "call_the_shot": {"shots_to_lose": "3"},
    "pirate_tricks": {"rounds": "3"},
}


def new_sheet(client, game: str, names: list[str], **fields) -> str:
    """Start a sheet through the form; return its code."""
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update(FORM_DEFAULTS[game])
    data.update({key: str(value) for key, value in fields.items()})
    response = client.post(f"/score/new/{game}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/score/")
    return location.rsplit("/", 1)[1]


def stored(app, code: str) -> tuple[list[str], dict, list[dict]]:
    """(players, options, facts of each round) as stored in the database."""
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return list(sheet.players), dict(sheet.options), [e.facts for e in sheet.entries]


def versions(html: str) -> list[str]:
    """The hidden version fields of a page, in order."""
    return re.findall(r'name="version"[^>]*value="([^"]*)"', html) or re.findall(
        r'value="([^"]*)"[^>]*name="version"', html
    )


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, name
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else ""


def errors(html: str) -> list[str]:
    """Every message shown next to a field or at the top of a form."""
    found = re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)
    block = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', html, re.S)
    if block:
        found += re.findall(r"<p>(.*?)</p>", block.group(1), re.S)
    return [unescape(" ".join(message.split())) for message in found]


def field_error(html: str, field_id: str) -> str | None:
    match = re.search(rf'<p class="field-error" id="{re.escape(field_id)}-error">(.*?)</p>', html)
    return unescape(match.group(1)) if match else None


def text(html: str) -> str:
    """Visible text of a page, whitespace collapsed (tags dropped, entities decoded)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


# -- Pirate Tricks --------------------------------------------------------------------------

PIRATE_NAMES = ["Ann", "Bo", "Cy"]
PIRATE_CARDS = {
    "recruitment_1": "gang_of_three",
    "recruitment_2": "partners_in_crime",
    "treasure": "rich_rewards",
    "capture": "mustel_bounty",
}


FIRST_ROUND = [
    {"bid": 3, "recruitment": 2, "tricks": 4, "counts": [2]},
    {"bid": 0, "row": True, "tricks": 3, "counts": [0]},  # took the row with 2 loon on it
    {"bid": 1, "recruitment": 5, "tricks": 3, "counts": [1]},
]

"""The rules pages say what the rulebooks say (issue 30's audit), and mark the app's readings.

Each test holds one finding of the audit: it fails if the wrong or loose line comes back.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.rules import search as rules_search

ROOT = Path(__file__).resolve().parents[2]


def page_html(client, slug: str) -> str:
    return client.get(f"/rules/{slug}").get_data(as_text=True)


def section_text(client, slug: str, anchor: str, nested: bool = False) -> str:
    """The folded words of one section (with its nested sections when ``nested``)."""
    found = rules_search.sections_of(page_html(client, slug))
    keep = {anchor}
    if nested:
        for s in found:
            if s["parent"] in keep:
                keep.add(s["anchor"])
    text = " ".join(f"{s['title']} {s['text']}" for s in found if s["anchor"] in keep)
    assert text, f"{slug}: no section {anchor!r}"
    return " ".join(rules_search.fold(text).split())


def glance_line(client, slug: str, term: str) -> str:
    """The at-a-glance card's line (``<dd>``) after the term ``term``."""
    html = page_html(client, slug)
    card = re.search(r'<section id="at-a-glance".*?</section>', html, re.S).group(0)
    match = re.search(rf"<dt>{re.escape(term)}</dt>\s*<dd>(.*?)</dd>", card, re.S)
    assert match, f"{slug}: no glance line {term!r}"
    text = re.sub(r"<[^>]+>", " ", match.group(1)).replace("&ndash;", "-")
    return " ".join(rules_search.fold(text.replace("&minus;", "-")).split())


class Marks(HTMLParser):
    """Every reading mark (``a.reading-mark``) and the ids inside "Our reading"."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.marks: list[str] = []
        self.reading_ids: set[str] = set()
        self._depth = 0  # <section> nesting inside #our-reading (0: outside)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._depth and attrs.get("id"):
            self.reading_ids.add(attrs["id"])
        if tag == "section" and (self._depth or attrs.get("id") == "our-reading"):
            self._depth += 1
        if tag == "a" and "reading-mark" in (attrs.get("class") or "").split():
            self.marks.append(attrs.get("href") or "")

    def handle_endtag(self, tag):
        if tag == "section" and self._depth:
            self._depth -= 1


# -- Call the Shot --------------------------------------------------------------------------


def test_call_the_shot_glance_states_the_duel_with_its_exceptions(client):
    line = glance_line(client, "call_the_shot", "Points")
    # The wrong line: "the lower takes a shot card" with no exception would shoot a Man
    # of Honour (0) against a Headshot (9).
    assert "higher value wins" in line
    assert re.search(r"man of honour beats a headshot or shoot to kill", line)
    assert re.search(r"deadly aim counts double", line)
    assert "loser takes a shot card" in line
    # The page's one-paragraph summary said the same wrong thing ("the lower takes").
    source = (ROOT / "templates/games/call_the_shot/rules.html").read_text()
    summary = source[: source.index("{% endset %}")]
    assert "lower" not in summary and "loser takes a shot card" in summary


@pytest.mark.parametrize(
    "where",
    [("at-a-glance", False), ("coward", False), ("components", False)],
    ids=["glance", "section", "card table"],
)
def test_the_coward_only_springs_on_the_opponents_call(client, where):
    anchor, nested = where
    text = section_text(client, "call_the_shot", anchor, nested)
    around = text[text.index("coward") :][:120] if anchor != "components" else text
    assert "opponent" in around, around


def test_who_challenged_opens_a_section_about_the_challenger(app):
    field = next(f for f in GAMES["call_the_shot"].spec.sheet_fields if f.name == "challenger")
    text = section_text(app.test_client(), "call_the_shot", field.anchor, nested=True)
    assert "challenger plays first" in text and "other player challenges" in text


def test_nobody_shot_on_equal_values_is_marked_as_a_reading(client):
    field = next(f for f in GAMES["call_the_shot"].spec.sheet_fields if f.name == "shot")
    assert "equal values" in field.help and "reading" in field.help
    assert "reading" in section_text(client, "call_the_shot", "equal-values")


# -- Pirate Tricks --------------------------------------------------------------------------


def test_second_bidding_pass_states_the_rulebooks_condition_and_marks_the_reading(client):
    html = page_html(client, "pirate_tricks")
    ties = re.search(r'<section id="ties".*?</section>', html, re.S).group(0)
    text = " ".join(rules_search.fold(re.sub(r"<[^>]+>", " ", ties)).split())
    assert "more than two" in text and "2 loon" in text
    assert 'class="reading-mark" href="#pt-second-pass"' in ties


def test_the_gang_cards_and_partners_in_crime_are_readings(client):
    catalog = json.loads((ROOT / "companion/games/pirate_tricks/cards.json").read_text())
    inferred = {"Gang of Three", "Gang of Two", "Partners in Crime"}
    cards = [c for c in catalog["recruitment"] if c["name"] in inferred]
    assert {c["name"] for c in cards} == inferred
    # The rulebook names them, but prints no text: their values are ours ("house").
    assert {e["tag"] for c in cards for e in c["effects"]} == {"house"}
    html = page_html(client, "pirate_tricks")
    reading = re.search(r'<li id="pt-gang-cards">(.*?)</li>', html, re.S).group(1)
    assert all(name in reading for name in inferred) and "reading" in reading
    # In the card table, their text is marked ours and leads to that reading.
    for name in inferred:
        row = re.search(rf"<tr>\s*<td>{name}</td>.*?</tr>", html, re.S).group(0)
        assert re.search(
            r'text:</small>\s*<a class="reading-mark" href="#pirate-tricks-readings">'
            r'<small class="tag tag-house">house</small>',
            row,
        ), row


def test_took_a_row_with_2_loon_opens_the_rule_about_it(client):
    field = next(f for f in GAMES["pirate_tricks"].spec.sheet_fields if f.name == "row_loon")
    assert "2 loon" in section_text(client, "pirate_tricks", field.anchor, nested=True)


def test_the_bid_hint_counts_rows_handed_over_after_a_zero_tie():
    bid = next(f for f in GAMES["pirate_tricks"].spec.sheet_fields if f.name == "bid")
    hints = [bid.help] + [
        (ROOT / "templates/games/pirate_tricks" / name).read_text()
        for name in ("sheet_step.html", "sheet_fields.html")
    ]
    for hint in hints:
        assert "the free row" not in hint
        assert "zero tie" in hint and "last row" in hint


def test_pirate_tricks_glance_says_who_is_paid_and_that_cards_can_cost(client):
    assert "paid to the bank" in glance_line(client, "pirate_tricks", "A round")
    assert "or cost some" in glance_line(client, "pirate_tricks", "Points")


def test_pirate_tricks_glance_plays_the_auction_and_scores_ties(client):
    """What a table needs for a turn of the auction and a tie on a score card."""
    line = glance_line(client, "pirate_tricks", "A round")
    assert "tied above 0, shown hand cards decide" in line
    assert "at 0 the bank puts 2 loon on the row" in line
    assert "; the last row goes free" in line
    assert "go first (the top row's winner) leads ten tricks" in line
    assert "ties get it in full" in glance_line(client, "pirate_tricks", "Points")


# -- PULL! ----------------------------------------------------------------------------------


def test_pull_glance_has_the_tie_nobody_wins_who_shoots_first_and_two_players(client):
    points = glance_line(client, "pull", "Points")
    assert "nobody scores it" in points
    first = glance_line(client, "pull", "Set-up") + " " + glance_line(client, "pull", "A round")
    assert "left of the dealer takes the target deck" in first and "from the deck holder" in first
    assert "first shot face up" in first
    assert "two players: in turn" in glance_line(client, "pull", "A round")


def test_pull_second_shot_section_keeps_the_two_player_exception(client):
    text = section_text(client, "pull", "second-shot")
    assert "together" in text and "two players" in text and "turns" in text


# -- Shoot! ---------------------------------------------------------------------------------


def test_shoot_next_dealer_is_marked_as_a_reading(client):
    html = page_html(client, "shoot")
    card = re.search(r'<section id="at-a-glance".*?</section>', html, re.S).group(0)
    assert "deal passes left" in card
    assert 'class="reading-mark" href="#shoot-next-dealer"' in card


def test_shoot_glance_says_who_leads_after_the_first_trick_as_a_reading(client):
    line = glance_line(client, "shoot", "A deal")
    assert "left of the dealer leads, then each trick's winner our reading" in line


def test_shoot_chips_stake_is_a_suggestion(client):
    text = section_text(client, "shoot", "chips")
    assert "suggest" in text
    assert "everyone pays 50" not in text


# -- every page -------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_reading_mark_opens_a_reading(client, slug):
    parsed = Marks(page_html(client, slug))
    for href in parsed.marks:
        assert href.startswith("#") and href[1:] in parsed.reading_ids, (slug, href)


def test_the_readings_the_audit_asked_for_are_marked(client):
    marks = {slug: Marks(page_html(client, slug)).marks for slug in GAMES}
    assert "#pt-second-pass" in marks["pirate_tricks"]
    assert "#shoot-next-dealer" in marks["shoot"]
    assert "#cts-ties" in marks["call_the_shot"]
    assert "#shoot-play" in marks["shoot"]  # who leads after the first trick

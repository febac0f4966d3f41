"""Pirate Tricks on a sheet the players joined (joined.py), through the core's pure entry
path (scorekeeper/boxes.py): the steps the auction asks row by row, who owns which box,
the bank's part done by the sheet, the round equal to one keeper's, the loon behind each
screen, and refusals that name no hidden number."""

from __future__ import annotations

import csv
import io
import random

import pytest
from werkzeug.datastructures import MultiDict

from companion.games import GAMES
from companion.scorekeeper import boxes
from companion.scorekeeper.exports import facts_csv

NAMES = ["Troy", "Luke", "Faith", "Drake"]
CARDS = {
    "recruitment-0": "gang_of_three",
    "recruitment-1": "partners_in_crime",
    "treasure": "bountiful_booty",
    "capture": "mustel_bounty",
}
# The round one keeper would enter: Faith took row 1 on the second pass after a zero tie
# (2 loon on it) and a card show; Troy won row 2 clearly; Luke row 3 after a card show at
# 2 loon; Drake took the last row, row 4, free, with its 2 loon.
KEEPER_ROWS = {
    "bid-0": 3,
    "bid-1": 2,
    "bid-2": 1,
    "bid-3": 0,
    "row_loon-2": "y",
    "row_loon-3": "y",
}
# Recruitment as the phones enter it: the crew cards each player lays down (Troy a run of
# three for Gang of Three, 3 loon; Faith a pair for Partners in Crime, 2 loon; Luke and
# Drake none): the sheet works the loon out from the cards.
SHOWN = {"shown-0": "R13 R14 R15", "shown-1": "", "shown-2": "G7 B7", "shown-3": ""}
# The same recruitment on the keeper's round form: the cards ticked, 0 typed for the others.
KEEPER_SHOWN = [
    *(("shown-0", card) for card in ("R13", "R14", "R15")),
    *(("shown-2", card) for card in ("G7", "B7")),
    ("crew-1", "0"),
    ("crew-3", "0"),
]


def keeper_form(*parts) -> MultiDict:
    """One keeper's round form: ``parts`` (mappings of boxes) and the cards ticked."""
    items = [(k, str(v)) for part in parts for k, v in part.items()]
    return MultiDict([*items, *KEEPER_SHOWN])


TRICKS = {
    **{f"tricks-{p}": t for p, t in enumerate([3, 3, 2, 2])},
    **{f"count-0-{p}": c for p, c in enumerate([1, 0, 2, 0])},
}
# The auction as the phones enter it: a list is a row's sealed bids (by seat; None: has a
# row already), a name the card show's winner.
AUCTION = [
    [0, 0, 0, 0],  # Row 1: a zero tie, 2 loon from the bank on it
    [3, 1, 0, 2],  # Row 2: Troy pays 3
    [None, 2, 2, 1],  # Row 3: Luke and Faith tie at 2 ...
    "Luke",  # ... Luke's card is higher: he pays 2
    [None, None, 0, 0],  # Row 4: a zero tie, 2 loon on it
    [None, None, 1, 1],  # Row 1 again (second pass): a tie at 1 ...
    "Faith",  # ... Faith's card is higher: she pays 1 and finds 2; Drake takes row 4 free
]


def sheet():
    return GAMES["pirate_tricks"].sheet(NAMES)


def fresh(rows=()):
    return {"position": len(rows), "done": [], "boxes": {}}


class Table:
    """A joined sheet's round driven through the core's pure entry path."""

    def __init__(self, rows=()):
        self.keeper = sheet()
        self.rows = list(rows)
        self.pending = fresh(self.rows)
        self.record = boxes.opened(None, self.pending, self.step)
        self.revealed = []

    @property
    def step(self):
        return boxes.the_step(self.keeper, self.pending)

    def enter(self, key, text, who):
        step = self.step
        box = self.record["boxes"].get(key)
        out = boxes.enter(
            self.keeper,
            self.rows,
            self.pending,
            self.record,
            step,
            key,
            str(text),
            who,
            box["rev"] if box else 0,
        )
        self.record = out.record
        if out.merged is not None:
            if out.record.get("revealed"):
                self.revealed.append(out.record["revealed"])
            self.pending = {**self.pending, "done": out.done, "boxes": out.merged}
            if self.step is None:
                self.rows = self.keeper.add(self.rows, self.keeper.read(out.merged))
                self.pending = fresh(self.rows)
            self.record = boxes.opened(self.record, self.pending, self.step)
        return out

    def enter_all(self, values, by_owner=True):
        """Each box of the open step, by its owner's phone (or the keeper)."""
        step = self.step
        for key in self.keeper.step_keys(step):
            owners = self.keeper.box_owner(step, key)
            who = owners[0] if by_owner and owners else boxes.KEEPER
            self.enter(key, values(key), who)

    def auction(self, entries=AUCTION):
        for entry in entries:
            step = self.step
            if isinstance(entry, list):
                assert step.sealed and step.name.startswith("row-bids-")
                assert list(step.seats) == [s for s, b in enumerate(entry) if b is not None]
                self.enter_all(lambda key, e=entry: e[int(key.rsplit("-", 1)[1])])
            else:
                assert not step.sealed and step.name.startswith("row-winner-")
                key = self.keeper.step_keys(step)[0]
                self.enter(key, NAMES.index(entry), step.seats[0])

    def play_round(self):
        self.enter_all(lambda key: CARDS[key], by_owner=False)
        self.auction()
        assert self.step.name == "recruitment"
        self.enter_all(lambda key: SHOWN[key])
        assert self.step.name == "tricks"
        self.enter_all(lambda key: TRICKS.get(key, ""))


def test_a_round_on_the_phones_is_the_round_one_keeper_enters():
    table = Table()
    table.play_round()
    keeper = sheet()
    whole = keeper.read(keeper_form(CARDS, KEEPER_ROWS, TRICKS))
    assert table.rows == keeper.check([whole])
    ledger = keeper.summary(table.rows)["rows"][0]["players"]
    assert [line["bid"] for line in ledger] == [3, 2, 1, 0]
    assert [line["row_loon"] for line in ledger] == [0, 0, 2, 2]


def test_the_steps_follow_the_auction_row_by_row():
    table = Table()
    table.enter_all(lambda key: CARDS[key], by_owner=False)
    labels = []
    for entry in AUCTION:
        labels.append((table.step.label, table.step.seats))
        table.auction([entry])
    assert labels == [
        ("Row 1 bids", (0, 1, 2, 3)),
        ("Row 2 bids", (0, 1, 2, 3)),  # nobody took row 1: everybody bids again
        ("Row 3 bids", (1, 2, 3)),  # Troy has a row: the remaining players only
        ("Row 3 card show", (1, 2)),  # the tied players
        ("Row 4 bids", (2, 3)),
        ("Row 1 bids (second pass)", (2, 3)),
        ("Row 1 card show", (2, 3)),
    ]
    assert table.step.name == "recruitment"  # Drake's free row needs no entry


def test_each_bid_box_is_its_players_and_the_card_show_the_tied_players():
    table = Table()
    table.enter_all(lambda key: CARDS[key], by_owner=False)
    table.auction(AUCTION[:3])
    step = table.step
    key = table.keeper.step_keys(step)[0]
    assert table.keeper.box_owner(step, key) == (1, 2)
    with pytest.raises(boxes.BoxRefused) as refused:
        table.enter(key, 1, 0)  # Troy did not tie
    assert refused.value.status == 403
    with pytest.raises(boxes.BoxRefused):
        table.enter(key, 0, 1)  # Troy cannot take the row: he did not tie
    table.enter(key, 1, boxes.KEEPER)  # the keeper may enter it
    assert table.step.label == "Row 4 bids"


def test_a_predictions_step_only_under_a_prediction_card():
    table = Table()
    table.enter_all(lambda key: {**CARDS, "treasure": "tempt_fortune"}[key], by_owner=False)
    table.auction()
    assert table.step.name == "predictions" and not table.step.sealed
    assert table.keeper.step_keys(table.step) == [f"prediction-{p}" for p in range(4)]


def test_the_keepers_rows_step_skips_the_auction():
    keeper = sheet()
    step = keeper.open_step(["cards", "rows"], {**CARDS})
    assert step.name == "recruitment"


def test_a_bid_above_the_loon_held_is_refused_at_its_box_without_the_number():
    table = Table()
    table.enter_all(lambda key: CARDS[key], by_owner=False)
    with pytest.raises(boxes.BoxRefused) as refused:
        table.enter("row_bid-0-1", 13, 1)
    assert refused.value.field == "row_bid-0-1"
    assert "13" not in refused.value.message and "12" not in refused.value.message
    assert "more loon than Luke holds" in refused.value.message
    table.enter("row_bid-0-1", 12, 1)  # all one holds is a bid


def test_a_sealed_bid_is_seen_by_its_owner_only_until_the_reveal():
    table = Table()
    table.enter_all(lambda key: CARDS[key], by_owner=False)
    table.enter("row_bid-0-0", 7, 0)
    step = table.step
    for viewer in [1, 2, 3, boxes.KEEPING, boxes.PUBLIC]:
        seen = boxes.view(table.keeper, table.pending, table.record, step, viewer, set())
        assert "7" not in repr(seen)
    own = boxes.view(table.keeper, table.pending, table.record, step, 0, {0})
    assert [b["text"] for b in own["step"]["boxes"] if b["in"]] == ["7"]
    for seat, bid in ((1, 1), (2, 0), (3, 2)):
        table.enter(f"row_bid-0-{seat}", bid, seat)
    assert list(table.revealed[-1]["boxes"].values()) == ["7", "1", "0", "2"]


def test_loon_stays_behind_each_screen_until_the_game_is_over():
    table = Table()
    table.play_round()
    keeper = table.keeper
    summary = keeper.summary(table.rows)
    for seat in range(4):
        seen = keeper.seen_by(summary, seat)
        assert seen["totals"][seat] == summary["totals"][seat]
        assert [t for s, t in enumerate(seen["totals"]) if s != seat] == [None] * 3
        assert seen["next"]["start"][seat] == summary["next"]["start"][seat]
        for s, line in enumerate(seen["rows"][0]["players"]):
            hidden = [line[k] for k in ("start", "before_settling", "end")]
            assert (None in hidden) == (s != seat)
            assert line["treasure"] == summary["rows"][0]["players"][s]["treasure"]  # open
    table_view = keeper.seen_by(summary, None)
    assert table_view["totals"] == [None] * 4 and table_view["running"] == [[None] * 4]
    assert summary["totals"][0] is not None  # the summary itself is untouched
    # once the game is over, everybody's loon is shown
    rows = table.rows
    later = [
        ("even_keel", "gang_of_two", "rich_rewards", "crimson_haul"),
        ("beringa_backing", "old_salts", "fair_wages", "emerald_haul"),
    ]
    for cards in later:
        more = Table(rows)
        named = dict(zip(CARDS, cards, strict=True))
        more.enter_all(named.__getitem__, by_owner=False)
        more.auction([[1, 0, 0, 0], [None, 1, 0, 0], [None, None, 1, 0]])
        more.enter_all(lambda key: "")  # nobody lays down a crew card
        more.enter_all(lambda key: TRICKS[key] if key.startswith("tricks") else 0)
        rows = more.rows
    over = keeper.summary(rows)
    assert over["over"] and keeper.seen_by(over, 1)["totals"] == over["totals"]


def test_the_csv_seen_by_the_table_holds_no_loon_before_the_end():
    table = Table()
    table.play_round()
    keeper = table.keeper
    summary = keeper.summary(table.rows)
    lines = list(
        csv.reader(io.StringIO(facts_csv(keeper, table.rows, keeper.seen_by(summary, None))))
    )
    columns, first, totals = lines
    for name in NAMES:
        for label in ("loon at the start", "loon at the end"):
            assert first[columns.index(f"{name} {label}")] == ""
        assert first[columns.index(f"{name} bid")] != ""  # paid in the open
    assert set(totals[4:]) == {""}
    assert "None" not in repr(lines)
    # the keeper's own CSV of a sheet nobody joined is today's
    full = list(csv.reader(io.StringIO(facts_csv(keeper, table.rows, summary))))
    assert full[1][full[0].index("Troy loon at the end")] == str(summary["totals"][0])


def test_the_auction_view_shows_each_phone_its_own_loon_and_the_bank_its_part():
    table = Table()
    before = table.keeper.auction_view(table.keeper.summary([]), {}, 0)
    assert before["ask"] is None and before["loon"] == [12, None, None, None]  # cards first
    table.enter_all(lambda key: CARDS[key], by_owner=False)
    table.auction(AUCTION[:4])  # row 1 zero-tied, Troy paid 3, Luke paid 2 after a show
    keeper = table.keeper
    summary = keeper.summary(table.rows)
    mine = keeper.auction_view(summary, table.pending["boxes"], 0)
    assert mine["loon"] == [9, None, None, None]
    assert keeper.auction_view(summary, table.pending["boxes"], 1)["loon"] == [None, 10, None, None]
    public = keeper.auction_view(summary, table.pending["boxes"], None)
    assert public["loon"] == [None] * 4
    assert [row["owner"] for row in public["rows"]] == [None, 0, 1, None]
    assert public["rows"][0]["loon"] == 2  # the bank's 2 loon on row 1
    assert public["ask"]["players"] == [2, 3] and public["ask"]["row_name"] == "Row 4"
    assert [e["result"] for e in public["events"]] == ["zero", "won", "tie"]


def _views(table, step, viewers):
    summary = table.keeper.summary(table.rows)
    out = {}
    for viewer in viewers:
        seat = viewer if isinstance(viewer, int) else None
        seen = boxes.view(table.keeper, table.pending, table.record, step, viewer, set())
        if seen["revealed"]:
            seen["revealed"]["id"] = "random"  # a fresh id each reveal
        out[viewer] = (
            seen,
            table.keeper.auction_view(summary, table.pending["boxes"], seat),
            table.keeper.seen_by(summary, seat),
        )
    return out


@pytest.mark.parametrize("seed", range(40))
def test_leak_harness_no_viewer_tells_two_sealed_bids_apart(seed):
    # Two tables share every revealed step; in the open sealed step the players who have
    # entered differ only in their bids. Everyone else sees exactly the same.
    chooser = random.Random(seed)
    worlds = [Table(), Table()]
    for world in worlds:
        world.enter_all(lambda key: CARDS[key], by_owner=False)
    while worlds[0].step.name.startswith("row-"):
        step = worlds[0].step
        if not step.sealed:  # a card show: the same winner on both tables
            winner = chooser.choice(step.seats)
            for world in worlds:
                world.enter(world.keeper.step_keys(step)[0], winner, step.seats[0])
            continue
        keys = worlds[0].keeper.step_keys(step)
        some = chooser.sample(keys, chooser.randint(1, len(keys) - 1))
        entered = set()
        for key in some:
            seat = int(key.rsplit("-", 1)[1])
            for world in worlds:
                world.enter(key, chooser.randint(0, 12), seat)
            entered.add(seat)
        blind = [s for s in range(4) if s not in entered] + [boxes.KEEPING, boxes.PUBLIC]
        first, second = (_views(world, step, blind) for world in worlds)
        assert first == second, step.label
        # then the same bids on both tables: the entered boxes changed first, so the step
        # is revealed by the last missing one
        bids = {key: chooser.choice([0, 1, 2]) for key in keys}
        order = [*some, *(key for key in keys if key not in some)]
        for world in worlds:
            for key in order:
                world.enter(key, bids[key], int(key.rsplit("-", 1)[1]))
    assert worlds[0].step.name == "recruitment"

"""Pirate Tricks with four phones at the table (issue 28), over HTTP: the row auction
entered by the phones (sealed bids row by row, a zero tie, card shows), the bank's part
and every settlement done by the sheet, the round equal to one keeper's; no sealed bid
and no other player's loon reaches a phone, the keeper, the shared screen, the watch
page, the CSV or the printed sheet before its reveal or the game's end."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from companion.games import GAMES
from tests.web.pages import new_sheet, stored_sheet
from tests.web.phones import Phones
from tests.web.phones import normal as _normal
from tests.web.steps import enter_step

from .test_joined import AUCTION, CARDS, KEEPER_ROWS, NAMES, SHOWN, TRICKS, keeper_form

OPTIONS = {"opt_rounds": "0"}  # 3 rounds


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def pirates(app) -> Phones:
    return Phones.start(app, "pirate_tricks", NAMES, OPTIONS, join=range(4))


def ok(answer):
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def enter_cards(phones: Phones) -> None:
    for key, card in CARDS.items():
        ok(phones.enter(0, key, card))  # the score cards: any phone


def bid_row(phones: Phones, bids) -> dict:
    step = phones.view(0)["step"]
    k = step["name"].rsplit("-", 1)[1]
    answer = None
    for seat, bid in enumerate(bids):
        if bid is not None:
            answer = ok(phones.enter(seat, f"row_bid-{k}-{seat}", bid))
    return answer


def card_show(phones: Phones, winner: str) -> dict:
    step = phones.view(0)["step"]
    (box,) = step["boxes"]
    tied = box["owners"]
    return ok(phones.enter(tied[0], box["key"], NAMES.index(winner)))


def play_auction(phones: Phones, entries=AUCTION) -> None:
    for entry in entries:
        if isinstance(entry, list):
            bid_row(phones, entry)
        else:
            card_show(phones, entry)


def play_round(phones: Phones) -> None:
    enter_cards(phones)
    play_auction(phones)
    for seat in range(4):
        ok(phones.enter(seat, f"shown-{seat}", SHOWN[f"shown-{seat}"]))
    for seat in range(4):
        ok(phones.enter(seat, f"count-0-{seat}", TRICKS[f"count-0-{seat}"]))
    for seat in range(4):
        ok(phones.enter(seat, f"tricks-{seat}", TRICKS[f"tricks-{seat}"]))


def test_a_round_by_four_phones_equals_the_same_facts_entered_by_one_keeper(app):
    phones = pirates(app)
    play_round(phones)
    alone = app.test_client()
    code = new_sheet(alone, "pirate_tricks", NAMES, OPTIONS)
    data = keeper_form(CARDS, KEEPER_ROWS, TRICKS, {"position": "0"})
    answer = alone.post(f"/score/{code}/rounds", data=data)
    assert answer.status_code == 302
    assert phones.rows() == stored_sheet(app, code)[2]
    # the next round opens on every phone, at its score cards
    assert phones.view(2)["step"]["name"] == "cards" and phones.view(2)["round"] == 2


def test_the_auction_steps_and_reveals_on_the_phones(app):
    phones = pirates(app)
    enter_cards(phones)
    first = phones.view(1)
    assert first["step"]["label"] == "Row 1 bids" and first["step"]["sealed"]
    assert first["table"]["loon"] == [None, 12, None, None]  # own loon only
    assert "Your loon" in first["table_html"] and "<strong>12</strong>" in first["table_html"]
    answer = bid_row(phones, [0, 0, 0, 0])  # the zero tie
    revealed = answer["view"]["revealed"]
    assert revealed["label"] == "Row 1 bids" and [v["text"] for v in revealed["values"]] == [
        "0",
        "0",
        "0",
        "0",
    ]
    table = answer["view"]["table"]
    assert table["rows"][0]["loon"] == 2 and table["ask"]["row_name"] == "Row 2"
    bid_row(phones, [3, 1, 0, 2])
    answer = bid_row(phones, [None, 2, 2, 1])  # Luke and Faith tie at 2
    step = answer["view"]["step"]
    assert step["label"] == "Row 3 card show" and not step["sealed"]
    assert step["boxes"][0]["owners"] == [1, 2]
    assert "shows a card" in phones.view(1)["table_html"]
    refused = phones.enter(0, step["boxes"][0]["key"], 1)  # Troy did not tie
    assert refused.status_code == 403
    card_show(phones, "Luke")
    assert phones.view(1)["table"]["loon"][1] == 10  # paid 2 to the bank
    # the keeper may enter a bid for a player without a phone (here: Drake's)
    assert phones.keeper_enter("row_bid-4-3", 0).status_code in (302, 303)


def test_a_bid_above_ones_loon_is_refused_without_saying_anyones_loon(app):
    phones = pirates(app)
    enter_cards(phones)
    refused = phones.enter(2, "row_bid-0-2", 13)
    assert refused.status_code == 422
    message = refused.get_json()["error"]
    assert "more loon than Faith holds" in message and "12" not in message
    assert phones.view(2)["step"]["boxes"][2]["in"] is False  # nothing kept


def _seen_by_others(phones: Phones, owner: int, key: str) -> dict[str, str]:
    """Every response a viewer other than ``owner``'s phone gets now (as the generic leak
    harness gathers them), for Pirate Tricks' sealed bid ``key``."""
    keeper, code, join = phones.keeper, phones.code, phones.join
    out = {}
    for player in phones.tokens:
        if player == owner:
            continue
        view = phones.view(player)
        for box in view["step"]["boxes"]:
            if box["owners"] == [player]:
                box["text"] = box["shown"] = None  # its own entry, which it may see
        out[f"phone {player}"] = str(view)
        out[f"refusal {player}"] = phones.enter(player, key, 9).get_data(as_text=True)
    for path in ("", "/phones", "/export.csv", "/export.json", "/print"):
        out[path] = keeper.get(f"/score/{code}{path}").get_data(as_text=True)
    watch = re.search(r"/score/watch/([A-Za-z0-9_-]+)/screen", out[""]).group(1)
    for tail in ("", "?part=1", "/screen", "/screen?part=1"):
        out["watch" + tail] = keeper.get(f"/score/watch/{watch}{tail}").get_data(as_text=True)
    out["join page"] = keeper.get(f"/score/join/{join}").get_data(as_text=True)
    return {name: _unrevealed(_normal(text, phones)) for name, text in out.items()}


def _unrevealed(text: str) -> str:
    """Without the random id of an earlier reveal (a fresh one on each sheet)."""
    text = re.sub(r'data-reveal-id="[0-9a-f]*"', "", text)
    return re.sub(r"'id': '[0-9a-f]{8}'", "", text)


def test_leak_harness_no_sealed_row_bid_reaches_another_viewer(make_app):
    """Two sheets through the same steps, with different sealed bids on the open row:
    everything every other viewer gets is the same on both until the reveal."""
    rng = random.Random(28)
    for _ in range(3):
        app = make_app(WTF_CSRF_ENABLED=False)
        left, right = pirates(app), pirates(app)
        for sheet in (left, right):
            enter_cards(sheet)
            play_auction(sheet, AUCTION[:2])  # row 3: Luke, Faith and Drake bid
        step = left.view(1)["step"]
        k = step["name"].rsplit("-", 1)[1]
        order = rng.sample([1, 2, 3], 3)
        for player in order[:-1]:
            key = f"row_bid-{k}-{player}"
            for sheet, bid in zip((left, right), rng.sample(range(13), 2), strict=True):
                ok(sheet.enter(player, key, bid))
            assert _seen_by_others(left, player, key) == _seen_by_others(right, player, key)


def test_loon_stays_behind_each_screen_until_the_game_ends(app):
    phones = pirates(app)
    play_round(phones)
    totals = GAMES["pirate_tricks"].sheet(NAMES).summary(phones.rows())["totals"]
    for seat in range(4):
        view = phones.view(seat)
        assert view["totals"] == [t if s == seat else None for s, t in enumerate(totals)]
        assert view["table"]["loon"] == [None] * seat + [totals[seat]] + [None] * (3 - seat)
    assert phones.keeper_view()["totals"] == [None] * 4
    keeper = phones.keeper
    lines = list(csv.reader(io.StringIO(keeper.get(f"/score/{phones.code}/export.csv").text)))
    columns, first, last = lines
    for name in NAMES:
        assert first[columns.index(f"{name} loon at the end")] == ""
    assert set(last[4:]) == {""}
    page = keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    grid = page[page.index('id="totals"') :]
    grid = grid[: grid.index("</tr>")]
    assert grid.count(">hidden<") == 4
    watch = re.search(r"/score/watch/([A-Za-z0-9_-]+)/screen", page).group(1)
    screen = keeper.get(f"/score/watch/{watch}/screen").get_data(as_text=True)
    foot = screen[screen.index("<tfoot>") : screen.index("</tfoot>")]
    assert foot.count("<strong>–</strong>") == 4  # hidden
    assert all(str(t) not in foot for t in totals)
    # the chart, drawn from the totals, waits for the end too
    assert 'class="chart' not in page


def test_a_sheet_nobody_joined_keeps_todays_rows_step_and_totals(app):
    client = app.test_client()
    code = new_sheet(client, "pirate_tricks", NAMES, OPTIONS)
    assert enter_step(client, code, "cards", CARDS).status_code == 302
    page = client.get(f"/score/{code}").get_data(as_text=True)
    assert "enter the rows and bids" in page and "Row 1 bids" not in page


def test_undo_stops_at_the_reveal_and_revealed_bids_stay(app):
    phones = pirates(app)
    enter_cards(phones)
    bid_row(phones, [0, 0, 0, 0])
    cleared = phones.keeper.post(f"/score/{phones.code}/steps")  # the round in progress
    assert cleared.status_code == 409
    assert "once revealed they no longer change" in cleared.get_data(as_text=True)
    play_auction(phones, AUCTION[1:])
    for seat in range(4):
        ok(phones.enter(seat, f"shown-{seat}", SHOWN[f"shown-{seat}"]))
    for seat in range(4):
        ok(phones.enter(seat, f"count-0-{seat}", TRICKS[f"count-0-{seat}"]))
        ok(phones.enter(seat, f"tricks-{seat}", TRICKS[f"tricks-{seat}"]))
    undo = phones.keeper.post(f"/score/{phones.code}/undo", data={"change": "1"})
    assert undo.status_code == 409
    assert "Undo stops at the reveal" in undo.get_data(as_text=True)
    assert len(phones.rows()) == 1


def test_a_card_show_offers_only_the_tied_players_on_their_phones_and_the_keepers_panel(app):
    phones = pirates(app)
    enter_cards(phones)
    play_auction(phones, AUCTION[:3])  # Row 3: Luke and Faith tie at 2
    for seat in (1, 2):  # the tied phones
        (box,) = phones.view(seat)["step"]["boxes"]
        assert box["owners"] == [1, 2]
        assert box["field"]["choices"] == [["1", "Luke"], ["2", "Faith"]]
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    select = re.search(r'<select id="kb-row_winner-3".*?</select>', page, re.S).group(0)
    offered = re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', select)
    assert offered == [("1", "Luke"), ("2", "Faith")]
    # Troy did not tie: even the keeper cannot give him the row, and is told why.
    assert phones.keeper_enter("row_winner-3", 0).status_code == 303
    told = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "goes to one of the players who showed a card" in told
    assert phones.view(1)["step"]["name"] == "row-winner-3"
    ok(phones.enter(2, "row_winner-3", 1))  # Faith's phone: Luke's card was higher
    assert phones.view(1)["step"]["label"] == "Row 4 bids"


def test_recruitment_is_entered_as_the_cards_shown_and_the_sheet_works_out_the_loon(app):
    phones = pirates(app)
    enter_cards(phones)
    play_auction(phones)
    step = phones.view(0)["step"]
    assert step["name"] == "recruitment"
    assert [(b["key"], b["owners"]) for b in step["boxes"]] == [
        (f"shown-{p}", [p]) for p in range(4)
    ]
    field = step["boxes"][0]["field"]
    assert field["kind"] == "picks" and field["high"] == 10
    # the crew deck for four players: 5 to 20 of each suit
    assert len(field["choices"]) == 48 and field["choices"][0] == ["R5", "Red 5"]
    # a card not in play, a card twice, another's box: refused, nothing kept
    for text, words in (("R13 R3", "R3 is not one of those listed"), ("G7 G7", "each one once")):
        refused = phones.enter(2, "shown-2", text)
        assert refused.status_code == 422 and words in refused.get_json()["error"]
    assert phones.enter(1, "shown-2", "G7 B7").status_code == 403
    assert not phones.view(2)["step"]["boxes"][2]["in"]
    ok(phones.enter(0, "shown-0", "R15, R13 R14"))  # any order, commas or spaces
    assert phones.view(1)["step"]["boxes"][0]["text"] == "R13 R14 R15"  # open: all see it
    ok(phones.enter(2, "shown-2", "G9 B9"))
    # the keeper corrects Faith's box (her pair was 7s) and enters Luke's and Drake's
    assert phones.keeper_enter("shown-2", "G7 B7").status_code == 303
    assert phones.keeper_enter("shown-1", "").status_code == 303
    ok(phones.enter(3, "shown-3", ""))
    assert phones.view(0)["step"]["name"] == "tricks"
    for seat in range(4):
        ok(phones.enter(seat, f"count-0-{seat}", TRICKS[f"count-0-{seat}"]))
        ok(phones.enter(seat, f"tricks-{seat}", TRICKS[f"tricks-{seat}"]))
    (row,) = phones.rows()
    assert [p.get("shown") for p in row["players"]] == [
        ["R13", "R14", "R15"],
        None,
        ["G7", "B7"],
        None,
    ]
    assert [p.get("recruitment") for p in row["players"]] == [None, 0, None, 0]
    keeper = GAMES["pirate_tricks"].sheet(NAMES)
    ledger = keeper.summary([row])["rows"][0]["players"]
    assert [line["recruitment"] for line in ledger] == [3, 0, 2, 0]
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "entered by the keeper: Faith: cards shown, Luke: cards shown" in page

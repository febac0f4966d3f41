"""The phone's words for cards and moves (static/js/table-games.js), run under Node.js on
every kind of legal action the four engines produce: each gets a readable label (no
"undefined", no raw object), Shoot! cards show their suit by symbol and by colour, and
PULL! cards use the suit symbols the engine's view gives; the Pirate Tricks board (on a
minimal stand-in DOM) shows the score cards, the shown bids and the tie-break cards.
Skipped without Node.js."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

from companion.games import GAMES

from ..conftest import unavailable

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "table-games.js"
NODE = shutil.which("node")

SCRIPT = """
import { actionLabel, cardInfo, optionLabel, statusText } from %s;
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const cases = JSON.parse(input);
  const out = cases.map(({ game, action, view, names, cards }) => ({
    label: actionLabel(game, action, view, names),
    option: optionLabel(game, action, view, names),
    cards: cards.map((card) => cardInfo(game, card, view)),
  }));
  const env = { started: true, over: false, players: ["Ann", "Bob"], seat: 0, to_act: [0, 1] };
  const status = [
    statusText(env, env.players),
    statusText({ ...env, seat: null }, env.players),
    statusText({ ...env, started: false, players: ["Ann", null] }, ["Ann", null]),
  ];
  process.stdout.write(JSON.stringify({ out, status }));
});
"""


def sample_cases() -> list[dict]:
    """One case per (game, action type, field set), from random play of every game."""
    cases: dict[tuple, dict] = {}
    for slug, game in GAMES.items():
        for players in range(game.min_players, game.max_players + 1):
            state = game.new_state(players, seed=players)
            rng = random.Random(players)
            names = [f"P{i}" for i in range(players)]
            for _ in range(400):
                if state.is_over():
                    break
                seat = rng.choice(state.to_act())
                legal = state.legal_actions(seat)
                view = state.view(seat)
                for action in legal:
                    key = (slug, action["type"], tuple(sorted(action)))
                    if key not in cases:
                        cases[key] = {
                            "game": slug,
                            "action": action,
                            "view": view,
                            "names": names,
                            "cards": list(view.get("hand") or [])[:12],
                        }
                state.apply(seat, rng.choice(legal))
    return list(cases.values())


def run_node(cases: list[dict]) -> dict:
    if NODE is None:
        unavailable("Node.js is not installed")
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT % json.dumps(MODULE.as_uri())],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_every_kind_of_action_gets_a_readable_label():
    cases = sample_cases()
    kinds = {(c["game"], c["action"]["type"]) for c in cases}
    assert ("call_the_shot", "call") in kinds and ("shoot", "bid") in kinds
    assert ("pirate_tricks", "ditch") in kinds and ("pull", "shoot") in kinds
    got = run_node(cases)
    for case, result in zip(cases, got["out"], strict=True):
        for text in (result["label"], result["option"]):
            assert text and "undefined" not in text and "[object" not in text, (case, text)
            assert "null" not in text and "NaN" not in text, (case, text)
        for info in result["cards"]:
            assert info["text"] and "undefined" not in info["text"]
            assert "_" not in info["text"]  # ids are turned into words


def test_shoot_cards_show_suit_by_symbol_and_colour():
    cases = [
        {
            "game": "shoot",
            "action": {"type": "play", "card": c},
            "view": {},
            "names": [],
            "cards": [c],
        }
        for c in ("QH", "TD", "AS", "2C")
    ]
    got = run_node(cases)["out"]
    infos = [r["cards"][0] for r in got]
    assert [i["text"] for i in infos] == ["Q♥", "10♦", "A♠", "2♣"]
    assert [i["colour"] for i in infos] == ["red", "red", "black", "black"]
    assert infos[0]["label"] == "queen of hearts"
    assert [r["label"] for r in got] == ["Play Q♥", "Play 10♦", "Play A♠", "Play 2♣"]


def test_pull_cards_use_the_engines_suit_symbols_and_claims_read_as_words():
    view = GAMES["pull"].new_state(2, seed=1).view(0)
    card = view["hand"][0]
    suit = card.split("-")[0]
    cases = [
        {
            "game": "pull",
            "action": {"type": "second", "card": card},
            "view": view,
            "names": [],
            "cards": [card],
        },
        {
            "game": "call_the_shot",
            "action": {"type": "play", "card": "man_of_honour", "claim": "shoot_to_kill"},
            "view": {},
            "names": [],
            "cards": ["man_of_honour"],
        },
    ]
    pull, shot = run_node(cases)["out"]
    assert pull["cards"][0]["text"].startswith(view["suits"][suit]["symbol"])
    assert view["suits"][suit]["name"] in pull["label"]
    assert shot["label"] == "Play Man of Honour, say “Shoot to Kill”"
    assert shot["option"] == "Say “Shoot to Kill”"


def test_status_lines():
    status = run_node([])["status"]
    assert status == [
        "Your move (with 1 other).",
        "Ann, Bob to play.",
        "Waiting for 1 more player to join.",
    ]


BOARD_SCRIPT = """
class Node {
  constructor(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.className = ""; }
  set textContent(value) { this.children = [String(value)]; }
  get textContent() {
    return this.children.map((c) => (typeof c === "string" ? c : c.textContent)).join(" ");
  }
  setAttribute(key, value) { this.attrs[key] = value; }
  append(...items) {
    for (const item of items) {
      if (item && item.tag === "#fragment") this.children.push(...item.children);
      else this.children.push(item);
    }
  }
}
globalThis.document = {
  createElement: (tag) => new Node(tag),
  createDocumentFragment: () => new Node("#fragment"),
};
const { renderBoard } = await import(%s);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ env, names }) =>
    renderBoard(env, names).textContent.replace(/\\s+/g, " "));
  process.stdout.write(JSON.stringify(out));
});
"""


def render_boards(envs: list[dict]) -> list[str]:
    """The text of renderBoard for each envelope, with a minimal DOM made of plain nodes."""
    if NODE is None:
        unavailable("Node.js is not installed")
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", BOARD_SCRIPT % json.dumps(MODULE.as_uri())],
        input=json.dumps([{"env": env, "names": ["Ann", "Bob", "Cy"]} for env in envs]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_pirate_board_shows_score_cards_bids_tie_break_cards_and_the_taker():
    from tests.games.pirate_tricks.test_engine import bid, new

    def envelope(state):
        return {
            "game": "pirate_tricks",
            "seat": None,
            "to_act": state.to_act(),
            "over": False,
            "view": state.view(None),
        }

    def card(card_id):  # the board's words for a crew card, e.g. "Green 18"
        return {"R": "Red", "G": "Green", "B": "Blue"}[card_id[0]] + " " + card_id[1:]

    names = ["Ann", "Bob", "Cy"]
    tie = new(3)  # a tie above zero: the reveal winner pays its bid
    bid(tie, [2, 2, 0])
    pending = envelope(tie)
    shown = {seat: tie.hands[seat][-1] for seat in (0, 1)}
    for seat, shown_card in shown.items():
        tie.apply(seat, {"type": "reveal", "card": shown_card})
    won = tie.view(None)["events"][0]
    zero = new(3, {1: ["G18"], 2: ["B19"]})  # all zero twice: the reveal winner chooses
    for amounts in ([0, 0, 0], [1, 0, 0], [None, 0, 0], [None, 0, 0]):
        bid(zero, amounts)
    zero.apply(1, {"type": "reveal", "card": "G18"})
    zero.apply(2, {"type": "reveal", "card": "B19"})
    zero.apply(2, {"type": "assign", "seat": 1})
    pending_text, won_text, zero_text = render_boards([pending, envelope(tie), envelope(zero)])

    cards = tie.view(None)["score_cards"]
    for text in (pending_text, won_text, zero_text):
        assert "Score cards" in text
        for score_card in [*cards["recruitment"], cards["treasure"], cards["capture"]]:
            assert score_card["name"] in text and score_card["text"] in text
    assert "Bids: Ann 2 · Bob 2 · Cy 0" in pending_text
    assert "Tie between Ann, Bob: each shows a card." in pending_text
    assert "Tie-break cards" not in pending_text  # sealed until both have chosen
    assert "Bids: Ann 2 · Bob 2 · Cy 0" in won_text
    assert all(f"{names[s]} {card(c)}" in won_text for s, c in shown.items()), won_text
    winner = names[won["reveal_winner"]]
    assert f"{winner} won the tie-break and took it for 2 loon." in won_text, won_text
    assert "Nobody bid: the bank put 2 loon on the row." in zero_text
    assert "Bob Green 18" in zero_text and "Cy Blue 19" in zero_text
    assert "Cy won the tie-break and gave it to Bob, with 2 loon on it." in zero_text
    for text in (pending_text, won_text, zero_text):
        assert "undefined" not in text and "null" not in text and "NaN" not in text

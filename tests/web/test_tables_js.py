"""The phone's words for cards and moves (static/js/table-games.js), run under Node.js on
every kind of legal action the four engines produce: each gets a readable label (no
"undefined", no raw object), Shoot! cards show their suit by symbol and by colour, and
PULL! cards use the suit symbols the engine's view gives. Skipped without Node.js."""

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

"""The generic Play board (static/js/board.js), run under Node.js on a minimal stand-in
DOM: the status line from the view's prompt, button words from the envelope's labels, the
winners line grouped by sides ("Ann & Cy won."), the final scores under the game's score
word, the generic board of a game without a module (the test-only fifth game) and a game
module's own part drawn with the kit. Skipped without Node.js.

The boards of the real games are tested with each game (tests/games/<slug>/)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from companion.tables.envelope import envelope  # noqa: F401 - the shape under test
from companion.tables.tokens import Who  # noqa: F401 - the shape under test

from .. import fifth_game
from ..conftest import unavailable

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "board.js"
NODE = shutil.which("node")

SCRIPT = """
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
  createTextNode: (text) => String(text),
};
const board = await import(%s);
const gameModule = {
  board(env, names, kit) {
    const trick = env.view.trick.map((p) => kit.cardText(p[1])).join(" ");
    return [kit.el("p", { text: `Trick: ${trick}` }), kit.playsLine(env.view.trick),
            kit.facts([["Lead", kit.seatName(env.view.leader)]])];
  },
};
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { cases, faces } = JSON.parse(input);
  const out = cases.map(({ env, names, module, word }) => ({
    board: board.renderBoard(env, names, module ? gameModule : null, faces, word)
      .textContent.replace(/\\s+/g, " ").trim(),
    status: board.statusText(env, names),
    labels: (env.legal || []).map((action) => board.actionLabel(env, action)),
  }));
  process.stdout.write(JSON.stringify(out));
});
"""


def run(cases: list[dict], faces: dict) -> list[dict]:
    if NODE is None:
        unavailable("Node.js is not installed")
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT % json.dumps(MODULE.as_uri())],
        input=json.dumps({"cases": cases, "faces": faces}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def env_of(state, seat, names):
    legal = state.legal_actions(seat) if seat is not None else []
    view = state.view(seat)
    return {
        "version": 1,
        "seat": seat,
        "to_act": state.to_act(),
        "legal": legal,
        "labels": [state.describe(a) for a in legal],
        "over": state.is_over(),
        "view": view,
        "game": state.slug,
        "players": names,
        "started": True,
        "scores": view["scores"] if state.is_over() else None,
    }


NAMES = ["Ann", "Bob", "Cy"]


def test_status_labels_and_generic_board_of_a_game_without_a_module():
    game = fifth_game.GAME
    state = game.new_state(3, {"cards": 2}, seed=5)
    mover = state.to_act()[0]
    cases = [
        {"env": env_of(state, mover, NAMES), "names": NAMES},
        {"env": env_of(state, None, NAMES), "names": NAMES},
    ]
    out = run(cases, game.card_faces())
    assert out[0]["status"] == "Play a card: the highest takes the trick."
    assert out[0]["labels"] == [f"Play {a['card'][1:]}" for a in state.legal_actions(mover)]
    assert out[1]["status"] == f"{NAMES[mover]} to play."
    # The generic board: scores per seat and the view's own simple values.
    assert "Score" in out[1]["board"] and "Cards left 2" in out[1]["board"]
    hand = " ".join(f"{card[1:]} card {card[1:]}" for card in state.view(mover)["hand"])
    assert hand in out[0]["board"]


def test_winners_grouped_by_sides_and_final_scores_with_the_score_word():
    game = fifth_game.GAME
    state = game.new_state(3, {"cards": 1}, seed=1)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    env = env_of(state, None, NAMES)
    winner = state.winners()[0]
    out = run([{"env": env, "names": NAMES, "word": "Tricks"}], game.card_faces())[0]
    assert out["board"].startswith(f"Game over: {NAMES[winner]} won.")
    assert "Final scores Player Tricks" in out["board"]
    # Two partners who won together are named together; the other side apart.
    env["view"] = {**env["view"], "sides": [[0, 2], [1]], "winners": [0, 2, 1]}
    out = run([{"env": env, "names": NAMES}], {})[0]
    assert out["board"].startswith("Game over: Ann & Cy and Bob won.")


def test_a_game_module_draws_its_part_with_the_kit():
    game = fifth_game.GAME
    state = game.new_state(2, {"cards": 3}, seed=2)
    first = state.to_act()[0]
    state.apply(first, state.legal_actions(first)[0])
    card = state.log[0][1]["card"]
    env = env_of(state, None, NAMES[:2])
    out = run([{"env": env, "names": NAMES[:2], "module": True}], game.card_faces())[0]
    assert f"Trick: {card[1:]}" in out["board"]
    assert f"{NAMES[first]} {card[1:]} card {card[1:]}" in out["board"]
    assert f"Lead {NAMES[state.leader]}" in out["board"]

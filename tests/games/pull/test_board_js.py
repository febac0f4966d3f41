"""PULL!'s Play board module under Node with a stand-in kit: targets in a player's words
(suit and value, the double value, the animal mark), house values explained, and the
targets drawn once (above the hand on a phone, in the board on the host screen)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..node import run_board
from .helpers import new

BOARD = Path(__file__).resolve().parents[3] / "static/js/games/pull.js"

SCRIPT = """
const mod = await import(process.argv[1]);
const view = JSON.parse(process.argv[2]);
const text = (n) =>
  n == null ? "" : typeof n === "string" ? n : [n.text || "", ...(n.kids || []).map(text)].join("");
const node = (tag, props, ...kids) => ({ tag, text: (props || {}).text, kids });
const kit = {
  split: false,
  el: node,
  card: (id) => ({ text: `[${id}]` }),
  cardText: (id) => id,
  cardsLine: (ids) => ({ text: ids.join(" ") }),
  playsLine: (plays) => ({ text: plays.map((p) => p.join(":")).join(" ") }),
  facts: (pairs) => ({
    text: pairs.map(([t, v]) => `${t}=${typeof v === "string" ? v : ""}`).join(";"),
  }),
  seatTable: () => ({ text: "table" }),
  seatName: (seat) => ["Ada", "Bo", "Cy", "Di"][seat],
  teamClass: () => "",
  signed: (n) => String(n),
  words: (id) => id,
};
const env = { view, seat: 1, to_act: view.to_act };
const board = mod.board(env, [], kit).filter(Boolean).map(text);
kit.split = true;
console.log(JSON.stringify({
  words: view.targets.map((t) => mod.targetWords(view, t)),
  notes: view.targets.map((t) => mod.houseNote(t)),
  inPlay: mod.inPlay(env, [], kit).filter(Boolean).map(text),
  board,
  split: mod.board(env, [], kit).filter(Boolean).map(text),
}));
"""


def run(view):
    return run_board(SCRIPT, BOARD, view)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_targets_in_words_with_double_animal_and_house_notes():
    state = new(3, {1: ["trap-7"], 2: []}, ["trap-T2", "skeet-T4"])
    view = state.view(1)
    out = run(view)
    first, second = view["targets"]
    assert out["words"][0] == f"Trap {first['left']} — double {first['double']}" + (
        ", animal: a foul" if first["animal"] else ""
    )
    assert out["words"][1].startswith(f"Skeet {second['left']} — double {second['double']}")
    assert second["animal"] == out["words"][1].endswith(", animal: a foul")
    # The rulebook does not print double values nor animal marks: both are house values.
    assert out["notes"][0] == "double and animal: house values, not printed in the rulebook"
    shown = " ".join(out["inPlay"])
    assert out["words"][0] in shown and out["words"][1] in shown
    assert "Targets (hand 1, round 1 of 5)" in shown
    assert shown.count("house values, not printed in the rulebook") == 1, "said once"
    assert out["words"][0] in " ".join(out["board"]), "the host board shows the targets"
    assert out["words"][0] not in " ".join(out["split"]), "a phone shows them once, above"

"""Run a game's Play board module under Node.js with a test script: the script gets the
module's file URL as ``process.argv[1]`` and the JSON payload as ``process.argv[2]``, and
prints JSON, which comes back parsed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any


def run_board(script: str, module: Path, payload: Any) -> Any:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script, module.as_uri(), json.dumps(payload)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def kit_script(body: str, names: list[str], *, bracket_cards: bool = True, drop_empty_facts=False):
    """A Node script that imports the board module (``mod``), parses the payload
    (``input``) and builds a stand-in ``kit`` whose drawing helpers return plain objects the
    test can read back (``{card}``, ``{cards}``, ``{plays}``, ``{facts}``, ``{table}``), then
    runs ``body``, which prints the JSON answer."""
    card_text = "`<${id}>`" if bracket_cards else "id"
    facts = (
        'pairs.filter(([, v]) => v !== "" && v !== null && v !== undefined)'
        if drop_empty_facts
        else "pairs.map(([t, v]) => [t, v])"
    )
    prelude = f"""
const mod = await import(process.argv[1]);
const input = JSON.parse(process.argv[2]);
const names = {json.dumps(names)};
const node = (tag, props, ...kids) => ({{
  tag,
  text: (props || {{}}).text,
  kids,
  append(...more) {{ this.kids.push(...more); }},
}});
const kit = {{
  el: node,
  card: (id) => ({{ card: id }}),
  cardText: (id) => {card_text},
  cardsLine: (ids) => ({{ cards: ids }}),
  playsLine: (plays) => ({{ plays }}),
  facts: (pairs) => ({{ facts: {facts} }}),
  seatTable: (columns) => ({{ table: columns.map(([t, f]) => [t, names.map((_, s) => f(s))]) }}),
  seatName: (seat) => names[seat],
  signed: (n) => (n > 0 ? `+${{n}}` : String(n)),
  words: (id) => id,
}};
"""
    return prelude + body

"""Every stylesheet is well formed: braces balance, and no rule opens inside another
(outside @media / @supports). A merge once left a rule unclosed, and the browser silently
dropped every rule after it (the score steppers lost their layout)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = sorted((Path(__file__).resolve().parents[2] / "static" / "css").glob("*.css"))


def blocks(text: str) -> list[tuple[str, int]]:
    """Each opening brace's selector with the depth it opens at."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            out.append((text[start:i].strip(), depth))
            depth += 1
            start = i + 1
        elif ch == "}":
            depth -= 1
            assert depth >= 0, "a closing brace without an opening one"
            start = i + 1
        elif ch == ";":
            start = i + 1
    assert depth == 0, f"{depth} block(s) left open"
    return out


@pytest.mark.parametrize("path", CSS, ids=lambda p: p.name)
def test_rules_close_and_nest_only_inside_at_rules(path):
    opened = blocks(path.read_text(encoding="utf-8"))
    parents: list[str] = []
    for selector, depth in opened:
        parents[depth:] = [selector]
        if depth > 0:
            assert parents[depth - 1].startswith("@"), (
                f"{selector!r} opens inside {parents[depth - 1]!r}"
            )


def test_the_check_catches_an_unclosed_rule():
    with pytest.raises(AssertionError):
        blocks(".a {\n  color: red;\n.b {\n  color: blue;\n}\n")

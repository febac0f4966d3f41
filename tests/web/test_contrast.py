"""Colour contrast of the stylesheet's palette, in light and dark, against WCAG 2.x AA:
4.5:1 for text, 3:1 for the edges of controls and focus rings (non-text contrast)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "app.css"

# (foreground, background) pairs the stylesheet actually draws.
TEXT_PAIRS = [
    ("text", "bg"),
    ("text", "surface"),
    ("text", "surface-2"),
    ("muted", "bg"),
    ("muted", "surface"),
    ("link", "bg"),
    ("link", "surface"),
    ("accent-text", "accent"),
    ("header-text", "header-bg"),
    ("header-bg", "header-text"),  # the current page's nav pill
    ("suit-red", "surface-2"),
    ("suit-black", "surface-2"),
    ("suit-red", "surface"),
    ("notice-text", "notice-bg"),
    ("warning-text", "warning-bg"),
]
NON_TEXT_PAIRS = [
    ("border", "bg"),
    ("border", "surface"),
    ("accent", "bg"),
    ("accent", "surface"),
    ("focus", "bg"),
    ("focus", "surface"),
    ("header-text", "header-bg"),  # focus ring inside the header
]


def declared(scheme: str) -> dict[str, str]:
    """The colours the stylesheet's ``:root`` block of that scheme declares itself."""
    css = CSS.read_text()
    if scheme == "light":
        block = re.findall(r":root\s*\{([^}]*)\}", css)[0]
    else:
        found = re.search(
            r"@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}", css
        )
        assert found, "no dark colour scheme"
        block = found.group(1)
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", block))


def palette(scheme: str) -> dict[str, str]:
    """The colours in force in that scheme (dark declarations over the light ones)."""
    light = declared("light")
    return light if scheme == "light" else {**light, **declared("dark")}


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula_matches_known_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_dark_scheme_redefines_every_colour():
    """Each scheme declares every colour itself: none in dark is the light one by oversight."""
    names = {fg for fg, _ in TEXT_PAIRS + NON_TEXT_PAIRS} | {bg for _, bg in TEXT_PAIRS}
    assert names <= declared("light").keys()
    assert declared("dark").keys() == declared("light").keys()


def test_dark_scheme_is_dark_and_light_scheme_is_light():
    assert luminance(palette("light")["bg"]) > 0.8
    assert luminance(palette("dark")["bg"]) < 0.05


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("fg", "bg"), TEXT_PAIRS)
def test_text_contrast_is_aa(scheme, fg, bg):
    colours = palette(scheme)
    assert contrast(colours[fg], colours[bg]) >= 4.5, (scheme, fg, bg)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("fg", "bg"), NON_TEXT_PAIRS)
def test_control_edges_contrast_is_aa(scheme, fg, bg):
    colours = palette(scheme)
    assert contrast(colours[fg], colours[bg]) >= 3.0, (scheme, fg, bg)

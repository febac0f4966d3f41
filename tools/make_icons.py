"""Draw the app's icons: ``static/icons/icon.svg`` and its PNG renderings.

    python tools/make_icons.py

A development-time script (not needed to run the app): it writes the SVG, then has
Debian's Chromium (through Playwright, already in the ``test`` extra) render the PNGs at
192, 512 and 180 (apple-touch) pixels, plus a full-bleed maskable 512 whose picture stays
inside the central 80 % safe zone.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser import launch  # noqa: E402

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"

GREEN = "#1e6b47"
RED = "#b3261e"
INK = "#1b1f1d"

# Suit shapes on a 100 x 100 box (drawn, so the icon needs no font).
HEART = "M50 88 C22 66 6 48 14 30 C22 13 43 13 50 31 C57 13 78 13 86 30 C94 48 78 66 50 88 Z"
SPADE = (
    "M50 8 C78 34 95 50 86 67 C79 80 61 79 53 68 C55 79 59 87 66 93 L34 93 C41 87 45 79 47 68"
    " C39 79 21 80 14 67 C5 50 22 34 50 8 Z"
)


def card(
    cx: float,
    cy: float,
    angle: float,
    shape: str,
    colour: str,
    dx: float = 0,
    dy: float = 0,
    size: float = 1.3,
) -> str:
    """A card centred on (cx, cy), turned by ``angle``, its suit moved by (dx, dy)."""
    w, h = 190, 266
    return (
        f'<g transform="rotate({angle} {cx} {cy})">'
        f'<rect x="{cx - w / 2 + 6}" y="{cy - h / 2 + 10}" width="{w}" height="{h}" rx="20"'
        ' fill="#000" opacity="0.25"/>'
        f'<rect x="{cx - w / 2}" y="{cy - h / 2}" width="{w}" height="{h}" rx="20"'
        ' fill="#fffdf7" stroke="#d8d2c4" stroke-width="3"/>'
        f'<path d="{shape}" fill="{colour}"'
        f' transform="translate({cx + dx - 50 * size} {cy + dy - 50 * size}) scale({size})"/>'
        "</g>"
    )


def svg(maskable: bool = False) -> str:
    scale = 0.78 if maskable else 1.0
    background = (
        f'<rect width="512" height="512" fill="{GREEN}"/>'
        if maskable
        else f'<rect width="512" height="512" rx="104" fill="{GREEN}"/>'
    )
    cards = card(196, 262, -14, SPADE, INK, -38, -62, size=0.9) + card(312, 250, 11, HEART, RED)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">'
        f"{background}"
        f'<g transform="translate(256 256) scale({scale}) translate(-256 -256)">{cards}</g>'
        "</svg>\n"
    )


def render(page, source: str, size: int, out: Path) -> None:
    page.set_viewport_size({"width": size, "height": size})
    html = (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px'>"
        + source.replace('width="512" height="512"', f'width="{size}" height="{size}"', 1)
        + "</div></body></html>"
    )
    page.set_content(html)
    page.screenshot(
        path=str(out), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
    )
    print(out.relative_to(ICONS.parent.parent))


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    plain, maskable = svg(), svg(maskable=True)
    (ICONS / "icon.svg").write_text(plain)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        render(page, plain, 192, ICONS / "icon-192.png")
        render(page, plain, 512, ICONS / "icon-512.png")
        render(page, maskable, 512, ICONS / "maskable-512.png")
        # iOS draws its own rounded corners and shows transparency as black: full bleed.
        render(page, maskable, 180, ICONS / "apple-touch-icon.png")
        browser.close()


if __name__ == "__main__":
    sys.exit(main())

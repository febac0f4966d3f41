"""Take the README's screenshots: ``python tools/screenshots.py``.

Starts the app on 127.0.0.1 (a temporary instance folder) and has Debian's Chromium,
through Playwright, photograph a few pages at phone size in light and dark, into
``docs/screenshots/``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from tests.browser import PHONE, Server, launch  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SHOTS = [
    ("home", "/"),
    ("rules", "/rules/pull"),
    ("search", "/rules?q=follow+suit"),
    ("score", "/score"),
    ("play", "/play"),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance})
        server = Server(app)
        base = server.url
        try:
            with sync_playwright() as p:
                browser = launch(p)
                for scheme in ("light", "dark"):
                    context = browser.new_context(
                        viewport=PHONE, device_scale_factor=2, color_scheme=scheme
                    )
                    page = context.new_page()
                    for name, path in SHOTS:
                        page.goto(base + path)
                        out = OUT / f"{name}-{scheme}.png"
                        page.screenshot(path=str(out))
                        print(out.relative_to(OUT.parent.parent))
                    context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()

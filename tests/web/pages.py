"""Small HTML helpers for page tests (standard library only)."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """Every start tag with its attributes, and the visible text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline: list[str] = []  # inline <script>/<style> bodies (executed or applied)
        self.data_blocks: list[str] = []  # <script type="application/json">: data, never run
        self._open: str | None = None
        self.text_parts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._open = tag if tag in ("script", "style") else None
        if tag == "script" and dict(attrs).get("type") == "application/json":
            self._open = "data"

    def handle_endtag(self, tag):
        self._open = None

    def handle_data(self, data):
        if self._open == "data":
            self.data_blocks.append(data)
        elif self._open in ("script", "style"):
            if data.strip():
                self.inline.append(data)
        else:
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.text_parts).split())

    def find_all(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        return [
            a
            for t, a in self.tags
            if t == tag
            and all(a.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
        ]

    def hrefs(self) -> list[str]:
        return [a["href"] for t, a in self.tags if t == "a" and a.get("href")]


def page(response) -> Page:
    return Page(response.get_data(as_text=True))

"""Small HTML helpers for page tests (standard library only)."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """Every start tag with its attributes, and the visible text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline: list[str] = []  # inline <script>/<style> bodies (executed or applied)
        # <script type="application/json"> and the import map: data, never run
        self.data_blocks: list[str] = []
        self._open: str | None = None
        self.text_parts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._open = tag if tag in ("script", "style") else None
        if tag == "script" and dict(attrs).get("type") in ("application/json", "importmap"):
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


# -- score-mode pages (forms posted with CSRF off) ------------------------------------------
# (imports inside the helpers: this block is appended below the parser above)


def new_sheet(client, slug: str, names: list[str], fields: dict[str, str]) -> str:
    """Start a sheet through the new-sheet form (``fields``: the option boxes as a browser
    sends them); return its code."""
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update({key: str(value) for key, value in fields.items()})
    response = client.post(f"/score/new/{slug}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/score/")
    return location.rsplit("/", 1)[1]


def stored_sheet(app, code: str) -> tuple[list[str], dict, list]:
    """(players, options, facts of each round) as stored in the database."""
    from companion.extensions import db
    from companion.models import ScoreSheet

    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return list(sheet.players), dict(sheet.options), [e.facts for e in sheet.entries]


def stored_summary(app, code: str) -> dict:
    """The sheet's summary worked out by its game's own Sheet from the stored facts."""
    from companion.extensions import db
    from companion.games import GAMES
    from companion.models import ScoreSheet

    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        rows = [e.facts for e in sheet.entries]
        return GAMES[sheet.game].sheet(list(sheet.players), dict(sheet.options)).summary(rows)


def add_round(client, code: str, data: dict):
    """Post one whole round to the sheet."""
    return client.post(f"/score/{code}/rounds", data=data)


def input_value(html: str, name: str) -> str:
    """The value of the (first) input named ``name``; "" without one."""
    import re
    from html import unescape

    match = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html)
    assert match, name
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else ""


def messages(html: str) -> list[str]:
    """Every message shown next to a field or at the top of a form."""
    import re
    from html import unescape

    found = re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)
    block = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', html, re.S)
    if block:
        found += re.findall(r"<p>(.*?)</p>", block.group(1), re.S)
    return [unescape(" ".join(message.split())) for message in found]


def message_at(html: str, field_id: str) -> str | None:
    """The message shown next to the box ``field_id``."""
    import re
    from html import unescape

    match = re.search(rf'<p class="field-error" id="{re.escape(field_id)}-error">(.*?)</p>', html)
    return unescape(match.group(1)) if match else None


def visible_text(html: str) -> str:
    """Visible text of a page, whitespace collapsed (tags dropped, entities decoded)."""
    import re
    from html import unescape

    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def delete_round(client, code: str, number: int):
    """Open round ``number``'s delete confirmation, then confirm it."""
    confirm = client.get(f"/score/{code}/rounds/{number}/delete").get_data(as_text=True)
    return client.post(
        f"/score/{code}/rounds/{number}/delete",
        data={"position": str(number - 1), "version": input_value(confirm, "version")},
    )


def change_offered(html: str, code: str, verb: str = "Undo") -> tuple[str, str] | None:
    """(name, change number) of a sheet page's Undo or Redo step, or None without one."""
    import re
    from html import unescape

    label = re.search(rf"<summary>{verb}: ([^<]+)</summary>", html)
    form = re.search(
        rf'action="/score/{code}/{verb.lower()}"[^>]*>.*?name="change" value="(\d+)"', html, re.S
    )
    if label is None:
        assert form is None
        return None
    return unescape(label.group(1)), form.group(1)


def press_change(client, code: str, verb: str = "Undo"):
    """Open the sheet and confirm its Undo (or Redo) step, as a phone would."""
    offered = change_offered(client.get(f"/score/{code}").get_data(as_text=True), code, verb)
    assert offered, f"no {verb} step on the sheet"
    return client.post(f"/score/{code}/{verb.lower()}", data={"change": offered[1]})

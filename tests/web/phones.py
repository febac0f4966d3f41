"""A helper for the tests of every phone at the table (issue 28): a score sheet, its
keeper's client and one client per joined phone, in the spirit of flaskr's AuthActions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .pages import new_sheet


def box_in(step: dict[str, Any], key: str) -> dict[str, Any]:
    """Box ``key`` of a viewed step."""
    return next(b for b in step["boxes"] if b["key"] == key)


@dataclass
class Phones:
    """A sheet whose players join with their own phones. ``keeper`` is the client that
    keeps the sheet (its code); ``tokens[i]`` the bearer token of player i's phone."""

    app: Any
    code: str
    join: str
    keeper: Any
    tokens: dict[int, str] = field(default_factory=dict)

    @classmethod
    def start(cls, app, slug: str, names: list[str], options: dict[str, str], join=()):
        keeper = app.test_client()
        code = new_sheet(keeper, slug, names, options)
        page = keeper.get(f"/score/{code}").get_data(as_text=True)
        found = re.search(r'class="join-code">([A-Z0-9]+)<', page)
        assert found, "the keeper's page shows the join code"
        phones = cls(app, code, found.group(1), keeper)
        for player in join:
            phones.take(player)
        return phones

    def client(self):
        return self.app.test_client()

    def take(self, player: int) -> str:
        answer = self.client().post(f"/score/join/{self.join}/seats", json={"player": player})
        assert answer.status_code == 200, answer.get_json()
        self.tokens[player] = answer.get_json()["token"]
        return self.tokens[player]

    def auth(self, player: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[player]}"}

    def view(self, player: int) -> dict[str, Any]:
        answer = self.client().get(f"/score/join/{self.join}/view", headers=self.auth(player))
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def box(self, player: int, key: str):
        step = self.view(player)["step"]
        return step["name"], box_in(step, key)

    def enter(
        self, player: int, key: str, text: Any, *, seen: int | None = None, step=None, at=None
    ):
        """Player ``player``'s phone enters box ``key`` of round ``at`` (each as it saw
        them unless told), as ``phone.js`` sends it."""
        view = self.view(player)
        box = box_in(view["step"], key)
        body = {"step": step or view["step"]["name"], "key": key, "text": str(text)}
        body["seen"] = box["rev"] if seen is None else seen
        body["round"] = view["round"] if at is None else at
        return self.client().post(
            f"/score/join/{self.join}/boxes", json=body, headers=self.auth(player)
        )

    def keeper_view(self) -> dict[str, Any]:
        """The keeper's panel as its page draws it (through the same read)."""
        from companion.scorekeeper import book, boxes, phones

        with self.app.test_request_context():
            return phones.look(book.read(self.code), boxes.KEEPING)

    def keeper_enter(self, key: str, text: Any, *, seen: int | None = None):
        view = self.keeper_view()
        step = view["step"]
        box = box_in(step, key)
        data = {"step": step["name"], "key": key, "text": str(text), "round": view["round"]}
        data["seen"] = str(box["rev"] if seen is None else seen)
        return self.keeper.post(f"/score/{self.code}/boxes", data=data)

    def rows(self) -> list[Any]:
        from companion.extensions import db
        from companion.models import ScoreSheet

        with self.app.app_context():
            sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == self.code))
            return [entry.facts for entry in sheet.entries]


def normal(text: str, phones: Phones) -> str:
    """A response with what differs between two sheets by construction taken out."""
    for code in {phones.code, phones.join}:
        text = text.replace(code, "CODE")
    text = re.sub(r'name="csrf_token" value="[^"]*"', "", text)
    text = re.sub(r"ticket=[^\"&' ]+", "ticket=T", text)
    text = re.sub(r"/score/watch/[A-Za-z0-9_-]+", "/score/watch/W", text)
    text = re.sub(r'datetime="[^"]*"', "", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "", text)
    text = re.sub(r"\d\d [A-Z][a-z]{2} \d\d:\d\d UTC", "", text)
    text = re.sub(r"[a-z/._-]+\.(?:css|js)\?v=[0-9a-f]+", "ASSET", text)
    # A reveal's id is random on each sheet (an earlier step's, revealed to all).
    text = re.sub(r"'id': '[0-9a-f]{8}'", "'id': 'R'", text)
    text = re.sub(r'data-reveal-id="[0-9a-f]{8}"', 'data-reveal-id="R"', text)
    return text


def seen_by_others(phones: Phones, owner: int, wrong: str) -> dict[str, str]:
    """Every response a viewer other than ``owner``'s phone gets of the sheet now: every
    other phone's view (its own sealed entry, which it may see, blanked) and its refusal
    when it tries ``owner``'s box (``wrong``, formatted with ``owner``), the keeper's
    pages, panel and exports, the watch page and shared screen, the join pages; each
    with what differs between two sheets by construction taken out (the leak harness)."""
    keeper, code, join = phones.keeper, phones.code, phones.join
    out = {}
    for player in phones.tokens:
        if player != owner:
            view = phones.view(player)
            for box in view["step"]["boxes"]:  # its own entry it may see: not the owner's
                if box["owners"] == [player]:
                    box["text"] = box["shown"] = None
            out[f"phone {player}"] = str(view)
            wrong_box = phones.enter(player, wrong.format(owner=owner), 9)  # not its box
            out[f"refusal {player}"] = wrong_box.get_data(as_text=True)
    pages = [
        f"/score/{code}",
        f"/score/{code}/phones",
        f"/score/{code}/export.csv",
        f"/score/{code}/export.json",
        f"/score/{code}/print",
    ]
    for path in pages:
        out[path.replace(code, "CODE")] = keeper.get(path).get_data(as_text=True)
    watch = re.search(r"/score/watch/([A-Za-z0-9_-]+)/screen", out["/score/CODE"]).group(1)
    for tail in ("", "?part=1", "/screen", "/screen?part=1"):
        out["watch" + tail] = keeper.get(f"/score/watch/{watch}{tail}").get_data(as_text=True)
    out["names"] = keeper.get(f"/score/join/{join}/names").get_data(as_text=True)
    out["join page"] = keeper.get(f"/score/join/{join}").get_data(as_text=True)
    return {name: normal(text, phones) for name, text in out.items()}

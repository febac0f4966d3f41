"""A helper for the tests of every phone at the table (issue 28): a score sheet, its
keeper's client and one client per joined phone, in the spirit of flaskr's AuthActions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .pages import new_sheet


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
        return step["name"], next(b for b in step["boxes"] if b["key"] == key)

    def enter(self, player: int, key: str, text: Any, *, seen: int | None = None, step=None):
        """Player ``player``'s phone enters box ``key`` (as it saw it unless told)."""
        name, box = self.box(player, key)
        body = {"step": step or name, "key": key, "text": str(text)}
        body["seen"] = box["rev"] if seen is None else seen
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
        box = next(b for b in step["boxes"] if b["key"] == key)
        data = {"step": step["name"], "key": key, "text": str(text)}
        data["seen"] = str(box["rev"] if seen is None else seen)
        return self.keeper.post(f"/score/{self.code}/boxes", data=data)

    def rows(self) -> list[Any]:
        from companion.extensions import db
        from companion.models import ScoreSheet

        with self.app.app_context():
            sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == self.code))
            return [entry.facts for entry in sheet.entries]

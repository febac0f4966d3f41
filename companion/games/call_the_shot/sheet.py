"""Call the Shot score sheet (score mode): one row of facts per duel, totals derived.

A row is ``{"challenger": 0 | 1, "shot": 0 | 1 | None}``: who challenged that duel and who
was shot (``None`` when the revealed values were equal and nobody was). From the rows
:meth:`CallTheShotSheet.summary` derives each player's shots, the next challenger and the
loser: the first player to reach ``shots_to_lose`` (option, default 3, 1 to 9).

:meth:`CallTheShotSheet.check_row` keeps a stored sheet consistent:

* the challenger must alternate from one duel to the next (the first duel's challenger is
  free: the table tossed for it), ties included;
* no duel can follow the one in which somebody lost.

Every :class:`~companion.games.errors.SheetError` names the players by their names and
says the duel (``round``), the player and the field at fault. ``add``, ``replace`` and
``delete`` are the generic ones of :class:`~companion.games.base.Sheet`.

The round form has two boxes: ``challenger`` (a seat) and ``shot`` (a choice: ``"0"``,
``"1"`` or ``"none"`` for a tie).

On a sheet the players joined with their phones (issue 28) a duel is one open step,
``duel``: the challenger (any phone or the keeper) and each player's own box
``hit-<player>`` ("were you shot?", yes or no), which :meth:`read_values` turns into
``shot`` (both "no" is a tie; both "yes" is refused, and the step stays open). The row is
the keeper's, so everything else is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Sheet
from ..errors import SheetError
from ..spec import Field, Step, is_whole
from .spec import SPEC

NOBODY = "none"
YES, NO = "yes", "no"
DUEL = "duel"
DUEL_STEP = Step(DUEL, "duel", ("challenger", "hit"), owner="each")
KEYS = ("challenger", "shot")


def _seat(value: Any) -> bool:
    return is_whole(value) and value in (0, 1)


class CallTheShotSheet(Sheet):
    """The sheet of two named players; option ``shots_to_lose``."""

    spec = SPEC

    @property
    def limit(self) -> int:
        return self.options["shots_to_lose"]

    # -- one duel -------------------------------------------------------------------------

    def check_row(self, index: int, facts: Any, before: list[Any]) -> dict[str, Any]:
        """Duel ``index`` (from 0) checked against the duels ``before`` it."""
        number = index + 1
        a, b = self.names

        def refuse(message: str, **where: Any) -> SheetError:
            return SheetError(f"Duel {number}: {message}", round=number, **where)

        if not isinstance(facts, dict):
            raise refuse("record who challenged and who was shot.")
        unknown = sorted(map(str, set(facts) - set(KEYS)))
        if unknown:
            raise refuse(f"a duel records only the challenger and who was shot, not {unknown}.")
        if "challenger" not in facts:
            raise refuse("say who challenged.", field="challenger")
        if "shot" not in facts:
            raise refuse("say who was shot (or that nobody was).", field="shot")
        challenger, shot = facts["challenger"], facts["shot"]
        if not _seat(challenger):
            raise refuse(f"the challenger must be {a} or {b}.", field="challenger")
        if shot is not None and not _seat(shot):
            raise refuse(f"the player shot must be {a}, {b} or nobody.", field="shot")
        shots = self._shots(before)
        if max(shots) >= self.limit:
            loser = shots.index(max(shots))
            raise refuse(
                f"the game already ended in duel {number - 1}, when {self.names[loser]} took "
                f"shot number {self.limit}.",
                player=loser,
            )
        if before and challenger == before[-1]["challenger"]:
            raise refuse(
                f"{self.names[challenger]} challenged duel {number - 1}, so "
                f"{self.names[1 - challenger]} challenges this one.",
                player=challenger,
                field="challenger",
            )
        return {"challenger": challenger, "shot": shot}

    @staticmethod
    def _shots(rows: list[dict[str, Any]]) -> list[int]:
        shots = [0, 0]
        for row in rows:
            if row["shot"] is not None:
                shots[row["shot"]] += 1
        return shots

    # -- the whole sheet ------------------------------------------------------------------

    def summary(self, rows: list) -> dict[str, Any]:
        """Beside the common block (``totals`` are the shots each player took; fewer is
        better): ``shots_to_lose``, ``loser`` (a seat, None while the game goes on) and
        ``next`` (``{"duel", "challenger", "defaults"}``; ``challenger`` is None before the
        first duel, when the table tosses for it; None once over). Each row holds
        ``duel``, ``challenger``, ``shot`` and ``shots`` (running, per player)."""
        duels = self.check(rows)
        shots = [0, 0]
        done = []
        for number, facts in enumerate(duels, start=1):
            if facts["shot"] is not None:
                shots[facts["shot"]] += 1
            done.append({"duel": number, **facts, "shots": list(shots)})
        loser = next((seat for seat in (0, 1) if shots[seat] >= self.limit), None)
        over = loser is not None
        following = None
        if not over:
            challenger = 1 - duels[-1]["challenger"] if duels else None
            following = {
                "duel": len(duels) + 1,
                "challenger": challenger,
                "defaults": {} if challenger is None else {"challenger": challenger},
            }
        return self.common(
            totals=shots,
            over=over,
            rows=done,
            running=[row["shots"] for row in done],
            winners=[] if loser is None else [1 - loser],
            next=following,
            shots_to_lose=self.limit,
            loser=loser,
        )

    # -- the round form -------------------------------------------------------------------

    def choices(self, field: Field) -> list[tuple[str, str]]:
        if field.name == "shot":
            return [("0", self.names[0]), ("1", self.names[1]), (NOBODY, "Nobody (a tie)")]
        if field.name == "hit":
            return [(YES, "Yes: I took a shot card"), (NO, "No")]
        return []

    # -- on the phones (issue 28): each player records their own shot ------------------

    def open_step(self, done: Sequence[str], boxes: Mapping[str, str]) -> Step | None:
        """On a sheet the players joined, a duel is one step: the challenger (any phone,
        as the table tossed or as the role passed) and each player's own "were you
        shot?" box."""
        return None if DUEL in done else DUEL_STEP

    def step_named(self, name: Any) -> Step | None:
        return DUEL_STEP if name == DUEL else super().step_named(name)

    def read_values(self, form: Mapping[str, str], stage: str | None = None) -> dict[str, Any]:
        """The phones' ``hit-<player>`` answers turned into the form's ``shot``: the one
        who says yes, nobody when both say no (a tie); both yes is refused."""
        hits = {p: str(form.get(f"hit-{p}") or "").strip() for p in (0, 1)}
        if not any(hits.values()):
            return super().read_values(form, stage)
        for p, said in hits.items():
            if said not in (YES, NO):
                raise SheetError(f"{self.names[p]}: say whether you were shot.", field=f"hit-{p}")
        shot = [p for p, said in hits.items() if said == YES]
        if len(shot) == 2:
            raise SheetError(
                "Both players say they were shot, but only the duel's loser takes a shot "
                "card: one of you, change your answer.",
                field="hit-1",
            )
        return super().read_values({**form, "shot": str(shot[0]) if shot else NOBODY}, stage)

    def facts_from_values(self, values: dict[str, Any]) -> dict[str, Any]:
        shot = values["shot"]
        return {"challenger": values["challenger"], "shot": None if shot == NOBODY else int(shot)}

    def values_of(self, facts: Any) -> dict[str, Any]:
        shot = facts["shot"]
        return {"challenger": facts["challenger"], "shot": NOBODY if shot is None else str(shot)}

    def fact_table(self, rows: list, summary: dict[str, Any]) -> dict[str, list]:
        """Per duel: who challenged, who was shot (nobody on a tie), then the shots each
        player has taken so far (fewer is better)."""
        columns = ["Duel", "Challenger", "Shot", *(f"{name} shots taken" for name in self.names)]
        out = [
            [
                row["duel"],
                self.names[row["challenger"]],
                "nobody (a tie)" if row["shot"] is None else self.names[row["shot"]],
                *row["shots"],
            ]
            for row in summary["rows"]
        ]
        return {"columns": columns, "rows": out, "totals": ["Total", "", "", *summary["totals"]]}

    def round_intro(self, summary: dict[str, Any]) -> str:
        """Who challenges the next duel (the table tosses for the first)."""
        nxt = summary.get("next")
        if not nxt:
            return ""
        if nxt["challenger"] is None:
            return "toss for who challenges first"
        return f"{self.names[nxt['challenger']]} challenges"

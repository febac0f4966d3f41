"""PULL! score sheet (score mode): one row of facts per hand, everything else derived.

Sides: with ``teams`` (4 players, the default for 4) side 0 is the 1st and 3rd players
listed, side 1 the 2nd and 4th; otherwise each player is a side. Options are the
engine's (``teams``, ``goal`` or ``hands``, ``max_hands``, ``targets``) plus ``dealer``,
the player who dealt the first hand (default the first listed); see :mod:`.spec`.

A row (one hand) is ``{"sides": [entry per side]}`` where an entry is either

* ``{"rounds": [[target ids taken in round 1], [... round 2], ...]}`` — at most five
  rounds, at most two targets in a round; a side that took both targets of a round took a
  Double, so those two count at their double values. Across all sides a round has at most
  two targets and a target card appears at most once in a hand; or
* ``{"points": int, "fouls": int}`` — a quick entry of the hand's target points (doubles
  already counted) and the number of animals taken.

The round form (:attr:`SPEC.sheet_fields`) asks for ``points-<side>`` and
``fouls-<side>`` (quick entry) or ``target-<round>-<slot>`` with ``taker-<round>-<slot>``
(the targets taken, two slots a round, indices from 0); :meth:`PullSheet.facts_from_values`
turns those into the row above and :meth:`PullSheet.values_of` goes back.

From the rows the sheet derives each side's points, doubles, fouls and running foul
count, the 20-point penalty for every multiple of 5 fouls crossed (5th, 10th, ...),
running totals, who deals each hand and next, and the end of the game (the same rule as
the engine: :func:`rules.game_over`). Every :class:`SheetError` names the sides by their
players' names and says the hand, the player (one-player sides) and the box at fault.
"""

from __future__ import annotations

from typing import Any

from ..errors import SheetError
from ..spec import Field, is_whole
from . import rules
from .joined import JoinedSheet
from .spec import SPEC

ROUNDS = rules.ROUNDS_PER_HAND
MAX_FOULS = 2 * ROUNDS
NOBODY = "nobody"  # a step form's taker of a target nobody took


class PullSheet(JoinedSheet):
    """One PULL! score sheet: named players, teams or not, how the game ends, the first
    dealer and the group's target values."""

    spec = SPEC

    def check_together(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return rules.check_together(players, options)

    def sides(self) -> list[list[int]]:
        return rules.sides_for(self.players, self.options["teams"])

    def _side_player(self, side: int) -> int | None:
        seats = self.sides()[side]
        return seats[0] if len(seats) == 1 else None

    # -- one hand ------------------------------------------------------------------------

    def check_row(self, index: int, facts: Any, before: list[Any]) -> dict[str, Any]:
        """One hand's facts, normalised; :class:`SheetError` names what is wrong."""
        number = index + 1
        if before and self._ended(before):
            raise SheetError(
                f"Hand {number}: the game already ended after hand {number - 1}.", round=number
            )

        def fault(message: str, side: int | None = None, field: str | None = None):
            player = None if side is None else self._side_player(side)
            return SheetError(f"Hand {number}: {message}", round=number, player=player, field=field)

        names = self.side_names()
        if not isinstance(facts, dict) or set(facts) != {"sides"}:
            raise fault('a hand is recorded as {"sides": [one entry per side]}.')
        sides = facts["sides"]
        if not isinstance(sides, list) or len(sides) != len(names):
            raise fault(f"a hand needs one entry for each of the {len(names)} sides.")
        clean: list[dict] = []
        seen: dict[str, str] = {}
        per_round = [0] * ROUNDS
        for s, (name, side) in enumerate(zip(names, sides, strict=True)):
            if not isinstance(side, dict):
                raise fault(f"{name}: record the targets taken, or points and fouls.", s)
            if set(side) == {"points", "fouls"}:
                points, fouls = side["points"], side["fouls"]
                if not is_whole(points) or not -rules.MAX_POINTS <= points <= rules.MAX_POINTS:
                    raise fault(
                        f"{name}: points must be a whole number from {-rules.MAX_POINTS} to "
                        f"{rules.MAX_POINTS}.",
                        s,
                        f"points-{s}",
                    )
                if not is_whole(fouls) or not 0 <= fouls <= MAX_FOULS:
                    raise fault(
                        f"{name}: fouls must be a whole number from 0 to {MAX_FOULS}.",
                        s,
                        f"fouls-{s}",
                    )
                clean.append({"points": points, "fouls": fouls})
                continue
            if set(side) != {"rounds"}:
                raise fault(
                    f'{name}: give either "rounds" (targets taken) or "points" and "fouls".', s
                )
            rounds = side["rounds"]
            if not isinstance(rounds, list) or len(rounds) > ROUNDS:
                raise fault(f"{name}: a hand has at most {ROUNDS} rounds.", s, "target")
            for r, taken in enumerate(rounds):
                where = f"{name}, round {r + 1}"
                if not isinstance(taken, list) or len(taken) > 2:
                    raise fault(f"{where}: a round has only two targets.", s, f"target-{r}-0")
                for card in taken:
                    slot = per_round[r]
                    box = f"target-{r}-{min(slot, 1)}"
                    if slot >= 2:
                        raise fault(
                            f"round {r + 1} has more than two targets taken between the sides.",
                            s,
                            box,
                        )
                    if not rules.is_target(card):
                        raise fault(f"{where}: {card!r} is not a target card.", s, box)
                    if card in seen:
                        raise fault(
                            f"{rules.target_name(card)} is listed twice in this hand "
                            f"({seen[card]} and {where}).",
                            s,
                            box,
                        )
                    seen[card] = where
                    per_round[r] += 1
            clean.append({"rounds": [list(taken) for taken in rounds]})
        self._check_hand(clean, fault)
        return {"sides": clean}

    def _check_hand(self, sides: list[dict], fault) -> None:
        """Quick entries against what the deck allows in one hand: fouls are animal
        targets taken, and points can't pass what the targets in play (values in force)
        can be worth, for each side and for all sides together."""
        table = rules.target_table(self.options["targets"])
        names = self.side_names()
        animals = min(rules.animal_count(table), 2 * ROUNDS)
        alone, together = rules.hand_extremes(table), rules.hand_extremes(table, together=True)
        figures = [_side_hand(side, table)[:2] for side in sides]
        for s, side in enumerate(sides):
            if "points" not in side:
                continue
            points, fouls = figures[s]
            if fouls not in alone:
                raise fault(
                    f"{names[s]}: {fouls} fouls, but only {animals} animal targets can be "
                    "taken in a hand.",
                    s,
                    f"fouls-{s}",
                )
            low, high = alone[fouls]
            if not low <= points <= high:
                raise fault(
                    f"{names[s]}: {points} points can't be taken in one hand with {fouls} "
                    f"foul{'s' if fouls != 1 else ''}; the targets allow {low} to {high}.",
                    s,
                    f"points-{s}",
                )
        quick = [s for s, side in enumerate(sides) if "points" in side]
        if not quick:
            return
        fouls = sum(f for _, f in figures)
        if fouls not in together:
            s = max(reversed(quick), key=lambda s: figures[s][1])
            raise fault(
                f"the fouls add up to {fouls}, but only {animals} animal targets can be "
                "taken in a hand.",
                s,
                f"fouls-{s}",
            )
        points = sum(p for p, _ in figures)
        low, high = together[fouls]
        if not low <= points <= high:
            s = (max if points > high else min)(reversed(quick), key=lambda s: figures[s][0])
            raise fault(
                f"the points add up to {points}, but the ten targets of a hand allow "
                f"{low} to {high} between the sides (with {fouls} "
                f"foul{'s' if fouls != 1 else ''}).",
                s,
                f"points-{s}",
            )

    def _ended(self, rows: list[dict]) -> bool:
        return self._derive(rows)["over"]

    # -- the whole sheet -------------------------------------------------------------------

    def _derive(self, rows: list[dict]) -> dict[str, Any]:
        """Figures of rows already checked: one record per hand, side totals and fouls."""
        table = rules.target_table(self.options["targets"])
        count = len(self.sides())
        totals, fouls = [0] * count, [0] * count
        dealer = self.options["dealer"]
        records: list[dict] = []
        over = False
        for number, row in enumerate(rows, start=1):
            record: dict[str, Any] = {"hand": number, "dealer": dealer, "sides": []}
            for side, facts in enumerate(row["sides"]):
                points, fouled, doubles = _side_hand(facts, table)
                penalty = rules.foul_penalty(fouls[side], fouls[side] + fouled)
                fouls[side] += fouled
                totals[side] += points - penalty
                record["sides"].append(
                    {
                        "points": points,
                        "doubles": doubles,
                        "fouls": fouled,
                        "foul_total": fouls[side],
                        "penalty": penalty,
                        "score": points - penalty,
                        "total": totals[side],
                        "quick": "points" in facts,
                    }
                )
            records.append(record)
            dealer = (dealer + 1) % self.players
            over = rules.game_over(totals, number, self.options)
        return {"rows": records, "totals": totals, "fouls": fouls, "dealer": dealer, "over": over}

    def summary(self, rows: list) -> dict[str, Any]:
        """Every derived figure; raises :class:`SheetError` naming a bad hand.

        Beside the common block (``totals`` per seat: partners show their side's total,
        ``winners`` seats): ``side_totals``, ``fouls`` (running, per side),
        ``winning_sides``, ``hands_played``, ``next_dealer`` (None once over), ``changes``
        (the group's target values: card, label, left and what changed); each row holds
        ``hand``, ``dealer`` and per side ``points``, ``doubles``, ``fouls``,
        ``foul_total``, ``penalty``, ``score``, ``total`` and ``quick``; ``target_rows``
        (the 24 targets with the values in force, for the round step's tap panel).
        """
        derived = self._derive(self.check(rows))
        side_totals, over = derived["totals"], derived["over"]
        sides = self.sides()
        per_seat = [0] * self.players
        for side, seats in enumerate(sides):
            for seat in seats:
                per_seat[seat] = side_totals[side]
        side_of = {seat: side for side, seats in enumerate(sides) for seat in seats}
        winning = rules.winners(side_totals) if over else []
        labels = {row["card"]: row for row in rules.target_rows(self.options["targets"])}
        return self.common(
            totals=per_seat,
            over=over,
            rows=derived["rows"],
            running=[
                [record["sides"][side_of[seat]]["total"] for seat in range(self.players)]
                for record in derived["rows"]
            ],
            winners=[seat for side in winning for seat in sides[side]],
            winning_sides=winning,
            side_totals=side_totals,
            fouls=derived["fouls"],
            hands_played=len(derived["rows"]),
            next_dealer=None if over else derived["dealer"],
            next=None if over else {"hand": len(derived["rows"]) + 1, "dealer": derived["dealer"]},
            target_rows=list(labels.values()),
            changes=[
                {
                    "card": card,
                    "label": labels[card]["label"],
                    "left": labels[card]["left"],
                    **change,
                }
                for card, change in sorted(self.options["targets"].items())
            ],
        )

    # -- the round form --------------------------------------------------------------------

    def choices(self, field: Field) -> list[tuple[str, str]]:
        if field.name in ("target", "took"):
            return [(row["card"], row["label"]) for row in rules.target_rows()]
        if field.name == "second":
            return [(card, rules.shot_name(card)) for card in rules.shot_ids()]
        return []

    def facts_from_values(self, values: dict[str, Any]) -> dict[str, Any]:
        """Typed boxes -> the hand's facts: quick entry (every side's points and fouls) or
        the targets taken, round by round; never both."""
        count = len(self.sides())
        names = self.side_names()
        points, fouls = values["points"], values["fouls"]
        targets, takers = values["target"], values["taker"]
        detailed = any(t is not None for pair in targets for t in pair)
        quick = any(v is not None for v in [*points, *fouls])
        if detailed and quick:
            first = next(
                f"{name}-{s}"
                for s in range(count)
                for name, box in (("points", points), ("fouls", fouls))
                if box[s] is not None
            )
            raise SheetError(
                "Enter either points and fouls, or the targets taken, not both.", field=first
            )
        for r in range(ROUNDS):
            for slot in (0, 1):
                if targets[r][slot] is not None and takers[r][slot] is None:
                    raise SheetError(
                        f"Round {r + 1}: say which side took "
                        f"{rules.target_name(targets[r][slot])}.",
                        field=f"taker-{r}-{slot}",
                    )
                if takers[r][slot] is not None and targets[r][slot] is None:
                    raise SheetError(
                        f"Round {r + 1}: choose the target {names[takers[r][slot]]} took.",
                        field=f"target-{r}-{slot}",
                    )
        if not detailed:
            for s in range(count):
                for name, box, word in (("points", points, "points"), ("fouls", fouls, "fouls")):
                    if box[s] is None:
                        raise SheetError(
                            f"{names[s]}: enter the {word} (0 if none), or the targets taken.",
                            player=self._side_player(s),
                            field=f"{name}-{s}",
                        )
            return {"sides": [{"points": points[s], "fouls": fouls[s]} for s in range(count)]}
        rounds: list[list[list[str]]] = [[[] for _ in range(ROUNDS)] for _ in range(count)]
        for r in range(ROUNDS):
            for slot in (0, 1):
                if targets[r][slot] is not None:
                    rounds[takers[r][slot]][r].append(targets[r][slot])
        # Trailing rounds nobody took a target in are left out.
        last = max((r + 1 for side in rounds for r, got in enumerate(side) if got), default=0)
        return {"sides": [{"rounds": side[:last]} for side in rounds]}

    def values_of(self, facts: Any) -> dict[str, Any]:
        """A stored hand -> the boxes of the round form (to edit it)."""
        count = len(facts["sides"])
        values: dict[str, Any] = {
            "points": [None] * count,
            "fouls": [None] * count,
            "target": [[None, None] for _ in range(ROUNDS)],
            "taker": [[None, None] for _ in range(ROUNDS)],
        }
        for s, side in enumerate(facts["sides"]):
            if "points" in side:
                values["points"][s] = side["points"]
                values["fouls"][s] = side["fouls"]
        for r in range(ROUNDS):
            taken = [
                (card, s)
                for s, side in enumerate(facts["sides"])
                for card in (side["rounds"][r] if r < len(side.get("rounds", [])) else [])
            ]
            for slot, (card, s) in enumerate(taken[:2]):
                values["target"][r][slot] = card
                values["taker"][r][slot] = s
        return values

    # -- step by step: round by round, each target taken by a side or by nobody ---------

    def step_boxes(self, step: Any, form: Any) -> dict[str, str]:
        """A round step's boxes, every target nobody took left out (a hand's facts list
        only the targets taken)."""
        found = super().step_boxes(step, form)
        for key, text in list(found.items()):
            if key.startswith("taker-") and text == NOBODY:
                found.pop(key)
                found.pop("target-" + key.split("-", 1)[1], None)
        return found

    def check_partial(self, index: int, values: dict[str, Any], before: list[Any]) -> None:
        """The targets of the rounds entered so far: each taken by a side, none twice, at
        most two a round (the hand's own rules, on the part entered); on the phones, the
        second shots laid so far, no card twice."""
        self.check_seconds(values)
        if not any(t is not None for pair in values.get("target") or [] for t in pair):
            if before and self._ended(before):
                raise SheetError(
                    f"Hand {index + 1}: the game already ended after hand {index}.",
                    round=index + 1,
                )
            return
        count = len(self.sides())
        full = {"points": [None] * count, "fouls": [None] * count, **values}
        self.check_row(index, self.facts_from_values(full), before)

    def fact_table(self, rows: list, summary: dict[str, Any]) -> dict[str, list]:
        """Per hand: the dealer, then for each side the targets it took round by round
        (or "quick entry"), its target points, doubles, fouls (this hand and so far), the
        foul penalty, the hand's score and the running total."""
        labels = {row["card"]: row for row in summary.get("target_rows") or []}
        facts = ["targets", "points", "doubles", "fouls", "fouls so far", "penalty"]
        facts += ["score", "total"]
        sides = self.side_names()
        columns = ["Hand", "Dealer", *(f"{side} {fact}" for side in sides for fact in facts)]
        out = []
        for facts_of, record in zip(rows, summary["rows"], strict=True):
            line: list[Any] = [record["hand"], self.names[record["dealer"]]]
            for side, figures in zip(facts_of["sides"], record["sides"], strict=True):
                if "points" in side:
                    taken = "quick entry"
                else:
                    taken = "; ".join(
                        f"round {r + 1}: "
                        + " + ".join(
                            labels[card]["label"] if card in labels else card for card in got
                        )
                        + (" (double)" if len(got) == 2 else "")
                        for r, got in enumerate(side["rounds"])
                        if got
                    )
                line += [taken, figures["points"], figures["doubles"], figures["fouls"]]
                line += [figures["foul_total"], figures["penalty"], figures["score"]]
                line.append(figures["total"])
            out.append(line)
        final: list[Any] = ["Total", ""]
        for side in range(len(sides)):
            final += ["", "", "", "", summary["fouls"][side], "", ""]
            final.append(summary["side_totals"][side])
        return {"columns": columns, "rows": out, "totals": final}

    def round_intro(self, summary: dict[str, Any]) -> str:
        nxt = summary.get("next")
        return f"{self.names[nxt['dealer']]} deals" if nxt else ""

    def next_after(self, summary: dict[str, Any], more: int) -> dict[str, Any] | None:
        """The hand ``more`` hands after the next: the deal passes one seat each hand (the
        game may end sooner, on the totals; the sheet refuses a hand after its end)."""
        nxt = summary.get("next")
        if not nxt:
            return None
        return {"hand": nxt["hand"] + more, "dealer": (nxt["dealer"] + more) % self.players}


def _side_hand(side: dict, table: dict) -> tuple[int, int, int]:
    """``(points, fouls, doubles)`` of one side's entry for one hand."""
    if "points" in side:
        return side["points"], side["fouls"], 0
    pile = [{"card": card, "double": len(taken) == 2} for taken in side["rounds"] for card in taken]
    points, fouls = rules.pile_points(pile, table)
    return points, fouls, sum(1 for taken in side["rounds"] if len(taken) == 2)

"""PULL! on a score sheet every player joined with their phone (issue 28).

The steps of a hand on the phones (:meth:`JoinedSheet.open_step`), round by round:

1. ``shots-<n>`` (3 or 4 players) — sealed, owner each: every phone lays its second shot
   face down (box ``second-<r>-<player>``: the shot card, value and suit); nobody else
   sees it, not the keeper nor the shared screen, until every phone is in; then all are
   shown at once. With 2 players the rulebook has the seconds played in turn, face up, so
   nothing is sealed and the step is not asked.
2. ``targets-<n>`` — owner side: each side enters the targets it took this round (boxes
   ``took-<r>-<side>-<k>``, two a side, an empty box for none), on any of its players'
   phones; the keeper may enter or correct any box.

Our reading of what the sheet stores for a second shot: the hand's score depends only on
the targets each side took (a Double when one side took both of a round), so the row
stays exactly what one keeper's form stores, ``{"sides": [{"rounds": ...}]}``, and the
arithmetic is unchanged. What the phone stands in for is the card lying face down: its
value and its suit (the suit settles a tie on the target it lands on), fixed before
anyone sees another's. Which target it lands on needs no box: it is the one the player's
first shot was not on. The seconds are kept with the round in progress and shown in the
reveal; when the hand is added they are dropped with the rest of the boxes, as the cards
are gathered. A shot card is dealt to one player only, so the same card can't be a
second shot twice in a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Sheet
from ..errors import SheetError
from ..spec import Step, field_key
from . import rules

ROUNDS = rules.ROUNDS_PER_HAND
SHOTS, TARGETS, ROUND = "shots", "targets", "round"
SEALED_FROM = 3  # players: with 2 the seconds are played in turn, face up


def _parts(name: Any) -> tuple[str, int] | None:
    """``("shots", 2)`` for ``"shots-3"`` (the round index from 0); None otherwise."""
    kind, _, number = str(name).rpartition("-")
    if kind in (SHOTS, TARGETS, ROUND) and number.isdigit() and 1 <= int(number) <= ROUNDS:
        return kind, int(number) - 1
    return None


def _as_declared(done: Sequence[str]) -> list[str]:
    """The steps done, a phones' targets step named as the declared round step it
    stands for (``targets-2`` -> ``round-2``); the sealed shots steps as they are."""
    out = []
    for name in done:
        parts = _parts(name)
        out.append(f"{ROUND}-{parts[1] + 1}" if parts and parts[0] == TARGETS else name)
    return out


class JoinedSheet(Sheet):
    """PULL!'s hooks for the phones; :class:`~.sheet.PullSheet` builds on it."""

    def sealed_seconds(self) -> bool:
        return self.players >= SEALED_FROM

    def shots_step(self, r: int) -> Step:
        label = f"round {r + 1} second shots"
        return Step(f"{SHOTS}-{r + 1}", label, (f"second-{r}",), sealed=True, owner="each")

    def targets_step(self, r: int) -> Step:
        return Step(f"{TARGETS}-{r + 1}", f"round {r + 1} targets", (f"took-{r}",), owner="side")

    def open_step(self, done: Sequence[str], boxes: Mapping[str, str]) -> Step | None:
        """The round's sealed second shots (3-4 players), then each side's targets; a
        round the keeper saved with the step form is done as it is."""
        declared = set(_as_declared(done))
        for r in range(ROUNDS):
            if f"{ROUND}-{r + 1}" in declared:
                continue
            if self.sealed_seconds() and f"{SHOTS}-{r + 1}" not in declared:
                return self.shots_step(r)
            return self.targets_step(r)
        return None

    def next_step(self, done: Sequence[str]) -> Step | None:
        return super().next_step(_as_declared(done))

    def step_named(self, name: Any) -> Step | None:
        parts = _parts(name)
        if parts is None or parts[0] == ROUND:
            return super().step_named(name)
        kind, r = parts
        if kind == SHOTS:
            return self.shots_step(r) if self.sealed_seconds() else None
        return self.targets_step(r)

    def box_label(self, step: Step, key: str) -> str:
        name, *index = key.split("-")
        if name != "took" or len(index) != 3:
            return super().box_label(step, key)
        side = self.side_names()[int(index[1])]
        return f"{side}: {'a target' if index[2] == '0' else 'a second target (a Double)'} taken"

    # -- the phones' boxes turned into the round form's ----------------------------------

    def from_phones(self, form: Mapping[str, str]) -> dict[str, str]:
        """``form`` with each side's ``took`` boxes turned into the round form's slots
        (``target-<r>-<slot>`` and ``taker-<r>-<slot>``), in the sides' order; more than
        two targets in a round is refused at the first box too many."""
        out = dict(form)
        sides = len(self.sides())
        for r in range(ROUNDS):
            taken = [
                (key, str(form[key]).strip(), s)
                for s in range(sides)
                for k in (0, 1)
                if str(form.get(key := field_key("took", r, s, k)) or "").strip()
            ]
            for slot, (key, card, s) in enumerate(taken):
                if slot >= 2:
                    raise SheetError(
                        f"Round {r + 1}: only two targets fly in a round, and the sides "
                        f"entered {len(taken)}.",
                        field=key,
                    )
                out[field_key("target", r, slot)] = card
                out[field_key("taker", r, slot)] = str(s)
        return out

    def check_step(self, rows: list, boxes: Mapping[str, str], done: Sequence[str]) -> None:
        super().check_step(rows, self.from_phones(boxes), _as_declared(done))

    def read_values(self, form: Mapping[str, str], stage: str | None = None) -> dict[str, Any]:
        return super().read_values(self.from_phones(form), stage)

    def check_seconds(self, values: Mapping[str, Any]) -> None:
        """No shot card is a second shot twice in a hand (each card is in one hand)."""
        seen: dict[str, int] = {}
        for r, shots in enumerate(values.get("second") or []):
            for player, card in enumerate(shots):
                if card is None:
                    continue
                if card in seen:
                    raise SheetError(
                        f"{rules.shot_name(card)} was already a second shot in round "
                        f"{seen[card] + 1}: each shot card is played once in a hand.",
                        field=field_key("second", r, player),
                    )
                seen[card] = r

"""Presenters: what each score page's template reads, built from a use case's
:class:`~.book.State` in one place, so a view only picks the page and renders it.

:class:`SheetPage` is a sheet as its pages (the sheet, edit, delete and watch pages) show
it; :class:`StepEntry` the round in progress of a game entered step by step;
:func:`listed` one line of the recent sheets; :func:`repair_args` the repair page.
The figures themselves come from the game's ``Sheet.summary``; the words from
:mod:`.cells`, the chart from :mod:`.show`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from werkzeug.datastructures import MultiDict

from ..games import Game, IllegalAction
from ..games.base import Sheet
from ..games.spec import Spec
from ..models import ScoreChange, ScoreSheet
from . import show
from .book import State, state_of
from .boxes import joined
from .cells import round_cells, step_lines, stored_facts
from .entry import next_round_form, stamp, step_form
from .errors import BrokenSheet
from .forms import ChangeForm, ConfirmForm, RoundForm
from .rounds import has_choose
from .stops import redo_stop, undo_stop


@dataclass
class StepEntry:
    """The round in progress: the ``step`` to enter and its ``form``, the ``pending``
    round, the steps ``saved`` so far in words, whether this step is the ``last``, the
    heading (``prompt``) and the round's ``number``."""

    step: Any
    form: RoundForm
    pending: dict[str, Any]
    saved: list[dict[str, Any]]
    last: bool
    prompt: str
    number: int


@dataclass
class SheetPage:
    """A sheet as its pages show it. ``keeping`` False (the read-only share page) leaves
    out the change forms, whose CSRF token would start a session."""

    state: State
    keeping: bool = True

    @property
    def sheet(self) -> ScoreSheet:
        return self.state.sheet

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def spec(self) -> Spec:
        return self.state.game.spec

    @property
    def keeper(self) -> Sheet:
        return self.state.keeper

    @property
    def rows(self) -> list[Any]:
        return self.state.rows

    @cached_property
    def summary(self) -> dict[str, Any]:
        """The sheet's figures; on a sheet the players joined, as no single player sees
        them (``Sheet.seen_by``: a game's hidden totals are None until the game is over)."""
        if joined(self.sheet):
            return self.keeper.seen_by(self.state.summary, None)
        return self.state.summary

    @property
    def word(self) -> str:
        return self.state.word

    @cached_property
    def chart(self) -> dict[str, Any] | None:
        return show.chart(self.summary)

    @cached_property
    def last_change(self) -> ScoreChange | None:
        return self.state.last_done()

    @cached_property
    def redo_change(self) -> ScoreChange | None:
        return self.state.first_undone()

    def steps(self, wanted: str | None = None, form: RoundForm | None = None) -> StepEntry | None:
        """The round in progress: the step to enter (the next one, or ``wanted`` when it is
        a saved step to correct), its form (``form`` when given) and the steps saved."""
        keeper = self.keeper
        if not keeper.spec.sheet_steps or self.state.over:
            return None
        pending = self.state.pending
        if joined(self.sheet):  # the steps as the phones enter them
            step = keeper.open_step(pending["done"], pending["boxes"])
        else:
            step = keeper.next_step(pending["done"])
        if wanted in pending["done"]:
            step = keeper.step_named(wanted)
        if form is None:
            form = step_form(keeper, step, pending, self.summary)
        number = len(self.rows) + 1
        intro = keeper.round_intro(self.summary)
        prompt = f"{self.word.capitalize()} {number}: enter the {step.label}"
        return StepEntry(
            step=step,
            form=form,
            pending=pending,
            saved=step_lines(keeper, pending),
            last=keeper.next_step([*pending["done"], step.name]) is None,
            prompt=prompt + (f" — {intro}" if intro else ""),
            number=number,
        )

    def ahead(self, most: int = 12) -> list[dict[str, Any]]:
        """The rounds after the next one as a phone with rounds waiting to be sent enters
        them (``static/js/score.js``), while the game can tell them from the number of
        rounds alone (:meth:`Sheet.next_after`): each one's position, heading and the
        ``summary`` and ``form`` its boxes are drawn from."""
        out = []
        for more in range(1, most + 1):
            nxt = self.keeper.next_after(self.summary, more)
            if nxt is None:
                break
            summary = {**self.summary, "next": nxt}
            position = len(self.rows) + more
            form, _ = next_round_form(self.keeper, summary, MultiDict(), position)
            intro = self.keeper.round_intro(summary)
            heading = f"Enter {self.word} {position + 1}" + (f" — {intro}" if intro else "")
            out.append({"position": position, "heading": heading, "summary": summary, "form": form})
        return out

    def args(self) -> dict[str, Any]:
        """The names the sheet's templates (and the games' ``sheet_*.html``) read."""
        return {
            "sheet": self.sheet,
            "spec": self.spec,
            "keeper": self.keeper,
            "names": self.sheet.players,
            "rows": self.rows,
            "summary": self.summary,
            "cells": round_cells(self.keeper, self.rows, self.summary),
            "chart": self.chart,
            "over": self.state.over,
            "word": self.word,
            "Word": self.word.capitalize(),
            "has_choose": has_choose(self.keeper),
            "last_change": self.last_change,
            "undo_stop": undo_stop(self.state, self.last_change),
            "redo_change": self.redo_change,
            "redo_stop": redo_stop(self.state, self.redo_change),
            "change_form": ChangeForm() if self.keeping else None,
        }


def listed(state: State) -> dict[str, Any]:
    """One line of the recent sheets: rounds in the game's own word, finished or not, and
    who won."""
    word, count = state.word, len(state.rows)
    try:
        summary = state.summary
    except IllegalAction:  # a sheet that no longer replays is listed, not judged
        summary = {"over": False, "winners": [], "players": state.sheet.players}
    return {
        "sheet": state.sheet,
        "rounds": f"{count} {word if count == 1 else word + 's'}",
        "over": summary["over"],
        "winners": [summary["players"][seat] for seat in summary["winners"]],
    }


def repair_args(error: BrokenSheet) -> dict[str, Any]:
    """The repair page of a sheet whose stored rounds do not replay: the offending round
    in words and the form that removes it (checked by position and fingerprint)."""
    state = state_of(error.sheet, replayed=False)
    rows, keeper, word = state.rows, state.keeper, state.word
    form = ConfirmForm()
    if rows:
        stamp(form, error.index, rows[error.index])
    else:
        form.position.data = str(error.index)
    return {
        "sheet": state.sheet,
        "spec": state.game.spec,
        "names": state.sheet.players,
        "keeper": keeper,
        "number": error.index + 1,
        "message": error.message,
        "facts": stored_facts(keeper, rows[error.index]) if rows else [],
        "word": word,
        "Word": word.capitalize(),
        "form": form,
    }

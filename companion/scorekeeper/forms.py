"""Score-mode forms (Flask-WTF, CSRF on every POST).

The forms parse what a phone sends into the facts a game's sheet module expects; the rules
themselves (hand sizes, alternation, tricks adding up ...) are checked by the sheet module
only, so the app and the engines can never disagree. Forms whose fields depend on the
sheet (one field per player or per side) are built by small factory functions.
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..games.pull import rules as pull_rules
from ..pull_form import (
    NUMBER,
    PullEndFields,
    WholeNumberField,
    add_target_fields,
    pull_options,
    pull_targets,
)
from .adapters import pirate_cards, pirate_counted, pirate_predicting

NAME_LENGTH = 24


class SeatList(FieldList):
    """One entry per seat, always numbered 0 to n-1 (``max_entries``).

    A plain FieldList numbers its entries by the indices found in the post, so a box the
    browser leaves out (an unticked checkbox) would shift the later seats' values onto the
    wrong players; here each value stays with its own seat.
    """

    def _extract_indices(self, prefix, formdata):
        return iter(range(self.max_entries))


def clean_name(value: Any) -> str:
    """A player name: surrounding and repeated spaces removed."""
    return " ".join(str(value or "").split())


class VersionedForm(FlaskForm):
    """Every change carries where it applies and what the page showed (stale check)."""

    position = HiddenField()
    version = HiddenField()


class ConfirmForm(VersionedForm):
    """Delete a round / undo the last one: nothing but the CSRF token and the version."""


class OpenForm(FlaskForm):
    class Meta:
        csrf = False  # a GET form that only looks a sheet up

    code = StringField("Sheet code", validators=[InputRequired(), Length(max=32)])


# -- new sheet ----------------------------------------------------------------------------


class NewSheetForm(FlaskForm):
    """Player names; each game's form adds its options (see :func:`new_sheet_form`)."""

    min_players = 2

    def validate_players(self, field):
        names = [clean_name(entry.data) for entry in field.entries]
        names = [name for name in names if name]
        if len(names) < self.min_players:
            raise ValidationError(f"Enter at least {self.min_players} player names.")
        seen = set()
        for name in names:
            if len(name) > NAME_LENGTH:
                raise ValidationError(f"A name can be at most {NAME_LENGTH} characters.")
            if name.casefold() in seen:
                raise ValidationError(f"Two players are called {name}: give each a different name.")
            seen.add(name.casefold())

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        dealer = getattr(self, "dealer", None)
        if ok and dealer is not None and int(dealer.data) >= len(self.names()):
            dealer.errors = ["Choose one of the players listed as the first dealer."]
            ok = False
        return ok

    def names(self) -> list[str]:
        names = [clean_name(entry.data) for entry in self.players.entries]
        return [name for name in names if name]

    def options(self) -> dict[str, Any]:
        return {}


def _dealer_field():
    return SelectField(
        "First dealer",
        choices=[],  # filled in by the factory: one per listed player
        default="0",
    )


class ShootNewForm(NewSheetForm):
    schedule = RadioField(
        "Hand sizes",
        choices=[
            SelectChoice("down", "10 cards down to 1 (10 deals)"),
            SelectChoice("updown", "1 card up to 10 and back down to 1 (19 deals)"),
        ],
        default="down",
    )
    chips = BooleanField("Play for chips (50 each into the pot)")
    dealer = _dealer_field()

    def options(self):
        if self.schedule.data == "updown":
            schedule = [*range(1, 11), *range(9, 0, -1)]
        else:
            schedule = list(range(10, 0, -1))
        return {
            "schedule": schedule,
            "chips": bool(self.chips.data),
            "dealer": int(self.dealer.data),
        }


class CallTheShotNewForm(NewSheetForm):
    shots_to_lose = WholeNumberField(
        "Shots that lose the game",
        default=3,
        validators=[InputRequired(NUMBER), NumberRange(1, 9)],
    )

    def options(self):
        return {"shots_to_lose": self.shots_to_lose.data}


class PullNewForm(PullEndFields, NewSheetForm):
    """Teams or individuals, how the game ends (shared), the first dealer and the target
    values (shared: :mod:`companion.pull_form`)."""

    play = RadioField(
        "Play as",
        choices=[
            SelectChoice("teams", "Two teams (4 players, partners sit across)"),
            SelectChoice("solo", "Individuals"),
        ],
        default="solo",
    )
    dealer = _dealer_field()

    def options(self):
        return {
            "teams": self.play.data == "teams",
            "dealer": int(self.dealer.data),
            **pull_options(self),
        }


class PirateTricksNewForm(NewSheetForm):
    rounds = RadioField(
        "Rounds",
        choices=[
            SelectChoice("3", "3 rounds"),
            SelectChoice("4", "4 rounds"),
            SelectChoice("5", "5 rounds"),
        ],
        default="3",
    )

    def options(self):
        return {"rounds": int(self.rounds.data)}


NEW_FORMS = {
    "shoot": ShootNewForm,
    "call_the_shot": CallTheShotNewForm,
    "pull": PullNewForm,
    "pirate_tricks": PirateTricksNewForm,
}


def new_sheet_form(adapter, **kwargs) -> NewSheetForm:
    """The new-sheet form of a game: as many name fields as it allows players."""
    base = NEW_FORMS[adapter.slug]
    attrs = {
        "min_players": adapter.min_players,
        "players": SeatList(
            StringField("Name", validators=[Length(max=200)]),
            min_entries=adapter.max_players,
            max_entries=adapter.max_players,
        ),
    }
    cls = type(f"{base.__name__}Bound", (base,), attrs)
    if adapter.slug == "pull":
        add_target_fields(cls)
    form = cls(**kwargs)
    if hasattr(form, "dealer"):
        form.dealer.choices = [
            SelectChoice(str(seat), f"the {_ordinal(seat + 1)} player listed")
            for seat in range(adapter.max_players)
        ]
    return form


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# -- one round ----------------------------------------------------------------------------


class RoundForm(VersionedForm):
    """A round's facts; subclasses turn their fields into the sheet's entry and back."""

    def entry(self) -> dict[str, Any]:
        raise NotImplementedError

    def fill(self, entry: dict[str, Any]) -> None:
        raise NotImplementedError

    def sheet_error(self, error) -> bool:
        """Put a sheet error next to the field it names; False if it names none."""
        return False


class ShootRoundForm(RoundForm):
    def entry(self):
        return {
            "bids": [field.data for field in self.bids],
            "tricks": [field.data for field in self.tricks],
        }

    def fill(self, entry):
        for field, value in zip(self.bids, entry["bids"], strict=True):
            field.data = value
        for field, value in zip(self.tricks, entry["tricks"], strict=True):
            field.data = value

    def sheet_error(self, error) -> bool:
        field, player = getattr(error, "field", None), getattr(error, "player", None)
        if field in ("bids", "tricks") and player is not None and player < len(self[field]):
            self[field][player].errors = [*self[field][player].errors, error.message]
            return True
        return False


class CallTheShotRoundForm(RoundForm):
    challenger = RadioField("Who challenged?", choices=[], validators=[InputRequired()])
    shot = RadioField("Who was shot?", choices=[], validators=[InputRequired()])

    def entry(self):
        return {
            "challenger": int(self.challenger.data),
            "shot": None if self.shot.data == "none" else int(self.shot.data),
        }

    def fill(self, entry):
        self.challenger.data = str(entry["challenger"])
        self.shot.data = "none" if entry["shot"] is None else str(entry["shot"])

    def sheet_error(self, error) -> bool:
        message = error.message
        if "challenge" in message:
            self.challenger.errors = [*self.challenger.errors, message]
            return True
        return False


class PullRoundForm(RoundForm):
    """Quick entry (points and fouls per side) or, optionally, the targets each side took."""

    sides_count = 2

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if not ok:
            return False
        detailed = self._detailed()
        quick = [
            (self[f"points_{s}"].data, self[f"fouls_{s}"].data) for s in range(self.sides_count)
        ]
        any_quick = any(p is not None or f is not None for p, f in quick)
        if detailed and any_quick:
            self.form_errors.append(
                "Enter either points and fouls, or the targets taken, not both."
            )
            return False
        if not detailed:
            for s, (points, fouls) in enumerate(quick):
                if points is None:
                    self[f"points_{s}"].errors = ["Enter the points (0 if none)."]
                    ok = False
                if fouls is None:
                    self[f"fouls_{s}"].errors = ["Enter the fouls (0 if none)."]
                    ok = False
        for number in range(1, pull_rules.ROUNDS_PER_HAND + 1):
            for slot in (0, 1):
                target, taker = self[f"target_{number}_{slot}"], self[f"taker_{number}_{slot}"]
                if target.data and taker.data == "":
                    taker.errors = ["Say which side took this target."]
                    ok = False
                if taker.data != "" and not target.data:
                    target.errors = ["Choose the target that was taken."]
                    ok = False
        return ok

    def _detailed(self) -> bool:
        return any(
            self[f"target_{number}_{slot}"].data
            for number in range(1, pull_rules.ROUNDS_PER_HAND + 1)
            for slot in (0, 1)
        )

    def entry(self):
        if not self._detailed():
            return {
                "sides": [
                    {"points": self[f"points_{s}"].data, "fouls": self[f"fouls_{s}"].data}
                    for s in range(self.sides_count)
                ]
            }
        rounds: list[list[list[str]]] = [[] for _ in range(self.sides_count)]
        for number in range(1, pull_rules.ROUNDS_PER_HAND + 1):
            taken: list[list[str]] = [[] for _ in range(self.sides_count)]
            for slot in (0, 1):
                target = self[f"target_{number}_{slot}"].data
                if target:
                    taken[int(self[f"taker_{number}_{slot}"].data)].append(target)
            for side in range(self.sides_count):
                rounds[side].append(taken[side])
        # Trailing rounds nobody took a target in are left out.
        last = max(
            (i + 1 for side in rounds for i, got in enumerate(side) if got),
            default=0,
        )
        return {"sides": [{"rounds": side[:last]} for side in rounds]}

    def fill(self, entry):
        for s, side in enumerate(entry["sides"]):
            if "points" in side:
                self[f"points_{s}"].data = side["points"]
                self[f"fouls_{s}"].data = side["fouls"]
        slots: dict[int, int] = {}
        for s, side in enumerate(entry["sides"]):
            for number, taken in enumerate(side.get("rounds", []), start=1):
                for card in taken:
                    slot = slots.get(number, 0)
                    if slot > 1:
                        continue
                    slots[number] = slot + 1
                    self[f"target_{number}_{slot}"].data = card
                    self[f"taker_{number}_{slot}"].data = str(s)


PIRATE_CARD_FIELDS = ("recruitment_1", "recruitment_2", "treasure", "capture")
PIRATE_COUNTS = 4  # count boxes per player: enough for a treasure and a capture card
PIRATE_FIELDS = {  # the sheet's field name -> this form's field
    "bid": "bids",
    "row_loon": "row_loons",
    "recruitment": "recruitments",
    "shown": "recruitments",
    "prediction": "predictions",
    "tricks": "tricks",
    "counts": "count_0",
    "captured": "count_0",
}


class PirateTricksRoundForm(RoundForm):
    """The round's four score cards, then each player's ledger facts.

    Which boxes a player fills depends on the cards (a prediction only under a prediction
    card; one count for each effect that counts captured cards), so without JavaScript the
    cards are chosen first (a GET form) and the players' facts entered second.
    """

    options: dict[str, Any] = {}

    def card_ids(self) -> list[str]:
        return [self[name].data or "" for name in PIRATE_CARD_FIELDS]

    def cards_chosen(self) -> bool:
        return all(self.card_ids())

    def counted(self) -> list[dict[str, Any]]:
        return pirate_counted(self.options, self.card_ids()[2:])

    def predicting(self) -> bool:
        return pirate_predicting(self.options, self.card_ids()[2:])

    def entry(self):
        ids = self.card_ids()
        counted = self.counted()
        predicting = self.predicting()
        players = []
        for p in range(len(self.bids)):
            entry: dict[str, Any] = {
                "bid": self.bids[p].data,
                "row_loon": 2 if self.row_loons[p].data else 0,
                "recruitment": self.recruitments[p].data,
                "tricks": self.tricks[p].data,
            }
            if predicting:
                entry["prediction"] = self.predictions[p].data
            counts: dict[str, list] = {}
            for k, count in enumerate(counted):
                counts.setdefault(count["card"], []).append(self[f"count_{k}"][p].data)
            # A card whose counts are all left empty: the sheet asks for them (or, for a
            # player without a trick, knows they are 0).
            entry["counts"] = {
                card: values
                for card, values in counts.items()
                if any(v is not None for v in values)
            }
            players.append(entry)
        return {
            "cards": {"recruitment": ids[:2], "treasure": ids[2], "capture": ids[3]},
            "players": players,
        }

    def fill(self, entry):
        cards = entry["cards"]
        self.recruitment_1.data, self.recruitment_2.data = cards["recruitment"]
        self.treasure.data, self.capture.data = cards["treasure"], cards["capture"]
        self.fill_players(entry)

    def fill_players(self, entry):
        """The players' facts of a stored round (counts only for the cards they belong to)."""
        counted = self.counted()
        for p, facts in enumerate(entry["players"]):
            self.bids[p].data = facts.get("bid", 0)
            self.row_loons[p].data = facts.get("row_loon", 0) == 2
            self.recruitments[p].data = facts.get("recruitment")
            self.tricks[p].data = facts.get("tricks")
            self.predictions[p].data = facts.get("prediction")
            counts = facts.get("counts") or {}
            for k, count in enumerate(counted):
                values = counts.get(count["card"])
                if values is not None and count["slot"] < len(values):
                    self[f"count_{k}"][p].data = values[count["slot"]]

    def sheet_error(self, error) -> bool:
        field = PIRATE_FIELDS.get(getattr(error, "field", None) or "")
        player = getattr(error, "player", None)
        if field and player is not None and player < len(self[field]):
            self[field][player].errors = [*self[field][player].errors, error.message]
            return True
        return False


def _players_list(field, n: int) -> SeatList:
    return SeatList(field, min_entries=n, max_entries=n)


def round_form(
    slug: str, names: list[str], summary: dict[str, Any], options: dict | None = None, **kwargs
) -> RoundForm:
    """The round form of a sheet, with one field per player or side."""
    if slug == "shoot":
        n = len(names)
        attrs = {
            "bids": _players_list(WholeNumberField("Bid", validators=[InputRequired(NUMBER)]), n),
            "tricks": _players_list(
                WholeNumberField("Tricks", validators=[InputRequired(NUMBER)]), n
            ),
        }
        return type("ShootRoundFormBound", (ShootRoundForm,), attrs)(**kwargs)
    if slug == "call_the_shot":
        form = CallTheShotRoundForm(**kwargs)
        form.challenger.choices = [SelectChoice("0", names[0]), SelectChoice("1", names[1])]
        form.shot.choices = [
            SelectChoice("0", names[0]),
            SelectChoice("1", names[1]),
            SelectChoice("none", "Nobody (a tie)"),
        ]
        return form
    if slug == "pull":
        sides = summary["side_names"]
        attrs: dict[str, Any] = {"sides_count": len(sides)}
        for s in range(len(sides)):
            attrs[f"points_{s}"] = WholeNumberField(
                "Points", validators=[Optional(), NumberRange(-10_000, 10_000)]
            )
            attrs[f"fouls_{s}"] = WholeNumberField(
                "Fouls", validators=[Optional(), NumberRange(0, 2 * pull_rules.ROUNDS_PER_HAND)]
            )
        targets = [SelectChoice("", "—")]
        targets += [SelectChoice(t["id"], t["label"]) for t in pull_targets()]
        takers = [SelectChoice("", "—")]
        takers += [SelectChoice(str(s), name) for s, name in enumerate(sides)]
        for number in range(1, pull_rules.ROUNDS_PER_HAND + 1):
            for slot in (0, 1):
                # Not checked against the list here: the sheet names an unknown target.
                attrs[f"target_{number}_{slot}"] = SelectField(
                    f"Round {number}, target {slot + 1}",
                    choices=targets,
                    default="",
                    validate_choice=False,
                )
                attrs[f"taker_{number}_{slot}"] = SelectField(
                    "taken by", choices=takers, default=""
                )
        return type("PullRoundFormBound", (PullRoundForm,), attrs)(**kwargs)
    if slug == "pirate_tricks":
        n = len(names)
        attrs = {
            "bids": _players_list(WholeNumberField("Bid", validators=[InputRequired(NUMBER)]), n),
            "row_loons": _players_list(BooleanField("Took a row with 2 loon on it"), n),
            "recruitments": _players_list(
                WholeNumberField("Recruitment", validators=[InputRequired(NUMBER)]), n
            ),
            "predictions": _players_list(
                WholeNumberField("Prediction", validators=[Optional()]), n
            ),
            "tricks": _players_list(
                WholeNumberField("Tricks", validators=[InputRequired(NUMBER)]), n
            ),
        }
        for k in range(PIRATE_COUNTS):
            attrs[f"count_{k}"] = _players_list(
                WholeNumberField("Count", validators=[Optional()]), n
            )
        cards = pirate_cards(options)
        for name in PIRATE_CARD_FIELDS:
            deck = "recruitment" if name.startswith("recruitment") else name
            choices = [SelectChoice("", "— choose —")]
            choices += [SelectChoice(c["id"], c["name"]) for c in cards[deck]]
            # Not checked against the list here: the sheet names an unknown card.
            attrs[name] = SelectField(
                f"{deck.capitalize()} card", choices=choices, default="", validate_choice=False
            )
        form = type("PirateTricksRoundFormBound", (PirateTricksRoundForm,), attrs)(**kwargs)
        form.options = options or {}
        return form
    raise KeyError(slug)

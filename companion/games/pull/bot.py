"""The PULL! bot: shoots to take the clays worth having and to lose the animals.

Every player shoots once at each of the round's two targets (the first shot on one, the
second on the other), so the easy player weighs each legal shot by what it is likely to
take: the target's worth (between its left and double value, an animal also costs a share
of the foul penalty) times the chance the shot wins it, given the shots already there and
the opponents still to shoot at it, plus the best it can then do with its second shot on
the other target, minus a little for spending a high card (every card of the hand is
shot by the end of the hand, but an 8 is better kept for a 10-point clay).

For the searches, :meth:`PullBot.sample` deals the unseen shots (other hands, sealed
picks, the unused shots) and the unseen targets at random, keeping every public fact: the
shots of this hand's finished rounds, the shots on the table, and the suits a seat showed
it lacks by a first shot off both targets' suits; a sealed pick already made is the one the
easy player would make from the cards dealt to that seat. The strong level weighs worlds by
how well they explain this round's first shots (:meth:`PullBot.weight`); normal and strong
try only the easy player's best few moves (:meth:`PullBot.candidates`), expert every legal
shot (:attr:`PullBot.every_action`). A playout runs to the end of the hand, on the
engine's integer cards and action ids (:meth:`PullBot.rollout_id`: the easy player's
choice, no view built); in the normal level's playouts the other seats shoot a random
legal shot half the time (:attr:`PullBot.others_noise`), as players unlike the easy one
would.
"""

from __future__ import annotations

import json
from typing import Any

from companion.bots import GameBot

from . import rules
from .deck import (
    CANCELLED,
    DISTRACTION,
    SHOT,
    SHOT_INDEX,
    SHOT_SUIT,
    SHOT_VALUE,
    SUIT_IDS,
    TARGET,
    TARGET_INDEX,
    TARGET_SUIT,
)
from .engine import ACTION_IDS, ANY_TARGET, MATCHING, OVER, SECOND, SECONDS

FOUL_SHARE = rules.FOUL_PENALTY / rules.FOUL_STEP  # what one more foul costs, on average
CARD_COST = 0.45  # points a shot's value is worth keeping for a later round, per value
DISTRACTION_COST = 1.5  # a 1 is worth keeping too: it cancels the others' 8s
CANDIDATES = 6  # moves the searches try (the easy player's best), see PullBot.candidates
UNLIKE_EASY = 0.4  # a world where a seat's first shot is not the easy one: see PullBot.weight


def worth(left: int, double: int, animal: bool) -> float:
    """What taking a target is worth to a side, roughly: between its left and double
    values (a Double is not rare), an animal also a share of the foul penalty."""
    return (left + double) / 2 - (FOUL_SHARE if animal else 0.0)


def card_cost(card: str) -> float:
    value = rules.shot_value(card)
    return DISTRACTION_COST if value == rules.DISTRACTION else CARD_COST * value


def beaten(value: int, matching: bool) -> float:
    """The chance that one more opponent's shot beats a winning shot of ``value``."""
    chance = 0.9 * (8 - value) / 8
    if value == rules.CANCELLED:
        chance += 0.12  # a Distraction cancels it
    if not matching:
        chance += 0.03  # the same value of the target's suit
    return min(chance, 1.0)


# The same figures by the engine's integer cards (deck.py): no id is parsed in a playout.
CARD_COSTS = tuple(card_cost(card) for card in SHOT)
#: HOLDS[value][matching]: the chance one more opponent's shot does not beat the winner.
HOLDS = tuple((1.0 - beaten(value, False), 1.0 - beaten(value, True)) for value in range(9))
_WORTHS: dict[str, tuple[float, ...]] = {}


def worths_of(changes: dict | None) -> tuple[float, ...]:
    """:func:`worth` of every target (by index) with a table's changes to house values."""
    key = json.dumps(changes or {}, sort_keys=True)
    found = _WORTHS.get(key)
    if found is None:
        table = rules.target_table(changes or {})
        found = tuple(
            worth(table[t]["left"], table[t]["double"], table[t]["animal"]) for t in TARGET
        )
        if len(_WORTHS) < 256:
            _WORTHS[key] = found
    return found


DEFAULT_WORTHS = worths_of({})
SUIT_NUMBER = {suit: i for i, suit in enumerate(SUIT_IDS)}


def _tie_winner(tied: list, suit: int, side_of: list[int]) -> tuple | None:
    """Who takes a target among the shots ``tied`` for highest (see :func:`deck.winner`)."""
    if len(tied) == 1:
        return tied[0]
    for shot in tied:
        if SHOT_SUIT[shot[1]] == suit:
            return shot
    side = side_of[tied[0][0]]
    return tied[0] if all(side_of[s] == side for s, _ in tied) else None


def gains(
    target: int, shots: list, seat: int, hand: list[int], side_of: list[int], worth_: float
) -> dict[int, float]:
    """Card -> what shooting it at ``target`` is likely to gain: ``worth_`` times the
    chance that ``seat``'s side takes the target once the card joins ``shots`` (nothing
    if it is not ahead then, else the chance that no opponent still to shoot at the
    target, everyone shooting once at each, beats the winning shot), less the card's
    cost. Integer cards; :func:`deck.winner` decides, worked out once for the shots there
    and then card by card (a playout asks this for every card of every hand)."""
    side = side_of[seat]
    shot_at = {s for s, _ in shots}
    shot_at.add(seat)
    pending = sum(1 for s, other in enumerate(side_of) if other != side and s not in shot_at)
    suit = TARGET_SUIT[target]
    values = [SHOT_VALUE[card] for _, card in shots]
    has_one, has_eight = DISTRACTION in values, CANCELLED in values
    # The shots already there, with the 8s cancelled (True) or not: highest value, the
    # shots at it, and who would take the target without another shot.
    summary = {}
    for cancel in (False, True) if has_one or has_eight else (False,):
        live = [
            (shot, v) for shot, v in zip(shots, values, strict=True) if not cancel or v != CANCELLED
        ]
        best = max((v for _, v in live), default=0)
        tied = [tuple(shot) for shot, v in live if v == best]
        summary[cancel] = (best, tied, _tie_winner(tied, suit, side_of) if tied else None)
    out = {}
    for card in hand:
        value = SHOT_VALUE[card]
        cancel = (has_one or value == DISTRACTION) and (has_eight or value == CANCELLED)
        best, tied, taking = summary[cancel]
        if not (cancel and value == CANCELLED):  # the card itself counts
            if value > best:
                taking = (seat, card)
            elif value == best:
                taking = _tie_winner([*tied, (seat, card)], suit, side_of)
        if taking is None or side_of[taking[0]] != side:
            chance = 0.0
        else:
            top = taking[1]
            chance = HOLDS[SHOT_VALUE[top]][SHOT_SUIT[top] == suit] ** pending
        out[card] = worth_ * chance - CARD_COSTS[card]
    return out


def scores(
    hand: list[int],
    legal: list[int],
    targets: list[int],
    worths: tuple[float, ...],
    shots: list[list],
    seat: int,
    side_of: list[int],
    second_on: int | None,
) -> list[float]:
    """The expected gain of each of the ``legal`` ids (engine.ACTION_IDS), by which the
    easy player chooses (see the module doc). Integer cards; ``second_on`` is the target
    a second shot goes on (None for a first shot)."""
    if second_on is not None:
        target = targets[second_on]
        gain = gains(target, shots[second_on], seat, hand, side_of, worths[target])
        return [gain[i - SECONDS] for i in legal]
    on = [gains(t, shots[i], seat, hand, side_of, worths[t]) for i, t in enumerate(targets)]
    # The best second shot at each target from this hand (the two best, in case the first
    # shot uses the best one).
    follow = [sorted(((g, card) for card, g in gain.items()), reverse=True)[:2] for gain in on]
    out = []
    for i in legal:
        card, t = i >> 1, i & 1
        after = next((g for g, c in follow[1 - t] if c != card), 0.0)
        out.append(on[t][card] + after)
    return out


def choose(
    hand: list[int],
    legal: list[int],
    targets: list[int],
    worths: tuple[float, ...],
    shots: list[list],
    seat: int,
    side_of: list[int],
    second_on: int | None,
) -> int:
    """The easy move among the ``legal`` ids: the first with the best :func:`scores`."""
    if len(legal) == 1:
        return legal[0]
    gain = scores(hand, legal, targets, worths, shots, seat, side_of, second_on)
    return legal[max(range(len(legal)), key=gain.__getitem__)]


def action_id(action: dict) -> int:
    """The id of one of the legal actions a view's seat was offered."""
    card = SHOT_INDEX[action["card"]]
    return SECONDS + card if action["type"] == "second" else 2 * card + action["target"]


def first_shots(targets_view: list[dict]) -> dict[int, int]:
    """Seat -> the target index of its first shot this round, from the view's targets."""
    return {
        shot["seat"]: t
        for t, target in enumerate(targets_view)
        for shot in target["shots"]
        if not shot["second"]
    }


def lacking(view: dict[str, Any]) -> list[set[str]]:
    """The suits each seat has shown it lacks this round: a first shot matching neither
    target's suit means it held neither (and the first shot only takes cards out)."""
    found: list[set[str]] = [set() for _ in range(view["players"])]
    targets = view["targets"]
    if len(targets) != 2:
        return found
    suits = {target["suit"] for target in targets}
    for target in targets:
        for shot in target["shots"]:
            if not shot["second"] and shot["suit"] not in suits:
                found[shot["seat"]].update(suits)
    return found


class PullBot(GameBot):
    bench = {"players": 3, "options": {"hands": 2}}
    #: What each level was measured to do (bench/README.md), shown on the Play page.
    strength = {
        "easy": "Rules of thumb: wins 8 games in 10 against two random players.",
        "normal": "A quick look ahead: a little ahead of easy against random players, "
        "and ahead of two easy bots (wins 39 games in 100).",
        "strong": "Thinks up to 0.4 s a move: wins 42 games in 100 against two normal "
        "bots, where an even share is 33.",
        "expert": "Strong's search with 8 times the time, trying every shot; at 4 times "
        "strong's time it is about 3 points a game ahead of two strong bots.",
    }
    #: Normal overrules the easy move only for a gain of more than this many points over
    #: the hand: its means on a few dozen worlds are noisy, and a small apparent gain is as
    #: often a loss against players unlike its worlds' (bench/README.md: 8 with 48 worlds
    #: and noise 0.5; with 4 it played level with easy against random players).
    easy_margin = 8.0
    #: Normal samples 48 worlds, not 4 (a PULL! playout is short: 45 ms CPU a decision at
    #: p50): with 4 or 12 its means were too noisy to overrule the easy move well.
    iterations_scale = {"normal": 12}
    #: Half the other seats' moves in normal's playouts are random: with easy players only,
    #: its worlds counted on sensible answers, and it gained nothing on easy against random
    #: players (bench/README.md). Strong and expert keep worlds of easy players.
    others_noise = {"normal": 0.5}
    #: Expert tries every legal shot, not the easy player's best 6: more worlds of the
    #: same 6 bought it nothing, and with 4 times strong's time it affords the rest.
    every_action = ("expert",)

    def should_act(self, view):
        return not view.get("over") and view["seat"] in view["to_act"]

    # -- the easy player -----------------------------------------------------------------

    _view_memo: tuple | None = None

    def _memo(self, view, key: str, make) -> Any:
        """``make(view)``, kept while the searches ask about the same view object (the
        samples and weights of one decision). Read-only for the caller."""
        memo = self._view_memo
        if memo is None or memo[0] is not view:
            memo = self._view_memo = (view, {})
        found = memo[1].get(key)
        if found is None:
            found = memo[1][key] = make(view)
        return found

    def easy(self, view, legal, rng):
        ids = [action_id(action) for action in legal]
        return legal[ids.index(choose(legal=ids, **self._situation(view)))]

    def candidates(self, view, legal, rng):
        """The :data:`CANDIDATES` moves the easy player ranks best (all when there are no
        more), in the legal list's order: the searches try each on more worlds than they
        could afford for every card of a hand."""
        self._view_memo = None  # a new decision: nothing kept from an earlier view
        if len(legal) <= CANDIDATES:
            return legal
        ids = [action_id(action) for action in legal]
        gain = scores(legal=ids, **self._memo(view, "situation", self._situation))
        best = sorted(range(len(legal)), key=lambda i: -gain[i])[:CANDIDATES]
        return [legal[i] for i in sorted(best)]

    def weight(self, view, world):
        """How well the world explains this round's first shots by the other seats: each
        one the easy player would not have shot from its hand in this world (the hand it
        had then: today's, the first shot and any second shot) makes the world
        :data:`UNLIKE_EASY` times as likely. Seats are people or other bots, so a
        mismatch only makes a world less likely, never impossible."""
        targets_view = view["targets"]
        if view["phase"] == OVER or len(targets_view) != 2:
            return 1.0
        n, seat = view["players"], view["seat"]
        first: dict[int, tuple[int, int]] = {}  # seat -> (target, card) of its first shot
        later: dict[int, int] = {}  # seat -> its second shot, if placed
        for t, target in enumerate(targets_view):
            for shot in target["shots"]:
                card = SHOT_INDEX[shot["card"]]
                if shot["second"]:
                    later[shot["seat"]] = card
                else:
                    first[shot["seat"]] = (t, card)
        if all(s == seat for s in first):  # nobody else has shot yet
            return 1.0
        hands, sealed = world["state"]["hands"], world["state"]["sealed"]
        situation = dict(self._memo(view, "situation", self._situation))
        targets = situation["targets"]
        matching = MATCHING[TARGET_SUIT[targets[0]]][TARGET_SUIT[targets[1]]]
        before: list[list] = [[], []]
        likely = 1.0
        for k in range(n):
            s = (view["holder"] + k) % n
            if s not in first:
                break
            t, card = first[s]
            if s != seat:
                had = [SHOT_INDEX[c] for c in hands[s]] + [card]
                if s in later:
                    had.append(later[s])
                elif sealed[s] is not None:
                    had.append(SHOT_INDEX[sealed[s]])
                had.sort()
                legal = [i for c in had for i in matching[c]] or [
                    i for c in had for i in ANY_TARGET[c]
                ]
                situation.update(hand=had, shots=before, seat=s, second_on=None)
                if choose(legal=legal, **situation) != 2 * card + t:
                    likely *= UNLIKE_EASY
            before[t].append([s, card])
        return likely

    @staticmethod
    def _situation(view) -> dict[str, Any]:
        """The arguments of :func:`choose` / :func:`scores` but ``legal``, from a view."""
        seat = view["seat"]
        changes = {
            c["card"]: {k: c[k] for k in rules.OVERRIDABLE if k in c}
            for c in view["target_changes"]
        }
        side_of = [0] * view["players"]
        for side, seats in enumerate(view["sides"]):
            for s in seats:
                side_of[s] = side
        second_on = None
        if view["phase"] == SECOND:
            second_on = 1 - first_shots(view["targets"])[seat]
        return {
            "hand": [SHOT_INDEX[card] for card in view["hand"]],
            "targets": [TARGET_INDEX[target["card"]] for target in view["targets"]],
            "worths": worths_of(changes),
            "shots": [
                [[s["seat"], SHOT_INDEX[s["card"]]] for s in target["shots"]]
                for target in view["targets"]
            ],
            "seat": seat,
            "side_of": side_of,
            "second_on": second_on,
        }

    def rollout_id(self, state, seat, rng):
        """The easy player's move reading the sampled world's integer cards directly (no
        view, no dict): the same choice as :meth:`easy` on that world's view."""
        changes = state.options["targets"]
        worths = worths_of(changes) if changes else DEFAULT_WORTHS
        second_on = None
        if state.phase == SECOND:
            second_on = 1 - state.first_target[seat]
        legal = state.legal_ids(seat)
        if len(legal) == 1:
            return legal[0]
        hand = state.hands[seat]
        return choose(
            hand, legal, state.targets, worths, state.shots, seat, state.side_of, second_on
        )

    def rollout(self, state, seat, rng):
        """:meth:`rollout_id`'s move as its action (a fresh dict)."""
        return ACTION_IDS.action_of(self.rollout_id(state, seat, rng))

    # -- the searches' worlds ------------------------------------------------------------

    def sample(self, view, rng):
        """A world for the searches: the unseen shots dealt at random to the other hands
        (none of a suit a seat showed it lacks this round), and a sealed pick already made
        chosen from that seat's dealt cards as the easy player would choose it; the unused
        shots and the unseen targets shuffled."""
        facts = self._memo(view, "sample", self._sample_facts)
        n, seat, pool = facts["players"], facts["seat"], facts["pool"]
        held = self._deal(pool, facts["sizes"], facts["lacks"], rng)
        situation = self._memo(view, "situation", self._situation)
        picked, second_on = view["picked"], facts["second_on"]
        hands: list[list[str]] = []
        sealed: list[str | None] = []
        for s in range(n):
            if s == seat:
                hands.append(list(view["hand"]))
                sealed.append(view["my_second"])
                continue
            cards = sorted(held[s])
            pick = None
            if picked[s]:
                legal = [SECONDS + card for card in cards]
                chosen = choose(
                    cards,
                    legal,
                    situation["targets"],
                    situation["worths"],
                    situation["shots"],
                    s,
                    situation["side_of"],
                    second_on[s],
                )
                pick = chosen - SECONDS
                cards.remove(pick)
            hands.append([SHOT[card] for card in cards])
            sealed.append(None if pick is None else SHOT[pick])
        dealt = {card for cards in held for card in cards}
        unused = [SHOT[card] for card in pool if card not in dealt]
        rng.shuffle(unused)
        deck = list(facts["deck"])
        rng.shuffle(deck)
        if view["phase"] == OVER:
            deck = []
        state = dict(facts["state"])
        state.update(
            seed=rng.getrandbits(52),
            log=[],
            hands=hands,
            unused=unused,
            target_deck=deck,
            sealed=sealed,
        )
        return {"game": "pull", "state": state}

    @staticmethod
    def _sample_facts(view) -> dict[str, Any]:
        """What every world of one view shares (see :meth:`sample`); the snapshot's
        shared parts are copied when a world is loaded."""
        n = view["players"]
        seat = view["seat"]
        targets_view = view["targets"]
        seen = {SHOT_INDEX[card] for card in view["hand"]}
        seen.update(SHOT_INDEX[card] for card in view["played"])
        seen.update(SHOT_INDEX[s["card"]] for t in targets_view for s in t["shots"])
        if view["my_second"] is not None:
            seen.add(SHOT_INDEX[view["my_second"]])
        picked = view["picked"]
        first_target: list[int | None] = [None] * n
        for s, t in first_shots(targets_view).items():
            first_target[s] = t
        known_targets = {t["card"] for t in targets_view}
        known_targets.update(entry["card"] for pile in view["piles"] for entry in pile)
        known_targets.update(view["void_targets"])
        over = view["phase"] == OVER
        pile_fouls = [sum(1 for e in pile if e["animal"]) for pile in view["piles"]]
        side_of = [0] * n
        for side, seats in enumerate(view["sides"]):
            for s in seats:
                side_of[s] = side
        changes = {
            c["card"]: {k: c[k] for k in rules.OVERRIDABLE if k in c}
            for c in view["target_changes"]
        }
        state = {
            "players": n,
            "options": {
                "teams": view["teams"],
                "goal": view["goal"],
                "hands": view["hands_to_play"],
                "max_hands": view["max_hands"],
                "targets": changes,
            },
            "seed": None,
            "deal": None,
            "log": [],
            "side_of": side_of,
            "totals": list(view["side_scores"]),
            "fouls": [
                f if over else f - pf for f, pf in zip(view["fouls"], pile_fouls, strict=True)
            ],
            "history": view["history"],
            "last_round": view["last_round"],
            "hand_no": view["hand_no"],
            "dealer": view["dealer"],
            "hands": None,
            "unused": None,
            "target_deck": None,
            "piles": [
                [{"card": e["card"], "double": e["double"], "round": e["round"]} for e in pile]
                for pile in view["piles"]
            ],
            "void": list(view["void_targets"]),
            "shot_discards": list(view["played"]),
            "round_no": view["round"],
            "holder": view["holder"],
            "targets": [t["card"] for t in targets_view],
            "phase": view["phase"],
            "shots": [[[s["seat"], s["card"]] for s in t["shots"]] for t in targets_view],
            "first_target": first_target,
            "sealed": None,
        }
        return {
            "players": n,
            "seat": seat,
            # Cards each other seat holds: its hand and, in a sealed step, its pick.
            "pool": [card for card in range(len(SHOT)) if card not in seen],
            "sizes": [
                view["hand_sizes"][s] + (1 if picked[s] else 0) if s != seat else 0
                for s in range(n)
            ],
            "lacks": [{SUIT_NUMBER[suit] for suit in suits} for suits in lacking(view)],
            "second_on": [None if t is None else 1 - t for t in first_target],
            "deck": [card for card in TARGET if card not in known_targets],
            "state": state,
        }

    @staticmethod
    def _deal(pool: list[int], sizes: list[int], lacks: list[set[int]], rng) -> list[list[int]]:
        """``sizes[s]`` cards of ``pool`` for each seat, none of a suit it showed it lacks
        (seats with the most such suits first; a rare dead end deals again)."""
        order = sorted(range(len(sizes)), key=lambda s: (-len(lacks[s]), s))
        for _attempt in range(100):
            left = list(pool)
            rng.shuffle(left)
            held: list[list[int]] = [[] for _ in sizes]
            for s in order:
                size = sizes[s]
                if not size:
                    continue
                lack = lacks[s]
                if lack:
                    fits = [c for c in left if SHOT_SUIT[c] not in lack]
                    if len(fits) < size:
                        break
                    held[s] = fits[:size]
                    taken = set(held[s])
                    left = [c for c in left if c not in taken]
                else:
                    held[s] = left[:size]
                    left = left[size:]
            else:
                return held
        raise RuntimeError("no deal fits the suits shown lacking")  # pragma: no cover

    # -- the playout's horizon -----------------------------------------------------------

    def actor(self, state):
        to_act = state.to_act()
        return to_act[0] if to_act else None

    def done(self, start, state):
        return state.is_over() or state.hand_no != start["hand_no"]

    def value(self, state, seat):
        """The seat's side total ahead of the other sides' mean (hands score at their end:
        the horizon), or its own total alone with :attr:`payoff` "own"."""
        scores = state.scores()
        if self.payoff == "own":
            return float(scores[seat])
        mine = next(side for side in state.sides() if seat in side)
        others = [score for s, score in enumerate(scores) if s not in mine]
        return scores[seat] - sum(others) / len(others)


BOT = PullBot()

"""The bots of every game that has one (``companion/games/<slug>/bot.py``), generically.

- ``sample`` builds a world the seat cannot tell from the real one: the same view and the
  same legal actions (and the game's conservation check holds in it);
- honesty: ``decide`` gives the same action, at every level and with the same seed, in the
  real state and in one whose hidden parts differ (``perturb(state, seat, rng)`` in the
  game's ``tests/games/<slug>/checks.py``), in every phase met in play;
- every level plays complete games of every player count with legal actions only (short
  games from the checks' ``bot_options(players)`` and small search budgets).
"""

from __future__ import annotations

import random

import pytest

from companion import bots
from companion.bots import LEVELS, bot_for, decide, has_bot, search, should_act
from companion.games import GAMES
from tests import fifth_game
from tests.games.test_sweep import checks_of

# small budgets: reproducible iteration counts, no time cap
BUDGET = {level: {"iterations": 4, "seconds": 1e9} for level in ("normal", "strong", "expert")}
BOT_GAMES = [slug for slug, game in GAMES.items() if has_bot(game)]
CASES = [
    pytest.param(slug, players, id=f"{slug}-{players}")
    for slug in BOT_GAMES
    for players in range(GAMES[slug].min_players, GAMES[slug].max_players + 1)
]


def options_for(slug, players):
    checks = checks_of(slug)
    hook = getattr(checks, "bot_options", None)
    return hook(players) if hook else None


def next_mover(game, state):
    """The first seat with a move to make (a bot's turn), failing if the game is stuck."""
    for seat in state.to_act():
        if should_act(game, state.view(seat)):
            return seat
    raise AssertionError(f"nobody wants to act, yet {state.to_act()} may: a stuck game")


def first_choice(game, players, seed):
    """A new game's first position where the seat to move has more than one legal action
    (the others take their first): (state, seat, legal)."""
    state = game.new_state(players, options_for(game.slug, players), seed=seed)
    for _ in range(200):
        seat = next_mover(game, state)
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            return state, seat, legal
        state.apply(seat, legal[0])
    raise AssertionError("no choice in 200 moves")


def play(game, players, levels, seed, options=None, visit=None):
    """A complete game with seat ``s`` played at ``levels[s]``; ``visit(state, seat)`` is
    called before each decision. Returns the final state."""
    state = game.new_state(players, options, seed=seed)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    for _ in range(5000):
        if state.is_over():
            return state
        seat = next_mover(game, state)
        if visit is not None:
            visit(state, seat)
        view, legal = state.view(seat), state.legal_actions(seat)
        level = levels[seat]
        action = decide(game, view, legal, level, rngs[seat], BUDGET.get(level))
        assert action in legal
        state.apply(seat, action)  # raises IllegalAction for an illegal move
    raise AssertionError("the game did not end")


def positions(slug, players, count=2):
    """(state, seat) pairs met while easy bots play ``count`` games: every decision."""
    game = GAMES[slug]
    found = []
    for seed in range(count):
        play(
            game,
            players,
            ["easy"] * players,
            seed,
            options_for(slug, players),
            lambda state, seat: found.append((game.state_from_dict(state.to_dict()), seat)),
        )
    return found


def test_there_are_bots():
    assert BOT_GAMES, "no game has a bot"


def test_decide_refuses_what_it_cannot_do():
    slug = BOT_GAMES[0]
    game = GAMES[slug]
    state = game.new_state(game.min_players, options_for(slug, game.min_players), seed=1)
    seat = next_mover(game, state)
    view, legal = state.view(seat), state.legal_actions(seat)
    with pytest.raises(ValueError, match="Unknown bot level"):
        decide(game, view, legal, "genius", random.Random(1))
    with pytest.raises(ValueError, match="no legal action"):
        decide(game, view, [], "easy", random.Random(1))
    assert not has_bot(fifth_game.GAME)
    with pytest.raises(ValueError, match="has no bot"):
        decide(fifth_game.GAME, {}, [{"type": "x"}], "easy", random.Random(1))


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_samples_cannot_be_told_from_the_real_state(slug, players):
    game = GAMES[slug]
    bot = bot_for(game)
    checks = checks_of(slug)
    rng = random.Random(players)
    for state, seat in positions(slug, players):
        view = state.view(seat)
        for _ in range(3):
            world = game.state_from_dict(bot.sample(view, rng))
            assert world.view(seat) == view
            assert world.legal_actions(seat) == state.legal_actions(seat)
            if hasattr(checks, "conservation_check"):
                checks.conservation_check(world)


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_decisions_depend_on_the_view_only(slug, players):
    game = GAMES[slug]
    checks = checks_of(slug)
    assert hasattr(checks, "perturb"), f"tests/games/{slug}/checks.py needs perturb()"
    rng = random.Random(100 + players)
    differed = 0
    for index, (state, seat) in enumerate(positions(slug, players, count=1)):
        twin = game.state_from_dict(checks.perturb(state, seat, rng))
        view = state.view(seat)
        assert twin.view(seat) == view, "perturb() changed what the seat sees"
        differed += twin.to_dict() != state.to_dict()
        legal = state.legal_actions(seat)
        assert twin.legal_actions(seat) == legal
        for level in LEVELS:
            if level != "easy" and index % 3:
                continue  # the searches on every third position: enough, and quick
            budget = BUDGET.get(level)
            mine = decide(game, view, legal, level, random.Random(index), budget)
            theirs = decide(game, twin.view(seat), legal, level, random.Random(index), budget)
            assert mine == theirs, f"{level} decided differently on hidden information"
    assert differed, "perturb() never changed any hidden information"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("slug", "players"), CASES)
def test_every_level_plays_complete_games(slug, players, level):
    game = GAMES[slug]
    levels = [level] * players
    final = play(game, players, levels, seed=players, options=options_for(slug, players))
    assert final.is_over() and final.to_act() == []


def test_budgets_are_in_the_config_and_a_budget_bounds_the_search(app, monkeypatch):
    from companion import bots

    assert app.config["BOT_BUDGETS"] == bots.BUDGETS
    assert app.config["BOT_BUDGETS"] is not bots.BUDGETS, "the app's copy is its own"
    # the budget given is the one used: count the worlds sampled
    slug = BOT_GAMES[0]
    game = GAMES[slug]
    bot = bot_for(game)
    state = game.new_state(game.min_players, options_for(slug, game.min_players), seed=3)
    seat = next_mover(game, state)
    calls = []
    real = bot.sample
    monkeypatch.setattr(bot, "sample", lambda view, rng: calls.append(1) or real(view, rng))
    monkeypatch.setattr(bot, "iterations_scale", {})  # as the budget says (scale: below)
    view, legal = state.view(seat), state.legal_actions(seat)
    decide(game, view, legal, "normal", random.Random(1), {"iterations": 7, "seconds": 1e9})
    assert len(calls) == 7


# -- the searches on a toy game: one pick, then a payoff drawn from the sampled world -----


class _ToyState:
    """A world where the deciding seat (0) picks a number and is paid ``payoff[pick]``
    plus the luck of its playout (drawn from the playout's rng)."""

    slug = "toy"
    table = None

    @classmethod
    def ids(cls):
        return cls.table

    def __init__(self, world):
        self.payoff = list(world["payoff"])
        self.luck = world.get("luck", 0.0)
        self.picked = None
        self.value = None

    def apply_id(self, seat, action_id):
        if self.picked is None:
            self.picked = action_id
        else:
            self.value = self.payoff[self.picked] + self.luck * action_id

    def is_over(self):
        return self.value is not None


class _ToyGame:
    slug = "toy"
    state_class = _ToyState

    def __init__(self, actions):
        from companion.games.base import ActionIds

        _ToyState.table = ActionIds([{"type": "pick", "n": n} for n in range(actions)])
        self.tried = []

    def state_from_dict(self, world):
        return _ToyState(world)


class _ToyBot:
    """Worlds from a list in turn; each playout is one luck draw from the playout's rng."""

    easy_margin = 0.0  # normal plays its best mean (GameBot's default)

    def __init__(self, game, worlds, weights=None):
        self.game, self.worlds, self.weights = game, worlds, weights
        self.drawn = 0
        self.tries = []

    def sample(self, view, rng):
        world = self.worlds[self.drawn % len(self.worlds)]
        self.drawn += 1
        return world

    def weight(self, view, world):
        return world.get("weight", 1.0)

    def done(self, start, state):
        return state.is_over()

    def actor(self, state):
        return 0

    def rollout_id(self, state, seat, rng):
        self.tries.append(state.picked)
        return rng.randrange(100)

    def value(self, state, seat):
        return state.value


def _toy_search(level, worlds, actions, iterations, seconds=1e9, seed=7, **more):
    game = _ToyGame(actions)
    bot = _ToyBot(game, worlds)
    legal = [game.state_class.table.action_of(n) for n in range(actions)]
    run = search.monte_carlo if level == "normal" else search.halving
    limits = {"iterations": iterations, "seconds": seconds, **more}
    choice = run(bot, game, {"seat": 0}, legal, random.Random(seed), limits)
    return choice["n"], bot


def test_strong_spends_its_playouts_on_the_contenders():
    # action n pays n / 10: the best (7) and its neighbours get far more playouts than the
    # worst, which drop out after the first round; normal spreads them evenly
    worlds = [{"payoff": [n / 10 for n in range(8)]}]
    choice, bot = _toy_search("strong", worlds, 8, iterations=8)
    assert choice == 7
    assert bot.tries.count(7) >= 3 * bot.tries.count(0) > 0
    assert len(bot.tries) <= 8 * 8  # the budget: iterations worlds' worth for every action
    choice, bot = _toy_search("normal", worlds, 8, iterations=8)
    assert choice == 7 and bot.tries.count(7) == bot.tries.count(0) == 8


def test_strong_compares_actions_on_common_random_numbers():
    # the playouts' luck (up to +-4.95) dwarfs the 0.1 between the actions: only the same
    # luck for every action of a world tells them apart on few worlds
    worlds = [{"payoff": [0.0, 0.1], "luck": 0.1}]
    assert all(_toy_search("strong", worlds, 2, iterations=3, seed=s)[0] == 1 for s in range(20))


def test_normal_with_noisy_others_compares_actions_on_common_random_numbers():
    # a budget's noise makes the playouts draw random numbers for the others' moves:
    # normal then gives every action of a world the same ones, as strong does (without
    # noise it keeps its one stream, and 0.1 is lost in the luck on three worlds)
    worlds = [{"payoff": [0.0, 0.1], "luck": 0.1}]
    picks = [_toy_search("normal", worlds, 2, iterations=3, seed=s, noise=0.5) for s in range(20)]
    assert all(choice == 1 for choice, _ in picks)
    plain = [_toy_search("normal", worlds, 2, iterations=3, seed=s)[0] for s in range(20)]
    assert 0 in plain


def test_strong_weighs_the_worlds_it_samples():
    # action 0 is better in the likely worlds; action 1 wins big in an unlikely one
    likely = {"payoff": [1.0, 0.0], "weight": 1.0}
    unlikely = {"payoff": [0.0, 50.0], "weight": 0.001}
    assert _toy_search("strong", [likely, unlikely], 2, iterations=10)[0] == 0
    assert _toy_search("normal", [likely, unlikely], 2, iterations=10)[0] == 1


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_time_cap_is_read_after_every_playout(level, monkeypatch):
    from companion.bots import search

    ticks = iter(range(10_000))
    monkeypatch.setattr(search, "CLOCK", lambda: float(next(ticks)))
    worlds = [{"payoff": [n / 10 for n in range(8)]}]
    # a clock that moves one second per reading and a cap of 3.5 s: a handful of playouts,
    # not the first world's eight (the cap was read between worlds only)
    _, bot = _toy_search(level, worlds, 8, iterations=100, seconds=3.5)
    assert 1 <= len(bot.tries) <= 4


def test_strong_stops_once_its_choice_is_settled():
    from companion.bots import search

    # two actions 1.0 apart, each playout's luck within +-0.495: after SETTLE_WORLDS worlds
    # the lead is dozens of standard errors; without a time cap and with a count it would
    # never reach, strong stops within one look (SETTLE_EVERY worlds) of the first chance
    worlds = [{"payoff": [0.0, 1.0], "luck": 0.01}]
    choice, bot = _toy_search("strong", worlds, 2, iterations=1_000_000)
    assert choice == 1
    most = 2 * (search.SETTLE_WORLDS + search.SETTLE_EVERY)
    assert 2 * search.SETTLE_WORLDS <= len(bot.tries) <= most
    # a close race is not settled so soon: 0.01 apart under the same luck, it runs on
    # (it stops at its count here)
    worlds = [{"payoff": [0.0, 0.01], "luck": 0.01}]
    _, bot = _toy_search("strong", worlds, 2, iterations=400)
    assert len(bot.tries) > 10 * most


def test_a_search_told_not_to_settle_runs_to_its_count():
    # the clear lead that settles within a few dozen worlds above, with settle 0 (the
    # expert level's limits): every one of the 400 worlds is played, for both actions
    worlds = [{"payoff": [0.0, 1.0], "luck": 0.01}]
    choice, bot = _toy_search("strong", worlds, 2, iterations=400, settle=0)
    assert choice == 1
    assert len(bot.tries) == 2 * 400


def test_ismcts_settles_only_when_its_budget_lets_it(monkeypatch):
    game = GAMES["call_the_shot"]
    bot = bot_for(game)
    state, seat, legal = first_choice(game, 2, seed=5)
    view = state.view(seat)
    monkeypatch.setattr(search, "settled", lambda arms, alive: alive[0])  # always settled
    sampled = []
    real_sample = bot.sample
    monkeypatch.setattr(bot, "sample", lambda v, rng: sampled.append(1) or real_sample(v, rng))
    for settle, worlds in ((1, search.SETTLE_EVERY), (0, 40)):
        sampled.clear()
        limits = {"iterations": 40, "seconds": 1e9, "settle": settle}
        search.ismcts(bot, game, view, legal, random.Random(2), limits)
        assert len(sampled) == worlds


@pytest.mark.parametrize("slug", BOT_GAMES)
def test_expert_thinks_its_whole_time_and_strong_may_stop_early(slug, monkeypatch):
    """decide hands expert's search limits that forbid the settled stop, strong's allow
    it; a budget given to decide may say otherwise."""
    game = GAMES[slug]
    bot = bot_for(game)
    state = game.new_state(game.min_players, options_for(slug, game.min_players), seed=3)
    seat = next_mover(game, state)
    view, legal = state.view(seat), state.legal_actions(seat)
    seen = {}

    def spy(bot, game, view, tried, rng, limits):
        seen[level] = search.settles(limits)
        return tried[0]

    monkeypatch.setitem(bots.STRONG, bot.strong_search, spy)
    monkeypatch.setattr(bot, "candidates", lambda view, legal, rng: legal)
    for level in ("strong", "expert"):
        decide(game, view, legal, level, random.Random(1), {"iterations": 4})
    assert seen == {"strong": True, "expert": False}
    level = "expert"
    decide(game, view, legal, level, random.Random(1), {"settle": 1})
    assert seen["expert"] is True


def test_a_single_candidate_is_played_without_searching(monkeypatch):
    slug = "pirate_tricks" if "pirate_tricks" in BOT_GAMES else BOT_GAMES[0]
    game = GAMES[slug]
    bot = bot_for(game)
    state = game.new_state(game.min_players, options_for(slug, game.min_players), seed=3)
    seat = next_mover(game, state)
    view, legal = state.view(seat), state.legal_actions(seat)
    assert len(legal) > 1
    monkeypatch.setattr(bot, "candidates", lambda view, legal, rng: legal[-1:])
    monkeypatch.setattr(bot, "sample", lambda view, rng: pytest.fail("searched"))
    for level in ("normal", "strong"):
        assert decide(game, view, legal, level, random.Random(1)) == legal[-1]


@pytest.mark.parametrize("slug", BOT_GAMES)
def test_a_world_hands_out_fresh_copies_of_the_loaded_state(slug):
    from companion.bots.search import World

    game = GAMES[slug]
    bot = bot_for(game)
    players = bot.bench.get("players", game.min_players)
    rng = random.Random(5)
    found = positions(slug, players, count=1)
    for state, seat in found[:: max(1, len(found) // 12)]:
        snapshot = bot.sample(state.view(seat), rng)
        world = World(game, snapshot)
        assert world.frozen is not None, "the searches load this game's worlds the slow way"
        one, two = world.fresh(), world.fresh()
        assert type(one) is type(game.state_from_dict(snapshot))
        assert one.__dict__ == game.state_from_dict(snapshot).__dict__
        one.apply_id(seat, one.legal_ids(seat)[-1])
        assert two.__dict__ == game.state_from_dict(snapshot).__dict__, "copies share data"


def test_strong_reaches_its_last_rounds_when_time_is_short(monkeypatch):
    from companion.bots import search

    ticks = iter(range(10_000))
    monkeypatch.setattr(search, "CLOCK", lambda: float(next(ticks)))
    worlds = [{"payoff": [n / 10 for n in range(8)]}]
    # a playout costs a second on this clock and 60 s allow some 50 of the 8000 planned:
    # the rounds share what the time affords, so the contenders still get the most tries
    choice, bot = _toy_search("strong", worlds, 8, iterations=1000, seconds=60)
    assert choice == 7
    assert len(bot.tries) <= 60
    assert bot.tries.count(7) >= 3 * bot.tries.count(0) > 0


@pytest.mark.parametrize("slug", BOT_GAMES)
def test_the_strong_level_runs_the_search_its_game_names(slug, monkeypatch):
    """A bot's ``strong_search`` picks the strong level's search (Call the Shot keeps the
    tree over its later calls; the others halve over the root's actions)."""
    import companion.bots as bots

    game = GAMES[slug]
    bot = bot_for(game)
    assert bot.strong_search in bots.STRONG
    called = []
    for name in bots.STRONG:
        monkeypatch.setitem(
            bots.STRONG,
            name,
            lambda b, g, v, legal, r, lim, name=name: called.append(name) or legal[0],
        )
    state = game.new_state(game.min_players, options_for(slug, game.min_players), seed=5)
    for _ in range(200):
        seat = next_mover(game, state)
        legal = state.legal_actions(seat)
        if len(bot.candidates(state.view(seat), legal, random.Random(1))) > 1:
            break
        state.apply(seat, legal[0])
    decide(game, state.view(seat), legal, "strong", random.Random(1))
    assert called == [bot.strong_search]
    if slug == "call_the_shot":
        assert bot.strong_search == "ismcts"


def _scribble(value) -> None:
    """Change every list and dict inside ``value`` in place (what a careless reader of a
    view might do)."""
    if isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")
    elif isinstance(value, dict):
        for item in value.values():
            _scribble(item)
        value["scribbled"] = True


@pytest.mark.parametrize("slug", BOT_GAMES)
def test_a_view_shares_no_list_or_dict_with_the_live_state(slug):
    """A bot (or anyone) holding a view holds copies: scribbling over every list and dict
    of a seat's view and of the table's view changes neither the state nor the next view."""
    game = GAMES[slug]
    players = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    checked = 0
    for state, seat in positions(slug, players, count=1):
        before = state.to_dict()
        views = {who: state.view(who) for who in (seat, None)}
        again = {who: state.view(who) for who in (seat, None)}
        for view in views.values():
            _scribble(view)
        assert state.to_dict() == before
        assert {who: state.view(who) for who in (seat, None)} == again
        checked += 1
    assert checked > 3


@pytest.mark.parametrize("slug", BOT_GAMES)
def test_a_bot_values_its_lead_or_with_payoff_own_its_own_score(slug, monkeypatch):
    game = GAMES[slug]
    bot = bot_for(game)
    players = bot.bench.get("players", game.min_players)
    final = play(game, players, ["easy"] * players, 3, bot.bench.get("options"))
    scores = final.scores()
    sign = -1 if final.lower_wins else 1
    monkeypatch.setattr(bot, "payoff", "own")
    assert [bot.value(final, s) for s in range(players)] == [sign * float(x) for x in scores]
    monkeypatch.setattr(bot, "payoff", "lead")
    leads = [bot.value(final, s) for s in range(players)]
    # the bench tables seat everyone alone, so a side's lead is the seat's
    others = [(sum(scores) - x) / (players - 1) for x in scores]
    assert leads == pytest.approx([sign * (x - o) for x, o in zip(scores, others, strict=True)])


def test_normal_keeps_the_easy_move_unless_a_clear_gain(monkeypatch):
    # easy_margin 1: the easy move (0) stands against a move 0.5 better, not 2 better
    monkeypatch.setattr(_ToyBot, "easy_margin", 1.0, raising=False)
    monkeypatch.setattr(_ToyBot, "easy", lambda self, view, legal, rng: legal[0], raising=False)
    assert _toy_search("normal", [{"payoff": [0.0, 0.5]}], 2, iterations=8)[0] == 0
    assert _toy_search("normal", [{"payoff": [0.0, 2.0]}], 2, iterations=8)[0] == 1


def test_every_level_s_words_on_the_play_page_are_in_the_bench_readme():
    """The Play page's words for each level (GameBot.strength) are the measured figures
    of bench/README.md: each sentence appears there word for word, beside the run behind
    it, so a new measurement changes both or this fails."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "bench" / "README.md").read_text()
    flat = " ".join(readme.split())
    missing = [
        (slug, level, words)
        for slug in BOT_GAMES
        for level in LEVELS
        if (words := bot_for(GAMES[slug]).strength.get(level))
        and " ".join(words.split()) not in flat
    ]
    assert not missing, missing


def test_a_game_may_scale_a_level_s_iterations(monkeypatch):
    """GameBot.iterations_scale multiplies the budget's iterations for that game and level
    (PULL!'s normal samples 3 times the worlds); other levels keep the budget."""
    import companion.bots as bots

    slug = BOT_GAMES[0]
    game = GAMES[slug]
    bot = bot_for(game)
    seen = []

    def spy(b, g, view, legal, rng, limits):
        seen.append(limits["iterations"])
        return legal[0]

    monkeypatch.setattr(bots, "monte_carlo", spy)
    monkeypatch.setattr(bot, "iterations_scale", {"normal": 3})
    monkeypatch.setattr(bot, "candidates", lambda view, legal, rng: legal)
    state, seat, legal = first_choice(game, game.min_players, seed=5)
    decide(game, state.view(seat), legal, "normal", random.Random(1), {"iterations": 4})
    assert seen == [12]
    monkeypatch.setattr(bot, "iterations_scale", {})
    decide(game, state.view(seat), legal, "normal", random.Random(1), {"iterations": 4})
    assert seen == [12, 4]


def test_a_game_may_make_the_others_noisy_in_a_level_s_worlds(monkeypatch):
    """GameBot.others_noise reaches the normal search's budget as its noise, for that level
    only (PULL!'s normal: its worlds' others are not all easy players)."""
    import companion.bots as bots

    game = GAMES["pull"]
    bot = bot_for(game)
    assert bot.others_noise.get("normal", 0) > 0 and not bot.others_noise.get("strong")
    seen = []

    def spy(b, g, view, legal, rng, limits):
        seen.append(limits.get("noise", 0.0))
        return legal[0]

    monkeypatch.setattr(bots, "monte_carlo", spy)
    monkeypatch.setitem(bots.STRONG, bot.strong_search, spy)
    state = game.new_state(3, None, seed=5)
    seat = next_mover(game, state)
    legal = state.legal_actions(seat)
    for level in ("normal", "strong"):
        decide(game, state.view(seat), legal, level, random.Random(1), {"iterations": 4})
    assert seen == [bot.others_noise["normal"], 0.0]


def test_a_level_in_every_action_searches_every_legal_action(monkeypatch):
    """GameBot.every_action: PULL!'s expert searches every legal shot, its strong only the
    easy player's best few (PullBot.candidates)."""
    import companion.bots as bots

    game = GAMES["pull"]
    bot = bot_for(game)
    assert bot.every_action == ("expert",)
    tried = {}

    def spy(b, g, view, legal, rng, limits):
        tried[len(tried)] = list(legal)
        return legal[0]

    monkeypatch.setitem(bots.STRONG, bot.strong_search, spy)
    state, seat, legal = first_choice(game, 3, seed=5)
    while len(bot.candidates(state.view(seat), legal, random.Random(1))) == len(legal):
        state.apply(seat, legal[0])
        seat = next_mover(game, state)
        legal = state.legal_actions(seat)
    for level in ("strong", "expert"):
        decide(game, state.view(seat), legal, level, random.Random(1))
    assert len(tried[0]) < len(legal) and tried[1] == legal

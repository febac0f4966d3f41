"""cards.rng seeds through Python's documented string seeding only (``random.Random(text)``,
``Random.seed(text)``): no private CPython type. Stored games must deal as they always did,
so the draws are held to figures written down before the change (the golden digests of
tests/games/*/test_golden.py hold whole games to theirs)."""

from __future__ import annotations

import random
import threading

from companion.games import cards
from companion.games.cards import rng, shuffled

# rng(seed, "deal", seed % 7).getrandbits(64), as every earlier version of cards.py drew.
KNOWN_DRAWS = {
    0: 16378823359009952547,
    1: 11771680618576287589,
    12345: 11560651954289277750,
    2**52 - 1: 3809259468530465333,
}


def test_stored_games_draw_the_numbers_they_always_drew():
    for seed, draw in KNOWN_DRAWS.items():
        assert rng(seed, "deal", seed % 7).getrandbits(64) == draw, seed
    assert shuffled(list(range(52)), rng(99, "deal", 2))[:13] == [
        46, 3, 28, 14, 37, 7, 18, 8, 41, 4, 48, 49, 15,
    ]  # fmt: skip
    generator = cards.reseeded("4503599627370495:deal:9")
    assert [generator.getrandbits(6) for _ in range(8)] == [58, 55, 45, 51, 28, 30, 57, 16]


def test_rng_is_randoms_own_string_seeding():
    for seed in [*range(200), 2**52 - 1, 10**30]:
        for parts in (("deal", seed % 11), ("draw",), ("duel", 3), ("challenger",)):
            text = ":".join(map(str, (seed, *parts)))
            assert rng(seed, *parts).getstate() == random.Random(text).getstate(), text
    assert cards.seeded is random.Random


def test_a_generator_draws_and_reseeds_like_any_other():
    generator = rng(5, "deal", 1)
    reference = random.Random("5:deal:1")
    assert [generator.random() for _ in range(5)] == [reference.random() for _ in range(5)]
    assert generator.gauss(0, 1) == reference.gauss(0, 1)
    generator.seed("x")
    reference.seed("x")
    assert generator.getrandbits(64) == reference.getrandbits(64)


def test_the_seed_text_is_the_parts_joined_whatever_their_number_and_type():
    for parts in ((), ("round",), ("a", 1, 2.5, None, True), tuple(range(9)), (("x", 1),)):
        text = ":".join(map(str, (7, *parts)))
        assert rng(7, *parts).getstate() == random.Random(text).getstate(), text


def test_reseeded_draws_as_a_new_generator_and_each_thread_has_its_own():
    for text in ("0:deal:0", "4503599627370495:deal:9", "17:draw", "é:€", ""):
        generator = cards.reseeded(text)
        generator.getrandbits(32 * 700)  # used well past a whole state: seeding resets it
        generator.gauss(0, 1)  # and a kept gauss draw is dropped by seeding too
        generator = cards.reseeded(text)
        reference = random.Random(text)
        assert generator.getstate() == reference.getstate(), text
        assert [generator.getrandbits(6) for _ in range(900)] == [
            reference.getrandbits(6) for _ in range(900)
        ]
    found = []
    thread = threading.Thread(target=lambda: found.append(cards.reseeded("1:deal:1")))
    thread.start()
    thread.join()
    assert found[0] is not cards.reseeded("1:deal:1")

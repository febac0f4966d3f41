"""cards.rng seeds the quick way (in C, without Random.seed's Python steps) only where that
gives random.Random's own generator: stored games must deal as they always did."""

from __future__ import annotations

import random

from companion.games import cards
from companion.games.cards import rng


def test_the_quick_seeding_is_in_use_and_gives_randoms_own_state():
    assert cards._same_as_random()
    assert cards._seeded is cards._quick_seeded
    for seed in [*range(200), 2**52 - 1, 10**30]:
        for parts in (("deal", seed % 11), ("draw",), ("duel", 3), ("challenger",)):
            text = ":".join(map(str, (seed, *parts)))
            assert rng(seed, *parts).getstate() == random.Random(text).getstate(), text


def test_a_quickly_seeded_generator_draws_and_reseeds_like_any_other():
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
    import threading

    assert cards.reseeded is cards._quick_reseeded
    for text in ("0:deal:0", "4503599627370495:deal:9", "17:draw", "é:€", ""):
        generator = cards.reseeded(text)
        generator.getrandbits(32 * 700)  # used well past a whole state: seeding resets it
        generator = cards.reseeded(text)
        reference = random.Random(text)
        assert generator.getstate() == reference.getstate()[1], text
        assert [generator.getrandbits(6) for _ in range(900)] == [
            reference.getrandbits(6) for _ in range(900)
        ]
    found = []
    thread = threading.Thread(target=lambda: found.append(cards.reseeded("1:deal:1")))
    thread.start()
    thread.join()
    assert found[0] is not cards.reseeded("1:deal:1")

"""Bots off the request path: what a table full of thinking bots costs the other requests.

    python bench/table_bots.py [--seconds 8] [--level strong] [--game SLUG]

One app (embedded default: SQLite, the bot thread, no pause before a move). Table A has
people only; table B has one person (played by a driver thread: a random legal move
whenever it is to act) and bots of ``--level`` in every other seat, so B's bots think
almost all the time. The bench reads table A's view over and over through the WSGI test
client, first with B idle (the baseline), then for ``--seconds`` while B's bots play,
and prints the read latency p50/p95 in both phases and their ratio. Then the bots' reply
time on B (from the person's move being stored to the bot's next move being stored)
p50/p95, and the number of bot moves. Seeded where it can be; stops by itself.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.bots import LEVELS, has_bot, should_act  # noqa: E402
from companion.games import GAMES  # noqa: E402


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def table(client, slug: str, players: int, bots: list | None) -> tuple[str, dict[int, str]]:
    body = {"game": slug, "players": players}
    if bots:
        body["bots"] = bots
    code = client.post("/api/tables", json=body).get_json()["code"]
    tokens = {}
    for seat in range(players):
        if bots and bots[seat]:
            continue
        answer = client.post(f"/api/tables/{code}/seats", json={"name": f"P{seat}", "seat": seat})
        tokens[seat] = answer.get_json()["token"]
    return code, tokens


def reads(client, code: str, seconds: float) -> list[float]:
    took = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        answer = client.get(f"/api/tables/{code}/view")
        took.append(time.perf_counter() - start)
        assert answer.status_code == 200
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--level", choices=LEVELS, default="strong")
    parser.add_argument("--game", choices=[s for s, g in GAMES.items() if has_bot(g)])
    args = parser.parse_args()
    slug = args.game or max(
        (s for s, g in GAMES.items() if has_bot(g)), key=lambda s: GAMES[s].max_players
    )
    players = GAMES[slug].max_players
    folder = tempfile.mkdtemp()
    app = create_app(
        {
            "INSTANCE_PATH": folder,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
            "BOT_DELAY": (0.0, 0.0),
        }
    )
    client = app.test_client()
    quiet, _ = table(client, slug, players, None)
    busy, tokens = table(client, slug, players, [None] + [args.level] * (players - 1))
    runner = app.extensions["bots"]
    runner.idle(60)

    baseline = reads(client, quiet, min(3.0, args.seconds / 2))

    replies: list[float] = []
    stop = threading.Event()

    def drive() -> None:
        rng = random.Random(1)
        driver = app.test_client()
        headers = {"Authorization": f"Bearer {tokens[0]}"}
        while not stop.is_set():
            env = driver.get(f"/api/tables/{busy}/view", headers=headers).get_json()
            if env["over"]:
                return
            if not env["legal"] or not should_act(GAMES[slug], env["view"]):  # sealed already
                time.sleep(0.01)
                continue
            body = {"action": rng.choice(env["legal"]), "version": env["version"]}
            answer = driver.post(f"/api/tables/{busy}/actions", json=body, headers=headers)
            if answer.status_code != 200:
                continue
            stored, version = time.perf_counter(), answer.get_json()["version"]
            while not stop.is_set():  # until a bot has moved after this move
                seen = driver.get(f"/api/tables/{busy}/view").get_json()
                if seen["version"] > version or seen["over"]:
                    if seen["version"] > version:
                        replies.append(time.perf_counter() - stored)
                    break
                time.sleep(0.005)

    moves_before = runner.moves
    thread = threading.Thread(target=drive, daemon=True)
    thread.start()
    loaded = reads(client, quiet, args.seconds)
    stop.set()
    thread.join(30)
    runner.stop()
    moves = runner.moves - moves_before

    print(f"game {slug}, {players} seats; table B: 1 person + {players - 1} {args.level} bots")
    print(f"{'phase':<22}{'reads':>7}{'p50 ms':>9}{'p95 ms':>9}")
    for name, took in (("baseline (B idle)", baseline), ("B's bots thinking", loaded)):
        p50, p95 = quantile(took, 0.5) * 1000, quantile(took, 0.95) * 1000
        print(f"{name:<22}{len(took):>7}{p50:>9.1f}{p95:>9.1f}")
    ratio50 = quantile(loaded, 0.5) / quantile(baseline, 0.5)
    ratio95 = quantile(loaded, 0.95) / quantile(baseline, 0.95)
    print(f"ratio loaded/baseline: p50 {ratio50:.2f}x, p95 {ratio95:.2f}x")
    if replies:
        p50, p95 = quantile(replies, 0.5) * 1000, quantile(replies, 0.95) * 1000
        print(f"bot replies: {len(replies)}, p50 {p50:.0f} ms, p95 {p95:.0f} ms")
    print(f"bot moves during the run: {moves}")


if __name__ == "__main__":
    main()

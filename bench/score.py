"""CPU cost of score mode's requests, this tree next to a baseline tree in the same run.

    python bench/score.py [--baseline REV] [--rounds 12] [--repeat 40] [--runs 3]

Each tree runs in a child process of its own (a fresh SQLite instance, CSRF and limits
off, the test-only fifth game "High card" registered, so no real game's rules weigh on
the figures). The child makes a sheet with ``--rounds`` rounds, then times ``--repeat``
times each of: the sheet page, adding a round, correcting round 1, undo, redo, the watch
page and the CSV; it reports the CPU time of this process per request (``time.process_time``,
the request served in-process by Flask's test client: the app's own work, no network),
with the garbage collector paused while an operation is timed (as ``timeit`` does).
The baseline is ``git archive REV`` (default ``main``) unpacked into a temporary folder.
The two trees are measured in turn ``--runs`` times, each figure the lowest of its runs.
Printed: ms per request for each tree and the ratio this / baseline (under 1.0: cheaper).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def child(root: str, rounds: int, repeat: int) -> None:
    """Measure the tree at ``root``; print one JSON line {operation: ms per request}."""
    sys.path.insert(0, root)
    from companion import create_app
    from tests import fifth_game
    from tests.web.pages import change_offered

    fifth_game.install()
    instance = tempfile.mkdtemp()
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": instance,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance}/bench.sqlite3",
            "RATELIMIT_ENABLED": False,
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    names = {"players-0": "Ada", "players-1": "Bo", "players-2": "Cy"}
    made = client.post(
        f"/score/new/{fifth_game.SLUG}", data=names | {"opt_cards": "3", "opt_target": "99"}
    )
    code = made.headers["Location"].rsplit("/", 1)[1]

    def add(position: int) -> None:
        data = {"tricks-0": "1", "tricks-1": "1", "tricks-2": "1", "position": str(position)}
        assert client.post(f"/score/{code}/rounds", data=data).status_code == 302

    for position in range(rounds):
        add(position)
    page = client.get(f"/score/{code}").get_data(as_text=True)
    watch = re.search(r"/score/watch/[A-Za-z0-9_-]+", page).group(0)
    shown = 'name="version"[^>]*value="([^"]+)"'
    count = [rounds, 0]

    def edit() -> None:
        form = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
        version = re.search(shown, form).group(1)
        count.append(count.pop() ^ 1)  # alternate between two corrections
        tricks = ["3", "0", "0"] if count[-1] else ["1", "1", "1"]
        data = {f"tricks-{i}": n for i, n in enumerate(tricks)}
        data |= {"position": "0", "version": version}
        assert client.post(f"/score/{code}/rounds/1/edit", data=data).status_code == 302

    def change(verb: str) -> None:
        page = client.get(f"/score/{code}").get_data(as_text=True)
        _, number = change_offered(page, code, verb)
        answer = client.post(f"/score/{code}/{verb.lower()}", data={"change": number})
        assert answer.status_code == 302

    def added() -> None:
        add(count[0])
        count[0] += 1

    operations = {
        "sheet page (GET)": lambda: client.get(f"/score/{code}"),
        "add a round (POST)": added,
        "correct a round (GET form + POST)": edit,
        "undo (GET page + POST)": lambda: change("Undo"),
        "redo (GET page + POST)": lambda: change("Redo"),
        "watch page (GET)": lambda: client.get(watch),
        "CSV (GET)": lambda: client.get(f"/score/{code}/export.csv"),
    }
    out = {}
    for name, run in operations.items():
        run()  # warm
        gc.collect()
        gc.disable()  # as timeit does: a collection falls on whichever request is running
        start = time.process_time()
        for _ in range(repeat):
            run()
        out[name] = 1000 * (time.process_time() - start) / repeat
        gc.enable()
    print(json.dumps(out))


def measure(root: str, rounds: int, repeat: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "AUTO_MIGRATE"):
        env.pop(name, None)
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            root,
            "--rounds",
            str(rounds),
            "--repeat",
            str(repeat),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds, args.repeat)
        return
    with tempfile.TemporaryDirectory() as base:
        archive = subprocess.run(
            ["git", "-C", str(HERE), "archive", args.baseline], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", base], input=archive.stdout, check=True)
        theirs: dict[str, float] = {}
        ours: dict[str, float] = {}
        for _ in range(args.runs):  # taken in turn, the lowest kept: a busy moment weighs less
            for root, best in ((base, theirs), (str(HERE), ours)):
                for name, ms in measure(root, args.rounds, args.repeat).items():
                    best[name] = min(ms, best.get(name, ms))
    print(
        f"CPU ms per request (lowest of {args.runs} runs), {args.rounds} rounds on the sheet "
        f"at the start, {args.repeat} requests each"
    )
    print(f"{'operation':36} {args.baseline:>10} {'this tree':>10} {'ratio':>7}")
    for name, mine in ours.items():
        print(f"{name:36} {theirs[name]:10.2f} {mine:10.2f} {mine / theirs[name]:7.2f}")


if __name__ == "__main__":
    main()

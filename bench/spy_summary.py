"""Where a server's CPU went, from py-spy's collapsed stacks (``bench/web.py --py-spy``).

    python bench/spy_summary.py DIR [--moves N]

Each sample is put in the first part of the hot path its stack passes through (the
order of ``PARTS`` matters: a stream's event build is counted as the event, not as the
JSON inside it), and in its innermost frame for the top list.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (name, a pattern that a frame of the stack, ``function (file:line)``, matches); the first
# part whose pattern matches any frame of a stack takes the sample.
PARTS = [
    ("stream limits' heartbeat (Redis)", r"^(heartbeat|_beat|RedisLimits)"),
    ("stream event: from the ready texts (holder check, concatenation)", r"^ready_event "),
    ("stream event: its own part (seat envelope, diff, JSON)", r"^own_event "),
    ("stream event: public envelope (once a process)", r"^public_event"),
    ("Redis listener (receive, hand to the streams)", r"^RedisBroker._listen "),
    ("move: check and apply (engine)", r"^play \(companion/tables/moves"),
    ("move: the event's texts for every seat (ready_lines)", r"^ready_lines "),
    ("move: store (snapshot, SQL, PostgreSQL round trip)", r"\(companion/tables/saving"),
    ("move: the mover's envelope", r"^envelope \(companion/tables/envelope"),
    ("move: announce (facts, publish)", r"^(announce|committed) "),
    ("move: rest of the use case", r"^act(_unlocked)? \(companion/tables/moves"),
    ("stream: ticket, opening", r"^(stream_ticket|open_stream|api_stream_ticket|api_events) "),
    ("stream: writes, pings, waits", r"^event_stream"),
    ("Flask: the rest of a request (hooks, routing, JSON answer)", r"\(flask/"),
    ("gunicorn / gevent: HTTP parse, socket writes", r"\((gunicorn|gevent)/"),
    ("other", r"."),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--moves", type=int, help="moves in the run: samples per move")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    parts, leaves, total = Counter(), Counter(), 0
    patterns = [(name, re.compile(pattern)) for name, pattern in PARTS]
    for path in sorted(args.folder.glob("spy-*.txt")):
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():  # a line py-spy cut short
                continue
            n = int(count)
            frames = stack.split(";")
            total += n
            leaves[frames[-1]] += n
            for name, pattern in patterns:
                if any(pattern.search(frame) for frame in frames):
                    parts[name] += n
                    break
    print(f"{total} samples")
    for name, _ in PARTS:
        share = 100 * parts[name] / total if total else 0
        print(f"{share:5.1f} %  {name}")
    print("\ninnermost frames:")
    for frame, n in leaves.most_common(args.top):
        print(f"{100 * n / total:5.1f} %  {frame[:150]}")


if __name__ == "__main__":
    main()

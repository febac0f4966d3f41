"""Bytes a phone downloads on its first visit, measured on the server, next to a baseline
checkout served the same way in the same run.

    python bench/pages.py [--baseline /work/main] [--pages seat,home,rules] [--quiet 2]

Each app runs in its own process (a fresh SQLite instance, one table made for the seat
page) behind a WSGI wrapper that counts every byte it sends: status line,
headers and body, for every request, the service worker's own fetches included. Debian's
Chromium (flags from tests/browser.py) opens each page at 390x844 with a fresh profile and
the run ends when no request has reached the server for ``--quiet`` seconds (the open
event stream aside): the worker has installed and stored what it stores on first idle.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def serve(root: str, log: str) -> None:
    """Child process: the app of ``root`` on a free port, each request logged as JSON."""
    sys.path.insert(0, root)
    sys.path.insert(1, str(HERE))
    from werkzeug.serving import make_server

    from companion import create_app
    from tests.browser import buffered

    instance = tempfile.mkdtemp()
    app = create_app(
        {
            "INSTANCE_PATH": instance,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance}/bench.sqlite3",
            "RATELIMIT_ENABLED": False,
        }
    )
    from companion.games import GAMES

    game = GAMES[sorted(GAMES)[-1]]  # any game will do: the seat page is the same shell
    body = {"game": game.slug, "players": game.max_players}
    made = app.test_client().post("/api/tables", json=body)
    code = made.get_json()["code"]
    out = open(log, "a", buffering=1)  # noqa: SIM115 (open for the life of the server)
    lock = threading.Lock()

    def counted(environ, start_response):
        seen = {"head": 0, "body": 0, "status": 0, "encoding": "", "type": ""}

        def start(status, headers, exc_info=None):
            seen["status"] = int(status.split()[0])
            seen["head"] = len(f"HTTP/1.1 {status}\r\n") + 2
            seen["head"] += sum(len(f"{k}: {v}\r\n") for k, v in headers)
            found = {k.lower(): v for k, v in headers}
            seen["encoding"] = found.get("content-encoding", "")
            seen["type"] = found.get("content-type", "").split(";")[0]
            return start_response(status, headers, exc_info)

        def body():
            try:
                for chunk in inner(environ, start):
                    seen["body"] += len(chunk)
                    yield chunk
            finally:
                path = environ.get("PATH_INFO", "")
                if environ.get("QUERY_STRING"):
                    path += "?" + environ["QUERY_STRING"]
                record = {
                    "path": path,
                    "status": seen["status"],
                    "type": seen["type"],
                    "encoding": seen["encoding"],
                    "bytes": seen["head"] + seen["body"],
                    "accept": environ.get("HTTP_ACCEPT_ENCODING", ""),
                    "worker": environ.get("HTTP_SERVICE_WORKER", "")
                    or ("sw" if environ.get("HTTP_SEC_FETCH_DEST") == "empty" else ""),
                }
                with lock:
                    out.write(json.dumps(record) + "\n")

        return body()

    inner = buffered(app)
    server = make_server("127.0.0.1", 0, counted, threaded=True)
    print(json.dumps({"port": server.server_port, "code": code, "slug": game.slug}), flush=True)
    server.serve_forever()


def start(root: str, log: str) -> tuple[subprocess.Popen, str, str, str]:
    env = {**os.environ, "PYTHONPATH": root}
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "PUBLIC_URL"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, __file__, "serve", "--root", root, "--log", log],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
        cwd=root,
    )
    first = json.loads(process.stdout.readline())
    return process, f"http://127.0.0.1:{first['port']}", first["code"], first["slug"]


def records(log: str) -> list[dict]:
    with open(log) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def visit(browser, url: str, log: str, quiet: float) -> list[dict]:
    from tests.browser import PHONE

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    already = len(records(log))
    page.goto(url)
    last, count = time.monotonic(), already
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = len(records(log))
        if now != count:
            last, count = time.monotonic(), now
        elif time.monotonic() - last >= quiet:
            break
    context.close()  # ends the event stream, which is logged then
    time.sleep(0.3)
    return records(log)[already:]


def table(rows: list[dict]) -> str:
    lines = [f"{'bytes':>8}  {'enc':<5} {'status':>6}  path"]
    for row in sorted(rows, key=lambda r: -r["bytes"]):
        path = row["path"] if len(row["path"]) < 70 else row["path"][:67] + "..."
        lines.append(f"{row['bytes']:>8}  {row['encoding'] or '-':<5} {row['status']:>6}  {path}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="measure", choices=["measure", "serve"])
    parser.add_argument("--root", default=str(HERE))
    parser.add_argument("--log")
    parser.add_argument("--baseline", default="/work/main", help="checkout to compare with")
    parser.add_argument("--pages", default="seat,home,rules")
    parser.add_argument("--quiet", type=float, default=2.0)
    args = parser.parse_args()
    if args.command == "serve":
        serve(args.root, args.log)
        return

    sys.path.insert(0, str(HERE))
    from playwright.sync_api import sync_playwright

    from tests.browser import launch

    totals: dict[tuple[str, str], int] = {}
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for label, root in (("baseline", args.baseline), ("this", str(HERE))):
            log = tempfile.mktemp(suffix=".jsonl")
            Path(log).touch()
            process, base, code, slug = start(root, log)
            try:
                paths = {"seat": f"/t/{code}/seat", "home": "/", "rules": f"/rules/{slug}"}
                for name in args.pages.split(","):
                    rows = visit(browser, base + paths[name], log, args.quiet)
                    total = sum(r["bytes"] for r in rows)
                    totals[(label, name)] = total
                    print(f"\n## {label} ({root}): {name} page {paths[name]}")
                    print(f"{len(rows)} requests, {total / 1024:.1f} KB")
                    print(table(rows))
            finally:
                process.terminate()
                process.wait(10)
        browser.close()
    print("\n## Summary (KB on first load, service worker included)")
    print(f"{'page':<6} {'baseline':>9} {'this':>8} {'ratio':>6}")
    for name in args.pages.split(","):
        before, after = totals[("baseline", name)], totals[("this", name)]
        print(f"{name:<6} {before / 1024:>9.1f} {after / 1024:>8.1f} {after / before:>6.2f}")


if __name__ == "__main__":
    main()

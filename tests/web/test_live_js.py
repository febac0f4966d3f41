"""The live connection of the Play pages (``LiveTable`` in static/js/table-live.js), run
under Node.js with a stand-in EventSource, fetch and clock: each connection asks for a
fresh stream ticket (with the page's token; as a spectator when the table no longer knows
it), a silent or failed stream is closed and replaced by polling plus a reconnection with
a new ticket, and a spectator draws the public envelope from the event itself. Skipped
without Node.js."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from ..conftest import unavailable

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "table-live.js"
NODE = shutil.which("node")

SCRIPT = """
let now = 0;
const timers = new Map();
let nextId = 1;
const later = (fn, ms, every) => {
  const id = nextId++;
  timers.set(id, { at: now + ms, fn, every });
  return id;
};
globalThis.setTimeout = (fn, ms) => later(fn, ms, 0);
globalThis.setInterval = (fn, ms) => later(fn, ms, ms);
globalThis.clearTimeout = globalThis.clearInterval = (id) => timers.delete(id);
const settle = async () => { for (let i = 0; i < 50; i++) await Promise.resolve(); };
async function advance(ms) {
  const end = now + ms;
  await settle();
  for (;;) {
    const due = [...timers.entries()].filter(([, t]) => t.at <= end);
    due.sort((a, b) => a[1].at - b[1].at);
    if (!due.length) break;
    const [id, t] = due[0];
    now = t.at;
    if (t.every) t.at += t.every; else timers.delete(id);
    t.fn();
    await settle();
  }
  now = end;
  await settle();
}
globalThis.document = { visibilityState: "visible", addEventListener() {} };
globalThis.window = { addEventListener() {} };
globalThis.location = { hash: "", pathname: "/" };
const log = [];
let ticketNo = 0;
let knownTokens = new Set(["good"]);
globalThis.fetch = async (url, init) => {
  const auth = init.headers.Authorization || null;
  log.push(["fetch", url, init.method, auth]);
  if (url === "/ticket") {
    if (auth && !knownTokens.has(auth.slice(7))) {
      return { ok: false, status: 401, json: async () => ({ error: "gone" }) };
    }
    ticketNo += 1;
    const body = { events_url: `/events?ticket=t${ticketNo}` };
    return { ok: true, status: 200, json: async () => body };
  }
  return { ok: true, status: 200, json: async () => ({}) };
};
const sources = [];
class EventSource {
  static CONNECTING = 0; static OPEN = 1; static CLOSED = 2;
  constructor(url) {
    Object.assign(this, { url, readyState: 0, handlers: {} });
    sources.push(this);
    log.push(["open", url]);
  }
  addEventListener(name, fn) { (this.handlers[name] ||= []).push(fn); }
  emit(name, data) { for (const fn of this.handlers[name] || []) fn({ data }); }
  close() { this.readyState = 2; log.push(["close", this.url]); }
}
globalThis.EventSource = EventSource;
window.EventSource = EventSource;

const { LiveTable, fetchView } = await import(process.argv[2]);
const refreshed = [];
const drawn = [];
const states = [];
const out = {};

// A seat: ticket with its token, refetch on each new version, silence -> reconnect.
let token = "good";
const seat = new LiveTable({ ticketUrl: "/ticket", token: () => token,
  refresh: async () => refreshed.push(now), onState: (s) => states.push(s) });
seat.start();
await advance(0);
out.firstTicketAuth = log.find((e) => e[0] === "fetch" && e[1] === "/ticket")[3];
out.firstUrl = sources[0].url;
sources[0].readyState = 1; sources[0].emit("open");
sources[0].emit("version", JSON.stringify({ version: 4 }));
sources[0].emit("version", JSON.stringify({ version: 4 }));
await advance(0);
out.refreshesAfterTwoEventsOfOneVersion = refreshed.length;
sources[0].emit("ping", "5");
await advance(16000);  // pings every 5 s keep it alive: no reconnection yet
out.sourcesAfterQuiet16s = sources.length;
await advance(2000);   // 17 s of silence (3 pings + 2 s): failed
out.firstClosed = sources[0].readyState === 2;
out.statesAfterSilence = states.slice(-1)[0];
await advance(1000);   // reconnects after 1 s with a new ticket
out.secondUrl = sources[1] && sources[1].url;
const before = refreshed.length;
await advance(8000);   // the new stream is not open yet: the page polls meanwhile
out.pollsWhileDown = refreshed.length - before;
// The seat moved to another phone: its token is refused, so it follows as a spectator.
knownTokens = new Set();
sources[1].emit("error");
await advance(5000);
const last = log.filter((e) => e[0] === "fetch" && e[1] === "/ticket").slice(-2);
out.afterRefusal = last.map((e) => e[3]);
out.thirdUrl = sources[2] && sources[2].url;

// A spectator draws the public envelope straight from the event.
const watch = new LiveTable({
  ticketUrl: "/ticket", refresh: async () => {}, onPublic: (env) => drawn.push(env.version),
});
watch.start();
await advance(0);
const mine = sources[sources.length - 1];
out.spectatorAuth = log.filter((e) => e[0] === "fetch" && e[1] === "/ticket").slice(-1)[0][3];
mine.emit("version", JSON.stringify({ version: 9, view: {} }));
out.drawn = drawn;
// After an event: only what the seat's view adds, merged into the event's envelope.
out.watchLastPublic = watch.lastPublic.version;
globalThis.fetch = async (url, init) => {
  log.push(["fetch", url, init.method, init.headers.Authorization || null]);
  const part = { partial: true, version: 9, seat: 1, view: { hand: ["a"] } };
  const whole = { version: 10, seat: 1, view: { hand: ["b"], board: 2 } };
  return { ok: true, status: 200, json: async () => (url.includes("private=9") ? part : whole) };
};
const publicEnv = { version: 9, seat: null, over: false, view: { board: 1, hand: null } };
out.merged = await fetchView("/view", "good", publicEnv);
out.mergedUrl = log.slice(-1)[0][1];
out.whole = await fetchView("/view", "good", null);
out.wholeUrl = log.slice(-1)[0][1];

// A seat's event carries its own part ("mine"): the view is merged without a request,
// once; the next view (a poll) asks the server again.
const own = new LiveTable({ ticketUrl: "/ticket", token: () => "good", refresh: async () => {} });
own.start();
await advance(0);
const ownSource = sources[sources.length - 1];
ownSource.emit("version", JSON.stringify({
  version: 12, seat: null, view: { board: 3, hand: null },
  mine: { partial: true, version: 12, seat: 0, view: { hand: ["c"] } },
}));
const fetchesBefore = log.filter((e) => e[0] === "fetch").length;
out.ownMerged = await own.view("/view", "good");
out.ownFetches = log.filter((e) => e[0] === "fetch").length - fetchesBefore;
out.ownLastPublicHasMine = "mine" in own.lastPublic;
await own.view("/view", "good");
out.ownNextUrl = log.slice(-1)[0][1];
// An event whose part is of another version is not used: the page fetches.
ownSource.emit("version", JSON.stringify({
  version: 13, seat: null, view: {}, mine: { partial: true, version: 12, view: {} },
}));
await own.view("/view", "good");
out.ownStaleUrl = log.slice(-1)[0][1];
// A page without a token (a phone choosing its seat): the event's public envelope is its
// whole view, used without a request, once; the next view (a poll) asks the server.
const open = new LiveTable({ ticketUrl: "/ticket", refresh: async () => {} });
open.start();
await advance(0);
const openEvent = { version: 14, seat: null, view: { board: 4 } };
sources[sources.length - 1].emit("version", JSON.stringify(openEvent));
const openBefore = log.filter((e) => e[0] === "fetch").length;
out.openView = await open.view("/view", null);
out.openFetches = log.filter((e) => e[0] === "fetch").length - openBefore;
await open.view("/view", null);
out.openNextUrl = log.slice(-1)[0][1];
console.log(JSON.stringify(out));
process.exit(0);
"""


def test_live_table_tickets_silence_and_fallback(tmp_path):
    if NODE is None:
        unavailable("Node.js is not installed")
    script = tmp_path / "live.mjs"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [NODE, str(script), MODULE.as_uri()], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["firstTicketAuth"] == "Bearer good"
    assert out["firstUrl"] == "/events?ticket=t1"
    # the first update() at start, then one for version 4 (not two)
    assert out["refreshesAfterTwoEventsOfOneVersion"] == 2
    assert out["sourcesAfterQuiet16s"] == 1
    assert out["firstClosed"] is True and out["statesAfterSilence"] == "reconnecting"
    assert out["secondUrl"] == "/events?ticket=t2"
    assert out["pollsWhileDown"] >= 1
    assert out["afterRefusal"] == ["Bearer good", None]
    assert out["thirdUrl"] == "/events?ticket=t3"
    assert out["spectatorAuth"] is None and out["drawn"] == [9]
    assert out["watchLastPublic"] == 9
    assert out["mergedUrl"] == "/view?private=9"
    assert out["merged"] == {
        "version": 9,
        "seat": 1,
        "over": False,
        "view": {"board": 1, "hand": ["a"]},
    }
    assert out["wholeUrl"] == "/view" and out["whole"]["version"] == 10
    # a seat's own part from its event: merged without a request, once
    assert out["ownMerged"] == {"version": 12, "seat": 0, "view": {"board": 3, "hand": ["c"]}}
    assert out["ownFetches"] == 0 and out["ownLastPublicHasMine"] is False
    assert out["ownNextUrl"] == "/view?private=12"
    assert out["ownStaleUrl"] == "/view?private=13"
    # without a token the event's envelope is the view: no request, once
    assert out["openView"] == {"version": 14, "seat": None, "view": {"board": 4}}
    assert out["openFetches"] == 0 and out["openNextUrl"] == "/view"

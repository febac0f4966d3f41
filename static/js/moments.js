// The moments every Play screen shows the same way, drawn from the engine's common view
// block (companion/games/moments.py), so a new game gets them without JavaScript of its
// own: the result card (what ended last: a trick, a deal, a target, a duel) at the top,
// the final standings at game over, and the public game log with its replay.
// Words come as parts: strings, {seat}, {side}, {card}. Text only, never HTML.

import { api, el } from "./table-live.js";
import { makeKit, renderBoard, seatName, teamClass } from "./board.js";

// Parts as nodes: seats by name (in their side's colour), cards drawn from the faces.
export function wordsNode(parts, names, view, kit) {
  const box = el("span", { class: "words" });
  const sides = (view && view.sides) || [];
  for (const part of parts || []) {
    if (part && typeof part === "object" && "seat" in part) {
      box.append(el("strong", { class: `who ${teamClass(view, part.seat)}`.trim(), text: seatName(names, part.seat) }));
    } else if (part && typeof part === "object" && "side" in part) {
      const members = sides[part.side] || [];
      box.append(el("strong", { class: `who ${teamClass(view, members[0])}`.trim(), text: members.map((s) => seatName(names, s)).join(" & ") }));
    } else if (part && typeof part === "object" && "card" in part) {
      box.append(kit.card(part.card));
    } else if (part !== null && part !== undefined) {
      box.append(String(part));
    }
  }
  return box;
}

// Parts as plain text (the log's search and the replay's caption).
export function wordsText(parts, names, view, kit) {
  return wordsNode(parts, names, view, kit).textContent;
}

function teamsMarked(view) {
  return ((view && view.sides) || []).some((side) => side.length > 1);
}

// The result card: title, headline, the cards shown, a small table, more lines; the
// game's own part (result.own) from its module's `resultPart` when it has one.
export function resultCard(result, env, names, kit, gameModule, { onDismiss } = {}) {
  const view = env.view || {};
  const card = el("section", { class: `result-card kind-${result.kind}`, "aria-labelledby": "result-title", "data-result": result.id });
  const head = el("div", { class: "result-head" }, el("h2", { id: "result-title", class: "result-title", text: result.title }));
  if (onDismiss) {
    const close = el("button", { type: "button", class: "secondary small-button result-dismiss", text: "OK" });
    close.setAttribute("aria-label", "OK, dismiss the result"); // starts with the visible text (axe: label-content-name-mismatch)
    close.addEventListener("click", onDismiss);
    head.append(close);
  }
  card.append(head);
  card.append(el("p", { class: "result-headline" }, wordsNode(result.headline, names, view, kit)));
  if ((result.cards || []).length) card.append(el("div", { class: "result-cards" }, kit.playsLine(result.cards)));
  if ((result.columns || []).length && (result.rows || []).length) {
    const table = el("table", { class: "result-table" });
    const head = el("tr", {}, el("th", { scope: "col", text: teamsMarked(view) ? "Side" : "Player" }));
    for (const title of result.columns) head.append(el("th", { scope: "col", text: title }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    for (const row of result.rows) {
      const who = el("th", { scope: "row" }, wordsNode(kit.joinSeats(row.seats), names, view, kit));
      if (row.seats.includes(env.seat)) who.append(el("span", { class: "you-mark", text: " (you)" }));
      const side = teamsMarked(view) ? teamClass(view, row.seats[0]) : "";
      const tr = el("tr", { class: [row.mark ? "is-marked" : "", side].join(" ").trim() }, who);
      for (const cell of row.cells) tr.append(el("td", { text: cell === null || cell === undefined ? "—" : String(cell) }));
      body.append(tr);
    }
    table.append(body);
    card.append(el("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": "Result" }, table));
  }
  for (const line of result.lines || []) card.append(el("p", { class: "result-line" }, wordsNode(line, names, view, kit)));
  if (result.own && gameModule && gameModule.resultPart) {
    for (const part of gameModule.resultPart(result, env, names, kit) || []) if (part) card.append(part);
  }
  return card;
}

// Which result card a screen shows: the latest one until it is dismissed (or the phone
// acts), remembered per table in sessionStorage so a reload does not bring it back.
export class ResultWatch {
  constructor(code) {
    this.key = `companion.table.${code}.result`;
    try {
      this.dismissed = sessionStorage.getItem(this.key);
    } catch {
      this.dismissed = null;
    }
    this.shownId = null;
  }

  showing(env) {
    const result = env && env.started !== false && env.view ? env.view.result : null;
    if (!result || result.id === this.dismissed) return null;
    return result;
  }

  dismiss(id) {
    this.dismissed = id;
    try {
      sessionStorage.setItem(this.key, id || "");
    } catch {
      // Without storage the dismissal lasts as long as the page.
    }
  }
}

// Draws the result card into `slot` (a section at the top of the page), with the
// highlight only when the card is new (the CSS leaves it out under reduced motion).
export function showResult(slot, watch, env, names, faces, gameModule, dismissable = true) {
  const result = watch.showing(env);
  if (!result) {
    slot.replaceChildren();
    slot.hidden = true;
    watch.shownId = null;
    return;
  }
  const kit = kitFor(env, names, faces);
  const fresh = result.id !== watch.shownId;
  const onDismiss = dismissable
    ? () => {
        watch.dismiss(result.id);
        showResult(slot, watch, env, names, faces, gameModule, dismissable);
      }
    : null;
  const card = resultCard(result, env, names, kit, gameModule, { onDismiss });
  if (fresh) card.classList.add("is-new");
  slot.replaceChildren(card);
  slot.hidden = false;
  watch.shownId = result.id;
}

function kitFor(env, names, faces) {
  const kit = makeKit(env, names, faces);
  kit.joinSeats = (seats) => seats.flatMap((seat, i) => (i ? [" & ", { seat }] : [{ seat }]));
  return kit;
}

// The ranked standings at game over: places (ties share one), names (partners together),
// scores, the winners marked; best first by the game's own order (winners first).
export function standings(env, names, scoreWord = "Score") {
  const view = env.view || {};
  const scores = view.scores || [];
  const sides = view.sides && view.sides.length ? view.sides : scores.map((_, s) => [s]);
  const winners = new Set(view.winners || []);
  const lowerWins = winners.size > 0 && sides.some((side) => winners.has(side[0])) && isLower(sides, scores, winners);
  const ranked = sides
    .map((side) => ({ side, score: scores[side[0]], won: winners.has(side[0]) }))
    .sort((a, b) => (b.won - a.won) || (lowerWins ? a.score - b.score : b.score - a.score));
  const list = el("ol", { class: "standings", "aria-label": `Standings (${scoreWord})` });
  let place = 0;
  ranked.forEach((entry, i) => {
    const prev = ranked[i - 1];
    if (!prev || prev.score !== entry.score || prev.won !== entry.won) place = i + 1;
    const who = entry.side.map((seat) => seatName(names, seat)).join(" & ");
    const item = el(
      "li",
      { class: `standing${entry.won ? " is-winner" : ""}${entry.side.includes(env.seat) ? " is-you" : ""}` },
      el("span", { class: "place", text: ordinal(place) }),
      el("span", { class: `standing-name ${teamClass(view, entry.side[0])}`.trim(), text: who }),
      el("span", { class: "standing-score", text: entry.score === null || entry.score === undefined ? "—" : String(entry.score) }),
    );
    list.append(item);
  });
  return list;
}

// Whether the winners hold the lowest score (Call the Shot counts shots taken).
function isLower(sides, scores, winners) {
  const won = sides.filter((side) => winners.has(side[0])).map((side) => scores[side[0]]);
  const lost = sides.filter((side) => !winners.has(side[0])).map((side) => scores[side[0]]);
  return won.length && lost.length && Math.max(...won) < Math.min(...lost);
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${tail}`;
}

// The game-over panel: who won (for this phone: "You won!"), the celebration, the
// standings, then the page's own buttons (rematch, back to the table) moved into it.
export function showFinal(panel, env, names, scoreWord, buttons) {
  if (!env.over) {
    panel.hidden = true;
    return;
  }
  const view = env.view || {};
  const winners = view.winners || [];
  const mine = env.seat !== null && env.seat !== undefined && winners.includes(env.seat);
  const who = winnersWords(view, names);
  const title = mine ? "You won!" : who;
  const key = JSON.stringify([env.version, env.seat]);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const party = el("div", { class: "celebration", "aria-hidden": "true" });
  for (let i = 0; i < 12; i++) party.append(el("span", { class: `spark spark-${i}` }));
  panel.replaceChildren(
    party,
    el("h2", { class: "final-title", id: "final-title", text: title }),
    ...(mine ? [el("p", { class: "final-sub", text: who })] : []),
    standings(env, names, scoreWord),
    el("div", { class: "final-actions" }, ...buttons.filter(Boolean)),
  );
  panel.hidden = false;
}

export function winnersWords(view, names) {
  const winners = (view && view.winners) || [];
  if (!winners.length) return "The game is over.";
  const sides = view.sides && view.sides.length ? view.sides : winners.map((s) => [s]);
  const groups = sides.filter((side) => side.some((s) => winners.includes(s))).map((side) => side.map((s) => seatName(names, s)).join(" & "));
  const plural = groups.length > 1 || groups.some((g) => g.includes(" & "));
  return `${groups.join(" and ")} ${plural ? "win" : "wins"}!`;
}

// -- the game log and its replay ------------------------------------------------------------

// The page's game log (its #game-log panel, the URLs on its root element).
export function gameLogOf(root, faces, gameModule) {
  return new GameLog(document.getElementById("game-log"), {
    url: root.dataset.log,
    replayUrl: root.dataset.replay,
    faces,
    gameModule,
    scoreWord: root.dataset.scoreWord,
  });
}

// The public log in a <details> panel: fetched when opened and again on each new version
// while open; grouped by chapter (deal, round, duel). After the game, a replay steps
// through the public events and shows the table as it was at each one.
export class GameLog {
  constructor(panel, { url, replayUrl, faces, gameModule, scoreWord }) {
    this.panel = panel;
    this.url = url;
    this.replayUrl = replayUrl;
    this.faces = faces;
    this.gameModule = gameModule;
    this.scoreWord = scoreWord;
    this.list = panel.querySelector(".log-list");
    this.replay = panel.querySelector(".replay");
    this.version = null;
    this.loaded = null;
    this.events = [];
    this.env = null;
    panel.addEventListener("toggle", () => this.load());
  }

  update(env, names) {
    this.env = env;
    this.names = names;
    this.panel.hidden = !(env.started || env.begun);
    this.load();
  }

  async load() {
    const env = this.env;
    if (!env || !this.panel.open || this.loaded === env.version) return;
    this.loaded = env.version;
    try {
      const answer = await api(this.url);
      this.events = answer.events || [];
      this.render();
    } catch (error) {
      this.loaded = null;
      this.list.replaceChildren(el("p", { class: "field-error", text: error.message }));
    }
  }

  render() {
    const env = this.env;
    const kit = kitFor(env, this.names, this.faces);
    const view = env.view || {};
    const groups = [];
    for (const event of this.events) {
      if (!groups.length || groups[groups.length - 1].chapter !== event.chapter) groups.push({ chapter: event.chapter, events: [] });
      groups[groups.length - 1].events.push(event);
    }
    const nodes = groups.map((group, g) => {
      const items = el("ol", { class: "log-events" });
      for (const event of group.events) items.append(this.item(event, view, kit));
      const box = el("section", { class: "log-chapter" }, el("h3", { text: group.chapter || "The game" }), items);
      if (g < groups.length - 1) box.classList.add("is-past");
      return box;
    });
    if (!nodes.length) nodes.push(el("p", { class: "muted", text: "Nothing has happened yet." }));
    this.list.replaceChildren(...nodes.reverse());
    this.renderReplay();
  }

  item(event, view, kit) {
    if (event.result) {
      const result = event.result;
      return el(
        "li",
        { class: "log-result", "data-step": event.step },
        el("strong", { text: `${result.title}: ` }),
        wordsNode(result.headline, this.names, view, kit),
      );
    }
    const who = event.seat === undefined || event.seat === null ? null : el("strong", { class: "who", text: `${seatName(this.names, event.seat)}: ` });
    return el("li", { class: event.seat === undefined ? "log-shown" : "log-move", "data-step": event.step }, who, wordsNode(event.words, this.names, view, kit));
  }

  // After the game: step through the events; the table as it was after each.
  renderReplay() {
    if (!this.replay) return;
    const env = this.env;
    if (!env.over || !this.events.length) {
      this.replay.hidden = true;
      return;
    }
    this.replay.hidden = false;
    if (this.replay.dataset.ready) return;
    this.replay.dataset.ready = "1";
    this.at = 0;
    const caption = el("p", { class: "replay-caption", role: "status", "aria-live": "polite" });
    const board = el("div", { class: "board replay-board" });
    const back = el("button", { type: "button", class: "secondary", text: "◀ Back" });
    const next = el("button", { type: "button", text: "Next ▶" });
    const go = async (delta) => {
      this.at = Math.max(0, Math.min(this.events.length - 1, this.at + delta));
      const event = this.events[this.at];
      const kit = kitFor(env, this.names, this.faces);
      caption.replaceChildren(
        el("span", { class: "muted", text: `${this.at + 1} of ${this.events.length} · ${event.chapter || ""} · ` }),
        event.result ? wordsNode([`${event.result.title}: `, ...event.result.headline], this.names, env.view, kit) : wordsNode([...(event.seat === undefined ? [] : [{ seat: event.seat }, ": "]), ...event.words], this.names, env.view, kit),
      );
      try {
        const answer = await api(`${this.replayUrl}?step=${event.step}`);
        const past = { ...env, view: answer.view, over: answer.view.over, to_act: answer.view.to_act, seat: null, legal: [] };
        const then = renderBoard(past, this.names, this.gameModule, this.faces, this.scoreWord);
        // The live board names its regions too: the replay's get names of their own (axe: landmark-unique).
        for (const region of then.querySelectorAll('[role="region"][aria-label]')) {
          region.setAttribute("aria-label", `Replay: ${region.getAttribute("aria-label")}`);
        }
        board.replaceChildren(then);
      } catch (error) {
        board.replaceChildren(el("p", { class: "field-error", text: error.message }));
      }
      back.disabled = this.at === 0;
      next.disabled = this.at === this.events.length - 1;
    };
    back.addEventListener("click", () => go(-1));
    next.addEventListener("click", () => go(1));
    this.replay.replaceChildren(el("h3", { text: "Replay" }), el("div", { class: "replay-controls" }, back, next), caption, board);
    go(0);
  }
}

// The Play board, generic over every game: the status line from the view's `prompt`, the
// winners line from `winners` and `sides` ("Ada & Cy won."), the game's own part (drawn by
// its module static/js/games/<slug>.js, `board(env, names, kit)`) or, without one, a
// generic view, then the final scores from `scores`. Cards are drawn from the faces the
// page embeds (<script type="application/json" id="card-faces">). Text only, never HTML.

import { el } from "./table-live.js";

export function seatName(names, seat) {
  if (seat === null || seat === undefined) return "—";
  return (names && names[seat]) || `Seat ${seat + 1}`;
}

// The colour class of a seat's side in a team game ("team-1"; static/css/moments.css),
// "" without teams: its players' names, shots and scores carry it.
export function teamClass(view, seat) {
  const sides = (view && view.sides) || [];
  if (!sides.some((side) => side.length > 1)) return "";
  const side = sides.findIndex((members) => members.includes(seat));
  return side < 0 ? "" : `team-${side}`;
}

export function words(id) {
  const text = String(id).replace(/[_-]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// The card faces the page embeds: {id: {text, label, colour}}.
export function readFaces(doc = document) {
  const node = doc.getElementById("card-faces");
  if (!node) return {};
  try {
    return JSON.parse(node.textContent || "{}") || {};
  } catch {
    return {};
  }
}

// The game's board module, from the page's data-board URL (none: the generic board).
export async function loadGameModule(root) {
  const url = root.dataset.board;
  if (!url) return null;
  try {
    return await import(url);
  } catch {
    return null;
  }
}

function facts(pairs) {
  const list = el("dl", { class: "facts-list" });
  for (const [term, value] of pairs) {
    if (value === null || value === undefined || value === "") continue;
    list.append(el("div", {}, el("dt", { text: term }), el("dd", {}, value)));
  }
  return list;
}

// The shared drawing helpers a game module gets as `kit`.
export function makeKit(env, names, faces = {}) {
  const info = (id) => faces[String(id)] || { text: words(id), label: words(id), colour: "" };
  const cardText = (id) => info(id).text;
  const card = (id, tag = "span", attrs = {}) => {
    const face = info(id);
    const node = el(tag, { ...attrs, class: `card card-${env.game} colour-${face.colour} ${attrs.class || ""}`.trim() });
    node.append(el("span", { "aria-hidden": "true", text: face.text }));
    node.append(el("span", { class: "visually-hidden", text: face.label }));
    return node;
  };
  const cardsLine = (ids) => {
    const line = el("span", { class: "card-line" });
    for (const id of ids || []) line.append(card(id));
    if (!ids || !ids.length) line.append(el("span", { class: "muted", text: "none" }));
    return line;
  };
  const playsLine = (plays) => {
    const list = el("ul", { class: "plays" });
    for (const play of plays || []) {
      const seat = Array.isArray(play) ? play[0] : play.seat;
      const id = Array.isArray(play) ? play[1] : play.card;
      const who = `who ${teamClass(env.view, seat)}`.trim();
      list.append(el("li", {}, el("span", { class: who, text: seatName(names, seat) }), card(id)));
    }
    return list;
  };
  // `label` names the scrolling region; two tables on one board need two names (axe-core:
  // landmark-unique).
  const seatTable = (columns, label = "Players") => {
    const table = el("table", { class: "seats-table" });
    const head = el("tr", {}, el("th", { scope: "col", text: "Player" }));
    for (const [title] of columns) head.append(el("th", { scope: "col", text: title }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    for (let seat = 0; seat < names.length; seat++) {
      const acting = (env.to_act || []).includes(seat);
      // A team game: the whole row (name, score, figures) in the side's colour.
      const row = el("tr", { class: [acting ? "is-acting" : "", teamClass(env.view, seat)].join(" ").trim() });
      const who = el("th", { scope: "row", class: teamClass(env.view, seat) || null }, seatName(names, seat));
      if (seat === env.seat) who.append(el("span", { class: "you-mark", text: " (you)" }));
      if (acting) who.append(el("span", { class: "acting-mark badge", text: (env.view && env.view.doing) || "to play" }));
      row.append(who);
      for (const [, value] of columns) {
        const cell = value(seat);
        row.append(el("td", {}, cell === null || cell === undefined ? "—" : String(cell)));
      }
      body.append(row);
    }
    table.append(body);
    return el("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": label }, table);
  };
  return {
    split: false,
    el,
    card,
    cardText,
    cardsLine,
    playsLine,
    facts,
    seatTable,
    seatName: (seat) => seatName(names, seat),
    teamClass: (seat) => teamClass(env.view, seat),
    signed,
    words,
  };
}

// "Ada & Cy won.": the winning seats grouped by the sides they play in.
export function winnersText(view, names) {
  const winners = (view && view.winners) || [];
  if (!winners.length) return "Game over.";
  const sides = (view.sides && view.sides.length ? view.sides : winners.map((s) => [s]));
  const groups = [];
  const seen = new Set();
  for (const side of sides) {
    const won = side.filter((seat) => winners.includes(seat));
    if (!won.length) continue;
    for (const seat of won) seen.add(seat);
    groups.push(won.map((seat) => seatName(names, seat)).join(" & "));
  }
  for (const seat of winners) if (!seen.has(seat)) groups.push(seatName(names, seat));
  return `Game over: ${groups.join(" and ")} won.`;
}

const COMMON = new Set(["game", "seat", "players", "sides", "scores", "winners", "over", "to_act", "doing", "prompt"]);

// Without a game module: the scores as a table and the view's own simple values as facts.
function genericBoard(env, names, kit) {
  const view = env.view || {};
  const parts = [];
  if (!env.over && Array.isArray(view.scores)) {
    parts.push(kit.seatTable([["Score", (seat) => view.scores[seat]]]));
  }
  const pairs = [];
  for (const [key, value] of Object.entries(view)) {
    if (COMMON.has(key)) continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
      pairs.push([words(key), value === null ? "—" : String(value)]);
    }
  }
  if (pairs.length) parts.push(kit.facts(pairs));
  if (Array.isArray(view.hand)) parts.push(el("p", {}, "Your hand: ", kit.cardsLine(view.hand)));
  return parts;
}

// "Ada & Cy · Bo & Di": the teams, when some side has more than one seat.
export function teamsText(view, names) {
  const sides = (view && view.sides) || [];
  if (!sides.some((side) => side.length > 1)) return "";
  return sides.map((side) => side.map((seat) => seatName(names, seat)).join(" & ")).join(" · ");
}

// "Teams: Ada & Cy · Bo & Di", each side in its colour; null without teams.
export function teamsLine(view, names) {
  if (!teamsText(view, names)) return null;
  const line = el("p", { class: "teams-line" }, el("strong", { text: "Teams: " }));
  view.sides.forEach((side, i) => {
    if (i) line.append(" · ");
    line.append(el("span", { class: `team-${i}`, text: side.map((seat) => seatName(names, seat)).join(" & ") }));
  });
  return line;
}

// The cards in play (trick, targets, the row on offer): the game module's `inPlay`, drawn
// on the phone right under the status strip; null for a game without one.
export function renderInPlay(env, names, gameModule = null, faces = {}) {
  if (!gameModule || !gameModule.inPlay || !env.started) return null;
  const box = document.createDocumentFragment();
  const teams = teamsLine(env.view, names); // the teams at a glance, at the top
  if (teams) box.append(teams);
  for (const part of gameModule.inPlay(env, names, makeKit(env, names, faces)) || []) if (part) box.append(part);
  return box;
}

// The board. With `split` (the phone, which draws `inPlay` above the hand) the game module
// leaves out what its `inPlay` already shows.
export function renderBoard(env, names, gameModule = null, faces = {}, scoreWord = "Score", split = false) {
  const box = document.createDocumentFragment();
  const view = env.view || {};
  const kit = makeKit(env, names, faces);
  kit.split = Boolean(split && gameModule && gameModule.inPlay);
  if (env.over) box.append(el("p", { class: "game-over", text: winnersText(view, names) }));
  const teams = split && gameModule && gameModule.inPlay ? null : teamsLine(view, names);
  if (teams) box.append(teams);
  const parts = gameModule && gameModule.board ? gameModule.board(env, names, kit) : genericBoard(env, names, kit);
  for (const part of parts || []) if (part) box.append(part);
  if (env.over && Array.isArray(view.scores)) {
    box.append(
      el(
        "section",
        { class: "final-scores" },
        el("h3", { text: "Final scores" }),
        kit.seatTable([[scoreWord || "Score", (s) => view.scores[s]]], "Final scores"),
      ),
    );
  }
  return box;
}

// The words on a button for one legal action: the engine's own (`env.labels`).
export function actionLabel(env, action) {
  const legal = env.legal || [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const index = legal.findIndex((a) => same(a, action));
  if (index >= 0 && env.labels && env.labels[index]) return env.labels[index];
  const rest = Object.entries(action)
    .filter(([key]) => key !== "type")
    .map(([key, value]) => `${words(key)} ${Array.isArray(value) ? value.join(", ") : value}`);
  return [words(action.type), ...rest].join(" · ");
}

// Whose turn it is, for the status strip: "Your turn", "Ada to play", "Ada, Bo to bid".
export function whoText(env, names) {
  if (!env.started || env.over) return "";
  const view = env.view || {};
  const acting = env.to_act || [];
  const doing = view.doing || "to play";
  if (env.seat !== null && env.seat !== undefined && acting.includes(env.seat)) {
    const others = acting.filter((s) => s !== env.seat).map((s) => seatName(names, s));
    return others.length ? `Your turn (with ${others.join(", ")}) ${doing}` : `Your turn ${doing}`;
  }
  return `${acting.map((s) => seatName(names, s)).join(", ")} ${doing}`;
}

export function statusText(env, names) {
  if (!env.started && env.begun && (env.missing || []).length) {
    // A seat was freed mid-game: the board stays, and the status says who is missing.
    const who = env.missing.map((m) => (m.name ? `${m.name} (seat ${m.seat + 1})` : `seat ${m.seat + 1}`));
    return `Paused: waiting for ${who.join(", ")} to take ${env.missing.length === 1 ? "the seat" : "their seats"} again.`;
  }
  if (!env.started) {
    const missing = env.players.filter((n) => !n).length;
    return `Waiting for ${missing} more player${missing === 1 ? "" : "s"} to join.`;
  }
  if (env.over) return "The game is over.";
  const view = env.view || {};
  const acting = (env.to_act || []).map((s) => seatName(names, s));
  if (env.seat !== null && env.seat !== undefined) {
    if ((env.to_act || []).includes(env.seat)) {
      if (view.prompt) return view.prompt;
      const others = acting.length - 1;
      return others > 0 ? `Your move (with ${others} other${others === 1 ? "" : "s"}).` : "Your move.";
    }
    // The engine's words say what is on the table ("K♥ led."), unless they only say wait.
    const waiting = `Waiting for ${acting.join(", ")}.`;
    return view.prompt && !/^wait/i.test(view.prompt) ? `${waiting} ${view.prompt}` : waiting;
  }
  const who = `${acting.join(", ")} ${view.doing || "to play"}.`;
  return view.prompt ? `${who} ${view.prompt}` : who;
}

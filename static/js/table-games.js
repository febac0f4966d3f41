// Per-game words for engine mode: how a card, an action and the table look. Everything
// else in the host and phone pages is generic over the engines' envelope
// {version, seat, to_act, legal, over, view}. Text only (textContent), never HTML.

import { el } from "./table-live.js";

const SHOOT_SUITS = {
  C: { symbol: "♣", name: "clubs", colour: "black" },
  D: { symbol: "♦", name: "diamonds", colour: "red" },
  H: { symbol: "♥", name: "hearts", colour: "red" },
  S: { symbol: "♠", name: "spades", colour: "black" },
};
const SHOOT_RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const PIRATE_SUITS = { R: "Red", G: "Green", B: "Blue" };
const SHOT_NAMES = {
  man_of_honour: "Man of Honour",
  deadly_aim: "Deadly Aim",
  shoot_to_wound: "Shoot to Wound",
  shoot_to_kill: "Shoot to Kill",
  headshot: "Headshot",
  coward: "Coward",
};

export function seatName(names, seat) {
  if (seat === null || seat === undefined) return "—";
  return (names && names[seat]) || `Seat ${seat + 1}`;
}

function words(id) {
  const text = String(id).replace(/[_-]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// {text, label, colour}: what to print, what a screen reader says, the colour class.
export function cardInfo(game, card, view) {
  const id = String(card);
  if (game === "shoot" && /^[2-9TJQKA][CDHS]$/.test(id)) {
    const suit = SHOOT_SUITS[id[1]];
    const rank = SHOOT_RANKS[id[0]] || id[0];
    return {
      text: `${rank}${suit.symbol}`,
      label: `${RANK_NAMES[id[0]] || rank} of ${suit.name}`,
      colour: suit.colour,
    };
  }
  if (game === "pirate_tricks" && /^[RGB]\d+$/.test(id)) {
    const name = PIRATE_SUITS[id[0]];
    return { text: `${name} ${id.slice(1)}`, label: `${name} ${id.slice(1)}`, colour: id[0] };
  }
  if (game === "pull") {
    const [suit, value] = id.split("-");
    const suits = (view && view.suits) || {};
    const data = suits[suit] || { name: words(suit), symbol: "" };
    const number = value && value.startsWith("T") ? `target ${value.slice(1)}` : value;
    const text = `${data.symbol ? data.symbol + " " : ""}${data.name} ${number || ""}`.trim();
    return { text, label: `${data.name} ${number || ""}`.trim(), colour: suit };
  }
  if (game === "call_the_shot") {
    const name = SHOT_NAMES[id] || words(id);
    return { text: name, label: name, colour: "" };
  }
  return { text: words(id), label: words(id), colour: "" };
}

export function cardText(game, card, view) {
  return cardInfo(game, card, view).text;
}

export function cardNode(game, card, view, tag = "span", attrs = {}) {
  const info = cardInfo(game, card, view);
  const node = el(tag, { ...attrs, class: `card card-${game} colour-${info.colour} ${attrs.class || ""}`.trim() });
  node.append(el("span", { "aria-hidden": "true", text: info.text }));
  node.append(el("span", { class: "visually-hidden", text: info.label }));
  return node;
}

function targetName(view, index) {
  const target = view && view.targets && view.targets[index];
  return target ? cardText("pull", target.card, view) : `target ${index + 1}`;
}

// The words on a button for one legal action.
export function actionLabel(game, action, view, names) {
  const card = action.card !== undefined ? cardText(game, action.card, view) : "";
  switch (action.type) {
    case "play":
      if (action.claim !== undefined) {
        return `Play ${card}, say “${cardText(game, action.claim, view)}”`;
      }
      return `Play ${card}`;
    case "call":
      return "Call the shot";
    case "shoot":
      return `Shoot ${card} at ${targetName(view, action.target)}`;
    case "second":
      return `Second shot: ${card}`;
    case "bid":
      if (action.loon !== undefined) return `Bid ${action.loon} loon`;
      return `Bid ${action.bid}`;
    case "reveal":
      return `Show ${card}`;
    case "assign":
      return `Give the row to ${seatName(names, action.seat)}`;
    case "ditch":
      return `Ditch ${(action.cards || []).map((c) => cardText(game, c, view)).join(" and ")}`;
    case "predict":
      return `Predict ${action.tricks} trick${action.tricks === 1 ? "" : "s"}`;
    default: {
      const rest = Object.entries(action)
        .filter(([key]) => key !== "type")
        .map(([key, value]) => `${words(key)} ${Array.isArray(value) ? value.join(", ") : value}`);
      return [words(action.type), ...rest].join(" · ");
    }
  }
}

// The short word for a choice once its card is picked (e.g. the claim, the target).
export function optionLabel(game, action, view, names) {
  if (action.claim !== undefined) return `Say “${cardText(game, action.claim, view)}”`;
  if (action.target !== undefined) return `At ${targetName(view, action.target)}`;
  return actionLabel(game, action, view, names);
}

// -- the table, from a public (or the seat's own) view ---------------------------------

function facts(pairs) {
  const list = el("dl", { class: "facts-list" });
  for (const [term, value] of pairs) {
    if (value === null || value === undefined || value === "") continue;
    list.append(el("div", {}, el("dt", { text: term }), el("dd", {}, value)));
  }
  return list;
}

function cardsLine(game, cards, view) {
  const line = el("span", { class: "card-line" });
  for (const card of cards || []) line.append(cardNode(game, card, view));
  if (!cards || !cards.length) line.append(el("span", { class: "muted", text: "none" }));
  return line;
}

function playsLine(game, plays, view, names) {
  const list = el("ul", { class: "plays" });
  for (const play of plays || []) {
    const seat = Array.isArray(play) ? play[0] : play.seat;
    const card = Array.isArray(play) ? play[1] : play.card;
    list.append(el("li", {}, el("span", { class: "who", text: seatName(names, seat) }), cardNode(game, card, view)));
  }
  return list;
}

function seatTable(env, names, columns) {
  const table = el("table", { class: "seats-table" });
  const head = el("tr", {}, el("th", { scope: "col", text: "Player" }));
  for (const [title] of columns) head.append(el("th", { scope: "col", text: title }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (let seat = 0; seat < names.length; seat++) {
    const acting = (env.to_act || []).includes(seat);
    const row = el("tr", { class: acting ? "is-acting" : "" });
    const who = el("th", { scope: "row" }, seatName(names, seat));
    if (seat === env.seat) who.append(el("span", { class: "you-mark", text: " (you)" }));
    if (acting) who.append(el("span", { class: "acting-mark badge", text: "to play" }));
    row.append(who);
    for (const [, value] of columns) {
      const cell = value(seat);
      row.append(el("td", {}, cell === null || cell === undefined ? "—" : String(cell)));
    }
    body.append(row);
  }
  table.append(body);
  return el("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": "Players" }, table);
}

function winnersLine(env, names) {
  const view = env.view || {};
  let winners = view.winners;
  if (!env.over) return null;
  if ((!winners || !winners.length) && env.scores) {
    const best = Math.max(...env.scores);
    winners = env.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0);
  }
  if (env.game === "call_the_shot" && view.winner !== null && view.winner !== undefined) {
    winners = [view.winner];
  }
  const who = (winners || []).map((i) => seatName(names, i)).join(" and ");
  return el("p", { class: "game-over", text: who ? `Game over: ${who} won.` : "Game over." });
}

// A tag after a PULL! target value the rulebook does not print ("house") or the group
// changed for this table ("table"); the rulebook's own values get none.
function valueTag(tag) {
  if (tag === "house") return el("span", { class: "tag-house", title: "House value: not printed in the rulebook", text: "house" });
  if (tag === "table") return el("span", { class: "tag-table", title: "Changed for this table", text: "table" });
  return null;
}

export function pullValues(target) {
  const tags = target.tags || {};
  const box = el("span", { class: "target-values muted" });
  box.append(` worth ${target.left} `, valueTag(tags.left) || "", ` · double ${target.double} `, valueTag(tags.double) || "");
  if (target.animal) box.append(" · animal ", valueTag(tags.animal) || "");
  else if (tags.animal === "table") box.append(" · not an animal ", valueTag(tags.animal));
  return box;
}

// -- Pirate Tricks: score cards, the auction's shown bids, recruitment, past rounds -----

const SCORE_KIND_NAMES = { recruitment: "Recruitment", treasure: "Treasure", capture: "Capture" };

// The rulebook's own cards ("seed") get no tag; house cards and the group's own cards do.
function scoreCardTag(tag) {
  return valueTag(tag === "group" ? "table" : tag);
}

function pirateScoreCards(v) {
  const cards = v.score_cards;
  if (!cards) return [];
  const list = el("ul", { class: "pirate-rows score-cards" });
  const entries = [...(cards.recruitment || []).map((c) => ["recruitment", c]), ["treasure", cards.treasure], ["capture", cards.capture]];
  for (const [kind, card] of entries) {
    if (!card) continue;
    const title = el("span", { class: "who" }, `${SCORE_KIND_NAMES[kind]}: ${card.name} `);
    const tag = scoreCardTag(card.tag);
    if (tag) title.append(tag);
    list.append(el("li", {}, title, el("span", { class: "muted", text: card.text || "" })));
  }
  return [el("h3", { text: "Score cards" }), list];
}

function signed(n) {
  if (n === null || n === undefined) return null;
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function auctionEvent(event, v, names) {
  const name = (s) => seatName(names, s);
  const item = el("li", {}, el("span", { class: "who", text: `Row ${event.row + 1}${event.pass === 2 ? " · second bids" : ""}` }));
  if (event.bids) {
    const bids = event.bids.map((b, s) => (b === null || b === undefined ? null : `${name(s)} ${b}`)).filter(Boolean);
    item.append(el("span", { text: `Bids: ${bids.join(" · ")}` }));
  }
  if (event.reveals) {
    const shown = (event.tied || []).filter((s) => event.reveals[s]).map((s) => [s, event.reveals[s]]);
    item.append(el("span", { class: "muted", text: " Tie-break cards:" }), playsLine("pirate_tricks", shown, v, names));
  }
  const found = event.row_loon ? `, with ${event.row_loon} loon on it` : "";
  let result = "";
  if (event.result === "zero") result = "Nobody bid: the bank put 2 loon on the row.";
  else if (event.result === "free") result = `${name(event.taker)} took the last row free${found}.`;
  else if (event.result === "won") result = `${name(event.taker)} took it for ${event.paid} loon${found}.`;
  else if (event.result === "chosen") result = `${name(event.chooser)} won the tie-break and gave it to ${name(event.taker)}${found}.`;
  else if (event.taker !== undefined) result = `${name(event.taker)} won the tie-break and took it for ${event.paid} loon${found}.`;
  else if (event.reveal_winner !== undefined) result = `${name(event.reveal_winner)} won the tie-break and chooses who takes it.`;
  else result = `Tie between ${(event.tied || []).map(name).join(", ")}: each shows a card.`;
  item.append(el("span", { class: "muted", text: ` ${result}` }));
  return item;
}

function pirateAuction(v, names) {
  const events = v.events || [];
  if (!events.length) return [];
  const list = el("ol", { class: "pirate-rows auction-events" });
  for (const event of events) list.append(auctionEvent(event, v, names));
  return [el("h3", { text: "Auction" }), list];
}

function pirateRecruitment(v, names) {
  const results = v.recruitment;
  const cards = (v.score_cards && v.score_cards.recruitment) || [];
  if (!results || !results.length) return [];
  const list = el("ul", { class: "pirate-rows recruitment" });
  results.forEach((perSeat, i) => {
    const item = el("li", {}, el("span", { class: "who", text: cards[i] ? cards[i].name : `Recruitment card ${i + 1}` }));
    perSeat.forEach((entry, seat) => {
      item.append(el("div", {}, el("span", { text: `${seatName(names, seat)} ${signed(entry.loon)}: ` }), cardsLine("pirate_tricks", entry.cards, v)));
    });
    list.append(item);
  });
  return [el("h3", { text: "Recruitment" }), list];
}

function pirateHistory(env, names) {
  const parts = [];
  for (const past of [...(env.view.history || [])].reverse()) {
    const sum = (s) => (past.recruitment || []).reduce((total, perCard) => total + (perCard[s] || 0), 0);
    const columns = [
      ["Row", (s) => signed(-past.paid_for_rows[s])],
      ["Crew", (s) => signed(sum(s))],
      ["Tricks", (s) => (past.predictions && past.predictions[s] !== null ? `${past.tricks[s]} (said ${past.predictions[s]})` : past.tricks[s])],
      ["Treasure", (s) => signed(past.treasure[s])],
      ["Capture", (s) => signed(past.capture[s])],
    ];
    if ((past.top_ups || []).some(Boolean)) columns.unshift(["Top-up", (s) => signed(past.top_ups[s])]);
    parts.push(el("h3", { text: `Round ${past.round} results` }), seatTable({ ...env, to_act: [] }, names, columns));
  }
  return parts;
}

const BOARDS = {
  shoot(env, names) {
    const v = env.view;
    const trump = v.trump ? cardNode("shoot", v.trump, v) : null;
    const parts = [
      facts([
        ["Deal", `${v.deal} of ${v.deals} (${v.hand_size} card${v.hand_size === 1 ? "" : "s"})`],
        ["Trump", trump],
        ["Dealer", seatName(names, v.dealer)],
        ["Bids", v.bid_total !== null && v.bid_total !== undefined ? `${v.bid_total} for ${v.tricks_available} tricks` : "sealed until all are in"],
      ]),
      seatTable(env, names, [
        ["Bid", (s) => (v.bids && v.bids[s] !== null ? v.bids[s] : v.bids_in && v.bids_in[s] ? "in" : "…")],
        ["Tricks", (s) => (v.taken ? v.taken[s] : 0)],
        ["Cards", (s) => (v.hand_sizes ? v.hand_sizes[s] : "")],
        ["Score", (s) => (v.totals ? v.totals[s] : 0)],
      ]),
    ];
    if (v.trick && v.trick.length) {
      parts.push(el("h3", { text: "This trick" }), playsLine("shoot", v.trick, v, names));
    } else if (v.last_trick) {
      parts.push(
        el("h3", { text: `Last trick: ${seatName(names, v.last_trick.winner)} took it` }),
        playsLine("shoot", v.last_trick.plays, v, names),
      );
    }
    return parts;
  },

  call_the_shot(env, names) {
    const v = env.view;
    const parts = [
      facts([
        ["Duel", String(v.duel)],
        ["Challenger", seatName(names, v.challenger)],
        ["Shots taken", `${(v.shots || []).map((n, i) => `${seatName(names, i)} ${n}`).join(", ")} (out at ${v.shots_to_lose})`],
        ["Face up", cardsLine("call_the_shot", v.face_up, v)],
        ["Face down", `${v.face_down_count} card${v.face_down_count === 1 ? "" : "s"}`],
      ]),
      seatTable(env, names, [
        ["Claims this duel", (s) => ((v.claims && v.claims[s]) || []).map((c) => cardText("call_the_shot", c, v)).join(", ") || "none yet"],
        ["Cards in hand", (s) => (v.hand_counts ? v.hand_counts[s] : "")],
        ["Shots", (s) => (v.shots ? v.shots[s] : 0)],
      ]),
    ];
    const last = v.last_duel;
    if (last) {
      const revealed = (last.revealed || []).map((r) => cardText("call_the_shot", r.card, v)).join(", ");
      const shot = last.shot !== null && last.shot !== undefined ? `${seatName(names, last.shot)} took a shot` : "no shot taken";
      parts.push(
        el("h3", { text: `Last duel (${last.duel})` }),
        el("p", { text: `${seatName(names, last.caller)} called. Revealed: ${revealed || "—"}. Result: ${shot}${last.reason ? ` (${words(last.reason).toLowerCase()})` : ""}.` }),
      );
    }
    return parts;
  },

  pull(env, names) {
    const v = env.view;
    const parts = [
      facts([
        ["Hand", `${v.hand_no}, round ${v.round} of ${v.rounds_per_hand}`],
        ["Phase", words(v.phase)],
        ["Dealer", seatName(names, v.dealer)],
        v.hands_to_play ? ["Hands to play", String(v.hands_to_play)] : ["Play to", `${v.goal} points`],
      ]),
    ];
    const targets = el("ul", { class: "targets" });
    (v.targets || []).forEach((target) => {
      const item = el("li", { class: "target" });
      item.append(cardNode("pull", target.card, v, "span", { class: "target-card" }));
      item.append(pullValues(target));
      item.append(playsLine("pull", (target.shots || []).map((s) => [s.seat, s.card]), v, names));
      targets.append(item);
    });
    parts.push(el("h3", { text: "Targets" }), targets);
    const changes = v.target_changes || [];
    if (changes.length) {
      const list = changes.map((change) => {
        const said = [];
        if (change.double !== undefined) said.push(`double ${change.double}`);
        if (change.animal !== undefined) said.push(change.animal ? "an animal" : "not an animal");
        return `${cardText("pull", change.card, v)} (worth ${change.left}): ${said.join(", ")}`;
      });
      parts.push(el("p", { class: "muted table-values" }, el("strong", { text: "This table's values: " }), list.join(" · ")));
    }
    parts.push(
      seatTable(env, names, [
        ["Cards", (s) => (v.hand_sizes ? v.hand_sizes[s] : "")],
        ["This hand", (s) => (v.hand_points ? v.hand_points[s] : 0)],
        ["Score", (s) => (v.scores ? v.scores[s] : 0)],
      ]),
    );
    return parts;
  },

  pirate_tricks(env, names) {
    const v = env.view;
    const a = v.auction;
    const who = (seats) => (seats || []).map((s) => seatName(names, s)).join(", ");
    const parts = [
      facts([
        ["Round", `${v.round} of ${v.rounds}`],
        ["Phase", words(v.phase)],
        ["Go first", v.go_first !== null && v.go_first !== undefined ? seatName(names, v.go_first) : ""],
        ["Bidding on", a && a.row !== null && a.row !== undefined ? `Row ${a.row + 1}${a.pass === 2 ? " (second bids)" : ""}` : ""],
        ["Tied", a && a.tied && a.tied.length ? who(a.tied) : ""],
        ["Your bid", a && a.your_bid !== null && a.your_bid !== undefined ? `${a.your_bid} loon` : ""],
        ["Your card", a && a.your_reveal ? cardNode("pirate_tricks", a.your_reveal, v) : ""],
        ["You ditched", v.ditched ? cardsLine("pirate_tricks", v.ditched, v) : ""],
        ["Waiting for", a && a.waiting ? who(a.waiting) : ""],
      ]),
    ];
    // During play the trick comes first: it is what the phones look at.
    if (v.trick && v.trick.plays && v.trick.plays.length) {
      parts.push(el("h3", { text: "This trick" }), playsLine("pirate_tricks", v.trick.plays, v, names));
    } else if (v.last_trick) {
      parts.push(
        el("h3", { text: `Last trick: ${seatName(names, v.last_trick.winner)} took it` }),
        playsLine("pirate_tricks", v.last_trick.plays, v, names),
      );
    }
    parts.push(...pirateScoreCards(v));
    const rows = el("ol", { class: "pirate-rows" });
    (v.rows || []).forEach((row) => {
      const owner = row.owner !== null && row.owner !== undefined ? seatName(names, row.owner) : "open";
      rows.append(
        el("li", {}, el("span", { class: "who", text: `${owner}${row.loon ? ` · ${row.loon} loon on it` : ""}` }), cardsLine("pirate_tricks", row.up, v)),
      );
    });
    if (v.rows && v.rows.length) parts.push(el("h3", { text: "Rows of crew" }), rows);
    parts.push(...pirateAuction(v, names));
    const columns = [["Tricks", (s) => (v.tricks ? v.tricks[s] : 0)]];
    if (v.predicting) columns.push(["Prediction", (s) => (v.predictions ? v.predictions[s] : null)]);
    columns.push(["Loon", (s) => (v.loon && v.loon[s] !== null ? v.loon[s] : "hidden")]);
    parts.push(seatTable(env, names, columns));
    parts.push(...pirateRecruitment(v, names));
    parts.push(...pirateHistory(env, names));
    return parts;
  },
};

export function renderBoard(env, names) {
  const box = document.createDocumentFragment();
  const over = winnersLine(env, names);
  if (over) box.append(over);
  const board = BOARDS[env.game];
  if (board) {
    for (const part of board(env, names)) if (part) box.append(part);
  } else {
    box.append(el("pre", { text: JSON.stringify(env.view, null, 2) }));
  }
  if (env.over && env.scores) {
    // Call the Shot counts the shots each player has taken: fewer is better.
    const title = env.game === "call_the_shot" ? "Shots taken" : "Score";
    box.append(el("h3", { text: "Final scores" }));
    box.append(seatTable({ ...env, to_act: [] }, names, [[title, (s) => env.scores[s]]]));
  }
  return box;
}

export function statusText(env, names) {
  if (!env.started) {
    const missing = env.players.filter((n) => !n).length;
    return `Waiting for ${missing} more player${missing === 1 ? "" : "s"} to join.`;
  }
  if (env.over) return "The game is over.";
  const acting = (env.to_act || []).map((s) => seatName(names, s));
  if (env.seat !== null && env.seat !== undefined) {
    if ((env.to_act || []).includes(env.seat)) {
      const others = acting.length - 1;
      return others > 0 ? `Your move (with ${others} other${others === 1 ? "" : "s"}).` : "Your move.";
    }
    return `Waiting for ${acting.join(", ")}.`;
  }
  return `${acting.join(", ")} to play.`;
}

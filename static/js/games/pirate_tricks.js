// Pirate Tricks on the Play board: the round and phase, the auction, the score cards, the
// rows of crew (Row 1, 2, 3 … from the top), the trick, tricks and predictions per seat,
// recruitment and past rounds. Crew card names come from the faces the page embeds
// (kit.card, kit.cardText); your own loon from the common block (env.view.scores: the
// others' loon stays hidden until the game is over).

const SCORE_KIND_NAMES = { recruitment: "Recruitment", treasure: "Treasure", capture: "Capture" };

// The rulebook's own cards ("seed") get no tag; house cards and the group's own cards do.
function scoreCardTag(kit, tag) {
  if (tag === "house") return kit.el("span", { class: "tag-house", title: "House card: not printed in the rulebook", text: "house" });
  if (tag === "group") return kit.el("span", { class: "tag-table", title: "Changed for this table", text: "table" });
  return null;
}

function rowName(row) {
  return `Row ${row + 1}`;
}

function scoreCards(v, kit) {
  const cards = v.score_cards;
  if (!cards) return [];
  const list = kit.el("ul", { class: "pirate-rows score-cards" });
  const entries = [...(cards.recruitment || []).map((c) => ["recruitment", c]), ["treasure", cards.treasure], ["capture", cards.capture]];
  for (const [kind, card] of entries) {
    if (!card) continue;
    const title = kit.el("span", { class: "who" }, `${SCORE_KIND_NAMES[kind]}: ${card.name} `);
    const tag = scoreCardTag(kit, card.tag);
    if (tag) title.append(tag);
    list.append(kit.el("li", {}, title, kit.el("span", { class: "muted", text: card.text || "" })));
  }
  return [kit.el("h3", { text: "Score cards" }), list];
}

function auctionEvent(event, kit) {
  const name = (s) => kit.seatName(s);
  const item = kit.el("li", {}, kit.el("span", { class: "who", text: `${rowName(event.row)}${event.pass === 2 ? " · second bids" : ""}` }));
  if (event.bids) {
    const bids = event.bids.map((b, s) => (b === null || b === undefined ? null : `${name(s)} ${b}`)).filter(Boolean);
    item.append(kit.el("span", { text: `Bids: ${bids.join(" · ")}` }));
  }
  if (event.reveals) {
    const shown = (event.tied || []).filter((s) => event.reveals[s]).map((s) => [s, event.reveals[s]]);
    item.append(kit.el("span", { class: "muted", text: " Tie-break cards:" }), kit.playsLine(shown));
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
  item.append(kit.el("span", { class: "muted", text: ` ${result}` }));
  return item;
}

function auction(v, kit) {
  const events = v.events || [];
  if (!events.length) return [];
  const list = kit.el("ol", { class: "pirate-rows auction-events" });
  for (const event of events) list.append(auctionEvent(event, kit));
  return [kit.el("h3", { text: "Auction" }), list];
}

function recruitment(v, kit) {
  const results = v.recruitment;
  const cards = (v.score_cards && v.score_cards.recruitment) || [];
  if (!results || !results.length) return [];
  const list = kit.el("ul", { class: "pirate-rows recruitment" });
  results.forEach((perSeat, i) => {
    const item = kit.el("li", {}, kit.el("span", { class: "who", text: cards[i] ? cards[i].name : `Recruitment card ${i + 1}` }));
    perSeat.forEach((entry, seat) => {
      // "Bo: +3 loon" over the cards shown for it ("Ann: 0 loon" alone without any).
      const line = kit.el("div", {}, kit.el("span", { text: `${kit.seatName(seat)}: ${kit.signed(entry.loon)} loon` }));
      if (entry.cards && entry.cards.length) line.append(kit.cardsLine(entry.cards));
      item.append(line);
    });
    list.append(item);
  });
  return [kit.el("h3", { text: "Recruitment" }), list];
}

function history(v, kit) {
  const parts = [];
  for (const past of [...(v.history || [])].reverse()) {
    const sum = (s) => (past.recruitment || []).reduce((total, perCard) => total + (perCard[s] || 0), 0);
    const columns = [
      ["Row", (s) => kit.signed(-past.paid_for_rows[s])],
      ["Crew", (s) => kit.signed(sum(s))],
      ["Tricks", (s) => (past.predictions && past.predictions[s] !== null ? `${past.tricks[s]} (said ${past.predictions[s]})` : past.tricks[s])],
      ["Treasure", (s) => kit.signed(past.treasure[s])],
      ["Capture", (s) => kit.signed(past.capture[s])],
    ];
    if ((past.top_ups || []).some(Boolean)) columns.unshift(["Top-up", (s) => kit.signed(past.top_ups[s])]);
    const title = `Round ${past.round} results`;
    parts.push(kit.el("h3", { text: title }), kit.seatTable(columns, title));
  }
  return parts;
}

function trickParts(v, kit) {
  if (v.trick && v.trick.plays && v.trick.plays.length) {
    return [kit.el("h3", { text: `This trick: ${kit.cardText(v.trick.plays[0][1])} led` }), kit.playsLine(v.trick.plays)];
  }
  if (v.last_trick) {
    return [kit.el("h3", { text: `Last trick: ${kit.seatName(v.last_trick.winner)} took it` }), kit.playsLine(v.last_trick.plays)];
  }
  return [];
}

// What the phone shows right under the status strip, next to the bid buttons: the row on
// offer (Row 1, 2, 3 … from the top) with its face-up crew, and the trick.
export function inPlay(env, names, kit) {
  const v = env.view;
  const a = v.auction;
  const parts = [];
  if (a && a.row !== null && a.row !== undefined && v.rows && v.rows[a.row]) {
    const row = v.rows[a.row];
    const loon = row.loon ? ` · ${row.loon} loon on it` : "";
    parts.push(kit.el("h3", { text: `Bidding on ${rowName(a.row)}${a.pass === 2 ? " (second bids)" : ""}${loon}` }), kit.cardsLine(row.up));
  }
  parts.push(...trickParts(v, kit));
  return parts;
}

export function board(env, names, kit) {
  const v = env.view;
  const a = v.auction;
  const scores = v.scores || [];
  const who = (seats) => (seats || []).map((s) => kit.seatName(s)).join(", ");
  const has = (x) => x !== null && x !== undefined;
  const parts = [
    kit.facts([
      ["Round", `${v.round} of ${v.rounds}`],
      ["Phase", kit.words(v.phase)],
      ["Go first", has(v.go_first) ? kit.seatName(v.go_first) : ""],
      ["Bidding on", a && has(a.row) ? `${rowName(a.row)}${a.pass === 2 ? " (second bids)" : ""}` : ""],
      ["Tied", a && a.tied && a.tied.length ? who(a.tied) : ""],
      ["Your bid", a && has(a.your_bid) ? `${a.your_bid} loon` : ""],
      ["Your card", a && a.your_reveal ? kit.card(a.your_reveal) : ""],
      ["You ditched", v.ditched ? kit.cardsLine(v.ditched) : ""],
      ["Waiting for", a && a.waiting ? who(a.waiting) : ""],
    ]),
  ];
  // During play the trick comes first on the host screen (a phone has it above the hand).
  if (!kit.split || env.over) parts.push(...trickParts(v, kit));
  parts.push(...scoreCards(v, kit));
  const rows = kit.el("ol", { class: "pirate-rows" });
  (v.rows || []).forEach((row, r) => {
    const title = row.name || rowName(r);
    const owner = has(row.owner) ? `: ${kit.seatName(row.owner)}` : "";
    rows.append(
      kit.el("li", {}, kit.el("span", { class: "who", text: `${title}${owner}${row.loon ? ` · ${row.loon} loon on it` : ""}` }), kit.cardsLine(row.up)),
    );
  });
  if (v.rows && v.rows.length) parts.push(kit.el("h3", { text: "Rows of crew" }), rows);
  parts.push(...auction(v, kit));
  const columns = [["Tricks", (s) => (v.tricks ? v.tricks[s] : 0)]];
  if (v.predicting) columns.push(["Prediction", (s) => (v.predictions ? v.predictions[s] : null)]);
  if (!env.over) columns.push(["Loon", (s) => (has(scores[s]) ? scores[s] : "hidden")]);
  parts.push(kit.seatTable(columns));
  parts.push(...recruitment(v, kit));
  parts.push(...history(v, kit));
  return parts;
}

// The short label once a card is picked: the engine's own words without the verb
// ("Show Red 7" -> "Red 7"), the full label otherwise.
export function optionLabel(action, label, env, kit) {
  if (action && (action.type === "reveal" || action.type === "play") && action.card) return kit.cardText(action.card);
  return label;
}

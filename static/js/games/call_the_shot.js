// Call the Shot on the Play board: the duel, the challenger, the shots taken, the face-up
// cards, everybody's claims, your own face-down plays and the last duel's result. Card
// names (with their values) come from the faces the page embeds (kit.card, kit.cardText);
// the shots from the common block (env.view.scores).

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function revealedText(kit, seat, shown) {
  if (!shown) return null;
  const doubled = shown.deadly_aim ? ", doubled" : "";
  const how = shown.from_hand ? " from hand" : "";
  return `${kit.seatName(seat)}: ${kit.cardText(shown.card)}${how}${doubled} = ${shown.value}`;
}

function lastDuel(v, kit) {
  const last = v.last_duel;
  if (!last) return [];
  const revealed = (last.revealed || []).map((shown, seat) => revealedText(kit, seat, shown)).filter(Boolean);
  const shot =
    last.shot !== null && last.shot !== undefined ? `${kit.seatName(last.shot)} took a shot` : "nobody was shot";
  const reason = last.reason ? ` (${kit.words(last.reason).toLowerCase()})` : "";
  return [
    kit.el("h3", { text: `Last duel (${last.duel})` }),
    kit.el("p", {
      text: `${kit.seatName(last.caller)} called. Revealed: ${revealed.join("; ") || "—"}. Result: ${shot}${reason}.`,
    }),
  ];
}

// This game's own part of the duel's result card (the generic card draws the rest): what
// each player claimed on the way to the reveal.
export function resultPart(result, env, names, kit) {
  const claims = (result.own && result.own.claims) || [];
  const said = claims.map((list, seat) => `${kit.seatName(seat)}: ${list.map((c) => kit.cardText(c)).join(", ") || "nothing"}`);
  return said.length ? [kit.el("p", { class: "result-line result-claims", text: `Claimed — ${said.join(" · ")}` })] : [];
}

// What the phone shows right under the status strip: the face-up cards and what each
// player has claimed this duel.
export function inPlay(env, names, kit) {
  const v = env.view;
  const claims = (v.claims || []).map((said, seat) => `${kit.seatName(seat)}: ${said.map((c) => kit.cardText(c)).join(", ") || "nothing yet"}`);
  return [
    kit.el("p", { class: "in-play-line" }, `Duel ${v.duel} · face up: `, kit.cardsLine(v.face_up)),
    kit.el("p", { class: "in-play-line", text: `Claimed — ${claims.join(" · ")}` }),
  ];
}

export function board(env, names, kit) {
  const v = env.view;
  const scores = v.scores || [];
  const mine = (v.my_plays || []).map((p) => `${kit.cardText(p.card)} (said ${kit.cardText(p.claim)})`);
  const parts = [
    kit.facts([
      ["Duel", String(v.duel)],
      ["Challenger", kit.seatName(v.challenger)],
      ["Shots taken", `${scores.map((n, s) => `${kit.seatName(s)} ${n}`).join(", ")} (out at ${v.shots_to_lose})`],
      ["Face up", kit.cardsLine(v.face_up)],
      ["Face down", plural(v.face_down_count, "card")],
      ["Your plays", mine.length ? mine.join(", ") : null],
    ]),
    kit.seatTable([
      ["Claims this duel", (s) => ((v.claims && v.claims[s]) || []).map((c) => kit.cardText(c)).join(", ") || "none yet"],
      ["Cards in hand", (s) => (v.hand_counts ? v.hand_counts[s] : "")],
      ["Shots", (s) => (scores[s] !== undefined ? scores[s] : 0)],
    ]),
  ];
  parts.push(...lastDuel(v, kit));
  return parts;
}

// The short label once a card is picked: what you say it is ("Say “Coward”"), taken from
// the engine's own words for the action ("Play Headshot, say “Coward”").
export function optionLabel(action, label, env, kit) {
  const said = String(label || "").split(", say ")[1];
  return said ? `Say ${said}` : label;
}

// PULL! on the Play board: the hand and round, the two targets with their values and the
// shots on them, the table's own target values, and each seat's cards, points this hand
// and score. Card names come from the faces the page embeds (kit.card, kit.cardText);
// scores per seat from the common block (env.view.scores: partners show their side's).

// A target in words, as a player needs it: "Trap 10 — double 15, animal: a foul". Values
// the rulebook does not print are explained where they are shown.
export function targetWords(v, target) {
  const suit = (v.suits && v.suits[target.suit] && v.suits[target.suit].name) || target.suit;
  const animal = target.animal ? ", animal: a foul" : "";
  return `${suit} ${target.left} — double ${target.double}${animal}`;
}

export function houseNote(target) {
  const tags = target.tags || {};
  const house = ["double", "animal"].filter((key) => tags[key] === "house");
  const table = ["double", "animal"].filter((key) => tags[key] === "table");
  const notes = [];
  if (house.length) notes.push(`${house.join(" and ")}: house value${house.length > 1 ? "s" : ""}, not printed in the rulebook`);
  if (table.length) notes.push(`${table.join(" and ")}: changed for this table`);
  return notes.join("; ");
}

// Who takes the target if the round ended now, in the side's colour.
function winningNow(v, target, kit) {
  if (!(target.shots || []).length) return null;
  const seat = target.winning;
  if (seat === null || seat === undefined) return kit.el("p", { class: "winning-now muted", text: "Winning now: nobody (a tie)" });
  const side = (v.sides || []).find((members) => members.includes(seat)) || [seat];
  const who = side.length > 1 ? ` (${side.map((s) => kit.seatName(s)).join(" & ")})` : "";
  return kit.el("p", { class: "winning-now" }, "Winning now: ", kit.el("strong", { class: kit.teamClass(seat), text: `${kit.seatName(seat)}${who}` }));
}

function targetItem(v, target, kit) {
  return kit.el(
    "li",
    { class: "target" },
    kit.card(target.card),
    kit.el("span", { class: "target-values", text: ` ${targetWords(v, target)}` }),
    kit.playsLine((target.shots || []).map((s) => [s.seat, s.card])),
    winningNow(v, target, kit),
  );
}

function targetsParts(v, kit) {
  const targets = kit.el("ul", { class: "targets" }, ...(v.targets || []).map((target) => targetItem(v, target, kit)));
  // One note for both targets: which of the values shown the rulebook does not print.
  const notes = [...new Set((v.targets || []).map(houseNote).filter(Boolean))];
  return [
    kit.el("h3", { text: `Targets (hand ${v.hand_no}, round ${v.round} of ${v.rounds_per_hand})` }),
    targets,
    notes.length ? kit.el("p", { class: "house-note muted", text: `${notes.join("; ")}.` }) : null,
  ];
}

// What the phone shows right under the status strip: the two targets and the shots on them.
export function inPlay(env, names, kit) {
  const v = env.view;
  const parts = targetsParts(v, kit);
  if (v.my_second) parts.push(kit.el("p", {}, "Your second shot: ", kit.card(v.my_second)));
  return parts;
}

function sideOf(v, seat) {
  return (v.sides || []).findIndex((side) => side.includes(seat));
}

export function board(env, names, kit) {
  const v = env.view;
  const scores = v.scores || [];
  const parts = [
    kit.facts([
      ["Hand", `${v.hand_no}, round ${v.round} of ${v.rounds_per_hand}`],
      ["Phase", kit.words(v.phase)],
      ["Dealer", kit.seatName(v.dealer)],
      v.hands_to_play ? ["Hands to play", String(v.hands_to_play)] : ["Play to", `${v.goal} points`],
      ["Your pick", v.my_second && !kit.split ? kit.card(v.my_second) : null],
    ]),
  ];
  if (!kit.split) parts.push(...targetsParts(v, kit));
  const changes = v.target_changes || [];
  if (changes.length) {
    const list = changes.map((change) => {
      const said = [];
      if (change.double !== undefined) said.push(`double ${change.double}`);
      if (change.animal !== undefined) said.push(change.animal ? "an animal" : "not an animal");
      return `${kit.cardText(change.card)} (worth ${change.left}): ${said.join(", ")}`;
    });
    parts.push(kit.el("p", { class: "muted table-values" }, kit.el("strong", { text: "This table's values: " }), list.join(" · ")));
  }
  // The score first, and five columns at most, so a phone shows them all.
  const columns = [
    ["Score", (s) => (scores[s] !== undefined ? scores[s] : 0)],
    ["This hand", (s) => (v.hand_points ? v.hand_points[sideOf(v, s)] : 0)],
    ["Fouls", (s) => (v.fouls ? v.fouls[sideOf(v, s)] : 0)],
  ];
  if (v.sealed_seconds && v.phase === "second") {
    columns.push(["Picked", (s) => (v.picked && v.picked[s] ? "yes" : "…")]);
  } else {
    columns.push(["Cards", (s) => (v.hand_sizes ? v.hand_sizes[s] : "")]);
  }
  parts.push(kit.seatTable(columns));
  if (v.last_round) {
    const lines = v.last_round.targets.map((t) => {
      const who = t.seat !== null && t.seat !== undefined ? `${kit.seatName(t.seat)} took it` : "nobody took it";
      return kit.el("li", {}, kit.card(t.card), ` ${who}`, kit.playsLine(t.shots || []));
    });
    parts.push(kit.el("h3", { text: `Last round (hand ${v.last_round.hand}, round ${v.last_round.round})` }), kit.el("ul", { class: "last-round" }, ...lines));
  }
  return parts;
}

// Once a card is picked for a first shot, the choice is the target it goes on.
export function optionLabel(action, label, env, kit) {
  if (action.target !== undefined) {
    const target = env.view.targets && env.view.targets[action.target];
    return target ? `At ${kit.cardText(target.card)}` : label;
  }
  return label;
}

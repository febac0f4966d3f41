// PULL! on the Play board: the hand and round, the two targets with their values and the
// shots on them, the table's own target values, and each seat's cards, points this hand
// and score. Card names come from the faces the page embeds (kit.card, kit.cardText);
// scores per seat from the common block (env.view.scores: partners show their side's).

// A tag after a target value the rulebook does not print ("house") or the group changed
// for this table ("table"); the rulebook's own values get none.
function valueTag(kit, tag) {
  if (tag === "house") return kit.el("span", { class: "tag-house", title: "House value: not printed in the rulebook", text: "house" });
  if (tag === "table") return kit.el("span", { class: "tag-table", title: "Changed for this table", text: "table" });
  return "";
}

function targetValues(kit, target) {
  const tags = target.tags || {};
  const box = kit.el("span", { class: "target-values muted" });
  box.append(` worth ${target.left} `, valueTag(kit, tags.left), ` · double ${target.double} `, valueTag(kit, tags.double));
  if (target.animal) box.append(" · animal ", valueTag(kit, tags.animal));
  else if (tags.animal === "table") box.append(" · not an animal ", valueTag(kit, tags.animal));
  return box;
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
      ["Your pick", v.my_second ? kit.card(v.my_second) : null],
    ]),
  ];
  const targets = kit.el("ul", { class: "targets" });
  (v.targets || []).forEach((target) => {
    const item = kit.el("li", { class: "target" });
    item.append(kit.card(target.card), targetValues(kit, target));
    item.append(kit.playsLine((target.shots || []).map((s) => [s.seat, s.card])));
    targets.append(item);
  });
  if ((v.targets || []).length) parts.push(kit.el("h3", { text: "Targets" }), targets);
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
      return kit.el("li", {}, kit.card(t.card), ` ${who}`);
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

// Shoot! on the Play board: the deal, the trump, the bids (sealed until all are in), the
// tricks and the trick on the table. Card names come from the faces the page embeds
// (kit.card, kit.cardText); scores from the common block (env.view.scores).

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function bidCell(v, seat) {
  if (v.bids && v.bids[seat] !== null && v.bids[seat] !== undefined) return v.bids[seat];
  return v.bids_in && v.bids_in[seat] ? "in" : "…";
}

export function board(env, names, kit) {
  const v = env.view;
  const scores = v.scores || [];
  const bids =
    v.bid_total !== null && v.bid_total !== undefined
      ? `${v.bid_total} for ${plural(v.tricks_available, "trick")}`
      : "sealed until all are in";
  const parts = [
    kit.facts([
      ["Deal", `${v.deal} of ${v.deals} (${plural(v.hand_size, "card")})`],
      ["Trump", v.trump ? kit.card(v.trump) : null],
      ["Dealer", kit.seatName(v.dealer)],
      ["Bids", bids],
    ]),
    kit.seatTable([
      ["Bid", (s) => bidCell(v, s)],
      ["Tricks", (s) => (v.taken ? v.taken[s] : 0)],
      ["Cards", (s) => (v.hand_sizes ? v.hand_sizes[s] : "")],
      ["Score", (s) => (scores[s] !== undefined ? scores[s] : 0)],
    ]),
  ];
  if (v.trick && v.trick.length) {
    parts.push(kit.el("h3", { text: "This trick" }), kit.playsLine(v.trick));
  } else if (v.last_trick) {
    parts.push(
      kit.el("h3", { text: `Last trick: ${kit.seatName(v.last_trick.winner)} took it` }),
      kit.playsLine(v.last_trick.plays),
    );
  }
  return parts;
}

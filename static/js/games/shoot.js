// Shoot! on the Play board: the deal, the trump, the bids (sealed until all are in), the
// tricks and the trick on the table. Card names come from the faces the page embeds
// (kit.card, kit.cardText); scores from the common block (env.view.scores).

// The phone's title over the grid of bids (and its "?" rule link).
export const choiceTitles = { bid: "Your bid" };

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function bidCell(v, seat) {
  if (v.bids && v.bids[seat] !== null && v.bids[seat] !== undefined) return v.bids[seat];
  return v.bids_in && v.bids_in[seat] ? "in" : "…";
}

function trickParts(v, kit) {
  if (v.trick && v.trick.length) {
    const led = kit.cardText(v.trick[0][1]);
    return [kit.el("h3", { text: `This trick: ${led} led` }), kit.playsLine(v.trick)];
  }
  if (v.last_trick) {
    return [kit.el("h3", { text: `Last trick: ${kit.seatName(v.last_trick.winner)} took it` }), kit.playsLine(v.last_trick.plays)];
  }
  return [];
}

// What the phone shows right under the status strip: trump, bids and the trick.
export function inPlay(env, names, kit) {
  const v = env.view;
  const words = [];
  if (v.my_bid !== null && v.my_bid !== undefined) words.push(` · your bid ${v.my_bid}`);
  if (v.bid_total !== null && v.bid_total !== undefined) words.push(` · bids ${v.bid_total} for ${plural(v.tricks_available, "trick")}`);
  if (v.phase === "play") words.push(` · you took ${v.taken ? v.taken[env.seat] : 0}`);
  const line = kit.el("p", { class: "in-play-line" }, "Trump ", v.trump ? kit.card(v.trump) : "—", ...words);
  return [line, ...trickParts(v, kit)];
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
  if (!kit.split || env.over) parts.push(...trickParts(v, kit));
  return parts;
}

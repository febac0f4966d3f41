// Seats that move between phones, shared by the host screen and the phone: the requests
// for a seat (approve or refuse), the notices when a seat changed phone, one-time tickets
// handed over in the URL fragment, and the QR panel that shows a ticket to another phone.

import { api, el } from "./table-live.js";
import { seatName } from "./board.js";

// A ticket handed over in the fragment (#ticket=…) leaves the address bar at once; it is
// never stored, only traded for a token.
export function takeTicket() {
  const match = /(?:^#|&)ticket=([A-Za-z0-9_-]{20,200})/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return match[1];
}

// The pending requests this screen may answer, each with "Let them in" and "Refuse".
export function requestsPanel(env, { base, token, onDone, onError }) {
  const items = (env.requests || []).map((request) => {
    const who = request.seat_name || seatName(null, request.seat);
    const asker = request.name && request.name !== who ? ` (says “${request.name}”)` : "";
    const mine = env.seat === request.seat;
    const text = mine
      ? `Another phone${asker} asks for your seat. If it is yours, let it in: this phone then stops playing.`
      : `Another phone${asker} asks for ${who}'s seat (seat ${request.seat + 1}).`;
    const approve = el("button", { type: "button", class: "small-button", text: mine ? "Move my seat there" : `Give it ${who}'s seat` });
    const refuse = el("button", { type: "button", class: "secondary small-button", text: "Refuse" });
    const act = (verdict) => async () => {
      approve.disabled = refuse.disabled = true;
      try {
        onDone(await api(`${base}/${request.id}/${verdict}`, { token, method: "POST", body: {} }), verdict);
      } catch (error) {
        onError(error);
      }
    };
    approve.addEventListener("click", act("approve"));
    refuse.addEventListener("click", act("refuse"));
    return el("li", { class: "seat-request" }, el("p", { text }), el("p", { class: "request-buttons" }, approve, refuse));
  });
  return items;
}

// Words for a seat change ("Bob's seat moved to another phone."), from the envelope.
export function changeText(change) {
  if (change.seat === null) return "The host screen moved to another device.";
  if (change.how === "freed") return `${change.name}'s seat (seat ${change.seat + 1}) was freed by the host.`;
  if (change.how === "taken") return `${change.name} took seat ${change.seat + 1}.`;
  return `${change.name}'s seat moved to another phone.`;
}

// Keeps the version of the last change shown: the first envelope only sets it, later ones
// return the words of every change since.
export class ChangeWatch {
  constructor() {
    this.seen = null;
  }

  news(env) {
    const changes = env.seat_changes || [];
    const latest = Math.max(0, ...changes.map((c) => c.version));
    if (this.seen === null) {
      this.seen = latest;
      return [];
    }
    const fresh = changes.filter((c) => c.version > this.seen);
    this.seen = Math.max(this.seen, latest);
    return fresh.map(changeText);
  }
}

// Shows a ticket's QR code and link in ``panel`` with a caption.
export function showTicket(panel, answer, caption) {
  const img = el("img", { src: answer.qr, alt: `QR code: ${caption}`, width: 200, height: 200, class: "ticket-qr" });
  const link = el("a", { href: answer.url, text: answer.url });
  panel.replaceChildren(el("p", { class: "ticket-caption", text: caption }), img, el("p", { class: "rejoin-link" }, link));
  panel.hidden = false;
}

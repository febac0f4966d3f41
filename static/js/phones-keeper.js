// The keeper's panel of the phones (issue 28): fetched again after every event of the
// sheet, unless the keeper is typing in it.

import { fetchPart, followSheet } from "./sheet-follow.js";

const panel = document.getElementById("phones");
if (panel) {
  const refresh = async () => {
    const current = document.getElementById("phones");
    if (current.contains(document.activeElement) && document.activeElement.tagName !== "BUTTON") return;
    const holder = document.createElement("div");
    if (await fetchPart(current.dataset.phonesPart, holder)) {
      const fresh = holder.querySelector("#phones");
      if (!fresh || fresh.dataset.version === current.dataset.version) return;
      // A step saved or a round added by the phones of a joined sheet: the whole page
      // (grid, chart, steps) is new. A sheet kept alone swaps its own parts (score.js).
      const moved = fresh.dataset.step !== current.dataset.step || fresh.dataset.rounds !== current.dataset.rounds;
      if (fresh.dataset.joined === "1" && current.dataset.joined === "1" && moved) window.location.reload();
      else current.replaceWith(fresh);
    }
  };
  followSheet(panel.dataset.phonesEvents, panel.dataset.phonesTicket, refresh);
}

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
      // A round added on the phones: the whole page (grid, chart, forms) is new.
      if (fresh && fresh.dataset.rounds !== current.dataset.rounds) window.location.reload();
      else if (fresh && fresh.dataset.version !== current.dataset.version) current.replaceWith(fresh);
    }
  };
  followSheet(panel.dataset.phonesEvents, panel.dataset.phonesTicket, refresh);
}

// Following a score sheet's live channel (issue 28): the shared screen and the keeper's
// panel of the phones. Each event says the sheet changed (counts only); the page fetches
// its own part again. A failed stream is opened again with a fresh ticket from
// ``ticketUrl`` (when given), with growing pauses; a poll covers the gaps.

export function followSheet(firstUrl, ticketUrl, refresh, every = 15000) {
  let pause = 1000;
  let source = null;
  const again = () => {
    if (source) source.close();
    source = null;
    if (!navigator.onLine) return; // no connection: the "online" event opens it again
    setTimeout(async () => {
      if (!ticketUrl) return open(firstUrl);
      try {
        const response = await fetch(ticketUrl, { cache: "no-store" });
        if (response.ok) open((await response.json()).events_url);
        else again();
      } catch {
        again();
      }
    }, pause);
    pause = Math.min(pause * 2, 30000);
  };
  const open = (url) => {
    source = new EventSource(url);
    source.addEventListener("open", () => (pause = 1000));
    source.addEventListener("rounds", () => refresh());
    source.addEventListener("error", again);
  };
  if (!("EventSource" in window) || !firstUrl) return setInterval(refresh, every);
  if (navigator.onLine) open(firstUrl);
  window.addEventListener("online", () => {
    pause = 1000;
    if (!source) again();
  });
  setInterval(refresh, every);
}

// Our own server's HTML part, swapped in (escaped by its templates). Events come in bursts
// (four phones entering at once) and answers may arrive out of order: only the answer to
// the request last sent for ``url`` is used, so an older part never replaces a newer one
// (every change is announced after its commit: the last request reads the sheet as it is).
const asked = new Map();
export async function fetchPart(url, into) {
  if (!navigator.onLine) return false; // a sheet opened with no connection keeps its copy
  const number = (asked.get(url) || 0) + 1;
  asked.set(url, number);
  try {
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) return false;
    const text = await response.text();
    if (asked.get(url) !== number) return false; // a later request's answer is drawn
    into.innerHTML = text;
    return true;
  } catch {
    return false; // offline for a moment: the next event or poll tries again
  }
}

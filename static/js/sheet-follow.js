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
  if ("EventSource" in window && firstUrl) open(firstUrl);
  setInterval(refresh, every);
}

// Our own server's HTML part, swapped in (escaped by its templates).
export async function fetchPart(url, into) {
  try {
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) return false;
    into.innerHTML = await response.text();
    return true;
  } catch {
    return false; // offline for a moment: the next event or poll tries again
  }
}

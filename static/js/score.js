// Score sheets: a live count of the tricks entered against the tricks played, so a slip
// shows before the form is sent. The pages work without it (the server checks the sum).
for (const box of document.querySelectorAll("[data-tricks-total]")) {
  const total = Number.parseInt(box.dataset.tricksTotal, 10);
  const out = box.querySelector("[data-tricks-sum]");
  const inputs = [...box.querySelectorAll("input[name^='tricks-']")];
  if (!out || !inputs.length || Number.isNaN(total)) continue;
  const update = () => {
    const filled = inputs.filter((input) => input.value.trim() !== "");
    const sum = filled.reduce((acc, input) => acc + (Number.parseInt(input.value, 10) || 0), 0);
    out.textContent = `Tricks entered: ${sum} of ${total}`;
    out.classList.toggle("sum-off", filled.length === inputs.length && sum !== total);
  };
  for (const input of inputs) input.addEventListener("input", update);
  out.hidden = false;
  update();
}

// Times: the server writes them in UTC, labelled so; here they become this phone's time.
export function localTimes(root = document) {
  const format = new Intl.DateTimeFormat(undefined, {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
  for (const time of root.querySelectorAll("time[data-local][datetime]")) {
    const moment = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) time.textContent = format.format(moment);
  }
}
localTimes();

// The watch page (a share link): fetch the changing part again whenever the sheet says it
// changed (server-sent events), and every 20 seconds as well in case the stream is down.
const watchPage = document.querySelector("[data-watch-part]");
if (watchPage) {
  const live = document.getElementById("watch-live");
  const state = watchPage.querySelector("[data-watch-state]");
  const partUrl = watchPage.dataset.watchPart;
  let busy = false;
  const refresh = async () => {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(partUrl, { cache: "no-store" });
      if (response.ok) {
        // Our own server's HTML, escaped by its templates.
        live.innerHTML = await response.text();
        localTimes(live);
      }
    } catch {
      // Offline for a moment: the next event or poll tries again.
    } finally {
      busy = false;
    }
  };
  if (state) state.textContent = "It updates by itself.";
  if ("EventSource" in window) {
    // The first event comes on (re)connecting: a change missed meanwhile shows then.
    const events = new EventSource(watchPage.dataset.watchEvents);
    events.addEventListener("rounds", refresh);
  }
  setInterval(refresh, 20000);
}

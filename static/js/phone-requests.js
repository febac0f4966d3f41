// "I am …" on a score sheet (issue 28): a phone asks for a name another phone holds, that
// phone (or the keeper) approves or refuses, and the asking phone claims the name with its
// request's ticket. Every piece of data reaches the page through textContent.

import { api, el } from "./table-live.js";

// Ask to be `name` (player `player`); once approved, `onToken` gets the name's token.
export async function askFor(root, player, name, { say, onToken }) {
  try {
    const { request, ticket } = await api(root.dataset.requests, { method: "POST", body: { player } });
    say(`You asked to be ${name}: ${name}'s phone or the keeper answers.`);
    const poll = async () => {
      try {
        const now = await api(`${root.dataset.requests}/${request.id}`, { token: ticket });
        if (now.request.status === "pending") return setTimeout(poll, 2000);
        if (now.request.status !== "approved") return say(`Your request to be ${name} was ${now.request.status}.`, true);
        const claimed = await api(root.dataset.claim, { method: "POST", body: { ticket } });
        say(`You are ${name} on this phone now.`);
        onToken(claimed.token);
      } catch (error) {
        say(error.message, true);
      }
    };
    setTimeout(poll, 1000);
  } catch (error) {
    say(error.message, true);
  }
}

// The requests for this phone's own name, each with Approve and Refuse.
export function drawRequests(root, list, requests, token, say) {
  list.hidden = !requests.length;
  list.replaceChildren(
    ...requests.map((asked) => {
      const item = el("li", { class: "phone-request" }, el("span", { text: `Another phone says it is ${asked.name}. Approve it, and this phone stops holding the name.` }));
      for (const [approve, text] of [
        [true, "Approve"],
        [false, "Refuse"],
      ]) {
        const button = el("button", { type: "button", class: approve ? "" : "secondary", text });
        button.addEventListener("click", async () => {
          try {
            const answer = await api(`${root.dataset.requests}/${asked.id}/answer`, { token, method: "POST", body: { approve } });
            say(answer.message);
            list.hidden = true;
          } catch (error) {
            say(error.message, true);
          }
        });
        item.append(" ", button);
      }
      return item;
    }),
  );
}

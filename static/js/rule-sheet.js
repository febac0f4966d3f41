/* "?" rule links: a tap opens the rule in a sheet over the page, so the game stays put.
 *
 * Any <a class="rule-help" href="/rules/<game>#<anchor>"> on the page: the rules page is
 * fetched (the service worker keeps every rules page, so this works offline), the section
 * with that id is taken out of it and shown in a <dialog>. Without JavaScript, or when the
 * page cannot be had, the link simply opens the rules page.
 * The Play page's decisions get their links from data-rule-links (action type -> rule URL,
 * from the game's spec.action_anchors): see ruleLinks().
 */

const pages = new Map(); // rules page path -> Promise<Document>

function rulesPage(path) {
  if (!pages.has(path)) {
    const loaded = fetch(path, { credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.text();
      })
      .then((html) => new DOMParser().parseFromString(html, "text/html"));
    loaded.catch(() => pages.delete(path));
    pages.set(path, loaded);
  }
  return pages.get(path);
}

function sheet() {
  let dialog = document.getElementById("rule-sheet");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "rule-sheet";
  dialog.className = "rule-sheet";
  dialog.setAttribute("aria-labelledby", "rule-sheet-title");
  const bar = document.createElement("div");
  bar.className = "rule-sheet-bar";
  const title = document.createElement("p");
  title.id = "rule-sheet-title";
  title.className = "rule-sheet-title";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "secondary rule-sheet-close";
  close.textContent = "Close";
  close.addEventListener("click", () => dialog.close());
  bar.append(title, close);
  const body = document.createElement("div");
  body.className = "rule-sheet-body";
  const more = document.createElement("a");
  more.className = "rule-sheet-more";
  more.textContent = "Open the full rules page";
  dialog.append(bar, body, more);
  // A tap on the backdrop closes the sheet.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  document.body.append(dialog);
  return dialog;
}

/** Show the rule `url` points at (same-origin /rules/<game>#<anchor>) in the sheet. */
export async function openRule(url) {
  const target = new URL(url, window.location.href);
  if (target.origin !== window.location.origin || !target.hash) return false;
  const doc = await rulesPage(target.pathname);
  const section = doc.getElementById(decodeURIComponent(target.hash.slice(1)));
  if (!section) return false;
  const copy = document.importNode(section, true);
  copy.removeAttribute("id");
  for (const node of copy.querySelectorAll("[id]")) node.removeAttribute("id");
  for (const details of copy.querySelectorAll("details")) details.open = true;
  // Permalinks point into the rules page, not this one.
  for (const link of copy.querySelectorAll("a.permalink")) link.remove();
  for (const link of copy.querySelectorAll('a[href^="#"]')) {
    link.href = target.pathname + link.getAttribute("href");
  }
  const dialog = sheet();
  const heading = section.querySelector("h2, h3, h4");
  const game = doc.querySelector(".rules-header h1");
  dialog.querySelector(".rule-sheet-title").textContent = game ? game.textContent.trim() : "Rules";
  dialog.querySelector(".rule-sheet-body").replaceChildren(copy);
  dialog.querySelector(".rule-sheet-more").href = target.pathname + target.hash;
  dialog.dataset.rule = target.hash.slice(1);
  if (!dialog.open) dialog.showModal();
  dialog.querySelector(".rule-sheet-body").scrollTop = 0;
  if (heading) dialog.setAttribute("aria-label", heading.textContent.replace("#", "").trim());
  return true;
}

/** The Play page's rule URL for each action type (its data-rule-links attribute). */
export function ruleLinks() {
  const data = document.querySelector("[data-rule-links]");
  try {
    return data ? JSON.parse(data.dataset.ruleLinks) : {};
  } catch {
    return {};
  }
}

/** A "?" link to the rule of one decision, or null when the game names none. */
export function ruleHelp(type, label, links = ruleLinks()) {
  const url = links[type];
  if (!url) return null;
  const link = document.createElement("a");
  link.className = "rule-help";
  link.href = url;
  link.dataset.action = type;
  const rule = decodeURIComponent(url.split("#")[1] || "").replace(/-/g, " ");
  link.setAttribute("aria-label", `Rule for ${label}: ${rule}`);
  const mark = document.createElement("span");
  mark.className = "rule-help-mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = "?";
  link.append(mark, document.createTextNode(` ${rule}`));
  return link;
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a.rule-help");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
  event.preventDefault();
  openRule(link.href)
    .then((shown) => {
      if (!shown) window.location.assign(link.href);
    })
    .catch(() => window.location.assign(link.href));
});

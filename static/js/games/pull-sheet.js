// PULL! score sheet, a round step in taps (templates/games/pull/sheet_step.html).
//
// The step form keeps its boxes (a target list and a "taken by" choice for each of the
// round's two slots) and works without this script. Here they give way to one panel per
// side: a tap on a target under a side fills the round's next free slot (that target, that
// side), "Nobody took one" fills it with nobody, and once both slots are filled the step is
// sent (static/js/score.js keeps and sends it). A target taken is no longer offered.
// "Clear this round" empties the slots. Two taps a round, ten a hand.

function slotsOf(form, round) {
  const out = [];
  for (let slot = 0; slot < 2; slot += 1) {
    const target = form.querySelector(`[name="step-target-${round}-${slot}"]`);
    const takers = [...form.querySelectorAll(`[name="step-taker-${round}-${slot}"]`)];
    if (target && takers.length) out.push({ target, takers });
  }
  return out;
}

function isFilled(slot) {
  return slot.takers.some((radio) => radio.checked);
}

function enhance(panel) {
  if (panel.dataset.ready) return;
  panel.dataset.ready = "1";
  const form = panel.closest("form");
  const round = Number(panel.dataset.round);
  const slots = slotsOf(form, round);
  if (!form || slots.length !== 2) return;
  const status = panel.querySelector("[data-pull-status]");
  const clear = panel.querySelector("[data-pull-clear]");
  const chipLabel = (target) => panel.querySelector(`.pull-chip[data-target="${CSS.escape(target)}"]`)?.textContent.trim() || target;
  const sideName = (side) => panel.querySelectorAll(".pull-side-name")[side]?.textContent.replace(/ took$/, "") || "";

  const show = () => {
    const taken = new Set(slots.filter(isFilled).map((slot) => slot.target.value).filter(Boolean));
    for (const chip of panel.querySelectorAll(".pull-chip")) {
      chip.disabled = chip.hasAttribute("data-gone") || taken.has(chip.dataset.target);
    }
    const words = slots.map((slot, i) => {
      if (!isFilled(slot)) return `Target ${i + 1}: tap it under the side that took it`;
      const taker = slot.takers.find((radio) => radio.checked).value;
      if (taker === "nobody") return `Target ${i + 1}: nobody`;
      return `Target ${i + 1}: ${chipLabel(slot.target.value)} to ${sideName(Number(taker))}`;
    });
    status.textContent = words.join(" · ");
    clear.hidden = !slots.some(isFilled);
  };

  const fill = (target, taker) => {
    const slot = slots.find((s) => !isFilled(s));
    if (!slot) return;
    slot.target.value = target;
    for (const radio of slot.takers) radio.checked = radio.value === taker;
    show();
    if (slots.every(isFilled)) {
      for (const button of panel.querySelectorAll("button")) button.disabled = true;
      form.requestSubmit();
    }
  };

  panel.addEventListener("click", (event) => {
    const chip = event.target.closest(".pull-chip");
    if (chip && !chip.disabled) fill(chip.dataset.target, chip.dataset.side);
    else if (event.target.closest("[data-pull-nobody]")) fill("", "nobody");
    else if (event.target.closest("[data-pull-clear]")) {
      for (const slot of slots) {
        slot.target.value = "";
        for (const radio of slot.takers) radio.checked = false;
      }
      show();
    }
  });

  // The boxes stay in the form (they are what is sent); the panel replaces them on screen.
  for (const fieldset of form.querySelectorAll(".target-step")) fieldset.hidden = true;
  form.querySelector("button[type=submit]").hidden = true;
  panel.hidden = false;
  // A refused round comes back with its message: keep the boxes in view to show it.
  if (form.querySelector(".field-error, .form-errors")) {
    for (const fieldset of form.querySelectorAll(".target-step")) fieldset.hidden = false;
  }
  show();
}

function start(root) {
  for (const panel of root.querySelectorAll("[data-pull-taps]")) enhance(panel);
}

start(document);
// static/js/score.js swaps in the server's answer after a step is sent.
document.addEventListener("score:page", (event) => start(event.detail || document));

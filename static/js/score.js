// Score sheets: a live count of the tricks entered against the tricks played, so a slip
// shows before the form is sent. The pages work without it (the server checks the sum).
for (const box of document.querySelectorAll("[data-tricks-total]")) {
  const total = Number.parseInt(box.dataset.tricksTotal, 10);
  const out = box.querySelector("[data-tricks-sum]");
  const inputs = [...box.querySelectorAll("input[name^='tricks-'], input[name^='step-tricks-']")];
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

// Steppers: − and + buttons around each small number box of a step form, so a bid or a
// count is a tap or two rather than the phone's keyboard. The boxes stay typeable.
const limit = (input, name) => {
  const value = Number.parseInt(input.getAttribute(name) ?? "", 10);
  return Number.isNaN(value) ? null : value;
};

for (const input of document.querySelectorAll(".step-form input.small-number")) {
  const label = document.querySelector(`label[for="${input.id}"]`)?.textContent.trim() || "";
  const wrap = document.createElement("span");
  wrap.className = "stepper";
  const button = (text, delta, words) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "step-button";
    b.textContent = text;
    b.setAttribute("aria-label", `${words}: ${label}`);
    b.addEventListener("click", () => {
      let value = (Number.parseInt(input.value, 10) || 0) + delta;
      const low = limit(input, "min");
      const high = limit(input, "max");
      if (low !== null) value = Math.max(low, value);
      if (high !== null) value = Math.min(high, value);
      input.value = String(value);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    return b;
  };
  input.replaceWith(wrap);
  wrap.append(button("−", -1, "One less"), input, button("+", 1, "One more"));
}

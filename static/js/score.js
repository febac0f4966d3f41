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

// The new-table form: only the seats in play offer a bot (the rest are left out anyway).

const players = document.querySelector("select[name=players]");
const seats = document.querySelectorAll("#bot-seats .bot-seat");

function showSeats() {
  const count = Number(players.value);
  for (const row of seats) row.hidden = Number(row.dataset.seat) >= count;
}

if (players && seats.length) {
  players.addEventListener("change", showSeats);
  showSeats();
}

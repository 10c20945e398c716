// Seats in words (docs/seat-names.md): a seat is shown to a person by the name its ruleset gives it, as the
// rulebook prints the side ("the Rebels", "Player 2"), in the page's language; GET /rulesets carries every
// ruleset's names (`seat_names`, said in the reader's language by the server). The seat's id stays where it
// is data: addresses, data- attributes, API bodies.
const known = new Map();  // ruleset id -> { seat: name }

// Learn the names from GET /rulesets' answer (called where it is fetched); returns the answer as it is.
export function learnSeatNames(all) {
  for (const r of Array.isArray(all) ? all : []) if (r && r.id && r.seat_names) known.set(r.id, r.seat_names);
  return all;
}

// A seat of a game of `ruleset` in words; `ruleset` null (a place that knows only the game's id): the name any
// ruleset gives that seat (the rulesets' seat ids differ); an unknown seat: its id, as words.
export function seatName(ruleset, seat) {
  if (seat == null) return '';
  const names = ruleset == null ? [...known.values()].find((n) => n[seat]) : known.get(ruleset);
  return (names && names[seat]) || String(seat).replace(/_/g, ' ');
}

// Several seats in words, joined with commas.
export function seatNames(ruleset, seats) {
  return (seats || []).map((s) => seatName(ruleset, s)).join(', ');
}

// Seat tokens this browser holds, per game: {gameId: {seat: token}} in localStorage: only the seats
// this browser's player holds (the seat it kept when it created the game, or claimed). Other players
// get an invitation link (#/claim/<game>/<seat>?invite=...): a one-time code in the fragment (never
// sent to the server in a URL), exchanged for the seat's token by the claimant's own browser
// (DESIGN 4). The link leaves the address bar before the claim is made.
const KEY = 'umpire.tokens';

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch { return {}; }
}
function save(all) {
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: memory only */ }
}

export function seatsOf(gameId) { return { ...(load()[gameId] || {}) }; }

export function remember(gameId, seat, token) {
  const all = load();
  all[gameId] = { ...(all[gameId] || {}), [seat]: token };
  save(all);
}

export function forget(gameId) {
  const all = load();
  delete all[gameId];
  save(all);
}

export function allGames() { return Object.keys(load()); }

// The invitation link of a seat: `campaign` set for a campaign's seat (its token acts in every battle).
export function claimLink(id, seat, invitation, campaign = false) {
  const where = campaign ? `campaign/${encodeURIComponent(id)}` : encodeURIComponent(id);
  return `${location.origin}${location.pathname}#/claim/${where}/${encodeURIComponent(seat)}?invite=${encodeURIComponent(invitation)}`;
}

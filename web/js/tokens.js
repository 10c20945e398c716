// Seat tokens this browser holds, per game: {gameId: {seat: token}} in localStorage.
// They come from creating a game or from an invite link (#/game/<id>?token=...): the fragment is
// never sent to the server, and the link is rewritten without the token once it is stored.
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

export function inviteLink(gameId, token) {
  return `${location.origin}${location.pathname}#/game/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;
}

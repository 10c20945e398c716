// The public REST API of umpire (DESIGN 8): every call of the client goes through here.
// Seat tokens travel only in the Authorization header, never in a URL.
import { lang, t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
  get rule() { return this.problem.rule || null; }
}

export class Api {
  constructor(token = null) { this.token = token; }

  headers(extra = {}) {
    const h = { accept: 'application/json', 'accept-language': lang(), ...extra };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    return h;
  }

  async request(method, path, body, { text = false, signal } = {}) {
    const init = { method, headers: this.headers(body !== undefined ? { 'content-type': 'application/json' } : {}), signal };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(path, init);
    if (!res.ok) {
      let problem = null;
      try { problem = await res.json(); } catch { /* not JSON */ }
      throw new ApiError(res.status, problem);
    }
    if (text) return res.text();
    if (res.status === 204) return null;
    const out = await res.json();
    Object.defineProperty(out, '_status', { value: res.status, enumerable: false });
    return out;
  }

  get(path, opts) { return this.request('GET', path, undefined, opts); }
  post(path, body = {}, opts) { return this.request('POST', path, body, opts); }
}

export const spectator = new Api(null);

export function gamePath(gameId, rest = '') {
  return `/games/${encodeURIComponent(gameId)}${rest}`;
}

// The lobby, one page: uses the API's cursor when it has one (next_cursor), else the client pages.
export async function lobbyPage(api, { status, ruleset, cursor, limit = 20 }) {
  const q = new URLSearchParams();
  if (status) q.set('status', status);
  if (ruleset) q.set('ruleset', ruleset);
  q.set('limit', String(limit));
  if (cursor && !String(cursor).startsWith('local:')) q.set('cursor', cursor);
  const body = await api.get(`/games?${q}`);
  let games = body.games || [];
  if ('next_cursor' in body) return { games, next: body.next_cursor || null, paged: 'server' };
  // The server answered every game: page on the client, newest first.
  games = [...games].sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  const start = cursor && String(cursor).startsWith('local:') ? Number(String(cursor).slice(6)) : 0;
  const page = games.slice(start, start + limit);
  const next = start + limit < games.length ? `local:${start + limit}` : null;
  return { games: page, next, total: games.length, paged: 'client' };
}

// Problem details as a sentence (with the rule id when there is one).
export function problemText(err) {
  if (!(err instanceof ApiError)) return String(err && err.message ? err.message : err);
  const p = err.problem;
  const bits = [p.detail || p.title || `HTTP ${err.status}`];
  if (p.field) bits.push(t('(field: {field})', { field: p.field }));
  return bits.join(' ');
}

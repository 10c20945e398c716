// The router: #/ is the lobby, #/game/<id>?seat=<seat>&tab=play|replay|fairness&at=<seq> a game.
// An invitation link #/claim/<game>/<seat>?invite=<code> (or #/claim/campaign/<id>/<seat>?invite=)
// leaves the address bar at once, claims the seat (POST .../seats/<seat>/claim with the code in the
// body, DESIGN 4) and stores the seat's token in this browser only. An older link
// #/game/<id>?token=<token> stores the token and is rewritten without it.
import { renderLobby, rulesets } from './lobby.js';
import { seatName } from './seats.js';
import { renderGame, stopGame } from './game.js';
import { Api, spectator, problemText } from './api.js';
import * as tokens from './tokens.js';
import { h, clear } from './dom.js';
import { load, switcher, t } from './i18n.js';

const app = document.getElementById('app');

function parse() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query] = raw.split('?');
  return { path, params: new URLSearchParams(query || '') };
}

// Claim a seat with its invitation; the answer's token is stored here and nowhere else.
async function claim(kind, id, seat, invite) {
  const path = kind === 'campaign' ? `/campaigns/${encodeURIComponent(id)}` : `/games/${encodeURIComponent(id)}`;
  const res = await spectator.post(`${path}/seats/${encodeURIComponent(seat)}/claim`, { invitation: invite });
  const gameId = kind === 'campaign' ? res.game_id : id;
  if (!gameId) {  // a campaign that waits for its seats: the token is kept under the campaign until it opens
    tokens.remember(`campaign:${id}`, seat, res.token);
    await rulesets().catch(() => null);  // the seat in words (seats.js)
    throw new Error(t('{seat} is yours: its token is kept in this browser; the campaign starts when every seat is ready.', { seat: seatName(null, seat) }));
  }
  tokens.remember(gameId, seat, res.token);
  return gameId;
}

async function route() {
  const { path, params } = parse();
  const m = path.match(/^\/game\/([^/]+)$/);
  const c = path.match(/^\/claim\/(?:(campaign)\/)?([^/]+)\/([^/]+)$/);
  try {
    if (c) {
      const [, kind, id, seat] = c.map((x) => (x === undefined ? x : decodeURIComponent(x)));
      const invite = params.get('invite');
      history.replaceState(null, '', '#/');  // the invitation leaves the address bar (and history) at once
      if (!invite) throw new Error(t('This invitation link has no invitation in it.'));
      const gameId = await claim(kind, id, seat, invite);
      location.replace(`#/game/${encodeURIComponent(gameId)}?seat=${encodeURIComponent(seat)}`);
      return;
    }
    if (m) {
      const gameId = decodeURIComponent(m[1]);
      const token = params.get('token');
      if (token) {
        const lc = await new Api(token).get(`/games/${encodeURIComponent(gameId)}/legal-commands`);
        tokens.remember(gameId, lc.seat, token);
        params.delete('token');
        params.set('seat', lc.seat);
        history.replaceState(null, '', `#/game/${encodeURIComponent(gameId)}?${params}`);
      }
      await renderGame(app, gameId, params);
    } else {
      stopGame();
      document.title = 'umpire';
      await renderLobby(app, params);
    }
  } catch (err) {
    clear(app, h('p', { role: 'alert', class: 'alert' }, problemText(err)), h('p', {}, h('a', { href: '#/' }, t('Back to the lobby'))));
  }
  const heading = app.querySelector('h1');
  if (heading && document.activeElement === document.body) { heading.tabIndex = -1; }
}

// The skip link moves focus without touching the hash (the hash is the route).
document.querySelector('a.skip')?.addEventListener('click', (e) => { e.preventDefault(); app.focus(); });
window.addEventListener('hashchange', route);
load().then(() => {  // the page's language first (issue 28), then its words
  const nav = document.querySelector('header.top nav');
  if (nav) {
    const words = { Lobby: t('Lobby'), 'API docs': t('API docs') };
    for (const a of nav.querySelectorAll('a')) a.textContent = words[a.textContent] || a.textContent;
    nav.setAttribute('aria-label', t('Service'));
    nav.append(' ', switcher(h));
  }
  const skip = document.querySelector('a.skip');
  if (skip) skip.textContent = t('Skip to the content');
  route();
});

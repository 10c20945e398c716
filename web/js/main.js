// The router: #/ is the lobby, #/game/<id>?seat=<seat>&tab=play|replay|fairness&at=<seq> a game.
// An invite link #/game/<id>?token=<token> stores the token in this browser and is rewritten
// without it (the fragment never reaches the server, and now it leaves the address bar too).
import { renderLobby } from './lobby.js';
import { renderGame, stopGame } from './game.js';
import { Api, problemText } from './api.js';
import * as tokens from './tokens.js';
import { h, clear } from './dom.js';

const app = document.getElementById('app');

function parse() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query] = raw.split('?');
  return { path, params: new URLSearchParams(query || '') };
}

async function route() {
  const { path, params } = parse();
  const m = path.match(/^\/game\/([^/]+)$/);
  try {
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
    clear(app, h('p', { role: 'alert', class: 'alert' }, problemText(err)), h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')));
  }
  const heading = app.querySelector('h1');
  if (heading && document.activeElement === document.body) { heading.tabIndex = -1; }
}

// The skip link moves focus without touching the hash (the hash is the route).
document.querySelector('a.skip')?.addEventListener('click', (e) => { e.preventDefault(); app.focus(); });
window.addEventListener('hashchange', route);
route();

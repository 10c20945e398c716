// The live feed: GET /games/{id}/feed (server-sent events) read with fetch, so the seat token goes
// in the Authorization header (an EventSource could only put it in the URL, and so in server logs).
// Reconnects by itself after a drop, resuming after the last seq seen (Last-Event-ID); stops at the
// `end` message the server sends once a finished game's last event is delivered.

import { lang } from './i18n.js';

export function follow(gameId, token, after, onEvent, onStatus = () => {}) {
  const ctl = new AbortController();
  let last = after;
  let stopped = false;
  let delay = 500;

  async function run() {
    while (!stopped) {
      try {
        // the events' words in the page's language (the server chooses it when the feed opens)
        const headers = { accept: 'text/event-stream', 'accept-language': lang() };
        if (token) headers.authorization = `Bearer ${token}`;
        if (last > 0) headers['last-event-id'] = String(last);
        const res = await fetch(`/games/${encodeURIComponent(gameId)}/feed?after=${last}`, { headers, signal: ctl.signal });
        if (!res.ok || !res.body) throw new Error(`feed answered ${res.status}`);
        onStatus('live');
        delay = 500;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value.replace(/\r\n?/g, '\n');
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const msg = parseBlock(block);
            if (msg && msg.event === 'end') {  // a finished game: no event can follow, the server closed the feed
              stopped = true;
              onStatus('ended');
              return;
            }
            if (msg && msg.data) {
              let ev;
              try { ev = JSON.parse(msg.data); } catch { continue; }
              if (typeof ev.seq === 'number' && ev.seq > last) last = ev.seq;
              onEvent(ev);
            }
          }
        }
      } catch (err) {
        if (stopped || (err && err.name === 'AbortError')) return;
      }
      if (stopped) return;
      onStatus('reconnecting');
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }
  run();
  return { stop() { stopped = true; ctl.abort(); }, get last() { return last; } };
}

export function parseBlock(block) {
  const msg = { data: '', event: 'message', id: null };
  let any = false;
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    let val = i < 0 ? '' : line.slice(i + 1);
    if (val.startsWith(' ')) val = val.slice(1);
    if (field === 'data') { msg.data += (msg.data ? '\n' : '') + val; any = true; }
    else if (field === 'event') msg.event = val;
    else if (field === 'id') msg.id = val;
  }
  return any ? msg : null;
}

// One game as this browser sees it: the caller's view, legal commands, the log as the caller may
// see it, the timeline and rulings (cached), the live feed, and the metrics read by the tests and
// ops/bench_web.py (time to first board; time from a click to the board updated).
import { Api, spectator, gamePath } from './api.js';
import { follow } from './feed.js';

export const metrics = (window.__umpireMetrics = window.__umpireMetrics || { firstBoard: null, clicks: [] });

export function newCommandId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return 'web-' + [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

export class Session {
  constructor(gameId, seat, token) {
    this.gameId = gameId;
    this.seat = seat;
    this.api = new Api(token);
    this.token = token;
    this.view = null;
    this.legal = null;
    this.events = new Map(); // seq -> event as the caller sees it
    this.rulings = new Map(); // seq -> promise of ruling
    this.spectatorEvents = new Map(); // seq -> event as a spectator sees it (redaction = hidden info)
    this.timeline = null;
    this.receipt = null;
    this.listeners = new Set();
    this.feed = null;
    this.feedState = 'connecting';
    this._refreshing = null;
    this._again = false;
  }

  path(rest = '') { return gamePath(this.gameId, rest); }
  get version() { return this.view ? this.view.version : 0; }
  get finished() { return this.view && this.view.status === 'finished'; }
  on(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }
  emit(what) { for (const fn of this.listeners) fn(what); }

  async start() {
    await this.refresh();
    await this.loadEvents();
    this.emit('state');  // "Latest steps" and the rest drawn again with the log loaded
    this.feed = follow(this.gameId, this.token, this.maxSeq(), (ev) => this.onFeedEvent(ev), (s) => {
      this.feedState = s; this.emit('feed');
    });
  }

  stop() { if (this.feed) this.feed.stop(); this.listeners.clear(); }

  maxSeq() { return this.top || 0; }

  put(e) {
    this.events.set(e.seq, e);
    if (!(this.top >= e.seq)) this.top = e.seq;
  }

  async loadEvents() {
    let after = this.maxSeq();
    for (;;) {
      const page = await this.api.get(this.path(`/events?after=${after}&limit=1000`));
      for (const e of page.events) this.put(e);
      if (!page.events.length || page.events[page.events.length - 1].seq >= page.version) break;
      after = page.events[page.events.length - 1].seq;
    }
  }

  onFeedEvent(ev) {
    this.put(ev);
    if (ev.type === 'undone') this.timeline = null; // earlier steps changed their "undone" mark
    if (ev.seq > this.version) this.scheduleRefresh();
  }

  scheduleRefresh() {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this.refresh().catch((err) => this.emit({ error: err })), 30);
  }

  // View, legal commands (for a seat) and the board, fetched together; one refresh at a time, and
  // again only when events newer than the fetched view are known by then (feed or command answer).
  async refresh() {
    clearTimeout(this._timer);
    if (this._refreshing) { this._again = true; return this._refreshing; }
    this._refreshing = (async () => {
      try {
        do {
          this._again = false;
          const [view, legal, svg] = await Promise.all([
            this.api.get(this.path()),
            this.seat ? this.api.get(this.path('/legal-commands')) : Promise.resolve(null),
            this.api.get(this.path('/board.svg'), { text: true }),
          ]);
          if (legal && legal.version !== view.version) { this._again = true; this.top = Math.max(this.top || 0, legal.version, view.version); continue; }
          this.view = view;
          this.legal = legal;
          this.svg = svg;
          if (view.receipt) this.receipt = view.receipt;
          this.emit('state');
        } while (this._again && this.maxSeq() > this.version);
      } finally {
        this._refreshing = null;
      }
    })();
    return this._refreshing;
  }

  async command(cmd) {
    const body = { command: cmd, expected_version: this.legal ? this.legal.version : this.version, command_id: newCommandId() };
    const res = await this.api.post(this.path('/commands'), body);
    this.absorb(res);
    return res;
  }

  async undo(toVersion) { const r = await this.api.post(this.path('/undo'), { to_version: toVersion }); this.absorb(r); return r; }
  // the version the request was shown in: the answer is to that request (409 if another waits now, DESIGN 5)
  async answerUndo(accept) {
    const body = { expected_version: this.legal ? this.legal.version : this.version };
    const r = await this.api.post(this.path(accept ? '/undo/accept' : '/undo/decline'), body);
    this.absorb(r);
    return r;
  }
  async ready(clientSeed) { return this.api.post(this.path('/ready'), clientSeed ? { client_seed: clientSeed } : {}); }

  absorb(res) {
    if (!res) return;
    for (const e of res.events || []) this.put(e);
    if (res.receipt) this.receipt = res.receipt;
    if ((res.events || []).some((e) => e.type === 'undone')) this.timeline = null;
  }

  ruling(seq) {
    if (!this.rulings.has(seq)) {
      const p = this.api.get(this.path(`/events/${seq}/ruling`));
      p.catch(() => this.rulings.delete(seq));
      this.rulings.set(seq, p);
    }
    return this.rulings.get(seq);
  }

  async loadTimeline() {
    if (!this.timeline || this.timeline.version < this.version) this.timeline = await this.api.get(this.path('/timeline'));
    return this.timeline;
  }

  // Events after `after` as a spectator sees them: a redacted one carried hidden information.
  async spectatorEventsAfter(after) {
    const missing = [];
    for (let s = after + 1; s <= this.version; s++) if (!this.spectatorEvents.has(s)) missing.push(s);
    if (missing.length) {
      const page = await spectator.get(this.path(`/events?after=${missing[0] - 1}&limit=1000`));
      for (const e of page.events) this.spectatorEvents.set(e.seq, e);
    }
    const out = [];
    for (let s = after + 1; s <= this.version; s++) if (this.spectatorEvents.has(s)) out.push(this.spectatorEvents.get(s));
    return out;
  }

  // The open undo request: the view's own field when the server gives one, else the log's last event.
  pendingUndo() {
    if (this.view && this.view.undo_request) return this.view.undo_request;
    const last = this.events.get(this.version);
    if (last && last.type === 'undo_requested') return { ...last.payload, seq: last.seq };
    return null;
  }
}

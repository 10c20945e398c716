// The lobby: games by status and ruleset (paged), create a game of any ruleset, scenario and
// options, join a seat with its token or an invite link, watch as a spectator.
import { h, clear, fmtTime, shortId, announce } from './dom.js';
import { Api, spectator, lobbyPage, problemText } from './api.js';
import * as tokens from './tokens.js';
import { pluginFor } from './rulesets/index.js';
import { choicesFieldset } from './choices.js';
import { intlLocale, t, tn } from './i18n.js';
import { learnSeatNames, seatName } from './seats.js';

let rulesetsCache = null;
export async function rulesets() {
  if (!rulesetsCache) rulesetsCache = spectator.get('/rulesets').then(learnSeatNames);  // the seats in words (seats.js)
  return rulesetsCache;
}

// What POST /games accepts beyond ruleset/scenario/seed/options (start: when_ready, bots), read
// from the service's own OpenAPI document; absent fields are not offered.
let createCaps = null;
async function createCapabilities() {
  if (!createCaps) {
    createCaps = spectator.get('/schema/openapi.json').then((doc) => {
      const schemas = (doc.components && doc.components.schemas) || {};
      const req = Object.entries(schemas).find(([name, s]) => /CreateGame/i.test(name) && s.properties);
      const props = req ? req[1].properties : {};
      return { start: 'start' in props, bots: 'bots' in props };
    }).catch(() => ({ start: false, bots: false }));
  }
  return createCaps;
}

export async function renderLobby(root, params) {
  const status = params.get('status') || '';
  const ruleset = params.get('ruleset') || '';
  const list = h('div', { id: 'games' }, t('Loading games…'));
  const created = h('div', { id: 'created', 'aria-live': 'polite' });
  clear(root,
    h('h1', {}, 'umpire'),
    h('p', { class: 'lead' }, t('An impartial referee for tabletop wargames: create a game, play a seat, watch, replay and check the dice.')),
    h('div', { class: 'lobby-grid' },
      h('section', { 'aria-labelledby': 'h-games' }, h('h2', { id: 'h-games' }, t('Games')), filters(status, ruleset), list),
      h('div', {},
        h('section', { 'aria-labelledby': 'h-create' }, h('h2', { id: 'h-create' }, t('New game')),
          await createForm(created, () => showGames(list, { status, ruleset, cursor: null, history: [] })), created),
        h('section', { 'aria-labelledby': 'h-join' }, h('h2', { id: 'h-join' }, t('Join a seat')), joinForm()),
        mine())));
  await showGames(list, { status, ruleset, cursor: null, history: [] });
}

function filters(status, ruleset) {
  const st = h('select', { id: 'f-status', name: 'status' },
    [['', t('all')], ['active', t('active')], ['waiting', t('waiting')], ['finished', t('finished')]].map(([v, w]) => h('option', { value: v, selected: v === status }, w)));
  const rs = h('select', { id: 'f-ruleset', name: 'ruleset' }, h('option', { value: '' }, t('all')));
  rulesets().then((all) => { for (const r of all) rs.append(h('option', { value: r.id, selected: r.id === ruleset }, r.title || r.id)); });
  const go = () => {
    const q = new URLSearchParams();
    if (st.value) q.set('status', st.value);
    if (rs.value) q.set('ruleset', rs.value);
    location.hash = `#/${q.toString() ? '?' + q : ''}`;
  };
  st.addEventListener('change', go);
  rs.addEventListener('change', go);
  return h('div', { class: 'filters' }, h('label', { for: 'f-status' }, t('Status'), ' '), st, ' ', h('label', { for: 'f-ruleset' }, t('Ruleset'), ' '), rs);
}

async function showGames(box, q) {
  let page;
  try {
    page = await lobbyPage(spectator, q);
  } catch (err) {
    clear(box, h('p', { role: 'alert' }, t('The lobby is not available: {problem}', { problem: problemText(err) })));
    return;
  }
  const all = await rulesets().catch(() => []);
  const title = (g) => {
    const r = all.find((x) => x.id === g.ruleset);
    const s = r && r.scenarios.find((x) => x.id === g.scenario);
    return s ? s.title : g.scenario;
  };
  const rulesetName = (g) => (all.find((x) => x.id === g.ruleset) || {}).title || g.ruleset;
  const rows = page.games.map((g) => {
    const mineSeats = Object.keys(tokens.seatsOf(g.game_id));
    return h('tr', { dataset: { game: g.game_id } },
      h('td', {}, h('a', { href: `#/game/${encodeURIComponent(g.game_id)}`, title: g.game_id, translate: 'no' }, shortId(g.game_id))),
      h('td', {}, rulesetName(g)), h('td', {}, title(g)),
      h('td', {}, ({ active: t('active'), waiting: t('waiting'), finished: t('finished') }[g.status] || g.status) + (g.winner === 'draw' ? ` (${t('a draw')})` : g.winner ? ` (${t('{side} won', { side: seatName(g.ruleset, g.winner) })})` : '')), h('td', { class: 'num' }, String(g.version)),
      h('td', {}, fmtTime(g.created_at, intlLocale())),
      h('td', {}, h('a', { href: `#/game/${encodeURIComponent(g.game_id)}`, class: 'button' }, t('Watch')),
        mineSeats.map((s) => [' ', h('a', { href: `#/game/${encodeURIComponent(g.game_id)}?seat=${encodeURIComponent(s)}`, class: 'button' }, t('Play {seat}', { seat: seatName(g.ruleset, s) }))])));
  });
  const nav = h('div', { class: 'pager' },
    h('button', { type: 'button', disabled: !q.history.length, onclick: () => showGames(box, { ...q, cursor: q.history[q.history.length - 1], history: q.history.slice(0, -1) }) }, t('← Newer')),
    ' ', h('span', {}, page.total != null ? tn('{n} game', '{n} games', page.total) : ''), ' ',
    h('button', { type: 'button', disabled: !page.next, onclick: () => showGames(box, { ...q, cursor: page.next, history: [...q.history, q.cursor] }) }, t('Older →')));
  clear(box, page.games.length
    ? h('div', { class: 'table-wrap' }, h('table', { class: 'games' },
      h('thead', {}, h('tr', {}, [t('game'), t('ruleset'), t('scenario'), t('status'), t('version'), t('created'), ''].map((x) => h('th', { scope: 'col' }, x || h('span', { class: 'visually-hidden' }, t('open')))))),
      h('tbody', {}, rows)))
    : h('p', {}, t('No games yet.')), nav);
}

function mine() {
  const ids = tokens.allGames();
  if (!ids.length) return null;
  return h('section', { 'aria-labelledby': 'h-mine' }, h('h2', { id: 'h-mine' }, t('Seats in this browser')),
    h('ul', {}, ids.map((id) => h('li', {}, h('a', { href: `#/game/${encodeURIComponent(id)}`, translate: 'no' }, shortId(id)), ': ',
      Object.keys(tokens.seatsOf(id)).map((s, i) => [i ? ', ' : '', h('a', { href: `#/game/${encodeURIComponent(id)}?seat=${encodeURIComponent(s)}` }, seatName(null, s))]),
      ' ', h('button', { type: 'button', class: 'link', onclick: (e) => { tokens.forget(id); e.target.closest('li').remove(); } }, t('forget'))))));
}

function randomClientSeed() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

async function createForm(createdBox, onCreated = () => {}) {
  let all;
  try { all = await rulesets(); } catch (err) { return h('p', { role: 'alert' }, problemText(err)); }
  const caps = await createCapabilities();
  const rs = h('select', { id: 'c-ruleset', name: 'ruleset', required: true }, all.map((r) => h('option', { value: r.id }, r.title || r.id)));
  const sc = h('select', { id: 'c-scenario', name: 'scenario', required: true });
  const optsBox = h('div', { id: 'c-options' });
  const optsJson = h('textarea', { id: 'c-options-json', rows: 3, spellcheck: 'false' }, '{}');
  const seed = h('input', { id: 'c-seed', type: 'text', pattern: '[0-9a-f]{64}', placeholder: t('optional: 64 hex characters'), autocomplete: 'off' });
  const start = h('select', { id: 'c-start' }, h('option', { value: 'now' }, t('at once')), h('option', { value: 'when_ready' }, t('when every seat is ready (client seeds)')));
  const botsBox = h('div', { id: 'c-bots' });
  const seatingBox = h('div', { id: 'c-seating' });
  const choicesBox = h('div', { id: 'c-choices-box' });
  let choices = choicesFieldset(null);
  const err = h('p', { class: 'error', role: 'alert' });
  let plugin = null;
  let form = null;

  const renderBots = () => {
    const info = all.find((r) => r.id === rs.value) || {};
    const bots = info.bots || [];
    if (!caps.bots || !bots.length) { botsBox.replaceChildren(); return; }
    const chosen = (info.scenarios || []).find((x) => `s:${x.id}` === sc.value);
    const seatNames = form && form.seats ? form.seats() : ((chosen && chosen.seats) || []);
    botsBox.replaceChildren(h('fieldset', {}, h('legend', {}, t('Bots')), seatNames.map((s) => h('div', { class: 'row' },
      h('label', { for: `c-bot-${s}` }, `${seatName(rs.value, s)} `),
      h('select', { id: `c-bot-${s}`, dataset: { seat: s } }, h('option', { value: '' }, t('a person')),
        bots.flatMap((b) => (b.levels && b.levels.length ? b.levels.map((l) => h('option', { value: `${b.id}:${l}` }, `${b.title || b.id} (${l})`)) : [h('option', { value: b.id }, b.title || b.id)])))))));
  };
  const renderRuleset = () => {
    const info = all.find((r) => r.id === rs.value) || { scenarios: [], campaigns: [] };
    clear(sc,
      h('optgroup', { label: t('Scenarios') }, info.scenarios.filter((s) => !s.id.includes('@')).map((s) => h('option', { value: `s:${s.id}` }, s.title))),
      (info.campaigns || []).length ? h('optgroup', { label: t('Campaigns') }, info.campaigns.map((c) => h('option', { value: `c:${c.id}` }, t('Campaign: {title}', { title: c.title })))) : null,
      info.scenarios.some((s) => s.id.includes('@')) ? h('optgroup', { label: t('Campaign battles') }, info.scenarios.filter((s) => s.id.includes('@')).map((s) => h('option', { value: `s:${s.id}` }, s.title))) : null);
    plugin = pluginFor(rs.value);
    optsJson.value = '{}';
    const onOptions = (v) => {
      optsJson.value = JSON.stringify(v);
      if (form && form.ok && form.ok() && err.dataset.broken) { err.textContent = ''; delete err.dataset.broken; }  // fixed: the refusal goes
      renderBots();
    };
    form = plugin && plugin.optionsForm ? plugin.optionsForm(onOptions, { schema: info.options, schemaForm }) : schemaForm(info.options, onOptions);
    clear(optsBox, form ? form.el : null, form && form.fromSchema ? null : optionsNote(info.options, Boolean(form)));
    choices = choicesFieldset(info);
    clear(choicesBox, choices.el);
    renderBots();
  };
  // Seating (DESIGN 4): this browser keeps the seat its player picks (or every human seat for a local
  // hot-seat game, which the game then says publicly); every other human seat gets a one-time invitation.
  const botSeats = () => [...botsBox.querySelectorAll('select')].filter((x) => x.value).map((x) => x.dataset.seat);
  const humanSeats = () => {
    const info = all.find((r) => r.id === rs.value) || {};
    const chosen = (info.scenarios || []).find((x) => `s:${x.id}` === sc.value);
    const names = form && form.seats ? form.seats() : ((chosen && chosen.seats) || []);
    return names.filter((x) => !botSeats().includes(x));
  };
  const renderSeating = () => {
    const before = seatingBox.querySelector('select');
    const was = before ? before.value : null;
    const humans = humanSeats();
    const pick = h('select', { id: 'c-keep' },
      humans.map((x) => h('option', { value: `seat:${x}` }, t('I play {seat}', { seat: seatName(rs.value, x) }))),
      h('option', { value: 'none' }, t('I only watch: invite every seat')),
      humans.length > 1 ? h('option', { value: 'all' }, t('I play every seat on this device (hot-seat, said publicly)')) : null);
    if (was && [...pick.options].some((o) => o.value === was)) pick.value = was;
    seatingBox.replaceChildren(h('div', { class: 'row' }, h('label', { for: 'c-keep' }, t('Your seat'), ' '), pick),
      h('p', { class: 'muted' }, t('The other players get a one-time invitation link each; only they receive their seat’s token.')));
  };
  const seatingOf = () => {
    const v = (seatingBox.querySelector('select') || {}).value || 'none';
    const humans = humanSeats();
    return { seating: 'invitations', keep: v === 'all' ? humans : v.startsWith('seat:') ? [v.slice(5)] : [] };
  };
  optsBox.addEventListener('change', renderSeating);
  botsBox.addEventListener('change', renderSeating);
  rs.addEventListener('change', renderRuleset);
  sc.addEventListener('change', renderBots);
  rs.addEventListener('change', renderSeating);
  sc.addEventListener('change', renderSeating);
  renderRuleset();
  renderSeating();

  const submit = async (e) => {
    e.preventDefault();
    err.textContent = '';
    if (form && form.ok && !form.ok()) { err.textContent = t('The options break a rule (shown above): fix them first.'); err.dataset.broken = 'true'; return; }
    let options;
    try { options = JSON.parse(optsJson.value || '{}'); } catch { err.textContent = t('options: not valid JSON'); return; }
    const [kind, id] = [sc.value.slice(0, 1), sc.value.slice(2)];
    const body = { ruleset: rs.value, ...choices.body() };
    if (seed.value.trim()) body.seed = seed.value.trim();
    let res;
    try {
      if (kind === 'c') {
        res = await spectator.post('/campaigns', { ...body, campaign: id, ...seatingOf() });
      } else {
        body.scenario = id;
        body.options = options;
        if (caps.start && start.value === 'when_ready') body.start = 'when_ready';
        const bots = {};
        for (const sel of botsBox.querySelectorAll('select')) if (sel.value) bots[sel.dataset.seat] = sel.value;
        if (Object.keys(bots).length) body.bots = bots;
        Object.assign(body, seatingOf());
        res = await spectator.post('/games', body);
      }
    } catch (ex) {
      err.textContent = problemText(ex);
      return;
    }
    for (const [s, tok] of Object.entries(res.seats || {})) tokens.remember(res.game_id, s, tok);
    showCreated(createdBox, res, rs.value);
    onCreated(res);
  };
  return h('form', { id: 'create', onsubmit: submit },
    h('div', { class: 'row' }, h('label', { for: 'c-ruleset' }, t('Ruleset'), ' '), rs),
    h('div', { class: 'row' }, h('label', { for: 'c-scenario' }, t('Scenario'), ' '), sc),
    optsBox,
    h('details', {}, h('summary', {}, t('More: options as JSON, seed, start')),
      h('div', { class: 'row' }, h('label', { for: 'c-options-json' }, t('Options (JSON, sent as they are)'), ' '), optsJson),
      h('div', { class: 'row' }, h('label', { for: 'c-seed' }, t('Server seed (for a reproducible game)'), ' '), seed),
      caps.start ? h('div', { class: 'row' }, h('label', { for: 'c-start' }, t('Start'), ' '), start) : null),
    botsBox,
    choicesBox,
    seatingBox,
    h('button', { type: 'submit', id: 'c-submit' }, t('Create game')), err);
}

// A ruleset's options from the JSON schema GET /rulesets gives (a ruleset without its own options
// form): a field per property of a simple type (yes/no, a number with its bounds, one of a list),
// each with the property's description; other properties stay for the JSON box under "More".
export function schemaForm(schema, onChange) {
  const props = (schema && schema.properties) || {};
  const rows = [];
  const read = {};
  for (const [k, p] of Object.entries(props)) {
    const id = `opt-${k}`;
    const text = p.title || k.replace(/_/g, ' ');  // the server's title, in the page's language (GET /rulesets)
    const about = p['x-note'] || p.description;  // x-note: the option in words for a person (GET /rulesets)
    const note = about ? h('small', { class: 'muted' }, ` ${about}`) : null;
    let input = null;
    if (p.type === 'boolean') {
      input = h('input', { id, type: 'checkbox', checked: p.default === true });
      read[k] = () => input.checked;
    } else if (p.type === 'integer' || p.type === 'number') {
      input = h('input', { id, type: 'number', min: p.minimum, max: p.maximum, step: p.type === 'integer' ? 1 : 'any', value: p.default ?? '' });
      read[k] = () => (input.value === '' ? undefined : Number(input.value));
    } else if (Array.isArray(p.enum)) {
      input = h('select', { id }, h('option', { value: '' }, `(${t('default')})`), p.enum.map((x) => h('option', { value: JSON.stringify(x) }, String(x))));
      read[k] = () => (input.value === '' ? undefined : JSON.parse(input.value));
    }
    if (!input) continue;
    input.addEventListener('change', () => onChange(value()));
    rows.push(h('div', { class: 'row' }, h('label', { for: id }, `${text} `), input, note));
  }
  function value() {
    const out = {};
    for (const [k, f] of Object.entries(read)) { const v = f(); if (v !== undefined && v !== false) out[k] = v; }
    return out;
  }
  if (!rows.length) return null;
  return { el: h('fieldset', { class: 'options' }, h('legend', {}, t('Options')), rows), value, fromSchema: true };
}

// What a ruleset's options do (each property's description), or that it takes none, in words.
function optionsNote(schema, withForm) {
  if (!schema) return null;
  const props = schema.properties || {};
  const parts = Object.entries(props).map(([k, v]) => {
    const name = (v && v.title) || k.replace(/_/g, ' ');  // the option's title in the page's language (GET /rulesets)
    const about = (v && (v['x-note'] || v.description)) || '';  // x-note: in words for a person, not field syntax
    const said = about.startsWith(name) ? about : `${name}${about ? `: ${about}` : ''}`;
    return /[.!?…]$/.test(said) ? said : `${said}.`;  // each option a sentence of its own
  });
  const head = withForm ? t('About these options') : t('Options (the ones without a field above are set as JSON under "More")');
  const text = parts.length ? `${head}: ${parts.join(' ')}` : withForm ? '' : schema.description || '';
  return text ? h('p', { class: 'muted', id: 'c-options-note' }, text) : null;
}

function showCreated(box, res, ruleset) {
  const said = (s) => seatName(ruleset, s);
  const id = res.game_id;
  const kept = Object.keys(res.seats || {});
  const invited = Object.entries(res.invitations || {});
  clear(box, h('div', { class: 'created', role: 'status' },
    h('h3', {}, t('Game {id} created', { id })),
    res.seed_commitment ? h('p', {}, t('Seed commitment:'), ' ', h('code', { class: 'hash' }, res.seed_commitment)) : null,
    kept.length > 1 ? h('p', { id: 'hot-seat' }, t('You hold {seats} on this device; the game says so publicly.', { seats: kept.map(said).join(', ') })) : null,
    invited.length ? h('p', {}, t('Send each player the invitation link of their seat. It works once: whoever opens it first gets the seat and its token, in their own browser only (the code is in the part after #, which never reaches the server).')) : null,
    h('ul', { class: 'seats' }, kept.map((s) => h('li', { dataset: { seat: s, kept: 'true' } }, h('strong', {}, said(s)), ` (${t('yours')}) `,
      h('a', { href: `#/game/${encodeURIComponent(id)}?seat=${encodeURIComponent(s)}`, class: 'button play-seat' }, t('Play {seat}', { seat: said(s) })))),
    invited.map(([s, code]) => {
      const link = tokens.claimLink(res.campaign_id || id, s, code, !!res.campaign_id);
      return h('li', { dataset: { seat: s } }, h('strong', {}, said(s)), ' ',
        h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('invitation link for {seat}', { seat: said(s) }), class: 'invite' }), ' ',
        h('button', { type: 'button', onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => announce(t('link for {seat} copied', { seat: said(s) }))) }, t('Copy')));
    })),
    h('p', {}, h('a', { href: `#/game/${encodeURIComponent(id)}`, class: 'button' }, t('Watch as a spectator')))));
  announce(t('game {id} created', { id }));
}

function joinForm() {
  const link = h('input', { id: 'j-link', type: 'text', placeholder: t('invite link or game id'), autocomplete: 'off', required: true });
  const tok = h('input', { id: 'j-token', type: 'password', placeholder: t('seat token (not needed with a link)'), autocomplete: 'off' });
  const err = h('p', { class: 'error', role: 'alert' });
  const submit = async (e) => {
    e.preventDefault();
    err.textContent = '';
    let gameId = link.value.trim();
    let token = tok.value.trim();
    const invitation = gameId.match(/#(\/claim\/.+)$/);
    if (invitation) { location.hash = `#${invitation[1]}`; return; }  // main.js claims the seat
    const m = gameId.match(/#\/game\/([^?]+)(?:\?(.*))?$/);
    if (m) {
      gameId = decodeURIComponent(m[1]);
      const p = new URLSearchParams(m[2] || '');
      token = token || p.get('token') || '';
    }
    if (!gameId) { err.textContent = t('give a game id or an invite link'); return; }
    if (!token) { location.hash = `#/game/${encodeURIComponent(gameId)}`; return; }
    try {
      const lc = await new Api(token).get(`/games/${encodeURIComponent(gameId)}/legal-commands`);
      tokens.remember(gameId, lc.seat, token);
      location.hash = `#/game/${encodeURIComponent(gameId)}?seat=${encodeURIComponent(lc.seat)}`;
    } catch (ex) {
      err.textContent = problemText(ex);
    }
  };
  return h('form', { id: 'join', onsubmit: submit },
    h('div', { class: 'row' }, h('label', { for: 'j-link' }, t('Game'), ' '), link),
    h('div', { class: 'row' }, h('label', { for: 'j-token' }, t('Token'), ' '), tok),
    h('button', { type: 'submit' }, t('Join')), err);
}

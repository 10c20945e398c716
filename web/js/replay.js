// Timeline and replay: every step with its summary, a slider and keys (←/→, Home/End) to go to
// any step, the board as it was (board.svg?at=), and the ruling of that step beside it: the rule
// ids (each linked to its text), the numbers, and the dice with their indices.
import { h, clear } from './dom.js';
import { problemText } from './api.js';
import { mountSvg, setZoom } from './board.js';
import { disputeView } from './choices.js';
import { lang, t } from './i18n.js';
import { seatName } from './seats.js';

export function renderReplay(session, panel, at0, plugin) {
  const slider = h('input', { type: 'range', id: 'replay-slider', min: 0, max: Math.max(session.version, 0), value: 0, step: 1, 'aria-label': t('Step') });
  const where = h('output', { id: 'replay-where', for: 'replay-slider' });
  const btn = (label, aria, fn) => h('button', { type: 'button', 'aria-label': aria, onclick: fn }, label);
  const follow = h('input', { type: 'checkbox', id: 'replay-follow' });
  const boardBox = h('div', { class: 'board-frame replay-board', id: 'replay-board', tabindex: 0, role: 'region', 'aria-label': t('Board of this step (scrollable)') });
  const rulingBox = h('div', { class: 'ruling', id: 'ruling', 'aria-live': 'polite' });
  const tlBox = h('ol', { class: 'timeline', id: 'timeline' });
  const dialog = h('dialog', { id: 'rule-dialog' });
  const svgCache = new Map();
  let at = 0;
  let token = 0;

  clear(panel,
    h('div', { class: 'replay-controls' },
      btn('«', t('first step'), () => go(0)), btn('◀', t('previous step'), () => go(at - 1)),
      slider, btn('▶', t('next step'), () => go(at + 1)), btn('»', t('last step'), () => go(Number(slider.max))), where,
      h('label', { for: 'replay-follow', class: 'follow' }, follow, ' ', t('follow the game'))),
    h('p', { class: 'muted small' }, t('Keys: ← and → step, Home and End jump to the start and the end.')),
    h('div', { class: 'replay-grid' }, boardBox, rulingBox),
    h('h3', {}, t('Every step')), tlBox, dialog);

  slider.addEventListener('input', () => go(Number(slider.value)));
  panel.addEventListener('keydown', (e) => {
    if (e.target === slider || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const map = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Number(slider.max) };
    if (e.key in map) { e.preventDefault(); go(map[e.key]); }
  });
  rulingBox.addEventListener('click', (e) => {
    const a = e.target.closest('a.rule');
    if (!a) return;
    e.preventDefault();
    showRule(dialog, a.getAttribute('href'), a.textContent);
  });

  async function timeline() {
    const tl = await session.loadTimeline();
    const steps = tl.steps;
    clear(tlBox, steps.map((s) => h('li', { value: s.seq, class: s.undone ? 'undone' : '', dataset: { seq: String(s.seq) } },
      h('button', { type: 'button', class: 'link', onclick: () => go(s.seq) },
        `${s.seq}. `, s.turn ? `${t('turn {n}', { n: s.turn })} · ` : '', whoHead(s), s.summary, s.undone ? ` (${t('undone')})` : ''))));
    mark();
    return steps;
  }

  function mark() {
    for (const li of tlBox.children) {
      const on = Number(li.dataset.seq) === at;
      li.classList.toggle('here', on);
      if (on) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    }
  }

  async function go(n) {
    const max = Number(slider.max);
    n = Math.max(0, Math.min(max, Number.isFinite(n) ? n : max));
    at = n;
    slider.value = String(n);
    where.textContent = t('step {n} of {max}', { n, max });
    follow.checked = follow.checked && n === max;
    const q = new URLSearchParams(location.hash.split('?')[1] || '');
    q.set('tab', 'replay'); q.set('at', String(n));
    history.replaceState(null, '', `${location.hash.split('?')[0]}?${q}`);
    mark();
    const mine = ++token;
    try {
      if (!svgCache.has(n)) svgCache.set(n, session.api.get(session.path(`/board.svg?at=${n}`), { text: true }));
      const [svg, ruling, steps] = await Promise.all([svgCache.get(n), n >= 1 ? session.ruling(n) : null, session.loadTimeline()]);
      if (mine !== token) return;
      // a phone gets the picture enlarged, as in the play view (it scrolls sideways inside its frame)
      if (!boardBox.dataset.zoom && boardBox.clientWidth) setZoom(boardBox, boardBox.clientWidth < 520 ? ((plugin && plugin.phoneZoom) || 1.5) : 1);
      const pic = mountSvg(boardBox, svg, t('Board after step {n}', { n }));
      if (pic && plugin && plugin.dress) plugin.dress(pic, session.view);  // a ruleset's legible names and symbols
      boardBox.dataset.at = String(n);
      const step = steps.steps.find((s) => s.seq === n);
      clear(rulingBox, rulingView(session, n, step, ruling));
      rulingBox.dataset.at = String(n);
    } catch (err) {
      svgCache.delete(n);
      if (mine === token) clear(rulingBox, h('p', { role: 'alert' }, problemText(err)));
    }
  }

  panel.__follow = async () => {
    const was = Number(slider.max);
    slider.max = String(session.version);
    if (session.version !== was) {
      await timeline();
      if (follow.checked || at === was) { follow.checked = follow.checked || at === was; go(session.version); }
      else where.textContent = t('step {n} of {max}', { n: at, max: session.version });
    }
  };

  timeline().then(() => {
    const start = at0 == null || at0 === '' ? session.version : Number(at0);
    follow.checked = start === session.version;
    go(start);
  });
}

function ruleHref(session, step) {
  if (step.rule_url) return step.rule_url;
  const rs = (session.view && session.view.ruleset) || '';
  return `/rulesets/${encodeURIComponent(rs)}/rules/${encodeURIComponent(step.rule)}`;
}

// The faces a ruling names for its roll indices (e.g. hoth's HOTH-HIT-1 values).
function facesByIndex(ruling) {
  const out = new Map();
  for (const st of (ruling && ruling.steps) || []) {
    const v = st.values || {};
    if (Array.isArray(v.roll_indices) && Array.isArray(v.faces)) v.roll_indices.forEach((i, k) => out.set(i, v.faces[k]));
  }
  return out;
}

// A ruling's value in words: lists joined, an empty one "none", no brackets or braces.
function plain(v) {
  if (v == null) return t('none');
  if (Array.isArray(v)) return v.length ? v.map(plain).join(', ') : t('none');
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k.replace(/_/g, ' ')} ${plain(x)}`).join('; ') || t('none');
  return String(v);
}

// Who did a step (DESIGN 12: a seat, a bot seat, the automaton, the referee), in words.
function actorText(s) {
  return (s.by && s.by.text) || (s.actor ? seatName(null, s.actor) : t('the referee'));
}

// A step's line begins with who did it, unless its summary names that seat already (`by.in_summary`, set by the
// server from the summary's own parameters: docs/seat-names.md), so the side is said once.
export function whoHead(s) {
  return s.by && s.by.in_summary ? '' : `${actorText(s)}: `;
}

export function rulingView(session, seq, step, r) {
  if (seq === 0) return [h('h3', {}, t('Before the first step')), h('p', {}, t('The board as the game was created.'))];
  const head = h('h3', {}, t('Step {n}: {summary}', { n: seq, summary: (step && step.summary) || (r && r.type) || '' }));
  const meta = h('p', { class: 'muted' }, [step && step.by && step.by.in_summary ? '' : t('by {who}', { who: step ? actorText(step) : r && r.actor ? seatName(null, r.actor) : t('the referee') }), step && step.turn ? t('turn {n}', { n: step.turn }) : ''].filter(Boolean).flatMap((x, i) => (i ? [' · ', x] : [x])));
  const out = [head, meta];
  if (r && r.undone) out.push(h('p', { class: 'undone-note' }, t('This step was undone: it stays in the log, marked, and no longer counts.')));
  if (r && r.bot && !(step && step.by && step.by.kind === 'bot')) out.push(h('p', {}, t('Played by the bot {bot}.', { bot: r.bot })));
  if (!r || r.redacted) { out.push(h('p', {}, t('This step is private to another seat: its ruling is shown once the game is over.'))); return out; }
  const ruling = r.ruling;
  if (!ruling) out.push(h('p', { class: 'muted' }, t('No ruling: this step follows from the one before.')));
  else {
    if (ruling.summary) out.push(h('p', { class: 'ruling-summary' }, ruling.summary));
    out.push(h('ol', { class: 'ruling-steps' }, (ruling.steps || []).map((st) => h('li', {},
      h('a', { class: 'rule', href: ruleHref(session, st), dataset: { rule: st.rule } }, st.rule), ' ', st.text || '',
      st.values && Object.keys(st.values).length ? h('dl', { class: 'values' }, Object.entries(st.values).flatMap(([k, v]) => [h('dt', {}, k.replace(/_/g, ' ')), h('dd', {}, st.values_named && st.values_named[k] != null ? st.values_named[k] : plain(v))])) : null))));
  }
  const rolls = r.rolls || [];
  const disputeBox = h('div', { class: 'dispute', id: 'dispute' });
  const dispute = h('details', { class: 'dispute-details', id: 'dispute-details' },
    h('summary', {}, t('Dispute this step')), disputeBox);
  dispute.addEventListener('toggle', () => { if (dispute.open && !disputeBox.dataset.ready) disputeView(session, seq, r, disputeBox); });
  if (rolls.length) {
    const faces = facesByIndex(ruling);
    out.push(h('table', { class: 'dice', id: 'dice' }, h('caption', {}, t('Dice ({n})', { n: rolls.length })),
      h('thead', {}, h('tr', {}, [t('stream'), t('index'), t('sides'), t('value'), t('face')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rolls.map((d) => h('tr', {}, h('td', {}, d.stream), h('td', { class: 'num' }, String(d.index)), h('td', { class: 'num' }, String(d.sides)),
        h('td', { class: 'num' }, String(d.value)), h('td', {}, d.stream === 'dice' && faces.has(d.index) ? faces.get(d.index) : ''))))));
  }
  out.push(dispute);
  return out;
}

async function showRule(dialog, href, id) {
  clear(dialog, h('h3', {}, id), h('p', {}, t('Loading…')));
  if (!dialog.open) dialog.showModal();
  const close = h('form', { method: 'dialog' }, h('button', { type: 'submit' }, t('Close')));
  try {
    const res = await fetch(href, { headers: { accept: 'application/json', 'accept-language': lang() } });
    if (!res.ok) throw new Error(res.status === 404 ? t('this server has no text for this rule yet') : `HTTP ${res.status}`);
    const rule = await res.json();
    clear(dialog, h('h3', {}, rule.id || id, rule.title ? ` — ${rule.title}` : ''), h('p', { class: 'rule-text' }, rule.text || ''), h('p', {}, h('a', { href }, t('as JSON'))), close);
  } catch (err) {
    clear(dialog, h('h3', {}, id), h('p', {}, String(err.message || err)), close);
  }
}

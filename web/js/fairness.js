// The fairness panel: the seed commitment, the last signed receipt (checked against the service's
// public key), the server's own verify, and once the game is over the revealed seed with every
// roll re-computed here in the browser (dice.js), independently of the server's verify.
import { h, clear } from './dom.js';
import { spectator, lobbyPage, problemText } from './api.js';
import { checkRolls, sha256Hex, hasSubtle } from './dice.js';
import { t, tn } from './i18n.js';
import { seatName, seatNames } from './seats.js';

const HEX64 = /^[0-9a-f]{64}$/;
const enc = new TextEncoder();

export function b64url(s) {
  const b = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b + '='.repeat((4 - (b.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function commitmentOf(session) {
  const e1 = session.events.get(1);
  for (const [k, v] of Object.entries((e1 && e1.payload) || {})) {
    if (/commitment/i.test(k) && typeof v === 'string' && HEX64.test(v)) return { value: v, from: t('from the game’s first event') };
  }
  if (session.view && HEX64.test(session.view.seed_commitment || '')) return { value: session.view.seed_commitment, from: t('from the game view') };
  let cursor = null;
  for (let i = 0; i < 50; i++) {
    const page = await lobbyPage(spectator, { ruleset: session.view.ruleset, cursor, limit: 100 });
    const g = page.games.find((x) => x.game_id === session.gameId);
    if (g && g.seed_commitment) return { value: g.seed_commitment, from: t('from the lobby') };
    if (!page.next) break;
    cursor = page.next;
  }
  return null;
}

function seatsInOrder(session, verify) {
  const e1 = session.events.get(1);
  const seats = e1 && e1.payload && e1.payload.seats;
  if (Array.isArray(seats)) return seats.map((s) => (typeof s === 'string' ? s : s.seat || s.id));
  if (seats && typeof seats === 'object') return Object.keys(seats);
  return Object.keys((verify && verify.client_seeds) || {});
}

let keyCache = null;
async function checkReceipt(session, r) {
  const out = [];
  const ev = session.events.get(r.version);
  if (ev) out.push([ev.hash === r.head, ev.hash === r.head ? t('head is the hash of event {version} as you see it', { version: r.version }) : t('head is not the hash of event {version} as you see it', { version: r.version })]);
  if (!hasSubtle()) { out.push([null, t('signature not checked: this page is not in a secure context (no Web Crypto)')]); return out; }
  try {
    keyCache = keyCache || spectator.get('/.well-known/umpire-key');
    const key = await keyCache;
    const raw = b64url(key.public_key);
    const kid = (await sha256Hex(raw)).slice(0, 16);
    out.push([kid === key.key_id && key.key_id === r.key_id, kid === r.key_id ? t("key id {id} is the service's key", { id: r.key_id }) : t("key id {id} is not the service's key", { id: r.key_id })]);
    const k = await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
    const ok = await crypto.subtle.verify({ name: 'Ed25519' }, k, b64url(r.signature), enc.encode(`umpire-receipt-v1|${r.game_id}|${r.version}|${r.head}`));
    out.push([ok, ok ? t('Ed25519 signature verified in this browser') : t('the signature does not verify')]);
  } catch (err) {
    keyCache = null;
    out.push([null, t('signature not checked: {problem}', { problem: problemText(err) })]);
  }
  return out;
}

// A receipt's fields, for people (the JSON names stay in the API and the docs).
const RECEIPT_FIELDS = () => [['game_id', t('Game')], ['version', t('Version')], ['head', t('Hash of that event')],
  ['key_id', t('Signing key')], ['signature', t('Signature')]];

const mark = (ok) => (ok === true ? '✓' : ok === false ? '✗' : '·');

async function allRolls(session, onProgress) {
  const seqs = [];
  for (let s = 1; s <= session.version; s++) seqs.push(s);
  const rolls = [];
  const per = new Map();
  let done = 0;
  const worker = async () => {
    while (seqs.length) {
      const s = seqs.shift();
      const r = await session.ruling(s);
      per.set(s, (r.rolls || []).map((x) => ({ ...x, seq: s })));
      done += 1;
      if (done % 25 === 0) onProgress(done);
    }
  };
  await Promise.all([1, 2, 3, 4, 5, 6].map(worker));
  for (let s = 1; s <= session.version; s++) rolls.push(...(per.get(s) || []));
  return rolls;
}

// DESIGN 4 (UMPIRE-SEAT-5, -6): how each seat is held, never by whom, and a chosen seed, said plainly.
const HELD = () => ({ creator: t('its token went to the game’s creator'), invitation: t('claimed with its one-time invitation'),
  unclaimed: t('not claimed yet (its invitation is open)'), bot: t('played by the service’s bot') });
export function seatLines(verify) {
  const out = [];
  if (verify.seed_given) {
    out.push(h('li', { id: 'fair-seed-given', class: 'warn' }, '⚠ ', t('The creator chose this game’s seed: they can compute every roll.')));
  }
  const holds = verify.creator_holds || [];
  if (holds.length > 1) {
    out.push(h('li', { id: 'fair-creator-holds', class: 'warn' }, '⚠ ', t('The creator holds {seats}: it can read each of those hands and act for each of those seats.', { seats: seatNames(null, holds) })));
  }
  if (verify.seats) {
    out.push(h('li', { id: 'fair-seats' }, t('Seats:'), ' ', h('ul', {}, Object.entries(verify.seats).map(([s, v]) => h('li', { dataset: { seat: s, claimed: v.claimed } },
      `${seatName(null, s)}: ${HELD()[v.claimed] || v.claimed}${v.rotated ? `; ${t('its holder replaced the token since')}` : ''}`)))));
  }
  return out;
}

// UMPIRE-SEAL-2: a battle handed a sealed setup (a campaign side's kept support cards) says what was sealed and
// whether each sealed part matches the commitment its header published, never what it holds.
export function sealedLine(verify) {
  const s = verify.sealed;
  if (!s) return null;
  const parts = (s.parts || []).map((p) => {
    const [type, key] = p.split('.');
    return `${type.replace(/_/g, ' ')}${key ? ` (${key})` : ''}`;
  });
  const what = parts.length ? parts.join(', ') : t('nothing');
  return h('li', { id: 'fair-sealed', class: s.ok ? null : 'bad', dataset: { ok: String(s.ok) } },
    s.ok ? `${mark(true)} ${t('Sealed at the start: {what}. Each matches the commitment published when the game was created; what it holds stays hidden.', { what })}`
      : `${mark(false)} ${t('Sealed at the start: {what}. It does not match its commitment: {problems}', { what, problems: (s.problems || []).join('; ') })}`);
}

export function renderFairness(session, panel) {
  const commitBox = h('div', { id: 'fair-commitment' });
  const receiptBox = h('div', { id: 'fair-receipt' });
  const serverBox = h('div', { id: 'fair-server' });
  const checkBox = h('div', { id: 'fair-check', 'aria-live': 'polite' });
  clear(panel,
    h('section', { 'aria-labelledby': 'h-commit' }, h('h3', { id: 'h-commit' }, t('Seed commitment')),
      h('p', { class: 'muted' }, t('Published when the game was created: the sha256 of the secret seed that rolls every die. The seed is revealed when the game ends.')), commitBox),
    h('section', { 'aria-labelledby': 'h-receipt' }, h('h3', { id: 'h-receipt' }, t('Last receipt')), receiptBox),
    h('section', { 'aria-labelledby': 'h-server' }, h('h3', { id: 'h-server' }, t('The server’s own check')), serverBox),
    h('section', { 'aria-labelledby': 'h-check' }, h('h3', { id: 'h-check' }, t('Checked in this browser')), checkBox));

  let commitment = null;
  let lastVersion = -1;
  let checkedFor = null;

  async function runCheck(verify) {
    checkedFor = session.version;
    const progress = h('p', {}, t('Fetching the dice of every step…'));
    clear(checkBox, progress);
    try {
      const rolls = await allRolls(session, (n) => { progress.textContent = t('Fetching the dice of every step… {n} of {max}', { n, max: session.version }); });
      progress.textContent = hasSubtle() ? tn('Re-computing {n} roll with HMAC-SHA256 (Web Crypto)…', 'Re-computing {n} rolls with HMAC-SHA256 (Web Crypto)…', rolls.length)
        : tn('Re-computing {n} roll with HMAC-SHA256 (plain JavaScript: no Web Crypto here)…', 'Re-computing {n} rolls with HMAC-SHA256 (plain JavaScript: no Web Crypto here)…', rolls.length);
      const res = await checkRolls({
        seedHex: verify.seed, commitment: commitment && commitment.value, gameId: session.gameId,
        seats: seatsInOrder(session, verify), clientSeeds: verify.client_seeds || null, rolls,
      });
      const result = h('div', { id: 'fair-result', class: res.ok ? 'ok' : 'bad', dataset: { ok: String(res.ok), rolls: String(res.rolls_checked) } },
        h('p', { class: 'verdict-line' }, res.ok ? `✓ ${tn('Fair: the {n} roll follows from the revealed seed.', 'Fair: every one of {n} rolls follows from the revealed seed.', res.rolls_checked)}` : `✗ ${t('Not verified.')}`),
        h('ul', {},
          h('li', {}, `${mark(res.commitment_ok)} ${res.commitment_ok ? t('sha256(seed) equals the commitment') : res.commitment_ok === false ? t('sha256(seed) differs from the commitment') : t('sha256(seed) not compared with the commitment')}`),
          h('li', {}, `${mark(res.rolls_ok)} ${verify.client_seeds ? tn('{n} roll re-computed with the client seeds mixed in', '{n} rolls re-computed with the client seeds mixed in', res.rolls_checked) : tn('{n} roll re-computed', '{n} rolls re-computed', res.rolls_checked)}`),
          h('li', {}, `${mark(res.order_ok)} ${t('each stream uses every index once, in order')}`)),
        res.problems.length ? h('ul', { class: 'problems' }, res.problems.slice(0, 20).map((p) => h('li', {}, p))) : null);
      clear(checkBox, result, h('button', { type: 'button', id: 'fair-recheck', onclick: () => runCheck(verify) }, t('Check again')));
    } catch (err) {
      clear(checkBox, h('p', { role: 'alert', id: 'fair-result', dataset: { ok: 'false' } }, t('The check could not run: {problem}', { problem: problemText(err) })));
    }
  }

  async function refresh() {
    if (!session.view || session.version === lastVersion) return;
    lastVersion = session.version;
    try {
      commitment = commitment || await commitmentOf(session);
    } catch { commitment = null; }
    clear(commitBox, commitment ? [h('code', { class: 'hash', id: 'commitment' }, commitment.value), h('small', { class: 'muted' }, ` ${commitment.from}`)] : h('p', {}, t('Not found.')));
    const r = session.receipt;
    if (r) {
      const checks = await checkReceipt(session, r);
      clear(receiptBox, h('dl', { class: 'values' }, RECEIPT_FIELDS().flatMap(([k, label]) => [h('dt', {}, label), h('dd', {}, h('code', { class: 'hash' }, String(r[k])))])),
        h('ul', {}, checks.map(([ok, text]) => h('li', {}, `${mark(ok)} ${text}`))),
        h('p', { class: 'muted' }, t('Keep it: it proves later that the log was not cut or rewritten below this version.')));
    } else clear(receiptBox, h('p', { class: 'muted' }, t('No receipt for this game from this server (a seat receives one with every command it sends).')));
    let verify;
    try {
      verify = await spectator.get(session.path('/verify'));
    } catch (err) {
      clear(serverBox, h('p', { role: 'alert' }, problemText(err)));
      return;
    }
    clear(serverBox, h('ul', {},
      h('li', {}, `${mark(verify.chain_ok)} ${verify.chain_ok ? t('hash chain intact') : t('hash chain broken at step {seq}', { seq: verify.first_broken_seq })}`),
      'dice_ok' in verify ? h('li', {}, `${mark(verify.dice_ok)} ${verify.dice_ok ? t('dice match the seed (server)') : t('dice do not match the seed (server)')}`) : null,
      verify.client_seeds ? h('li', {}, t('client seeds: {seeds}', { seeds: Object.entries(verify.client_seeds).map(([s, c]) => `${s}=${c ?? `(${t('none')})`}`).join(', ') })) : null,
      sealedLine(verify),
      ...seatLines(verify)));
    if (session.finished && verify.seed) {
      if (checkedFor == null) {
        clear(checkBox, h('p', {}, t('Revealed seed:'), ' ', h('code', { class: 'hash', id: 'seed' }, verify.seed)));
        checkBox.append(h('button', { type: 'button', id: 'fair-run', onclick: () => runCheck(verify) }, t('Check every roll in this browser')));
        runCheck(verify).then(() => checkBox.prepend(h('p', {}, t('Revealed seed:'), ' ', h('code', { class: 'hash', id: 'seed' }, verify.seed))));
      }
    } else {
      clear(checkBox, h('p', {}, t('The seed stays secret while the game runs. When it ends, the seed is revealed and every roll is re-computed here, in your browser.')));
    }
  }
  panel.__refresh = refresh;
  refresh();
}

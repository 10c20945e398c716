// The fairness panel: the seed commitment, the last signed receipt (checked against the service's
// public key), the server's own verify, and once the game is over the revealed seed with every
// roll re-computed here in the browser (dice.js), independently of the server's verify.
import { h, clear } from './dom.js';
import { spectator, lobbyPage, problemText } from './api.js';
import { checkRolls, sha256Hex, hasSubtle } from './dice.js';

const HEX64 = /^[0-9a-f]{64}$/;
const enc = new TextEncoder();

export function b64url(s) {
  const t = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(t + '='.repeat((4 - (t.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function commitmentOf(session) {
  const e1 = session.events.get(1);
  for (const [k, v] of Object.entries((e1 && e1.payload) || {})) {
    if (/commitment/i.test(k) && typeof v === 'string' && HEX64.test(v)) return { value: v, from: 'the game’s first event' };
  }
  if (session.view && HEX64.test(session.view.seed_commitment || '')) return { value: session.view.seed_commitment, from: 'the game view' };
  let cursor = null;
  for (let i = 0; i < 50; i++) {
    const page = await lobbyPage(spectator, { ruleset: session.view.ruleset, cursor, limit: 100 });
    const g = page.games.find((x) => x.game_id === session.gameId);
    if (g && g.seed_commitment) return { value: g.seed_commitment, from: 'the lobby' };
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
  if (ev) out.push([ev.hash === r.head, ev.hash === r.head ? `head is the hash of event ${r.version} as you see it` : `head is not the hash of event ${r.version} as you see it`]);
  if (!hasSubtle()) { out.push([null, 'signature not checked: this page is not in a secure context (no Web Crypto)']); return out; }
  try {
    keyCache = keyCache || spectator.get('/.well-known/umpire-key');
    const key = await keyCache;
    const raw = b64url(key.public_key);
    const kid = (await sha256Hex(raw)).slice(0, 16);
    out.push([kid === key.key_id && key.key_id === r.key_id, `key id ${r.key_id} ${kid === r.key_id ? 'is' : 'is not'} the service's key`]);
    const k = await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
    const ok = await crypto.subtle.verify({ name: 'Ed25519' }, k, b64url(r.signature), enc.encode(`umpire-receipt-v1|${r.game_id}|${r.version}|${r.head}`));
    out.push([ok, ok ? 'Ed25519 signature verified in this browser' : 'the signature does not verify']);
  } catch (err) {
    keyCache = null;
    out.push([null, `signature not checked: ${problemText(err)}`]);
  }
  return out;
}

// A receipt's fields, for people (the JSON names stay in the API and the docs).
const RECEIPT_FIELDS = [['game_id', 'Game'], ['version', 'Version'], ['head', 'Hash of that event'],
  ['key_id', 'Signing key'], ['signature', 'Signature']];

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
const HELD = { creator: 'its token went to the game’s creator', invitation: 'claimed with its one-time invitation',
  unclaimed: 'not claimed yet (its invitation is open)', bot: 'played by the service’s bot' };
export function seatLines(verify) {
  const out = [];
  if (verify.seed_given) {
    out.push(h('li', { id: 'fair-seed-given', class: 'warn' }, '⚠ The creator chose this game’s seed: they can compute every roll.'));
  }
  const holds = verify.creator_holds || [];
  if (holds.length > 1) {
    out.push(h('li', { id: 'fair-creator-holds', class: 'warn' }, `⚠ The creator holds ${holds.join(', ')}: it can read each of those hands and act for each of those seats.`));
  }
  if (verify.seats) {
    out.push(h('li', { id: 'fair-seats' }, 'Seats: ', h('ul', {}, Object.entries(verify.seats).map(([s, v]) => h('li', { dataset: { seat: s, claimed: v.claimed } },
      `${s}: ${HELD[v.claimed] || v.claimed}${v.rotated ? '; its holder replaced the token since' : ''}`)))));
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
  const what = parts.length ? parts.join(', ') : 'nothing';
  return h('li', { id: 'fair-sealed', class: s.ok ? null : 'bad', dataset: { ok: String(s.ok) } },
    s.ok ? `${mark(true)} Sealed at the start: ${what}. Each matches the commitment published when the game was created; what it holds stays hidden.`
      : `${mark(false)} Sealed at the start: ${what}. It does not match its commitment: ${(s.problems || []).join('; ')}`);
}

export function renderFairness(session, panel) {
  const commitBox = h('div', { id: 'fair-commitment' });
  const receiptBox = h('div', { id: 'fair-receipt' });
  const serverBox = h('div', { id: 'fair-server' });
  const checkBox = h('div', { id: 'fair-check', 'aria-live': 'polite' });
  clear(panel,
    h('section', { 'aria-labelledby': 'h-commit' }, h('h3', { id: 'h-commit' }, 'Seed commitment'),
      h('p', { class: 'muted' }, 'Published when the game was created: the sha256 of the secret seed that rolls every die. The seed is revealed when the game ends.'), commitBox),
    h('section', { 'aria-labelledby': 'h-receipt' }, h('h3', { id: 'h-receipt' }, 'Last receipt'), receiptBox),
    h('section', { 'aria-labelledby': 'h-server' }, h('h3', { id: 'h-server' }, 'The server’s own check'), serverBox),
    h('section', { 'aria-labelledby': 'h-check' }, h('h3', { id: 'h-check' }, 'Checked in this browser'), checkBox));

  let commitment = null;
  let lastVersion = -1;
  let checkedFor = null;

  async function runCheck(verify) {
    checkedFor = session.version;
    const progress = h('p', {}, 'Fetching the dice of every step…');
    clear(checkBox, progress);
    try {
      const rolls = await allRolls(session, (n) => { progress.textContent = `Fetching the dice of every step… ${n} of ${session.version}`; });
      progress.textContent = `Re-computing ${rolls.length} rolls with HMAC-SHA256${hasSubtle() ? ' (Web Crypto)' : ' (plain JavaScript: no Web Crypto here)'}…`;
      const res = await checkRolls({
        seedHex: verify.seed, commitment: commitment && commitment.value, gameId: session.gameId,
        seats: seatsInOrder(session, verify), clientSeeds: verify.client_seeds || null, rolls,
      });
      const result = h('div', { id: 'fair-result', class: res.ok ? 'ok' : 'bad', dataset: { ok: String(res.ok), rolls: String(res.rolls_checked) } },
        h('p', { class: 'verdict-line' }, res.ok ? `✓ Fair: every one of ${res.rolls_checked} rolls follows from the revealed seed.` : '✗ Not verified.'),
        h('ul', {},
          h('li', {}, `${mark(res.commitment_ok)} sha256(seed) ${res.commitment_ok ? 'equals' : res.commitment_ok === false ? 'differs from' : 'not compared with'} the commitment`),
          h('li', {}, `${mark(res.rolls_ok)} ${res.rolls_checked} rolls re-computed${verify.client_seeds ? ' with the client seeds mixed in' : ''}`),
          h('li', {}, `${mark(res.order_ok)} each stream uses every index once, in order`)),
        res.problems.length ? h('ul', { class: 'problems' }, res.problems.slice(0, 20).map((p) => h('li', {}, p))) : null);
      clear(checkBox, result, h('button', { type: 'button', id: 'fair-recheck', onclick: () => runCheck(verify) }, 'Check again'));
    } catch (err) {
      clear(checkBox, h('p', { role: 'alert', id: 'fair-result', dataset: { ok: 'false' } }, `The check could not run: ${problemText(err)}`));
    }
  }

  async function refresh() {
    if (!session.view || session.version === lastVersion) return;
    lastVersion = session.version;
    try {
      commitment = commitment || await commitmentOf(session);
    } catch { commitment = null; }
    clear(commitBox, commitment ? [h('code', { class: 'hash', id: 'commitment' }, commitment.value), h('small', { class: 'muted' }, ` from ${commitment.from}`)] : h('p', {}, 'Not found.'));
    const r = session.receipt;
    if (r) {
      const checks = await checkReceipt(session, r);
      clear(receiptBox, h('dl', { class: 'values' }, RECEIPT_FIELDS.flatMap(([k, label]) => [h('dt', {}, label), h('dd', {}, h('code', { class: 'hash' }, String(r[k])))])),
        h('ul', {}, checks.map(([ok, text]) => h('li', {}, `${mark(ok)} ${text}`))),
        h('p', { class: 'muted' }, 'Keep it: it proves later that the log was not cut or rewritten below this version.'));
    } else clear(receiptBox, h('p', { class: 'muted' }, 'No receipt for this game from this server (a seat receives one with every command it sends).'));
    let verify;
    try {
      verify = await spectator.get(session.path('/verify'));
    } catch (err) {
      clear(serverBox, h('p', { role: 'alert' }, problemText(err)));
      return;
    }
    clear(serverBox, h('ul', {},
      h('li', {}, `${mark(verify.chain_ok)} hash chain ${verify.chain_ok ? 'intact' : `broken at seq ${verify.first_broken_seq}`}`),
      'dice_ok' in verify ? h('li', {}, `${mark(verify.dice_ok)} dice ${verify.dice_ok ? 'match the seed' : 'do not match'} (server)`) : null,
      verify.client_seeds ? h('li', {}, `client seeds: ${Object.entries(verify.client_seeds).map(([s, c]) => `${s}=${c ?? '(none)'}`).join(', ')}`) : null,
      sealedLine(verify),
      ...seatLines(verify)));
    if (session.finished && verify.seed) {
      if (checkedFor == null) {
        clear(checkBox, h('p', {}, 'Revealed seed: ', h('code', { class: 'hash', id: 'seed' }, verify.seed)));
        checkBox.append(h('button', { type: 'button', id: 'fair-run', onclick: () => runCheck(verify) }, 'Check every roll in this browser'));
        runCheck(verify).then(() => checkBox.prepend(h('p', {}, 'Revealed seed: ', h('code', { class: 'hash', id: 'seed' }, verify.seed))));
      }
    } else {
      clear(checkBox, h('p', {}, 'The seed stays secret while the game runs. When it ends, the seed is revealed and every roll is re-computed here, in your browser.'));
    }
  }
  panel.__refresh = refresh;
  refresh();
}

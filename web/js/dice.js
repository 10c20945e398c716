// Re-computing the dice of a finished game in the browser (DESIGN 3, CONTRACTS "Provably fair
// seeds"): draw i of stream s is HMAC-SHA256(seed, label), label = `${game}|${s}|${i}`, or
// `${game}|${mix}|${s}|${i}` for a game started when_ready, mix = "seat=client_seed,..." over the
// seats in their setup order. The digest is four 64-bit big-endian words; the first below the
// largest multiple of `sides` gives `word % sides`; else the label gets `|k` for k = 1, 2, ...
// Web Crypto does the HMAC; a page served over plain HTTP to another host has no crypto.subtle
// (not a secure context), and then the small SHA-256 below is used instead (same results).
import { t } from './i18n.js';

const enc = new TextEncoder();
const WORD = 1n << 64n;

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^([0-9a-f]{2})*$/.test(hex)) throw new Error('not lowercase hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function hasSubtle() {
  return typeof crypto !== 'undefined' && !!crypto.subtle;
}

export async function sha256Hex(bytes, { pure = false } = {}) {
  if (!pure && hasSubtle()) return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
  return bytesToHex(sha256(bytes));
}

// An HMAC-SHA256 keyed by the seed: mac(text) -> Uint8Array(32).
export async function hmacOf(seed, { pure = false } = {}) {
  if (!pure && hasSubtle()) {
    const key = await crypto.subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return async (text) => new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(text)));
  }
  return async (text) => hmacPure(seed, enc.encode(text));
}

export function mixOf(seats, clientSeeds) {
  if (!clientSeeds) return null;
  return seats.map((s) => `${s}=${clientSeeds[s] ?? ''}`).join(',');
}

export function labelOf(gameId, stream, index, mix) {
  return mix == null ? `${gameId}|${stream}|${index}` : `${gameId}|${mix}|${stream}|${index}`;
}

export async function draw(mac, label, sides) {
  if (!(sides >= 1)) throw new Error('a draw needs at least one side');
  if (sides === 1) return 0;
  const n = BigInt(sides);
  const limit = WORD - (WORD % n);
  for (let k = 0; k < 1000; k++) {
    const d = await mac(k === 0 ? label : `${label}|${k}`);
    for (let w = 0; w < 4; w++) {
      let word = 0n;
      for (let b = 0; b < 8; b++) word = (word << 8n) | BigInt(d[8 * w + b]);
      if (word < limit) return Number(word % n);
    }
  }
  throw new Error('no draw after 1000 digests');
}

// Check every recorded roll: [{seq, stream, index, sides, value}] -> report.
export async function checkRolls({ seedHex, commitment, gameId, seats, clientSeeds, rolls, pure = false }) {
  const report = { commitment_ok: null, rolls_checked: 0, rolls_ok: true, order_ok: true, problems: [] };
  const seed = hexToBytes(seedHex);
  if (seed.length !== 32) report.problems.push(t('the seed is not 32 bytes'));
  if (commitment) {
    report.commitment_ok = (await sha256Hex(seed, { pure })) === commitment;
    if (!report.commitment_ok) report.problems.push(t('sha256(seed) is not the published commitment'));
  }
  const mac = await hmacOf(seed, { pure });
  const mix = mixOf(seats || [], clientSeeds);
  const nextIndex = {};
  for (const r of rolls) {
    const expectIdx = nextIndex[r.stream] ?? 0;
    if (r.index !== expectIdx) {
      report.order_ok = false;
      report.problems.push(t('step {seq}: {stream}#{index} where #{next} comes next (every index once, in order)', { seq: r.seq, stream: r.stream, index: r.index, next: expectIdx }));
    }
    nextIndex[r.stream] = Math.max(expectIdx, r.index + 1);
    const v = await draw(mac, labelOf(gameId, r.stream, r.index, mix), r.sides);
    report.rolls_checked += 1;
    if (v !== r.value) {
      report.rolls_ok = false;
      report.problems.push(t('step {seq}: {stream}#{index} (d{sides}) recorded {value}, the seed gives {expected}', { seq: r.seq, stream: r.stream, index: r.index, sides: r.sides, value: r.value, expected: v }));
      if (report.first_bad_seq == null) report.first_bad_seq = r.seq;
    }
  }
  report.ok = report.problems.length === 0;
  return report;
}

// ---- SHA-256 and HMAC in plain JavaScript (FIPS 180-4, RFC 2104), for pages without crypto.subtle.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(msg) {
  const len = msg.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(msg);
  padded[len] = 0x80;
  const bits = len * 8;
  const dv = new DataView(padded.buffer);
  dv.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  dv.setUint32(padded.length - 4, bits >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(W[i - 15], 7) ^ rotr(W[i - 15], 18) ^ (W[i - 15] >>> 3);
      const s1 = rotr(W[i - 2], 17) ^ rotr(W[i - 2], 19) ^ (W[i - 2] >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + W[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const mj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + mj) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += hh;
  }
  const out = new Uint8Array(32);
  const odv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) odv.setUint32(4 * i, H[i]);
  return out;
}

export function hmacPure(key, msg) {
  let k = key.length > 64 ? sha256(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const ipad = block.map((b) => b ^ 0x36);
  const opad = block.map((b) => b ^ 0x5c);
  const inner = new Uint8Array(64 + msg.length);
  inner.set(ipad); inner.set(msg, 64);
  const ih = sha256(inner);
  const outer = new Uint8Array(64 + 32);
  outer.set(opad); outer.set(ih, 64);
  return sha256(outer);
}

// Clouds of Smoke in the browser: the table is continuous (UW and degrees, SMOKE-GEO-1), so a unit
// is moved by dragging and rotating it. A unit of the seat that has a command template (GET
// /legal-commands "templates") is selectable; its ghost follows the pointer (or the arrow keys),
// turns with its handle, the mouse wheel or the [ and ] keys, and every pose is turned into the
// template's free fields (within their bounds) and checked live with the dry run (POST /commands
// ?dry_run=true; debounced, the latest answer wins): green with the ruling's summary, red with the
// refused rule and its sentence. Releasing the drag (or Enter, or Send) on a legal pose posts the
// real command. The server decides everything; this module only measures the pointer.
// The template forms of commands.js remain the keyboard-only fallback.
import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { seatName, seatNames } from '../seats.js';
import { ApiError, problemText } from '../api.js';
import { commandButton, warningOf, wordsOf } from '../commands.js';
import { armyBuilder } from './smoke_army_builder.js';
import { dressTable, SYMBOLS } from './smoke_labels.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
export const ROTATE_STEP = 5; // degrees per wheel notch or [ ] key (Shift: 1)
export const NUDGE = 0.25; // UW per arrow key (Shift: 0.05)
const DEBOUNCE_MS = 120;
const DRAG_START_PX = 3; // a pointer that moves less than this is a click (select)
const HANDLE_UW = 0.9; // the rotation handle, ahead of the ghost's front edge

// The drag in progress and the last answer, kept across redraws of the board (the page redraws
// the SVG on every update); reset when the game or its version changes.
const ctl = { key: null, place: null, unit: null, mode: 0, pose: null, answer: null, seq: 0, timer: null, drag: null, suppressClick: false, posedAt: 0, lastLegal: null, refused: null };
// measured in the browser for ops/bench_smoke_drag.py: a pose to its verdict drawn (debounce
// included), and the dry run's own round trip
const metrics = (window.__umpireMetrics = window.__umpireMetrics || { firstBoard: null, clicks: [] });
metrics.poseToVerdict = metrics.poseToVerdict || [];
metrics.dryRun = metrics.dryRun || [];

const norm = (a) => ((a % 360) + 360) % 360;
const r2 = (v) => Math.round(v * 100) / 100;
const r1 = (v) => Math.round(v * 10) / 10;
const clamp = (v, lo, hi) => Math.min(hi ?? Infinity, Math.max(lo ?? -Infinity, v));
const rad = (d) => (d * Math.PI) / 180;
const deg = (r) => norm((r * 180) / Math.PI);

// ---- the picture's own transform (data attributes of domain/smoke/picture.py) ----------------
export function transformOf(svg) {
  const px = parseFloat(svg.dataset.pxPerUw);
  const [ox, oy] = (svg.dataset.origin || '').split(' ').map(Number);
  if (!(px > 0) || Number.isNaN(ox) || Number.isNaN(oy)) return null;
  return {
    toSvg: (x, y) => [ox + x * px, oy - y * px],
    toTable: (sx, sy) => [(sx - ox) / px, (oy - sy) / px],
    px,
  };
}

function clientToTable(svg, tf, ev) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  return tf.toTable(p.x, p.y);
}

// A piece on the picture: a unit (an oriented box) or a commander (a disc, SMOKE-GEO-16).
const PIECES = '[data-unit], [data-commander]';
function pieceOf(el) {
  const d = el.dataset;
  if (d.commander) return { id: d.commander, kind: 'commander', seat: d.seat, x: Number(d.x), y: Number(d.y), facing: 0, r: Number(d.r) };
  return { id: d.unit, kind: 'unit', seat: d.seat, x: Number(d.x), y: Number(d.y), facing: Number(d.facing), w: Number(d.w), d: Number(d.d) };
}
const pieceId = (el) => el.dataset.unit || el.dataset.commander;

// ---- templates: which of the seat's units can be dragged, and how a pose fills a template ----
const POSE_FIELDS = ['facing', 'distance', 'vector', 'at', 'to'];

// What is put on the table rather than moved on it (SMOKE-TGEN-2, SMOKE-DEP-3/4/6, SMOKE-MARK-3): a
// terrain element, a column marker, a reserve unit or commander, a fortification, a battle marker. It
// is not on the picture yet: its ghost starts at the template's own example (a legal pose) and is
// dragged from there inside the zone its bound draws.
const PLACED = ['place_terrain', 'place_column', 'deploy_unit', 'deploy_commander', 'place_fortification', 'place_marker'];
const COMMANDER_R = 0.5; // SMOKE-GEO-16, the disc drawn for a reserve commander
const MARKER_R = 2.0; // SMOKE-MARK-3's 2 UW radius

function centre(b, view) {
  const at = (b && b.at) || {};
  if (Array.isArray(at.of_marker)) return at.of_marker;
  if (Array.isArray(at.within_zone) && at.within_zone.length) {
    const z = at.within_zone;
    return [z.reduce((a, p) => a + p[0], 0) / z.length, z.reduce((a, p) => a + p[1], 0) / z.length];
  }
  if (at.x && at.y) return [(at.x.min + at.x.max) / 2, (at.y.min + at.y.max) / 2];
  const b0 = (stateOf(view).battle) || {};
  return [(b0.width || 30) / 2, (b0.height || 22) / 2];
}

export function placeables(legal, view) {
  const st = stateOf(view);
  const out = [];
  for (const tp of (legal && legal.templates) || []) {
    const c = tp && tp.command;
    if (!c || !PLACED.includes(c.type)) continue;
    const kinds = c.type === 'place_terrain' ? ((tp.bounds.kind && tp.bounds.kind.one_of) || []) : [null];
    for (const kind of kinds) {
      const ex = tp.example && (kind == null || tp.example.kind === kind) ? tp.example : null;
      const tpl = kind == null ? tp : { ...tp, command: { ...c, kind }, example: ex };
      const at = (ex && (ex.at || ex.to)) || centre(tp.bounds, view);
      const facing = ex ? (ex.facing ?? ex.rotation ?? 90) : 90;
      let u = { kind: 'place', shape: 'disc', r: 0.6, x: at[0], y: at[1], facing };
      let id = c.type;
      let name = '';
      if (c.type === 'deploy_unit') {
        const r = (st.reserve || []).find((x) => x.id === c.unit) || {};
        u = { ...u, shape: 'box', w: r.w || 2, d: r.d || 1, profile: r.profile };
        id = `unit:${c.unit}`;
        name = c.unit;
      } else if (c.type === 'deploy_commander') {
        u = { ...u, r: COMMANDER_R };
        id = `commander:${c.commander}`;
        name = c.commander;
      } else if (c.type === 'place_column') {
        id = `column:${c.column}`;
        name = `Column ${c.column}`;
      } else if (c.type === 'place_terrain') {
        u = { ...u, r: 1.5 };
        id = `terrain:${kind}`;
        name = String(kind).replace(/_/g, ' ');
      } else if (c.type === 'place_marker') {
        u = { ...u, r: MARKER_R };
        name = t('Battle marker');
      } else if (c.type === 'place_fortification') {
        u = { ...u, r: 1.2 };
        name = t('Fortification for {unit}', { unit: ex ? ex.unit : '' });
      }
      out.push({ id: `place:${id}`, name, tpl, u: { ...u, id: `place:${id}`, name } });
    }
  }
  // the pieces with a legal example first: the one on show starts at a pose the umpire accepts
  return out.filter((p) => p.tpl.example).concat(out.filter((p) => !p.tpl.example));
}

export function pieceTemplates(legal, piece) {
  return ((legal && legal.templates) || []).filter((t) => t && t.command && t.command[piece.kind] === piece.id
    && t.bounds && POSE_FIELDS.some((k) => k in t.bounds));
}

export function modeName(tpl) {
  const c = tpl.command;
  if (c.type === 'move' && c.kind === 'simple') return t('Simple move (pivot, then straight ahead)');
  if (c.type === 'move' && c.kind === 'complex') return t('Complex move (slide, then turn)');
  if (c.type === 'ride') return tpl.bounds && tpl.bounds.to ? t('Ride with die {die} (up to {n} UW)', { die: c.die, n: tpl.bounds.to.max_distance }) : t('Ride with die {die}', { die: c.die });
  return String(c.type).replace(/_/g, ' ') + (c.kind ? ` (${c.kind})` : '');
}

// The command a pose asks for, its free fields clamped to the template's bounds.
export function commandFor(tpl, u, pose) {
  const b = tpl.bounds || {};
  const cmd = { ...tpl.command };
  if (cmd.type === 'place_fortification' && tpl.example) cmd.unit = tpl.example.unit;
  const dx = pose.x - u.x;
  const dy = pose.y - u.y;
  if (b.vector) { // SMOKE-MOVE-4: translate, then pivot (facing omitted: kept)
    const len = Math.hypot(dx, dy);
    const max = b.vector.max_length ?? Infinity;
    const k = len > max ? max / len : 1;
    cmd.vector = [r2(dx * k), r2(dy * k)];
    if (b.via && Array.isArray(pose.trail)) { // SMOKE-CHOICE-COMPLEX-PATH "path": the drag's bends are the path
      const via = viaOf(pose.trail, u, cmd.vector, b.via.max_points ?? 8);
      if (via.length) cmd.via = via;
    }
    if (b.facing && Math.abs(((pose.facing - u.facing + 540) % 360) - 180) > 0.05) cmd.facing = r1(norm(pose.facing));
  } else if (b.distance) { // SMOKE-MOVE-3: pivot to facing, then straight ahead
    cmd.facing = r1(clamp(norm(pose.facing), b.facing && b.facing.min, b.facing && b.facing.max));
    cmd.distance = r2(clamp(Math.hypot(dx, dy), b.distance.min, b.distance.max));
  } else {
    const key = b.at ? 'at' : b.to ? 'to' : null;
    if (key) {
      const xb = b[key].x || {};
      const yb = b[key].y || {};
      let { x, y } = pose;
      const c = b[key].center;
      const max = b[key].max_distance;
      if (Array.isArray(c) && typeof max === 'number' && Math.hypot(x - c[0], y - c[1]) > max) { // SMOKE-CMD-2's reach
        const k = max / Math.hypot(x - c[0], y - c[1]);
        x = c[0] + (x - c[0]) * k;
        y = c[1] + (y - c[1]) * k;
      }
      // a piece being placed keeps the full precision of its pose: its starting pose is the server's
      // own example, which may be optimal to the last digit (SMOKE-MARK-3's best cover)
      const rd = u.kind === 'place' ? (v) => v : r2;
      cmd[key] = [rd(clamp(x, xb.min, xb.max)), rd(clamp(y, yb.min, yb.max))];
    }
    if (b.facing) cmd.facing = u.kind === 'place' ? norm(pose.facing) : r1(norm(pose.facing));
    if (b.rotation) cmd.rotation = norm(pose.facing);
  }
  return cmd;
}

// The bends of a dragged path (table points), as a complex move's `via` (offsets from the start): a point
// is kept where the way turns by more than VIA_TURN_DEG, at most max of them.
const VIA_TURN_DEG = 15;
export function viaOf(trail, u, vector, max) {
  const pts = [[0, 0], ...trail.map(([x, y]) => [x - u.x, y - u.y]), vector];
  const out = [];
  let from = pts[0];
  for (let i = 1; i < pts.length - 1 && out.length < max; i += 1) {
    const p = pts[i];
    const q = pts[i + 1];
    const a = Math.atan2(p[1] - from[1], p[0] - from[0]);
    const b = Math.atan2(q[1] - p[1], q[0] - p[0]);
    const turn = Math.abs(((deg(b - a) % 360) + 540) % 360 - 180);
    if (turn > VIA_TURN_DEG && Math.hypot(p[0] - from[0], p[1] - from[1]) > 0.05) { out.push([r2(p[0]), r2(p[1])]); from = p; }
  }
  return out;
}

// The pose a command would give (the ghost is drawn from the command, not from the pointer).
export function poseOf(cmd, u) {
  if (cmd.vector) {
    const trail = cmd.via ? cmd.via.map(([dx, dy]) => [u.x + dx, u.y + dy]) : undefined;
    return { x: u.x + cmd.vector[0], y: u.y + cmd.vector[1], facing: cmd.facing ?? u.facing, ...(trail ? { trail } : {}) };
  }
  if (cmd.distance != null) return { x: u.x + cmd.distance * Math.cos(rad(cmd.facing)), y: u.y + cmd.distance * Math.sin(rad(cmd.facing)), facing: cmd.facing };
  const at = cmd.at || cmd.to;
  if (at) return { x: at[0], y: at[1], facing: cmd.facing ?? cmd.rotation ?? u.facing };
  return { x: u.x, y: u.y, facing: cmd.facing ?? u.facing };
}

function corners(p, u) { // FR, FL, RL, RR of the unit's box at pose p (SMOKE-GEO-2/3)
  const f = [Math.cos(rad(p.facing)), Math.sin(rad(p.facing))];
  const l = [-f[1], f[0]];
  const hd = u.d / 2;
  const hw = u.w / 2;
  return [[hd, -hw], [hd, hw], [-hd, hw], [-hd, -hw]].map(([a, b]) => [p.x + a * f[0] + b * l[0], p.y + a * f[1] + b * l[1]]);
}

// ---- the dry run -------------------------------------------------------------------------------
async function dryRun(api, path, version, cmd) {
  try {
    const res = await api.post(path('/commands?dry_run=true'), { command: cmd, expected_version: version });
    const first = (res.events || []).find((e) => e.ruling) || null;
    const ruling = first && first.ruling;
    const rules = ruling ? (ruling.steps || []).map((s) => s.rule).filter(Boolean) : [];
    return { legal: res.legal !== false, text: (ruling && ruling.summary) || 'legal', rules };
  } catch (err) {
    const rule = err instanceof ApiError ? err.rule : null;
    return { legal: false, rule, text: problemText(err), status: err instanceof ApiError ? err.status : 0 };
  }
}

// ---- the board ---------------------------------------------------------------------------------
// Called by game.js after every redraw of the picture. ctx: {svg, view, legal, seat, api, path,
// post, hint, bar}.
export function board(ctx) {
  const { svg, view, legal } = ctx;
  const key = `${view.game_id}@${view.version}`;
  if (ctl.key !== key) reset(key);
  if (!svg) return;
  dress(svg, view);
  legend(svg);
  const tf = transformOf(svg);
  if (!tf || !legal || !(legal.templates || []).length) return;
  const units = new Map();
  const toPlace = placeables(legal, view);
  for (const p of toPlace) units.set(p.id, { u: p.u, el: null, tpls: [p.tpl], name: p.name });
  for (const el of svg.querySelectorAll(PIECES)) {
    const u = pieceOf(el);
    const tpls = pieceTemplates(legal, u);
    if (!tpls.length) continue;
    units.set(u.id, { u, el, tpls });
    el.classList.add('act', 'act-drag');
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    const turns = tpls.some((x) => x.bounds.facing);
    const what = { id: u.id };
    el.setAttribute('aria-label', u.kind === 'unit'
      ? (turns ? t('Move {id}: Enter to select, then drag it or use the arrow keys, [ and ] to turn, Enter to send', what) : t('Move {id}: Enter to select, then drag it or use the arrow keys, Enter to send', what))
      : (turns ? t('Ride {id}: Enter to select, then drag it or use the arrow keys, [ and ] to turn, Enter to send', what) : t('Ride {id}: Enter to select, then drag it or use the arrow keys, Enter to send', what)));
  }
  if (ctl.unit && !units.has(ctl.unit)) reset(key);
  const s = { ...ctx, tf, units, toPlace };
  svg.__smoke = s;
  if (!svg.__smokeWired) wire(svg);
  if (toPlace.length) {
    // the next thing to put on the table is already on it, as a ghost at a legal pose: drag it
    if (!ctl.unit) {
      const want = toPlace.find((p) => p.id === ctl.place) || toPlace[0];
      select(s, want.id, false);
      schedule(s, 0);
    }
    anchor(s);
  } else if (units.size && !ctl.unit) ctx.hint.textContent = tn('Select your {n} highlighted piece and drag it; the umpire checks every pose.', 'Select one of your {n} highlighted pieces and drag it; the umpire checks every pose.', units.size);
  render(s);
}

// A focusable stand-in for the ghost (the ghost is redrawn on every pose): keyboard users place the
// piece with the arrow keys, [ ] and Enter while it has focus.
function anchor(s) {
  let a = s.svg.querySelector('[data-place-anchor]');
  const cur = current(s);
  if (!a) {
    a = el('rect', { 'data-place-anchor': '1', tabindex: '0', role: 'button', x: 0, y: 0, width: 1, height: 1, fill: 'transparent' });
    s.svg.append(a);
  }
  if (cur) a.setAttribute('aria-label', `${cur.tpl.label || cur.u.name}: ${turnable(cur.tpl) ? t('arrow keys to move it, [ and ] to turn it, Enter to put it there') : t('arrow keys to move it, Enter to put it there')}`);
}

const turnable = (tpl) => !!(tpl.bounds && (tpl.bounds.facing || tpl.bounds.rotation));

function reset(key) {
  clearTimeout(ctl.timer);
  if (ctl.key !== key) ctl.place = null;
  Object.assign(ctl, { key, unit: null, mode: 0, pose: null, answer: null, drag: null, timer: null, lastLegal: null, refused: null });
  ctl.seq += 1;
}

function current(s) {
  const it = ctl.unit && s.units.get(ctl.unit);
  if (!it) return null;
  const tpl = it.tpls[Math.min(ctl.mode, it.tpls.length - 1)];
  return { ...it, tpl };
}

function select(s, id, draw = true) {
  ctl.unit = id;
  if (id && id.startsWith('place:')) ctl.place = id;
  ctl.mode = 0;
  const { u } = s.units.get(id);
  ctl.pose = { x: u.x, y: u.y, facing: u.facing };
  ctl.answer = null;
  ctl.lastLegal = null;
  ctl.refused = null;
  ctl.seq += 1;
  if (draw) render(s);
}

// A new pose (from the pointer or the keys): fill the template, draw the ghost, check it.
function setPose(s, pose) {
  const cur = current(s);
  if (!cur) return;
  ctl.pose = poseOf(commandFor(cur.tpl, cur.u, pose), cur.u);
  ctl.answer = null;
  ctl.refused = null;
  ctl.posedAt = performance.now();
  render(s);
  schedule(s);
}

function rotate(s, by) {
  const cur = current(s);
  if (!cur || !ctl.pose || !turnable(cur.tpl)) return; // nothing to turn (a commander's ride)
  const p = ctl.pose;
  if (cur.tpl.bounds.distance && !cur.tpl.bounds.vector) {
    // a simple move turns its whole path around the start: the distance is kept
    const d = Math.hypot(p.x - cur.u.x, p.y - cur.u.y);
    const f = norm(p.facing + by);
    setPose(s, { x: cur.u.x + d * Math.cos(rad(f)), y: cur.u.y + d * Math.sin(rad(f)), facing: f });
  } else setPose(s, { ...p, facing: norm(p.facing + by) });
}

function commandNow(s) {
  const cur = current(s);
  return cur && ctl.pose ? commandFor(cur.tpl, cur.u, ctl.pose) : null;
}

function schedule(s, wait = DEBOUNCE_MS) {
  clearTimeout(ctl.timer);
  const seq = ++ctl.seq;
  const cmd = commandNow(s);
  if (!cmd) return Promise.resolve(null);
  return new Promise((resolve) => {
    ctl.timer = setTimeout(async () => {
      const live = svgNow(s);
      const t0 = performance.now();
      const ans = await dryRun(live.api, live.path, live.view.version, cmd);
      if (seq !== ctl.seq) { resolve(null); return; } // a newer pose was asked for: this answer is stale
      ctl.answer = { ...ans, command: cmd };
      if (ans.legal) { const cur = current(s); if (cur) ctl.lastLegal = { pose: poseOf(cmd, cur.u), mode: ctl.mode, answer: ctl.answer }; }
      render(svgNow(s));
      metrics.dryRun.push(performance.now() - t0);
      if (ctl.posedAt) metrics.poseToVerdict.push(performance.now() - ctl.posedAt);
      resolve(ctl.answer);
    }, wait);
  });
}

// the board may have been redrawn while a request was in flight: use the newest one
function svgNow(s) {
  const live = document.querySelector('#board svg.board-svg');
  return (live && live.__smoke) || s;
}

async function send(s) {
  const ans = await schedule(s, 0);
  if (ans && !ans.legal) snapBack(s, ans);
  if (!ans || !ans.legal) return;
  const cmd = ans.command;
  reset(ctl.key);
  await svgNow(s).post(cmd);
}

// A refused pose is not kept: the ghost goes back to the last legal pose (or the piece's own), so
// the next drag starts from there; the refusal stays on show.
function snapBack(s, ans) {
  const cur = current(s);
  if (!cur) return;
  ctl.refused = ans;
  if (ctl.lastLegal) {
    ctl.pose = { ...ctl.lastLegal.pose };
    ctl.mode = ctl.lastLegal.mode;
    ctl.answer = ctl.lastLegal.answer;
  } else {
    ctl.pose = { x: cur.u.x, y: cur.u.y, facing: cur.u.facing };
    ctl.answer = null;
  }
  ctl.seq += 1;
  render(svgNow(s));
}

// ---- drawing -----------------------------------------------------------------------------------
function el(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function render(s) {
  const { svg, tf, units } = s;
  for (const old of svg.querySelectorAll('.smoke-ghost, .smoke-zone')) old.remove();
  for (const [id, it] of units) if (it.el) it.el.classList.toggle('sel', id === ctl.unit);
  renderBar(s);
  const cur = current(s);
  if (!cur || !ctl.pose) return;
  if (cur.u.kind === 'place') svg.append(zoneOf(cur.tpl, tf));
  const state = ctl.answer ? (ctl.answer.legal ? 'ok' : 'bad') : 'pending';
  const g = el('g', { class: `smoke-ghost ghost-${state}`, 'data-ghost': cur.u.id, 'data-state': state, 'data-x': ctl.pose.x, 'data-y': ctl.pose.y });
  const [sx, sy] = tf.toSvg(cur.u.x, cur.u.y);
  const [gx, gy] = tf.toSvg(ctl.pose.x, ctl.pose.y);
  g.append(el('line', { x1: sx, y1: sy, x2: gx, y2: gy, class: 'ghost-path' }));
  const label = el('text', { x: gx, y: gy - ((cur.u.d || 2 * cur.u.r) / 2 + 0.3) * tf.px, class: 'ghost-label', 'text-anchor': 'middle' });
  label.textContent = (cur.u.kind === 'place' ? `${cur.u.name}: ` : '') + (ctl.answer ? shortVerdict(ctl.answer) : 'checking…');
  if (cur.u.kind === 'commander' || cur.u.shape === 'disc') {
    g.append(el('circle', { cx: gx, cy: gy, r: Math.max(cur.u.r * tf.px, 6), class: 'ghost-body' }));
    if (cur.u.kind === 'place') {
      const tag = el('text', { x: gx, y: gy + 4, class: 'ghost-tag', 'text-anchor': 'middle' });
      tag.textContent = cur.u.name.replace(/^Column /, '');
      g.append(tag);
    }
    g.append(label);
    svg.append(g);
    return;
  }
  const pts = corners(ctl.pose, cur.u).map(([x, y]) => tf.toSvg(x, y));
  g.append(el('polygon', { points: pts.map((p) => p.join(',')).join(' '), class: 'ghost-body' }));
  g.append(el('line', { x1: pts[1][0], y1: pts[1][1], x2: pts[0][0], y2: pts[0][1], class: 'ghost-front' }));
  const f = rad(ctl.pose.facing);
  const reach = cur.u.d / 2 + HANDLE_UW;
  const [hx, hy] = tf.toSvg(ctl.pose.x + reach * Math.cos(f), ctl.pose.y + reach * Math.sin(f));
  g.append(el('line', { x1: gx, y1: gy, x2: hx, y2: hy, class: 'ghost-arm' }));
  const handle = el('circle', { cx: hx, cy: hy, r: 7, class: 'ghost-handle', 'data-handle': 'rotate' });
  handle.append(el('title', {}));
  handle.firstChild.textContent = t('Turn (drag; or the mouse wheel, [ and ])');
  if (turnable(cur.tpl)) g.append(handle);
  g.append(label);
  svg.append(g);
}

// Where a piece may be put, from its template's bound: the deployment zone (SMOKE-DEP-3/6), the
// circle around its column's marker (SMOKE-DEP-4), the quarter of the table (SMOKE-TGEN-2).
function zoneOf(tpl, tf) {
  const at = (tpl.bounds && tpl.bounds.at) || {};
  const g = el('g', { class: 'smoke-zone', 'data-zone': tpl.command.type });
  if (Array.isArray(at.within_zone)) {
    g.append(el('polygon', { points: at.within_zone.map(([x, y]) => tf.toSvg(x, y).join(',')).join(' ') }));
  } else if (Array.isArray(at.of_marker) && typeof at.within === 'number') {
    const [cx, cy] = tf.toSvg(at.of_marker[0], at.of_marker[1]);
    g.append(el('circle', { cx, cy, r: at.within * tf.px }));
  } else if (at.x && at.y && Number.isFinite(at.x.min) && Number.isFinite(at.y.max)) {
    const [x0, y0] = tf.toSvg(at.x.min, at.y.max);
    const [x1, y1] = tf.toSvg(at.x.max, at.y.min);
    g.append(el('rect', { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }));
  }
  return g;
}

function shortVerdict(a) {
  return a.legal ? a.text : `${a.rule || 'refused'}: ${a.text}`;
}

function renderBar(s) {
  const { bar, hint } = s;
  for (const old of bar.querySelectorAll('.smoke-bar')) old.remove();
  const cur = current(s);
  if (!cur) return;
  const cmd = commandNow(s);
  const a = ctl.answer;
  const umpire = t('the umpire');
  const verdict = h('p', { id: 'smoke-verdict', class: `verdict ${a ? (a.legal ? 'ok' : 'bad') : ''}`, 'aria-live': 'polite', dataset: a && a.rule ? { rule: a.rule } : {} },
    a ? (a.legal ? `${t('Legal: {text}', { text: a.text })}${a.rules && a.rules.length ? ` (${a.rules.join(', ')})` : ''}` : t('Refused by {rule}: {text}', { rule: a.rule || umpire, text: a.text })) : t('checking…'));
  const modes = cur.tpls.length > 1 ? h('div', { class: 'modes', role: 'group', 'aria-label': t('Kind of move') }, cur.tpls.map((t, i) => h('button', {
    type: 'button', class: 'mode', 'aria-pressed': i === ctl.mode ? 'true' : 'false',
    onclick: () => { ctl.mode = i; setPose(s, ctl.pose); },
  }, modeName(t)))) : null;
  const pose = h('p', { class: 'muted small', id: 'smoke-pose' }, describePose(cmd, cur.u));
  const refused = ctl.refused ? h('p', { class: 'verdict bad', id: 'smoke-refused', role: 'alert', dataset: ctl.refused.rule ? { rule: ctl.refused.rule } : {} },
    `${t('Refused by {rule}: {text}', { rule: ctl.refused.rule || umpire, text: ctl.refused.text })} — ${ctl.lastLegal ? t('back to the last legal pose.') : t('back to the starting pose.')}`) : null;
  if (ctl.refused && !ctl.lastLegal) verdict.textContent = t('At the starting pose.');
  const place = cur.u.kind === 'place' ? placeBox(s, cur) : null;
  bar.append(h('div', { class: 'smoke-bar' }, place, profileCard(s.view, cur.u), modes, pose, refused, verdict,
    h('button', { type: 'button', id: 'smoke-send', disabled: !(a && a.legal), onclick: () => send(s) }, t('Send')), ' ',
    cur.u.kind === 'place' ? null : h('button', { type: 'button', class: 'link', onclick: () => { reset(ctl.key); render(s); } }, 'Cancel')));
  const turn = turnable(cur.tpl) ? `, ${t('turn it with the handle, the wheel or [ ]')}` : '';
  hint.textContent = cur.u.kind === 'place'
    ? `${cur.u.name}: ${t('drag it inside the outlined zone')}${turn}; ${t('it turns red with the rule where it may not go; release (or Enter) puts it there.')}`
    : `${cur.u.id}: ${t('drag it (or the arrow keys)')}${turn}; ${t('release or Enter sends a legal pose.')}`;
}

// What is being placed, and the others still to place (any of them may go next).
function placeBox(s, cur) {
  const others = s.toPlace.filter((p) => p.id !== cur.u.id);
  return h('div', { class: 'place-box', id: 'place-box' },
    h('p', {}, h('strong', {}, cur.tpl.label || cur.u.name)),
    others.length ? h('div', { class: 'choices compact', role: 'group', 'aria-label': 'Place another piece first' },
      h('span', { class: 'small muted' }, `Still to place (${others.length}): `),
      others.slice(0, 40).map((p) => h('button', { type: 'button', class: 'to-place', dataset: { place: p.id },
        onclick: () => { select(s, p.id); schedule(s); } }, p.name))) : null);
}

function describePose(cmd, u) {
  if (!cmd) return '';
  if (u && u.kind === 'place') {
    const at = cmd.at || cmd.to || [];
    const turn = cmd.facing != null ? `, facing ${r1(cmd.facing)}°` : cmd.rotation != null ? `, turned ${r1(cmd.rotation)}°` : '';
    return `${u.name} at (${at.map((v) => v.toFixed(2)).join(', ')}) UW${turn}`;
  }
  const bits = [];
  if (cmd.distance != null) bits.push(`${cmd.distance.toFixed(2)} UW`);
  if (cmd.vector) bits.push(`by (${cmd.vector[0].toFixed(2)}, ${cmd.vector[1].toFixed(2)}) UW`);
  if (cmd.at || cmd.to) bits.push(`to (${(cmd.at || cmd.to).join(', ')})`);
  if (cmd.facing != null) bits.push(`facing ${cmd.facing}°`);
  return `${modeName({ command: cmd })}: ${bits.join(', ')}`;
}

// ---- pointer, wheel and keys (wired once per picture element) -----------------------------------
function wire(svg) {
  svg.__smokeWired = true;
  const st = () => svg.__smoke;
  svg.addEventListener('pointerdown', (ev) => {
    const s = st();
    if (!s || ev.button !== 0) return;
    const handle = ev.target.closest('[data-handle]');
    const ghost = ev.target.closest('.smoke-ghost');
    const unitEl = ev.target.closest(PIECES);
    let id = null;
    if (ghost) id = ghost.dataset.ghost;
    else if (unitEl && s.units.has(pieceId(unitEl))) id = pieceId(unitEl);
    if (!id) return;
    if (ctl.unit !== id) select(s, id);
    const at = clientToTable(svg, s.tf, ev);
    if (!at) return;
    ctl.drag = { kind: handle ? 'rotate' : 'move', x0: ev.clientX, y0: ev.clientY, at0: at, pose0: { ...ctl.pose }, moved: false };
    svg.setPointerCapture?.(ev.pointerId);
    ev.preventDefault();
  });
  svg.addEventListener('pointermove', (ev) => {
    const s = st();
    const d = ctl.drag;
    if (!s || !d) return;
    if (!d.moved && Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) < DRAG_START_PX) return;
    d.moved = true;
    const at = clientToTable(svg, s.tf, ev);
    if (!at) return;
    if (d.kind === 'rotate') {
      const f = deg(Math.atan2(at[1] - ctl.pose.y, at[0] - ctl.pose.x));
      rotate(s, f - ctl.pose.facing);
      return;
    }
    const cur = current(s);
    const x = d.pose0.x + at[0] - d.at0[0];
    const y = d.pose0.y + at[1] - d.at0[1];
    let facing = ctl.pose.facing;
    if (cur.tpl.bounds.distance && !cur.tpl.bounds.vector && Math.hypot(x - cur.u.x, y - cur.u.y) > 0.05) {
      facing = deg(Math.atan2(y - cur.u.y, x - cur.u.x)); // a simple move faces the way it goes
    }
    if (cur.tpl.bounds.via) { // SMOKE-CHOICE-COMPLEX-PATH "path": the centre's trail, for the path's bends
      d.trail = d.trail || [...(d.pose0.trail || [])];
      const last = d.trail.length ? d.trail[d.trail.length - 1] : [cur.u.x, cur.u.y];
      if (Math.hypot(x - last[0], y - last[1]) >= 0.2) d.trail.push([x, y]);
    }
    setPose(s, { x, y, facing, ...(d.trail ? { trail: d.trail } : {}) });
  });
  const end = (ev) => {
    const s = st();
    const d = ctl.drag;
    ctl.drag = null;
    if (!s || !d) return;
    if (svg.hasPointerCapture?.(ev.pointerId)) svg.releasePointerCapture(ev.pointerId);
    ctl.suppressClick = true;
    setTimeout(() => { ctl.suppressClick = false; }, 0);
    if (d.moved && d.kind === 'move' && ev.type === 'pointerup') send(s); // release on a legal pose posts it
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  svg.addEventListener('click', (ev) => { if (ctl.suppressClick) ev.stopImmediatePropagation(); }, true);
  svg.addEventListener('wheel', (ev) => {
    const s = st();
    if (!s || !current(s)) return;
    ev.preventDefault();
    rotate(s, (ev.deltaY > 0 ? 1 : -1) * (ev.shiftKey ? 1 : ROTATE_STEP));
  }, { passive: false });
  svg.addEventListener('keydown', (ev) => {
    const s = st();
    if (!s) return;
    const unitEl = ev.target.closest && ev.target.closest(PIECES);
    if ((ev.key === 'Enter' || ev.key === ' ') && unitEl && s.units.has(pieceId(unitEl))) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      const id = pieceId(unitEl);
      if (ctl.unit === id) { if (ev.key === 'Enter') send(s); } // checks the pose now, posts it if legal
      else { select(s, id); schedule(s); }
      return;
    }
    if (!current(s)) return;
    if (ev.key === 'Enter' && ev.target.closest && ev.target.closest('[data-place-anchor]')) {
      ev.preventDefault();
      send(s);
      return;
    }
    const step = ev.shiftKey ? 0.05 : NUDGE;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[ev.key]) {
      ev.preventDefault();
      const cur = current(s);
      const x = ctl.pose.x + moves[ev.key][0];
      const y = ctl.pose.y + moves[ev.key][1];
      let facing = ctl.pose.facing;
      if (cur.tpl.bounds.distance && !cur.tpl.bounds.vector && Math.hypot(x - cur.u.x, y - cur.u.y) > 0.05) facing = deg(Math.atan2(y - cur.u.y, x - cur.u.x)); // eslint-disable-line max-len
      setPose(s, { x, y, facing });
    } else if (ev.key === '[' || ev.key === ']') {
      ev.preventDefault();
      rotate(s, (ev.key === ']' ? -1 : 1) * (ev.shiftKey ? 1 : ROTATE_STEP));
    } else if (ev.key === 'Escape') {
      reset(ctl.key);
      if (!s.toPlace.length) render(s);
      else board(s);
    }
  }, true);
}

// ---- the unit's profile card, the action board, the clock --------------------------------------
function stateOf(view) { return (view && view.state) || {}; }

// What a player reads off a unit's card: type, speed, weapons and ranges, discipline, traits.
export function profileCard(view, u) {
  const st = stateOf(view);
  if (!u || (u.kind !== 'unit' && !u.profile)) return null;
  const unit = u.profile ? { profile: u.profile } : (st.units || []).find((x) => x.id === u.id);
  const p = unit && (st.profiles || {})[unit.profile];
  if (!p) return null;
  const speed = Array.isArray(p.speed) ? t('{simple} UW simple, {complex} UW complex', { simple: p.speed[0], complex: p.speed[1] }) : String(p.speed);
  const fire = (p.fire || []).map((f) => `${f.name} (${tn('range {range} UW, {n} die', 'range {range} UW, {n} dice', f.dice, { range: f.range })})`);
  return h('div', { class: 'profile-card', id: 'profile-card', role: 'group', 'aria-label': `${u.name || u.id}: ${p.name}` },
    h('strong', {}, `${u.name || u.id} · ${p.name}`),
    h('dl', {},
      h('dt', {}, t('Speed')), h('dd', {}, speed),
      h('dt', {}, t('Weapons')), h('dd', {}, fire.length ? fire.join('; ') : t('none (melee only)')),
      p.bombardment ? [h('dt', {}, t('Bombardment')), h('dd', {}, typeof p.bombardment === 'object' ? Object.entries(p.bombardment).map(([k, v]) => `${k} ${v}`).join(', ') : String(p.bombardment))] : null,
      h('dt', {}, t('Melee')), h('dd', {}, String(p.melee)),
      h('dt', {}, t('Discipline')), h('dd', {}, String(p.discipline)),
      h('dt', {}, t('Morale')), h('dd', {}, t('{morale} (loses {loss} when broken)', { morale: p.morale, loss: p.morale_loss })),
      h('dt', {}, t('Traits')), h('dd', {}, (p.traits || []).map((tr) => tr.replace(/_/g, ' ')).join(', ') || t('none'))));
}

const END_WORDS = { end_of_phase: (e) => t('the game ends at the end of phase {n}', { n: e.phase }) };
function victory(st) {
  const b = st.battle || {};
  const e = b.end || {};
  const bits = [];
  if (END_WORDS[e.kind]) bits.push(END_WORDS[e.kind](e)); else if (e.kind) bits.push(e.kind.replace(/_/g, ' '));
  if (e.marginal) bits.push(e.marginal === 'morale_fraction' ? t('then the winner by morale fraction') : t('then the winner by {what}', { what: e.marginal.replace(/_/g, ' ') }));
  return bits.join('; ');
}

export function statusLines(view) {
  const st = stateOf(view);
  const lines = [];
  const end = (st.battle && st.battle.end) || {};
  // a side by its printed name and its players, as everywhere else ("Karl (Player 1)", seats.js names)
  const sides = (st.battle && st.battle.sides) || [];
  const seatsOf = (side) => Object.values(st.armies || {}).filter((a) => a.side === side).map((a) => a.seat);
  const sideName = (id) => { const s = sides.find((x) => x.id === id); const who = seatsOf(id); return `${s ? s.name : id}${who.length ? ` (${seatNames('smoke', who)})` : ''}`; };
  // GAP-B-09: sixes may carry the phase past the last one in the game's last turn; it is the last phase that ended
  const phase = st.phase != null && end.phase && st.phase > end.phase ? t('Phase {n} of {max} is over (last turn)', { n: end.phase, max: end.phase })
    : end.phase ? t('Phase {n} of {max}', { n: st.phase, max: end.phase }) : t('Phase {n}', { n: st.phase });
  const turn = st.turn;
  const step = turn ? (STEP_WORDS()[turn.step] || String(turn.step || '').replace(/_/g, ' ')) : '';
  if (st.phase != null) {
    lines.push(`${phase} · ${t('turn {n}', { n: st.turn_number ?? '' })}${turn && !st.result ? ` · ${t('{side} to act, step: {step}', { side: sideName(turn.side), step })}` : ''}`);
  }
  if (st.result) {
    const r = st.result;
    const said = typeof r === 'object' ? (r.winner ? (r.kind ? t('{side} wins ({kind} victory)', { side: sideName(r.winner), kind: r.kind }) : t('{side} wins', { side: sideName(r.winner) }))
      : (r.kind === 'draw' ? t('a draw: the sides kept equal shares of their morale') : (r.detail || t('a draw')))) : r;
    lines.push(t('Result: {result}', { result: said }));
  }
  return lines;
}

// the die picked on the action board, kept across redraws of the same version
const pick = { key: null, die: null };

function placeOffers(cmds, dice, used, i) {
  const own = cmds.filter((c) => c.type === 'place_die' && c.die === i);
  if (own.length || used.includes(i)) return own;
  // equal dice are offered once (the first unused one of that value): any of them stands for it
  return cmds.filter((c) => c.type === 'place_die' && dice[c.die] === dice[i]);
}

// The choices that are neither a die, a slot nor a pose on the table, with the ruleset's own words
// (label and warning, from legal-commands "described"): who goes first, the quarters, the columns,
// the end of an activation, bombardment aims, battles, tactics, hits, retreats, support.
const ON_TABLE = new Set([...PLACED, 'move', 'ride', 'place_die', 'activate', 'take_risk', 'end_placement']);
const DECISION_TITLES = () => ({
  choose_first: t('Who goes first'), choose_edge: t('Table edge'), choose_quarters: t('Terrain quarters'), assign_columns: t('Columns'),
  aim: t('Bombardment'), bombard: t('Bombardment'), take_loss: t('Bombardment losses'), fight: t('Battles'), play_tactic: t('Tactics'),
  end_tactics: t('Tactics'), allocate_hits: t('Hits'), resolve_hits: t('Hits'), retreat: t('Retreat'), support: t('A broken army'),
  end_activation: t('This activation'), end_actions: t('Your actions'),
});
// A slot's kind and when a tactic may be played (SMOKE-ACT, the action board), in words.
const SLOT_KINDS = () => ({ action: t('action'), tactic: t('tactic'), active: t('active'), passive: t('passive') });
// The steps of a turn (SMOKE-TURN-2), in words.
const STEP_WORDS = () => ({ deploy: t('deployment'), bombard: t('bombardment'), actions: t('actions'), battle_start: t('battle start'), battles: t('battles') });

function decisionBox(cmds, legal, post) {
  const rest = cmds.filter((c) => !ON_TABLE.has(c.type));
  if (!rest.length) return null;
  const words = wordsOf(legal);
  const groups = new Map();
  for (const c of rest) {
    const title = DECISION_TITLES()[c.type] || t('Choices');
    if (!groups.has(title)) groups.set(title, []);
    groups.get(title).push(c);
  }
  return h('section', { class: 'smoke-decisions', id: 'smoke-decisions', 'aria-label': t('Your choices') },
    [...groups].map(([title, cs]) => h('div', { class: 'decision-group', role: 'group', 'aria-label': title },
      h('h3', {}, title),
      h('div', { class: 'choices' }, cs.map((c) => {
        const w = words.get(JSON.stringify(c));
        const label = (w && w.label) || String(c.type).replace(/_/g, ' ');
        return commandButton(c, post, label, warningOf(c, words), { class: 'decision' });
      })))));
}

// Every army's morale and its general's level (SMOKE-VIC-1, SMOKE-ARMY-3) at the size of the page's text:
// the picture's header says it too, but small at 1x.
function armiesList(st) {
  const sides = (st.battle && st.battle.sides) || [];
  const armies = Object.values(st.armies || {}).sort((a, b) => (a.seat < b.seat ? -1 : 1));
  if (!armies.length) return null;
  const sideName = (id) => { const s = sides.find((x) => x.id === id); return s ? s.name : id; };
  return h('ul', { class: 'smoke-armies small', id: 'smoke-armies', 'aria-label': t('Armies') }, armies.map((a) => h('li', {},
    h('strong', {}, `${sideName(a.side)} (${seatName('smoke', a.seat)})`), ' ',
    a.out ? t('out of the battle') : t('morale {morale} of {start}, general level {level}', { morale: a.morale, start: a.start_morale, level: a.level }))));
}

export function handPanel({ view, seat, cmds, post, legal }) {
  const st = stateOf(view);
  const out = [];
  const key = `${view.game_id}@${view.version}`;
  if (pick.key !== key) Object.assign(pick, { key, die: null });
  const b = st.battle || {};
  out.push(h('div', { class: 'smoke-clock', id: 'smoke-clock' },
    h('h3', {}, b.title || t('The battle')),
    h('p', {}, statusLines(view).join(' · ')),
    h('p', { class: 'small' }, h('strong', {}, t('Victory:'), ' '), victory(st) || t('see the briefing')),
    armiesList(st),
    b.briefing ? h('p', { class: 'muted small' }, b.briefing) : null));
  const decisions = decisionBox(cmds, legal, post);
  if (decisions) out.push(decisions);
  const acts = (st.turn || {}).actions;
  const armies = st.armies || {};
  const boardSeat = (acts && acts.seat) || seat;
  const boardId = (armies[boardSeat] && armies[boardSeat].board) || Object.keys(st.boards || {})[0];
  const board = (st.boards || {})[boardId];
  if (!board) return out;
  const dice = (acts && acts.dice) || [];
  const used = (acts && acts.used) || [];
  const placed = (acts && acts.placed) || {};
  const mine = acts && acts.seat === seat;
  const diceRow = h('div', { class: 'dice-row', role: 'group', 'aria-label': t('Rolled action dice') },
    dice.length ? dice.map((v, i) => {
      const offers = mine ? placeOffers(cmds, dice, used, i) : [];
      const isUsed = used.includes(i);
      return h('button', { type: 'button', class: `die${isUsed ? ' used' : ''}`, dataset: { die: String(i), value: String(v) },
        disabled: !offers.length, 'aria-pressed': pick.die === i ? 'true' : 'false',
        'aria-label': isUsed ? t('Die {n}: {value} (placed)', { n: i + 1, value: v }) : t('Die {n}: {value}', { n: i + 1, value: v }),
        onclick: (ev) => { pick.die = pick.die === i ? null : i; redrawBoard(ev.currentTarget, { view, seat, cmds, post, legal }); } }, String(v));
    }) : h('span', { class: 'muted' }, acts ? t('No dice rolled yet.') : t('No action dice now.')));
  const chosen = pick.die != null ? placeOffers(cmds, dice, used, pick.die) : [];
  const words = wordsOf(legal);
  const slots = h('ul', { class: 'slots' }, board.slots.map((sl) => {
    const place = chosen.find((c) => c.slot === sl.id);
    const here = (placed[sl.id] || []).map((i) => dice[i]);
    const activations = mine ? cmds.filter((c) => c.type === 'activate' && c.slot === sl.id) : [];
    return h('li', { class: `slot slot-${sl.kind}${place ? ' can-place' : ''}`, dataset: { slot: sl.id } },
      h('div', { class: 'slot-head' }, h('strong', {}, sl.id, ' ', sl.name), h('small', { class: 'muted' }, ` ${SLOT_KINDS()[sl.kind] || sl.kind}${sl.when && sl.when !== 'any' ? `, ${SLOT_KINDS()[sl.when] || sl.when}` : ''}`)),
      h('p', {}, sl.text),
      here.length ? h('p', { class: 'placed' }, t('Dice here: {dice}', { dice: here.join(', ') })) : null,
      place ? h('button', { type: 'button', class: 'place-here', dataset: { command: JSON.stringify(place) }, onclick: () => post(place) }, t('Put the {value} here', { value: dice[pick.die] })) : null,
      // what placing it costs (the ruleset's warning), under the button: the die was picked first, this is the second step
      place && warningOf(place, words) ? h('p', { class: 'cmd-warning', role: 'note' }, '⚠ ', warningOf(place, words)) : null,
      activations.length ? activationChoices(activations, dice, post) : null);
  }));
  const others = mine ? cmds.filter((c) => c.type === 'take_risk' || c.type === 'end_placement') : [];
  out.push(h('div', { class: 'action-board', id: 'action-board' },
    h('h3', {}, t('Action board: {name}', { name: board.name })),
    h('p', { class: 'small' }, mine ? (pick.die != null ? t('Die {value} picked: choose a slot.', { value: dice[pick.die] }) : dice.some((_, i) => placeOffers(cmds, dice, used, i).length) ? t('Pick a die, then the slot to put it on.') : t('No die left to place.')) : acts ? t('{seat} is placing dice.', { seat: seatName('smoke', acts.seat) }) : t('Nobody is placing dice.')),
    diceRow,
    // the ruleset's words and warning (a risk to the general, dice discarded): the first press asks again
    others.length ? h('div', { class: 'choices' }, others.map((c) => commandButton(c, post,
      (words.get(JSON.stringify(c)) || {}).label || (c.type === 'take_risk' ? t('Take a risk: roll one more die (your general is exposed)') : t('End placement (dice not placed are discarded)')),
      warningOf(c, words), { class: 'board-cmd' }))) : null,
    slots));
  return out;
}

// the formations an action slot may activate, grouped by the die used (its value sets the radius)
function activationChoices(activations, dice, post) {
  const byDie = new Map();
  for (const c of activations) {
    const v = dice[c.die] ?? c.die;
    if (!byDie.has(v)) byDie.set(v, []);
    byDie.get(v).push(c);
  }
  // a button's name holds its visible text ("E1 · G"), as the accessibility check asks (label in name)
  return h('div', { class: 'activations' }, [...byDie].map(([v, cs]) => h('div', { class: 'act-group', role: 'group', 'aria-label': t('Activate with the {value}', { value: v }) },
    h('p', { class: 'small' }, t('Activate a formation with the {value}: its unit · the commander in reach', { value: v })),
    h('div', { class: 'choices compact' }, cs.map((c) => h('button', { type: 'button', class: 'activate', dataset: { command: JSON.stringify(c) },
      'aria-label': t('Activate the formation of {pair} (a unit · its commander) with the {value}', { pair: `${c.unit} · ${c.commander}`, value: v }),
      onclick: () => post(c) }, `${c.unit} · ${c.commander}`))))));
}

// the action board is part of the side panel: redraw just it when a die is picked
function redrawBoard(btn, args) {
  const old = btn.closest('#action-board');
  const fresh = handPanel(args).find((x) => x && x.id === 'action-board');
  if (old && fresh) {
    old.replaceWith(fresh);
    const again = fresh.querySelector(`.die[data-die="${btn.dataset.die}"]`);
    if (again) again.focus();
  }
}

// The commands the table has its own control for (the dice and slots, the choice box, a piece on the
// picture or to be placed with a template): the page lists only the others, as a fallback with their words.
const ON_ACTION_BOARD = new Set(['place_die', 'activate', 'take_risk', 'end_placement']);
export function onTable(cmd, legal) {
  if (ON_ACTION_BOARD.has(cmd.type) || !ON_TABLE.has(cmd.type)) return true;
  const same = (t) => t && t.command && t.command.type === cmd.type
    && ['unit', 'commander', 'column'].every((k) => t.command[k] === cmd[k]);
  return ((legal && legal.templates) || []).some(same);
}

// ---- legible at 1x: the units' symbols, their names placed apart (smoke_labels.js) ---------------
export function dress(svg, view) {
  const st = stateOf(view);
  dressTable(svg, st.profiles || {}, [...(st.units || []), ...(st.reserve || [])]);
}

// the key to the symbols, under the table
function legend(svg) {
  const frame = svg.closest('.board-frame');
  if (!frame || document.getElementById('smoke-legend')) return;
  frame.after(h('p', { class: 'small muted smoke-legend', id: 'smoke-legend' },
    t('Unit symbols: {symbols}; the front edge is drawn heavy. A name with no room beside its unit shows while the unit is pointed at or selected.', { symbols: Object.values(SYMBOLS).join(' · ') })));
}

// ---- words -------------------------------------------------------------------------------------
export function describe(cmd) {
  if (cmd.type === 'move' && cmd.kind === 'simple' && cmd.distance != null) return `Move ${cmd.unit} ${cmd.distance} UW facing ${cmd.facing}° (simple)`;
  if (cmd.type === 'move' && cmd.kind === 'complex' && cmd.vector) {
    const at = { unit: cmd.unit, vector: cmd.vector.join(', '), facing: cmd.facing };
    return cmd.facing != null ? t('Move {unit} by ({vector}) UW, then face {facing}° (complex)', at) : t('Move {unit} by ({vector}) UW (complex)', at);
  }
  if (cmd.type === 'ride' && cmd.to) return t('Ride {commander} to ({to}) with die {die}', { commander: cmd.commander, to: cmd.to.join(', '), die: cmd.die });
  return null;
}

// The table is ~30 UW wide at 30 px per UW: at 375 px a unit's label needs the picture about 3x the
// frame's width to stay legible (it scrolls sideways inside its frame).
export const ZOOMS = [1, 2, 3];
export const PHONE_ZOOM = 3;

// The lobby's options: the schema's own fields (GET /rulesets), and the army builder for the players'
// own armies (SMOKE-ARMY, the schema's ``x-army-building`` catalogue), one army per seat.
export function optionsForm(onChange, ctx = {}) {
  const schema = ctx.schema || {};
  const { armies, ...props } = schema.properties || {};
  const cat = armies && armies['x-army-building'];
  let base = null;
  let builder = null;
  const holder = h('div', { id: 'army-builder-box' });
  const value = () => ({ ...(base ? base.value() : {}), ...(builder ? builder.value() : {}) });
  const build = () => {
    if (!cat) return;
    const n = players();
    seatsNow = n;
    builder = armyBuilder(cat, Array.from({ length: n }, (_, i) => `player-${i + 1}`), () => onChange(value()));
    holder.replaceChildren(builder.el);
  };
  let seatsNow = 0;
  const players = () => (base && base.value().players) || 2;
  base = ctx.schemaForm ? ctx.schemaForm({ ...schema, properties: props }, () => { if (players() !== seatsNow) build(); onChange(value()); }) : null;
  build();
  return { el: h('div', { class: 'smoke-options' }, base ? base.el : null, holder), value, ok: () => !builder || builder.ok(), fromSchema: true };
}

export default { id: 'smoke', board, dress, onTable, describe, handPanel, statusLines, optionsForm, zooms: ZOOMS, phoneZoom: PHONE_ZOOM };

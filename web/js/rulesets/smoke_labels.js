// Clouds of Smoke's picture made legible at 1x: every unit carries its type's symbol (drawn inside its
// box, turned with it: a cross for infantry, one diagonal for cavalry, a dot for artillery, as on a
// military map), and every text on the table is set at a legible size on the screen and placed where it
// overlaps no other text: a unit's name goes below, above or beside its box (a step further off, tied
// to it by a thin line), where it covers
// neither another name nor another unit; a name with no free place is tucked away and shown while the
// unit is hovered, focused or selected (its <title> names it too). The server's picture is only dressed:
// nothing here changes what a piece is or where it stands.
import { t } from '../i18n.js';
const SVG_NS = 'http://www.w3.org/2000/svg';
const SCREEN_PX = 11; // the size a name is read at, on the screen
const PAD = 1.5; // user units kept free around a name

function el(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// the unit's type from its profile's traits (SMOKE-STAT-1)
export function typeOf(profile) {
  const t = (profile && profile.traits) || [];
  if (t.includes('artillery') || profile?.bombardment) return 'artillery';
  if (t.includes('cavalry')) return 'cavalry';
  if (t.includes('infantry')) return 'infantry';
  return null;
}

// Read when drawn (getters): the words are the page's language's, loaded after this module.
export const SYMBOLS = {
  get infantry() { return `╳ ${t('infantry')}`; }, get cavalry() { return `╱ ${t('cavalry')}`; }, get artillery() { return `● ${t('artillery')}`; },
};

const pts = (poly) => (poly.getAttribute('points') || '').trim().split(/\s+/).map((p) => p.split(',').map(Number));

function symbol(g, type) {
  const poly = g.querySelector('polygon');
  if (!poly || !type) return;
  const c = pts(poly); // FR, FL, RL, RR (domain/smoke/picture.py)
  if (c.length !== 4) return;
  const ins = (p, q, k = 0.18) => [p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k];
  const [fr, fl, rl, rr] = c;
  const mid = [(fr[0] + rl[0]) / 2, (fr[1] + rl[1]) / 2];
  const s = el('g', { class: 'unit-symbol', 'data-type': type, 'aria-hidden': 'true' });
  const line = (a, b) => s.append(el('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
  if (type === 'infantry') { line(ins(fl, rr), ins(rr, fl)); line(ins(fr, rl), ins(rl, fr)); } else if (type === 'cavalry') line(ins(rl, fr), ins(fr, rl));
  else {
    const r = Math.min(Math.hypot(fr[0] - fl[0], fr[1] - fl[1]), Math.hypot(fr[0] - rr[0], fr[1] - rr[1])) * 0.28;
    s.append(el('circle', { cx: mid[0], cy: mid[1], r }));
  }
  poly.after(s);
}

const bbox = (e) => { const r = e.getBBox(); return { x: r.x, y: r.y, w: r.width, h: r.height }; };
const hit = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const grow = (r, p) => ({ x: r.x - p, y: r.y - p, w: r.w + 2 * p, h: r.h + 2 * p });

// The user units per screen pixel now (the picture is scaled to its frame, then zoomed).
function unitsPerPx(svg) {
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const w = svg.getBoundingClientRect().width;
  return vb && vb.width && w ? vb.width / w : 1;
}

// Where a name of size (w, h) may go around a box b (user units): below, above, beside, a step further.
function candidates(b, w, h) {
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  const gap = 1;
  const out = [];
  out.push([cx, b.y + b.h + gap + h / 2], [cx, b.y - gap - h / 2]);
  out.push([b.x + b.w + gap + w / 2, cy], [b.x - gap - w / 2, cy]);
  for (const k of [1, -1]) out.push([cx + (w / 2 + b.w / 2) * k, b.y + b.h + gap + h / 2], [cx - (w / 2 + b.w / 2) * k, b.y - gap - h / 2]);
  // a step further off: tied to its piece by a thin line
  for (const k of [1, 2]) out.push([cx, b.y + b.h + gap + h / 2 + k * h, 'below'], [cx, b.y - gap - h / 2 - k * h, 'above']);
  return out;
}

export function dressTable(svg, profiles = {}, units = []) {
  if (!svg || svg.__dressed) return;
  svg.__dressed = true;
  const upp = unitsPerPx(svg);
  const size = Math.min(16, Math.max(8, SCREEN_PX * upp)); // the names' font size, user units
  const profileOf = new Map(units.map((u) => [u.id, profiles[u.profile]]));
  const unitEls = [...svg.querySelectorAll('g[data-unit]')];
  for (const g of unitEls) symbol(g, typeOf(profileOf.get(g.dataset.unit)));
  // what a name must not cover: the pieces (units, commanders, column and battle markers)
  const pieces = [...svg.querySelectorAll('g[data-unit] > polygon:first-of-type, g[data-commander] > circle')].map(bbox);
  const placed = [];
  // the column markers of a deployment (a numbered square, SMOKE-DEP-3) and the battle markers' price
  // (SMOKE-MARK-3) read at the names' size
  for (const r of svg.querySelectorAll('rect[width="14"][height="14"]')) {
    const t = r.nextElementSibling;
    if (!t || t.tagName !== 'text') continue;
    const cx = Number(r.getAttribute('x')) + 7;
    const cy = Number(r.getAttribute('y')) + 7;
    const side = size * 1.4;
    Object.entries({ x: cx - side / 2, y: cy - side / 2, width: side, height: side }).forEach(([k, v]) => r.setAttribute(k, v.toFixed(1)));
    Object.entries({ y: cy, 'font-size': size, 'dominant-baseline': 'central' }).forEach(([k, v]) => t.setAttribute(k, typeof v === 'number' ? v.toFixed(1) : v));
  }
  for (const t of svg.querySelectorAll('text[fill="#7a5600"]')) t.setAttribute('font-size', size.toFixed(1));
  // texts that stay where they are (the header, the column and battle markers), kept clear of
  const fixed = [...svg.querySelectorAll('text')].filter((t) => !t.closest('g[data-unit], g[data-commander]'));
  const terrain = [];
  for (const t of fixed) {
    // the header's lines above the table (the state in words, the armies' morale): grown as far as the header allows
    if (Number(t.getAttribute('y')) <= 50 && Number(t.getAttribute('font-size')) < Math.min(size, 12)) t.setAttribute('font-size', Math.min(size, 12).toFixed(1));
    if (t.getAttribute('fill') === '#333') { terrain.push(t); continue; } // a terrain element's name (below)
    placed.push(grow(bbox(t), PAD / 2));
  }
  // the pieces' names: a unit's id, a commander's id (the disc is too small to hold it)
  const labels = [];
  for (const g of svg.querySelectorAll('g[data-unit], g[data-commander]')) {
    const t = g.querySelector(':scope > text');
    const body = g.querySelector(':scope > polygon, :scope > circle');
    if (!t || !body) continue;
    if (g.dataset.commander) t.textContent = g.dataset.commander;
    t.classList.add('unit-label');
    t.setAttribute('font-size', size.toFixed(1));
    t.setAttribute('fill', g.dataset.commander ? body.getAttribute('stroke') : body.getAttribute('fill') || '#111');
    t.setAttribute('dominant-baseline', 'central');
    labels.push({ g, t, box: bbox(body) });
  }
  // the names of the crowded units first: they have the fewest places to go
  const near = (b) => pieces.filter((p) => hit(grow(b, size * 1.5), p)).length;
  labels.sort((a, b) => near(b.box) - near(a.box) || a.box.y - b.box.y || a.box.x - b.box.x);
  // the lines tying a name to its piece lie under every piece and name (their outline hides them)
  const leaders = el('g', { class: 'label-leaders', 'aria-hidden': 'true' });
  svg.querySelector('g[data-unit], g[data-commander]')?.before(leaders);
  for (const l of labels) {
    const { w, h } = bbox(l.t);
    let spot = null;
    for (const [x, y, far] of candidates(l.box, w, h)) {
      const r = { x: x - w / 2, y: y - h / 2, w, h };
      if (placed.some((p) => hit(grow(r, PAD), p)) || pieces.some((p) => hit(r, p))) continue;
      spot = { x, y, r, far };
      break;
    }
    if (spot) {
      l.t.setAttribute('x', spot.x.toFixed(1));
      l.t.setAttribute('y', spot.y.toFixed(1));
      placed.push(spot.r);
      if (spot.far) {
        const cx = l.box.x + l.box.w / 2;
        const [y1, y2] = spot.far === 'below' ? [l.box.y + l.box.h, spot.r.y] : [l.box.y, spot.r.y + h];
        leaders.append(el('line', { class: 'label-leader', x1: cx.toFixed(1), y1: y1.toFixed(1), x2: cx.toFixed(1), y2: y2.toFixed(1), stroke: l.t.getAttribute('fill') }));
      }
    } else {
      // no free place: shown while the unit is hovered, focused or selected, beneath it
      l.t.setAttribute('x', (l.box.x + l.box.w / 2).toFixed(1));
      l.t.setAttribute('y', (l.box.y + l.box.h + 1 + h / 2).toFixed(1));
      l.t.classList.add('tucked');
    }
  }
  // terrain names last, legible, where they cover no name already placed and no piece (else left out:
  // the area's colour and "The board in words" name it)
  for (const t of terrain) {
    t.setAttribute('font-size', Math.min(size, 13).toFixed(1));
    t.classList.add('terrain-label');
    const first = svg.querySelector('g[data-unit], g[data-commander]');
    if (first) first.before(t); // above the roads drawn after the areas, under the pieces
    const r = bbox(t);
    if (placed.some((p) => hit(grow(r, PAD), p)) || pieces.some((p) => hit(r, p))) t.classList.add('tucked');
    else placed.push(r);
  }
}

// The ruleset's picture of the board (GET /games/{id}/board.svg), inlined so that its units and
// hexes can be acted on (hoth marks them with data-unit / data-hex / data-structure, the Emperor
// with data-warrior / data-cell), enlarged to
// the width of the page, and usable with the keyboard: every actionable thing is a focusable
// button (Tab, Enter or Space).
import { t } from './i18n.js';
import { gamePath } from './api.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

export async function fetchBoard(api, gameId, at = null) {
  const q = at == null ? '' : `?at=${at}`;
  return api.get(gamePath(gameId, `/board.svg${q}`), { text: true });
}

// Parse the SVG text and put it into `container` (nothing executable is kept).
export function mountSvg(container, text, label) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== SVG_NS || root.nodeName !== 'svg') {
    container.replaceChildren(document.createTextNode(t('The server sent no picture for this step.')));
    return null;
  }
  for (const bad of root.querySelectorAll('script, foreignObject')) bad.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) {
      if (/^on/i.test(a.name) || (/href$/i.test(a.name) && !a.value.startsWith('#'))) el.removeAttribute(a.name);
    }
  }
  const svg = document.importNode(root, true);
  if (!svg.getAttribute('viewBox') && svg.getAttribute('width') && svg.getAttribute('height')) {
    svg.setAttribute('viewBox', `0 0 ${parseFloat(svg.getAttribute('width'))} ${parseFloat(svg.getAttribute('height'))}`);
  }
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.classList.add('board-svg');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', label || t('Board'));
  container.replaceChildren(svg);
  return svg;
}

// The element of a target key: "unit:E1", "structure:SG-1", "hex:3,1".
export function elementOf(svg, key) {
  const i = key.indexOf(':');
  const kind = key.slice(0, i);
  const id = CSS.escape(key.slice(i + 1));
  if (kind === 'unit') return svg.querySelector(`[data-unit="${id}"]`);
  if (kind === 'structure') return svg.querySelector(`[data-structure="${id}"]`);
  if (kind === 'hex') return svg.querySelector(`polygon[data-hex="${id}"]`);
  if (kind === 'warrior') return svg.querySelector(`[data-warrior="${id}"]`);
  if (kind === 'cell') return svg.querySelector(`rect.cell-hit[data-cell="${id}"]`);
  return null;
}

export function keyOf(el) {
  if (!el) return null;
  const unit = el.closest('[data-unit]');
  if (unit && unit.dataset.unit) return `unit:${unit.dataset.unit}`;
  const st = el.closest('[data-structure]');
  if (st && st.dataset.structure) return `structure:${st.dataset.structure}`;
  const hex = el.closest('polygon[data-hex]');
  if (hex) return `hex:${hex.dataset.hex}`;
  const warrior = el.closest('[data-warrior]');
  if (warrior) return `warrior:${warrior.dataset.warrior}`;
  const cell = el.closest('rect.cell-hit[data-cell]');
  if (cell) return `cell:${cell.dataset.cell}`;
  return null;
}

function titleOf(el) {
  const t = el.querySelector(':scope > title') || el.querySelector('title');
  return t ? t.textContent : '';
}

// The name of a control on the picture holds the text drawn on it ("ST 4"), so that what is seen
// can be said to a speech-input tool (WCAG 2.5.3, label in name).
function nameOf(el, label) {
  const shown = [...el.querySelectorAll('text')].map((t) => t.textContent.trim()).filter(Boolean).join(' ');
  return shown && !label.includes(shown) ? `${label} — ${t('marked {shown}', { shown })}` : label;  // not in brackets: axe reads bracketed text as an aside
}

// targets: [{key, kind, label, selected?}]; onPick(target) on click, Enter or Space.
export function makeInteractive(svg, targets, onPick) {
  if (!svg) return;
  for (const el of svg.querySelectorAll('.act')) {
    el.classList.remove('act', 'sel', ...[...el.classList].filter((c) => c.startsWith('act-')));
    el.removeAttribute('tabindex');
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
    el.removeAttribute('aria-pressed');
  }
  for (const el of svg.querySelectorAll('.pass')) el.classList.remove('pass');
  const byKey = new Map();
  for (const t of targets) {
    const el = elementOf(svg, t.key);
    if (!el) continue;
    byKey.set(t.key, t);
    el.classList.add('act', `act-${t.kind}`);
    if (t.selected) el.classList.add('sel');
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', nameOf(el, `${t.label}${titleOf(el) ? ' — ' + titleOf(el) : ''}`));
    if (t.selected !== undefined) el.setAttribute('aria-pressed', t.selected ? 'true' : 'false');
  }
  // a unit drawn over a highlighted hex, and not a target itself, lets clicks through to the hex
  for (const t of targets) {
    if (!t.key.startsWith('hex:')) continue;
    for (const u of svg.querySelectorAll(`[data-unit][data-hex="${CSS.escape(t.key.slice(4))}"]`)) {
      if (!u.classList.contains('act')) u.classList.add('pass');
    }
  }
  for (const t of targets) {
    if (!t.key.startsWith('cell:')) continue;
    for (const w of svg.querySelectorAll(`[data-warrior][data-cell="${CSS.escape(t.key.slice(5))}"]`)) {
      if (!w.classList.contains('act')) w.classList.add('pass');
    }
  }
  svg.__targets = byKey;
  if (!svg.__wired) {
    svg.__wired = true;
    const pick = (ev) => {
      const targetsNow = svg.__targets || new Map();
      // a click may land on a unit drawn over a highlighted hex: try the unit, then what is under it
      let key = keyOf(ev.target);
      if (key && !targetsNow.has(key)) {
        const hex = ev.target.closest('[data-hex]');
        const cell = ev.target.closest('[data-cell]');
        const alt = hex ? `hex:${hex.dataset.hex}` : cell ? `cell:${cell.dataset.cell}` : null;
        key = alt && targetsNow.has(alt) ? alt : key;
      }
      const t = key && targetsNow.get(key);
      if (!t) return;
      ev.preventDefault();
      svg.__onPick(t);
    };
    svg.addEventListener('click', pick);
    svg.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') pick(ev);
    });
  }
  svg.__onPick = onPick;
}

// Zoom: the picture fills the width; larger zooms scroll inside their frame (phones).
export function setZoom(frame, z) {
  frame.style.setProperty('--zoom', String(z));
  frame.dataset.zoom = String(z);
}

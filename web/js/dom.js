// Small DOM helpers: h() builds elements, no framework.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function $(sel, root = document) { return root.querySelector(sel); }
export function $$(sel, root = document) { return [...root.querySelectorAll(sel)]; }

// Announce a message to screen readers and show it in the status line.
export function announce(text) {
  const live = document.getElementById('live');
  if (live) live.textContent = text;
}

export function fmtTime(iso, locale = undefined) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(locale);
}

export function shortId(id) { return id && id.length > 10 ? id.slice(0, 8) + '…' : id; }

// JSON value as short readable text (for command labels and ruling values).
export function brief(v) {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return '[' + v.map(brief).join(', ') + ']';
  if (typeof v === 'object') return '{' + Object.entries(v).map(([k, x]) => `${k}: ${brief(x)}`).join(', ') + '}';
  return String(v);
}

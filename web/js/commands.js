// The generic fallback: every legal command of the caller's seat as a button (any ruleset, so a
// new ruleset is playable the day it registers), and each command template (continuous choices
// with bounds, "templates" of GET /legal-commands) as a small form checked live by the dry run.
// The words are the ruleset's (DESIGN 12): GET /legal-commands lists each command's "label" and
// "warning" in "described"; a command with a warning asks to be confirmed before it is sent.
import { h, brief } from './dom.js';
import { t } from './i18n.js';

// The ruleset's words for each legal command, by the command's JSON: {label, warning}.
export function wordsOf(legal) {
  const out = new Map();
  for (const d of (legal && legal.described) || []) out.set(JSON.stringify(d.command), d);
  return out;
}

export function describe(cmd, plugin, view, words) {
  const own = words && words.get(JSON.stringify(cmd));
  if (own && own.label) return own.label;
  const special = plugin && plugin.describe ? plugin.describe(cmd, view) : null;
  if (special) return special;
  const { type, ...rest } = cmd;
  const text = String(type).replace(/_/g, ' ');
  const args = Object.entries(rest).filter(([, v]) => v != null && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${brief(v)}`);
  return args.length ? `${text}: ${args.join(', ')}` : text;
}

export function warningOf(cmd, words) {
  const own = words && words.get(JSON.stringify(cmd));
  return (own && own.warning) || null;
}

// A button that sends ``cmd``; with a warning, the warning is shown under it and the first press
// asks "Send anyway?" (a second button) instead of sending.
export function commandButton(cmd, onPost, label, warning, attrs = {}) {
  const btn = h('button', { type: 'button', ...attrs, dataset: { command: JSON.stringify(cmd), ...(attrs.dataset || {}) } }, label);
  if (!warning) {
    btn.addEventListener('click', () => onPost(cmd));
    return btn;
  }
  btn.dataset.warning = warning;
  const note = h('p', { class: 'cmd-warning', role: 'note' }, '⚠ ', warning);
  const confirm = h('span', { class: 'cmd-confirm', hidden: true },
    h('button', { type: 'button', class: 'confirm-send', onclick: () => onPost(cmd) }, t('Send anyway')), ' ',
    h('button', { type: 'button', class: 'link', onclick: () => { confirm.hidden = true; btn.focus(); } }, t('Cancel')));
  btn.addEventListener('click', () => { confirm.hidden = false; confirm.querySelector('button').focus(); });
  return h('span', { class: 'cmd-with-warning' }, btn, note, confirm);
}

export function commandList(cmds, onPost, plugin, view, { id = 'all-commands', words = null } = {}) {
  return h('ul', { class: 'cmd-list', id },
    cmds.map((c, i) => h('li', {},
      commandButton(c, onPost, describe(c, plugin, view, words), warningOf(c, words), { class: 'cmd', dataset: { index: String(i) } }))));
}

// A bound: {min, max} / {minimum, maximum} / {enum: [...]} / {one_of: [...]}.
function boundOf(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const min = v.min ?? v.minimum;
  const max = v.max ?? v.maximum;
  const choices = v.enum ?? v.one_of ?? v.choices;
  if (Array.isArray(choices)) return { choices };
  if (typeof min === 'number' || typeof max === 'number') return { min, max, ...(typeof v.unit === 'string' ? { unit: v.unit } : {}), step: v.step ?? (Number.isInteger(min) && Number.isInteger(max) ? 1 : 'any') };
  return null;
}

// Fields of a template: the fixed ones and the free ones (with their bounds). Two shapes: the flat
// one ({type, unit, distance: {min, max}, bounds: {...}}) and the kernel's
// ({command: {fixed fields}, bounds: {free fields}, rules, example}); a point bound ({x: {min, max},
// y: {...}}) or a vector bound ({max_length}) is a pair of numbers; a free field whose bound the form
// cannot state (a zone, a subset) takes the example's value.
export function templateFields(tpl) {
  const fixed = {};
  const free = {};
  const kernelShape = tpl.command && typeof tpl.command === 'object' && !Array.isArray(tpl.command);
  const bounds = tpl.bounds || tpl.fields || {};
  const example = (tpl.example && typeof tpl.example === 'object') ? tpl.example : {};
  if (kernelShape) Object.assign(fixed, tpl.command);
  else {
    for (const [k, v] of Object.entries(tpl)) {
      if (['bounds', 'fields', 'title', 'description', 'rules', 'example'].includes(k)) continue;
      const b = boundOf(v);
      if (b) free[k] = b; else fixed[k] = v;
    }
  }
  for (const [k, v] of Object.entries(bounds)) {
    const b = boundOf(v) || pairOf(v);
    if (b) {
      if (v && v.optional) b.optional = true;
      if (k in example && example[k] != null) b.example = example[k];
      free[k] = b;
      delete fixed[k];
    } else if (k in example && example[k] != null) fixed[k] = example[k];
  }
  return { fixed, free };
}

function pairOf(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  if (typeof v.max_length === 'number') {
    const m = v.max_length;
    return { pair: [{ min: -m, max: m, step: 'any' }, { min: -m, max: m, step: 'any' }], maxLength: m };
  }
  const x = boundOf(v.x);
  const y = boundOf(v.y);
  return x && y ? { pair: [{ ...x, step: 'any' }, { ...y, step: 'any' }] } : null;
}

// The free fields and units of the rulesets' command templates, in words (any other: its name).
const FIELD_WORDS = () => ({ facing: t('facing'), distance: t('distance'), vector: t('vector'), to: t('to'), via: t('via'), die: t('die') });
const fieldWord = (k) => FIELD_WORDS()[k] || k.replace(/_/g, ' ');
const unitWord = (u) => ({ degrees: t('degrees') }[u] || u);

export function templateForm(tpl, index, { onPost, onDryRun }) {
  const { fixed, free } = templateFields(tpl);
  const inputs = {};
  const verdict = h('p', { class: 'verdict', 'aria-live': 'polite' });
  const numberInput = (id, b, initial) => {
    const mid = typeof b.min === 'number' && typeof b.max === 'number' ? (b.min + b.max) / 2 : (b.min ?? 0);
    const value = typeof initial === 'number' ? initial : (b.optional ? '' : mid);
    return h('input', { id, type: 'number', min: b.min, max: b.max, step: b.step, value: String(value), placeholder: b.optional ? t('unchanged') : null });
  };
  const fields = Object.entries(free).map(([k, b]) => {
    const id = `tpl-${index}-${k}`;
    const words = fieldWord(k);
    if (b.pair) {
      const ex = Array.isArray(b.example) ? b.example : [];
      const pair = b.pair.map((pb, j) => numberInput(`${id}-${j}`, pb, ex[j]));
      inputs[k] = { pair, b };
      return h('span', { class: 'pair' }, pair.map((input, j) => h('label', { for: input.id }, `${words} ${j ? 'y' : 'x'} `,
        h('small', {}, `(${b.maxLength != null ? t('length up to {n}', { n: b.maxLength }) : t('{min} to {max}', { min: b.pair[j].min ?? '…', max: b.pair[j].max ?? '…' })}) `), input)));
    }
    let input;
    if (b.choices) {
      input = h('select', { id }, b.choices.map((c) => h('option', { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(b.example) }, brief(c))));
    } else {
      input = numberInput(id, b, b.example);
    }
    inputs[k] = { input, b };
    return h('label', { for: id }, `${words} `,
      b.choices ? '' : h('small', {}, `(${t('{min} to {max}', { min: b.min ?? '…', max: b.max ?? '…' })}${b.unit ? ` ${unitWord(b.unit)}` : ''}${b.optional ? `, ${t('optional')}` : ''}) `), input);
  });
  const value = () => {
    const cmd = { ...fixed };
    for (const [k, { input, pair, b }] of Object.entries(inputs)) {
      if (pair) cmd[k] = pair.map((i) => Number(i.value));
      else if (b.choices) cmd[k] = JSON.parse(input.value);
      else if (input.value === '' && b.optional) continue;
      else cmd[k] = Number(input.value);
    }
    return cmd;
  };
  let timer = null;
  const check = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!onDryRun) return;
      verdict.textContent = t('checking…');
      const res = await onDryRun(value());
      verdict.textContent = res.legal ? t('legal') : t('refused: {reason}', { reason: res.reason });
      verdict.className = `verdict ${res.legal ? 'ok' : 'bad'}`;
    }, 150);
  };
  for (const { input, pair } of Object.values(inputs)) for (const i of pair || [input]) i.addEventListener('input', check);
  const form = h('form', { class: 'template', onsubmit: (e) => { e.preventDefault(); onPost(value()); } },
    h('fieldset', {}, h('legend', {}, tpl.label || tpl.title || describe(fixed)), fields,
      tpl.warning ? h('p', { class: 'cmd-warning', role: 'note' }, '⚠ ', tpl.warning) : null,
      h('button', { type: 'submit' }, t('Send')), verdict));
  return form;
}

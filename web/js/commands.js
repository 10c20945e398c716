// The generic fallback: every legal command of the caller's seat as a button (any ruleset, so a
// new ruleset is playable the day it registers), and each command template (continuous choices
// with bounds, "templates" of GET /legal-commands) as a small form checked live by the dry run.
import { h, brief } from './dom.js';

export function describe(cmd, plugin, view) {
  const special = plugin && plugin.describe ? plugin.describe(cmd, view) : null;
  if (special) return special;
  const { type, ...rest } = cmd;
  const words = String(type).replace(/_/g, ' ');
  const args = Object.entries(rest).map(([k, v]) => `${k.replace(/_/g, ' ')} ${brief(v)}`);
  return args.length ? `${words}: ${args.join(', ')}` : words;
}

export function commandList(cmds, onPost, plugin, view, { id = 'all-commands' } = {}) {
  return h('ul', { class: 'cmd-list', id },
    cmds.map((c, i) => h('li', {},
      h('button', {
        type: 'button', class: 'cmd', dataset: { command: JSON.stringify(c), index: String(i) },
        onclick: () => onPost(c),
      }, describe(c, plugin, view)))));
}

// A bound: {min, max} / {minimum, maximum} / {enum: [...]} / {one_of: [...]}.
function boundOf(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const min = v.min ?? v.minimum;
  const max = v.max ?? v.maximum;
  const choices = v.enum ?? v.one_of ?? v.choices;
  if (Array.isArray(choices)) return { choices };
  if (typeof min === 'number' || typeof max === 'number') return { min, max, step: v.step ?? (Number.isInteger(min) && Number.isInteger(max) ? 1 : 'any') };
  return null;
}

// Fields of a template: the fixed ones and the free ones (with their bounds).
export function templateFields(tpl) {
  const fixed = {};
  const free = {};
  const bounds = tpl.bounds || tpl.fields || {};
  for (const [k, v] of Object.entries(tpl)) {
    if (k === 'bounds' || k === 'fields' || k === 'title' || k === 'description') continue;
    const b = boundOf(v);
    if (b) free[k] = b; else fixed[k] = v;
  }
  for (const [k, v] of Object.entries(bounds)) {
    const b = boundOf(v);
    if (b) { free[k] = b; delete fixed[k]; }
  }
  return { fixed, free };
}

export function templateForm(tpl, index, { onPost, onDryRun }) {
  const { fixed, free } = templateFields(tpl);
  const inputs = {};
  const verdict = h('p', { class: 'verdict', 'aria-live': 'polite' });
  const fields = Object.entries(free).map(([k, b]) => {
    const id = `tpl-${index}-${k}`;
    let input;
    if (b.choices) {
      input = h('select', { id }, b.choices.map((c) => h('option', { value: JSON.stringify(c) }, brief(c))));
    } else {
      const mid = typeof b.min === 'number' && typeof b.max === 'number' ? (b.min + b.max) / 2 : (b.min ?? 0);
      input = h('input', { id, type: 'number', min: b.min, max: b.max, step: b.step, value: String(mid) });
    }
    inputs[k] = { input, b };
    return h('label', { for: id }, `${k.replace(/_/g, ' ')} `,
      b.choices ? '' : h('small', {}, `(${b.min ?? '…'} to ${b.max ?? '…'}) `), input);
  });
  const value = () => {
    const cmd = { ...fixed };
    for (const [k, { input, b }] of Object.entries(inputs)) {
      cmd[k] = b.choices ? JSON.parse(input.value) : Number(input.value);
    }
    return cmd;
  };
  let timer = null;
  const check = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!onDryRun) return;
      verdict.textContent = 'checking…';
      const res = await onDryRun(value());
      verdict.textContent = res.legal ? 'legal' : `refused: ${res.reason}`;
      verdict.className = `verdict ${res.legal ? 'ok' : 'bad'}`;
    }, 150);
  };
  for (const { input } of Object.values(inputs)) input.addEventListener('input', check);
  const form = h('form', { class: 'template', onsubmit: (e) => { e.preventDefault(); onPost(value()); } },
    h('fieldset', {}, h('legend', {}, tpl.title || describe(fixed)), fields,
      h('button', { type: 'submit' }, 'Send'), verdict));
  return form;
}

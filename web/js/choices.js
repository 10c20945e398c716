// Rule choices (DESIGN 14): where the original rulebooks can be read two ways, the table decides.
// The lobby's fieldset to pick them (GET /rulesets lists each ruleset's choices), the line that shows
// the choices in force of a game (from its game_created header), and the dispute view of a replay
// step (GET /games/{id}/events/{seq}/redecide: the rules applied, the choices, the dice, and the step
// decided again under each other option of a choice it depended on).
import { h, clear } from './dom.js';
import { problemText, spectator } from './api.js';
import { t, tn } from './i18n.js';

const ruleUrl = (ruleset, id) => `/rulesets/${encodeURIComponent(ruleset)}/rules/${encodeURIComponent(id)}`;

// The lobby's "Rule choices" fieldset for a ruleset (null without choices). body(): the choices that
// differ from the defaults, as POST /games and POST /campaigns take them.
export function choicesFieldset(info) {
  const list = (info && info.choices) || [];
  if (!list.length) return { el: null, body: () => ({}) };
  const selects = list.map((c) => {
    const sel = h('select', { id: `c-choice-${c.id}`, dataset: { choice: c.id, default: c.default } },
      c.options.map((o) => h('option', { value: o.id, selected: o.id === c.default, title: (o.sources || []).join('\n') },
        `${o.words || o.id}${o.id === c.default ? ` (${t('default')})` : ''}: ${o.text} [${o.id}]`)));
    return h('div', { class: 'choice' },
      h('label', { for: `c-choice-${c.id}` }, h('strong', {}, c.title || c.id), ': ', c.question, ' ', h('a', { href: ruleUrl(info.id, c.id), target: '_blank', rel: 'noopener', class: 'small' }, c.id)),
      sel, h('p', { class: 'muted small' }, t('Default:'), ` ${wordsOf(c, c.default)} — ${c.reason}`));
  });
  const el = h('details', { id: 'c-choices', class: 'choices' },
    h('summary', {}, t('Rule choices ({n}): where the rulebooks can be read two ways', { n: list.length })),
    h('fieldset', {}, h('legend', {}, t('Rule choices')), selects));
  const body = () => {
    const out = {};
    for (const sel of el.querySelectorAll('select')) if (sel.value !== sel.dataset.default) out[sel.dataset.choice] = sel.value;
    return Object.keys(out).length ? { choices: out } : {};
  };
  return { el, body };
}

// The choices in force of a game, from its header (event 1; public). {} for a ruleset without
// choices, null for a game stored before choices existed.
export async function headerChoices(session) {
  const page = await session.api.get(session.path('/events?after=0&limit=1'));
  const first = page.events && page.events[0];
  return first && first.type === 'game_created' ? (first.payload.choices ?? null) : null;
}

// A choice's reading in words ("all dice"); the option's id when the ruleset does not say.
function wordsOf(c, opt) {
  const o = c && (c.options || []).find((x) => x.id === opt);
  return (o && o.words) || opt;
}

// A choice in force for people: "E-Web re-roll: all dice", the rule's id (linked to its text) and the option's
// id beside them in small print.
function choicePhrase(ruleset, c, id, opt, strong) {
  return [h('span', { class: 'choice-title' }, (c && c.title) || id), ': ',
    h(strong ? 'strong' : 'span', { dataset: { option: opt } }, wordsOf(c, opt)), ' ',
    h('small', { class: 'choice-id' }, '(', h('a', { href: ruleUrl(ruleset, id), class: 'rule', dataset: { rule: id }, title: c ? c.question : id }, id), ` ${opt})`)];
}

// "Rule choices (9)" folded above the board (a long line wrapped badly on a phone): the summary names the
// choices that differ from the defaults; opened, one choice a line with its id linked to its rule text.
export function choicesLine(ruleset, choices, info) {
  const entries = Object.entries(choices || {});
  if (!entries.length) return null;
  const declared = new Map(((info && info.choices) || []).map((c) => [c.id, c]));
  const changed = (id, opt) => { const c = declared.get(id); return Boolean(c && c.default !== opt); };
  const odd = entries.filter(([id, opt]) => changed(id, opt));
  const nd = ` (${t('not the default')})`;
  return h('details', { class: 'choices-line small', id: 'game-choices' },
    h('summary', {}, odd.length
      ? [t('Rule choices ({n}):', { n: entries.length }), ' ', odd.map(([id, opt], i) => [i ? ' · ' : '', h('span', { class: 'choice-title' }, (declared.get(id) || {}).title || id), ' ', h('strong', {}, wordsOf(declared.get(id), opt))]), nd]
      : t('Rule choices ({n}): the defaults', { n: entries.length })),
    h('ul', {}, entries.map(([id, opt]) => h('li', { class: 'choice', dataset: { choice: id } },
      choicePhrase(ruleset, declared.get(id), id, opt, changed(id, opt)), changed(id, opt) ? nd : ''))));
}

function eventsList(events) {
  return h('ol', { class: 'redecided' }, (events || []).map((e) => h('li', {},
    e.ruling && e.ruling.summary ? e.ruling.summary : String(e.type || '').replace(/_/g, ' '),
    h('ul', { class: 'small' }, ((e.ruling && e.ruling.steps) || []).map((s) => h('li', {}, h('code', {}, s.rule), ' ', s.text || ''))))));
}

function outcome(label, body) {
  const verdict = body.refused ? t('refused: {rule} {detail}', { rule: body.refused.rule || '', detail: body.refused.detail || '' })
    : body.same ? t('the same as the record') : tn('differs from the record ({n} difference)', 'differs from the record ({n} differences)', (body.differences || []).length);
  return h('div', { class: 'redecision' }, h('h5', {}, label), h('p', { class: body.same ? 'same' : 'differs' }, verdict),
    body.now ? eventsList(body.now) : null,
    (body.differences || []).length ? h('details', {}, h('summary', {}, t('Differences')),
      h('ul', { class: 'small' }, body.differences.map((d) => h('li', {}, `${d.seq ? `${t('event {seq}', { seq: d.seq })} ` : ''}${d.field}`))))
      : null);
}

// The "dispute this step" view: rules applied (texts), the choices in force, the dice, and once the game
// is finished the re-decision beside the record, with each other option of a choice the step depended on.
export async function disputeView(session, seq, r, box) {
  const ruleset = (session.view && session.view.ruleset) || '';
  const finished = session.view && session.view.status === 'finished';
  clear(box, h('p', {}, t('Loading…')));
  const out = [h('h4', {}, t('Dispute step {n}', { n: seq }))];
  const ids = [...new Set(((r && r.ruling && r.ruling.steps) || []).map((s) => s.rule))];
  let red = null;
  let redErr = null;
  if (finished) {
    try { red = await session.api.get(session.path(`/events/${seq}/redecide`)); } catch (err) { redErr = err; }
  }
  const texts = new Map((red && red.rules ? red.rules : []).map((x) => [x.id, x]));
  if (!red) {
    await Promise.all(ids.map(async (id) => {
      try { texts.set(id, await session.api.get(ruleUrl(ruleset, id))); } catch { /* a rule without text */ }
    }));
  }
  out.push(h('h5', {}, t('The rules it applied')), h('dl', { class: 'rule-texts' }, ids.flatMap((id) => {
    const rule = texts.get(id);
    return [h('dt', {}, h('a', { href: ruleUrl(ruleset, id), class: 'rule', dataset: { rule: id } }, id), rule && rule.title ? ` — ${rule.title}` : ''),
      h('dd', {}, rule && rule.text ? rule.text : t('no text for this rule'))];
  })));
  let choices = red ? red.choices : null;
  if (!choices) { try { choices = await headerChoices(session); } catch { choices = null; } }
  let declared = new Map();
  try {
    const info = (await spectator.get('/rulesets')).find((x) => x.id === ruleset);
    declared = new Map(((info && info.choices) || []).map((c) => [c.id, c]));
  } catch { /* ids alone, then */ }
  out.push(h('h5', {}, t('The rule choices in force')),
    choices && Object.keys(choices).length ? h('ul', { class: 'small', id: 'dispute-choices' }, Object.entries(choices).map(([k, v]) => h('li', { dataset: { choice: k } },
      choicePhrase(ruleset, declared.get(k), k, v, false), ids.includes(k) ? ` — ${t('this step depended on it')}` : '')))
      : h('p', { class: 'muted small' }, t('This game has no rule choices.')));
  // the dice of the whole step (every event the command produced) once re-decidable, else this event's
  const rolls = red ? red.recorded.flatMap((e) => e.rolls || []) : ((r && r.rolls) || []);
  out.push(h('h5', {}, red ? t('The dice of this step (events {first}–{last})', { first: red.first_seq, last: red.last_seq }) : t('The dice')), rolls.length
    ? h('p', { class: 'small' }, rolls.map((d) => `${d.stream}[${d.index}] = ${t('{value} of {sides}', { value: d.value, sides: d.sides })}`).join(' · '),
      ' — ', t('each value is HMAC(seed, game, stream, index); check them on the Fairness tab once the seed is revealed.'))
    : h('p', { class: 'muted small' }, t('No dice.')));
  if (!finished) {
    out.push(h('p', {}, t('Once the game is finished its seed is revealed: this step can then be decided again by the current engine, beside the record.')));
  } else if (redErr) {
    out.push(h('p', { class: 'muted' }, t('Not re-decidable: {problem}', { problem: problemText(redErr) })));
  } else {
    const grid = h('div', { class: 'dispute-grid', id: 'dispute-grid' },
      h('div', { class: 'redecision' }, h('h5', {}, t('Recorded')), eventsList(red.recorded)),
      outcome(t('Decided again now (engine {version})', { version: red.engine_version }), red));
    for (const b of red.by_choice || []) {
      const c = declared.get(b.choice);
      const col = outcome(t('Under {choice}: {option} ({id} {option_id}; the game had {in_force})', { choice: (c && c.title) || b.choice, option: wordsOf(c, b.option), id: b.choice, option_id: b.option, in_force: wordsOf(c, b.in_force) }), b);
      col.dataset.choice = b.choice;
      col.dataset.option = b.option;
      col.dataset.same = String(b.same);
      grid.append(col);
    }
    out.push(h('h5', {}, t('Decided again')), grid);
    if (!(red.by_choice || []).length) out.push(h('p', { class: 'muted small' }, t('This step depended on no rule choice.')));
  }
  out.push(h('p', { class: 'small' }, t('By hand:'), ' ', h('code', {}, `curl ${location.origin}${session.path(`/events/${seq}/redecide`)}`)));
  clear(box, out);
  box.dataset.seq = String(seq);
  box.dataset.ready = 'true';
  return box;
}


// Clouds of Smoke's army builder in the lobby (SMOKE-ARMY-1..5): for each seat, a faction, the commander's
// skill, units from the faction's list and preparations, with the points, the limits and each unit's
// profile shown as it is added. The catalogue is the options schema's own ``x-army-building`` (GET
// /rulesets); the umpire checks the lists again when the game is created (POST /games refuses a list with
// the field and the rule). A limit broken here is shown with its rule and keeps the game from being created.
import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { seatName } from '../seats.js';

// read when drawn: the words are the page's language's, loaded after this module
const CLASS_WORD = () => ({ core: t('core'), rare: t('rare'), auxiliary: t('auxiliary') });
const SKILL_WORD = () => ({ mediocre: t('mediocre'), competent: t('competent'), illustrious: t('illustrious') });

export function profileLines(p) {
  const fire = (p.fire || []).map((f) => tn('{name} (range {range} UW, {n} die)', '{name} (range {range} UW, {n} dice)', f.dice, { name: f.name, range: f.range }));
  return [
    [t('Cost'), tn('{n} point', '{n} points', p.points)],
    [t('Speed'), t('{simple} UW simple, {complex} UW complex', { simple: p.speed[0], complex: p.speed[1] })],
    [t('Weapons'), fire.length ? fire.join('; ') : t('none (melee only)')],
    [t('Melee'), String(p.melee)], [t('Discipline'), String(p.discipline)], [t('Morale'), String(p.morale)],
    [t('Traits'), (p.traits || []).map((tr) => tr.replace(/_/g, ' ')).join(', ') || t('none')],
  ];
}

// One seat's list and what is wrong with it (each problem with its rule).
export function check(list, cat) {
  const fac = cat.factions.find((f) => f.id === list.faction);
  let core = 0;
  let rare = 0;
  let total = (cat.commanders[list.commander] || { points: 0 }).points;
  for (const e of list.units) {
    const cls = fac ? fac.units[e.profile] : null;
    if (cls === 'core') core += e.count;
    if (cls === 'rare') rare += e.count;
    total += (cat.profiles[e.profile] || { points: 0 }).points * e.count;
  }
  const prepBy = Object.fromEntries(cat.preparations.map((p) => [p.id, p]));
  for (const p of list.preparations) total += (prepBy[p] || { points: 0 }).points;
  // copies of a preparation that may be taken several times count as one (SMOKE-ARMY-5)
  const slots = list.preparations.filter((p, i) => !(prepBy[p] || {}).multiple || list.preparations.indexOf(p) === i).length;
  const limit = Math.ceil(list.points / cat.preparation_step);
  const problems = [];
  if (total > list.points) problems.push({ rule: 'SMOKE-ARMY-4', field: 'points', text: t('costs {total} points, more than the agreed {points}', { total, points: list.points }) });
  if (rare > core) problems.push({ rule: 'SMOKE-ARMY-2', field: 'units', text: t('{rare} rare units but only {core} core: rare units may not outnumber core units', { rare, core }) });
  if (slots > limit) problems.push({ rule: 'SMOKE-ARMY-5', field: 'preparations', text: t('{slots} preparations; the limit is {limit} (one per started {step} points)', { slots, limit, step: cat.preparation_step }) });
  if (!list.units.length) problems.push({ rule: 'SMOKE-ARMY-1', field: 'units', text: t('an army has units') });
  if (!cat.commanders[list.commander]) problems.push({ rule: 'SMOKE-ARMY-3', field: 'commander', text: t('no commander: every army includes exactly one commander (mediocre, competent or illustrious)') });
  return { total, core, rare, slots, limit, problems };
}

export function armyBuilder(cat, seats, onChange) {
  const lists = {};
  const boxes = {};
  const picked = {}; // the unit and preparation chosen in each seat's selects, kept across redraws
  const pickedPrep = {};
  let points = 400;
  const on = h('input', { type: 'checkbox', id: 'ab-on' });
  const size = h('input', { type: 'number', id: 'ab-points', min: 100, step: 50, value: points });
  const body = h('div', { class: 'army-seats', hidden: true });
  const state = { ok: true };

  function seatBox(seat, i) {
    const fac = cat.factions[i % cat.factions.length];
    lists[seat] = { name: t("{seat}'s army", { seat: seatName('smoke', seat) }), faction: fac.id, points, commander: 'mediocre', units: [], preparations: [] };
    const box = h('fieldset', { class: 'army', id: `ab-${seat}`, dataset: { seat } });
    boxes[seat] = box;
    draw(seat);
    return box;
  }

  function draw(seat, shown = null) {
    const l = lists[seat];
    const fac = cat.factions.find((f) => f.id === l.faction);
    const c = check(l, cat);
    const facSel = h('select', { id: `ab-${seat}-faction` }, cat.factions.map((f) => h('option', { value: f.id, selected: f.id === l.faction }, f.name)));
    facSel.addEventListener('change', () => { l.faction = facSel.value; l.units = []; picked[seat] = null; draw(seat); });
    // one select, so never two commanders; none at all is a list the umpire refuses (SMOKE-ARMY-3)
    const cmdSel = h('select', { id: `ab-${seat}-commander` }, h('option', { value: '', selected: !l.commander }, t('none chosen')),
      Object.entries(cat.commanders).map(([k, v]) => h('option', { value: k, selected: k === l.commander },
        t('{skill} (level {level}, {dice} action dice, {points} points)', { skill: SKILL_WORD()[k] || k, level: v.level, dice: v.action_dice, points: v.points }))));
    cmdSel.addEventListener('change', () => { l.commander = cmdSel.value; draw(seat); });
    const unitSel = h('select', { id: `ab-${seat}-unit` }, Object.entries(fac.units).map(([pid, cls]) => h('option', { value: pid, selected: pid === picked[seat] },
      t('{name} ({kind}, {points} points)', { name: (cat.profiles[pid] || {}).name || pid, kind: CLASS_WORD()[cls] || cls, points: (cat.profiles[pid] || {}).points }))));
    const add = h('button', { type: 'button', id: `ab-${seat}-add` }, t('Add unit'));
    unitSel.addEventListener('change', () => { picked[seat] = unitSel.value; });
    add.addEventListener('click', () => {
      const pid = unitSel.value;
      picked[seat] = pid;
      const e = l.units.find((x) => x.profile === pid);
      if (e) e.count += 1; else l.units.push({ profile: pid, count: 1 });
      draw(seat, pid);
    });
    const prepSel = h('select', { id: `ab-${seat}-prep` }, cat.preparations.map((p) => h('option', { value: p.id, selected: p.id === pickedPrep[seat] }, p.multiple ? t('{name} ({points} points, may be taken again)', { name: p.name, points: p.points }) : t('{name} ({points} points)', { name: p.name, points: p.points }))));
    const addPrep = h('button', { type: 'button', id: `ab-${seat}-add-prep` }, t('Add preparation'));
    prepSel.addEventListener('change', () => { pickedPrep[seat] = prepSel.value; });
    addPrep.addEventListener('click', () => { pickedPrep[seat] = prepSel.value; l.preparations.push(prepSel.value); draw(seat); });
    const units = h('ul', { class: 'army-units' }, l.units.map((e) => h('li', { dataset: { profile: e.profile } },
      `${e.count} × ${(cat.profiles[e.profile] || {}).name} (${CLASS_WORD()[fac.units[e.profile]] || fac.units[e.profile]}) `,
      h('button', { type: 'button', class: 'link', 'aria-label': t('Remove one {name}', { name: (cat.profiles[e.profile] || {}).name }), onclick: () => { e.count -= 1; l.units = l.units.filter((x) => x.count > 0); draw(seat); } }, t('remove one')))));
    const preps = l.preparations.length ? h('ul', { class: 'army-preps' }, l.preparations.map((p, i) => h('li', {}, `${(cat.preparations.find((x) => x.id === p) || {}).name} `,
      h('button', { type: 'button', class: 'link', onclick: () => { l.preparations.splice(i, 1); draw(seat); } }, t('remove'))))) : null;
    const prof = shown && cat.profiles[shown];
    const card = prof ? h('div', { class: 'profile-card', id: `ab-${seat}-profile` }, h('strong', {}, t('Added: {name}', { name: prof.name })),
      h('dl', {}, profileLines(prof).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]))) : null;
    const bad = c.problems.length ? 'bad' : 'ok';
    boxes[seat].replaceChildren(...[h('legend', {}, t("{seat}'s army", { seat: seatName('smoke', seat) })),
      h('div', { class: 'row' }, h('label', { for: facSel.id }, `${t('Faction')} `), facSel),
      h('div', { class: 'row' }, h('label', { for: cmdSel.id }, `${t('Commander (exactly one, SMOKE-ARMY-3)')} `), cmdSel),
      h('div', { class: 'row' }, h('label', { for: unitSel.id }, `${t('Unit')} `), unitSel, ' ', add),
      card, units,
      h('div', { class: 'row' }, h('label', { for: prepSel.id }, `${t('Preparation')} `), prepSel, ' ', addPrep), preps,
      h('p', { class: `army-totals ${bad}`, id: `ab-${seat}-totals` },
        t('{total} of {points} points · core {core}, rare {rare} (rare ≤ core) · preparations {slots} of {limit}', { total: c.total, points: l.points, core: c.core, rare: c.rare, slots: c.slots, limit: c.limit })),
      c.problems.length ? h('ul', { class: 'army-problems', role: 'alert' }, c.problems.map((p) => h('li', { class: 'error', dataset: { rule: p.rule, field: p.field } }, `${p.rule}: ${p.text}`))) : null].filter(Boolean));
    changed();
  }

  function changed() {
    state.ok = !on.checked || Object.values(lists).every((l) => !check(l, cat).problems.length);
    onChange();
  }

  on.addEventListener('change', () => { body.hidden = !on.checked; changed(); });
  // as it is typed; the change on leaving the field (a press on "Add unit") then redraws nothing, so the press is not lost
  const resize = () => {
    const v = Number(size.value) || points;
    if (v === points) return;
    points = v;
    for (const s of Object.keys(lists)) { lists[s].points = points; draw(s); }
  };
  size.addEventListener('input', resize);
  size.addEventListener('change', resize);
  body.append(h('div', { class: 'row' }, h('label', { for: size.id }, `${t('Agreed army size in points (SMOKE-ARMY-4)')} `), size), ...seats.map(seatBox));
  const el = h('fieldset', { class: 'army-builder', id: 'army-builder' }, h('legend', {}, t('Armies')),
    h('div', { class: 'row' }, on, h('label', { for: on.id }, ` ${t('The players bring their own armies (SMOKE-ARMY; battles deployed by columns)')}`)), body);
  return {
    el,
    ok: () => state.ok,
    value: () => (on.checked ? { armies: JSON.parse(JSON.stringify(lists)) } : {}),
  };
}

// Battle of Hoth in the browser: the game options, the board's things to click (a unit, then where
// it may move or what it may attack), the hand with card texts, and command labels in words.
// Everything comes from the caller's view and legal commands; this module decides nothing.
import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { seatName } from '../seats.js';

export const FACTIONS = ['imperial', 'rebel'];
// A side in words (the catalogs' words of domain/hoth/terms.py: Імперія, Povstalci...), never its id.
const sideWord = (f) => ({ imperial: t('imperial'), rebel: t('rebel') })[f] || f;
// The printed names of the units (each language's rulebook's, through the catalogs).
const UNIT_NAMES = () => ({
  snowtroopers: t('Snowtroopers'), at_at: 'AT-AT', probe_droids: t('Probe Droids'),
  echo_troopers: t('Echo Base Troopers'), snowspeeders: t('Snowspeeders'), rebel_artillery: t('Rebel Artillery'),
});
const unitWord = (u) => UNIT_NAMES()[u] || u;
// A card's kind as printed (section, tactic...): the catalog's word when it has one.
const KINDS = () => ({ section: t('section'), tactic: t('tactic'), support: t('support') });
const kindWord = (k) => KINDS()[k] || k;
// The decisions a seat may owe (pending.kind), in the words the server's rulings use.
const DECISIONS = () => ({ reroll: t('reroll'), trench: t('trench'), retreat: t('retreat'), breakthrough: t('breakthrough'),
  breakthrough_attack: t('breakthrough attack'), discard: t('discard'), arrange: t('arrange'), place: t('place'), support: t('support') });
const decisionWord = (k) => DECISIONS()[k] || k.replace(/_/g, ' ');

// "c4 r2" from [x, r] (HOTH-COORD-3: c = floor(x / 2)); the half-hexes at x = -1 and 19.
export function label(hex) {
  const [x, r] = hex;
  const text = `c${Math.floor(x / 2)} r${r}`;
  return (x === -1 || x === 19) ? t('half-hex {hex}', { hex: text }) : text;
}
const hexKey = (hex) => `hex:${hex[0]},${hex[1]}`;

function state(view) { return (view && view.state) || {}; }
function unitOf(view, id) { return (state(view).units || []).find((u) => u.id === id); }
function unitName(view, id) {
  const u = unitOf(view, id);
  return u ? `${id} ${unitWord(u.unit)}` : id;
}
function cardTitle(view, id) {
  const c = (state(view).cards || {})[id];
  return c ? c.title : id;
}
function targetName(view, id) {
  const s = (state(view).structures || []).find((x) => x.id === id);
  return s ? `${id} (${s.kind.replace(/_/g, ' ')})` : unitName(view, id);
}

export function seats(options) {
  const out = ['imperial', 'rebel'];
  const team = options && options.team;
  if (team === true) out.push('imperial-2', 'rebel-2');
  else if (team === 'imperial' || team === 'rebel') out.push(`${team}-2`);
  return out;
}

export function describe(cmd, view) {
  switch (cmd.type) {
    case 'play_card': return t('Play {card}', { card: cardTitle(view, cmd.card) });
    case 'order_unit': return cmd.slot ? t('Order {unit} (order group {n})', { unit: unitName(view, cmd.unit), n: cmd.slot + 1 }) : t('Order {unit}', { unit: unitName(view, cmd.unit) });
    case 'end_orders': return t('End orders');
    case 'move': return tn('Move {unit} to {hex} ({n} hex)', 'Move {unit} to {hex} ({n} hexes)', cmd.path.length, { unit: unitName(view, cmd.unit), hex: label(cmd.path[cmd.path.length - 1]) });
    case 'end_moves': return t('End moves');
    case 'attack': return cmd.special ? t('{unit} attacks {target} (special attack)', { unit: unitName(view, cmd.unit), target: targetName(view, cmd.target) })
      : t('{unit} attacks {target}', { unit: unitName(view, cmd.unit), target: targetName(view, cmd.target) });
    case 'end_turn': return t('End turn (discard and draw)');
    case 'reroll': return cmd.dice && cmd.dice.length ? t('Re-roll dice {dice}', { dice: cmd.dice.join(', ') }) : t('Keep the roll');
    case 'ignore_retreat': return cmd.ignore ? t('Ignore 1 retreat (trench)') : t('Take every retreat');
    case 'retreat': return cmd.path.length ? t('Retreat to {hex} via {path}', { hex: label(cmd.path[cmd.path.length - 1]), path: cmd.path.map(label).join(' → ') }) : t('Retreat: no hex to enter');
    case 'breakthrough': return cmd.advance ? t('Break through into the vacated hex') : t('Stay (no breakthrough)');
    case 'skip_attack': return t('Skip the breakthrough attack');
    case 'discard_cards': return cmd.cards.length ? t('Discard {cards}', { cards: cmd.cards.map((c) => cardTitle(view, c)).join(', ') }) : t('Discard nothing');
    case 'arrange_deck': return t('Put back on top: {cards}', { cards: cmd.order.map((c) => cardTitle(view, c)).join(', ') });
    case 'reinforce': return t('Place the new unit at {hex}', { hex: label(cmd.hex) });
    case 'play_support': {
      const card = cardTitle(view, cmd.card);
      if (cmd.target) return t('Play support {card} on {target}', { card, target: targetName(view, cmd.target) });
      if (cmd.hex) return t('Play support {card} at {hex}', { card, hex: label(cmd.hex) });
      return t('Play support {card}', { card });
    }
    case 'pass_support': return t('No support card now');
    default: return null;
  }
}

// Commands that the board or the hand offers; the rest are buttons under "Actions".
export function onBoardOrHand(cmd) {
  return ['order_unit', 'move', 'attack', 'reinforce', 'play_card', 'play_support'].includes(cmd.type)
    || (cmd.type === 'retreat' && cmd.path.length > 0);
}

function add(map, key, kind, label, cmd) {
  const t = map.get(key) || { key, kind, label, commands: [] };
  if (cmd) t.commands.push(cmd);
  map.set(key, t);
  return t;
}

// What the board offers now. selected: null | {kind: 'unit'|'card', id}.
export function interact({ view, cmds, selected }) {
  const targets = new Map();
  const bar = [];
  let hint = '';
  const byUnit = new Map();
  for (const c of cmds) {
    if (['order_unit', 'move', 'attack'].includes(c.type)) {
      if (!byUnit.has(c.unit)) byUnit.set(c.unit, []);
      byUnit.get(c.unit).push(c);
    }
  }
  if (selected && selected.kind === 'unit' && byUnit.has(selected.id)) {
    const U = selected.id;
    const mine = byUnit.get(U);
    // a move may end where it started (HOTH-MOVE-4 lets a path revisit hexes): then the unit's own
    // hex is a destination, and the unit lets clicks through to it (Cancel selection lets go)
    const here = unitOf(view, U) && unitOf(view, U).hex;
    const stays = here && mine.some((c) => c.type === 'move' && hexKey(c.path[c.path.length - 1]) === hexKey(here));
    if (!stays) add(targets, `unit:${U}`, 'select', t('{piece} (selected: press again to let go)', { piece: unitName(view, U) })).selected = true;
    for (const c of mine) {
      if (c.type === 'move') add(targets, hexKey(c.path[c.path.length - 1]), 'move', t('Move {unit} to {hex}', { unit: U, hex: label(c.path[c.path.length - 1]) }), c);
      else if (c.type === 'attack') {
        const isStructure = (state(view).structures || []).some((s) => s.id === c.target);
        add(targets, `${isStructure ? 'structure' : 'unit'}:${c.target}`, 'attack', t('{unit} attacks {target}', { unit: U, target: targetName(view, c.target) }), c);
      } else bar.push(c);
    }
    for (const [id] of byUnit) if (id !== U && !targets.has(`unit:${id}`)) add(targets, `unit:${id}`, 'select', t('Select {piece}', { piece: unitName(view, id) }));
    const nMoves = mine.filter((c) => c.type === 'move').length;
    const nAtt = mine.filter((c) => c.type === 'attack').length;
    const offers = [nMoves ? tn('{n} hex to move to (green)', '{n} hexes to move to (green)', nMoves) : '', nAtt ? tn('{n} target (red)', '{n} targets (red)', nAtt) : ''].filter(Boolean);
    hint = `${unitName(view, U)}: ${offers.length ? offers.join(', ') : t('choose below')}.`;
  } else if (selected && selected.kind === 'card') {
    const C = selected.id;
    for (const c of cmds) {
      if (c.type !== 'play_support' || c.card !== C) continue;
      if (c.target) {
        const isStructure = (state(view).structures || []).some((s) => s.id === c.target);
        add(targets, `${isStructure ? 'structure' : 'unit'}:${c.target}`, 'support', describe(c, view), c);
      } else if (c.hex) add(targets, hexKey(c.hex), 'support', describe(c, view), c);
      else bar.push(c);
    }
    hint = t('{card}: choose a highlighted unit or hex.', { card: cardTitle(view, C) });
  } else {
    for (const [id, cs] of byUnit) {
      if (cs.every((c) => c.type === 'order_unit') && cs.length === 1) add(targets, `unit:${id}`, 'order', t('Order {unit}', { unit: unitName(view, id) }), cs[0]);
      else add(targets, `unit:${id}`, 'select', t('Select {piece}', { piece: unitName(view, id) }));
    }
    for (const c of cmds) {
      if (c.type === 'reinforce') add(targets, hexKey(c.hex), 'place', describe(c, view), c);
      if (c.type === 'retreat' && c.path.length) add(targets, hexKey(c.path[c.path.length - 1]), 'retreat', t('Retreat to {hex}', { hex: label(c.path[c.path.length - 1]) }), c);
    }
    if (targets.size) {
      const kinds = new Set([...targets.values()].map((x) => x.kind));
      hint = kinds.has('retreat') ? t('Choose the hex to retreat to.')
        : kinds.has('order') ? t('Click a highlighted unit to order it.')
          : kinds.has('place') ? t('Choose the hex for the new unit.') : t('Click one of your highlighted units.');
    }
  }
  return { targets: [...targets.values()], bar, hint };
}

// The hand (own cards with their texts, support cards) and the other hands as counts.
export function handPanel({ view, seat, cmds, post, select }) {
  const st = state(view);
  const cards = st.cards || {};
  const faces = (id) => cards[id] || { title: id, text: '', kind: '' };
  const out = [];
  const hands = st.hands || {};
  const own = seat && Array.isArray(hands[seat]) ? hands[seat] : null;
  if (own) {
    out.push(h('h3', {}, t('Your hand ({n})', { n: own.length })));
    out.push(h('ul', { class: 'hand', 'aria-label': t('Your hand') }, own.map((id, i) => {
      const f = faces(id);
      const play = cmds.find((c) => c.type === 'play_card' && c.card === id);
      return h('li', { class: 'card', dataset: { card: id } },
        h('strong', {}, f.title), ' ', h('small', { class: 'muted' }, [kindWord(f.kind), f.leader].filter(Boolean).join(' · ')),
        f.text ? h('p', {}, f.text) : null,
        play ? h('button', { type: 'button', class: 'play-card', dataset: { command: JSON.stringify(play) }, onclick: () => post(play) }, t('Play {card}', { card: f.title })) : null);
    })));
  }
  const faction = seat ? seat.split('-')[0] : null;
  const support = st.support || {};
  if (faction && Array.isArray(support[faction]) && support[faction].length) {
    out.push(h('h3', {}, t('Support cards')));
    out.push(h('ul', { class: 'hand' }, support[faction].map((id) => {
      const f = faces(id);
      const plays = cmds.filter((c) => c.type === 'play_support' && c.card === id);
      const direct = plays.filter((c) => !c.target && !c.hex);
      const aimed = plays.filter((c) => c.target || c.hex);
      return h('li', { class: 'card', dataset: { card: id } }, h('strong', {}, f.title), f.text ? h('p', {}, f.text) : null,
        direct.map((c) => h('button', { type: 'button', onclick: () => post(c) }, describe(c, view))),
        aimed.length ? h('button', { type: 'button', onclick: () => select({ kind: 'card', id }) }, t('Play {card}: choose where', { card: f.title })) : null);
    })));
  }
  const others = Object.entries(hands).filter(([s, v]) => s !== seat);
  if (others.length) {
    out.push(h('h3', {}, t('Other hands')));
    out.push(h('ul', { class: 'counts' }, others.map(([s, v]) => h('li', { dataset: { seat: s } }, `${seatName('hoth', s)}: `,
      Array.isArray(v) ? v.map((id) => faces(id).title).join(', ') : tn('{n} card', '{n} cards', v)))));
  }
  return out;
}

export function statusLines(view) {
  const st = state(view);
  const lines = [];
  const turn = st.turn;
  if (turn) {
    const phase = { play: t('play'), order: t('order'), move: t('move'), attack: t('attack') }[turn.phase] || turn.phase;
    lines.push(turn.card ? t('Turn {n}: {seat}, step: {phase}, card {card}', { n: st.turn_number, seat: seatName('hoth', turn.seat), phase, card: cardTitle(view, turn.card) })
      : t('Turn {n}: {seat}, step: {phase}', { n: st.turn_number, seat: seatName('hoth', turn.seat), phase }));
  }
  if (st.pending) lines.push(t('Waiting for {seat} to decide: {what}', { seat: seatName('hoth', st.pending.seat), what: `${decisionWord(st.pending.kind)}${st.pending.unit ? ` (${st.pending.unit})` : ''}` }));
  if (st.medals) {
    const vm = (st.scenario && st.scenario.victory_medals) || {};
    const medals = FACTIONS.map((f) => (vm[f] ? t('{side} {n} of {max}', { side: seatName('hoth', f), n: st.medals[f] ?? 0, max: vm[f] }) : `${seatName('hoth', f)} ${st.medals[f] ?? 0}`));
    lines.push(`${t('Medals:')} ${medals.join(', ')}`);
  }
  if (st.win_reason) lines.push(t('Result: {side} wins ({reason})', { side: seatName('hoth', st.winner), reason: st.win_reason }));
  return lines;
}

// The board in words (the text alternative of the picture).
export function textBoard(view) {
  const st = state(view);
  if (!st.units) return null;
  const rows = (st.units || []).map((u) => h('tr', {},
    h('td', {}, u.id), h('td', {}, seatName('hoth', u.faction)), h('td', {}, unitWord(u.unit)),
    h('td', {}, String(u.figures)), h('td', {}, label(u.hex)), h('td', {}, u.badge || '')));
  const structs = (st.structures || []).filter((s) => !s.destroyed).map((s) => h('li', {}, t('{id} {kind} at {hex}', { id: s.id, kind: s.kind.replace(/_/g, ' '), hex: label(s.hex) })));
  return [
    h('table', { class: 'units' }, h('caption', {}, t('Units')),
      h('thead', {}, h('tr', {}, [t('id'), t('side'), t('unit'), t('figures'), t('hex'), t('badge')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows)),
    structs.length ? h('ul', { 'aria-label': t('Structures') }, structs) : null,
  ];
}

// What an option offers by name (GET /rulesets: the options schema's ``x-items``, domain/hoth/team.py, its names
// said in the page's language): per side, each leader's or support card's id (what is sent), printed name and text.
const offered = (schema, option) => (((schema && schema.properties) || {})[option] || {})['x-items'] || {};

// Game options for POST /games: team play, leaders, support cards. A person picks leaders and support cards by
// their printed names; the body sent is the API's, ids only ({leaders: {imperial: "vader"}, support: {rebel: [id...]}}).
export function optionsForm(onChange, ctx = {}) {
  const leaderItems = offered(ctx.schema, 'leaders');
  const supportItems = offered(ctx.schema, 'support');
  const team = h('select', { id: 'opt-team', name: 'team' },
    h('option', { value: 'false' }, t('no (2 players)')), h('option', { value: 'true' }, t('both sides (4 players)')),
    h('option', { value: '"imperial"' }, t('imperial team (3 players)')), h('option', { value: '"rebel"' }, t('rebel team (3 players)')));
  const leaders = {};
  const support = {};
  const rows = FACTIONS.map((f) => {
    leaders[f] = [0, 1].map((i) => h('select', { id: `opt-leader-${f}-${i}`, 'aria-label': t('{side} leader {n}', { side: sideWord(f), n: i + 1 }) },
      h('option', { value: '' }, i ? t('(second player: none)') : t('none')), (leaderItems[f] || []).map((x) => h('option', { value: x.id }, x.name))));
    const cards = supportItems[f] || [];
    support[f] = cards.map((c, i) => h('input', { type: 'checkbox', id: `opt-support-${f}-${i}`, value: c.id }));
    const title = t('{side} support cards', { side: sideWord(f) });
    const summary = h('summary', {}, title);
    // the cards chosen, by name, on the closed line (a phone shows the choice without opening the list)
    const said = () => {
      const names = cards.filter((_, i) => support[f][i].checked).map((c) => c.name);
      summary.textContent = names.length ? `${title} — ${names.join(', ')}` : title;
    };
    const list = h('details', { class: 'support-cards', id: `opt-support-${f}`, onchange: said }, summary,
      cards.map((c, i) => h('label', { class: 'support-card', for: `opt-support-${f}-${i}` }, support[f][i],
        h('span', {}, h('strong', {}, c.name), c.text ? h('span', { class: 'muted small' }, c.text) : null))));
    return [h('div', { class: 'row' }, h('span', { class: 'lbl' }, t('{side} leader(s)', { side: sideWord(f) })), leaders[f]),
      cards.length ? list : null];
  });
  const value = () => {
    const out = {};
    const tv = JSON.parse(team.value);
    if (tv !== false) out.team = tv;
    const ld = {};
    for (const f of FACTIONS) {
      const names = leaders[f].map((s) => s.value).filter(Boolean);
      if (names.length === 1) ld[f] = names[0]; else if (names.length > 1) ld[f] = names;
    }
    if (Object.keys(ld).length) out.leaders = ld;
    const sp = {};
    for (const f of FACTIONS) {
      const ids = support[f].filter((x) => x.checked).map((x) => x.value);
      if (ids.length) sp[f] = ids;
    }
    if (Object.keys(sp).length) out.support = sp;
    return out;
  };
  const el = h('fieldset', { class: 'options' }, h('legend', {}, t('Battle of Hoth options')),
    h('div', { class: 'row' }, h('label', { for: 'opt-team' }, t('Team play'), ' '), team), rows);
  el.addEventListener('change', () => onChange(value()));
  el.addEventListener('input', () => onChange(value()));
  return { el, value, seats: () => seats(value()) };
}

export default { id: 'hoth', describe, interact, handPanel, statusLines, textBoard, optionsForm, seats, onBoardOrHand, label };

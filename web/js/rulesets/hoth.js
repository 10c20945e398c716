// Battle of Hoth in the browser: the game options, the board's things to click (a unit, then where
// it may move or what it may attack), the hand with card texts, and command labels in words.
// Everything comes from the caller's view and legal commands; this module decides nothing.
import { h } from '../dom.js';

export const FACTIONS = ['imperial', 'rebel'];
// HOTH-LEADER-1: the leaders of each faction.
export const LEADERS = { imperial: ['vader', 'veers', 'piett'], rebel: ['leia', 'luke', 'han'] };
const UNIT_NAMES = {
  snowtroopers: 'Snowtroopers', at_at: 'AT-AT', probe_droids: 'Probe Droids',
  echo_troopers: 'Echo Base Troopers', snowspeeders: 'Snowspeeders', rebel_artillery: 'Rebel Artillery',
};

// "c4 r2" from [x, r] (HOTH-COORD-3: c = floor(x / 2)); the half-hexes at x = -1 and 19.
export function label(hex) {
  const [x, r] = hex;
  const text = `c${Math.floor(x / 2)} r${r}`;
  return (x === -1 || x === 19) ? `half-hex ${text}` : text;
}
const hexKey = (hex) => `hex:${hex[0]},${hex[1]}`;

function state(view) { return (view && view.state) || {}; }
function unitOf(view, id) { return (state(view).units || []).find((u) => u.id === id); }
function unitName(view, id) {
  const u = unitOf(view, id);
  return u ? `${id} ${UNIT_NAMES[u.unit] || u.unit}` : id;
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
  const t = cmd.type;
  switch (t) {
    case 'play_card': return `Play ${cardTitle(view, cmd.card)}`;
    case 'order_unit': return `Order ${unitName(view, cmd.unit)}${cmd.slot ? ` (order group ${cmd.slot + 1})` : ''}`;
    case 'end_orders': return 'End orders';
    case 'move': return `Move ${unitName(view, cmd.unit)} to ${label(cmd.path[cmd.path.length - 1])} (${cmd.path.length} ${cmd.path.length === 1 ? 'hex' : 'hexes'})`;
    case 'end_moves': return 'End moves';
    case 'attack': return `${unitName(view, cmd.unit)} attacks ${targetName(view, cmd.target)}${cmd.special ? ' (special attack)' : ''}`;
    case 'end_turn': return 'End turn (discard and draw)';
    case 'reroll': return cmd.dice && cmd.dice.length ? `Re-roll dice ${cmd.dice.join(', ')}` : 'Keep the roll';
    case 'ignore_retreat': return cmd.ignore ? 'Ignore 1 retreat (trench)' : 'Take every retreat';
    case 'retreat': return cmd.path.length ? `Retreat to ${label(cmd.path[cmd.path.length - 1])} via ${cmd.path.map(label).join(' → ')}` : 'Retreat: no hex to enter';
    case 'breakthrough': return cmd.advance ? 'Break through into the vacated hex' : 'Stay (no breakthrough)';
    case 'skip_attack': return 'Skip the breakthrough attack';
    case 'discard_cards': return cmd.cards.length ? `Discard ${cmd.cards.map((c) => cardTitle(view, c)).join(', ')}` : 'Discard nothing';
    case 'arrange_deck': return `Put back on top: ${cmd.order.map((c) => cardTitle(view, c)).join(', ')}`;
    case 'reinforce': return `Place the new unit at ${label(cmd.hex)}`;
    case 'play_support': return `Play support ${cardTitle(view, cmd.card)}${cmd.target ? ` on ${targetName(view, cmd.target)}` : ''}${cmd.hex ? ` at ${label(cmd.hex)}` : ''}`;
    case 'pass_support': return 'No support card now';
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
    if (!stays) add(targets, `unit:${U}`, 'select', `${unitName(view, U)} (selected: press again to let go)`).selected = true;
    for (const c of mine) {
      if (c.type === 'move') add(targets, hexKey(c.path[c.path.length - 1]), 'move', `Move ${U} to ${label(c.path[c.path.length - 1])}`, c);
      else if (c.type === 'attack') {
        const isStructure = (state(view).structures || []).some((s) => s.id === c.target);
        add(targets, `${isStructure ? 'structure' : 'unit'}:${c.target}`, 'attack', `${U} attacks ${targetName(view, c.target)}`, c);
      } else bar.push(c);
    }
    for (const [id] of byUnit) if (id !== U && !targets.has(`unit:${id}`)) add(targets, `unit:${id}`, 'select', `Select ${unitName(view, id)}`);
    const nMoves = mine.filter((c) => c.type === 'move').length;
    const nAtt = mine.filter((c) => c.type === 'attack').length;
    hint = `${unitName(view, U)}: ${nMoves ? `${nMoves} hex${nMoves === 1 ? '' : 'es'} to move to (green)` : ''}${nMoves && nAtt ? ', ' : ''}${nAtt ? `${nAtt} target${nAtt === 1 ? '' : 's'} (red)` : ''}${!nMoves && !nAtt ? 'choose below' : ''}.`;
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
    hint = `${cardTitle(view, C)}: choose a highlighted unit or hex.`;
  } else {
    for (const [id, cs] of byUnit) {
      if (cs.every((c) => c.type === 'order_unit') && cs.length === 1) add(targets, `unit:${id}`, 'order', `Order ${unitName(view, id)}`, cs[0]);
      else add(targets, `unit:${id}`, 'select', `Select ${unitName(view, id)}`);
    }
    for (const c of cmds) {
      if (c.type === 'reinforce') add(targets, hexKey(c.hex), 'place', describe(c, view), c);
      if (c.type === 'retreat' && c.path.length) add(targets, hexKey(c.path[c.path.length - 1]), 'retreat', `Retreat to ${label(c.path[c.path.length - 1])}`, c);
    }
    if (targets.size) {
      const kinds = new Set([...targets.values()].map((t) => t.kind));
      hint = kinds.has('retreat') ? 'Choose the hex to retreat to.'
        : kinds.has('order') ? 'Click a highlighted unit to order it.'
          : kinds.has('place') ? 'Choose the hex for the new unit.' : 'Click one of your highlighted units.';
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
    out.push(h('h3', {}, `Your hand (${own.length})`));
    out.push(h('ul', { class: 'hand', 'aria-label': 'Your hand' }, own.map((id, i) => {
      const f = faces(id);
      const play = cmds.find((c) => c.type === 'play_card' && c.card === id);
      return h('li', { class: 'card', dataset: { card: id } },
        h('strong', {}, f.title), ' ', h('small', { class: 'muted' }, [f.kind, f.leader].filter(Boolean).join(' · ')),
        f.text ? h('p', {}, f.text) : null,
        play ? h('button', { type: 'button', class: 'play-card', dataset: { command: JSON.stringify(play) }, onclick: () => post(play) }, `Play ${f.title}`) : null);
    })));
  }
  const faction = seat ? seat.split('-')[0] : null;
  const support = st.support || {};
  if (faction && Array.isArray(support[faction]) && support[faction].length) {
    out.push(h('h3', {}, 'Support cards'));
    out.push(h('ul', { class: 'hand' }, support[faction].map((id) => {
      const f = faces(id);
      const plays = cmds.filter((c) => c.type === 'play_support' && c.card === id);
      const direct = plays.filter((c) => !c.target && !c.hex);
      const aimed = plays.filter((c) => c.target || c.hex);
      return h('li', { class: 'card', dataset: { card: id } }, h('strong', {}, f.title), f.text ? h('p', {}, f.text) : null,
        direct.map((c) => h('button', { type: 'button', onclick: () => post(c) }, describe(c, view))),
        aimed.length ? h('button', { type: 'button', onclick: () => select({ kind: 'card', id }) }, `Play ${f.title}: choose where`) : null);
    })));
  }
  const others = Object.entries(hands).filter(([s, v]) => s !== seat);
  if (others.length) {
    out.push(h('h3', {}, 'Other hands'));
    out.push(h('ul', { class: 'counts' }, others.map(([s, v]) => h('li', {}, `${s}: `,
      Array.isArray(v) ? v.map((id) => faces(id).title).join(', ') : `${v} card${v === 1 ? '' : 's'}`))));
  }
  return out;
}

export function statusLines(view) {
  const st = state(view);
  const lines = [];
  const t = st.turn;
  if (t) {
    let s = `Turn ${st.turn_number}: ${t.seat}, ${t.phase} step`;
    if (t.card) s += `, card ${cardTitle(view, t.card)}`;
    lines.push(s);
  }
  if (st.pending) lines.push(`Waiting for ${st.pending.seat} to decide: ${st.pending.kind.replace(/_/g, ' ')}${st.pending.unit ? ` (${st.pending.unit})` : ''}`);
  if (st.medals) {
    const vm = (st.scenario && st.scenario.victory_medals) || {};
    lines.push('Medals: ' + FACTIONS.map((f) => `${f} ${st.medals[f] ?? 0}${vm[f] ? ` of ${vm[f]}` : ''}`).join(', '));
  }
  if (st.win_reason) lines.push(`Result: ${st.winner} wins (${st.win_reason})`);
  return lines;
}

// The board in words (the text alternative of the picture).
export function textBoard(view) {
  const st = state(view);
  if (!st.units) return null;
  const rows = (st.units || []).map((u) => h('tr', {},
    h('td', {}, u.id), h('td', {}, u.faction), h('td', {}, UNIT_NAMES[u.unit] || u.unit),
    h('td', {}, String(u.figures)), h('td', {}, label(u.hex)), h('td', {}, u.badge || '')));
  const structs = (st.structures || []).filter((s) => !s.destroyed).map((s) => h('li', {}, `${s.id} ${s.kind.replace(/_/g, ' ')} at ${label(s.hex)}`));
  return [
    h('table', { class: 'units' }, h('caption', {}, 'Units'),
      h('thead', {}, h('tr', {}, ['id', 'side', 'unit', 'figures', 'hex', 'badge'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows)),
    structs.length ? h('ul', { 'aria-label': 'Structures' }, structs) : null,
  ];
}

// Game options for POST /games: team play, leaders, support cards.
export function optionsForm(onChange) {
  const team = h('select', { id: 'opt-team', name: 'team' },
    h('option', { value: 'false' }, 'no (2 players)'), h('option', { value: 'true' }, 'both sides (4 players)'),
    h('option', { value: '"imperial"' }, 'imperial team (3 players)'), h('option', { value: '"rebel"' }, 'rebel team (3 players)'));
  const leaders = {};
  const support = {};
  const rows = FACTIONS.map((f) => {
    leaders[f] = [0, 1].map((i) => h('select', { id: `opt-leader-${f}-${i}`, 'aria-label': `${f} leader ${i + 1}` },
      h('option', { value: '' }, i ? '(second player: none)' : 'none'), LEADERS[f].map((n) => h('option', { value: n }, n))));
    support[f] = h('input', { id: `opt-support-${f}`, type: 'text', placeholder: 'card ids, comma separated', autocomplete: 'off' });
    return [h('div', { class: 'row' }, h('span', { class: 'lbl' }, `${f} leader(s)`), leaders[f]),
      h('div', { class: 'row' }, h('label', { for: `opt-support-${f}` }, `${f} support cards`), support[f])];
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
      const ids = support[f].value.split(',').map((s) => s.trim()).filter(Boolean);
      if (ids.length) sp[f] = ids;
    }
    if (Object.keys(sp).length) out.support = sp;
    return out;
  };
  const el = h('fieldset', { class: 'options' }, h('legend', {}, 'Battle of Hoth options'),
    h('div', { class: 'row' }, h('label', { for: 'opt-team' }, 'Team play '), team), rows);
  el.addEventListener('change', () => onChange(value()));
  el.addEventListener('input', () => onChange(value()));
  return { el, value, seats: () => seats(value()) };
}

export default { id: 'hoth', describe, interact, handPanel, statusLines, textBoard, optionsForm, seats, onBoardOrHand, label };

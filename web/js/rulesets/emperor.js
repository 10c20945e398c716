// The Emperor (solo) in the browser: the grid as the board (click a warrior, then a highlighted
// cell; hazards marked and warned about before the move is sent), the hero's cards as the hand
// (click a card to activate it, then its target on the board), defence and star choices in place
// with what they do, and the Emperor's turn step by step in plain words with the rules of each
// step one click away. Everything comes from the caller's view, legal commands and events; this
// module decides nothing. Where GET /legal-commands gives `described` ({command, label, warning}),
// its words are used; otherwise the short texts below.
import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { seatName } from '../seats.js';

const HAZARD_WOUNDS = 1; // BASE-HAZ-2: an active hazard entered gives 1 wound, no defence

const st = (view) => (view && view.state) || {};
const canon = (c) => JSON.stringify(Object.keys(c).sort().map((k) => [k, c[k]]));
let described = new Map();
function remember(legal) {
  described = new Map();
  for (const d of (legal && legal.described) || []) if (d && d.command) described.set(canon(d.command), d);
}
const fromServer = (cmd) => described.get(canon(cmd)) || null;

function warrior(view, id) { return (st(view).warriors || []).find((w) => w.id === id) || null; }
function wname(view, id) { const w = warrior(view, id); return w ? w.name : id; }
function bf(view) { return st(view).battlefield || { locations: [], hazards: [] }; }
function location(view, id) { return bf(view).locations.find((l) => l.id === id) || null; }
function activeHazardAt(view, cell) { return bf(view).hazards.find((z) => z.cell === cell && z.active) || null; }
function cardOf(view, id) {
  for (const [side, hero] of Object.entries(st(view).heroes || {})) {
    const c = (hero.cards || []).find((x) => x.id === id);
    if (c) return { ...c, side };
  }
  return null;
}
const cname = (view, id) => { const c = cardOf(view, id); return c ? c.name : id; };
function bonusWords(view, ids) {
  if (!ids || !ids.length) return '';
  return ` using ${ids.map((id) => { const l = location(view, id); return l ? `${l.name} (${id})` : id; }).join(' and ')}`;
}
function starText(view, choice) {
  const hero = (st(view).heroes || {}).human;
  const s = hero && (hero.stars || []).find((x) => x.name === choice);
  if (s) return `${s.name}: ${s.text}`;
  const l = location(view, choice);
  if (l && l.ability) return `${l.name}'s ${l.ability.name}: ${l.ability.text}`;
  return choice;
}

export function describe(cmd, view) {
  const d = fromServer(cmd);
  if (d && d.label) return d.label;
  switch (cmd.type) {
    case 'move': return `Move ${wname(view, cmd.warrior)} to ${cmd.to}${bonusWords(view, cmd.bonuses)}`;
    case 'march': return `March your hero to ${cmd.to}${bonusWords(view, cmd.bonuses)}`;
    case 'activate': return `Activate ${cname(view, cmd.card)}`;
    case 'refresh': return 'Refresh: every exhausted card of yours becomes prepared';
    case 'end_turn': return 'End your turn (the Emperor plays)';
    case 'attack': return cmd.target ? `Attack ${wname(view, cmd.target)}${bonusWords(view, cmd.bonuses)}` : `Attack every enemy within 2${bonusWords(view, cmd.bonuses)}`;
    case 'push': return `Push ${wname(view, cmd.target)} to ${cmd.path[cmd.path.length - 1]} (via ${cmd.path.join(', ')})${bonusWords(view, cmd.bonuses)}`;
    case 'star': return `Star: ${starText(view, cmd.choice)}`;
    case 'swap': return 'Swap places with the warrior you hit';
    case 'skip': return 'Leave this ability unused';
    case 'defend': return cmd.card ? `Defend with ${cname(view, cmd.card)} (defence ${(cardOf(view, cmd.card) || {}).defense ?? '?'})${bonusWords(view, cmd.bonuses)}` : `Defend with no card${bonusWords(view, cmd.bonuses)}`;
    default: return null;
  }
}

// What a player should know before sending: a move into an active hazard, locations flipped.
export function warningOf(cmd, view) {
  const d = fromServer(cmd);
  if (d) return d.warning || null;
  const bits = [];
  if ((cmd.type === 'move' || cmd.type === 'march') && activeHazardAt(view, cmd.to)) {
    const z = activeHazardAt(view, cmd.to);
    const who = cmd.type === 'move' ? wname(view, cmd.warrior) : 'your hero';
    bits.push(`${cmd.to} is the active hazard ${z.name} (${z.id}): ${who} takes ${HAZARD_WOUNDS} wound, with no defence, and stops there (BASE-HAZ-2).`);
  }
  return bits.length ? bits.join(' ') : null;
}

export function onBoardOrHand() { return true; }

function add(map, key, kind, label, cmd) {
  const t = map.get(key) || { key, kind, label, commands: [] };
  if (cmd) t.commands.push(cmd);
  map.set(key, t);
  return t;
}

// What the board offers now. selected: null | {kind, id} (a warrior to move, or a push target).
export function interact({ view, cmds, selected, legal }) {
  remember(legal);
  const targets = new Map();
  let hint = '';
  const moves = cmds.filter((c) => c.type === 'move');
  const pushes = cmds.filter((c) => c.type === 'push');
  const byWarrior = new Map();
  for (const c of moves) { if (!byWarrior.has(c.warrior)) byWarrior.set(c.warrior, []); byWarrior.get(c.warrior).push(c); }
  const cellTarget = (cell, c, verb) => {
    const hz = activeHazardAt(view, cell);
    return add(targets, `cell:${cell}`, hz ? 'hazard' : 'move', hz ? t('{what} {cell} (hazard {hazard})', { what: verb, cell, hazard: hz.name }) : `${verb} ${cell}`, c);
  };
  if (selected && byWarrior.has(selected.id)) {
    const W = selected.id;
    // a destination on the warrior's own cell (a path may come back): the warrior lets clicks through
    // to that cell, and "Cancel selection" lets go
    const here = (warrior(view, W) || {}).cell;
    if (!byWarrior.get(W).some((c) => c.to === here)) add(targets, `warrior:${W}`, 'select', t('{piece} (selected: press again to let go)', { piece: wname(view, W) })).selected = true;
    for (const c of byWarrior.get(W)) cellTarget(c.to, c, t('Move {warrior} to', { warrior: wname(view, W) }));
    for (const [id] of byWarrior) if (id !== W) add(targets, `warrior:${id}`, 'select', t('Select {piece}', { piece: wname(view, id) }));
    const n = new Set(byWarrior.get(W).map((c) => c.to)).size;
    const nh = [...targets.values()].filter((x) => x.kind === 'hazard').length;
    hint = `${wname(view, W)}: ${tn('{n} cell to move to (green)', '{n} cells to move to (green)', n)}${nh ? `, ${tn('{n} of them a hazard (red: you will be warned)', '{n} of them hazards (red: you will be warned)', nh)}` : ''}.`;
  } else if (selected && pushes.some((c) => c.target === selected.id)) {
    const T = selected.id;
    const here = (warrior(view, T) || {}).cell;
    if (!pushes.some((c) => c.target === T && c.path[c.path.length - 1] === here)) add(targets, `warrior:${T}`, 'select', t('{piece} (selected: press again to let go)', { piece: wname(view, T) })).selected = true;
    for (const c of pushes.filter((x) => x.target === T)) add(targets, `cell:${c.path[c.path.length - 1]}`, 'move', t('Push {warrior} to {cell}', { warrior: wname(view, T), cell: c.path[c.path.length - 1] }), c);
    hint = t('Push {warrior}: choose the cell it ends on.', { warrior: wname(view, T) });
  } else {
    for (const [id] of byWarrior) add(targets, `warrior:${id}`, 'select', t('Select {warrior} to move it', { warrior: wname(view, id) }));
    for (const c of cmds) {
      if (c.type === 'attack' && c.target) add(targets, `warrior:${c.target}`, 'attack', t('Attack {warrior}', { warrior: wname(view, c.target) }), c);
      if (c.type === 'march') cellTarget(c.to, c, t('March your hero to'));
    }
    for (const T of new Set(pushes.map((c) => c.target))) add(targets, `warrior:${T}`, 'select', t('Push {warrior}: select it, then the cell', { warrior: wname(view, T) }));
    const kinds = new Set([...targets.values()].map((x) => x.kind));
    if (pushes.length) hint = t('Click the warrior to push (highlighted), then the cell it ends on.');
    else if (kinds.has('attack')) hint = t('Click the enemy to attack (red ring).');
    else if (cmds.some((c) => c.type === 'march')) hint = t('Click the cell your hero marches to.');
    else if (byWarrior.size) hint = t('Click one of your warriors (blue ring) to move it, or a card in your hand to activate it.');
    else if (cmds.some((c) => c.type === 'activate')) hint = t('Click a card in your hand to activate it.');
  }
  return { targets: [...targets.values()], bar: [], hint };
}

// A location's bonus symbols (BASE-LOC-2) in words, as board.svg writes them (domain/emperor/picture.py).
const BONUS_SYMBOLS = () => ({ MOVE: t('MOVE'), PUSH: t('PUSH'), ATTACK: t('ATTACK'), DEFENSE: t('DEFENSE'), RANGE: t('RANGE') });
const RANGE_WORDS = () => t('MELEE: an adjacent cell; RANGED: up to 3 cells; AREA: every enemy within 2 (BASE-RANGE-1).');

function button(cmd, view, post, extra = {}) {
  const warn = warningOf(cmd, view);
  return h('button', { type: 'button', class: `choice ${extra.class || ''}`.trim(), dataset: { command: JSON.stringify(cmd) }, title: warn || null,
    onclick: () => post(cmd) }, extra.text || describe(cmd, view));
}

// The hand (the hero's cards), the choice under way (ability, defence, star), the turn's actions,
// and the Emperor's last turn in words.
export function handPanel({ view, seat, cmds, post, session, legal }) {
  remember(legal);
  const s = st(view);
  const out = [];
  const mine = seat === 'human';
  const heroes = s.heroes || {};
  if (s.winner) out.push(h('p', { class: 'result', role: 'status' }, s.winner === 'human' ? t('You win: {reason}', { reason: s.win_reason || '' }) : t('The Emperor wins: {reason}', { reason: s.win_reason || '' })));
  // a decision asked now, in place, with its explanation
  const pend = s.pending;
  const defends = cmds.filter((c) => c.type === 'defend');
  if (pend && defends.length) {
    out.push(h('div', { class: 'ask', id: 'defence-ask', role: 'group', 'aria-labelledby': 'defence-q' },
      h('h3', { id: 'defence-q' }, t('Defend your hero')),
      h('p', {}, t('{attacker} attacks {target} with {attack}', { attacker: wname(view, pend.attacker), target: wname(view, pend.target), attack: pend.attack }),
        `${pend.source ? ` (${pend.source})` : ''}. `,  // where the ability comes from, in words (the server's)
        t('Choose a prepared card: its defence value counts against the attack and the card becomes exhausted; or defend with no card (BASE-DEF-1).')),
      h('div', { class: 'choices' }, defends.map((c) => button(c, view, post, { class: 'defend' })))));
  }
  const stars = cmds.filter((c) => c.type === 'star');
  const act = s.activation;
  const ability = cmds.filter((c) => ['star', 'skip', 'swap'].includes(c.type) || (c.type === 'attack' && !c.target));
  if (act && ability.length) {
    const now = act.queue && act.queue[0];
    out.push(h('div', { class: 'ask', id: 'ability-ask', role: 'group', 'aria-labelledby': 'ability-q' },
      h('h3', { id: 'ability-q' }, `${cname(view, act.card)}: ${now ? now.ability : t('next ability')}`),
      stars.length ? h('p', {}, t("STAR: choose one of your hero's star abilities or an available location ability; each once per turn (BASE-STAR-1).")) : null,
      cmds.some((c) => c.type === 'swap') ? h('p', {}, t('You may swap places with the warrior your attack hit (SOLO-FAQ-4).')) : null,
      h('div', { class: 'choices' }, ability.map((c) => button(c, view, post)))));
  } else if (act && act.queue && act.queue[0]) {
    out.push(h('p', { class: 'ask-line' }, `${cname(view, act.card)}: ${act.queue[0].ability} — ${RANGE_WORDS()}`));
  }
  // the hand: the hero's cards
  const hero = heroes.human;
  if (hero) {
    const defending = !!pend;
    out.push(h('h3', {}, mine ? t("Your hand: {hero}'s cards", { hero: hero.name }) : t("{hero}'s cards", { hero: hero.name })));
    out.push(h('ul', { class: 'hand emperor-hand', 'aria-label': t('Your cards') }, hero.cards.map((c) => {
      const activate = cmds.find((x) => x.type === 'activate' && x.card === c.id);
      const body = [h('strong', {}, c.name), ' ', h('small', { class: 'muted' }, `${c.crest} · ${t('defence {n}', { n: c.defense })}${c.defense_boost ? ` (${t('+{n} on {crest}', { n: c.defense_boost.amount, crest: c.defense_boost.crest })})` : ''} · ${c.prepared ? t('prepared') : t('exhausted')}`),
        h('p', {}, c.abilities.join(' · '))];
      if (activate && !defending) {
        return h('li', { class: 'card', dataset: { card: c.id } }, h('button', { type: 'button', class: 'play-card card-face', dataset: { command: JSON.stringify(activate) }, onclick: () => post(activate) }, h('span', { class: 'visually-hidden' }, t('Activate'), ' '), body));
      }
      return h('li', { class: `card${c.prepared ? '' : ' exhausted'}`, dataset: { card: c.id } }, body);
    })));
    const starsList = hero.stars || [];
    if (starsList.length) out.push(h('p', { class: 'muted small' }, t('Stars:'), ` ${starsList.map((x) => `${x.name} (${x.text})`).join('; ')}`));
  }
  // the turn's actions
  const turn = s.turn;
  const turnCmds = cmds.filter((c) => c.type === 'refresh' || c.type === 'end_turn');
  if (turn && turn.side === 'human') {
    const taken = turn.actions || [];
    const noneYet = t('none yet');
    out.push(h('div', { class: 'turn-box', id: 'turn-box' },
      h('h3', {}, t('Your turn {n}', { n: turn.number })),
      h('p', {}, t('Two different actions of MOVE, ACTIVATE, REFRESH (BASE-TURN-1).'), ' ',
        t('Taken: {actions}', { actions: taken.length ? taken.map(actionWord).join(', ') : noneYet }), turn.current ? ` (${t('{action} under way', { action: actionWord(turn.current) })})` : '', '.'),
      turnCmds.length ? h('div', { class: 'choices' }, turnCmds.map((c) => button(c, view, post))) : null));
  }
  out.push(emperorTurn(view, session));
  const emp = heroes.emperor;
  if (emp) {
    out.push(h('details', { class: 'emperor-cards' }, h('summary', {}, t("The Emperor's {hero}: cards", { hero: emp.name })),
      h('ul', {}, emp.cards.map((c) => h('li', { class: c.prepared ? '' : 'muted' }, `${c.name} (${c.crest}, ${t('defence {n}', { n: c.defense })}${c.prepared ? '' : `, ${t('exhausted')}`}): ${c.abilities.join(' · ')}`)))));
  }
  return out;
}

// -- the Emperor's turn in words -------------------------------------------------------------
// the enums an event keeps, in words (as the server's summaries say them, domain/emperor/terms.py)
const orderStep = (step) => ({ MOVE: t('MOVE'), ACTIVATE: t('ACTIVATE'), REFRESH_CHECK: t('REFRESH CHECK') })[step] || step;
const actionWord = (action) => ({ MOVE: t('MOVE'), ACTIVATE: t('ACTIVATE'), REFRESH: t('REFRESH') })[action] || action;
const purposeWord = (purpose) => ({ attack: t('attack'), push: t('push'), defense: t('defense'), movement: t('movement'),
  'location ability': t('location ability') })[purpose] || purpose;
// a hazard the event keeps as the cause of wounds (``hazard H1``); why the game ended: the view's words (said in the
// reader's language by the server) for the reason the event kept in English
const causeWord = (cause) => (/^hazard \S+$/.test(cause || '') ? t('hazard {hazard}', { hazard: cause.slice(7) }) : cause);
const reasonWords = (view, reason) => (st(view).win_reason_message && st(view).win_reason) || reason;
// a step whose payload keeps stored text a player cannot read (an ability's source ``RB1 Brawl``, a star's English
// name, an ability's English notation): the server's one line of it, in the reader's language
// (domain/emperor/sources.py), as a sentence
const said = (e) => (e.summary ? `${e.summary.charAt(0).toUpperCase()}${e.summary.slice(1)}.` : '');
function words(e, view) {
  const p = e.payload || {};
  const n = (id) => wname(view, id);
  switch (e.type) {
    case 'turn_started': return p.side === 'human' ? t('Your turn {n} begins.', { n: p.turn }) : t("The Emperor's turn {n} begins.", { n: p.turn });
    case 'turn_ended': return p.side === 'human' ? t('Your turn ends.') : t("The Emperor's turn ends.");
    case 'order_card_revealed': return p.why === 'defense' ? t('The Emperor turns up order card {card} to defend.', { card: p.card }) : t('The Emperor turns up order card {card}.', { card: p.card });
    case 'order_deck_shuffled': return p.reshuffle ? t('The order deck is reshuffled.') : t('The order deck is shuffled.');
    case 'emperor_step': return p.performed === false ? t('Order step: {step} (nothing to do).', { step: orderStep(p.step) }) : t('Order step: {step}.', { step: orderStep(p.step) });
    case 'emperor_moved': return p.to && p.to !== p.frm ? t('{warrior} moves from {from} to {to}.', { warrior: n(p.warrior), from: p.frm, to: p.to }) : t('{warrior} stays on {cell}.', { warrior: n(p.warrior), cell: p.frm });
    case 'warrior_moved': {
      const to = (p.path && p.path.length) ? p.path[p.path.length - 1] : p.frm;
      return p.hazard ? t('{warrior} moves from {from} to {to} into the hazard {hazard}.', { warrior: n(p.warrior), from: p.frm, to, hazard: p.hazard })
        : t('{warrior} moves from {from} to {to}.', { warrior: n(p.warrior), from: p.frm, to });
    }
    case 'card_activated': return p.side === 'human' ? t('You activate {card}.', { card: cname(view, p.card) }) : t('The Emperor activates {card}.', { card: cname(view, p.card) });
    case 'target_chosen': return said(e) || t('The target is {targets}.', { targets: (p.targets || []).map(n).join(', ') || t('nobody') });
    case 'attack_resolved': return tn('{attacker} attacks {target}: {attack} against a defence of {defense}, {n} wound.', '{attacker} attacks {target}: {attack} against a defence of {defense}, {n} wounds.', p.wounds, { attacker: n(p.attacker), target: n(p.target), attack: p.attack, defense: p.defense });
    case 'defended': return p.card ? t('{warrior} defends with {card}: {value}.', { warrior: n(p.warrior), card: cname(view, p.card), value: p.value }) : t('{warrior} defends: {value}.', { warrior: n(p.warrior), value: p.value });
    case 'defense_requested': return t('{attacker} attacks your hero with {attack}: you choose the defence.', { attacker: n(p.pending && p.pending.attacker), attack: p.pending && p.pending.attack });
    case 'pushed': return tn('{warrior} is pushed from {from} to {to}: {n} wound.', '{warrior} is pushed from {from} to {to}: {n} wounds.', p.wounds, { warrior: n(p.target), from: p.frm, to: (p.path || []).slice(-1)[0] || p.frm });
    case 'star_chosen': return said(e) || (p.choice ? t('A star is spent.') : t('Star: {choice}.', { choice: t('none applies') }));
    case 'fallback_used': return p.applied ? t('Fallback {name}.', { name: p.name }) : t('Fallback {name} (already used this turn).', { name: p.name });
    case 'ability_done': return said(e) || (p.skipped ? t('{ability} left unused.', { ability: p.ability }) : t('{ability} done.', { ability: p.ability }));
    case 'card_resolved': return t('{card} is exhausted.', { card: cname(view, p.card) });
    case 'refreshed': return p.refreshed ? (p.side === 'human' ? t('You refresh the exhausted cards.') : t('The Emperor refreshes the exhausted cards.'))
      : tn('The Emperor does not refresh ({n} prepared card, more than {max}).', 'The Emperor does not refresh ({n} prepared cards, more than {max}).', p.prepared, { max: p.refresh_value });
    case 'swapped': return t('{warrior} swaps places with {other}.', { warrior: n(p.warrior), other: n(p.other) });
    case 'warrior_healed': return t('{warrior} heals {n}.', { warrior: n(p.warrior), n: p.amount });
    case 'warrior_wounded': return tn('{warrior} takes {n} wound ({cause}).', '{warrior} takes {n} wounds ({cause}).', p.wounds, { warrior: n(p.warrior), cause: causeWord(p.cause) });
    case 'warrior_died': return t('{warrior} dies.', { warrior: n(p.warrior) });
    case 'locations_flipped': return t('{warrior} uses {locations} ({purpose}).', { warrior: n(p.warrior), locations: (p.locations || []).map((id) => (location(view, id) || { name: id }).name).join(', '), purpose: purposeWord(p.purpose) });
    case 'action_taken': return t('You take the {action} action.', { action: actionWord(p.action) });
    case 'game_won': return p.winner === 'human' ? t('You win: {reason}.', { reason: reasonWords(view, p.reason) }) : t('The Emperor wins: {reason}.', { reason: reasonWords(view, p.reason) });
    default: return e.type.replace(/_/g, ' ');
  }
}

// the steps whose rules are open stay open when the panel is drawn again (a feed update)
const openWhy = new Set();
function rulingBox(session, seq) {
  const box = h('div', { class: 'why-body' }, t('loading…'));
  const det = h('details', { class: 'why' }, h('summary', {}, t('Why? The rules of this step')), box);
  det.addEventListener('toggle', async () => {
    if (det.open) openWhy.add(seq); else openWhy.delete(seq);
    if (!det.open || det.__done) return;
    det.__done = true;
    try {
      const r = await session.ruling(seq);
      box.replaceChildren(h('ol', {}, (((r && r.ruling) || r || {}).steps || []).map((s) => h('li', {},
        h('a', { href: s.rule_url || `/rulesets/emperor/rules/${s.rule}`, target: '_blank', rel: 'noopener' }, s.rule), ' ', s.text))));
    } catch (err) {
      box.textContent = t('The ruling could not be loaded.');
      det.__done = false;
    }
  });
  if (openWhy.has(seq)) det.open = true;
  return det;
}

function emperorTurn(view, session) {
  if (!session) return null;
  const evs = [...session.events.values()].filter((e) => !e.undone && e.type !== 'undone').sort((a, b) => a.seq - b.seq);
  let start = -1;
  for (let i = evs.length - 1; i >= 0; i--) {
    const p = evs[i].payload || {};
    if (evs[i].type === 'turn_started' && p.side === 'emperor') { start = i; break; }
  }
  const box = h('section', { class: 'emperor-turn', id: 'emperor-turn', 'aria-labelledby': 'h-emperor-turn' },
    h('h3', { id: 'h-emperor-turn' }, t("The Emperor's turn")));
  if (start < 0) { box.append(h('p', { class: 'muted' }, t('The Emperor has not played yet: it plays when your turn ends.'))); return box; }
  const steps = [];
  for (let i = start; i < evs.length; i++) {
    const e = evs[i];
    steps.push(e);
    if (e.type === 'turn_ended' && (e.payload || {}).side === 'emperor') break;
  }
  box.append(h('ol', { class: 'emperor-steps' }, steps.map((e) => h('li', { dataset: { seq: String(e.seq) } },
    h('span', {}, words(e, view)), rulingBox(session, e.seq)))));
  return box;
}

export function statusLines(view) {
  const s = st(view);
  const lines = [];
  if (s.turn) lines.push(s.turn.side === 'human' ? t('Turn {n}: your turn', { n: s.turn_number }) : t("Turn {n}: the Emperor's turn", { n: s.turn_number }));
  const owed = s.pending && (s.pending.kind === 'defend' ? t('your defence') : s.pending.kind.replace(/_/g, ' '));
  if (s.pending) lines.push(t('Waiting for you: {what}', { what: owed }));
  const ws = (s.warriors || []).filter((w) => w.kind === 'hero');
  if (ws.length) lines.push(ws.map((w) => `${w.name} ${w.left}/${w.health}`).join(' · '));
  if (s.winner) lines.push(`${s.winner === 'human' ? t('Result: you win') : t('Result: the Emperor wins')}${s.win_reason ? ` (${s.win_reason})` : ''}`);
  return lines;
}

export function textBoard(view) {
  const s = st(view);
  if (!s.warriors) return null;
  return [
    h('table', { class: 'units' }, h('caption', {}, t('Warriors')),
      h('thead', {}, h('tr', {}, [t('warrior'), t('side'), t('kind'), t('cell'), t('health left'), t('movement')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, s.warriors.map((w) => h('tr', {}, h('td', {}, w.name), h('td', { dataset: { side: w.side } }, seatName('emperor', w.side)), h('td', {}, w.kind),
        h('td', {}, w.cell || t('gone')), h('td', {}, t('{n} of {max}', { n: w.left, max: w.health })), h('td', {}, String(w.movement)))))),
    h('ul', { 'aria-label': t('Hazards and locations') },
      bf(view).hazards.map((z) => h('li', {}, t('Hazard {name} ({id}) on {cell}', { name: z.name, id: z.id, cell: z.cell }), z.active ? '' : ` (${t('off')})`)),
      bf(view).locations.map((l) => h('li', {}, `${t('Location {name} ({id}) on {cell}', { name: l.name, id: l.id, cell: l.cell })}: ${l.bonuses.map((b) => `${BONUS_SYMBOLS()[b.symbol] || b.symbol}${b.count > 1 ? ' x' + b.count : ''}`).join(', ')}${l.ability ? `; ${l.ability.name}: ${l.ability.text}` : ''}${l.face_up ? '' : ` (${t('flipped')})`}`))),
  ];
}

// The picture (in play and in the replay) is the grid alone, as large as the frame allows (its small print legible at
// 1x): the server's side panel (the order card and compass, the heroes' cards, which the hand and "The
// Emperor's cards" show too) and the line under the grid move out of the picture into the page, in words.
const LEGIBLE_VH = 72; // the grid's height at most this much of the window: it stays in view whole
export function board({ svg }) {
  if (!svg || svg.__dressed) return;
  svg.__dressed = true;
  const cells = [...svg.querySelectorAll('rect.cell-hit')];
  if (!cells.length) return;
  const num = (e, a) => Number(e.getAttribute(a)) || 0;
  const left = Math.min(...cells.map((r) => num(r, 'x')));
  const right = Math.max(...cells.map((r) => num(r, 'x') + num(r, 'width')));
  const bottom = Math.max(...cells.map((r) => num(r, 'y') + num(r, 'height')));
  const panel = [];
  let lastMove = null;
  for (const e of [...svg.children]) {
    if (e.tagName === 'defs' || e.tagName === 'title') continue;
    const b = e.getBBox();
    if (b.x >= right + 2) panel.push(e);
    else if (e.tagName === 'text' && b.y >= bottom + 2) lastMove = e;
  }
  // the panel's texts by what they are (their class), in whatever language the server wrote them
  const texts = panel.filter((e) => e.tagName === 'text');
  const order = texts.filter((e) => e.classList.contains('order-line')).map((e) => e.textContent.trim());
  const deck = texts.filter((e) => e.classList.contains('order-deck')).map((e) => e.textContent.trim())[0];
  panel.forEach((e) => e.remove());
  if (lastMove) lastMove.remove();
  const w = right + left;
  const hgt = bottom + 14;
  svg.setAttribute('viewBox', `0 0 ${w} ${hgt}`);
  svg.style.maxWidth = `calc(${((w / hgt) * LEGIBLE_VH).toFixed(1)}vh * var(--zoom, 1))`;
  const title = svg.querySelector('text');
  if (title && title.getBBox().width > w - left) title.setAttribute('font-size', String(Math.floor(16 * (w - left) / title.getBBox().width)));
  const frame = svg.closest('.board-frame');
  if (!frame) return;
  const move = lastMove ? (lastMove.querySelector('.last-move') || lastMove).textContent.trim() : '';
  const id = frame.id === 'board' ? 'emperor-order' : `${frame.id}-order`; // the play view's, the replay's
  const box = h('div', { class: 'emperor-order small', id, dataset: { source: 'board.svg' } },  // the server's words, moved
    order.length ? h('p', {}, h('strong', {}, t('Order card'), ' '), order.join(' · '), deck ? ` · ${deck.replace(/\s+/g, ' ')}` : '') : null,
    move ? h('p', {}, `${move}. `, t('On the grid: tinted, the cells it could reach; dashed, the cells it could choose; bold, both.')) : null);
  const old = document.getElementById(id);
  if (old) old.replaceWith(box); else frame.after(box);
}

export default { id: 'emperor', describe, warningOf, interact, handPanel, statusLines, textBoard, onBoardOrHand, board, dress: (svg) => board({ svg }), zooms: [1, 1.5, 2, 3], phoneZoom: 2 };

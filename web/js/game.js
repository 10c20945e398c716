// The game screen: the board with the caller's legal commands as things to do on it, the hand,
// whose turn and what is awaited, undo with its cost, and the Replay and Fairness tabs.
import { h, clear, announce, shortId } from './dom.js';
import { problemText, ApiError } from './api.js';
import { Session, metrics } from './session.js';
import { mountSvg, makeInteractive, setZoom } from './board.js';
import { commandButton, commandList, describe, templateForm, warningOf, wordsOf } from './commands.js';
import { pluginFor } from './rulesets/index.js';
import { rulesets } from './lobby.js';
import { commandGroups, undoCost, isKernelType } from './undo.js';
import { renderReplay, whoHead } from './replay.js';
import { renderFairness } from './fairness.js';
import { choicesLine, headerChoices } from './choices.js';
import * as tokens from './tokens.js';
import { t, tn } from './i18n.js';
import { seatName, seatNames } from './seats.js';

let current = null;

export function stopGame() {
  if (current) current.stop();
  current = null;
  delete document.body.dataset.version;
  delete document.body.dataset.status;
}

export async function renderGame(root, gameId, params) {
  stopGame();
  const known = tokens.seatsOf(gameId);
  let seat = params.get('seat');
  if (seat && !known[seat]) seat = null;
  const token = seat ? known[seat] : null;
  const session = new Session(gameId, seat, token);
  current = session;
  const plugin = { ...(pluginFor(null) || {}) };
  const tab = params.get('tab') || 'play';

  const alertBox = h('div', { class: 'alert', role: 'alert', id: 'alert' });
  const statusBox = h('div', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const feedBadge = h('span', { class: 'feed', id: 'feed-state' }, t('connecting…'));
  const seatPick = h('select', { id: 'seat-pick', 'aria-label': t('Play as') },
    h('option', { value: '' }, t('spectator')), Object.keys(known).map((s) => h('option', { value: s, selected: s === seat }, s)));
  seatPick.addEventListener('change', () => {
    location.hash = `#/game/${encodeURIComponent(gameId)}${seatPick.value ? `?seat=${encodeURIComponent(seatPick.value)}` : ''}`;
  });
  const panels = { play: h('section', { id: 'panel-play', role: 'tabpanel', 'aria-labelledby': 'tab-play' }),
    replay: h('section', { id: 'panel-replay', role: 'tabpanel', 'aria-labelledby': 'tab-replay' }),
    fairness: h('section', { id: 'panel-fairness', role: 'tabpanel', 'aria-labelledby': 'tab-fairness' }) };
  const tabButtons = Object.keys(panels).map((k) => h('button', {
    type: 'button', role: 'tab', id: `tab-${k}`, 'aria-controls': `panel-${k}`, class: 'tab',
    onclick: () => showTab(k),
  }, { play: t('Play'), replay: t('Replay'), fairness: t('Fairness') }[k]));
  const tabList = h('div', { role: 'tablist', 'aria-label': t('Game views'), class: 'tabs' }, tabButtons);
  tabList.addEventListener('keydown', (e) => {
    const i = tabButtons.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const j = (i + (e.key === 'ArrowRight' ? 1 : tabButtons.length - 1)) % tabButtons.length;
      tabButtons[j].focus();
      tabButtons[j].click();
      e.preventDefault();
    }
  });

  const title = h('h1', { id: 'game-title' }, t('Game {id}', { id: shortId(gameId) }));
  const choicesBox = h('div', { id: 'game-choices-box' });
  clear(root,
    h('div', { class: 'game-head' }, h('a', { href: '#/', class: 'back' }, t('← Lobby')), title,
      h('span', { class: 'who' }, h('label', { for: 'seat-pick' }, t('You are'), ' '), seatPick), feedBadge),
    choicesBox, statusBox, alertBox, h('h2', { class: 'visually-hidden' }, t('Game views')), tabList, panels.play, panels.replay, panels.fairness);

  let shown = null;
  const opened = new Set();
  function showTab(k) {
    shown = k;
    for (const [name, p] of Object.entries(panels)) p.hidden = name !== k;
    tabButtons.forEach((b) => {
      const on = b.id === `tab-${k}`;
      b.setAttribute('aria-selected', on ? 'true' : 'false');
      b.tabIndex = on ? 0 : -1;
    });
    const q = new URLSearchParams(params);
    if (k === 'play') q.delete('tab'); else q.set('tab', k);
    if (k !== 'replay') q.delete('at');
    history.replaceState(null, '', `#/game/${encodeURIComponent(gameId)}${q.toString() ? '?' + q : ''}`);
    openPanel();
  }
  // Replay and Fairness need the game's view and log: they are drawn once the session has both.
  let ready = false;
  function openPanel() {
    const k = shown;
    if (!ready) return;
    if (!opened.has(k)) {
      opened.add(k);
      if (k === 'replay') renderReplay(session, panels.replay, params.get('at'), plugin);
      if (k === 'fairness') renderFairness(session, panels.fairness);
    }
    if (k === 'fairness' && panels.fairness.__refresh) panels.fairness.__refresh();
  }

  const play = buildPlay(session, panels.play, plugin, alertBox);
  // What stands above the board (the ruleset's printed title, the rule choices line, several lines high)
  // is fetched beside the first view and drawn with the first board, never after it: the board does not
  // move once shown, so a press aimed at a piece lands on it.
  let above = null;
  let waiting = false;
  let aboveDrawn = false;
  const aboveReady = Promise.all([headerChoices(session).catch(() => null), rulesets().catch(() => [])])
    .then(([choices, found]) => {
      const all = Array.isArray(found) ? found : [];
      for (const r of all) rulesetTitles.set(r.id, r.title || r.id);
      above = { choices, all };
    });
  function draw() {
    if (current !== session || !session.view) return;
    const v = session.view;
    if (!above) {  // the first board waits for what goes above it
      if (!waiting) { waiting = true; aboveReady.then(() => { waiting = false; draw(); }); }
      return;
    }
    if (!aboveDrawn) {
      aboveDrawn = true;
      for (const o of seatPick.options) if (o.value) o.textContent = seatName(v.ruleset, o.value);  // names known now
      clear(choicesBox, choicesLine(v.ruleset, above.choices, above.all.find((r) => r.id === v.ruleset)));
    }
    document.body.dataset.version = String(v.version);
    document.body.dataset.status = v.status;
    Object.assign(plugin, pluginFor(v.ruleset) || {});
    // the ruleset's printed title (GET /rulesets), never its id
    const name = rulesetTitles.get(v.ruleset) || v.ruleset;
    title.textContent = `${name} · ${scenarioTitle(v)} · ${t('game {id}', { id: shortId(gameId) })}`;
    document.title = `${name} ${shortId(gameId)} — umpire`;
    clear(statusBox, statusLine(session, plugin));
    play.update();
    if (panels.fairness.__refresh && shown === 'fairness') panels.fairness.__refresh();
    if (panels.replay.__follow) panels.replay.__follow();
  }
  session.on((what) => {
    if (what && what.error) { alertBox.textContent = t('Could not bring the game up to date: {problem}', { problem: problemText(what.error) }); return; }
    if (what === 'feed') {
      feedBadge.textContent = { live: t('live'), ended: t('game over') }[session.feedState] || t('reconnecting…');
      feedBadge.dataset.state = session.feedState;
      return;
    }
    if (what === 'state') draw();
  });
  showTab(['play', 'replay', 'fairness'].includes(tab) ? tab : 'play');
  try {
    await session.start();
    await aboveReady;
    ready = true;
    openPanel();
  } catch (err) {
    alertBox.textContent = err instanceof ApiError && err.status === 404 ? t('There is no game {id}.', { id: gameId }) : problemText(err);
  }
}

// The winner tied to the players (DESIGN 12): a side names its seats (smoke: "vertumn (player-2)"),
// the Emperor's one seat is "you", the automaton "the Emperor".
function winnerText(v, you) {
  const st = v.state || {};
  const seats = st.sides && st.sides[v.winner];
  if (Array.isArray(seats) && seats.length) {
    const side = sideTitle(v, v.winner);
    return you && seats.includes(you) ? t('{side} ({seats}: you)', { side, seats: seatNames(v.ruleset, seats) })
      : t('{side} ({seats})', { side, seats: seatNames(v.ruleset, seats) });
  }
  const who = seatName(v.ruleset, v.winner);
  return v.winner === you ? t('{seat} (you)', { seat: who }) : who;
}

// A side by its printed name where the view has one (Clouds of Smoke's battle sides), else in words.
function sideTitle(v, side) {
  const printed = ((v.state && v.state.battle && v.state.battle.sides) || []).find((x) => x.id === side);
  return printed && printed.name ? printed.name : seatName(v.ruleset, side);
}

function statusLine(session, plugin) {
  const v = session.view;
  const you = session.seat;
  const lines = [];
  // a ruleset's status names "draw" as the winner of a drawn game (SMOKE-VIC-3) unless a side is called so
  const drawn = v.winner === 'draw' && !(v.state && v.state.sides && v.state.sides.draw);
  const won = v.winner && v.ruleset === 'emperor' && v.winner === you;
  if (v.status === 'finished') lines.push(h('strong', {}, drawn ? t('Finished: a draw.') : won ? t('Finished: you win.') : v.winner ? t('Finished: {winner} wins.', { winner: winnerText(v, you) }) : t('Finished.')));
  else if (v.status === 'waiting') lines.push(h('strong', {}, t('Waiting for every seat to be ready.')));
  else {
    const toAct = v.to_act || (v.active_seat ? [v.active_seat] : []);
    const mine = you && toAct.includes(you);
    lines.push(h('strong', { class: mine ? 'your-turn' : '' }, mine ? t('Your decision.') : toAct.length ? t('Waiting for {seats}.', { seats: seatNames(v.ruleset, toAct) }) : t('Nobody to act.')));
  }
  const pend = session.pendingUndo();
  if (pend) lines.push(h('span', { class: 'pending-undo' }, ' ', t('{seat} asks to undo back to version {version}.', { seat: seatName(v.ruleset, pend.by), version: pend.to_version })));
  const extra = plugin.statusLines ? plugin.statusLines(v) : [t('turn {n}', { n: v.turn })];
  return [h('p', {}, lines), extra.length ? h('p', { class: 'muted' }, extra.join(' · ')) : null, h('p', { class: 'muted small' }, you ? t('version {version} · you are {seat}', { version: v.version, seat: seatName(v.ruleset, you) }) : t('version {version} · you are a spectator', { version: v.version }))];
}

function buildPlay(session, panel, plugin, alertBox) {
  let selected = null;
  let busy = false;
  let firstBoardDone = false;
  // focusable so that the keyboard can scroll a zoomed board even when nothing on it can be chosen
  const frame = h('div', { class: 'board-frame', id: 'board', tabindex: 0, role: 'region', 'aria-label': t('Board (scrollable)') });
  // zoom levels: a ruleset may ask for its own (smoke's table is large: a phone starts enlarged more)
  const zoomBox = h('div', { class: 'zooms', role: 'group', 'aria-label': t('Zoom') });
  let zoomKey = null;
  function zooms(levels, phone) {
    if (zoomKey === levels.join(',')) return;
    zoomKey = levels.join(',');
    const buttons = levels.map((z) => h('button', { type: 'button', class: 'zoom', onclick: () => pick(z) }, `${z}×`));
    function pick(z) {
      setZoom(frame, z);
      buttons.forEach((b) => b.setAttribute('aria-pressed', b.textContent === `${z}×` ? 'true' : 'false'));
    }
    clear(zoomBox, t('Zoom'), ' ', buttons);
    // a phone gets the picture enlarged (it scrolls sideways inside its frame, not the page)
    pick(frame.clientWidth && frame.clientWidth < 520 ? phone : 1);
  }
  const hint = h('p', { class: 'hint', id: 'board-hint', 'aria-live': 'polite' });
  const bar = h('div', { class: 'bar', id: 'selection-bar' });
  const textAlt = h('details', { class: 'text-board' }, h('summary', {}, t('The board in words')), h('div', { id: 'board-text' }));
  const side = h('div', { class: 'side' });
  clear(panel, h('div', { class: 'play-grid' },
    h('div', { class: 'board-col' }, zoomBox, frame, hint, bar, textAlt),
    side));
  zooms([1, 1.5, 2], 1.5);

  // while a command is on its way (and the board it leads to is fetched) the board takes no other click:
  // the page says so (aria-busy on the board, data-busy on the body)
  function setBusy(on) {
    busy = on;
    frame.setAttribute('aria-busy', on ? 'true' : 'false');
    if (on) document.body.dataset.busy = 'true';
    else delete document.body.dataset.busy;
  }

  async function post(cmd, how = () => session.command(cmd)) {
    if (busy) return;
    setBusy(true);
    const t0 = performance.now();
    const said = describe(cmd, plugin, session.view, wordsOf(session.legal));
    alertBox.textContent = '';
    try {
      const res = await how();
      selected = null;
      await session.refresh();
      metrics.clicks.push(performance.now() - t0);
      performance.measure?.('umpire:click-to-board', { start: t0, end: performance.now() });
      if (res && res.undo === 'requested') announce(t('Undo requested: waiting for the other side.'));
      else announce(t('Done: {what}', { what: said }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        alertBox.textContent = t('The game moved on before your command arrived; the board is up to date now, try again.');
        await session.refresh();
      } else {
        alertBox.textContent = problemText(err) + (err.rule ? ` (${t('rule {id}', { id: err.rule })})` : '');
      }
    } finally {
      setBusy(false);
      update();
    }
  }

  function select(sel) {
    selected = sel;
    update();
  }

  function update() {
    const v = session.view;
    if (!v) return;
    const focus = focusKeyOf(panel, document.activeElement);
    const cmds = (session.legal && session.legal.commands) || [];
    const said = wordsOf(session.legal);  // the ruleset's label and warning of each command
    const button = (c, attrs = {}) => commandButton(c, post, describe(c, plugin, v, said), warningOf(c, said), attrs);
    zooms(plugin.zooms || [1, 1.5, 2], plugin.phoneZoom || 1.5);
    const svg = mountSvg(frame, session.svg, t('Board at version {version}', { version: v.version }));
    if (svg && !firstBoardDone) {
      firstBoardDone = true;
      if (metrics.firstBoard == null) metrics.firstBoard = performance.now();
      performance.mark?.('umpire:first-board');
    }
    // the board's things to do (a ruleset with its own helper), else nothing is clickable on it
    let offer = { targets: [], bar: [], hint: '' };
    if (plugin.interact && cmds.length) {
      if (selected && !cmds.some((c) => c.unit === selected.id || c.card === selected.id || c.warrior === selected.id || c.target === selected.id)) selected = null;
      offer = plugin.interact({ view: v, cmds, selected, legal: session.legal });
    }
    makeInteractive(svg, offer.targets, (tg) => {
      if (tg.kind === 'select') { select(tg.selected ? null : { kind: 'unit', id: tg.key.slice(tg.key.indexOf(':') + 1) }); return; }
      // a choice with a consequence to see first (a ruleset's warning) is confirmed in place
      const warning = tg.commands.length === 1 && plugin.warningOf ? plugin.warningOf(tg.commands[0], v) : null;
      if (warning) {
        clear(bar, h('p', { class: 'warning', id: 'move-warning', role: 'alert' }, warning),
          h('button', { type: 'button', id: 'confirm-warning', dataset: { command: JSON.stringify(tg.commands[0]) }, onclick: () => post(tg.commands[0]) }, t('{command} anyway', { command: describe(tg.commands[0], plugin, v) })),
          h('button', { type: 'button', class: 'link', onclick: () => update() }, t('Cancel')));
        bar.querySelector('#confirm-warning').focus();
        return;
      }
      if (tg.commands.length === 1) { post(tg.commands[0]); return; }
      const warns = plugin.warningOf ? [...new Set(tg.commands.map((c) => plugin.warningOf(c, v)).filter(Boolean))] : [];
      clear(bar, h('p', {}, t('{what}: choose one', { what: tg.label })), warns.map((w) => h('p', { class: 'warning', role: 'alert' }, w)), tg.commands.map((c) => button(c)));
      bar.querySelector('[data-command]')?.focus();
    });
    hint.textContent = offer.hint || (cmds.length ? '' : session.seat ? t('Nothing for you to do now.') : t('You are watching.'));
    clear(bar, offer.bar.map((c) => button(c)),
      selected ? h('button', { type: 'button', class: 'link', onclick: () => select(null) }, t('Cancel selection')) : null);
    // a ruleset that acts on the picture itself (smoke: drag and rotate, checked by the dry run)
    if (plugin.board) plugin.board({ svg, view: v, legal: session.legal, seat: session.seat, api: session.api, path: (r) => session.path(r), post, hint, bar });
    const textEl = textAlt.querySelector('#board-text');
    const words = plugin.textBoard ? plugin.textBoard(v) : null;
    clear(textEl, words || svgTitles(svg));

    // the side: readiness, hand, actions, undo, every legal command, templates
    const parts = [];
    if (v.status === 'waiting' && session.seat) parts.push(readyBox(session, alertBox));
    if (plugin.handPanel) parts.push(h('section', { class: 'hand-box', 'aria-label': t('Cards') }, plugin.handPanel({ view: v, seat: session.seat, cmds, post, select, selected, session, legal: session.legal })));
    else if (v.state && v.state.hands) parts.push(h('section', { class: 'hand-box' }, h('h3', {}, t('Hands')), genericHands(v.state.hands, session.seat, v.ruleset)));
    const actions = plugin.onBoardOrHand ? cmds.filter((c) => !plugin.onBoardOrHand(c)) : cmds;
    if (actions.length && plugin.interact) {
      parts.push(h('section', { 'aria-labelledby': 'h-actions' }, h('h3', { id: 'h-actions' }, t('Actions')),
        h('div', { class: 'actions' }, actions.map((c) => button(c, { class: 'action' })))));
    }
    const templates = (session.legal && session.legal.templates) || [];
    if (templates.length) {
      parts.push(h('section', { 'aria-labelledby': 'h-templates' }, h('h3', { id: 'h-templates' }, t('Measured commands')),
        templates.map((tpl, i) => templateForm(tpl, i, { onPost: (c) => post(c), onDryRun: (c) => dryRun(session, c) }))));
    }
    // a ruleset whose table has a control for a command (plugin.onTable) lists only the others here
    const rest = plugin.onTable ? cmds.filter((c) => !plugin.onTable(c, session.legal)) : cmds;
    if (rest.length) {
      const list = commandList(rest, post, plugin, v, { words: said });
      parts.push(plugin.interact
        ? h('details', { class: 'all-cmds' }, h('summary', {}, t('All legal commands ({n})', { n: cmds.length })), list)
        : h('section', { 'aria-labelledby': 'h-cmds' }, h('h3', { id: 'h-cmds' }, plugin.onTable ? t('Other commands ({n})', { n: rest.length }) : t('Your legal commands ({n})', { n: cmds.length })), list));
    }
    if (session.seat && v.status !== 'finished') parts.push(undoBox(session, post));
    parts.push(recentBox(session));
    clear(side, parts);
    restoreFocus(panel, focus);
  }

  return { update };
}

// Keyboard users keep their place when the panel is redrawn (after a command, or a feed update).
function focusKeyOf(panel, el) {
  if (!el || el === document.body || !panel.contains(el)) return null;
  if (el.id) return { id: el.id };
  if (el.dataset && el.dataset.command) return { command: el.dataset.command };
  const piece = el.closest && el.closest('[data-warrior],rect.cell-hit[data-cell]');
  if (piece) return { board: piece.dataset.warrior ? `[data-warrior="${CSS.escape(piece.dataset.warrior)}"]` : `rect.cell-hit[data-cell="${CSS.escape(piece.dataset.cell)}"]` };
  const unit = el.closest && el.closest('[data-unit],[data-structure],polygon[data-hex]');
  if (unit) return { board: unit.dataset.unit ? `[data-unit="${CSS.escape(unit.dataset.unit)}"]` : unit.dataset.structure ? `[data-structure="${CSS.escape(unit.dataset.structure)}"]` : `polygon[data-hex="${CSS.escape(unit.dataset.hex)}"]` };
  return { text: el.textContent, tag: el.tagName };
}

function restoreFocus(panel, key) {
  if (!key) return;
  let el = null;
  if (key.id) el = panel.querySelector(`#${CSS.escape(key.id)}`);
  else if (key.command) el = [...panel.querySelectorAll('[data-command]')].find((x) => x.dataset.command === key.command);
  else if (key.board) el = panel.querySelector(key.board);
  else if (key.text) el = [...panel.querySelectorAll(key.tag)].find((x) => x.textContent === key.text);
  if (el && (el.tabIndex >= 0 || el.matches('button, a, input, select, textarea, summary'))) { el.focus({ preventScroll: true }); return; }
  // what had focus is gone (the command was done): go to the next thing to do
  const next = panel.querySelector('#board .act, .play-card, .action, #board-hint');
  if (next) { if (next.id === 'board-hint') next.tabIndex = -1; next.focus({ preventScroll: true }); }
}

function svgTitles(svg) {
  if (!svg) return [];
  const items = [...svg.querySelectorAll('title')].map((x) => x.textContent).filter(Boolean);
  return h('ul', {}, items.slice(0, 300).map((x) => h('li', {}, x)));
}

function genericHands(hands, seat, ruleset) {
  return h('ul', {}, Object.entries(hands).map(([s, v]) => h('li', { dataset: { seat: s } }, s === seat ? t('{seat} (you)', { seat: seatName(ruleset, s) }) : seatName(ruleset, s), ': ',
    Array.isArray(v) ? v.join(', ') : tn('{n} card', '{n} cards', v))));
}

async function dryRun(session, cmd) {
  try {
    await session.api.post(session.path('/commands?dry_run=true'), { command: cmd, expected_version: session.version });
    return { legal: true };
  } catch (err) {
    return { legal: false, reason: problemText(err) + (err.rule ? ` (${err.rule})` : '') };
  }
}

function readyBox(session, alertBox) {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  const input = h('input', { id: 'client-seed', type: 'text', value: [...b].map((x) => x.toString(16).padStart(2, '0')).join(''), pattern: '[A-Za-z0-9_-]{1,64}', maxlength: 64 });
  return h('form', { class: 'ready', onsubmit: async (e) => {
    e.preventDefault();
    try { await session.ready(input.value.trim()); await session.refresh(); } catch (err) { alertBox.textContent = problemText(err); }
  } }, h('h3', {}, t('Ready?')),
  h('p', {}, t('Your client seed is mixed into every roll and shuffle of this game; the server committed to its own seed before it sees yours.')),
  h('label', { for: 'client-seed' }, t('Client seed'), ' '), input, ' ', h('button', { type: 'submit' }, t('I am ready')));
}

function recentBox(session) {
  const evs = [...session.events.values()].sort((a, b) => b.seq - a.seq).slice(0, 8);
  return h('section', { 'aria-labelledby': 'h-recent' }, h('h3', { id: 'h-recent' }, t('Latest steps')),
    h('ol', { class: 'recent', reversed: true }, evs.map((e) => h('li', { value: e.seq, class: e.undone ? 'undone' : '' },
      whoHead(e) ? h('span', { class: 'who' }, whoHead(e)) : '', e.summary || e.type.replace(/_/g, ' '), e.undone ? ` — ${t('undone')}` : ''))));
}

// The scenario's printed title (the ruleset's view has it), else its id.
/** Ruleset id -> its printed title, filled from GET /rulesets once. */
const rulesetTitles = new Map();

function scenarioTitle(v) {
  const st = v.state || {};
  return (st.scenario && st.scenario.title) || st.title || (st.battle && st.battle.title) || v.scenario;
}

// Undo: choose a command boundary; the cost (free, or needs consent) is worked out before asking,
// when the Undo section is opened (it stays open across updates).
const undoState = { open: false };
function undoBox(session, post) {
  const pend = session.pendingUndo();
  if (pend) {
    const box = h('section', { class: 'undo', 'aria-labelledby': 'h-undo' }, h('h3', { id: 'h-undo' }, t('Undo')));
    return undoPending(box, session, post, pend);
  }
  const box = h('details', { class: 'undo', id: 'undo', open: undoState.open }, h('summary', { id: 'h-undo' }, t('Undo…')));
  box.addEventListener('toggle', () => {
    undoState.open = box.open;
    if (box.open && box.__work) box.__work();
  });
  return undoChoices(box, session, post);
}

function undoPending(box, session, post, pend) {
  // the server lists undo_accept only for a seat of a side that must still answer (never a teammate)
  const canAnswer = ((session.legal && session.legal.commands) || []).some((c) => c.type === 'undo_accept');
  const by = seatName(session.view && session.view.ruleset, pend.by);
  if (pend.by === session.seat) box.append(h('p', {}, t('You asked to undo back to version {version}: waiting for the other side.', { version: pend.to_version })));
  else if (!canAnswer) box.append(h('p', {}, t("{seat} asks to undo back to version {version}: waiting for the other side's answer.", { seat: by, version: pend.to_version })));
  else {
    box.append(h('p', {}, t('{seat} asks to undo back to version {version}.', { seat: by, version: pend.to_version })),
      h('button', { type: 'button', id: 'undo-accept', onclick: () => post({ type: 'undo_accept' }, () => session.answerUndo(true)) }, t('Accept')), ' ',
      h('button', { type: 'button', id: 'undo-decline', onclick: () => post({ type: 'undo_decline' }, () => session.answerUndo(false)) }, t('Decline')));
  }
  return box;
}

function undoChoices(box, session, post) {
  const events = [...session.events.values()].sort((a, b) => a.seq - b.seq);
  const groups = commandGroups(events.filter((e) => !e.undone)).filter((g) => g.actor && !g.types.every(isKernelType));
  const choices = groups.slice(-8).reverse();
  if (!choices.length) { box.append(h('p', { class: 'muted' }, t('Nothing to undo yet.'))); return box; }
  const mineFirst = choices.find((g) => g.actor === session.seat) || choices[0];
  const sel = h('select', { id: 'undo-to', 'aria-label': t('Undo back to') }, choices.map((g) => {
    const what = g.types.filter((x) => !isKernelType(x))[0].replace(/_/g, ' ');
    const at = { what, seat: seatName(session.view && session.view.ruleset, g.actor), step: g.first, version: g.first - 1 };
    return h('option', { value: String(g.first - 1), selected: g === mineFirst },
      g.actor === session.seat ? t('before your {what} (step {step}; back to version {version})', at)
        : t("before {seat}'s {what} (step {step}; back to version {version})", at));
  }));
  const cost = h('p', { class: 'cost', id: 'undo-cost', 'aria-live': 'polite' }, t('working out the cost…'));
  const go = h('button', { type: 'button', id: 'undo-go', onclick: () => post({ type: 'undo', to_version: Number(sel.value) }, () => session.undo(Number(sel.value))) }, t('Undo'));
  const work = async () => {
    const to = Number(sel.value);
    cost.textContent = t('working out the cost…');
    try {
      const [tl, spect] = await Promise.all([session.loadTimeline(), session.spectatorEventsAfter(to)]);
      const turnOf = new Map(tl.steps.map((s) => [s.seq, s.turn]));
      const after = events.filter((e) => e.seq > to && !isKernelType(e.type));
      const rulings = await Promise.all(after.slice(0, 60).map((e) => session.ruling(e.seq).then((r) => [e.seq, r]).catch(() => [e.seq, null])));
      const rollsOf = new Map(rulings.map(([s, r]) => [s, r && r.rolls]));
      const hidden = new Map(spect.map((e) => [e.seq, !!e.redacted]));
      const curTurn = turnOf.get(session.version) ?? session.view.turn;
      const res = undoCost({ seat: session.seat, turn: curTurn, events, turnOf: (s) => turnOf.get(s), rollsOf: (s) => rollsOf.get(s), hiddenOf: (s) => hidden.get(s) || false }, to);
      if (res.nothing) { cost.textContent = t('Nothing to undo after that version.'); go.disabled = true; return; }
      go.disabled = false;
      cost.dataset.free = res.free ? 'true' : 'false';
      cost.textContent = res.free
        ? t('Expected: free (only your own steps of this turn, nothing revealed). The server decides.')
        : t("Expected: needs the other side's consent ({reasons}). The server decides.", { reasons: res.reasons.slice(0, 3).join('; ') + (res.reasons.length > 3 ? '; …' : '') });
      go.textContent = res.free ? t('Undo') : t('Ask to undo');
    } catch (err) {
      cost.textContent = t('Cost unknown ({problem}); the server decides.', { problem: problemText(err) });
    }
  };
  sel.addEventListener('change', work);
  box.__work = work;
  if (box.open) work();
  box.append(h('label', { for: 'undo-to' }, t('Back to'), ' '), sel, cost, go);
  return box;
}


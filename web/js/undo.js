// What an undo would cost, worked out in the browser from the events before it is asked
// (DESIGN 5): free when every game event after the target version is the caller's own, of the
// current turn, and nothing was revealed (no die rolled, no hidden information: an event a
// spectator sees redacted); otherwise the other side must consent. The server decides: this is
// the client's forecast, shown as such.

// Kernel bookkeeping events (undo requests and answers, the game header, readiness) are no game step.
export function isKernelType(type) {
  return typeof type === 'string' && (type.startsWith('undo') || type === 'game_created' || type.startsWith('seat_ready')
    || type === 'ready' || type === 'undone');
}

// Events of one command share actor and recorded_at (one append): [{first, last, actor, recorded_at, types}].
export function commandGroups(events) {
  const out = [];
  for (const e of events) {
    const g = out[out.length - 1];
    if (g && g.actor === e.actor && g.recorded_at === e.recorded_at && e.seq === g.last + 1) {
      g.last = e.seq; g.types.push(e.type);
    } else {
      out.push({ first: e.seq, last: e.seq, actor: e.actor, recorded_at: e.recorded_at, types: [e.type] });
    }
  }
  return out;
}

// facts: {seat, turn (current), events (as the caller sees them, with undone flags),
//         turnOf: seq -> turn, rollsOf: seq -> rolls[], hiddenOf: seq -> bool}
export function undoCost(facts, toVersion) {
  const reasons = [];
  const after = facts.events.filter((e) => e.seq > toVersion && !e.undone && !isKernelType(e.type));
  if (!after.length) return { free: false, nothing: true, reasons: ['nothing to undo after that version'] };
  for (const e of after) {
    if (e.actor !== facts.seat) { reasons.push(`step ${e.seq} (${e.type}) is not yours`); continue; }
    const t = facts.turnOf(e.seq);
    if (t != null && facts.turn != null && t !== facts.turn) reasons.push(`step ${e.seq} is of turn ${t}, not this turn`);
    const rolls = facts.rollsOf(e.seq);
    if (rolls && rolls.length) reasons.push(`step ${e.seq} rolled ${rolls.length} ${rolls.length === 1 ? 'die' : 'dice'}`);
    if (facts.hiddenOf(e.seq)) reasons.push(`step ${e.seq} (${e.type}) revealed hidden information`);
  }
  return { free: reasons.length === 0, reasons };
}

"""Bombardment (SMOKE-BOMB, SMOKE-MP-5, SMOKE-TERR-2/3/4/7/8, SMOKE-SR-2..4/8/10/18)."""
from __future__ import annotations

from typing import Any

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .events import BombardmentAimed, BombardmentRolled, LossTaken
from domain.kernel.choices import phrase_message

from .choices import BOMBARD, CHOICES, VIEW_INSIDE, choice, cite
from .fire import ELEVATION_RANGE_BONUS, _could_reach, describe, line_of_fire, on_elevation, view_inside_text
from .formations import formations, rear_partners
from .geometry import EPS, box_distance
from .layouts import keep, recent
from .seat_words import seat_words
from .state import Losses, SmokeState, Unit, memo
from .units import bombardment_of, has
from .fire import contact_enemies
from .retreat import retreat_refusal
from .morale import lose_morale
from .retreat import roll_retreat_distance

#: SMOKE-BOMB-4: formation sizes above which each bombarding unit adds a die.
SIZE_STEPS = (5, 10, 15)
#: SMOKE-BOMB-6: every full this many points of the total is one loss.
LOSS_STEP = 10


def _moved(state: SmokeState) -> tuple[str, ...]:
    return state.turn.moved if state.turn is not None else ()


def refusal(state: SmokeState, u: Unit) -> tuple[str, str] | None:
    """SMOKE-BOMB-2: why ``u`` cannot bombard now (rule, reason), or None."""
    return memo(state, "bomb_refusal", lambda: _refusal(state, u), u.id, _moved(state))


def _refusal(state: SmokeState, u: Unit) -> tuple[str, str] | None:
    if bombardment_of(state, u) is None:
        if has(state, u, "immobile") and state.profiles[u.profile].bombardment is not None:
            return "SMOKE-SR-18", msg("{unit} is Immobile and moved this turn", unit=u.id)
        return "SMOKE-BOMB-1", msg("{unit} has no Bombardment ability", unit=u.id)
    t = state.terrain()
    b = u.box()
    vd = t.partially_in(b, "very_difficult")
    if vd:
        return "SMOKE-TERR-2", msg("{unit} is in very difficult terrain ({elements})", unit=u.id, elements=", ".join(vd))
    cv = t.partially_in(b, "cover")
    if cv:
        return "SMOKE-TERR-3", msg("{unit} is in terrain with cover ({elements})", unit=u.id, elements=", ".join(cv))

    enemies = contact_enemies(state, u)
    if enemies:
        return "SMOKE-BOMB-2", msg("{unit} is in fire contact with {enemy} (SMOKE-LOF-4: Fire ranges only)",
                                   unit=u.id, enemy=enemies[0])
    return None


def eligible(state: SmokeState, seat: str) -> list[Unit]:
    return [u for u in sorted(state.units.values(), key=lambda u: u.id)
            if u.seat == seat and state.profiles[u.profile].bombardment is not None and refusal(state, u) is None]


def targets(state: SmokeState, u: Unit) -> dict[str, tuple[tuple[str, ...], dict[str, Any]]]:
    """SMOKE-BOMB-3: enemy formations with a unit in the sector, in bombardment range, with clear
    corner lines (INFERRED: conditions (b)2-4 of SMOKE-LOF-2 with the bombardment range)."""
    return memo(state, "bomb_targets", lambda: _targets(state, u), u.id, _moved(state))


def _targets(state: SmokeState, u: Unit) -> dict[str, tuple[tuple[str, ...], dict[str, Any]]]:
    out: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {}
    bo = bombardment_of(state, u)
    if bo is None:
        return out
    lines: dict[str, tuple] = {}
    reach = bo.range + ELEVATION_RANGE_BONUS
    if not any(_could_reach(u, e, reach) and state.enemy(u, e) for e in state.units.values()):
        # no enemy unit may be in range: no formation has a member to measure (the formations are not needed)
        keep(state, ("bomb_lines", u.id), lines)
        return out
    # a line measured on the game's last layout is kept when nothing changed near u and e (domain/smoke/layouts.py)
    kept = recent(state, ("bomb_lines", u.id))
    for key, members in sorted(formations(state).items()):
        first = state.units[members[0]]
        if not state.enemy(u, first):
            continue
        for mid in members:
            e = state.units[mid]
            if not _could_reach(u, e, reach):
                continue
            got = kept.pair(mid, u, e) if kept is not None else None
            if got is None:
                got = (u, e, line_of_fire(state, u, e, mode="bombard", melee=False, ok_only=True))
            lines[mid] = got
            m = got[2]
            if m["ok"]:
                out[key] = (members, m)
                break
    keep(state, ("bomb_lines", u.id), lines)
    return out


def aim(out: Any, seat: str, uid: str, target: str) -> None:
    st: SmokeState = out.state
    u = st.units.get(uid)
    if u is None or u.seat != seat:
        raise RuleViolation("SMOKE-BOMB-1", msg("{unit} is not one of your units.", unit=repr(uid)), unit=uid)
    why = refusal(st, u)
    if why is not None:
        raise RuleViolation(why[0], msg("{why}: it cannot bombard.", why=why[1]), unit=uid)
    if uid in (st.turn.aims if st.turn else {}):
        raise RuleViolation("SMOKE-BOMB-3", msg("{unit} already has a target this turn.", unit=uid), unit=uid)
    opts = targets(st, u)
    key = next((k for k, (members, _) in opts.items() if target in members), None)
    if key is None:
        hidden = _hidden_inside(st, u, target)
        if hidden is not None:
            raise RuleViolation(VIEW_INSIDE, msg("under {choice}: {hidden}, so {unit} cannot aim at its formation.",
                                                 choice=phrase_message(CHOICES, VIEW_INSIDE, 'enter'), hidden=view_inside_text(hidden), unit=uid),
                                unit=uid, target=target, choice=VIEW_INSIDE, option="enter")
        raise RuleViolation("SMOKE-BOMB-3", msg("The formation of {target} is not in {unit}'s fire sector and "
                                                "bombardment range with clear lines from both front corners.",
                                                target=repr(target), unit=uid),
                            unit=uid, target=target)
    members, m = opts[key]
    rb = RulingBuilder().add("SMOKE-BOMB-3", msg_n("{unit} aims at the formation of {key} ({count} unit(s)): {measure}.",
                                                   "{unit} aims at the formation of {key} ({count} unit(s)): {measure}.", "count", unit=uid, key=key, count=len(members), measure=describe(m)), formation=list(members), measure=m)
    if m.get("view_inside"):
        cite(rb, VIEW_INSIDE, m["view_inside"]["option"], msg("{line}.", line=view_inside_text(m)))
    if on_elevation(st, u):
        rb.add("SMOKE-TERR-4", msg("{unit} stands entirely on an elevation: +2 UW range, lines through units not "
                                   "on it.", unit=uid))
    out.emit(BombardmentAimed(seat=seat, unit=uid, target=key, formation=members, measure=m), rb,
             summary=msg("{unit} aims at {key}", unit=uid, key=key))


def declining(state: SmokeState, seat: str) -> list[str]:
    """The units of ``seat`` that could bombard a target now but have not aimed (SMOKE-CHOICE-BOMBARD)."""
    aims = state.turn.aims if state.turn is not None else {}
    return [u.id for u in eligible(state, seat) if u.id not in aims and targets(state, u)]


def bombard_refusal(state: SmokeState, seat: str) -> RuleViolation | None:
    """SMOKE-CHOICE-BOMBARD "must": the bombardment is not rolled (nor skipped) while a unit of ``seat`` that
    could bombard a target has not aimed."""
    idle = declining(state, seat)
    if not idle or choice(state, BOMBARD) != "must":
        return None
    return RuleViolation(BOMBARD, msg("under {choice}: {idle} can bombard a target, so each aims first (aim).",
                                      choice=phrase_message(CHOICES, BOMBARD, 'must'), idle=', '.join(idle)), units=idle, choice=BOMBARD, option="must")


def cite_declining(rb: RulingBuilder, state: SmokeState, seat: str) -> None:
    """The ruling step of a bombardment (or of its skipping) in which units that could bombard declined."""
    idle = declining(state, seat)
    if idle:
        cite(rb, BOMBARD, choice(state, BOMBARD), msg_n("{units} could bombard a target and declines: each gun may.",
                                                        "{units} could bombard a target and decline: each gun may.",
                                                        "count", units=", ".join(idle), count=len(idle)))


def _hidden_inside(state: SmokeState, u: Unit, target: str) -> dict[str, Any] | None:
    """The measured line to a unit of ``target``'s formation that the game's reading of SMOKE-CHOICE-VIEW-INSIDE
    hides and the other reading shows, if any."""
    members = next((m for m in formations(state).values() if target in m), ())
    for mid in members:
        e = state.units[mid]
        if state.enemy(u, e):
            m = line_of_fire(state, u, e, mode="bombard", melee=False)
            if m.get("view_inside", {}).get("other_ok"):
                return m
    return None


def _modifier(value: int, why: Message, rule: str | None = None) -> tuple[dict[str, Any], Message]:
    """A modifier as the log keeps it (its ``why`` as English text) and its reason as a message for the ruling."""
    m: dict[str, Any] = {"value": value, "why": why.english()}
    if rule is not None:
        m["rule"] = rule
    return m, why


def _dice_for(state: SmokeState, art: Unit, members: tuple[str, ...]) -> dict[str, Any]:
    """SMOKE-BOMB-4: one bombarding unit's dice against its target formation (at least 1), as the log keeps it."""
    return _dice_for_said(state, art, members)[0]


def _dice_for_said(state: SmokeState, art: Unit, members: tuple[str, ...]) -> tuple[dict[str, Any], list[Message]]:
    """SMOKE-BOMB-4: one bombarding unit's dice against its target formation (at least 1); beside it, each
    modifier's reason as a message."""
    bo = bombardment_of(state, art)
    assert bo is not None
    units = [state.units[m] for m in members if m in state.units]
    t = state.terrain()
    found: list[tuple[dict[str, Any], Message]] = []
    if any(o.id in members for u in units for o in rear_partners(state, u)):
        found.append(_modifier(1, msg("units in rear contact")))
    if any(t.partially_in(u.box(), "village") for u in units):
        found.append(_modifier(1, msg("at least partly in a village"), "SMOKE-TERR-7"))
    for step in SIZE_STEPS:
        if len(units) > step:
            found.append(_modifier(1, msg("more than {step} units", step=step)))
    if units and all(t.entirely_in(u.box(), "fortification") for u in units):
        found.append(_modifier(-1, msg("entirely inside fortifications"), "SMOKE-TERR-8"))
    if units and all(has(state, u, "cavalry") for u in units):
        found.append(_modifier(-1, msg("entirely cavalry"), "SMOKE-SR-8"))
    elif units and all(has(state, u, "artillery") for u in units):
        found.append(_modifier(-1, msg("entirely artillery"), "SMOKE-SR-10"))
    mods = [m for m, _ in found]
    n = max(1, bo.dice + sum(m["value"] for m in mods))
    return {"unit": art.id, "power": bo.dice, "modifiers": mods, "dice": n}, [why for _, why in found]


def fire(out: Any, seat: str) -> None:
    """SMOKE-BOMB-4/5/6, SMOKE-MP-5: one roll per targeted player; each full 10 is one loss."""
    st: SmokeState = out.state
    t = st.turn
    assert t is not None
    aims = dict(t.aims)
    forms = formations(st)
    shots = []
    whys: list[list[Message]] = []
    per_target: dict[str, list[dict[str, Any]]] = {}
    fdefs: dict[str, dict[str, list[str]]] = {}
    for uid, key in sorted(aims.items()):
        members = forms.get(key)
        if members is None:  # the formation changed since aiming: its key unit's current formation
            members = next((v for v in forms.values() if key in v), (key,))
        shot, why = _dice_for_said(st, st.units[uid], members)
        whys.append(why)
        shot["target"] = key
        shots.append(shot)
        tseat = st.units[members[0]].seat
        per_target.setdefault(tseat, []).append(shot)
        d = fdefs.setdefault(tseat, {})
        entry = d.setdefault(key, [])
        entry.append(uid)
    rolls = []
    losses = []
    rb = RulingBuilder()
    cite_declining(rb, st, seat)
    for shot, why in zip(shots, whys):
        rb.add("SMOKE-BOMB-4", msg("{unit} adds {dice} dice (power {power}{modifiers}; at least 1).", unit=shot["unit"],
                                   dice=shot["dice"], power=shot["power"],
                                   modifiers=joined([msg(", {value:+d} {why}", value=m["value"], why=w)
                                                     for m, w in zip(shot["modifiers"], why)], "")),
               **shot)
    for tseat in sorted(per_target):
        n = sum(s["dice"] for s in per_target[tseat])
        faces = [out.dice.value(6) + 1 for _ in range(n)]
        total = sum(faces)
        k = total // LOSS_STEP
        rolls.append({"target": tseat, "dice": n, "faces": faces, "total": total, "losses": k})
        rb.add("SMOKE-BOMB-5", msg("Against {tseat}: {n}d6 = {faces} = {total}.",
                                   tseat=seat_words(tseat), n=n, faces=str(faces), total=total), target=tseat, faces=faces, total=total)
        rb.add("SMOKE-BOMB-6", msg_n("{total} // 10 = {k} loss(es) for {tseat} (1 morale or one unit retreats each).",
                                     "{total} // 10 = {k} loss(es) for {tseat} (1 morale or one unit retreats each).", "k", total=total, k=k, tseat=seat_words(tseat)),
               losses=k)
        fs = []
        for key, arts in sorted(fdefs[tseat].items()):
            members = forms.get(key) or next((v for v in forms.values() if key in v), (key,))
            fs.append({"key": key, "units": list(members), "artillery": sorted(arts)})
        losses.append({"seat": tseat, "losses": k, "formations": fs})
    if len(per_target) > 1:
        rb.add("SMOKE-MP-5", msg("Formations of different players: one roll each."))
    out.emit(BombardmentRolled(seat=seat, shots=tuple(shots), rolls=tuple(rolls), losses=tuple(losses),
                               bombarded=tuple(sorted(aims))), rb,
             summary=msg("{seat} bombards: {rolls}", seat=seat_words(seat),
                         rolls=joined([msg("{seat} {total}", seat=seat_words(r["target"]), total=r["total"]) for r in rolls], ", ")))


def retreat_options(state: SmokeState, l: Losses) -> list[tuple[str, str, float]]:
    """SMOKE-BOMB-7: (unit, formation, distance) that may retreat for the next loss: in a targeted
    formation that has lost fewer units than artillery aimed at it, not retreated yet, able to
    retreat, and nearest to the formation's bombarding artillery (ties within EPS all qualify)."""
    out = []
    for f in l.formations:
        if len(f.retreated) >= len(f.artillery):
            continue
        cands = []
        arts = [state.units[a] for a in f.artillery if a in state.units]
        for uid in f.units:
            u = state.units.get(uid)
            if u is None or uid in l.retreated or retreat_refusal(state, u) is not None:
                continue
            d = min((box_distance(u.box(), a.box()) for a in arts), default=0.0)
            cands.append((d, uid))
        if not cands:
            continue
        cands.sort()
        near = cands[0][0]
        out += [(uid, f.key, d) for d, uid in cands if d - near <= EPS]
    return out


def take_loss(out: Any, seat: str, unit: str | None) -> None:
    st: SmokeState = out.state
    t = st.turn
    assert t is not None
    l = next((x for x in t.losses if x.seat == seat and x.left > 0), None)
    if l is None:
        raise RuleViolation("SMOKE-BOMB-6", msg("You have no bombardment loss to take."))
    opts = retreat_options(st, l)
    if unit is None:
        rb = RulingBuilder().add("SMOKE-BOMB-6", msg("{seat} takes this loss as 1 army morale.", seat=seat_words(seat)))
        if not opts:
            rb.add("SMOKE-BOMB-7", msg("No unit may retreat for it (INFERRED (d): the loss must be morale)."))
        out.emit(LossTaken(seat=seat, unit=None), rb, summary=msg("{seat} takes a bombardment loss as morale",
                                                                  seat=seat_words(seat)))
        lose_morale(out, seat, 1, "SMOKE-BOMB-6", "bombardment")
        return
    match = next((o for o in opts if o[0] == unit), None)
    if match is None:
        near = ", ".join(sorted({o[0] for o in opts})) or "none"
        raise RuleViolation("SMOKE-BOMB-7", msg("{unit} may not retreat for this loss: the units nearest to the "
                                                "bombarding artillery retreat first, at most one per artillery "
                                                "unit per formation, each once (may retreat now: {near}).",
                                                unit=repr(unit), near=near), unit=unit)
    rb = RulingBuilder().add("SMOKE-BOMB-6", msg("{seat} takes this loss as a retreat of {unit}.",
                                                 seat=seat_words(seat), unit=unit))
    f = next(x for x in l.formations if x.key == match[1])
    arts = [st.units[a] for a in f.artillery if a in st.units]
    art = min(arts, key=lambda a: (box_distance(st.units[unit].box(), a.box()), a.id)).id if arts else None
    rb.add("SMOKE-BOMB-7", msg("{unit} is the nearest eligible unit of its formation to the bombarding artillery "
                               "({distance:.3f} UW, rectangle to rectangle, from {art}).",
                               unit=unit, distance=match[2], art=art), distance=round(match[2], 4),
           formation=match[1], artillery=art)
    out.emit(LossTaken(seat=seat, unit=unit, formation=match[1], distance_to_artillery=round(match[2], 4)), rb,
             summary=msg("{seat}: {unit} retreats from the bombardment", seat=seat_words(seat), unit=unit))
    roll_retreat_distance(out, unit, "bombardment")

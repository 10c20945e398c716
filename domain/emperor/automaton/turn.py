"""The Emperor's turn (SOLO-TURN): the order deck advanced, the steps of the order card worked through as an
agenda of :class:`~domain.emperor.state.Work` items, the card it activates (SOLO-CARD), and the turn's end.

The agenda stops only where the human must decide -- the defense of its hero (BASE-DEF-1) -- and then the
rest of it is written into the ``defense_requested`` event; the human's answer resumes it (``resume``)."""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .. import orders
from ..cards import choose_card, scan_words
from ..content import ability_text
from ..events import CardActivated, CardResolved, Refreshed, StepStarted, TurnEnded, TurnStarted
from ..outbox import Outbox
from ..state import EMPEROR, Work
from ..terms import ORDER_STEPS, word
from ..turn_start import start_human_turn
from ..view import summarize
from .abilities import ability_done, done
from .attacks import attack_ability, attack_one
from .fallback import direct
from .moves import march, move
from .pushes import push_ability
from .stars import star


def emperor_turn(out: Outbox) -> None:
    """SOLO-TURN-1/2: advance the order deck, then perform the steps the order card lists."""
    with out.automaton():
        st = out.state
        n = st.turn_no + 1
        restored = tuple(sorted(k for k, v in st.flipped.items() if v == EMPEROR))
        rb = RulingBuilder().add("SOLO-GAME-1", msg("Your turn is over: the Emperor takes its turn."), turn=n)
        if restored:
            rb.add("BASE-LOC-4", msg("Locations the Emperor flipped are face up again: {restored} (PROPOSED, "
                                     "GAP-A-18).", restored=', '.join(restored)), locations=list(restored))
        rb.add("BASE-CREST-1", msg("The Emperor's applied crest initiative is cleared at the start of its turn."))
        said(out, TurnStarted(side=EMPEROR, turn=n, restored=restored), rb)
        orders.advance(out, "turn")
        oc = out.state.current_order()
        assert oc is not None
        agenda = [Work(kind="step", step=s, index=i) for i, s in enumerate(oc.steps)]
        if "REFRESH_CHECK" not in oc.steps:  # SOLO-TURN-2 (INFERRED, GAP-A-04): once, after the last listed step
            agenda.append(Work(kind="step", step="REFRESH_CHECK", index=len(oc.steps)))
        agenda.append(Work(kind="end_turn"))
        run(out, agenda)


def run(out: Outbox, agenda: list[Work]) -> None:
    """Work through the agenda until it is empty, the game ends, or the human must decide."""
    with out.automaton():
        while agenda and not out.over:
            w = agenda.pop(0)
            _HANDLERS[w.kind](out, w, agenda)
            if out.state.pending is not None:
                return


def _end_turn(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    said(out, TurnEnded(side=EMPEROR, turn=st.turn_no), RulingBuilder().add(
        "SOLO-TURN-3", msg("The Emperor has performed every step of its order card."), card=st.order_current))
    start_human_turn(out)


def _step(out: Outbox, w: Work, agenda: list[Work]) -> None:
    st = out.state
    oc = st.current_order()
    assert oc is not None
    prepared = st.prepared(EMPEROR)
    hero = st.hero_of(EMPEROR)
    helper = st.helper_of(EMPEROR)
    assert hero is not None
    listed = w.index < len(oc.steps)
    # the steps as the order card prints them (terms.ORDER_STEPS), never as fields (``REFRESH_CHECK``)
    where = (msg("step {n} of {card} ({steps})", n=w.index + 1, card=oc.id,
                 steps=joined([word(ORDER_STEPS, s) for s in oc.steps], ", ")) if listed
             else msg("{card} lists no REFRESH CHECK: it is performed once after the last step (INFERRED, GAP-A-04)",
                      card=oc.id))
    rb = RulingBuilder().add("SOLO-TURN-2", msg("{step}: {where}.", step=word(ORDER_STEPS, w.step), where=where),
                             step=w.step, card=oc.id)
    if w.step == "MOVE":
        then = (msg("; then its helper {warrior} moves (even if the hero did not).", warrior=helper.name)
                if helper and helper.alive else ".")
        rb.add("SOLO-TURN-4", msg_n("The Emperor has {count} prepared action card(s), so its hero moves{then}",
                                    "The Emperor has {count} prepared action card(s), so its hero moves{then}", "count",
                                    count=len(prepared), then=then) if prepared else
               msg("The Emperor has no prepared action card: its hero does not move{then}", then=then),
               prepared=list(prepared))
        said(out, StepStarted(step=w.step, index=w.index, card=oc.id, performed=bool(prepared) or bool(
            helper and helper.alive)), rb)
        front = []
        if prepared:
            front.append(Work(kind="move", warrior=hero.id, source="base move"))
        if helper is not None and helper.alive:
            front.append(Work(kind="move", warrior=helper.id, source="base move"))
        agenda[0:0] = front
    elif w.step == "ACTIVATE":
        if not prepared:
            rb.add("SOLO-TURN-5", msg("The Emperor has no prepared action card: nothing happens in this step."))
            said(out, StepStarted(step=w.step, index=w.index, card=oc.id, performed=False), rb)
            return
        rb.add("SOLO-TURN-5", msg("The Emperor chooses one prepared card and activates it; there is no two-action "
                                  "limit (SOLO-TURN-3)."))
        said(out, StepStarted(step=w.step, index=w.index, card=oc.id), rb)
        card_id, scanned = choose_card(out.state, oc.compass)
        assert card_id is not None
        card = out.state.card(card_id)
        looked = joined([_prepared_or_not(c, prepared) for c in scanned], ", ")
        rb2 = RulingBuilder().add(
            "SOLO-CARD-1", msg("Compass {compass}: scan the action row {value}: {scanned} -> {card} "
                               "(PROPOSED, GAP-A-01).", compass=oc.compass, value=scan_words(oc.compass),
                               scanned=looked, card=card_id), scanned=list(scanned), card=card_id,
            compass=oc.compass).add(
            "SOLO-TIE-4", msg("Action cards are not on the battlefield: the compass points to the end of the row "
                              "to scan from.")).add(
            "SOLO-CARD-3", msg("Card choice is a replaceable policy: {card_policy}.",
                               card_policy=out.state.card_policy)).add(
            "BASE-CARD-1", msg("{card}: {abilities} -- resolved in printed order.", card=card_id,
                               abilities="; ".join(ability_text(a) for a in card.abilities)))
        said(out, CardActivated(side=EMPEROR, card=card_id, scanned=scanned, compass=oc.compass), rb2)
        agenda[0:0] = [Work(kind="ability", ability=a, card=card_id, source=f"{card_id} {card.name}")
                       for a in card.abilities] + [Work(kind="finish_card", card=card_id)]
    else:  # REFRESH_CHECK
        n = len(prepared)
        ex = st.exhausted.get(EMPEROR, ())
        do = n <= oc.refresh_value
        said(out, StepStarted(step=w.step, index=w.index, card=oc.id, performed=do), rb)
        said(out, Refreshed(side=EMPEROR, cards=ex if do else (), prepared=n, refresh_value=oc.refresh_value,
                           refreshed=do), RulingBuilder().add(
            "SOLO-TURN-6", msg_n("{count} prepared card(s) ({cards}) <= refresh value {value} of {card}: the Emperor "
                                 "refreshes (BASE-REF-1: every exhausted card becomes prepared: {exhausted}).",
                                 "{count} prepared card(s) ({cards}) <= refresh value {value} of {card}: the Emperor "
                                 "refreshes (BASE-REF-1: every exhausted card becomes prepared: {exhausted}).", "count",
                                 count=n, cards=", ".join(prepared) or msg("none"), value=oc.refresh_value, card=oc.id,
                                 exhausted=", ".join(ex) or msg("none was exhausted")) if do else
            msg_n("{count} prepared card(s) ({cards}) > refresh value {value} of {card}: no refresh.",
                  "{count} prepared card(s) ({cards}) > refresh value {value} of {card}: no refresh.", "count",
                  count=n, cards=", ".join(prepared) or msg("none"), value=oc.refresh_value, card=oc.id),
            prepared=n, refresh_value=oc.refresh_value, cards=list(ex if do else ())))


def said(out: Outbox, event: Any, rb: RulingBuilder) -> None:
    """Emit ``event`` with its ruling summed up in the timeline's own line (view.py ``summarize``): the replay's ruling
    reads as its step does, the Emperor named as its side (``{emperor}``), never as a field (``REFRESH_CHECK``)."""
    out.emit(event, rb, summary=summarize(event))


def _prepared_or_not(card: str, prepared: Any) -> Message:
    """``AK2 (prepared)`` / ``AK1 (exhausted)``: a card of the row as the scan meets it (SOLO-CARD-1)."""
    return msg("{card} (prepared)", card=card) if card in prepared else msg("{card} (exhausted)", card=card)


def _finish_card(out: Outbox, w: Work, agenda: list[Work]) -> None:
    card = out.state.card(w.card)
    out.emit(CardResolved(side=EMPEROR, card=w.card, crest=card.crest), RulingBuilder().add(
        "SOLO-TURN-5", msg("{card} is exhausted.", card=w.card), card=w.card).add(
        "BASE-CREST-1", msg("Its crest {crest} becomes the Emperor's applied crest initiative.", crest=card.crest), crest=card.crest),
        summary=msg("{card} exhausted; crest {crest}", card=w.card, crest=card.crest))

def _ability(out: Outbox, w: Work, agenda: list[Work]) -> None:
    a = w.ability
    assert a is not None
    k = a.kind
    if k in ("ATTACK", "HELPER_ATTACK"):
        attack_ability(out, w, agenda)
    elif k == "PUSH":
        push_ability(out, w, agenda)
    elif k == "MARCH":
        march(out, w, agenda)
    elif k == "STAR":
        star(out, w, agenda)
    elif k == "SWAP":
        done(out, w, skipped=True, rule="SOLO-FAQ-4",
              why=msg("The swap part is optional (INFERRED, GAP-A-21); the Emperor does not swap unless its solo "
                      "card says so."))
    else:  # WOUND / HEAL printed on a card
        direct(out, w, a, w.source)

def defense_card_abilities(out: Outbox, card_ids: list[str]) -> None:
    """SOLO-CHOICE-DEFENSE-CARD "abilities": the abilities of the cards the Emperor's hero defended with in this
    attack resolve now, in printed order, as on an ACTIVATE step (BASE-CARD-1), while the hero stands. The
    automaton may wait for your defense on the way (the rest is resumed after it, SOLO-DEF-5)."""
    hero = out.state.hero_of(EMPEROR)
    if hero is None or not hero.alive or out.over:
        return
    agenda = [Work(kind="ability", ability=a, card=cid, source=f"{cid} {out.state.card(cid).name} (defense card)")
              for cid in card_ids for a in out.state.card(cid).abilities]
    run(out, agenda)


def resume(out: Outbox, agenda: tuple[Work, ...]) -> None:
    """Continue the Emperor's turn after the human's decision."""
    run(out, list(agenda))

_HANDLERS: dict[str, Any] = {
    "step": _step,
    "move": move,
    "ability": _ability,
    "attack": attack_one,
    "ability_done": ability_done,
    "finish_card": _finish_card,
    "end_turn": _end_turn,
}

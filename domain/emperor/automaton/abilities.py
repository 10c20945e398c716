"""What every Emperor ability shares: who performs it, and the event that closes it (BASE-CARD-1)."""
from __future__ import annotations

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, msg, text_of

from ..content import Ability, ability_text
from ..events import AbilityDone
from ..outbox import Outbox
from ..sources import source_said
from ..state import EMPEROR, Warrior, Work


def done(out: Outbox, w: Work, *, skipped: bool, rule: str, why: Message) -> None:
    a = w.ability
    assert a is not None
    out.emit(AbilityDone(side=EMPEROR, source=w.source, ability=ability_text(a), skipped=skipped, why=text_of(why)),
             RulingBuilder().add(rule, why),
             summary=msg("{source}: {ability} skipped", source=source_said(w.source), ability=ability_text(a)) if skipped else
             msg("{source}: {ability} done", source=source_said(w.source), ability=ability_text(a)))


def performer_of(out: Outbox, a: Ability) -> Warrior | None:
    st = out.state
    w = st.helper_of(EMPEROR) if a.kind == "HELPER_ATTACK" else st.hero_of(EMPEROR)
    return w if w is not None and w.alive else None

def ability_done(out: Outbox, w: Work, agenda: list[Work]) -> None:
    done(out, w, skipped=False, rule="BASE-CARD-1", why=msg("{value} resolved.", value=ability_text(w.ability))
          if w.ability else msg("resolved."))

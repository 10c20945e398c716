"""The Emperor's fallback ability (SOLO-FALL), and the abilities that need no target choice: WOUND on your
hero, HEAL of its own (SOLO-FALL-3)."""
from __future__ import annotations

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, msg, msg_n

from ..combat import casualties
from ..content import Ability, ability_text
from ..events import FallbackUsed
from ..outbox import Outbox
from ..state import EMPEROR, HUMAN, Work


def fallback(out: Outbox, trigger: str, why: Message, agenda: list[Work]) -> None:
    st = out.state
    solo = st.solo
    assert solo is not None and st.turn is not None
    fb = solo.fallback
    if st.turn.fallback_used:
        out.emit(FallbackUsed(name=fb.name, trigger=trigger, applied=False), RulingBuilder().add(
            "SOLO-FALL-1", msg("The fallback would be used: {why} ({trigger}).", why=why, trigger=trigger)).add(
            "SOLO-FALL-2", msg("{fb_name} was already used this turn: nothing happens.", fb_name=fb.name)),
            summary=msg("fallback {fb_name}: already used this turn", fb_name=fb.name))
        return
    direct(out, Work(kind="ability", ability=fb.ability, source=f"fallback {fb.name}"), fb.ability,
            f"fallback {fb.name}", trigger=trigger, why=why, agenda=agenda)


def direct(out: Outbox, w: Work, a: Ability, source: str, *, trigger: str = "", why: "str | Message" = "",
            agenda: list[Work] | None = None) -> None:
    """An ability with no target choice: WOUND n (your hero, no defense) or HEAL n; a fallback that
    is another kind of ability is resolved like any ability (SOLO-FALL-3)."""
    st = out.state
    solo = st.solo
    assert solo is not None
    rb = RulingBuilder()
    if trigger:
        rb.add("SOLO-FALL-1", msg("{why}: the Emperor uses its fallback ability {fallback_name} ({value}).",
                                  why=why, fallback_name=solo.fallback.name, value=ability_text(a)), trigger=trigger)
        rb.add("SOLO-FALL-2", msg("At most once per turn."))
    name = solo.fallback.name if trigger else source
    if a.kind == "WOUND":
        hero = st.hero_of(HUMAN)
        assert hero is not None
        rb.add("SOLO-FALL-3", msg_n("It targets your hero {hero_name}: {value} wound(s), no defense.",
                                    "It targets your hero {hero_name}: {value} wound(s), no defense.", "value", hero_name=hero.name, value=a.value))
        out.emit(FallbackUsed(name=name, trigger=trigger or "card", applied=True, target=hero.id, wounds=a.value), rb,
                 summary=msg_n("{name}: {hero_name} suffers {value} wound(s)",
                               "{name}: {hero_name} suffers {value} wound(s)", "value", name=name, hero_name=hero.name, value=a.value))
        casualties(out)
    elif a.kind == "HEAL":
        hero = st.hero_of(EMPEROR)
        assert hero is not None
        healed = min(a.value, hero.wounds)
        rb.add("BASE-WAR-2", msg_n("{hero_name} heals {healed} wound(s) (never above its starting health).",
                                   "{hero_name} heals {healed} wound(s) (never above its starting health).", "healed", hero_name=hero.name, healed=healed), healed=healed)
        out.emit(FallbackUsed(name=name, trigger=trigger or "card", applied=True, target=hero.id, healed=healed), rb,
                 summary=msg("{name}: {hero_name} heals {healed}", name=name, hero_name=hero.name, healed=healed))
    else:
        out.emit(FallbackUsed(name=name, trigger=trigger, applied=True), rb, summary=msg("fallback {name}", name=name))
        if agenda is not None:
            agenda.insert(0, Work(kind="ability", ability=a, source=f"fallback {name}"))

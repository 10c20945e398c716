"""Secret objectives (CAMPAIGN-5, content 3.1 rule 5): met or not, judged on the units at the start and the
end of the battle."""
from __future__ import annotations

from .commands import RecordResult
from .graph import EnemyUnitDestroyed, HexFreeOfEnemy, SecretObjective


def met(so: SecretObjective, cmd: RecordResult) -> bool:
    c = so.condition
    enemy = "rebel" if so.faction == "imperial" else "imperial"
    if isinstance(c, EnemyUnitDestroyed):
        start = sum(1 for u in cmd.start_units if u.faction == enemy and u.unit == c.unit)
        end = sum(1 for u in cmd.end_units if u.faction == enemy and u.unit == c.unit)
        return start - end >= c.count
    if isinstance(c, HexFreeOfEnemy):
        return not any(u.faction == enemy and tuple(u.hex) == tuple(c.hex) for u in cmd.end_units)
    return False

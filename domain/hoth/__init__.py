"""Battle of Hoth: the rules engine as a decider on the kernel (rules: battle-of-hoth.md).

``RULESET`` is found by the registry (domain/kernel/registry.py). The content contract is
``scenario.py`` and ``cards.py``.
"""
from .decider import RULESET, HothRuleset

__all__ = ["RULESET", "HothRuleset"]

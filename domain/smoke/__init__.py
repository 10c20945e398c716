"""Clouds of Smoke: the rules engine as a decider on the kernel (rules: rules.md, copied from
shared/rules/clouds-of-smoke.md).

``RULESET`` is found by the registry (domain/kernel/registry.py); its content (unit profiles,
action boards, army lists, battles) is data in ``scenarios/smoke`` handed in through
``use_content``. The content contract is ``content.py``.
"""
from .decider import RULESET, SmokeRuleset

__all__ = ["RULESET", "SmokeRuleset"]

"""Battlecrest's "Emperor" solo mode: one human against an automated opponent (rules: rules.md).

``RULESET`` is found by the registry (domain/kernel/registry.py); its content comes from
``scenarios/emperor`` through ``use_content``. The content contract is ``content.py``.
"""
from .decider import RULESET, EmperorRuleset

__all__ = ["RULESET", "EmperorRuleset"]

"""What projecting can fail with (besides Redis being unreachable)."""
from __future__ import annotations


class ProjectionError(Exception):
    """A game cannot be projected (its ruleset is not installed, or the models keep changing under us)."""

"""The shared kernel: what every ruleset uses and nothing game-specific."""
from .decider import ACTIVE, FINISHED, Choice, Ruleset, Setup, SetupError, Status
from .dice import AUTOMATON, GAME_DICE, SHUFFLE, Dice, DryRunStop, Roll, advance, commitment, draw, replay_shuffle, verify_roll
from .envelope import PUBLIC, Command, Emitted, Event, event_type_name, redact, to_payload
from .fold import decode_event, event_decoder, fold
from .rules import Rule, parse_rules
from .rulings import NotYourDecision, RuleStep, Ruling, RulingBuilder, RuleViolation
from .undo import KERNEL_EVENT_TYPES, KernelEvent, UndoDeclined, Undone, UndoRequested, is_kernel_event

__all__ = [
    "ACTIVE", "FINISHED", "Choice", "Ruleset", "Setup", "SetupError", "Status",
    "AUTOMATON", "GAME_DICE", "SHUFFLE", "Dice", "DryRunStop", "Roll", "advance", "commitment", "draw",
    "replay_shuffle", "verify_roll",
    "PUBLIC", "Command", "Emitted", "Event", "event_type_name", "redact", "to_payload",
    "decode_event", "event_decoder", "fold",
    "Rule", "parse_rules",
    "NotYourDecision", "RuleStep", "Ruling", "RulingBuilder", "RuleViolation",
    "KERNEL_EVENT_TYPES", "KernelEvent", "UndoDeclined", "Undone", "UndoRequested", "is_kernel_event",
]

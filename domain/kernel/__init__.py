"""The shared kernel: what every ruleset uses and nothing game-specific."""
from .decider import ACTIVE, FINISHED, Choice, Ruleset, Setup, SetupError, Status
from .dice import (
    AUTOMATON, GAME_DICE, SHUFFLE, Dice, DryRunStop, Roll, advance, check_sequence, client_mix, commitment, draw,
    replay_shuffle, verify_roll,
)
from .envelope import PUBLIC, Command, Emitted, Event, event_type_name, redact, to_payload
from .fold import decode_event, event_decoder, fold
from .rules import Rule, parse_rules
from .rulings import NotYourDecision, RuleStep, Ruling, RulingBuilder, RuleViolation
from .header import (
    START_NOW, START_WHEN_READY, WAITING, GameCreated, KernelState, Ready, SeatReady, fold_kernel, game_status,
    kernel_evolve,
)
from .sides import other_sides, seat_sides
from .undo import (
    KERNEL_COMMAND_TYPES, KERNEL_EVENT_TYPES, KernelCommand, KernelEvent, UndoAccept, UndoAccepted, UndoDecline, UndoDeclined,
    UndoLapsed, Undone, UndoRequested, UndoTo, is_kernel_event,
)

__all__ = [
    "ACTIVE", "FINISHED", "Choice", "Ruleset", "Setup", "SetupError", "Status",
    "AUTOMATON", "GAME_DICE", "SHUFFLE", "Dice", "DryRunStop", "Roll", "advance", "check_sequence", "client_mix",
    "commitment", "draw", "replay_shuffle", "verify_roll",
    "PUBLIC", "Command", "Emitted", "Event", "event_type_name", "redact", "to_payload",
    "decode_event", "event_decoder", "fold",
    "Rule", "parse_rules",
    "NotYourDecision", "RuleStep", "Ruling", "RulingBuilder", "RuleViolation",
    "START_NOW", "START_WHEN_READY", "WAITING", "GameCreated", "KernelState", "Ready", "SeatReady", "fold_kernel",
    "game_status", "kernel_evolve",
    "KERNEL_COMMAND_TYPES", "KERNEL_EVENT_TYPES", "KernelCommand", "KernelEvent", "UndoAccept", "UndoAccepted", "UndoDecline",
    "UndoDeclined", "UndoLapsed", "Undone", "UndoRequested", "UndoTo", "is_kernel_event",
    "other_sides", "seat_sides",
]

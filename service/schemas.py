"""The JSON bodies of the REST API as types, for the OpenAPI document (DESIGN 8).

The service builds its bodies as plain dicts (service/views.py, the projections); these structs
describe them, field by field, and :mod:`service.openapi` turns them into the document's
components with msgspec's JSON-schema generation. A test validates every response of whole
games against the schema the document declares for it, so a body and its type cannot drift apart.

Conventions: a field that a body may leave out has the default ``UNSET`` (it is then not
required); a field that is always there but may be null is ``X | None`` without a default.
Status-like strings in responses are plain strings with the values listed in the description
(new values may come with new rulesets: a client must not break on one); enums are used where the
server refuses anything else (request bodies and query parameters).

Placeholders that :mod:`service.openapi` replaces with the registered rulesets' unions:
``Command`` (any command), ``GameEvent`` (any event payload), ``CommandTemplate``.

Bodies that carry a ruleset's commands or events (:data:`PER_RULESET`: legal commands, command
answers, the events page, the dry run) name the game's ``ruleset``: the document declares one
variant of each per ruleset (``hoth_LegalCommands``, with ``hoth_Command`` items) and the plain
name as their union discriminated by ``ruleset``, so a generated client picks the ruleset's types
by the answer's ``ruleset`` and never parses one ruleset's command as another's.

Over 500 lines on purpose: one struct per JSON body of the API, declared together so the document's
components are one list (as the event types are).
"""
from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType

Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="64 lowercase hex characters (32 bytes).")]
SeatName = Annotated[str, Meta(description="A seat of the game (`imperial`, `rebel`, `rebel-2`, `north`, ...).")]
Version = Annotated[int, Meta(ge=0, description="The game's version: the seq of its last event (0: none).")]
Seq = Annotated[int, Meta(ge=1, description="An event's place in its game's log (1, 2, 3, ...; no gaps).")]

STATUS_DOC = ("`waiting` (created with `start: when_ready`, not every seat has posted ready yet), `active` (being "
              "played), `finished`, or `read_only` (imported without its secret seed: it can be read but not played "
              "on here, UMPIRE-READ-ONLY-1); other rulesets or later versions may add values.")
RulesetId = Annotated[str, Meta(description="The game's ruleset: which ruleset's types the commands and events are.")]


# -- placeholders, replaced by the rulesets' tagged unions in the document ----------------------------
class Command(msgspec.Struct):
    """A command of the game's ruleset, tagged by `type`."""


class GameEvent(msgspec.Struct):
    """An event payload of the game's ruleset, tagged by `type`."""


class CommandTemplate(msgspec.Struct):
    """A command with continuous parameters, given with the bounds of each."""


# -- catalogue -------------------------------------------------------------------------------------
class Choice(msgspec.Struct):
    id: str
    title: str
    seats: Annotated[list[str], Meta(description="A scenario's seats with no options (options such as team play "
                                                 "may add seats).")] | UnsetType = UNSET


class BotInfo(msgspec.Struct):
    """A built-in player (DESIGN 13): name it in POST /games ``bots`` as ``"<id>"`` or ``"<id>:<level>"``."""

    id: str
    title: str
    levels: Annotated[list[int], Meta(description="Its levels, weakest first; the first is the default.")]


class RulesetInfo(msgspec.Struct):
    """A ruleset the service hosts."""

    id: str
    #: The game's printed title (a ruleset that names none: its id).
    title: str
    scenarios: list[Choice]
    campaigns: list[Choice]
    #: JSON schema of the ``options`` object of ``POST /games`` for this ruleset.
    options: Annotated[dict[str, Any], Meta(description="JSON schema of this ruleset's `options` in `POST /games` "
                                                        "(each property says what the option does).")]
    bots: Annotated[list[BotInfo], Meta(description="The built-in players a seat of this ruleset can be given "
                                                    "(`POST /games` `bots`).")]
    choices: Annotated[list[dict[str, Any]], Meta(description=(
        "Rule choices (DESIGN 14): questions the original rulebooks leave open. Each has an `id` (also a rule id: "
        "`/rulesets/{ruleset}/rules/{id}`), a `question`, its `options` (`id`, `text`, `sources`: the originals' "
        "sentences that support it), the `default` and the `reason` for it. `POST /games` takes "
        "`\"choices\": {\"<id>\": \"<option>\"}`."))] = []
    seat_names: Annotated[dict[str, str], Meta(description=(
        "Every seat (and side) of this ruleset's games in words, in the reader's language, as its rulebook prints "
        "the sides (`rebel`: \"the Rebels\"): what a client shows a person instead of a seat's id."))] = {}


class RuleText(msgspec.Struct):
    """One rule of a rules reference (the text behind a rule id that rulings and refusals cite)."""

    id: str
    text: Annotated[str, Meta(description="The rule as Markdown.")]
    url: Annotated[str, Meta(description="Where this rule is served: `/rulesets/{ruleset}/rules/{id}`.")]
    title: str | UnsetType = UNSET
    section: Annotated[str, Meta(description="The heading of the rulebook the rule stands under.")] | UnsetType = UNSET
    lang: Annotated[str, Meta(description="The language of `title`, `text` and `section`: `en`, `uk`, `ru`, `cs` "
                                          "or `it` (docs/rules-languages.md).")] = "en"
    fallback: Annotated[str, Meta(description="`en` when the language asked for has no text for this rule and the "
                                              "English text stands in for it.")] | UnsetType = UNSET
    note: Annotated[str, Meta(description="With `fallback`: a sentence for the reader, in the language asked for, "
                                          "saying the text is the English one.")] | UnsetType = UNSET


class Health(msgspec.Struct):
    status: Annotated[str, Meta(description="`ok`, or `error` when the store cannot be read.")]
    store: str
    redis: Annotated[str, Meta(description="`ok`, `down` or `not configured`.")]


# -- receipts ------------------------------------------------------------------------------------
class Receipt(msgspec.Struct):
    """The service's signature of a game's log up to ``version`` (DESIGN 2): Ed25519 over the UTF-8 bytes of
    ``umpire-receipt-v1|{game_id}|{version}|{head}``. Keep the last one: ``GET /games/{id}/verify?receipt=``
    proves a log cut or rewritten below it."""

    game_id: str
    version: Version
    head: Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="The hash of event `version`.")]
    key_id: Annotated[str, Meta(pattern="^[0-9a-f]{16}$",
                                description="The first 16 hex characters of sha256(raw public key).")]
    signature: Annotated[str, Meta(pattern="^[A-Za-z0-9_-]+$", description="base64url, no padding.")]


class PublicKey(msgspec.Struct):
    """``GET /.well-known/umpire-key``: the key that signs receipts."""

    alg: Annotated[str, Meta(description="`Ed25519`.")]
    key_id: Annotated[str, Meta(pattern="^[0-9a-f]{16}$")]
    public_key: Annotated[str, Meta(pattern="^[A-Za-z0-9_-]+$", description="base64url (no padding) of the 32 raw "
                                                                              "bytes.")]


# -- seats (DESIGN 4) -----------------------------------------------------------------------------
SEATING_DOC = ("`tokens` (every human seat's token went to the creator) or `invitations` (the creator kept the seats "
               "it named; every other human seat was offered by a one-time invitation).")


class SeatHeld(msgspec.Struct):
    """How one seat is held (UMPIRE-SEAT-5): never who holds it."""

    claimed: Annotated[str, Meta(description="`creator` (its token went to the game's creator), `invitation` (claimed "
                                             "with its one-time invitation), `unclaimed` (its invitation is still "
                                             "open) or `bot` (played by the service).")]
    rotated: Annotated[bool, Meta(description="The holder replaced the seat's token at least once (UMPIRE-SEAT-4).")]


SeatsHeld = Annotated[dict[str, SeatHeld], Meta(description="How each seat is held (UMPIRE-SEAT-5).")]
CreatorHolds = Annotated[list[str], Meta(description="The human seats whose tokens went to the creator: with more than "
                                                     "one, the creator can read each of those hands and act for each "
                                                     "of those seats (UMPIRE-SEAT-5).")]


class SeatToken(msgspec.Struct):
    """A seat's bearer token, answered to the caller only (a claim, UMPIRE-SEAT-2; a rotation, UMPIRE-SEAT-4)."""

    seat: SeatName
    token: Annotated[str, Meta(description="Send it as `Authorization: Bearer <token>` to act as the seat; keep it "
                                           "secret. Rotate it (`.../rotate`) to be sure nobody else holds it.")]
    version: Annotated[int, Meta(ge=0, description="The version of the game (or campaign) after the change.")]
    game_id: str | UnsetType = UNSET
    campaign_id: str | UnsetType = UNSET
    receipt: Receipt | UnsetType = UNSET


# -- games ---------------------------------------------------------------------------------------
class GameCreated(msgspec.Struct):
    game_id: str
    ruleset: str
    scenario: str
    version: Version
    status: Annotated[str, Meta(description=STATUS_DOC)]
    start: Annotated[str, Meta(description="`now` or `when_ready` (DESIGN 3: the game waits for every seat's ready "
                                           "and client seed).")]
    seats: Annotated[dict[str, str], Meta(description="One bearer token per seat: send it as "
                                                      "`Authorization: Bearer <token>` to act as that seat.")]
    seed_commitment: Annotated[str, Meta(pattern="^[0-9a-f]{64}$",
                                         description="sha256 of the secret seed, lowercase hex; the seed is revealed "
                                                     "when the game ends (GET /games/{id}/verify).")]
    receipt: Receipt | UnsetType = UNSET
    bots: Annotated[dict[str, str], Meta(description="The seats played by the service's bots (UMPIRE-BOT-1): seat "
                                                     "-> `<bot id>:<level>`; they have no token.")] | UnsetType = UNSET
    seating: Annotated[str, Meta(description=SEATING_DOC)] | UnsetType = UNSET
    invitations: Annotated[dict[str, str], Meta(description="Seating `invitations`: one one-time invitation per seat "
                                                            "the creator did not keep. Hand each to its player, who "
                                                            "claims the seat with it (POST /games/{id}/seats/{seat}/"
                                                            "claim) and alone gets its token.")] | UnsetType = UNSET


class UndoRequestView(msgspec.Struct):
    """An undo request waiting for another seat's answer (DESIGN 5)."""

    seq: Seq
    by: SeatName
    to_version: Version
    answer: Annotated[list[dict[str, Any]], Meta(description="The commands that answer it: `{\"type\": "
                                                             "\"undo_accept\"}`, `{\"type\": \"undo_decline\"}`.")]
    waiting_for: Annotated[list[str], Meta(description="The sides that must still answer it: one seat of every "
                                                       "side other than the asker's (UMPIRE-UNDO-13).")] \
        | UnsetType = UNSET
    accepted: Annotated[list[SeatName], Meta(description="Seats that accepted it for their side while other "
                                                         "sides must still answer.")] | UnsetType = UNSET


class LobbyEntry(msgspec.Struct):
    game_id: str
    ruleset: str
    scenario: str
    status: Annotated[str, Meta(description=STATUS_DOC)]
    read_only: bool
    version: Version
    winner: str | None
    created_at: str
    seed_commitment: Hex64
    campaign_id: str | None


class Lobby(msgspec.Struct):
    games: list[LobbyEntry]
    next_cursor: Annotated[str | None, Meta(description="Pass as `cursor` for the next page; null on the last page.")]


class GameView(msgspec.Struct):
    """The caller's view of a game (a spectator's without a token)."""

    game_id: str
    ruleset: str
    scenario: str
    version: Version
    status: Annotated[str, Meta(description=STATUS_DOC)]
    read_only: bool
    active_seat: Annotated[str | None, Meta(description="The first seat whose decision it is now.")]
    to_act: Annotated[list[str], Meta(description="Every seat whose decision it is now.")]
    turn: int
    winner: str | None
    state: Annotated[dict[str, Any], Meta(description="The ruleset's view of the board for the caller: own hand as "
                                                      "card ids, other hands as counts, never a deck order.")]
    undo_request: Annotated[UndoRequestView | None, Meta(description="The undo request waiting for an answer, or "
                                                                     "null.")]
    waiting_for: Annotated[list[str], Meta(description="A waiting game: the seats that have not posted ready.")] | \
        UnsetType = UNSET
    receipt: Annotated[Receipt, Meta(description="The signed receipt of the version shown (GET /games/{id}).")] | \
        UnsetType = UNSET
    seating: Annotated[str, Meta(description=SEATING_DOC + " Shown for a game seated by invitations.")] | \
        UnsetType = UNSET
    seats: SeatsHeld | UnsetType = UNSET
    creator_holds: CreatorHolds | UnsetType = UNSET


class DescribedCommand(msgspec.Struct):
    """A legal command with the words a player reads before choosing it."""

    command: Annotated[dict[str, Any], Meta(description="The command as in `commands` (post it as it is).")]
    label: Annotated[str, Meta(description="What the command does, in the ruleset's words.")]
    warning: Annotated[str | None, Meta(description="A consequence to see before choosing it (a hazard, a wasted "
                                                    "card, a risk), or null.")]


class LegalCommands(msgspec.Struct):
    ruleset: RulesetId
    version: Version
    seat: str | None
    commands: Annotated[list[Command], Meta(description="Every legal command of the caller's seat now; each can be "
                                                        "posted back as it is (`POST /games/{id}/commands`). The "
                                                        "kernel's come first: `ready` while the game waits for the "
                                                        "seat, `undo_accept`/`undo_decline` while another seat's undo "
                                                        "request waits.")]
    templates: list[CommandTemplate] | UnsetType = UNSET
    described: Annotated[list[DescribedCommand], Meta(description="The same commands in the same order, each with "
                                                                  "its words from the ruleset (DESIGN 12).")] | \
        UnsetType = UNSET


class EventEntry(msgspec.Struct):
    """One event of a game's log as the caller may see it."""

    seq: Seq
    type: Annotated[str, Meta(description="The event's type (the same as `payload.type`).")]
    actor: Annotated[str | None, Meta(description="The seat whose command produced it (null: the game's opening).")]
    recorded_at: str
    payload: GameEvent
    hash: Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="The hash chain: sha256 over the previous hash "
                                                                     "and this event.")]
    undone: Annotated[bool, Meta(description="Marked undone by a later undo (the fold skips it).")]
    commitment: Annotated[str, Meta(pattern="^[0-9a-f]{64}$",
                                    description="Commitment to the private part of the event (chain v2): `hash = "
                                                "sha256(prev_hash | canonical public part | commitment)`.")] | UnsetType = UNSET
    hidden: Annotated[list[str], Meta(description="An event that is not public: the payload fields a spectator does "
                                                  "not see (so a caller who sees them can recompute the public "
                                                  "part).")] | UnsetType = UNSET
    private: Annotated[dict[str, Any], Meta(description="Once the game is finished: the event's private part, to "
                                                        "check its commitment with the revealed seed.")] | UnsetType = UNSET
    bot: Annotated[str, Meta(description="The actor is a seat played by the service's bot `<bot id>:<level>` "
                                         "(UMPIRE-BOT-1; the step's ruling has its explanation).")] | UnsetType = UNSET
    summary: Annotated[str, Meta(description="The step in words (as in the timeline).")] | UnsetType = UNSET
    by: Annotated[ActedBy, Meta(description="Who did the step (DESIGN 12).")] | UnsetType = UNSET


class EventsPage(msgspec.Struct):
    ruleset: RulesetId
    version: Version
    events: list[EventEntry]


class CommandResult(msgspec.Struct):
    ruleset: RulesetId
    version: Version
    events: list[EventEntry]
    undo: Annotated[str, Meta(description="For undo answers: `done`, `requested`, `accepted` (other sides must still answer) or `declined`.")] | UnsetType = UNSET
    receipt: Annotated[Receipt, Meta(description="The signed receipt of `version`.")] | UnsetType = UNSET


class DryRunEvent(msgspec.Struct):
    """An event a dry run shows: what the command would record, as the caller would see it (no seq, no hash:
    nothing was stored)."""

    type: str
    payload: GameEvent
    ruling: RulingBody | UnsetType = UNSET


class DryRunResult(msgspec.Struct):
    """``POST /games/{id}/commands?dry_run=true``: nothing stored, no die drawn, nothing revealed."""

    ruleset: RulesetId
    legal: Annotated[bool, Meta(description="True: the command passes every check before its first draw.")]
    version: Version
    seat: SeatName
    events: Annotated[list[DryRunEvent], Meta(description="The events the command would produce up to its first "
                                                          "draw or revealing event, as the caller would see them.")]
    stopped_at: Annotated[str | None, Meta(description="`draw`, `reveal`, or null when the command ran to its end.")]


class RuleStepView(msgspec.Struct):
    rule: Annotated[str, Meta(description="The rule id applied.")]
    text: str
    rule_url: Annotated[str, Meta(description="Where the rule's text is served.")]
    values: dict[str, Any] | UnsetType = UNSET
    values_named: Annotated[dict[str, str] | UnsetType, Meta(
        description="The values that are ids of the game's units, cards, structures... by their printed names "
                    "(in the reader's language), for people; ``values`` stays the data.")] = UNSET


class RulingBody(msgspec.Struct):
    summary: str
    steps: list[RuleStepView] | UnsetType = UNSET


class RollView(msgspec.Struct):
    """One die or draw: ``value`` is uniform in ``0..sides-1`` (a d6 face is ``value + 1``)."""

    stream: str
    index: Annotated[int, Meta(ge=0)]
    sides: Annotated[int, Meta(ge=1)]
    value: Annotated[int, Meta(ge=0)]


class RulingView(msgspec.Struct):
    seq: Seq
    type: str
    actor: str | None
    ruling: RulingBody | None
    undone: bool
    rolls: list[RollView] | UnsetType = UNSET
    redacted: Annotated[bool, Meta(description="true: the caller may not see this step's ruling yet.")] | UnsetType = UNSET


class ActedBy(msgspec.Struct):
    """Who did a step (DESIGN 12): a seat, a bot seat, the ruleset's automated opponent, or the referee."""

    kind: Annotated[str, Meta(description="`seat`, `bot`, `automaton` (an opponent the engine plays, e.g. the "
                                          "Emperor) or `referee` (the rules themselves: opening, automatic steps).")]
    seat: str | None
    bot: Annotated[str | None, Meta(description="A bot seat: `<bot id>:<level>` (GameCreated.bots).")]
    text: Annotated[str, Meta(description="The actor in words.")]
    in_summary: Annotated[bool, Meta(description="true: the step's summary names this seat already (its side "
                                                 "as a label: `the Rebels: Dug In played`); show the summary "
                                                 "alone, not `text: summary`.")] | UnsetType = UNSET


class TimelineEntry(msgspec.Struct):
    seq: Seq
    type: str
    actor: str | None
    turn: int
    summary: Annotated[str, Meta(description="The step in words, units and cards by their printed names.")]
    undone: bool
    by: ActedBy | UnsetType = UNSET


class Timeline(msgspec.Struct):
    game_id: str
    version: Version
    steps: list[TimelineEntry]


class SealedReport(msgspec.Struct):
    parts: Annotated[list[str], Meta(description="The header's sealed parts, ``<event type>.<side>``.")]
    ok: bool
    problems: list[str]


class VerifyResult(msgspec.Struct):
    """``GET /games/{id}/verify``: what anyone can check of a game's log (DESIGN 2, 3)."""

    game_id: str
    version: Version
    status: Annotated[str, Meta(description="The status the fold of the log gives (not the games row).")]
    chain_version: Annotated[int, Meta(description="1: games stored before chain commitments; 2: public part + "
                                                   "commitment.")]
    chain_ok: Annotated[bool, Meta(description="The hash chain over what every caller sees.")]
    row_ok: Annotated[bool, Meta(description="The games row agrees with the log (event 1 is its header).")]
    first_broken_seq: int | None | UnsetType = UNSET
    problem: str | None | UnsetType = UNSET
    row_problems: list[str] | UnsetType = UNSET
    client_seeds: Annotated[dict[str, str | None], Meta(description="A when_ready game: each seat's client seed.")] | \
        UnsetType = UNSET
    seed_given: Annotated[bool, Meta(description="The creator chose the seed (tests, reproducible games).")] | \
        UnsetType = UNSET
    seating: Annotated[str, Meta(description=SEATING_DOC)] | UnsetType = UNSET
    seats: SeatsHeld | UnsetType = UNSET
    creator_holds: CreatorHolds | UnsetType = UNSET
    choices: Annotated[dict[str, str], Meta(description="The rule choices in force (DESIGN 14), from the header; "
                                                        "a game stored before choices existed shows the readings "
                                                        "it is folded under.")] | None | UnsetType = UNSET
    receipt_ok: Annotated[bool, Meta(description="`receipt` given: the log still holds what it signed.")] | \
        UnsetType = UNSET
    receipt_problem: str | UnsetType = UNSET
    sealed: Annotated[SealedReport, Meta(description="UMPIRE-SEAL-2: a battle handed a sealed setup by its campaign: "
                                                     "each sealed part against the header's commitment.")] | \
        UnsetType = UNSET
    seed: Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="Only once the game is finished.")] | None | UnsetType = UNSET
    commitment_ok: bool | None | UnsetType = UNSET
    commitments_ok: Annotated[bool, Meta(description="Every event's commitment against its revealed private part.")] | \
        UnsetType = UNSET
    first_bad_commitment_seq: int | None | UnsetType = UNSET
    commitments_problem: str | None | UnsetType = UNSET
    dice_ok: bool | None | UnsetType = UNSET
    rolls_checked: int | UnsetType = UNSET
    first_bad_roll_seq: int | None | UnsetType = UNSET
    dice_problem: str | None | UnsetType = UNSET


class RecordedEvent(msgspec.Struct):
    seq: Seq
    type: str
    payload: dict[str, Any]
    ruling: dict[str, Any] | None
    rolls: list[RollView]
    engine_version: str


class Difference(msgspec.Struct):
    field: Annotated[str, Meta(description="`accepted`, `events`, or the field of one event that differs.")]
    recorded: Any
    current: Any
    seq: int | UnsetType = UNSET


class Refused(msgspec.Struct):
    rule: str | None
    detail: str


class Redecided(msgspec.Struct):
    """A finished game's step decided again by the current engine, beside what was recorded (DESIGN 6)."""

    seq: Seq
    first_seq: Seq
    last_seq: Seq
    seat: str
    command: dict[str, Any]
    engine_version: str
    recorded: list[RecordedEvent]
    same: bool
    now: list[RecordedEvent] | None
    differences: list[Difference]
    refused: Refused | UnsetType = UNSET
    choices: Annotated[dict[str, str], Meta(description="The rule choices the game was played under (DESIGN 14).")] = {}
    rules: Annotated[list[dict[str, Any]], Meta(description="Every rule the recorded rulings cite: `id`, `title`, "
                                                            "`text`, `url`.")] = []
    by_choice: Annotated[list[dict[str, Any]], Meta(description=(
        "For a step whose ruling cites a rule choice: the step decided under each other option of that choice "
        "(`choice`, `in_force`, `option`, `same` (as the record), `now`, `differences`, `refused`)."))] = []


# -- campaigns ------------------------------------------------------------------------------------
class CampaignCreated(msgspec.Struct):
    campaign_id: str
    campaign: str
    seats: Annotated[dict[str, str], Meta(description="One bearer token per seat; it acts in every battle.")]
    game_id: Annotated[str | None, Meta(description="The first battle (null while the campaign waits for its seats).")]
    status: Annotated[str, Meta(description="`active`, or `waiting` (start `when_ready`).")]
    start: Annotated[str, Meta(description="`now` or `when_ready`.")]
    seed_commitment: Hex64
    bots: Annotated[dict[str, str], Meta(description="Seats played by the service's bots in every battle "
                                                     "(UMPIRE-BOT-1); they have no token.")] | UnsetType = UNSET
    seating: Annotated[str, Meta(description=SEATING_DOC)] | UnsetType = UNSET
    invitations: Annotated[dict[str, str], Meta(description="Seating `invitations`: one one-time invitation per seat "
                                                            "the creator did not keep (POST /campaigns/{id}/seats/"
                                                            "{seat}/claim); the seat's token acts in every battle.")] | \
        UnsetType = UNSET
    seed_given: Annotated[bool, Meta(description="The creator chose the campaign's seed (UMPIRE-SEAT-6).")] | \
        UnsetType = UNSET


class CampaignReady(msgspec.Struct):
    """``POST /campaigns/{id}/ready``: the seat is ready; the last one opens the campaign."""

    campaign_id: str
    version: int
    status: Annotated[str, Meta(description="`waiting`, or `active` once every seat is ready.")]
    game_id: Annotated[str | None, Meta(description="The first battle, once the campaign opened.")]
    waiting_for: list[str]


class CampaignVerify(msgspec.Struct):
    """``GET /campaigns/{id}/verify``: the campaign's own chained stream."""

    campaign_id: str
    version: int
    status: str
    chain_version: int
    chain_ok: bool
    first_broken_seq: int | None | UnsetType = UNSET
    problem: str | None | UnsetType = UNSET
    client_seeds: dict[str, str | None] | UnsetType = UNSET
    seed_given: Annotated[bool, Meta(description="The creator chose the campaign's seed: it can compute every draw of "
                                                 "the campaign and of its battles (UMPIRE-SEAT-6).")] | UnsetType = UNSET
    seating: Annotated[str, Meta(description=SEATING_DOC)] | UnsetType = UNSET
    seats: SeatsHeld | UnsetType = UNSET
    creator_holds: CreatorHolds | UnsetType = UNSET
    seed: Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="Only once the campaign is finished.")] | \
        UnsetType = UNSET
    commitment_ok: bool | UnsetType = UNSET
    commitments_ok: bool | UnsetType = UNSET
    first_bad_commitment_seq: int | None | UnsetType = UNSET
    commitments_problem: str | None | UnsetType = UNSET


class CampaignBattle(msgspec.Struct):
    number: int
    node: str
    scenario: str
    game_id: str
    leaders: dict[str, str]
    winner: str | None


class CarriedCards(msgspec.Struct):
    support_hand: list[str]
    leader: str | None
    leader_cards: list[str]


class SecretObjectiveView(msgspec.Struct):
    id: str
    title: str
    text: str
    met: bool


class RevealedObjective(msgspec.Struct):
    id: str
    faction: str
    title: str
    met: bool


class CampaignView(msgspec.Struct):
    """A campaign as the caller may see it: own carried cards and briefing only, until it ends."""

    campaign_id: str
    ruleset: str
    campaign: str | None
    title: str | None
    status: Annotated[str, Meta(description="`waiting` (start `when_ready`, not every seat ready), `new`, `active` or `finished`.")]
    winner: str | None
    seat: str | None
    node: str | None
    game_id: Annotated[str | None, Meta(description="The battle being played now.")]
    battles: list[CampaignBattle]
    carried: dict[str, CarriedCards]
    support_hand_sizes: dict[str, int]
    setup_changes: list[dict[str, Any]]
    outcome_text: str | None
    briefing: str
    secret_objectives: list[SecretObjectiveView]
    revealed_objectives: list[RevealedObjective]
    version: int
    seed_commitment: Hex64
    client_seeds: Annotated[dict[str, str | None], Meta(description="A when_ready campaign: each seat's client "
                                                                    "seed.")] | UnsetType = UNSET
    waiting_for: Annotated[list[str], Meta(description="A waiting campaign: the seats that have not posted "
                                                       "ready.")] | UnsetType = UNSET
    seed: Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="Only once the campaign is finished.")] | UnsetType = UNSET
    seed_given: Annotated[bool, Meta(description="The creator chose the campaign's seed (UMPIRE-SEAT-6).")] | \
        UnsetType = UNSET
    seating: Annotated[str, Meta(description=SEATING_DOC)] | UnsetType = UNSET
    seats: SeatsHeld | UnsetType = UNSET
    creator_holds: CreatorHolds | UnsetType = UNSET


#: Every documented body, for the document's components.
DOCUMENTED: tuple[Any, ...] = (
    RulesetInfo, RuleText, Health, PublicKey, GameCreated, Lobby, GameView, LegalCommands, EventsPage, CommandResult,
    DryRunResult, RulingView, Timeline, VerifyResult, Redecided, CampaignCreated, CampaignView, CampaignReady,
    CampaignVerify, SeatToken,
)

#: Bodies typed per ruleset in the document (they carry the ruleset's commands or events; each has ``ruleset``),
#: and the types only they use.
PER_RULESET: tuple[Any, ...] = (LegalCommands, EventsPage, CommandResult, DryRunResult, EventEntry, DryRunEvent)

__all__ = [
    "DOCUMENTED", "PER_RULESET", "CampaignCreated", "CampaignReady", "CampaignVerify", "CampaignView", "Choice",
    "Command", "CommandResult", "CommandTemplate", "DryRunEvent", "DryRunResult", "EventEntry", "EventsPage",
    "GameCreated", "GameEvent", "GameView", "Health", "LegalCommands", "Lobby", "LobbyEntry", "PublicKey", "Receipt",
    "Redecided", "RuleText", "RulesetInfo", "RulingView", "Timeline", "TimelineEntry", "UndoRequestView",
    "SeatHeld", "SeatToken", "VerifyResult",
]

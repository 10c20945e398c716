"""The Battle of Hoth ruleset: the kernel's decider protocol (DESIGN 1, domain/kernel/decider.py).

How a turn runs (section 4): ``play_card`` -> ``order_unit``* / ``end_orders`` -> ``move``* /
``end_moves`` -> ``attack``* / ``end_turn`` (discard, draw, next seat). A step in which nothing is
left to do closes by itself (e.g. HOTH-ORDER-5: a card naming an empty section; no attack
possible: the turn ends), so every listed command is a real choice.

Decisions inside an attack belong to the seat the rules name and stop the flow with a
``decision_pending`` event until that seat answers: the retreat path and the trench's ignored
retreat (the defender, HOTH-RETREAT-3, HOTH-TERRAIN-TRENCH-3), re-rolls (the attacker,
HOTH-SPECIAL-EWEB-6), the breakthrough and its attack (the attacker, HOTH-SPECIAL-ASSAULT-*),
card choices and support-card reaction windows. ``status().to_act`` names that seat;
``legal_commands`` lists exactly its options. In team play the defender's decisions go to the
faction's first seat (HOTH-TEAM-2; INFERRED).

``decide`` folds each event it emits (Outbox) so later steps see earlier effects; every die is
rolled with the kernel ``Dice`` and attached to the event that needed it. Deck order events
have visibility ``"umpire"`` (nobody) until the game ends; hands go to their seat only.

Over 500 lines on purpose: the ruleset's one entry point (the decider protocol) dispatches every command
of a turn and every pending decision; the rules themselves live in the modules it calls.
"""
from __future__ import annotations

from itertools import combinations, permutations
from typing import Any, ClassVar

from domain.kernel.choices import RuleChoice, in_force
from domain.kernel import (
    ACTIVE, FINISHED, Choice, Dice, Emitted, NotYourDecision, RuleViolation, RulingBuilder, Setup, SetupError, Status,
)

from domain.kernel.messages import Message, msg, msg_n, named

from . import commands as C
from . import labels, terms
from .campaign.rules import HothCampaigns
from .choices import CHOICES, FIRST_DRAW, choice, cite
from .events import NOBODY, CardsDrawn, DeckShuffled, GameOpened, HothEvent, SupportDealt, TurnStarted
from .evolve import evolve as _evolve
from .medals import settle
from .orders import order_options
from .outbox import Outbox
from .resolution import (
    SUPPORT_REROLL, attack, breakthrough_choice, breakthrough_targets, reroll, retreat_choice, support_reaction,
    trench_choice,
)
from .state import ATTACK, MOVE, ORDER, PLAY, HothState, faction_of
from .reinforcements import reinforcement_hexes
from .team import (
    TEAM_PERSONAL_DECK, faction_seats, leaders_option, options_schema, seats_for, team_hand_size, turn_order,
)
from .turns import (
    advance, all_attacks, arrange, close_orders, discard_cards, end_moves, end_turn, move, move_options,
    order_unit, play_card, reinforce,
)
from .support import play_support, support_options
from .units import badge_allowed
from .board import label as board_label
from .view import PRINTED, card_texts, render, summarize, view_of
from .faces import check_rolls
from .events import AttackFinished
from .text import render_state

ENGINE_VERSION = "hoth-0.1.0"


def check_badges(sc: Any) -> None:
    """HOTH-SPECIAL-3: elite squadrons on snowspeeders only, the other badges on infantry (also in
    campaign-derived setups, which reach the engine as catalog scenarios)."""
    for i, us in enumerate(sc.units):
        if us.badge is not None and not badge_allowed(us.unit, us.badge):
            raise SetupError(f"scenario.units[{i}].badge", msg(
                "HOTH-SPECIAL-3: a {badge} badge cannot go on {unit_type} (scenario {scenario}, unit at {hex}).",
                badge=us.badge, unit_type=us.unit, scenario=sc.id, hex=board_label(tuple(us.hex))))


class HothRuleset:
    id: ClassVar[str] = "hoth"
    #: The printed title people know the game by.
    title: ClassVar[str] = "Battle of Hoth"
    engine_version: ClassVar[str] = ENGINE_VERSION
    command_type: ClassVar[Any] = C.HothCommand
    event_type: ClassVar[Any] = HothEvent
    state_type: ClassVar[Any] = HothState

    def __init__(self, catalog: Any = None):
        self._catalog = catalog
        self._load_content: Any = None
        self._campaigns: HothCampaigns | None = None

    # -- content (handed in by the registry: the domain never imports the loader) --------
    def use_content(self, load: Any) -> None:
        """Kernel protocol: ``load()`` returns the shipped catalog (called once, when first needed)."""
        self._load_content = load

    def catalog(self) -> Any:
        if self._catalog is None:
            if self._load_content is None:
                raise RuntimeError("hoth has no content: pass a catalog, or let a composition root hand it in "
                                   "(scenarios.content.hand_to_rulesets)")
            self._catalog = self._load_content()
        return self._catalog

    def scenarios(self) -> list[Choice]:
        return [Choice(id=s.id, title=s.title) for s in self.catalog().scenarios.values()]

    def campaigns(self) -> list[Choice]:
        return self.campaign_rules().campaigns()

    def campaign_rules(self) -> HothCampaigns:
        """Kernel protocol (optional): the campaigns of the Battle of Hoth (content 3.1)."""
        if self._campaigns is None:
            self._campaigns = HothCampaigns(self.catalog)
        return self._campaigns

    def options_schema(self) -> dict[str, Any]:
        """Kernel protocol: the JSON schema of ``options`` in ``POST /games`` (shown by ``GET /rulesets``)."""
        cat = self.catalog()
        support = {f: tuple(c for c in cat.cards.values() if c.kind == "support" and c.faction == f)
                   for f in ("imperial", "rebel")}
        return options_schema(support)

    def sides(self, setup: Setup) -> dict[str, str]:
        """UMPIRE-SIDE-1 (HOTH-TEAM-*): each seat plays its faction; a team's two seats are one side."""
        return {s: ("imperial" if s in faction_seats(setup.seats, "imperial") else "rebel") for s in setup.seats}

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        if scenario not in self.catalog().scenarios:
            raise SetupError("scenario", msg("unknown Battle of Hoth scenario {scenario}", scenario=repr(scenario)))
        check_badges(self.catalog().scenarios[scenario])
        unknown = set(options) - {"team", "leaders", "support"}
        if unknown:
            raise SetupError(f"options.{sorted(unknown)[0]}", msg("unknown option (known: {options})",
                                                                  options="team, leaders, support"))
        for name, kinds, what in (("team", (bool, str), msg('true, false, "imperial" or "rebel"')),
                                  ("leaders", dict, msg("an object")), ("support", dict, msg("an object"))):
            if name in options and not isinstance(options[name], kinds):
                raise SetupError(f"options.{name}", msg("{option} is {what}, not {got}", option=name, what=what,
                                                        got=type(options[name]).__name__))
        sup = options.get("support") or {}
        if not isinstance(sup, dict):
            raise SetupError("options.support", msg("support maps a faction to the support card ids it holds"))
        for f, ids in sup.items():
            if f not in ("imperial", "rebel") or not isinstance(ids, (list, tuple)):
                raise SetupError("options.support", msg('support maps "imperial"/"rebel" to a list of card ids'))
            for cid in ids:
                c = self.catalog().cards.get(cid) if isinstance(cid, str) else None
                if c is None or c.kind != "support" or c.faction != f:
                    raise SetupError("options.support", msg("{card} is not a support card of {side}", side=terms.side(f),
                                                            card=repr(cid) if c is None else named(c.title, cid)))
        seats = seats_for(options)
        leaders = leaders_option(options)
        for f, names in leaders.items():
            if len(names) > len(faction_seats(seats, f)):
                raise SetupError("options.leaders", msg("one leader per player of {side} (HOTH-LEADER-4, HOTH-TEAM-6)",
                                                        side=terms.side(f)))
        return seats

    def rule_choices(self) -> tuple[RuleChoice, ...]:
        """DESIGN 14: the questions the originals leave open (domain/hoth/choices.py, rules.md section 15)."""
        return CHOICES

    def initial_state(self, setup: Setup) -> HothState:
        return HothState(game_id=setup.game_id, scenario_id=setup.scenario, seats=tuple(setup.seats),
                         options=dict(setup.options), choices=in_force(CHOICES, setup.choices))

    # -- opening -----------------------------------------------------------------------
    def open(self, state: HothState, dice: Dice) -> list[Emitted]:
        cat = self.catalog()
        sc = cat.scenarios.get(state.scenario_id)
        if sc is None:
            raise SetupError("scenario", msg("unknown Battle of Hoth scenario {scenario}",
                                             scenario=repr(state.scenario_id)))
        check_badges(sc)
        seats = state.seats
        order = turn_order(sc.first, seats)
        leaders = leaders_option(state.options)
        counters = {"imperial": 0, "rebel": 0}
        unit_ids = []
        for us in sc.units:
            counters[us.faction] += 1
            unit_ids.append(us.id or f"{'E' if us.faction == 'imperial' else 'R'}{counters[us.faction]}")
        decks: dict[str, list[str]] = {}
        used: dict[str, Any] = {}
        out = Outbox(state, dice)
        plans: list[tuple[str, tuple[str, ...], int]] = []
        for f in ("imperial", "rebel"):
            members = faction_seats(seats, f)
            std = list(cat.deck(f).cards)
            names = leaders.get(f, ())
            hand = sc.side(f).hand_size
            if len(members) == 1:
                cards = std + (list(cat.leader_cards(names[0])) if names else [])
                decks[members[0]] = dice.shuffle(cards)
                plans.append((members[0], tuple(decks[members[0]]), hand))
            else:
                # HOTH-TEAM-4..6: shuffle, deal 8 each, add each member's leader, reshuffle, draw half
                mixed = dice.shuffle(std)
                for i, m in enumerate(members):
                    personal = mixed[i * TEAM_PERSONAL_DECK:(i + 1) * TEAM_PERSONAL_DECK]
                    if i < len(names):
                        personal = dice.shuffle(personal + list(cat.leader_cards(names[i])))
                    decks[m] = personal
                    plans.append((m, tuple(personal), team_hand_size(hand)))
            for m in members:
                for c in decks[m]:
                    used[c] = cat.cards[c]
        support = {f: tuple(ids) for f, ids in sorted((state.options.get("support") or {}).items())}
        if support:
            # every support card definition, so the public opening does not tell which ones are held
            for cid, c in cat.cards.items():
                if c.kind == "support":
                    used[cid] = c
        rolls = dice.take()
        rb = RulingBuilder().add("HOTH-SETUP-3", msg("Scenario {title}: terrain, structures and units placed.",
                                                      title=sc.title), scenario=sc.id).add(
            "HOTH-TURN-1", msg("{side}: first to play.", side=terms.side(sc.first)), order=list(order))
        opened = GameOpened(scenario=sc, cards=tuple(used[k] for k in sorted(used)), seats=seats, turn_order=order,
                            unit_ids=tuple(unit_ids))
        out.items.append(Emitted(event=opened, ruling=rb.build(msg("{title} set up", title=sc.title))))
        out.state = _evolve(out.state, opened)
        first = True
        for seat, deck, _ in plans:
            ev = DeckShuffled(seat=seat, size=len(deck), deck=deck)
            out.items.append(Emitted(event=ev, ruling=RulingBuilder().add(
                "HOTH-SETUP-9", msg_n("The command deck of {seat} is shuffled ({count} cards).",
                                     "The command deck of {seat} is shuffled ({count} cards).", "count",
                                     seat=terms.side(seat), count=len(deck))).build(
                msg("{seat}: deck shuffled", seat=terms.side(seat))),
                visibility=NOBODY, rolls=rolls if first else (), reveals=True))
            first = False
            out.state = _evolve(out.state, ev)
        for seat, deck, hand in plans:
            ev2 = CardsDrawn(seat=seat, count=hand, cards=deck[:hand])
            out.items.append(Emitted(event=ev2, ruling=RulingBuilder().add(
                "HOTH-SETUP-9" if hand == sc.side(faction_of(seat)).hand_size else "HOTH-TEAM-5",
                msg_n("{seat}: an opening hand of {count} drawn.", "{seat}: an opening hand of {count} drawn.", "count",
                      seat=terms.side(seat), count=hand), count=hand).build(
                msg_n("{seat}: {count} card(s) drawn", "{seat}: {count} card(s) drawn", "count", seat=terms.side(seat), count=hand)),
                visibility=seat, reveals=True))
            out.state = _evolve(out.state, ev2)
        for f, cards in support.items():
            ev3 = SupportDealt(faction=f, count=len(cards), cards=cards)
            out.items.append(Emitted(event=ev3, ruling=RulingBuilder().add(
                "HOTH-CARD-4", msg_n("{faction}: {count} support card(s) brought into the battle (content 3.1).",
                                     "{faction}: {count} support card(s) brought into the battle (content 3.1).",
                                     "count", faction=terms.side(f), count=len(cards))).build(
                msg("{faction}: support cards", faction=terms.side(f))), visibility=faction_seats(seats, f)[0]))
            out.state = _evolve(out.state, ev3)
        if choice(out.state, FIRST_DRAW) == "draw":
            starter = order[0]
            top = out.state.decks[starter][:1]
            ev4 = CardsDrawn(seat=starter, count=len(top), cards=top)
            out.items.append(Emitted(event=ev4, ruling=cite(RulingBuilder(),
                FIRST_DRAW, "draw", msg("{seat}: a card drawn before the first turn.", seat=terms.side(starter))).add(
                "HOTH-SETUP-11", msg_n("{seat}: {count} card drawn, then the first turn.",
                                       "{seat}: {count} card drawn, then the first turn.", "count",
                                       seat=terms.side(starter), count=len(top)), count=len(top)).build(
                msg_n("{seat}: {count} card(s) drawn", "{seat}: {count} card(s) drawn", "count", seat=terms.side(starter),
                      count=len(top))), visibility=starter, reveals=True))
            out.state = _evolve(out.state, ev4)
        if not settle(out):
            rb = RulingBuilder()
            if choice(out.state, FIRST_DRAW) == "draw":
                rb.add("HOTH-SETUP-11", msg("{seat}: first to play a card.", seat=terms.side(order[0])))
            else:
                cite(rb, FIRST_DRAW, "play", msg("no extra draw before the first turn.")).add(
                    "HOTH-SETUP-11", msg("{seat}: first to play a card (no extra draw, HOTH-GAP-25).",
                                        seat=terms.side(order[0])))
            out.emit(TurnStarted(seat=order[0], turn=1), rb, summary=msg("turn {turn}: {seat}", turn=1, seat=terms.side(order[0])))
        return out.items

    # -- verification (kernel protocol, optional) ----------------------------------------
    def check_rolls(self, event: Any, rolls: Any) -> str | None:
        """The faces an event records follow from its draws' values (domain/hoth/faces.py)."""
        return check_rolls(event, rolls)

    # -- decisions ---------------------------------------------------------------------
    def decide(self, state: HothState, seat: str, command: Any, dice: Dice) -> list[Emitted]:
        return self.step(state, seat, command, dice)[0]

    def step(self, state: HothState, seat: str, command: Any, dice: Dice,
             explain: bool = True) -> tuple[list[Emitted], HothState]:
        """``decide``, and the state after its events (folded while they were emitted).

        ``explain=False`` is for a bot's playouts only (bots/hoth): the same state, but an attack's event and
        ruling leave out the line-of-sight details; refusals may come without their sentence."""
        if not state.opened:
            raise RuleViolation("HOTH-SETUP-1", msg("The game has not been set up yet."))
        if state.winner is not None:
            raise RuleViolation("HOTH-WIN-5", msg("The game is over: {side} won.", side=terms.side(state.winner)))
        st = self.status(state)
        if seat not in st.to_act:
            raise NotYourDecision(msg("The decision is now for {seats}, not for {seat}.", seats=terms.sides(st.to_act),
                                      seat=terms.side(seat)))
        out = Outbox(state, dice, explain)
        p = state.pending
        t = state.turn
        assert t is not None
        if p is not None and p.kind == "support":
            if isinstance(command, C.PlaySupport) and command.target is None and command.hex is None:
                support_reaction(out, True, command.card)
            elif isinstance(command, C.PassSupport):
                support_reaction(out, False)
            else:
                raise RuleViolation("HOTH-CARD-4", msg("A support-card decision must be made first (send "
                                                       "play_support with the card, or pass_support)."))
        elif isinstance(command, C.PlaySupport):
            play_support(out, seat, command.card, command.target, command.hex)
        elif p is not None:
            self._pending_command(out, p, command)
        elif isinstance(command, C.PlayCard) and t.phase == PLAY:
            play_card(out, seat, command.card)
        elif isinstance(command, C.OrderUnit) and t.phase == ORDER:
            order_unit(out, command.unit, command.slot)
        elif isinstance(command, C.EndOrders) and t.phase == ORDER:
            close_orders(out)
        elif isinstance(command, C.Move) and t.phase == MOVE:
            move(out, command.unit, command.path)
        elif isinstance(command, C.EndMoves) and t.phase == MOVE:
            end_moves(out)
        elif isinstance(command, C.Attack) and t.phase == ATTACK:
            attack(out, command.unit, command.target, special=command.special)
        elif isinstance(command, C.EndTurn) and t.phase == ATTACK:
            end_turn(out)
        else:
            real = _real_reason(state, command)
            if real is not None:
                raise real
            rule, why = _step_rule(t.phase, command)
            raise RuleViolation(rule, msg("Now is the {phase} step of the turn; {command} does not fit it: "
                                          "{why}.", phase=terms.phase(t.phase), command=type(command).__name__, why=why))
        advance(out)
        return out.items, out.state

    def _pending_command(self, out: Outbox, p: Any, cmd: Any) -> None:
        k = p.kind
        if k == "reroll" and isinstance(cmd, C.Reroll):
            reroll(out, tuple(cmd.dice))
        elif k == "trench" and isinstance(cmd, C.IgnoreRetreat):
            trench_choice(out, cmd.ignore)
        elif k == "retreat" and isinstance(cmd, C.Retreat):
            retreat_choice(out, tuple(cmd.path))
        elif k == "breakthrough" and isinstance(cmd, C.Breakthrough):
            breakthrough_choice(out, cmd.advance)
        elif k == "breakthrough_attack" and isinstance(cmd, C.Attack):
            if cmd.unit != p.unit:
                raise RuleViolation("HOTH-SPECIAL-ASSAULT-3", msg("The breakthrough attack of {unit} comes "
                                                                  "before any other attack.", unit=p.unit))
            attack(out, cmd.unit, cmd.target, breakthrough=True, special=cmd.special)
        elif k == "breakthrough_attack" and isinstance(cmd, C.SkipAttack):
            out.emit(AttackFinished(attacker=p.unit or ""), RulingBuilder().add(
                "HOTH-SPECIAL-ASSAULT-6", msg("{unit} does not make the breakthrough attack (optional).", unit=p.unit)),
                summary=msg("breakthrough attack declined"))
        elif k == "discard" and isinstance(cmd, C.DiscardCards):
            discard_cards(out, p.seat, tuple(cmd.cards))
        elif k == "arrange" and isinstance(cmd, C.ArrangeDeck):
            arrange(out, p.seat, tuple(cmd.order))
        elif k == "place" and isinstance(cmd, C.Reinforce):
            reinforce(out, p.seat, tuple(cmd.hex))
        else:
            raise RuleViolation(_PENDING_RULE.get(k, "HOTH-ATTACK-10"),
                                msg("A {decision} decision must be made first (send {commands}).",
                                    decision=terms.decision(k), commands=_PENDING_HINT.get(k, ""))
                                if k in _PENDING_HINT else msg("A {decision} decision must be made first ().",
                                                               decision=terms.decision(k)))

    def evolve(self, state: HothState, event: Any) -> HothState:
        return _evolve(state, event)

    # -- queries -----------------------------------------------------------------------
    def status(self, state: HothState) -> Status:
        if state.winner is not None:
            return Status(status=FINISHED, to_act=(), winner=state.winner, turn=state.turn_no,
                          turn_seat=state.turn.seat if state.turn else None)
        if state.pending is not None:
            to_act: tuple[str, ...] = (state.pending.seat,)
        elif state.turn is not None:
            to_act = (state.turn.seat,)
        else:
            to_act = ()
        return Status(status=ACTIVE, to_act=to_act, turn=state.turn_no,
                      turn_seat=state.turn.seat if state.turn else None)

    def legal_commands(self, state: HothState, seat: str) -> list[Any]:
        if not state.opened or state.winner is not None or state.turn is None:
            return []
        p = state.pending
        if p is not None:
            if p.seat != seat:
                return []
            return _pending_options(state, p)
        t = state.turn
        if t.seat != seat:
            return []
        out: list[Any] = []
        if state.support.get(t.faction):
            out = [C.PlaySupport(card=c, target=a.get("target"), hex=a.get("hex")) for c, a in support_options(state, seat)]
        if t.phase == PLAY:
            hand = state.hands.get(seat, ())
            return out + [C.PlayCard(card=c) for c in dict.fromkeys(hand) if state.cards[c].kind != "support"]
        if t.phase == ORDER:
            return out + [C.OrderUnit(unit=u, slot=s) for u, s in order_options(state, t.faction)] + [C.EndOrders()]
        if t.phase == MOVE:
            return out + [C.Move(unit=u, path=p_) for u, p_ in move_options(state)] + [C.EndMoves()]
        if t.phase == ATTACK:
            return out + [C.Attack(unit=u, target=x, special=sp) for u, x, sp in all_attacks(state)] + [C.EndTurn()]
        return out

    #: the printed words of its content in a view (domain/kernel/printed.py)
    printed_paths: ClassVar[Any] = PRINTED

    def printed_samples(self) -> list[dict[str, Any]]:
        """Views holding printed words a game of one scenario may not show (ops/i18n-extract): every card's face."""
        cards = self.catalog().cards
        return [{"cards": card_texts({"decks": {"all": sorted(cards)}}, cards)}]

    def view(self, state: HothState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        out = view_of(state, seat, reveal_all)
        if out.get("opened"):
            out["cards"] = card_texts(out, self.catalog().cards)
        return out

    def summary(self, event: Any) -> "str | Message":
        return summarize(event, self.catalog().cards)

    def render_svg(self, state: HothState, seat: str | None, recent: list[Any], say: Any = None) -> str:
        """Kernel protocol; ``say`` (optional): writes a message in the reader's language (issue 28)."""
        return render(state, seat, recent, say) if say is not None else render(state, seat, recent)

    # -- words for people (kernel protocol, optional: domain/kernel/words.py) --------------
    def describe(self, state: HothState, seat: str, command: Any) -> dict[str, Any]:
        return labels.describe(state, seat, command, self.catalog().cards)

    def names(self, state: HothState) -> dict[str, str]:
        return labels.names(state, self.catalog().cards)

    def acted_by(self, event: Any) -> str | None:
        return labels.acted_by(event)

    def seat_names(self) -> "dict[str, Any]":
        return labels.SEAT_NAMES

    def render_text(self, state: HothState, seat: str | None) -> "str | Message":
        """Kernel protocol (optional): the board as text, for ``umpire replay``."""
        return render_state(state, seat)


def _real_reason(state: HothState, cmd: Any) -> RuleViolation | None:
    """Why a command of a step that has already closed (often by itself, HOTH-TURN-4) no longer fits."""
    t = state.turn
    assert t is not None
    if isinstance(cmd, C.Move) and t.phase == ATTACK:
        if cmd.unit in t.moved:
            return RuleViolation("HOTH-MOVE-2", msg("{unit} has already moved this turn (each ordered unit "
                                                    "moves once).", unit=cmd.unit), unit=cmd.unit)
        return RuleViolation("HOTH-TURN-4", msg("The Move step has already ended: all movement ends before "
                                                "the first attack."), unit=cmd.unit)
    if isinstance(cmd, C.EndMoves) and t.phase == ATTACK:
        return RuleViolation("HOTH-TURN-4", msg("The Move step has already ended (no ordered unit had a move "
                                                "left)."))
    if isinstance(cmd, C.EndOrders) and t.phase in (MOVE, ATTACK):
        if t.ordered:
            return RuleViolation("HOTH-ORDER-4", msg("The Order step has already ended: no further unit can be "
                                                     "ordered with this card, or you ended the orders; now is the "
                                                     "{phase} step.", phase=terms.phase(t.phase)))
        return RuleViolation("HOTH-ORDER-5", msg("The Order step has already ended: the card orders no unit you "
                                                 "have; now is the {phase} step.", phase=terms.phase(t.phase)))
    return None


_PHASE_RULE = {PLAY: "HOTH-CARD-1", ORDER: "HOTH-ORDER-1", MOVE: "HOTH-TURN-4", ATTACK: "HOTH-ATTACK-1"}


def _step_rule(phase: str, cmd: Any) -> tuple[str, Message]:
    """The rule a command out of step breaks, and what that rule says (the steps come in order,
    HOTH-TURN-2); the refusal's sentence states the rule it names."""
    if phase == PLAY:
        return "HOTH-CARD-1", msg("a turn starts by playing a command card")
    if isinstance(cmd, C.PlayCard):
        return "HOTH-CARD-1", msg("exactly one command card is played per turn")
    if isinstance(cmd, C.OrderUnit):
        return "HOTH-ORDER-1", msg("units are ordered right after the card is played")
    if isinstance(cmd, (C.Move, C.EndMoves)) and phase == ATTACK:
        return "HOTH-TURN-4", msg("all movement ends before the first attack")
    if isinstance(cmd, C.Attack):
        return "HOTH-ATTACK-1", msg("attacks begin once every ordered unit has finished moving")
    return "HOTH-TURN-2", msg("a turn goes: play a card, order, move, attack, draw")


_PENDING_RULE = {"reroll": "HOTH-SPECIAL-EWEB-6", "trench": "HOTH-TERRAIN-TRENCH-3", "retreat": "HOTH-RETREAT-3",
                 "breakthrough": "HOTH-SPECIAL-ASSAULT-1", "breakthrough_attack": "HOTH-SPECIAL-ASSAULT-3",
                 "discard": "HOTH-CARD-4", "arrange": "HOTH-CARD-4", "place": "HOTH-CARD-4"}
#: The command(s) a pending decision waits for.
_PENDING_HINT: dict[str, Any] = {
    "reroll": "reroll", "trench": "ignore_retreat", "retreat": "retreat", "breakthrough": "breakthrough",
    "breakthrough_attack": msg("{a} or {b}", a="attack", b="skip_attack"), "discard": "discard_cards",
    "arrange": "arrange_deck", "place": "reinforce"}


def _pending_options(state: HothState, p: Any) -> list[Any]:
    k = p.kind
    if k == "reroll":
        faces = state.attack.faces if state.attack else ()
        if p.which == "miss":
            misses = tuple(i for i, f in enumerate(faces) if f == "miss")
            return [C.Reroll(dice=())] + ([C.Reroll(dice=misses)] if misses else [])
        if p.which == "all":  # HOTH-CHOICE-EWEB "all": every die or none
            return [C.Reroll(dice=()), C.Reroll(dice=tuple(range(len(faces))))]
        if p.which == SUPPORT_REROLL and not p.cards:
            return [C.Reroll(dice=())]  # content 3.1: the window opened, but no card of this seat re-rolls
        n = len(faces)
        return [C.Reroll(dice=tuple(c)) for r in range(n + 1) for c in combinations(range(n), r)]
    if k == "trench":
        return [C.IgnoreRetreat(ignore=True), C.IgnoreRetreat(ignore=False)]
    if k == "retreat":
        return [C.Retreat(path=o) for o in p.options]
    if k == "breakthrough":
        return [C.Breakthrough(advance=True), C.Breakthrough(advance=False)]
    if k == "breakthrough_attack":
        return [C.Attack(unit=p.unit, target=t, special=sp) for t, sp in breakthrough_targets(state, p.unit)] \
            + [C.SkipAttack()]
    if k == "discard":
        hand = state.hands.get(p.seat, ())
        seen: dict[tuple[str, ...], None] = {}
        for r in range(min(p.max, len(hand)) + 1):
            for c in combinations(hand, r):
                seen[tuple(sorted(c))] = None
        if p.which == "exact":
            return [C.DiscardCards(cards=c) for c in seen if len(c) == p.max]
        return [C.DiscardCards(cards=c) for c in seen]
    if k == "arrange":
        return [C.ArrangeDeck(order=o) for o in dict.fromkeys(permutations(p.cards))]
    if k == "support":
        return [C.PlaySupport(card=c) for c in dict.fromkeys(p.cards)] + [C.PassSupport()]
    if k == "place":
        return [C.Reinforce(hex=h) for h in reinforcement_hexes(state, faction_of(p.seat), p.unit_type)]
    return []


RULESET = HothRuleset()

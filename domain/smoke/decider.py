"""The Clouds of Smoke ruleset: the kernel's decider protocol (DESIGN 1, domain/kernel/decider.py).

A game opens from a battle (``scenarios/smoke``) and a line-up of 2..n players in two sides; seats
are ``player-1..n``. Each side turn runs SMOKE-TURN-2: bombardment, actions, battle start,
battles (module ``turns``). Every die is drawn from the kernel ``Dice`` after every legality check
of the command (so a dry run stops at the first draw knowing the command is legal), and every
measurement is written into the event that needed it (``events``).

Hidden information: none (SMOKE-DEP-2's secret column numbers only matter in a column deployment,
which the shipped battles do not use: they deploy historically, SMOKE-ARMY-6). Every view is public.

Over 500 lines on purpose: the ruleset's one entry point dispatches every command of every step of a
side turn and the opening; the rules live in the modules it calls (turns, battle, fire, deployment).
"""
from __future__ import annotations

import math
from typing import Any, ClassVar

import msgspec

from domain.kernel import (
    ACTIVE, FINISHED, Choice, Dice, Emitted, NotYourDecision, RuleViolation, RulingBuilder, Setup, SetupError, Status,
)

from domain.kernel.choices import RuleChoice
from domain.kernel.messages import Message, joined, msg, msg_n
from .choices import CHOICES, VIEW_INSIDE, choices_of
from . import commands as C
from . import deployment as D
from . import faces, labels, options, text
from . import terrain_gen as G
from .actions import (
    activate, end_actions, end_activation, end_placement, move, place_die, ride, take_risk,
)
from .army import additional_commanders, expanded, level_of, starting_morale, strategic_rating  # noqa: F401
from .battle import choose_hits, finish_unit, play_tactic
from .bombardment import aim, bombard_refusal, cite_declining, fire, take_loss
from .commanders import OPPOSITE
from .content import Content
from .events import (
    EdgeChoiceOffered, EdgesChosen, FirstSideChosen, FirstSideRolled, GameOpened, MarkerPlaced, SmokeEvent, StepStarted,
    TacticsEnded,
)
from .evolve import evolve as _evolve
from .geometry import point_box_distance
from .markers import allowed, covers, depth
from .morale import support
from .outbox import Outbox, folded
from .own_army import catalogue, own_armies
from .retreat import execute_retreat, retreat_refusal, roll_retreat_distance
from .seat_words import seat_words
from .state import ACTIONS, BATTLE_START, BATTLES, BOMBARD, Army, Arrival, Commander, SmokeState, Unit
from .terrain_gen import start as start_generation
from .terrain_words import edge_word
from .turns import after_terrain, advance, resolve_hits, start_battle, to_act, unfought
from .view import PRINTED, render, summarize, view_of

ENGINE_VERSION = "smoke-0.1.0"
#: Options a game may set (GAP-B-06/08/10 flags, SMOKE-MP-3 agreement, the line-up size).
OPTIONS = ("players", "sector_half_angle", "fire_contact_uses_bombardment", "allied_command", "armies")
#: Options that rule choices replaced (DESIGN 14): refused in a new game, read from a stored one's setup.
REPLACED = {"blocks_view_strict": VIEW_INSIDE}


class SmokeRuleset:
    id: ClassVar[str] = "smoke"
    #: The printed title people know the game by.
    title: ClassVar[str] = "Clouds of Smoke"
    engine_version: ClassVar[str] = ENGINE_VERSION
    command_type: ClassVar[Any] = C.SmokeCommand
    event_type: ClassVar[Any] = SmokeEvent
    state_type: ClassVar[Any] = SmokeState

    def __init__(self, content: Content | None = None):
        self._content = content
        self._load: Any = None
        self._seat_names: "dict[str, Any] | None" = None

    # -- content ----------------------------------------------------------------------
    def use_content(self, load: Any) -> None:
        """Kernel protocol: ``load()`` returns the shipped content (called once, when first needed)."""
        self._load = load

    def content(self) -> Content:
        if self._content is None:
            if self._load is None:
                raise RuntimeError("smoke has no content: pass it, or let a composition root hand it in "
                                   "(scenarios.content.hand_to_rulesets)")
            self._content = self._load()
        return self._content

    def scenarios(self) -> list[Choice]:
        return [Choice(id=b.id, title=b.title) for b in self.content().battles.values()]

    def campaigns(self) -> list[Choice]:
        return []

    def options_schema(self) -> dict[str, Any]:
        """Kernel protocol: the JSON schema of ``options`` in ``POST /games`` (shown by ``GET /rulesets``). Which
        numbers of players a battle is played by is the battle's (a number it has no line-up for is 422)."""
        players = sorted({lu.players for b in self.content().battles.values() for lu in b.line_ups})
        return {
            "type": "object", "additionalProperties": False,
            "description": "Clouds of Smoke: `players` (the battle's line-up; default its smallest) and the "
                           "table's rule choices.",
            "properties": {
                "players": {"type": "integer", "enum": players, "title": "Players",
                            "description": "Number of players (seats player-1..n); each battle has its own line-ups."},
                "sector_half_angle": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 90,
                                      "title": "Fire sector half-angle (degrees)",
                                      "description": "Half-angle in degrees of a unit's fire sector (GAP-B-10)."},
                "fire_contact_uses_bombardment": {
                    "type": "boolean", "title": "Fire contact also by bombardment range",
                    "description": "GAP-B-06 read literally: units are in fire contact within bombardment range too "
                                   "(default: Fire ranges only, SMOKE-LOF-4)."},
                "allied_command": {"type": "boolean", "title": "Allies command each other's formations",
                                   "description": "SMOKE-MP-3: allied players may activate each other's formations "
                                                  "by agreement."},
                "armies": {"type": "object", "additionalProperties": {"type": "object"}, "title": "Armies",
                           "description": "Each player's own army list (SMOKE-ARMY-1..5), by seat: name, faction, points, "
                                          "commander (mediocre, competent or illustrious), units [{profile, count}], "
                                          "preparations; only for a battle deployed by columns (SMOKE-ARMY-6).",
                           "x-army-building": catalogue(self.content())},
            },
        }

    def seats(self, scenario: str, options: dict[str, Any]) -> tuple[str, ...]:
        battle = self.content().battles.get(scenario)
        if battle is None:
            raise SetupError("scenario", f"unknown Clouds of Smoke battle {scenario!r} (known: "
                                         f"{', '.join(sorted(self.content().battles))})")
        for old, cid in REPLACED.items():
            if old in options:
                raise SetupError(f"options.{old}", f"replaced by the rule choice {cid}: send "
                                                   f"\"choices\": {{\"{cid}\": \"enter\"}} (or \"through\")")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise SetupError(f"options.{unknown[0]}", f"unknown option (known: {', '.join(OPTIONS)})")
        players = options.get("players", min(lu.players for lu in battle.line_ups))
        if not isinstance(players, int) or isinstance(players, bool) or battle.line_up(players) is None:
            known = ", ".join(str(lu.players) for lu in battle.line_ups)
            raise SetupError("options.players", f"{battle.title} is played by {known} players")
        if "sector_half_angle" in options:
            a = options["sector_half_angle"]
            if not isinstance(a, (int, float)) or isinstance(a, bool) or not 0 < a < 90:
                raise SetupError("options.sector_half_angle", "a number of degrees between 0 and 90 (GAP-B-10)")
        for flag in ("fire_contact_uses_bombardment", "allied_command"):
            if flag in options and not isinstance(options[flag], bool):
                raise SetupError(f"options.{flag}", "true or false")
        lu = battle.line_up(players)
        assert lu is not None
        own_armies(options, battle, lu, self.content())  # SMOKE-ARMY-1..6: refused here, before the game exists
        return tuple(a.seat for a in lu.armies)

    def sides(self, setup: Setup) -> dict[str, str]:
        """UMPIRE-SIDE-1 (SMOKE-MP): a seat's side is its army's side in the battle's line-up; the allied
        players of a side are one side."""
        battle = self.content().battles.get(setup.scenario)
        players = setup.options.get("players", min(lu.players for lu in battle.line_ups)) if battle else None
        lu = battle.line_up(players) if battle else None
        if lu is None:
            return {s: s for s in setup.seats}
        return {a.seat: a.side for a in lu.armies}

    def rule_choices(self) -> tuple[RuleChoice, ...]:
        """DESIGN 14: the questions the original leaves open (domain/smoke/choices.py, rules.md)."""
        return CHOICES

    def initial_state(self, setup: Setup) -> SmokeState:
        return SmokeState(game_id=setup.game_id, battle_id=setup.scenario, seats=tuple(setup.seats),
                          options=dict(setup.options), choices=choices_of(setup))

    # -- opening -----------------------------------------------------------------------
    def open(self, state: SmokeState, dice: Dice) -> list[Emitted]:
        content = self.content()
        battle = content.battles.get(state.battle_id)
        if battle is None:
            raise SetupError("scenario", f"unknown Clouds of Smoke battle {state.battle_id!r}")
        players = state.options.get("players", min(lu.players for lu in battle.line_ups))
        lu = battle.line_up(players)
        if lu is None:
            raise SetupError("options.players", f"{battle.title} has no line-up for {players} players")
        out = Outbox(state, dice)
        armies, units, commanders = [], [], []
        sides: dict[str, list[str]] = {s.id: [] for s in battle.sides}
        profiles_used: dict[str, Any] = {}
        boards_used: dict[str, Any] = {}
        reserve, reserve_cmd = [], []
        arrivals: list[Arrival] = []
        columns = battle.deployment == "columns"
        own = own_armies(state.options, battle, lu, content)
        for slot in lu.armies:
            al = own.get(slot.seat) or content.armies[slot.army]
            fac = content.factions[al.faction]
            n = slot.seat.rsplit("-", 1)[-1]
            if columns:  # SMOKE-DEP-4: the players place the army list's units
                placed_units = [(p, 0.0, 0.0, 0.0) for p in expanded(al)]
                n_cmd = 1 + additional_commanders(al, content.preparations)
                spots = [(0.0, 0.0)] * n_cmd
            else:
                placed_units = [(p.profile, p.x, p.y, p.facing) for p in slot.units]
                spots = [(c.x, c.y) for c in slot.commanders]
            # SMOKE-PHASE-1: reinforcements of this seat, numbered after its placed units
            later = [(ev.phase, pl) for ev in lu.events if ev.kind == "reinforcements" and ev.seat == slot.seat
                     for pl in ev.units]
            profs = [content.profiles[p[0]] for p in placed_units] + [content.profiles[pl.profile] for _, pl in later]
            for i, (pid, x, y, f) in enumerate(placed_units, start=1):
                p = content.profiles[pid]
                profiles_used[p.id] = p
                u = Unit(id=f"P{n}-{i:02d}", seat=slot.seat, profile=p.id, x=x, y=y, facing=f % 360.0, w=p.width,
                         d=p.depth)
                (reserve if columns else units).append(u)
            for i, (phase, pl) in enumerate(later, start=len(placed_units) + 1):
                p = content.profiles[pl.profile]
                profiles_used[p.id] = p
                arrivals.append(Arrival(phase=phase, unit=Unit(id=f"P{n}-{i:02d}", seat=slot.seat, profile=p.id, x=pl.x,
                                                               y=pl.y, facing=pl.facing % 360.0, w=p.width, d=p.depth)))
            for j, (x, y) in enumerate(spots):
                c = Commander(id=f"P{n}-G" if j == 0 else f"P{n}-C{j}", seat=slot.seat, x=x, y=y, general=j == 0)
                (reserve_cmd if columns else commanders).append(c)
            morale = starting_morale(profs)
            armies.append(Army(seat=slot.seat, side=slot.side, army=al.id, faction=fac.id, board=fac.board,
                               morale=morale, start_morale=morale, level=level_of(al.commander), skill=al.commander,
                               strategic_rating=strategic_rating(al, content.profiles),
                               preparations=tuple(content.preparations[p].effect for p in al.preparations
                                                  if p in content.preparations)))
            boards_used[fac.board] = content.boards[fac.board]
            sides[slot.side].append(slot.seat)
        if battle.generate_terrain and not battle.terrain_table:  # SMOKE-TGEN-3: the content's table
            battle = msgspec.structs.replace(battle, terrain_table=content.terrain_table)
        opened = GameOpened(battle=battle, kinds=tuple(sorted(content.terrain_kinds.values(), key=lambda k: k.id)),
                            profiles=tuple(profiles_used[k] for k in sorted(profiles_used)),
                            boards=tuple(boards_used[k] for k in sorted(boards_used)),
                            sides={k: tuple(v) for k, v in sides.items()}, armies=tuple(armies), units=tuple(units),
                            commanders=tuple(commanders), reserve=tuple(reserve),
                            reserve_commanders=tuple(reserve_cmd), arrivals=tuple(arrivals))
        rb = RulingBuilder().add("SMOKE-SETUP-1", msg("{title}: {count} units of {count2} armies on a {width:g} x "
                                                      "{height:g} UW table.",
                                                      title=battle.title, count=len(units), count2=len(armies), width=battle.width, height=battle.height))
        if columns:
            rb.add("SMOKE-SETUP-3", msg("The players deploy their armies by columns (SMOKE-DEP-2..4)."))
        else:
            rb.add("SMOKE-ARMY-6", msg("The battle fixes the armies and their deployment."))
        for a in arrivals:
            rb.add("SMOKE-PHASE-1", msg("{id} ({seat}) arrives as a reinforcement in phase {phase}.",
                                        id=a.unit.id, seat=seat_words(a.unit.seat), phase=a.phase),
                   unit=a.unit.id, phase=a.phase, at=[a.unit.x, a.unit.y, a.unit.facing])
        for a in armies:
            rb.add("SMOKE-VIC-1", msg("{seat}: starting army morale {morale}; commander level {level} ({skill}); "
                                      "strategic rating {strategic_rating}.",
                                      seat=seat_words(a.seat), morale=a.morale, level=a.level, skill=a.skill, strategic_rating=a.strategic_rating), seat=a.seat, morale=a.morale,
                   level=a.level, rating=a.strategic_rating)
        out.emit(opened, rb, summary=msg("{title} set up", title=battle.title))
        if battle.first_side is not None:
            order = _order(battle.first_side, list(sides))
            out.emit(FirstSideChosen(side=battle.first_side, order=order),
                     RulingBuilder().add("SMOKE-SETUP-4", msg("The battle decides: side {first_side} goes first.",
                                                              first_side=battle.first_side)),
                     summary=msg("{first_side} goes first", first_side=battle.first_side))
            begin(out, battle.first_side)
            advance(out)
        else:
            first_player_roll(out)
        return out.items

    # -- decisions ---------------------------------------------------------------------
    def decide(self, state: SmokeState, seat: str, command: Any, dice: Dice) -> list[Emitted]:
        if not state.opened:
            raise RuleViolation("SMOKE-SETUP-1", msg("The game has not been set up yet."))
        if state.result is not None:
            r = state.result
            raise RuleViolation(r.rule, msg("The game is over ({kind}: {winner} won).", kind=r.kind, winner=r.winner)
                                if r.winner else msg("The game is over ({kind}).", kind=r.kind))
        acting = to_act(state)
        if seat not in acting:
            raise NotYourDecision(msg("It is {seats}'s decision now, not {seat}'s.",
                                      seats=joined([seat_words(s) for s in acting], ", ") or msg("nobody"), seat=seat_words(seat)))
        out = Outbox(state, dice)
        dispatch(out, seat, command)
        advance(out)
        return out.items

    def evolve(self, state: SmokeState, event: Any) -> SmokeState:
        """The fold of one event; the state a decision's outbox already folded from these two objects when it
        has (``outbox.folded``: the same answer, folded once)."""
        after = folded(state, event)
        return after if after is not None else _evolve(state, event)

    # -- queries -----------------------------------------------------------------------
    def status(self, state: SmokeState) -> Status:
        t = state.turn
        turn_seat = t.players[0] if t and t.players else None
        if state.result is not None:
            return Status(status=FINISHED, to_act=(), winner=state.result.winner or "draw", turn=state.turn_no,
                          turn_seat=turn_seat)
        return Status(status=ACTIVE, to_act=to_act(state), turn=state.turn_no, turn_seat=turn_seat)

    # -- verification (kernel protocol, optional) ----------------------------------------
    def check_rolls(self, event: Any, rolls: Any) -> str | None:
        """The faces an event records follow from its draws' values (domain/smoke/faces.py)."""
        return faces.check_rolls(event, rolls)

    def legal_commands(self, state: SmokeState, seat: str) -> list[Any]:
        return options.legal_commands(state, seat)

    def command_templates(self, state: SmokeState, seat: str) -> list[dict[str, Any]]:
        """Continuous commands with their bounds (kernel protocol, optional): see ``options``."""
        return options.command_templates(state, seat)

    #: the printed words of its content in a view (domain/kernel/printed.py)
    printed_paths: ClassVar[Any] = PRINTED

    def view(self, state: SmokeState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
        return view_of(state, seat, reveal_all)

    def summary(self, event: Any) -> str:
        return summarize(event)

    def render_svg(self, state: SmokeState, seat: str | None, recent: list[Any], say: Any = None) -> str:
        """Kernel protocol; ``say`` (optional): writes a message in the reader's language (issue 28)."""
        return render(state, seat, recent, say)

    # -- words for people (kernel protocol, optional: domain/kernel/words.py) --------------
    def describe(self, state: SmokeState, seat: str, command: Any) -> dict[str, Any]:
        return labels.describe(state, seat, command)

    def describe_template(self, state: SmokeState, seat: str, template: dict[str, Any]) -> dict[str, Any]:
        return labels.describe_template(state, seat, template)

    def names(self, state: SmokeState) -> dict[str, str]:
        return labels.names(state, self.content().armies)

    def acted_by(self, event: Any) -> str | None:
        return labels.acted_by(event)

    def seat_names(self) -> "dict[str, Any]":
        """``player-1..n``, n the most players any battle's line-ups take (SMOKE: seats are numbered)."""
        if self._seat_names is None:
            most = max((lu.players for b in self.content().battles.values() for lu in b.line_ups), default=2)
            self._seat_names = labels.seat_names(most)
        return self._seat_names

    def render_text(self, state: SmokeState, seat: str | None) -> "str | Message":
        return text.render_state(state, seat)


def _order(first: str, sides: list[str]) -> tuple[str, ...]:
    i = sides.index(first)
    return tuple(sides[i:] + sides[:i])


def first_player_roll(out: Outbox) -> None:
    """SMOKE-SETUP-4: each side rolls d6 + strategic rating (a side's best army's rating, INFERRED for
    several armies a side, GAP-B-16); ties are rerolled; the higher total chooses who goes first."""
    st = out.state
    rounds = []
    while True:
        totals = {}
        row: dict[str, Any] = {}
        for side, seats in st.sides.items():
            rating = max(st.armies[s].strategic_rating for s in seats)
            face = out.dice.value(6) + 1
            totals[side] = face + rating
            row[side] = {"face": face, "rating": rating, "total": face + rating}
        rounds.append(row)
        best = max(totals.values())
        top = [s for s, v in totals.items() if v == best]
        if len(top) == 1:
            break
    winner = top[0]
    chooser = st.sides[winner][0]
    rb = RulingBuilder()
    for i, row in enumerate(rounds):
        said = ", ".join(f"{s} {v['face']}+{v['rating']}={v['total']}" for s, v in row.items())
        rb.add("SMOKE-SETUP-4", msg("Reroll: {rolls}.", rolls=said) if i else msg("{rolls}.", rolls=said),
               round=i + 1, rolls=row)
    rb.add("SMOKE-SETUP-4", msg("Side {winner} rolled higher: {chooser} chooses who goes first.",
                                winner=winner, chooser=seat_words(chooser)))
    out.emit(FirstSideRolled(rounds=tuple(rounds), chooser=chooser), rb, summary=msg("{chooser} chooses the first side",
                                                                                     chooser=seat_words(chooser)))


def choose_first(out: Outbox, side: str) -> None:
    st = out.state
    if side not in st.sides:
        raise RuleViolation("SMOKE-SETUP-4", msg("{side} is not a side of this battle ({sides}).",
                                                 side=repr(side), sides=', '.join(st.sides)))
    order = _order(side, list(st.sides))
    out.emit(FirstSideChosen(side=side, order=order),
             RulingBuilder().add("SMOKE-SETUP-5", msg("Side {side} takes the first turn.", side=side)), summary=msg("{side} goes first",
                                                                                                     side=side))
    begin(out, side)


def begin(out: Outbox, side: str) -> None:
    """After the first side is known: the choice of table edges of a "confusion" deployment
    (SMOKE-DEP-5), terrain generation and the column deployment (if the battle has them, SMOKE-SETUP-1
    steps 6 and 7), then turn 1."""
    st = out.state
    if st.battle is not None and st.battle.confusion and not st.edges:
        seat = st.sides[side][0]
        out.emit(EdgeChoiceOffered(seat=seat),
                 RulingBuilder().add("SMOKE-DEP-5", msg('A "confusion" deployment: {seat}, who plays first, chooses '
                                                        "their own table edge; the opponent gets the opposite one.",
                                                        seat=seat_words(seat)),
                                     seat=seat), summary=msg("{seat} chooses its table edge", seat=seat_words(seat)))
        return
    if out.state.battle is not None and out.state.battle.generate_terrain:
        start_generation(out)
    else:
        after_terrain(out)


def choose_edge(out: Outbox, seat: str, edge: str) -> None:
    """SMOKE-DEP-5: the first player's table edge; the other side gets the opposite one."""
    st = out.state
    if st.edge_chooser != seat:
        raise RuleViolation("SMOKE-DEP-5", msg("No table edge is to be chosen by you now."))
    if edge not in OPPOSITE:
        raise RuleViolation("SMOKE-DEP-5", msg("A table edge is south, north, west or east, not {edge}.",
                                               edge=repr(edge)), field="edge")
    mine = st.armies[seat].side
    edges = {s: (edge if s == mine else OPPOSITE[edge]) for s in st.sides}
    out.emit(EdgesChosen(seat=seat, edges=edges),
             RulingBuilder().add("SMOKE-DEP-5", msg("{seat} chooses the {edge} edge as their own; the opponent gets "
                                                    "the {other_edge} edge.", seat=seat_words(seat),
                                                    edge=edge_word(edge), other_edge=edge_word(OPPOSITE[edge])),
                                 edges=edges),
             summary=msg("{seat} takes the {edge} edge", seat=seat_words(seat), edge=edge_word(edge)))
    begin(out, st.side_order[0])


def dispatch(out: Outbox, seat: str, cmd: Any) -> None:  # noqa: C901 - one dispatch per step
    st = out.state
    if st.broken is not None:
        if isinstance(cmd, C.Support):
            return support(out, cmd.choice)
        raise RuleViolation("SMOKE-MP-6", msg("An army is broken: its side chooses Support or Abandon first."))
    if st.chooser is not None:
        if isinstance(cmd, C.ChooseFirst):
            return choose_first(out, cmd.side)
        raise RuleViolation("SMOKE-SETUP-4", msg("The first side must be chosen first (choose_first)."))
    if st.edge_chooser is not None:
        if isinstance(cmd, C.ChooseEdge):
            return choose_edge(out, seat, cmd.edge)
        raise RuleViolation("SMOKE-DEP-5", msg("The first player chooses its table edge first (choose_edge)."))
    if st.generation is not None:
        if isinstance(cmd, C.ChooseQuarters):
            return G.choose(out, seat, cmd.diagonal)
        if isinstance(cmd, C.PlaceTerrain):
            return G.place(out, seat, cmd.kind, cmd.at, cmd.rotation)
        raise RuleViolation("SMOKE-TGEN-2", msg("The terrain is being generated; {command} does not fit it.",
                                                command=type(cmd).__name__))
    if st.deployment is not None:
        if isinstance(cmd, C.AssignColumns):
            return D.assign_columns(out, seat, tuple(tuple(c) for c in cmd.columns))
        if isinstance(cmd, C.PlaceFortification):
            return D.place_fortification(out, seat, cmd.at, cmd.facing, cmd.unit)
        if isinstance(cmd, C.PlaceColumn):
            return D.place_column(out, seat, cmd.column, cmd.at)
        if isinstance(cmd, C.DeployUnit):
            return D.deploy_unit(out, seat, cmd.unit, cmd.at, cmd.facing)
        if isinstance(cmd, C.DeployCommander):
            return D.deploy_commander(out, seat, cmd.commander, cmd.at)
        cur = D.current(st)
        raise RuleViolation("SMOKE-SETUP-1", msg("The armies are being deployed ({stage}); {command} does not fit "
                                                 "it.", stage=cur[0] if cur else msg("done"), command=type(cmd).__name__))
    t = st.turn
    assert t is not None
    if isinstance(cmd, C.Retreat):
        pend = t.bombard_retreat if t.step == BOMBARD else (t.battle.retreat if t.battle else None)
        if pend is None:
            raise RuleViolation("SMOKE-RET-3", msg("No retreat is waiting for its direction."))
        ok = execute_retreat(out, pend.unit, cmd.direction, pend.context)
        if pend.context == "battle" and not out.over and ok:
            finish_unit(out, pend.unit, True)
        return None
    if t.step == BOMBARD:
        if t.bombard_retreat is not None:
            raise RuleViolation("SMOKE-RET-3", msg("Choose the retreat direction first (retreat)."))
        if any(l.left > 0 for l in t.losses):
            if isinstance(cmd, C.TakeLoss):
                return take_loss(out, seat, cmd.unit)
            raise RuleViolation("SMOKE-BOMB-6", msg("The bombardment's losses are taken first (take_loss)."))
        if isinstance(cmd, C.Aim):
            return aim(out, seat, cmd.unit, cmd.target)
        if isinstance(cmd, C.Bombard):
            refused = bombard_refusal(st, seat)  # SMOKE-CHOICE-BOMBARD "must"
            if refused is not None:
                raise refused
            if not t.aims:
                rb = RulingBuilder()
                cite_declining(rb, st, seat)
                out.emit(StepStarted(step=ACTIONS, player=t.player),
                         rb.add("SMOKE-BOMB-2", msg("{seat} does not bombard this turn (optional, INFERRED).",
                                                    seat=seat_words(seat))),
                         summary=msg("{seat} does not bombard", seat=seat_words(seat)))
                return None
            return fire(out, seat)
    elif t.step == ACTIONS:
        if isinstance(cmd, C.TakeRisk):
            return take_risk(out, seat)
        if isinstance(cmd, C.PlaceDie):
            return place_die(out, seat, cmd.die, cmd.slot)
        if isinstance(cmd, C.EndPlacement):
            return end_placement(out, seat)
        if isinstance(cmd, C.Activate):
            return activate(out, seat, cmd.slot, cmd.die, cmd.commander, cmd.unit)
        if isinstance(cmd, C.Move):
            return move(out, seat, cmd.unit, cmd.kind, cmd.facing, cmd.distance, cmd.vector, cmd.via or ())
        if isinstance(cmd, C.EndActivation):
            return end_activation(out, seat)
        if isinstance(cmd, C.Ride):
            return ride(out, seat, cmd.slot, cmd.die, cmd.commander, cmd.to)
        if isinstance(cmd, C.EndActions):
            return end_actions(out, seat)
    elif t.step == BATTLE_START:
        if isinstance(cmd, C.PlaceMarker):
            return place_marker(out, seat, cmd.at)
    elif t.step == BATTLES:
        b = t.battle
        if b is None:
            if isinstance(cmd, C.Fight):
                groups = unfought(st)
                g = next((g for g in groups if cmd.marker in g), None)
                if g is None:
                    raise RuleViolation("SMOKE-BAT-1", msg("{marker} is not a battle still to fight this turn "
                                                           "({items}).",
                                                           marker=repr(cmd.marker), items=', '.join(x[0] for x in groups)), marker=cmd.marker)
                return start_battle(out, g)
        elif b.step == "tactics":
            if isinstance(cmd, C.PlayTactic):
                return play_tactic(out, seat, cmd.slot, tuple(cmd.units), cmd.target)
            if isinstance(cmd, C.EndTactics):
                out.emit(TacticsEnded(seat=seat), RulingBuilder().add("SMOKE-BAT-2", msg("{seat} plays no more tactics.",
                                                                                         seat=seat_words(seat))),
                         summary=msg("{seat} ends tactics", seat=seat_words(seat)))
                return None
        elif b.step == "allocate":
            if isinstance(cmd, C.AllocateHits):
                return choose_hits(out, seat, tuple(cmd.units))
        elif b.step == "resolve":
            if isinstance(cmd, C.ResolveHits):
                return resolve_hits(out, seat, cmd.unit, cmd.retreat)
    raise RuleViolation(_step_rule(t.step), msg("Now is the {step}; {command} does not fit it.",
                                                step=_STEP_NAME.get(t.step, t.step), command=type(cmd).__name__))


_STEP_NAME = {BOMBARD: "bombardment phase", ACTIONS: "actions phase", BATTLE_START: "battle start phase",
              BATTLES: "battles phase"}


def _step_rule(step: str) -> str:
    return {BOMBARD: "SMOKE-BOMB-3", ACTIONS: "SMOKE-ACT-5", BATTLE_START: "SMOKE-MARK-1",
            BATTLES: "SMOKE-BAT-2"}.get(step, "SMOKE-TURN-2")


def place_marker_check(st: SmokeState, seat: str, at: Any) -> tuple[float, float]:
    t = st.turn
    offer = t.marker_offer if t else None
    if offer is None or offer.seat != seat:
        raise RuleViolation("SMOKE-MARK-1", msg("No battle marker is to be placed by you now."))
    x, y = float(at[0]), float(at[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise RuleViolation("SMOKE-MARK-3", msg("The marker's centre must be finite coordinates."), field="at")
    assert st.battle is not None
    forb = [u.box() for u in st.units.values() if u.seat in offer.forbidden]
    if not (0 <= x <= st.battle.width and 0 <= y <= st.battle.height):
        raise RuleViolation("SMOKE-MARK-3", msg("The marker must lie on the table (INFERRED)."), at=[x, y])
    if not allowed((x, y), forb, st.battle.width, st.battle.height):
        raise RuleViolation("SMOKE-MP-4", msg("The marker may not include units of {forbidden}: an ally placed a "
                                              "marker including them this turn.",
                                              forbidden=', '.join(offer.forbidden)), at=[x, y])
    elig = [st.units[u].box() for u in offer.eligible if u in st.units and st.units[u].seat not in offer.forbidden]
    k = depth((x, y), elig)
    if k < offer.best:
        raise RuleViolation("SMOKE-MARK-3", msg("The marker there covers {k} of the units in fire contact and in "
                                                "no battle; {best} can be covered (e.g. at {example}).",
                                                k=k, best=offer.best, example=str(list(offer.points[0]))), covers=k, best=offer.best,
                            example=list(offer.points[0]))
    return x, y


def place_marker(out: Outbox, seat: str, at: Any) -> None:
    st = out.state
    x, y = place_marker_check(st, seat, at)
    offer = st.turn.marker_offer  # type: ignore[union-attr]
    mid = f"M{st.marker_seq + 1}"
    inside = sorted(u.id for u in st.units.values() if covers((x, y), u.box()))
    cov = tuple(u for u in inside if u in offer.eligible)
    joins = tuple(u for u in inside if u not in offer.eligible)
    side = st.armies[seat].side
    opps = tuple(sorted({st.units[u].seat for u in inside if st.armies[st.units[u].seat].side != side}))
    near = joined([msg("{unit} {distance:.3f} UW", unit=u, distance=point_box_distance((x, y), st.units[u].box()))
                   for u in cov], ", ")
    rb = RulingBuilder().add("SMOKE-MARK-3", msg_n("{marker} at ({x:.3f}, {y:.3f}) covers {count} eligible unit(s), "
                                                   "the most possible ({best}): {near} from its centre to the nearest "
                                                   "point of each (<= 2 UW, SMOKE-GEO-14).",
                                                   "{marker} at ({x:.3f}, {y:.3f}) covers {count} eligible unit(s), "
                                                   "the most possible ({best}): {near} from its centre to the nearest "
                                                   "point of each (<= 2 UW, SMOKE-GEO-14).", "count", marker=mid, x=x,
                                                   y=y, count=len(cov), best=offer.best, near=near),
                             at=[x, y], covers=list(cov), best=offer.best)
    if joins:
        rb.add("SMOKE-MARK-3", msg("Also within its 2 UW and joining the battle: {joins}.", joins=', '.join(joins)), joins=list(joins))
    rb.add("SMOKE-MARK-4", msg("Its price is 1."))
    out.emit(MarkerPlaced(seat=seat, marker=mid, x=x, y=y, covers=cov, joins=joins,
                          opponents=opps), rb, summary=msg("{seat} places {marker}", seat=seat_words(seat), marker=mid))


RULESET = SmokeRuleset()

__all__ = ["RULESET", "SmokeRuleset", "ENGINE_VERSION", "expanded", "additional_commanders"]

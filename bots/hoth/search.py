"""Determinised Monte Carlo tree search for a Battle of Hoth seat (information-set MCTS, one observer).

Each playout (iteration):

1. **Determinise**: a full state is sampled from the seat's knowledge (``knowledge.py``): the public part
   as the seat sees it, the unseen cards dealt at random into the hidden hands and draw piles.
2. **Select / expand**: the tree holds the seat's own choices of this turn, ``TREE_DEPTH`` of them (1: the
   root's commands, each followed by the greedy policy -- a rollout search; see ``TREE_DEPTH``) (open loop: a
   node is the sequence of commands; dice are rolled anew in every playout). At a node the legal commands of
   the sampled state are ranked by the greedy policy; progressive widening lets the top ``1 + PW_C *
   visits**PW_ALPHA`` of them in, and UCB1 over availability counts (ISMCTS) picks among them, its
   exploration scaled to the spread of the values seen. States reached by steps that revealed nothing (no
   roll, no card) are kept (``Kept``) and reused by every later playout with its own hidden cards: no step
   from the root to them touched a hidden card.
3. **Play out** through the engine (``HothRuleset.step``, dice from the bot's stream) with the greedy policy
   for every seat, to the *horizon*:

   * for a card, order or move decision of the seat's own turn, to where its attack step begins; the
     attacks then count in expectation (``attacks.expected_attacks``: the engine's attack list and dice, the
     die faces' chances), so the comparison of plans is not blurred by dice;
   * for an attack or another pending decision, to the end of the turn, every roll made.
4. **Evaluate**: 1/0 for a finished game, else the logistic of ``values.score`` (progress towards victory,
   force, position) minus ``REPLY_SHARE`` of the other side's best greedy reply -- the value of its best
   command card in this playout's hand (the sampled hand: the determinisation is what makes the reply
   uncertain), judged on the board the seat's attacks leave (``REPLY_AFTER_ATTACKS``) -- plus ``NEXT_SHARE`` of
   the seat's own best card (of its hand at the root) on the board it leaves (what it sets up).

Truncating at the horizon is what makes 1,000 playouts per second possible in pure Python: a playout to the
end of a game is 50-60 turns, a truncated one part of one. The value at the horizon measures what the turn
achieves and what the other side's best reply to it costs, which is what the decision changes; the rest of the
game is left to the decisions to come. The choice is the most visited command; the search stops early when no
other command can catch up within the budget.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any

import msgspec

from domain.hoth import commands as C
from domain.hoth.state import ATTACK, MOVE, ORDER, PLAY, HothState, faction_of

from .activity import activity, card_value, reply_value
from .attacks import attack_acts, attack_plan
from .gains import combined, kill_chances
from .greedy import choose, picks
from .knowledge import Knowledge
from .playout import BotDice, legal, step, to_act
from .values import EVAL_SCALE, score

replace = msgspec.structs.replace

#: UCB1 exploration constant, times the spread of the values seen in this search (``MIN_SPREAD`` at least).
UCB_C = 0.7
MIN_SPREAD = 0.02
#: Progressive widening: a node with n visits considers its best ``1 + PW_C * n ** PW_ALPHA`` commands.
PW_C = 1.0
PW_ALPHA = 0.5
#: The seat's choices the tree holds below the root (1: the root's commands only, each followed by the greedy
#: policy). A deeper tree averages the exploration of the later choices of a turn into the earlier ones: a command
#: followed by many choices (ordering a unit, which then has a dozen moves) looks worse than one followed by none
#: (ending the orders), and the search stops ordering, moving and attacking. The later choices are searched in
#: their own decisions (a Hoth turn is a sequence of them), so each root command is valued as "this, then greedy"
#: (a rollout search: it keeps greedy's command unless another one does better).
TREE_DEPTH = 1
#: The seat's own next turn (``NEXT_SHARE``) from its hand at the root, not the hand its card leaves
#: (``Search._own_next``).
NEXT_FROM_ROOT_HAND = True
#: Rank the root's commands with the greedy bot's full look (``destinations.FULL_DESTINATIONS`` per unit, sight and
#: dice) rather than the playouts' fast one (``FAST_DESTINATIONS``, the rest ranked last): the greedy bot's own
#: move is then the first the search tries, and progressive widening admits the moves worth trying.
ROOT_FULL_RANKING = True
#: Safety cap on the steps of one playout (a turn is a few dozen steps).
MAX_PLAYOUT_STEPS = 400


class Node:
    __slots__ = ("children", "visits", "total", "avail", "kept")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        #: The state at this node when every step from the root revealed nothing (see ``Kept``), else None.
        self.kept: Kept | None = None


_UNKNOWN = object()


class Kept:
    """A state reached from the root by steps that revealed nothing, kept for the whole search.

    Every playout that reaches it again reuses it with its own hidden cards (no step from the root to here
    touched them), with its greedy ranking of the commands and the states its commands lead to."""

    __slots__ = ("state", "seat", "picks", "next", "board", "replies", "reply_act", "full")

    def __init__(self, state: HothState, full: bool = False):
        self.state = state
        #: Rank with the greedy bot's own full look (``fast=False``): the root's commands, once per decision.
        self.full = full
        self.seat = to_act(state)
        #: The legal commands ranked by the greedy policy (best first), once asked for.
        self.picks: list[Any] | None = None
        #: command -> the kept state it leads to, or None when the step reveals something.
        self.next: dict[Any, Kept | None] = {}
        #: score plus expected attacks (``Search._expected_value``), once computed; the other side's card values.
        self.board: float | None = None
        self.replies: dict[str, float] = {}
        #: The other side's unit activity for its reply (``_reply_activity``), with ``board``.
        self.reply_act: dict[str, Any] = {}

    def ranked(self) -> list[Any]:
        if self.picks is None:
            cmds = legal(self.state, self.seat)
            self.picks = cmds if len(cmds) == 1 else _ranked(self.state, self.seat, cmds, fast=not self.full)
        return self.picks


class Result(msgspec.Struct, kw_only=True):
    command: Any
    playouts: int
    value: float
    visits: int
    #: (command, visits, mean value) of the root's children, most visited first.
    ranking: list[tuple[Any, int, float]]
    seconds: float


def _ranked(state: HothState, seat: str, cmds: list, fast: bool = True) -> list[Any]:
    ps = picks(state, seat, cmds, fast=fast)
    ps.sort(key=lambda p: p.gain, reverse=True)
    return [p.command for p in ps]


class Search:
    def __init__(self, knowledge: Knowledge, rng: random.Random):
        self.k = knowledge
        self.rng = rng
        self.seat = knowledge.seat
        self.faction = knowledge.faction
        base = knowledge.base
        self.turn_no = base.turn_no
        #: Playouts stop when the turn number passes this: at the end of the turn being played.
        self.horizon = base.turn_no
        #: Where playouts end with the rest of the attack step in expectation (``expected_attacks``), so that
        #: dice do not blur the comparison: "plan" (a card, order or move decision of the seat's own turn: where
        #: its attack step begins), "attack" (an attack decision: once that attack is over), None (to the end of
        #: the turn, every roll made).
        own = base.pending is None and base.turn is not None and base.turn.seat == self.seat
        self.expect = None if not (EXPECT_ATTACKS and own) else (
            "plan" if base.turn.phase in (PLAY, ORDER, MOVE) else ("attack" if EXPECT_AFTER_ATTACK else None))
        #: The seat's own hand at the root (``_own_next``).
        self.hand = tuple(dict.fromkeys(knowledge.hands.get(self.seat) or ()))
        self.root = Node()
        self.steps = 0
        #: The range of the values seen so far: exploration is scaled to it (values near 0 or 1 differ little).
        self.vmin, self.vmax = 1.0, 0.0

    # -- one playout -----------------------------------------------------------------------------
    def _with_hidden(self, kept: HothState, sample: HothState) -> HothState:
        """A kept state with this playout's hidden cards (steps that reveal nothing never touch them)."""
        hands = dict(sample.hands)
        hands[self.seat] = kept.hands.get(self.seat, ())
        support = dict(sample.support)
        if self.faction in kept.support:
            support[self.faction] = kept.support[self.faction]
        return replace(kept, hands=hands, decks=sample.decks, support=support)

    def _from_kept(self, k: Kept, cmd: Any, sample: HothState, dice: BotDice) -> tuple[Kept | None, HothState | None]:
        """Step from a kept state: (the next kept state, None) or, when the step reveals something, (None, the
        playout's own state)."""
        nxt = k.next.get(cmd, _UNKNOWN)
        if nxt is not _UNKNOWN and nxt is not None:
            return nxt, None  # type: ignore[return-value]
        after, revealed = step(self._with_hidden(k.state, sample), k.seat, cmd, dice)
        self.steps += 1
        if nxt is _UNKNOWN:
            k.next[cmd] = Kept(after) if not revealed and _keepable(after, self.seat) else None
            if k.next[cmd] is not None:
                return k.next[cmd], None
        return None, after

    def playout(self) -> float:
        rng = self.rng
        sample = self.k.sample(rng)
        dice = BotDice(rng)
        node = self.root
        path = [node]
        if node.kept is None:
            # the root's commands ranked as the greedy bot ranks them (``ROOT_FULL_RANKING``), the first its choice
            node.kept = Kept(sample, full=ROOT_FULL_RANKING)
        # While every step so far revealed nothing, the playout walks over kept states (``cur``); after the
        # first revealing step it goes on with its own ``state``.
        cur: Kept | None = node.kept
        state: HothState | None = None
        self.steps = 0
        expanded = False
        depth = 0  # the choices made in the tree so far (a command with no alternative is no choice)
        while not expanded:
            st = cur.state if cur is not None else state
            seat = to_act(st)
            if seat != self.seat or st.turn_no != self.turn_no or self._expect_here(st, len(path)):
                break
            if cur is not None:
                cands = cur.ranked()
            else:
                cmds = legal(st, seat)
                cands = cmds if len(cmds) == 1 else _ranked(st, seat, cmds)
            if len(cands) == 1:
                cmd = cands[0]  # no choice: a node all the same (it keeps the state)
                child = node.children.get(cmd)
                if child is None:
                    child = node.children[cmd] = Node()
            elif depth >= TREE_DEPTH:
                break  # the rest of the turn with the playout policy
            else:
                depth += 1
                width = min(len(cands), 1 + int(PW_C * (node.visits ** PW_ALPHA)))
                allowed = cands[:width]
                cmd = next((c for c in allowed if c not in node.children), None)
                if cmd is not None:
                    node.children[cmd] = Node()
                    expanded = True
                else:
                    best_u = -1e9
                    c_eff = UCB_C * max(MIN_SPREAD, self.vmax - self.vmin)
                    for c in allowed:
                        ch = node.children[c]
                        u = ch.total / ch.visits + c_eff * math.sqrt(math.log(ch.avail + 1) / ch.visits)
                        if u > best_u:
                            cmd, best_u = c, u
                for c in allowed:
                    ch = node.children.get(c)
                    if ch is not None:
                        ch.avail += 1
                child = node.children[cmd]
            path.append(child)
            if cur is not None:
                cur, state = self._from_kept(cur, cmd, sample, dice)
            else:
                state, _ = step(state, seat, cmd, dice)
                self.steps += 1
            node = child
        # play out with the greedy policy to the horizon (a kept state's greedy step is its first ranked)
        expected = False
        while self.steps < MAX_PLAYOUT_STEPS:
            st = cur.state if cur is not None else state
            if st.winner is not None or st.turn_no > self.horizon:
                break
            if self._expect_here(st, len(path) + self.steps):
                expected = True
                break
            if cur is not None:
                cur, state = self._from_kept(cur, cur.ranked()[0], sample, dice)
            else:
                seat = to_act(st)
                cmds = legal(st, seat)
                cmd = cmds[0] if len(cmds) == 1 else choose(st, seat, cmds, fast=True).command
                state, _ = step(st, seat, cmd, dice)
                self.steps += 1
        if expected:
            value = self._expected_value(cur, state, sample)
        else:
            value = evaluate_turn_end(self._with_hidden(cur.state, sample) if cur is not None else state,
                                      self.faction)
        if value < self.vmin:
            self.vmin = value
        if value > self.vmax:
            self.vmax = value
        for n in path:
            n.visits += 1
            n.total += value
        return value

    def _expect_here(self, st: HothState, moved: int) -> bool:
        """Does the playout end here, the rest of the attacks in expectation (``moved``: steps so far)?"""
        if self.expect is None or st.turn_no != self.turn_no or st.pending is not None:
            return False
        t = st.turn
        if t is None or t.phase != ATTACK or t.seat != self.seat:
            return False
        return not t.attacked if self.expect == "plan" else moved > 1

    def _expected_value(self, cur: Kept | None, state: HothState | None, sample: HothState) -> float:
        """Value where the seat's attacks begin: the position, plus the attacks' expected gains, minus the
        other side's best reply (its sampled hand): the board part is kept with a kept state."""
        opp = _next_seat(sample)  # the seat of the turn after this one (team play: the other side's player)
        if cur is not None:
            if cur.board is None:
                plan = attack_plan(cur.state, self.seat)
                cur.board = score(cur.state, self.faction) + combined(cur.state, self.faction,
                                                                             list(plan.values()))
                if NEXT_SHARE:
                    cur.board += NEXT_SHARE * self._own_next(cur.state)
                cur.replies = {}
                if opp is not None:
                    cur.reply_act = _reply_activity(cur.state, faction_of(opp), plan)
            x = cur.board
            if opp is not None:
                # the other side's card values on this board, each card once; its best card in this playout's hand
                f = faction_of(opp)
                best = 0.0
                for c in sample.hands.get(opp, ()):
                    v = cur.replies.get(c)
                    if v is None:
                        card = cur.state.cards[c]
                        v = cur.replies[c] = (0.0 if card.kind == "support" else
                                              card_value(cur.state, f, card, cur.reply_act))
                    best = max(best, v)
                x -= REPLY_SHARE * best
        else:
            plan = attack_plan(state, self.seat)
            x = score(state, self.faction) + combined(state, self.faction, list(plan.values()))
            if NEXT_SHARE:
                x += NEXT_SHARE * self._own_next(state)
            if opp is not None:
                f = faction_of(opp)
                act = _reply_activity(state, f, plan)
                x -= REPLY_SHARE * max((card_value(state, f, state.cards[c], act)
                                        for c in dict.fromkeys(state.hands.get(opp, ()))
                                        if state.cards[c].kind != "support"), default=0.0)
        return 1.0 / (1.0 + math.exp(-EVAL_SCALE * x))

    def _own_next(self, state: HothState) -> float:
        """The seat's best card on the board it leaves, from its hand at the root (``self.hand``): what the turn sets
        up. The hand left after this turn's card would reward keeping the best card back for a next turn that, on
        the next decision, asks the same question again (the card is never played): the root's hand makes the term
        the same for every card played, so the card is judged by what it does now."""
        f = self.faction
        if not NEXT_FROM_ROOT_HAND:
            return reply_value(state, self.seat)
        act = activity(state, f, True)
        return max((card_value(state, f, state.cards[c], act) for c in self.hand
                    if c in state.cards and state.cards[c].kind != "support"), default=0.0)

    # -- the decision ----------------------------------------------------------------------------
    def run(self, playouts: int, seconds: float = 0.0, early_stop: bool = True) -> Result:
        """Up to ``playouts`` playouts (fewer when the clock passes ``seconds``, or, with ``early_stop``, when no
        other command can catch up); exactly ``playouts`` without either (reproducing a decision)."""
        t0 = time.perf_counter()
        if ATTACKS_IN_EXPECTATION and self.expect == "attack":
            static = self._attack_step(playouts)
            if static is not None:
                return replace(static, seconds=time.perf_counter() - t0)
        deadline = t0 + seconds if seconds > 0 else None
        n = 0
        while n < playouts:
            self.playout()
            n += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            if early_stop and n % 16 == 0 and self._decided(playouts - n):
                break
        ranking = sorted(((c, ch.visits, ch.total / ch.visits if ch.visits else 0.0)
                          for c, ch in self.root.children.items()), key=lambda x: (-x[1], -x[2]))
        best = ranking[0]
        return Result(command=best[0], playouts=n, value=best[2], visits=best[1], ranking=ranking,
                      seconds=time.perf_counter() - t0)

    def _attack_step(self, playouts: int) -> Result | None:
        """An attack decision of the seat's own turn, with the dice in expectation (``ATTACKS_IN_EXPECTATION``):
        each attack (or ending the turn) is valued as that attack plus every other unit's best one
        (``attacks.attack_plan``, attacks on one target added up), on this board, minus the other side's best reply
        from each sampled hand on the board the attacks leave (``_reply_activity``), plus the seat's own next turn:
        the ``_expected_value`` of a plan, each command with the same determinisations. A playout is one command
        valued on one of them. None when a command is neither an attack nor the end of the turn (a support card)."""
        sample = self.k.sample(self.rng)
        cmds = legal(sample, self.seat)
        if not cmds or not all(isinstance(c, (C.Attack, C.EndTurn)) for c in cmds):
            return None
        cmds = _ranked(sample, self.seat, cmds)  # greedy's order: ties go to greedy's choice
        st = sample
        f = self.faction
        acts = attack_acts(st, self.seat)
        best = attack_plan(st, self.seat)
        base = score(st, f) + (NEXT_SHARE * self._own_next(st) if NEXT_SHARE else 0.0)
        opp = _next_seat(sample)
        fo = faction_of(opp) if opp is not None else None
        boards, reply_acts = [], []
        for c in cmds:
            if isinstance(c, C.Attack):
                plan = dict(best)
                plan[c.unit] = acts.get(c.unit, {}).get((c.target, c.special), (0.0, None, 0.0, 0.0))
            else:
                plan = {}  # the turn ends: no more attacks
            boards.append(base + combined(st, f, list(plan.values())))
            reply_acts.append(_reply_activity(st, fo, plan) if fo is not None else None)
        rounds = max(1, playouts // len(cmds))
        totals = [0.0] * len(cmds)
        memo: list[dict[str, float]] = [{} for _ in cmds]
        for r in range(rounds):
            hand = (sample if r == 0 else self.k.sample(self.rng)).hands.get(opp, ()) if opp is not None else ()
            for i in range(len(cmds)):
                reply = 0.0
                for card in hand:
                    v = memo[i].get(card)
                    if v is None:
                        cd = st.cards[card]
                        v = memo[i][card] = (0.0 if cd.kind == "support"
                                             else card_value(st, fo, cd, reply_acts[i]))
                    reply = max(reply, v)
                totals[i] += 1.0 / (1.0 + math.exp(-EVAL_SCALE * (boards[i] - REPLY_SHARE * reply)))
        ranking = [(c, rounds, totals[i] / rounds) for i, c in enumerate(cmds)]
        ranking.sort(key=lambda x: -x[2])  # stable: on a tie, greedy's order
        top = ranking[0]
        return Result(command=top[0], playouts=rounds * len(cmds), value=top[2], visits=rounds, ranking=ranking,
                      seconds=0.0)

    def _decided(self, left: int) -> bool:
        """No other command of the root can be visited more than the leader within ``left`` playouts."""
        vs = sorted((ch.visits for ch in self.root.children.values()), reverse=True)
        if len(vs) < 2:
            return len(vs) == 1 and self.root.visits >= 16
        return vs[0] - vs[1] > left


#: Share of the next seat's best greedy reply (its best card from its hand: for the other side, the sampled
#: hand) counted at the horizon: the reply is an estimate, each unit's best attack summed.
REPLY_SHARE = 0.6
#: Share of the seat's own best card on the board it leaves (what it sets up for its next turn).
NEXT_SHARE = 0.4


def evaluate_turn_end(state: HothState, faction: str) -> float:
    """The value of a playout's last state for ``faction``: 1/0 when the game is over, else the logistic of
    ``values.score`` minus (or plus) what the seat about to play can gain with its best card now."""
    if state.winner is not None:
        return 1.0 if state.winner == faction else 0.0
    x = score(state, faction)
    nxt = to_act(state)
    if nxt is not None and state.pending is None:
        if faction_of(nxt) == faction:
            x += REPLY_SHARE * reply_value(state, nxt)
        else:
            x -= REPLY_SHARE * reply_value(state, nxt)
            me = _next_seat(state)  # after the other side's turn, the turn of this side's next player
            if NEXT_SHARE and me is not None and faction_of(me) == faction:
                x += NEXT_SHARE * reply_value(state, me)
    return 1.0 / (1.0 + math.exp(-EVAL_SCALE * x))


#: An attack decision of the seat's own turn valued with every attack's dice in expectation
#: (``Search._attack_step``) instead of playouts that roll the chosen attack: a rolled attack on an AT-AT (one
#: hit in six confirmed) or a structure is worth much or nothing, and 200 playouts shared among the attacks could
#: not tell the better one from the luckier one.
ATTACKS_IN_EXPECTATION = True
#: Count the attacks of card, order and move decisions in expectation (see ``Search.expect``), and the other
#: attacks of an attack decision.
EXPECT_ATTACKS = True
EXPECT_AFTER_ATTACK = True


#: Judge the other side's reply on the board the seat's attacks leave: each enemy unit's part in it scaled by
#: its chance to survive those attacks (in expectation, ``gains.kill_chances``). Without it, a unit that the
#: attacks will most likely eliminate still threatens in full, and every advance into range looks too costly.
REPLY_AFTER_ATTACKS = True


def _reply_activity(state: HothState, faction: str, plan: dict[str, Any]) -> dict[str, Any]:
    """The other side's unit activity (``activity.activity``) after the seat's planned attacks (``plan``:
    ``attacks.attack_plan``), each unit's part scaled by its chance to survive them."""
    act = activity(state, faction, True)
    if not REPLY_AFTER_ATTACKS:
        return act
    kill = kill_chances(state, plan)
    if not kill:
        return act
    out = {}
    for uid, a in act.items():
        live = 1.0 - kill.get(uid, 0.0)
        out[uid] = a if live >= 1.0 else (a[0] * live, a[1], a[2], a[3] * live)
    return out


def _next_seat(state: HothState) -> str | None:
    """The seat of the turn after the current one (HOTH-TURN-1, HOTH-TEAM-9: the turn order repeats)."""
    order = state.turn_order
    return order[state.turn_no % len(order)] if order else None


def _keepable(state: HothState, seat: str) -> bool:
    """A state may be reused with other hidden cards: no decision of another seat is open on it (a support
    window lists that seat's hidden cards)."""
    return state.pending is None or state.pending.seat == seat

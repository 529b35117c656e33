"""Standing orders: what a player has said to do for the rest of the turn, turned into a command at
the moment play reaches one of their decisions.

A player who is woken gives every order they can foresee (a move per ship, a target rule per ship, a
re-roll policy, the computer captain's discretion) so that the game need not wait for them again
before a decision that truly needs them. This module is pure: `step` reads the player's own view and
the orders and answers with a command, or with nothing (the player must be asked). Every command it
answers with has been judged legal by the engine on that view; an order that has become illegal falls
back as the player said (skip it, let the captain play it, or wait for the player).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from game.ai import legal
from game.ai.captain import Captain
from game.commands import (
    COMMANDS,
    Activate,
    Advance,
    Attack,
    Command,
    Decline,
    KeepRoll,
    Pass,
    Reroll,
    Shot,
    UseFortune,
)
from game.context import Decision
from game.dice import SampledDice
from game.errors import RulesError
from game.model import Game, Phase, Ship
from game.names import code
from game.names import text as named
from game.notation import format_command
from game.phases import attack as attack_rules
from game.phases.common import hull
from game.phases.flow import FLOW, deciders
from game.rules_data import RulesData
from game.views import View

TARGET_RULES = ("best", "nearest", "flagship", "weakest", "rake", "hold")
REROLL_POLICIES = ("ask", "never", "skill", "fortune")  # ask: wait for the player
FALLBACKS = ("wait", "skip", "discretion")


@dataclass(frozen=True)
class ShipOrders:
    """One ship's orders for the turn."""

    ship: str
    move: Activate | None = None  # the Movement activation, as /move would give it
    attack: str = ""  # "" (none given), a TARGET_RULE, or "ship" (fire at `target`)
    target: str = ""  # attack == "ship": the named enemy
    then: str = "best"  # attack == "ship": the rule used when the named ship cannot be attacked
    discretion: bool = False  # the computer captain plays this ship


@dataclass(frozen=True)
class Standing:
    """A player's standing orders for one turn. Ships move in the order they are listed."""

    player: str
    turn: int
    ships: tuple[ShipOrders, ...] = ()
    reroll: str = "ask"
    discretion: bool = False  # the computer captain plays the rest of the turn
    fallback: str = "wait"  # what an order that has become illegal does

    def of(self, ship: str) -> ShipOrders | None:
        return next((o for o in self.ships if o.ship == ship), None)

    def with_ship(self, orders: ShipOrders) -> Standing:
        """These orders for the ship (an edit keeps the ship's place in the order; a new one goes last)."""
        if self.of(orders.ship) is None:
            return replace(self, ships=(*self.ships, orders))
        return replace(self, ships=tuple(orders if o.ship == orders.ship else o for o in self.ships))

    def without_move(self, ship: str) -> Standing:
        found = self.of(ship)
        return self if found is None else self.with_ship(replace(found, move=None))

    @property
    def empty(self) -> bool:
        return not self.discretion and self.reroll == "ask" and not any(
            o.move or o.attack or o.discretion for o in self.ships)

    def lines(self) -> list[str]:
        """The orders as a player reads them (/orders)."""
        out = []
        for o in self.ships:
            bits = []
            if o.discretion:
                bits.append("captain's discretion")
            if o.move is not None:
                bits.append(f"move {code(format_command(o.move))}")
            if o.attack == "ship":
                bits.append(f"fire at {named(o.target)}, else {o.then}")
            elif o.attack:
                bits.append("hold fire" if o.attack == "hold" else f"fire: {o.attack}")
            if bits:
                out.append(f"**{named(o.ship)}**: " + "; ".join(bits))
        if self.discretion:
            out.append("The computer captain plays the rest of the turn.")
        out.append(f"Re-rolls: {REROLL_TEXT[self.reroll]}.")
        out.append(f"An order that has become illegal: {FALLBACK_TEXT[self.fallback]}.")
        return out


REROLL_TEXT = {"ask": "ask me", "never": "never re-roll", "skill": "re-roll failures with Skill",
               "fortune": "re-roll failures with Skill, then use Fortune if the roll still fails"}
FALLBACK_TEXT = {"wait": "wait for me", "skip": "skip it", "discretion": "the computer captain plays it"}


@dataclass(frozen=True)
class Step:
    """What the standing orders do now: a command (None: the player must be asked, and `note` says
    why), and what to tell the player privately."""

    command: Command | None
    note: str
    orders: Standing  # the orders afterwards (a move, once made, is used up)
    reason: str = "order"  # order | only | discretion | fallback | wait


# ---------------------------------------------------------------- storage form


def encode(orders: Standing) -> str:
    data: dict[str, Any] = {
        "player": orders.player, "turn": orders.turn, "reroll": orders.reroll,
        "discretion": orders.discretion, "fallback": orders.fallback,
        "ships": [{"ship": o.ship, "move": COMMANDS.encode(o.move) if o.move else None, "attack": o.attack,
                   "target": o.target, "then": o.then, "discretion": o.discretion} for o in orders.ships],
    }
    return json.dumps(data, sort_keys=True)


def decode(text: str) -> Standing:
    data = json.loads(text)
    ships = tuple(ShipOrders(o["ship"], COMMANDS.decode(o["move"]) if o.get("move") else None, o.get("attack", ""),
                             o.get("target", ""), o.get("then", "best"), bool(o.get("discretion")))
                  for o in data.get("ships", ()))
    return Standing(data["player"], int(data["turn"]), ships, data.get("reroll", "ask"),
                    bool(data.get("discretion")), data.get("fallback", "wait"))


# ---------------------------------------------------------------- the decision


@dataclass
class _Judge:
    view: View
    rules: RulesData
    judgement: int | str

    @property
    def state(self) -> Game:
        return self.view.game

    @property
    def player(self) -> str:
        assert self.view.viewer is not None
        return self.view.viewer

    def legal(self, cmd: Command, state: Game | None = None) -> bool:
        return legal.is_legal(state or self.state, cmd, self.rules, SampledDice(random.Random(0)))

    def captain(self, only_ship: str | None = None) -> Command:
        """The computer captain's order; with `only_ship`, for that ship alone (the others are shown
        to it as done, so its own judgement picks among that ship's orders)."""
        captain = Captain(self.player, self.judgement, self.rules)
        view = self.view
        if only_ship is not None:
            others = frozenset(s.id for s in self.state.ships_of(self.player) if s.id != only_ship)
            view = replace(view, game=replace(self.state, activated=self.state.activated | others))
        cmd = captain.choose(view)
        if only_ship is not None and not self.legal(cmd):
            cmd = captain.choose(self.view)
        return cmd


def step(view: View, orders: Standing | None, rules: RulesData, judgement: int | str = 0) -> Step | None:
    """The command the player's standing orders give now; None when they say nothing about this
    decision, a Step without a command when an order has become illegal and its player said to wait.
    Without orders (or with orders silent on this decision) a decision with one legal answer is
    still taken: nothing is gained by waking a player to press the only button."""
    live = orders if orders is not None and view.viewer is not None and orders.turn == view.game.turn else None
    try:
        return _step(view, live, rules, judgement)
    except _Wait as w:
        return Step(None, f"{w.why}: waiting for you", w.orders, "wait")


def _step(view: View, orders: Standing | None, rules: RulesData, judgement: int | str) -> Step | None:
    if view.viewer is None:
        return None
    judge = _Judge(view, rules, judgement)
    state = view.game
    live = orders or Standing(view.viewer, state.turn)
    if state.phase is Phase.OVER or state.phase in (Phase.SETUP, Phase.INITIATIVE, Phase.PREPARATION):
        return None  # a secret pick and the set-up are always the player's own
    if state.pending is not None:
        return _roll(judge, live) if state.pending.player == judge.player else None
    if state.offer is not None:
        return _offer(judge, live) if state.offer.player == judge.player else None
    if state.choices:
        if state.choices[0].player == judge.player and live.discretion:
            return Step(judge.captain(), "the computer captain answered the choice", live, "discretion")
        return None
    if state.active_player is None or judge.player not in deciders(state):
        return None
    if state.phase is Phase.MOVEMENT:
        return _movement(judge, live)
    if state.phase is Phase.ATTACK:
        return _attack(judge, live)
    return None


# ---------------------------------------------------------------- re-rolls and free attacks


def _roll(judge: _Judge, orders: Standing) -> Step | None:
    p = judge.state.pending
    assert p is not None
    if orders.discretion or (orders.of(p.ship) or ShipOrders(p.ship)).discretion:
        return Step(judge.captain(), "the computer captain decided the re-roll", orders, "discretion")
    policy = orders.reroll
    if policy == "ask":
        return None
    hits = sum(1 for f in p.faces if f in p.success)
    if policy in ("skill", "fortune"):
        misses = [i for i, f in enumerate(p.faces) if f not in p.success and i not in p.skill_rerolled]
        left = p.skill - len(p.skill_rerolled)
        if left > 0 and misses:
            cmd: Command = Reroll(tuple(i + 1 for i in misses[:left]), judge.player)
            if judge.legal(cmd):
                return Step(cmd, f"re-rolled {min(left, len(misses))} failed dice with Skill", orders)
    failed = hits < p.needed if p.needed else hits == 0
    fortune = judge.state.squadron(judge.player).fortune
    if policy == "fortune" and failed and not p.fortune_used and fortune > 0:
        cmd = UseFortune(judge.player)
        if judge.legal(cmd):
            return Step(cmd, "used Fortune on a failed roll", orders)
    return Step(KeepRoll(judge.player), "kept the roll", orders)


def _offer(judge: _Judge, orders: Standing) -> Step | None:
    o = judge.state.offer
    assert o is not None
    if orders.discretion or any((orders.of(s) or ShipOrders(s)).discretion for s in o.ships):
        return Step(judge.captain(), "the computer captain decided the free attack", orders, "discretion")
    rules_given = [(s, orders.of(s)) for s in o.ships]
    ruled = [(s, so) for s, so in rules_given if so is not None and so.attack]
    if not ruled:
        return None
    if all(so.attack == "hold" for _, so in ruled):
        return Step(Decline(judge.player), "declined the free attack (hold fire)", orders)
    for sid, _ in ruled:
        sides = ("port", "starboard") if o.attack == "broadside" else ("",)
        for side in sides:
            cmd = Attack(sid, o.attack, (Shot(side, o.target),), free=True, player=judge.player)
            if judge.legal(cmd):
                return Step(cmd, f"took the free attack with {sid} at {o.target}", orders)
    return Step(Decline(judge.player), "declined the free attack: no ship could take it", orders)


# ---------------------------------------------------------------- movement


def _movement(judge: _Judge, orders: Standing) -> Step | None:
    state = judge.state
    act = state.activation
    if act is not None:  # an activation a failed roll halted: the rest is the player's, or the captain's
        mine = orders.of(act.ship) or ShipOrders(act.ship)
        if orders.discretion or mine.discretion or orders.fallback == "discretion":
            return Step(judge.captain(act.ship), f"the computer captain finished {act.ship}'s activation", orders,
                        "discretion")
        return None
    ready = [s.id for s in state.ships_of(judge.player) if s.can_act and s.id not in state.activated]
    listed = [o for o in orders.ships if o.ship in ready and (o.move is not None or o.discretion)]
    dropped: list[str] = []
    for o in listed:
        if o.move is not None:
            if judge.legal(o.move):
                return Step(o.move, _with(dropped, f"moved {o.ship} as ordered"), orders.without_move(o.ship))
            handled = _fallback(judge, orders, o.ship, f"{o.ship}'s move is no longer legal", dropped)
            if handled is not None:
                return handled
            orders = orders.without_move(o.ship)
            continue
        return Step(judge.captain(o.ship), _with(dropped, f"the computer captain moved {o.ship}"), orders, "discretion")
    if orders.discretion and ready:
        return Step(judge.captain(), _with(dropped, "the computer captain took the activation"), orders, "discretion")
    if dropped:  # every move left was skipped: the player is asked, and told why
        return Step(None, _with(dropped, "waiting for you"), orders, "wait")
    return None


def _fallback(judge: _Judge, orders: Standing, ship: str, why: str, dropped: list[str]) -> Step | None:
    """An order that has become illegal: the captain plays the ship, or the player is asked (None with
    the order kept), or it is dropped (None, after noting it, so the next order is tried)."""
    if orders.fallback == "discretion":
        return Step(judge.captain(ship), _with(dropped, f"{why}: the computer captain played {ship} instead"),
                    orders.without_move(ship), "fallback")
    if orders.fallback == "skip":
        dropped.append(f"{why}: skipped")
        return None
    raise _Wait(why, orders)


class _Wait(Exception):  # noqa: N818 - a signal, not an error: the player must be asked
    def __init__(self, why: str, orders: Standing) -> None:
        self.why = why
        self.orders = orders


def _with(dropped: list[str], note: str) -> str:
    return "; ".join([*dropped, note])


# ---------------------------------------------------------------- attacks


def _attack(judge: _Judge, orders: Standing) -> Step | None:
    state = judge.state
    ready = [s for s in state.ships_of(judge.player) if s.can_act and s.id not in state.activated]
    order = {o.ship: i for i, o in enumerate(orders.ships)}
    ready.sort(key=lambda s: order.get(s.id, len(order)))
    shots = {s.id: _shots(judge, s) for s in ready}
    if ready and not any(shots.values()) and not _any_attack(judge, ready):
        return Step(Pass(ready[0].id, judge.player), f"{ready[0].id} had nothing to fire at", orders, "only")
    # which ship acts first is a choice of its own: a ship with nothing to fire at is passed for the
    # player only once every ship that could fire has its orders
    delegated = orders.discretion or all(
        not shots[s.id] or (orders.of(s.id) or ShipOrders(s.id)).attack or (orders.of(s.id) or ShipOrders(s.id)).discretion
        for s in ready)
    for ship in ready:
        o = orders.of(ship.id) or ShipOrders(ship.id)
        if not shots[ship.id]:
            if delegated and not _any_attack(judge, [ship]):
                return Step(Pass(ship.id, judge.player), f"{ship.id} had nothing to fire at", orders, "only")
            continue
        if o.discretion or orders.discretion:
            return Step(judge.captain(ship.id), f"the computer captain fought {ship.id}", orders, "discretion")
        if not o.attack:
            continue
        rule = o.attack
        note = ""
        if rule == "ship":
            if o.target in shots[ship.id]:
                cmd = _at(judge, ship, o.target, shots[ship.id][o.target])
                if cmd is not None:
                    return Step(cmd, f"{ship.id} fired at {o.target} as ordered", orders)
            note = f"{o.target} could not be attacked, so {o.then}: "
            rule = o.then
        picked = _by_rule(judge, ship, rule, shots[ship.id])
        if picked is not None:
            return Step(picked[0], f"{note}{ship.id} {picked[1]}", orders)
        why = f"{note}{ship.id} had no target by the rule '{rule}'"
        if orders.fallback == "discretion":
            return Step(judge.captain(ship.id), f"{why}: the computer captain fought it instead", orders, "fallback")
        if orders.fallback == "skip":
            return Step(Pass(ship.id, judge.player), f"{why}: held fire", orders, "fallback")
        raise _Wait(why, orders)
    return None


def _any_attack(judge: _Judge, ships: list[Ship]) -> bool:
    """Whether the engine accepts any attack by these ships (every kind, side and aim it knows): a
    pass is taken for a player only when it truly is the one legal choice."""
    return any(judge.legal(c) for s in ships for c in legal.attacks(judge.state, s.id, judge.player))


def _shots(judge: _Judge, ship: Ship) -> dict[str, list[tuple[str, str, attack_rules.ShotPlan]]]:
    """The attacks the rules allow this ship now, per target: (kind, side, plan)."""
    state = judge.state
    ctx = Decision(state, SampledDice(random.Random(0)), judge.rules, FLOW)
    out: dict[str, list[tuple[str, str, attack_rules.ShotPlan]]] = {}
    for t in state.ships:
        if state.allied(t.controller, judge.player) or not t.can_act or not t.on_table:
            continue
        # Close Combat: Entangled, a boarding party on the target, or Landing Parties ashore
        tries = [("broadside", "port"), ("broadside", "starboard"), ("partial", ""), ("close", ""), ("close", "landing")]
        for kind, side in tries:
            try:
                plan = attack_rules.check_shot(ctx, ship, kind, Shot(side, t.id))
            except RulesError:
                continue
            out.setdefault(t.id, []).append((kind, side, plan))
    return out


def _at(judge: _Judge, ship: Ship, target: str, plans: list[tuple[str, str, attack_rules.ShotPlan]]) -> Command | None:
    """The strongest attack at one target: a broadside from every side that bears, else Partial Fire,
    else Close Combat."""
    sides = [side for kind, side, _ in plans if kind == "broadside"]
    tries: list[Command] = []
    if sides:
        tries.append(Attack(ship.id, "broadside", tuple(Shot(s, target) for s in sides), player=judge.player))
        tries += [Attack(ship.id, "broadside", (Shot(s, target),), player=judge.player) for s in sides]
    tries += [Attack(ship.id, kind, (Shot(side, target),), player=judge.player)
              for kind, side, _ in plans if kind in ("partial", "close")]
    return next((c for c in tries if judge.legal(c)), None)


def _by_rule(judge: _Judge, ship: Ship, rule: str,
             shots: dict[str, list[tuple[str, str, attack_rules.ShotPlan]]]) -> tuple[Command, str] | None:
    state = judge.state
    if rule == "hold":
        return Pass(ship.id, judge.player), "held fire as ordered"
    if rule == "best":
        cmd = judge.captain(ship.id)
        return cmd, "fired as the computer captain judged best" if isinstance(cmd, Attack) else "held fire (nothing worth it)"
    if rule == "nearest":
        me = hull(ship).polygon
        ranked = sorted(shots, key=lambda t: (me.distance(hull(state.ship(t)).polygon), t))
    elif rule == "flagship":
        ranked = [t for t in shots if state.squadron(state.ship(t).controller).flagship == t]
    elif rule == "weakest":
        ranked = sorted(shots, key=lambda t: (-state.ship(t).damage, state.ship(t).fortitude, t))
    elif rule == "rake":
        ranked = sorted((t for t in shots if any(p.rake for _, _, p in shots[t])),
                        key=lambda t: -max(p.dice for _, _, p in shots[t]))
    else:
        return None
    for target in ranked:
        found = _at(judge, ship, target, shots[target])
        if found is not None:
            return found, f"fired at {target} ({rule})"
    return None  # nothing fits the rule: the player's fallback decides


# ---------------------------------------------------------------- a simple policy (benchmark, tests)


def captain_orders(view: View, rules: RulesData, judgement: int | str = 0, fallback: str = "discretion") -> Standing:
    """The orders a player who trusts the computer captain would give when woken: for each ship still
    to move, the captain's move now; every ship fires as the captain judges best; re-rolls with Skill,
    then Fortune on a failure."""
    assert view.viewer is not None
    state = replace(view.game, active_player=view.viewer)  # foresight: as if it were the player's activation
    judge = _Judge(replace(view, game=state), rules, judgement)
    ships = []
    for s in state.ships_of(judge.player):
        if not s.can_act:
            continue
        move = None
        if state.phase is Phase.MOVEMENT and s.id not in state.activated and state.activation is None:
            try:
                cmd = judge.captain(s.id)
            except RuntimeError:  # nothing legal from here (yet): no order for this ship
                continue
            move = cmd if isinstance(cmd, Activate) and cmd.ship == s.id else None
        ships.append(ShipOrders(s.id, move, "best"))
    return Standing(judge.player, state.turn, tuple(ships), "fortune", False, fallback)



def passing(view: View, rules: RulesData, judgement: int | str = 0) -> Command:
    """The least a late player's decision can be answered with, when a game's deadline passes the
    activation: hold fire, keep the roll, decline the offer; a ship that must move goes straight
    ahead (or holds). What the rules leave no least answer to, the captain answers."""
    judge = _Judge(view, rules, judgement)
    state = view.game
    p = judge.player
    tries: list[Command] = []
    if state.pending is not None:
        tries = [KeepRoll(p)]
    elif state.offer is not None:
        tries = [Decline(p)]
    elif state.phase is Phase.ATTACK and not state.choices:
        tries = [Pass(s.id, p) for s in state.ships_of(p) if s.can_act and s.id not in state.activated]
    elif state.phase is Phase.MOVEMENT and not state.choices:
        ships = ([state.activation.ship] if state.activation is not None else
                 [s.id for s in state.ships_of(p) if s.can_act and s.id not in state.activated])
        tries = [Activate(sid, None, Advance(sid, way, player=p), None, player=p)
                 for sid in ships for way in ("ahead", "hold")]
    found = next((c for c in tries if judge.legal(c)), None)
    return found if found is not None else judge.captain()

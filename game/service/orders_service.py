"""Standing orders in the service: kept per player for the turn, edited with /orders, carried out
after every commit (`StandingOrders.run`), each step told privately to the player.

The choice itself is game.standing (pure)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace

from game.commands import Activate, FixDice
from game.dice import derived_number
from game.errors import RulesError, UnknownName
from game.notation import format_command, parse
from game.phases.flow import sole_decider
from game.service import orders_store
from game.service.authority import Actor, Proxies, authorise
from game.service.cache import Bounded
from game.service.commands import Commands
from game.service.errors import AlreadyDecided, NotSeated
from game.service.reading import Reading
from game.service.repository import Loaded
from game.service.results import Expect, Outcome
from game.service.store import GameStore
from game.service.waiting import decision_now
from game.standing import FALLBACKS, REROLL_POLICIES, TARGET_RULES, ShipOrders, Standing, step
from game.views import redact, view_of


@dataclass(frozen=True)
class OrderNote:
    """What the standing orders did (or why they wait): said privately to the player who gave them."""

    user_id: str
    player: str
    text: str


def owned(stored: tuple[Standing, str] | None, holder: str | None) -> Standing | None:
    """Standing orders belong to the member who gave them: once the side is someone else's they have
    lapsed, for whatever reads them (shown, edited or carried out)."""
    return stored[0] if stored is not None and holder is not None and stored[1] == holder else None


class StandingOrders:
    def __init__(self, store: GameStore, reading: Reading, commands: Commands) -> None:
        self.store = store
        self.reading = reading
        self.commands = commands
        self._told: Bounded = Bounded(10_000)  # (game, player) -> log position a wait was told at

    async def _mine(self, actor: Actor, game_id: int, player: str | None) -> tuple[Loaded, str]:
        loaded = await self.store.load(game_id, actor)
        players = self.store.players_of(loaded, actor)
        if not players:
            raise NotSeated("You are not playing in this game.", "Join a side first (/game join).")
        if player is not None and player not in players:
            raise NotSeated(f"You do not command side {player}.", f"Your sides: {', '.join(players)}.")
        return loaded, player or players[0]

    async def current(self, actor: Actor, game_id: int, player: str | None = None) -> Standing:
        """The actor's standing orders for this turn (orders from an earlier turn, or given by the side's
        former player, have lapsed: an edit starts afresh)."""
        loaded, who = await self._mine(actor, game_id, player)
        found = owned(await orders_store.load_orders(self.store.repo, game_id, who), actor.user_id)
        turn = loaded.state.turn
        if found is None or found.turn != turn:
            return Standing(who, turn)
        return found

    async def lapsed(self, actor: Actor, game_id: int, player: str | None = None) -> str:
        """What the side's new player is told while its former player's standing orders are still stored."""
        _, who = await self._mine(actor, game_id, player)
        stored = await orders_store.load_orders(self.store.repo, game_id, who)
        if stored is None or owned(stored, actor.user_id) is not None:
            return ""
        turn = max((t for side, t, _ in await self.reading.seat_history(game_id) if side == who), default=0)
        return (f"Your predecessor's standing orders for side {who} lapsed at the hand-over "
                f"({f'turn {turn}' if turn else 'before turn 1'}): they are never carried out, and yours start afresh.")

    async def edit(self, actor: Actor, game_id: int, change: Callable[[Standing], Standing],
                   player: str | None = None) -> Standing:
        orders = change(await self.current(actor, game_id, player))
        await orders_store.save_orders(self.store.repo, game_id, actor.user_id, orders)
        return orders

    async def move(self, actor: Actor, game_id: int, line: str, player: str | None = None) -> Standing:
        """A Movement activation for one of the actor's ships, checked as /plan checks it (names from the
        actor's view, the ship theirs); it is tried for legality only when play reaches it."""
        loaded, who = await self._mine(actor, game_id, player)
        players = self.store.players_of(loaded, actor)
        cmd = parse(line, redact(loaded.state, players), hands=players)
        if isinstance(cmd, FixDice) or not isinstance(cmd, Activate):
            raise RulesError("A standing move is one ship's Movement activation (`move SHIP …`).",
                             "Give attacks with /orders attack, and everything else when asked.")
        cmd, _ = authorise(loaded.state, loaded.seats, replace(actor, gm=False), cmd, Proxies())
        assert isinstance(cmd, Activate)
        owner = loaded.state.ship(cmd.ship).controller
        if owner not in players:
            raise NotSeated(f"{cmd.ship} is not your ship.")

        def put(o: Standing) -> Standing:
            return o.with_ship(replace(o.of(cmd.ship) or ShipOrders(cmd.ship), move=replace(cmd, player=owner)))

        return await self.edit(actor, game_id, put, owner)

    async def attack(self, actor: Actor, game_id: int, ship: str, rule: str, target: str = "",
                           then: str = "best", player: str | None = None) -> Standing:
        loaded, who = await self._mine(actor, game_id, player)
        view = view_of(loaded.state, who)
        mine = {s.id for s in view.game.ships_of(who)}
        if ship not in mine:
            raise UnknownName(f"You have no ship {ship[:40]!r}.", f"Your ships: {', '.join(sorted(mine))}.")
        if rule not in (*TARGET_RULES, "ship"):
            raise RulesError(f"There is no target rule {rule[:20]!r}.", f"Rules: {', '.join(TARGET_RULES)}, or a ship.")
        if then not in TARGET_RULES:
            raise RulesError(f"There is no target rule {then[:20]!r}.", f"Rules: {', '.join(TARGET_RULES)}.")
        if rule == "ship":
            enemies = {s.id for s in view.game.ships if not view.game.allied(s.controller, who)}
            if target not in enemies:
                raise UnknownName(f"There is no enemy ship {target[:40]!r}.", f"Enemies: {', '.join(sorted(enemies))}.")

        def put(o: Standing) -> Standing:
            return o.with_ship(replace(o.of(ship) or ShipOrders(ship), attack=rule, target=target if rule == "ship" else "",
                                       then=then))

        return await self.edit(actor, game_id, put, who)

    async def policy(self, actor: Actor, game_id: int, reroll: str | None = None,
                           fallback: str | None = None, discretion: bool | None = None, ship: str | None = None,
                           player: str | None = None) -> Standing:
        """The re-roll policy, the fallback, and the captain's discretion (for one ship, or the turn)."""
        if reroll is not None and reroll not in REROLL_POLICIES:
            raise RulesError(f"There is no re-roll policy {reroll[:20]!r}.", f"Policies: {', '.join(REROLL_POLICIES)}.")
        if fallback is not None and fallback not in FALLBACKS:
            raise RulesError(f"There is no fallback {fallback[:20]!r}.", f"Fallbacks: {', '.join(FALLBACKS)}.")
        loaded, who = await self._mine(actor, game_id, player)
        if ship is not None and ship not in {s.id for s in loaded.state.ships_of(who)}:
            raise UnknownName(f"You have no ship {ship[:40]!r}.")

        def put(o: Standing) -> Standing:
            o = replace(o, reroll=reroll or o.reroll, fallback=fallback or o.fallback)
            if discretion is not None and ship is None:
                o = replace(o, discretion=discretion)
            elif discretion is not None and ship is not None:
                o = o.with_ship(replace(o.of(ship) or ShipOrders(ship), discretion=discretion))
            return o

        return await self.edit(actor, game_id, put, who)

    async def clear(self, actor: Actor, game_id: int, player: str | None = None) -> None:
        _, who = await self._mine(actor, game_id, player)
        await orders_store.clear_orders(self.store.repo, game_id, who)

    async def run(self, game_id: int) -> list[Outcome | OrderNote]:
        """When the game waits for one human player, let their standing orders (or the only legal answer)
        take the decision. An order that says to wait is told once per moment of the game."""
        return await self.run_of(await self.store.load(game_id))

    async def run_of(self, loaded: Loaded) -> list[Outcome | OrderNote]:
        game_id = loaded.record.id or 0
        player = sole_decider(loaded.state)
        if player is None:
            return []
        seat = next((s for s in loaded.seats if s.player == player), None)
        if seat is None or seat.is_ai or seat.user_id is None:
            return []
        orders, user = owned(await orders_store.load_orders(self.store.repo, game_id, player), seat.user_id), seat.user_id
        rules = await self.store.rules_for(loaded.record)
        position = loaded.record.last_seq
        judgement = derived_number(loaded.record.dice_seed, f"standing:{player}:{position}")
        # the captain's judgement is CPU work: off the event loop, as the bot's other heavy work is
        found = await asyncio.to_thread(step, view_of(loaded.state, player), orders, rules, judgement)
        if found is None:
            return []
        if found.command is None:
            if self._told.get((game_id, player)) == position:
                return []
            self._told[(game_id, player)] = position
            return [OrderNote(seat.user_id, player, found.note)]
        actor = Actor(seat.user_id, loaded.record.guild_id)
        try:
            # decided for this holder on the game as it stood at `position`: refused if play moved on or the
            # side changed hands meanwhile (the one check of every scheduled action), and then there is
            # nothing to say
            outcome = await self.commands.submit(actor, game_id, found.command, request_id=f"standing:{game_id}:{position}",
                                       expect=Expect(decision=decision_now(loaded, player)))
        except AlreadyDecided:
            return []
        except RulesError as exc:
            await orders_store.clear_orders(self.store.repo, game_id, player)  # never retry an order the engine refused
            return [OrderNote(seat.user_id, player, f"`{format_command(found.command)}` was refused ({exc.text}); "
                                                   "your standing orders are cleared: give new ones with /orders")]
        if orders is not None and found.orders != orders:
            await orders_store.save_orders(self.store.repo, game_id, user, found.orders)
        return [outcome, OrderNote(seat.user_id, player, f"`{format_command(found.command)}`: {found.note}")]

"""Carrying out players' commands: parsed against what the sender may see (so that an error cannot
show another side's cards), checked against who may give them, decided with the game's secret dice
and committed before they are answered. A request id makes a retried command apply once and answer
as the first time, in any process."""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any

from game import events as ev
from game.commands import Command, Concede, FixDice, PickCard
from game.dice import derived_number
from game.errors import DiceNotAllowed, RulesError
from game.notation import format_command, parse
from game.phases.flow import deciders, sole_decider
from game.service.authority import Actor, Proxies, as_seated, authorise
from game.service.errors import AlreadyDecided, GameDamaged, NotPermitted, NotSeated, ServiceError
from game.service.jobs import choose_job, decide_job
from game.service.proxies import proxies_for
from game.service.reading import Reading
from game.service.repository import DuplicateRequest, Loaded, VersionConflict
from game.service.results import Expect, Outcome, PlanRefused
from game.service.store import RETRIES, GameStore
from game.service.waiting import decision_now, require_waiting
from game.views import redact, view_of


class Commands:
    def __init__(self, store: GameStore, reading: Reading) -> None:
        self.store = store
        self.reading = reading
        self._fixed_dice: dict[int, deque[str]] = {}

    async def submit(self, actor: Actor, game_id: int, command: Command | str, request_id: str | None = None,
                     expect: Expect | None = None, override: bool = False) -> Outcome:
        """Apply a player's command (or a line of notation) and commit it before answering. With
        `expect`, only while the game still waits on the decision the command was sent for; with
        `override`, a GM acts for a player within their deadline (logged: authority.acting_for)."""
        store = self.store
        # a request id is looked up only when the command fails: the first time, the unique key on
        # the commit is all the check there is (DuplicateRequest)
        async with store.lock(game_id):
            for attempt in range(RETRIES):
                # no version check on the way in: the commit's own check catches a stale copy
                loaded = await store.load(game_id, actor, fresh=attempt > 0, verify=False)
                acted_for: ev.ActedFor | None = None
                try:
                    if expect is not None:
                        await self._expect(loaded, expect)
                    cmd, acted_for = await self._prepare(loaded, actor, command, override)
                    if isinstance(cmd, FixDice):
                        await self._fix_dice(loaded, actor, cmd)
                        return Outcome(game_id, loaded.record.last_seq, loaded.record.last_seq, (),
                                       store.view_for(loaded, actor, loaded.state))
                    events = await self._decide(loaded, cmd)
                except RulesError as exc:
                    if request_id and (seen := await store.answered(actor, request_id)) is not None:
                        return seen  # the command was carried out before: refused now only for that
                    if attempt == 0 and await store.stale(loaded):
                        continue  # decided on an old copy: another process moved the game on
                    if acted_for is not None and acted_for.kind == "override":
                        # the override read the side's hidden cards to act for it; a refusal in the
                        # rules' words could show them, and a refused attempt logs nothing
                        raise NotPermitted(f"That order cannot be given for player {acted_for.player} now.",
                                           "A refused GM override says no more than that, so that it never "
                                           "shows the side's hidden cards: check the line and try again.") from exc
                    raise
                if acted_for is not None:
                    events = [acted_for, *events]
                try:
                    return await store.commit(loaded, actor, events, request_id)
                except VersionConflict:
                    store.forget(game_id)
                    continue
                except DuplicateRequest:
                    if (seen := await store.answered(actor, request_id or "")) is not None:
                        return seen
                    raise
            raise ServiceError("The game is busy: other orders kept arriving.", "Try again in a moment.")

    async def _expect(self, loaded: Loaded, expect: Expect) -> None:
        """Refuse a command whose button or menu was made for a decision the game has moved past."""
        if expect.roll is not None and await self.reading.roll_decision_of(loaded) != expect.roll:
            raise AlreadyDecided("That roll was already decided.",
                                 "Use the buttons on the newest board post (`/game status` posts one).")
        if expect.turn is not None and loaded.state.turn != expect.turn:
            raise AlreadyDecided(f"That pick was for turn {expect.turn}; it is turn {loaded.state.turn} now.",
                                 "Press the Choose initiative card button on the newest board post.")
        if expect.position is not None and loaded.record.last_seq != expect.position:
            raise AlreadyDecided("That menu was for an earlier moment of the game: play has moved on.",
                                 "Use the newest board's menu, or /options.")
        if expect.decision is not None:
            require_waiting(loaded, expect.decision)

    async def _prepare(self, loaded: Loaded, actor: Actor, command: Command | str,
                       override: bool = False) -> tuple[Command, ev.ActedFor | None]:
        """Parse the line against what the actor may see, then check the actor may give it."""
        actor = as_seated(loaded.seats, actor)
        players = self.store.players_of(loaded, actor)
        proxies = await proxies_for(self.store.repo, loaded, actor, override) if actor.captain_of is None else Proxies()
        sides = [*players, *proxies.stood_in(loaded.state, loaded.seats, actor)]
        if not sides and not actor.gm:
            raise NotSeated("You are not playing in this game.", "Join a side first (/game join), or watch.")
        if isinstance(command, str):
            line, knows = command, [*sides, *proxies.absent]
            try:
                command = parse(line, redact(loaded.state, knows), hands=knows)
            except RulesError as refused:
                peek = [*knows, *deciders(loaded.state)]
                if not proxies.override or peek == knows:
                    raise
                # an override reads the hand of a side the game waits on, as the GM acting for it must;
                # a line that still does not parse is refused in the words of what the GM may see, or a
                # refused attempt (which logs nothing) would show them the hand
                try:
                    command = parse(line, redact(loaded.state, peek), hands=peek)
                except RulesError:
                    raise refused from None
        if isinstance(command, FixDice):
            return command, None
        return authorise(loaded.state, loaded.seats, actor, command, proxies)

    async def _decide(self, loaded: Loaded, cmd: Command) -> list[Any]:
        if not loaded.record.dice_seed:
            raise GameDamaged(f"Game #{loaded.record.id} has no dice seed.", "Run the database migrations.")
        rules = await self.store.rules_for(loaded.record)
        fixed = self._fixed_dice.get(loaded.record.id or 0)
        events, used = await self.store.workers.run(decide_job, loaded.state, cmd, loaded.record.dice_seed,
                                                    tuple(fixed or ()), rules)
        if fixed is not None:
            for _ in range(used):
                fixed.popleft()
        return list(events)

    async def _fix_dice(self, loaded: Loaded, actor: Actor, cmd: FixDice) -> None:
        """Test games only, and only a seated player (or the offline table) fixes the next faces; a face
        the die does not have is refused here, before it could break a roll."""
        if not loaded.state.test_dice:
            raise DiceNotAllowed("Fixing dice is refused in this game.", "Only test scenarios (test_dice = true) allow it.")
        if not actor.local and not self.store.players_of(loaded, actor):
            raise NotSeated("Only a player of this test game may fix its dice.")
        sides = (await self.store.rules_for(loaded.record)).die.sides
        bad = [f for f in cmd.faces if f not in sides]
        if bad:
            raise DiceNotAllowed(f"{bad[0][:40]!r} is not a face of the die.", f"Faces: {', '.join(sorted(set(sides)))}.")
        self._fixed_dice.setdefault(loaded.record.id or 0, deque()).extend(cmd.faces)

    async def pick(self, actor: Actor, game_id: int, card: str, player: str | None = None,
                   request_id: str | None = None, expect: Expect | None = None) -> Outcome:
        loaded = await self.store.load(game_id, actor)
        players = self.store.players_of(loaded, actor)
        who = player or (players[0] if len(players) == 1 else "")
        if not who:
            raise NotSeated("Say which side you are choosing for.", f"Your sides: {', '.join(players) or 'none'}.")
        return await self.submit(actor, game_id, PickCard(who, card), request_id, expect)

    async def concede(self, actor: Actor, game_id: int, player: str | None = None,
                      request_id: str | None = None) -> Outcome:
        loaded = await self.store.load(game_id, actor)
        actor = as_seated(loaded.seats, actor)
        players = self.store.players_of(loaded, actor)
        who = player or (players[0] if players else "")
        if not who or (who not in players and not actor.gm):
            raise NotSeated("Only a player (or a GM) can concede a game.")
        return await self.submit(actor, game_id, Concede(who), request_id)

    # ------------------------------------------------------------------ plan ahead

    async def plan(self, actor: Actor, game_id: int, line: str) -> str:
        """Queue an order for the actor's next activation (players in other time zones). Only for
        the actor's own side, whatever the line names."""
        loaded = await self.store.load(game_id, actor)
        players = self.store.players_of(loaded, actor)
        if not players:
            raise NotSeated("You are not playing in this game.", "Join a side first (/game join).")
        cmd = parse(line, redact(loaded.state, players), hands=players)
        if isinstance(cmd, FixDice):
            raise DiceNotAllowed("Fixing dice cannot be planned.")
        cmd, _ = authorise(loaded.state, loaded.seats, replace(actor, gm=False), cmd, Proxies())
        player = getattr(cmd, "player", "") or players[0]
        text = format_command(cmd)
        await self.store.repo.add_planned(game_id, player, actor.user_id, text)
        return text

    async def run_planned(self, game_id: int) -> list[Outcome | PlanRefused]:
        """When the game waits for a player who planned an order, carry it out if it is still
        legal; otherwise drop it and say why, to the planner only."""
        return await self.run_planned_of(await self.store.load(game_id))

    async def run_planned_of(self, loaded: Loaded) -> list[Outcome | PlanRefused]:
        game_id = loaded.record.id or 0
        player = sole_decider(loaded.state)
        if player is None:
            return []
        repo = self.store.repo
        order = await repo.next_planned(game_id, player)
        if order is None:
            return []
        if all(s.user_id != order.user_id for s in loaded.seats if s.player == player):
            # planned by the side's former player: it lapsed with the hand-over, and concerns nobody now
            await repo.finish_planned(order, "lapsed", "the side changed hands")
            return []
        actor = Actor(order.user_id, loaded.record.guild_id)
        try:
            # for the decision waited on as read here: if play moved on meanwhile (another process, the
            # player by hand), the order stays queued for the player's next decision
            outcome = await self.submit(actor, game_id, order.line, request_id=f"planned:{order.id}",
                                        expect=Expect(decision=decision_now(loaded, player)))
        except AlreadyDecided:
            return []
        except RulesError as exc:
            await repo.finish_planned(order, "refused", exc.text)
            return [PlanRefused(order.user_id, player, order.line, exc.text)]
        await repo.finish_planned(order, "applied", "")
        return [outcome]

    # ------------------------------------------------------------------ the computer captain

    async def play_ai(self, game_id: int, limit: int = 200) -> list[Outcome]:
        """Let computer captains answer every decision that is theirs. Each sees only its own side's
        view and thinks with dice of its own."""
        out: list[Outcome] = []
        for _ in range(limit):
            played = await self.captain_move(await self.store.load(game_id))
            if played is None:
                break
            out.append(played)
        return out

    async def captain_move(self, loaded: Loaded) -> Outcome | None:
        """One decision a computer captain owes, made and committed (None: no captain owes one)."""
        game_id = loaded.record.id or 0
        ai = {s.player for s in loaded.seats if s.is_ai}
        due = deciders(loaded.state) & ai
        if not due:
            return None
        player = sorted(due)[0]
        rules = await self.store.rules_for(loaded.record)
        judgement = derived_number(loaded.record.dice_seed, f"captain:{player}:{loaded.record.last_seq}")
        cmd = await self.store.workers.run(choose_job, view_of(loaded.state, player), player, judgement, rules)
        # the request id names the moment: a second process deciding the same move is answered with
        # the first one's result instead of playing its choice again on the moved-on game
        return await self.submit(Actor(f"ai:{player}", loaded.record.guild_id), game_id, cmd,
                                 request_id=f"ai:{game_id}:{loaded.record.last_seq}:{player}",
                                 expect=Expect(decision=decision_now(loaded, player)))

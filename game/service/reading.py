"""Reading a game: what each member may see of it, what they can do now, and its log."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from game import events as ev
from game.account import overrides_line
from game.ai.legal import legal_commands
from game.fairness import commitment
from game.model import Game, Phase
from game.notation import format_command
from game.options import Options
from game.phases.common import awaiting_pick, owes_pick
from game.phases.flow import deciders
from game.rules_data import RulesData
from game.service import orders_store
from game.service.authority import Actor, Proxies
from game.service.cache import Bounded
from game.service.errors import NotSeated
from game.service.jobs import options_job, public_options_job
from game.service.models import utcnow
from game.service.proxies import stand_ins
from game.service.repository import Loaded
from game.service.results import BoardRead, GameInfo, HandRead, SeatInfo
from game.service.store import GameStore
from game.tutorial import hand_hint, learner
from game.tutorial import hint as tutorial_hint
from game.views import View, event_for, redact, view_of


def info_of(loaded: Loaded) -> GameInfo:
    r, st = loaded.record, loaded.state
    assert r.id is not None
    return GameInfo(r.id, r.name, r.guild_id, r.channel_id, r.status,
                    tuple(SeatInfo(s.player, s.user_id, s.display_name, s.is_ai)
                          for s in sorted(loaded.seats, key=lambda s: s.player)),
                    st.turn, st.phase.value, commitment(r.dice_seed) if r.dice_seed else "", r.system)


class Reading:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._options_at: Bounded = Bounded(2_000)  # (game, version, …) -> the options then

    async def view(self, actor: Actor, game_id: int, player: str | None = None) -> View:
        """The game as the actor sees it; a player with two squadrons names the one to look through."""
        loaded = await self.store.load(game_id, actor)
        players = await self.sides(loaded, actor)
        if player is not None:
            if player not in players:
                raise NotSeated(f"You do not command side {player}.", f"Your sides: {', '.join(players) or 'none'}.")
            return view_of(loaded.state, player, also=players)
        return view_of(loaded.state, players[0] if players else None, also=players)

    async def hand(self, actor: Actor, game_id: int) -> HandRead:
        """The member's sides, those owing a pick, and the first one's own view (its hand)."""
        loaded = await self.store.load(game_id, actor)
        players = await self.sides(loaded, actor)
        first = view_of(loaded.state, players[0] if players else None, also=players)
        owed = [p for p in players if owes_pick(first.game, p)]  # the member's own view shows their hands
        view = view_of(loaded.state, owed[0], also=players) if owed else first
        rules = await self.store.rules_for(loaded.record)
        hint = hand_hint(view.game, owed[0], rules) if owed else ""  # from the member's own view
        return HandRead(tuple(players), tuple(owed), view, rules, hint)

    async def sides(self, loaded: Loaded, actor: Actor) -> list[str]:
        players = self.store.players_of(loaded, actor)
        if actor.captain_of is not None:
            return players
        stand = Proxies(stand_ins=await stand_ins(self.store.repo, loaded, utcnow()))
        return sorted({*players, *stand.stood_in(loaded.state, loaded.seats, actor)})

    async def rules(self, game_id: int) -> RulesData:
        """The data the game started with (built-in, or its guild's imported version)."""
        return await self.store.rules_for((await self.store.load(game_id)).record)

    async def state_for_audit(self, game_id: int) -> Game:
        """The full state (with every secret): for the audit and tests, never for a front end."""
        return (await self.store.load(game_id)).state

    async def legal(self, actor: Actor, game_id: int, ship: str | None = None) -> list[str]:
        """The orders the actor could give now, found on what the actor may see."""
        loaded = await self.store.load(game_id, actor)
        mine = self.store.players_of(loaded, actor)
        out = []
        for cmd in legal_commands(redact(loaded.state, mine), await self.store.rules_for(loaded.record)):
            owner = getattr(cmd, "player", "")
            if mine and owner and owner not in mine:
                continue
            if ship is not None and getattr(cmd, "ship", ship) != ship:
                continue
            out.append(format_command(cmd))
        return out

    async def options(self, actor: Actor, game_id: int, ship: str | None = None) -> tuple[int, Options]:
        """What the actor can do now (from their own view), and the log position it was read at: a
        menu built from it answers only while the game is still there."""
        loaded = await self.store.load(game_id, actor)
        players = await self.sides(loaded, actor)
        waiting = [p for p in players if p in deciders(loaded.state)]
        viewer = waiting[0] if waiting else (players[0] if players else None)
        key = (game_id, loaded.record.version, viewer, tuple(players), ship)
        found: Options | None = self._options_at.get(key)
        if found is None:
            rules = await self.store.rules_for(loaded.record)
            found = self._options_at[key] = await self.store.workers.run(
                options_job, view_of(loaded.state, viewer, also=players), rules, ship)
        return loaded.record.last_seq, found

    async def position(self, game_id: int) -> int:
        """How many events the game's log holds: the moment a menu or button belongs to."""
        return (await self.store.load(game_id)).record.last_seq

    async def roll_decision(self, game_id: int) -> int | None:
        """The decision the roll buttons answer: the number of the event that opened the roll the game
        waits on (None when no roll waits). It stays the same while that roll waits, re-rolls included."""
        return await self.roll_decision_of(await self.store.load(game_id))

    async def roll_decision_of(self, loaded: Loaded) -> int | None:
        if loaded.state.pending is None:
            return None
        assert loaded.record.id is not None
        # an undo never reaches back past dice (UNDO_BARRIERS), so the latest such event opened the roll
        # that waits, even when an undo has brought it back
        async with self.store.db_slots:
            seq = await self.store.repo.last_event_seq(loaded.record.id, "RollAwaitsChoice", loaded.record.last_seq)
        return seq or 0

    async def public_options(self, game_id: int) -> list[Options]:
        """The options of each player the game waits for, as may be posted in the channel."""
        return await self.public_options_of(await self.store.load(game_id))

    async def public_options_of(self, loaded: Loaded) -> list[Options]:
        # the board post, the status edit, a reminder and the options menu all ask at the same moment:
        # working out the closing moves (trial moves through the engine) once per moment is enough
        key = (loaded.record.id, loaded.record.version)  # every change of the game moves its version on
        found: list[Options] | None = self._options_at.get(key)
        if found is None:
            rules = await self.store.rules_for(loaded.record)
            found = await self.store.workers.run(public_options_job, loaded.state, sorted(deciders(loaded.state)), rules)
            self._options_at[key] = found
        return found

    async def log(self, actor: Actor, game_id: int, last: int = 20) -> list[Any]:
        loaded = await self.store.load(game_id, actor)
        mine = self.store.players_of(loaded, actor)
        first = max(1, loaded.record.last_seq - last + 1)
        return [event_for(e, mine) for _, _, e in await self.store.repo.events(game_id, first)]

    async def seat_history(self, game_id: int) -> list[tuple[str, int, str]]:
        """Who played each side, from which turn: (side, first turn, name), in order."""
        loaded = await self.store.load(game_id)
        turn = 0
        history: list[tuple[str, int, str]] = []
        first: dict[str, str] = {}
        for _, _, e in await self.store.repo.events(game_id):
            if isinstance(e, ev.PhaseBegan):
                turn = e.turn
            elif isinstance(e, ev.SeatHandedOver):
                first.setdefault(e.player, e.before)
                history.append((e.player, turn, e.to))
        starts = [(s.player, 0, first.get(s.player, s.display_name)) for s in loaded.seats]
        return sorted(starts + history, key=lambda h: (h[0], h[1]))

    async def board(self, game_id: int, first: int | None = None, last: int | None = None) -> BoardRead:
        """One read for a board post and the status message: `first`..`last` are the events it
        tells (none: the board alone)."""
        loaded = await self.store.load(game_id)
        repo = self.store.repo
        logged = [e for _, _, e in await repo.events(game_id, first, last)] if first is not None else []
        over = loaded.state.phase is Phase.OVER
        ended = over and any(isinstance(e, ev.GameEnded) for e in logged)
        rules = await self.store.rules_for(loaded.record)
        waiting = tuple(await self.public_options_of(loaded))
        shown = tuple(event_for(e, None) for e in logged)
        # the hint is read from the learner's own view: it can tell nothing the learner could not see
        hint = tutorial_hint(view_of(loaded.state, learner(loaded.state)).game, waiting, shown, rules) \
            if loaded.state.tutorial else ""
        clock = await orders_store.game_clock(repo, game_id)  # a paused clock is said instead of a deadline
        return BoardRead(
            info_of(loaded), view_of(loaded.state, None), shown,
            waiting, loaded.record.last_seq,
            await self.roll_decision_of(loaded), rules,
            await repo.next_deadline(game_id), loaded.record.status_message_id, tuple(sorted(deciders(loaded.state))),
            tuple(awaiting_pick(loaded.state)),
            loaded.record.dice_seed if over else None,
            overrides_line(e for _, _, e in await repo.events(game_id)) if ended else "", hint,
            clock.paused, clock.paused_until.replace(tzinfo=UTC) if clock.paused_until is not None
            and clock.paused_until.tzinfo is None else clock.paused_until)

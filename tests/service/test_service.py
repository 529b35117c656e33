"""The game service on real databases: full games, concurrency, idempotency, secrets, undo,
restart, audit, scheduler, and the models matching the migrations."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from game.ai.captain import Captain
from game.codec import to_data
from game.errors import NotYourShip, NotYourTurn, RulesError
from game.events import CardPicked
from game.model import Phase
from game.phases.flow import deciders
from game.service.db import make_engine
from game.service.game_service import (
    Actor,
    GameNotFound,
    GameService,
    NotPermitted,
    NotSeated,
    UndoRefused,
    WrongGuild,
)
from game.service.models import PendingSecret, ScheduledJob
from game.service.scheduler import run_due
from tests.seeds import counting_seeds

ANN, BOB, EVE = Actor("111", "g1"), Actor("222", "g1"), Actor("333", "g1")


async def new_game(service: GameService) -> int:
    info = await service.lobby.create_game(ANN, "chan-1")
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    return info.id


async def play_out(service: GameService, game_id: int, seed: int) -> None:
    actors = {"A": ANN, "B": BOB}
    captains = {p: Captain(p, seed) for p in actors}
    for n in range(3000):
        state = await service.reading.state_for_audit(game_id)
        due = deciders(state)
        if not due:
            return
        p = sorted(due)[0]
        cmd = captains[p].act(state)
        await service.commands.submit(actors[p], game_id, cmd, request_id=f"{game_id}-{n}")
    raise AssertionError("game did not end")


async def test_two_players_play_the_quick_start_to_the_end(service: GameService) -> None:
    gid = await new_game(service)
    await play_out(service, gid, 3)
    view = await service.reading.view(ANN, gid)
    assert view.game.phase is Phase.OVER and view.game.winner in ("A", "B")
    report = await service.audit.check(gid)
    assert report.ok, report.mismatches
    games = await service.lobby.list_games("g1")
    assert [g.status for g in games] == ["over"]


async def test_refusals_name_the_problem(service: GameService) -> None:
    gid = await new_game(service)
    with pytest.raises(WrongGuild):
        await service.reading.view(Actor("111", "other-guild"), gid)
    with pytest.raises(GameNotFound):
        await service.reading.view(ANN, 999)
    with pytest.raises(NotSeated):
        await service.commands.submit(EVE, gid, "pick A Down!")
    with pytest.raises(NotYourShip):
        await service.commands.submit(BOB, gid, "pick A Down!")
    await service.commands.pick(ANN, gid, "Effective Fire")
    await service.commands.pick(BOB, gid, "Take Courage")
    await service.commands.pick(ANN, gid, "Careful Aim")
    await service.commands.pick(BOB, gid, "Reload!")
    with pytest.raises(NotYourShip):
        await service.commands.submit(BOB, gid, "move Kestrel")  # Ann's ship
    with pytest.raises(NotYourTurn):
        await service.commands.submit(BOB, gid, "move Otter")  # A has the initiative
    out = await service.commands.submit(ANN, gid, "move Kestrel")
    assert out.last_seq > out.first_seq


async def test_same_request_twice_applies_once(service: GameService) -> None:
    gid = await new_game(service)
    first = await service.commands.pick(ANN, gid, "Effective Fire", request_id="req-1")
    again = await service.commands.pick(ANN, gid, "Effective Fire", request_id="req-1")
    assert (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert again.replayed and not first.replayed
    assert [type(e).__name__ for e in again.events] == ["CardPicked"]
    state = await service.reading.state_for_audit(gid)
    assert state.log_position == first.last_seq  # nothing applied twice


async def test_a_request_id_used_again_for_a_command_that_is_still_legal_answers_the_first_time(
        service: GameService) -> None:
    """The request id is checked by its unique key on commit: a retry that decides afresh and would be
    legal (here the same interaction arriving for a second game) is not applied, and gets the first answer."""
    one = await new_game(service)
    two = (await service.lobby.create_game(ANN, "chan-2")).id
    await service.lobby.join(ANN, two, "A", "Ann")
    await service.lobby.join(BOB, two, "B", "Bob")
    first = await service.commands.pick(ANN, one, "Effective Fire", request_id="req-9")
    again = await service.commands.pick(ANN, two, "Effective Fire", request_id="req-9")
    assert again.replayed and again.game_id == one and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert not (await service.reading.state_for_audit(two)).squadron("A").picked  # nothing was applied to the second game
    assert (await service.reading.state_for_audit(one)).squadron("A").picked


async def test_secrets_never_reach_another_player_or_a_spectator(service: GameService) -> None:
    gid = await new_game(service)
    await service.commands.pick(ANN, gid, "Adjust Position")
    for who in (BOB, EVE):
        view = await service.reading.view(who, gid)
        blob = json.dumps(to_data(view.game))
        assert "Adjust Position" not in blob
        assert view.game.squadron("A").face_down is None and view.game.squadron("A").picked
        assert view.hand_size("A") == 4
        log = await service.reading.log(who, gid)
        assert [e for e in log if isinstance(e, CardPicked)] == [CardPicked("A", None)]
    own = await service.reading.view(ANN, gid)
    assert own.game.squadron("A").face_down == "Adjust Position"
    spectator = await service.reading.view(EVE, gid)
    assert spectator.game.squadron("B").hand == () and spectator.viewer is None


async def test_two_hundred_conflicting_orders_apply_exactly_once(db_url: str) -> None:
    engines = [make_engine(db_url), make_engine(db_url)]
    try:
        services = [GameService(e, seeds=counting_seeds()) for e in engines]  # two processes' worth: separate locks and caches
        gid = await new_game(services[0])
        for line, who in (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB),
                          ("pick A Careful Aim", ANN), ("pick B Reload!", BOB)):
            await services[0].commands.submit(who, gid, line)
        orders = ["move Kestrel", "move Kestrel turn end port 30", "move Kestrel turn start starboard 15",
                  "move Amazone", "move Amazone turn end port 10"]

        async def one(i: int) -> bool:
            try:
                await services[i % 2].commands.submit(ANN, gid, orders[i % len(orders)], request_id=f"race-{i}")
            except RulesError:
                return False
            return True

        results = await asyncio.gather(*(one(i) for i in range(200)))
        assert sum(results) == 1
        report = await services[1].audit.check(gid)
        assert report.ok, report.mismatches
        state = await services[1].reading.state_for_audit(gid)
        assert len(state.activated) == 1 and state.active_player == "B"
    finally:
        for e in engines:
            await e.dispose()


async def test_a_restarted_service_continues_exactly(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        first = GameService(engine, snapshot_every=7, seeds=counting_seeds())
        gid = await new_game(first)
        captains = {"A": Captain("A", 5), "B": Captain("B", 5)}
        actors = {"A": ANN, "B": BOB}
        for n in range(40):
            state = await first.reading.state_for_audit(gid)
            p = sorted(deciders(state))[0]
            await first.commands.submit(actors[p], gid, captains[p].act(state), request_id=f"r{n}")
        before = await first.reading.state_for_audit(gid)
        second = GameService(engine, snapshot_every=7)
        assert (await second.audit.rebuild_all()).loaded == 1
        assert await second.reading.state_for_audit(gid) == before
        assert (await second.audit.check(gid)).ok
        await play_out(second, gid, 5)
        assert (await second.reading.state_for_audit(gid)).phase is Phase.OVER
    finally:
        await engine.dispose()


async def test_undo_needs_consent_or_a_gm(service: GameService) -> None:
    gid = await new_game(service)
    for line, who in (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB),
                      ("pick A Careful Aim", ANN), ("pick B Reload!", BOB)):
        await service.commands.submit(who, gid, line)
    await service.commands.submit(ANN, gid, "move Kestrel turn end port 30")
    moved = (await service.reading.state_for_audit(gid)).ship("Kestrel")
    await service.undo.request(ANN, gid)
    with pytest.raises(UndoRefused):
        await service.undo.approve(ANN, gid)  # not your own consent
    await service.undo.approve(BOB, gid)
    back = await service.reading.state_for_audit(gid)
    assert back.ship("Kestrel").y != moved.y and back.active_player == "A"
    assert (await service.audit.check(gid)).ok
    await service.commands.submit(ANN, gid, "move Kestrel")
    await service.undo.request(Actor("999", "g1", gm=True), gid)
    assert (await service.reading.state_for_audit(gid)).ship("Kestrel").y == back.ship("Kestrel").y


async def test_concede_ends_the_game(service: GameService) -> None:
    gid = await new_game(service)
    await service.commands.concede(BOB, gid)
    state = await service.reading.state_for_audit(gid)
    assert state.winner == "A" and "concedes" in state.result
    with pytest.raises(RulesError):
        await service.commands.pick(ANN, gid, "Down!")


async def test_one_game_per_channel(service: GameService) -> None:
    await new_game(service)
    from game.service.game_service import ChannelBusy

    with pytest.raises(ChannelBusy):
        await service.lobby.create_game(ANN, "chan-1")
    other = await service.lobby.create_game(ANN, "chan-1", thread_id="thread-9")
    assert other.channel_id == "thread-9"


async def test_pending_secret_picks_and_scheduled_reminders(service: GameService) -> None:
    gid = await new_game(service)
    await service.commands.pick(ANN, gid, "Effective Fire")
    owed = await service.store.repo.pending_secrets(gid)
    assert [(p.player, p.turn) for p in owed] == [("B", 0)]
    ran: list[str] = []

    async def remind(job: ScheduledJob) -> None:
        ran.append(json.loads(job.payload)["player"])

    later = __import__("game.service.models", fromlist=["utcnow"]).utcnow() + timedelta(hours=13)
    assert await run_due(service.store.repo, {"reminder": remind, "deadline": remind}, now=later) >= 1
    assert ran == ["B"]
    # a second scheduler (another process after a restart) finds nothing left to run
    again = GameService(service.store.repo.engine)
    assert await run_due(again.store.repo, {"reminder": remind}, now=later) == 0
    async with service.store.repo.session() as s:
        rows = (await s.execute(select(PendingSecret))).scalars().all()
        assert {r.player for r in rows} == {"A", "B"}


async def test_legal_commands_for_a_ship(service: GameService) -> None:
    gid = await new_game(service)
    for line, who in (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB),
                      ("pick A Careful Aim", ANN), ("pick B Reload!", BOB)):
        await service.commands.submit(who, gid, line)
    options = await service.reading.legal(ANN, gid, "Kestrel")
    assert "A: move Kestrel" in options
    assert all("Kestrel" in o for o in options)
    assert await service.reading.legal(BOB, gid, "Otter") == []  # not B's turn


async def test_guild_data_import_never_changes_a_running_game(service: GameService) -> None:
    from game.rules_data import DataError

    gm = Actor("999", "g1", gm=True)
    before = await new_game(service)
    files = await service.data.export_data("g1")
    assert "ranges.toml" in files and "max = 12.0" in files["ranges.toml"]
    with pytest.raises(NotPermitted):
        await service.data.import_data(ANN, "ranges.toml", files["ranges.toml"])
    with pytest.raises(DataError) as err:
        await service.data.import_data(gm, "ships.toml", files["ships.toml"].replace('base = "small"', 'base = "tiny"', 1))
    assert (err.value.file, err.value.entry, err.value.field) == ("ships.toml", "Sloop", "base")
    await service.data.import_data(gm, "ranges.toml", files["ranges.toml"].replace("max = 12.0", "max = 14.0"))
    assert "max = 14.0" in (await service.data.export_data("g1"))["ranges.toml"]
    await service.commands.concede(ANN, before)
    after = (await service.lobby.create_game(ANN, "chan-2")).id
    old_record = (await service.store.repo.load(before)).record  # type: ignore[union-attr]
    new_record = (await service.store.repo.load(after)).record  # type: ignore[union-attr]
    assert old_record.data_version == "builtin" and new_record.data_version != "builtin"
    assert (await service.store.rules_for(old_record)).range_of("cannon") == 12.0
    fresh = GameService(service.store.repo.engine)  # after a restart the version comes from the database
    assert (await fresh.store.rules_for(new_record)).range_of("cannon") == 14.0

"""The referee service (game/service/referee.py) on SQLite and PostgreSQL: seats, commands from a
seat, secret orders per viewer, dice from the game's secret seed, the log stored and read back,
undo, two processes on one database, and Oak & Iron's service keeping its hands off these games."""

from __future__ import annotations

import json
import tomllib

import pytest

from game.dice import FairDice
from game.errors import NotYourShip, RulesError
from game.service.authority import Actor
from game.service.errors import OtherSystem, SeatTaken, UndoRefused
from game.service.game_service import GameService
from game.service.referee import RefereeService, builtin_setups
from game.systems import REFEREE_SYSTEMS
from game.systems.base import replay
from game.systems.dice import parse_spec, roll
from game.systems.wsim import SYSTEM as WSIM
from tests.seeds import counting_seeds

G = "guild"
BRIT, FRENCH, UMPIRE, STRANGER = (Actor(u, G) for u in ("1", "2", "3", "9"))


async def wsim_game(service: GameService) -> tuple[RefereeService, int]:
    ref = service.referee
    info = await ref.create_game(BRIT, "chan", "wsim")
    for actor, seat in ((BRIT, "British"), (FRENCH, "french"), (UMPIRE, "Umpire")):
        await ref.join(actor, info.id, seat, f"user {actor.user_id}")
    return ref, info.id


async def to_plots(ref: RefereeService, gid: int) -> None:
    """The wind is rolled in A; B (one ship a side) and C (nothing fouled) are skipped: D, in one `next`."""
    await ref.submit(UMPIRE, gid, "next")


async def test_seats_and_who_may_give_what(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    info = await ref.info(gid)
    assert [(n, u) for n, u, _ in info.seats] == [("British", "1"), ("French", "2"), ("Umpire", "3")]
    with pytest.raises(SeatTaken):
        await ref.join(STRANGER, gid, "British")
    with pytest.raises(SeatTaken):
        await ref.join(BRIT, gid, None)  # one seat per person
    with pytest.raises(NotYourShip):
        await ref.submit(BRIT, gid, "next")  # the referee moves the phases
    with pytest.raises(RulesError, match="hold no seat"):
        await ref.submit(STRANGER, gid, "roll 2d6")
    await to_plots(ref, gid)
    # the player is who holds the seat: a typed prefix naming another is refused, never believed
    with pytest.raises(NotYourShip, match="seat of British"):
        await ref.submit(BRIT, gid, "French: plot Redoutable 1")
    with pytest.raises(NotYourShip):
        await ref.submit(BRIT, gid, "plot Redoutable 1")
    out = await ref.submit(FRENCH, gid, "French: plot Redoutable L1R1")  # its own name is fine
    assert out.sealed and out.public == ("French seals the Redoutable order.",)
    assert out.mine == ("French seals Redoutable: L1R1",)


async def test_sealed_orders_per_viewer_and_revealed_together(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    await to_plots(ref, gid)
    await ref.submit(FRENCH, gid, "plot Redoutable L1R1")
    assert (await ref.view(BRIT, gid)).orders.order("Redoutable").text is None
    assert (await ref.view(STRANGER, gid)).orders.order("Redoutable").text is None
    assert (await ref.view(UMPIRE, gid)).orders.order("Redoutable").text == "L1R1"  # a referee who does not play
    assert not any("L1R1" in x for x in await ref.log(BRIT, gid))
    assert any("L1R1" in x for x in await ref.log(FRENCH, gid))
    assert "L1R1" not in await ref.ship_log(BRIT, gid, "redou")
    out = await ref.submit(BRIT, gid, "plot Victory 1")
    assert "Revealed: Redoutable: L1R1; Victory: 1" in out.public  # in the order they were sealed
    assert out.info.phase == "E" and out.info.waiting == ("Umpire",)


async def test_a_ship_sheet_is_read_from_the_askers_view(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    own = await ref.ship_sheet(BRIT, gid, "victory")
    assert own.rows()["Left broadside"] == "roundshot, initial broadside"
    for actor in (FRENCH, STRANGER):  # the opponent; a member without a seat reads as a spectator
        seen = await ref.ship_sheet(actor, gid, "Victory")
        assert seen.rows()["Left broadside"] == seen.rows()["Right broadside"] == "? (secret)"
        assert "roundshot" not in await ref.ship_log(actor, gid, "Victory")
    assert (await ref.ship_sheet(UMPIRE, gid, "Victory")).rows() == own.rows()  # a referee who does not play
    assert (await ref.ship_log(BRIT, gid, "Victory")) == own.text()
    with pytest.raises(RulesError, match="Ships: Victory, Redoutable"):
        await ref.ship_sheet(BRIT, gid, "Bucentaure")


async def test_dice_come_from_the_secret_seed_and_the_log_reads_back(db_url: str, service: GameService) -> None:
    ref, gid = await wsim_game(service)
    out = await ref.submit(UMPIRE, gid, "roll 3d6 for a test")
    loaded = await ref._load(gid)
    seed = loaded.record.dice_seed
    assert seed == counting_seeds()()  # the first game of the test's seed source
    # the roll is the one FairDice gives at that position of the log, with the seat that asked for it
    expected = roll(FairDice(seed, 0), parse_spec("3d6"), "a test", "Umpire")
    assert out.public == (WSIM.account(expected),)
    assert seed not in json.dumps(out.public) and loaded.state.seed == 0
    await to_plots(ref, gid)
    # a second service on the same database (another process) carries the plots in
    from game.service.db import make_engine

    engine = make_engine(db_url)
    try:
        other = GameService(engine).referee
        await other.submit(FRENCH, gid, "plot Redoutable L1R1")
        await other.submit(BRIT, gid, "plot Victory 1")
        # this process still holds the game before the plots, where `next` is refused: it reads the game
        # again rather than refuse a command that is legal now
        out = await ref.submit(UMPIRE, gid, "next")
        assert out.info.phase == "H"  # F and G skipped: nothing is fouled or grappled
        # and when both decide on the same copy, the write that comes second decides afresh: from J (I skipped), not H
        await other.submit(UMPIRE, gid, "next")
        out = await ref.submit(UMPIRE, gid, "next")
        assert (out.info.phase, out.info.turn) == ("D", 2)
        again = await other._load(gid, fresh=True)
        assert again.state == (await ref._load(gid)).state
        initial = WSIM.initial_state(tomllib.loads(builtin_setups("wsim")["trafalgar"]))
        assert replay(WSIM, initial, [e for _, _, e in await ref.store.repo.events(gid, system=WSIM)]) == again.state
    finally:
        await engine.dispose()


async def test_undo_by_the_referee_only_when_nothing_was_seen(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    await to_plots(ref, gid)
    await ref.submit(FRENCH, gid, "plot Redoutable L1R1")
    with pytest.raises(NotYourShip):
        await ref.undo(FRENCH, gid)
    await ref.undo(UMPIRE, gid)
    game = await ref._load(gid, fresh=True)
    assert game.state.orders.order("Redoutable") is None and game.state.phase == "D"
    await ref.submit(FRENCH, gid, "plot Redoutable 2")
    await ref.submit(BRIT, gid, "plot Victory 1")
    with pytest.raises(UndoRefused, match="revealed"):
        await ref.undo(UMPIRE, gid)
    await ref.submit(UMPIRE, gid, "roll 2d6")
    with pytest.raises(UndoRefused, match="dice"):
        await ref.undo(UMPIRE, gid)
    reread = await GameService(ref.store.repo.engine).referee._load(gid)
    assert reread.state == (await ref._load(gid)).state


async def test_undo_never_lets_a_sealed_order_be_chosen_again_after_the_reveal(service: GameService) -> None:
    """Issue 22, property 4: undoing a block sealed after an impulse's reveal would let its owner choose
    it again knowing more, so the referee's undo refuses it; before any reveal it is still allowed."""
    ref = service.referee
    us, british, umpire = (Actor(u, G) for u in ("11", "12", "13"))
    gid = (await ref.create_game(us, "chan-cs", "captains_sea")).id
    for actor, seat in ((us, "US"), (british, "British"), (umpire, "Umpire")):
        await ref.join(actor, gid, seat)
    for line in ("next", "next", "initiative US", "next"):
        await ref.submit(umpire, gid, line)
    await ref.submit(us, gid, "impulses Constitution 2 6")
    await ref.submit(british, gid, "impulses Guerriere 5")
    await ref.submit(umpire, gid, "next")
    await ref.submit(us, gid, "maneuver Constitution turn-port")
    await ref.undo(umpire, gid)  # before any reveal a block may still be taken back and chosen again
    await ref.submit(us, gid, "maneuver Constitution wear")
    await ref.submit(british, gid, "maneuver Guerriere straight")
    await ref.submit(umpire, gid, "next")  # impulse 2 reveals Constitution's wear
    await ref.submit(us, gid, "maneuver Constitution luff")  # the rule's step: its next block
    with pytest.raises(UndoRefused, match="sealed"):
        await ref.undo(umpire, gid)
    assert (await ref.view(umpire, gid)).orders.order("Constitution").text == "luff"
    with pytest.raises(RulesError, match="the reveal has begun"):
        await ref.submit(us, gid, "maneuver Constitution straight")


async def test_every_system_and_setup_is_served(service: GameService) -> None:
    for n, key in enumerate(REFEREE_SYSTEMS):
        for setup in builtin_setups(key):
            info = await service.referee.create_game(BRIT, f"c-{n}-{setup[:8]}", key, setup)
            assert info.system == key and info.waiting == (info.seats[-1][0],)  # the referee begins
            await service.referee.join(BRIT, info.id)
            out = await service.referee.submit(BRIT, info.id, "roll 2d6")  # any seat may roll
            first = info.seats[0][0]
            assert len(out.public) == 1 and out.public[0].startswith(f"{first} rolls 2d6 for roll: ["), out.public


async def test_oak_and_iron_service_keeps_its_hands_off(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    oak = await service.lobby.create_game(BRIT, "other-channel")
    with pytest.raises(OtherSystem, match="/ref"):
        await service.commands.submit(BRIT, gid, "pick A Down!")
    with pytest.raises(OtherSystem):
        await service.reading.view(BRIT, gid)
    page, total = await service.lobby.games_page(G)
    assert total == 2 and {g.id for g in page} == {gid, oak.id}
    assert (await service.lobby.game_in_channel(G, "chan")).id == gid  # type: ignore[union-attr]
    report = await service.audit.rebuild_all()
    assert report.damaged == ()
    assert await service.store.repo.all_game_ids() == [oak.id]
    assert await ref.game_in_channel(G, "other-channel") is None
    with pytest.raises(RulesError, match="no referee-assistant game"):
        await ref.info(oak.id)
    with pytest.raises(RulesError, match="already has a game"):
        await ref.create_game(BRIT, "other-channel", "captains_sea")


async def reminders(service: GameService, gid: int) -> list[str]:
    from sqlalchemy import select

    from game.service.models import ScheduledJob

    async with service.store.repo.session() as s:
        rows = (await s.execute(select(ScheduledJob).where(ScheduledJob.game_id == gid))).scalars().all()
    names = {"p1": "British", "p2": "French", "ref": "Umpire"}  # the seats' keys, as the jobs name them
    return sorted(names[j.player or ""] for j in rows if j.status == "pending")


async def test_reminders_follow_whom_the_game_waits_for(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    await ref.submit(UMPIRE, gid, "next A")  # stop in the Wind Phase, which `next` alone passes once rolled
    assert await reminders(service, gid) == ["Umpire"]
    await ref.submit(UMPIRE, gid, "next")  # B and C skipped
    assert await reminders(service, gid) == ["British", "French"]
    await ref.submit(FRENCH, gid, "plot Redoutable L1R1")
    assert await reminders(service, gid) == ["British"]
    await ref.submit(UMPIRE, gid, "roll 2d6")  # nobody new is awaited: the reminders stand
    assert await reminders(service, gid) == ["British"]
    await ref.submit(BRIT, gid, "plot Victory 1")
    assert await reminders(service, gid) == ["Umpire"]
    assert (await service.lobby.game_in_channel(G, "chan")).id == gid  # type: ignore[union-attr]
    await ref.submit(UMPIRE, gid, "end the French strike")
    assert await service.lobby.game_in_channel(G, "chan") is None  # the channel is free for the next game
    assert await reminders(service, gid) == []
    assert (await ref.info(gid)).status == "over"


async def test_a_games_lock_does_not_outlive_its_commands(service: GameService) -> None:
    """The referee service kept a lock for every game it ever touched; its games now live in the one
    game store, whose locks leave with the games they guard (tests/service/test_game_cache.py). Two
    commands at once on one game still take turns."""
    import asyncio
    import gc

    ref, gid = await wsim_game(service)
    # `next A` stops in A; from there a second one goes on to the plots of D (the Wind Phase comes next turn)
    await asyncio.gather(ref.submit(UMPIRE, gid, "next A"), ref.submit(UMPIRE, gid, "next A"))
    other = await ref.create_game(BRIT, "other", "wsim")
    for actor, seat in ((BRIT, "British"), (FRENCH, "french"), (UMPIRE, "Umpire")):
        await ref.join(actor, other.id, seat)
    for _ in "AB":
        await ref.submit(UMPIRE, other.id, "next A")
    assert (await ref.info(gid)).phase == (await ref.info(other.id)).phase == "D"  # both orders, one after the other
    for n in range(20):
        info = await ref.create_game(BRIT, f"more-{n}", "wsim")
        await ref.join(BRIT, info.id)
    gc.collect()
    store = service.store
    assert set(store.locks) <= set(store.cached) and not any(lock.locked() for lock in store.locks.values())

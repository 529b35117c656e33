"""Issue 27, item 2 through the service: a finished game's card (its figures, its dice luck and its
verified dice), the chronicle channel (a GM's), and a rematch any of its players may ask for once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game import events as ev
from game.chronicle import chance, summarise
from game.errors import RulesError
from game.model import Phase
from game.service.db import make_engine
from game.service.errors import AlreadyDecided, ChannelBusy, NotPermitted, NotSeated
from game.service.game_service import Actor, GameService
from game.service.outbox import rows_of
from tests.seeds import counting_seeds

ANN, BOB, EVE = Actor("111", "g1"), Actor("222", "g1"), Actor("333", "g1")
GM = Actor("999", "g1", gm=True)


async def finished(service: GameService, channel: str = "chan-1") -> int:
    info = await service.lobby.create_game(ANN, channel)
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    await service.commands.concede(BOB, info.id)
    return info.id


async def test_the_card_tells_the_end_and_the_verified_dice(service: GameService) -> None:
    gid = await finished(service)
    card = await service.chronicle.card(gid)
    assert card.summary.winner == "A" and card.verified and card.rematch is None
    assert [s.side for s in card.summary.sides] == ["A", "B"]
    assert card.members == {"A": ("Ann",), "B": ("Bob",)}
    assert card.chronicle_channel is None


async def test_no_card_before_the_end(service: GameService) -> None:
    info = await service.lobby.create_game(ANN, "chan-1")
    with pytest.raises(RulesError, match="once it is over"):
        await service.chronicle.card(info.id)


async def test_dice_luck_is_hits_rolled_against_their_expectation(service: GameService) -> None:
    info = await service.lobby.create_game(ANN, "chan-1")
    for p in ("A", "B"):
        await service.lobby.join(ANN, info.id, p, ai=True)
    await service.commands.play_ai(info.id, limit=5000)
    loaded = await service.store.load(info.id)
    assert loaded.state.phase is Phase.OVER
    logged = [e for _, _, e in await service.store.repo.events(info.id)]
    die = (await service.store.rules_for(loaded.record)).die
    summary = summarise(loaded.state, logged, die)
    for side in summary.sides:
        # the figure by hand: every fresh die a side threw (a re-roll's dice too), its successes against n × p
        thrown, hits, expected = 0, 0, 0.0
        for e in logged:
            if isinstance(e, ev.DiceRolled) and e.player and e.kind in die.success:
                faces = e.faces
            elif isinstance(e, ev.DiceRerolled) and e.kind in die.success:
                faces = tuple(e.faces[i] for i in e.positions)
            else:
                continue
            if loaded.state.team_of(e.player) == side.side:
                thrown += len(faces)
                hits += die.successes(e.kind, faces)
                expected += len(faces) * (chance(die, e.kind) or 0)
        assert (side.dice, side.rolled) == (thrown, hits)
        assert side.expected == pytest.approx(expected, abs=0.01)
        assert side.luck == round(hits - side.expected, 1)
    assert sum(s.dice for s in summary.sides) > 0
    with pytest.raises(ValueError):
        summarise(replace(loaded.state, phase=Phase.SETUP), logged, die)


async def test_the_chronicle_channel_is_a_gms_setting(service: GameService) -> None:
    with pytest.raises(NotPermitted):
        await service.chronicle.set_channel(ANN, "555")
    await service.chronicle.set_channel(GM, "555")
    gid = await finished(service)
    assert (await service.chronicle.card(gid)).chronicle_channel == "555"
    await service.chronicle.set_channel(GM, None)
    assert (await service.chronicle.card(gid)).chronicle_channel is None


async def test_a_rematch_swaps_the_sides_once_and_only_for_a_player(service: GameService) -> None:
    gid = await finished(service)
    await service.clock.settings(GM, gid, deadline_hours=30, on_deadline="captain")
    with pytest.raises(NotSeated):
        await service.chronicle.rematch(EVE, gid)
    assert await service.lobby.game_here("g1", "chan-1") is None  # kept: "no game here"
    with pytest.raises(NotSeated):
        await service.chronicle.rematch(GM, gid)  # a GM is no player of it
    info = await service.chronicle.rematch(BOB, gid)
    assert {s.player: s.user_id for s in info.seats} == {"A": "222", "B": "111"}
    assert info.channel_id == "chan-1" and info.id != gid
    assert await service.lobby.game_here("g1", "chan-1") == info.id  # what the lobby kept was forgotten
    with pytest.raises(AlreadyDecided):
        await service.chronicle.rematch(ANN, gid)
    with pytest.raises(AlreadyDecided):
        await service.chronicle.rematch(BOB, gid)
    assert (await service.chronicle.card(gid)).rematch == info.id
    from game.service import orders_store
    clock = await orders_store.game_clock(service.store.repo, info.id)
    assert (clock.deadline_hours, clock.on_deadline) == (30, "captain")
    assert (await service.audit.dice_commitment(info.id)) != (await service.audit.dice_commitment(gid))


async def test_a_busy_channel_asks_for_a_thread(service: GameService) -> None:
    gid = await finished(service)
    await service.lobby.create_game(EVE, "chan-1")
    with pytest.raises(ChannelBusy):
        await service.chronicle.rematch(ANN, gid)
    info = await service.chronicle.rematch(ANN, gid, thread_id="thread-9")
    assert info.channel_id == "thread-9"


async def test_two_processes_make_one_rematch(db_url: str) -> None:
    engines = [make_engine(db_url), make_engine(db_url)]
    try:
        one, two = (GameService(e, seeds=counting_seeds()) for e in engines)
        gid = await finished(one)
        await one.chronicle.rematch(ANN, gid)
        with pytest.raises(AlreadyDecided):
            await two.chronicle.rematch(BOB, gid)
    finally:
        for e in engines:
            await e.dispose()


async def test_the_ending_commit_writes_the_cards(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds(), outbox=True)
        gid = await finished(service)
        async with service.store.repo.session() as s:
            kinds = [r.kind for r in await rows_of(s, gid)]
        assert kinds.count("chronicle") == 2 and kinds.index("chronicle") > kinds.index("board")
    finally:
        await engine.dispose()


async def test_a_drafted_rematch_brings_each_players_squadron_to_their_new_side(service: GameService) -> None:
    from importlib import resources

    dutch = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
    await service.squadrons.save(ANN, dutch)
    await service.squadrons.save(BOB, dutch.replace('"Zeeland Admiralty"', '"Bob\'s Admiralty"', 1))
    info = await service.lobby.create_game(ANN, "chan-2", scenario="drafted_skirmish")
    await service.lobby.join(ANN, info.id, "A", "Ann", squadron="Zeeland Admiralty")
    await service.lobby.join(BOB, info.id, "B", "Bob", squadron="Bob's Admiralty")
    await service.commands.concede(ANN, info.id)
    again = await service.chronicle.rematch(ANN, info.id)
    state = (await service.store.load(again.id)).state
    assert state.phase is Phase.PREPARATION
    assert (state.squadron("A").name, state.squadron("B").name) == ("Bob's Admiralty", "Zeeland Admiralty")
    assert all(s.owner == s.controller for s in state.ships)
    assert {s.owner for s in state.ships} == {"A", "B"}
    assert (await service.audit.check(again.id)).ok

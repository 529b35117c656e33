"""Issue 26, item 5: a member exports and deletes their data. After the deletion nothing stored names
them (their id or their name), and every game they played still audits, verifies its dice and replays;
a game under way goes on with their side free for a GM to hand over."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from sqlalchemy import select
from sqlmodel import SQLModel

from game.service.game_service import Actor, GameService
from game.service.models import EventRecord, Seat
from tests.helpers import S, scenario_text

# Discord ids are snowflakes: 17 to 20 digits
ANN = Actor("100000000000000111", "900000000000000001")
BOB = Actor("100000000000000222", "900000000000000001")
CAT = Actor("100000000000000333", "900000000000000001")
GM = Actor("100000000000000444", "900000000000000001", gm=True)
BOT_ID, ANN_DMS = "500000000000000001", "300000000000000111"
SQUADRON = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()


async def short_game(service: GameService, channel: str) -> int:
    text = scenario_text([S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")],
                         test_dice=False)
    info = await service.lobby.create_game(ANN, channel, scenario_text=text)
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    for line, who in (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB), ("pick A Careful Aim", ANN),
                      ("pick B Reload!", BOB)):
        await service.commands.submit(who, info.id, line)
    return info.id


async def every_row(service: GameService) -> list[tuple[str, str]]:
    """Every stored row of every table, as text."""
    out = []
    async with service.store.repo.session() as s:
        for table in SQLModel.metadata.sorted_tables:
            for row in (await s.execute(select(table))).all():
                out.append((table.name, repr(tuple(row))))
    return out


async def ann_everywhere(service: GameService) -> tuple[int, int]:
    """Ann's finished game (handed over once, her squadron, her hours, her plans) and her game under way."""
    over = await short_game(service, "chan-1")
    await service.clock.set_hours(ANN, time_zone="Europe/Amsterdam", quiet_from=23, quiet_to=7)
    await service.squadrons.save(ANN, SQUADRON)
    await service.commands.plan(ANN, over, "move Kestrel")
    await service.seats.hand_over(ANN, over, CAT.user_id, "Cat")  # the log names her as "Ann"
    await service.seats.hand_over(CAT, over, ANN.user_id, "Ann")
    await service.commands.concede(BOB, over)
    under_way = await short_game(service, "chan-2")
    await service.commands.plan(ANN, under_way, "move Kestrel")
    for who, channel in ((ANN, ANN_DMS), (BOB, "300000000000000222")):  # the bot has DMed both
        await service.front.remember_dm_channel(BOT_ID, who.user_id, channel)
    return over, under_way


async def test_a_member_sees_everything_stored_about_them(service: GameService) -> None:
    over, under_way = await ann_everywhere(service)
    data = await service.privacy.export(ANN.user_id)
    assert json.loads(json.dumps(data)) == data  # a JSON file as it is
    assert {(s["game"], s["side"], s["display_name"]) for s in data["seats"]} == {(over, "A", "Ann"),
                                                                                  (under_way, "A", "Ann")}
    assert data["hours"]["time_zone"] == "Europe/Amsterdam"
    assert [q["name"] for q in data["saved_squadrons"]] == ["Zeeland Admiralty"]
    assert {o["game"] for o in data["planned_orders"]} == {over, under_way}
    assert {e["game"] for e in data["events_acted_in"]} == {over, under_way}
    assert [d["channel"] for d in data["dm_channels"]] == [ANN_DMS]
    assert BOB.user_id not in json.dumps(data)  # someone else's id is not hers to download


async def test_a_deleted_member_is_gone_and_their_games_still_replay_and_verify(service: GameService) -> None:
    over, under_way = await ann_everywhere(service)
    before = [(seq, e) for seq, _, e in await service.store.repo.events(over)]
    bob_before = await service.privacy.export(BOB.user_id)

    pseudonym = await service.privacy.forget(ANN.user_id, known_names=["Ann"])

    assert pseudonym.startswith("former:")
    rows = await every_row(service)
    assert not [r for r in rows if ANN.user_id in r[1]], "her id is still stored"
    assert await service.front.dm_channel(BOT_ID, ANN.user_id) is None
    assert not [r for r in rows if "'Ann'" in r[1] or '"Ann"' in r[1]], "her name is still stored"
    assert not any(v for k, v in (await service.privacy.export(ANN.user_id)).items()
                   if k not in ("format", "user_id", "exported_at", "named_as_stand_in_by"))
    # the games: the same log (only who acted changed), audited, the dice verified, the replay told
    after = [(seq, e) for seq, _, e in await service.store.repo.events(over)]
    assert [s for s, _ in after] == [s for s, _ in before]
    assert [type(e) for _, e in after] == [type(e) for _, e in before]
    for gid in (over, under_way):
        assert (await service.audit.check(gid)).ok
    assert (await service.audit.verify(None, over)).verification.ok
    frames, _, log_file = await service.audit.replay(BOB, over)
    told = json.dumps([f.caption for f in frames]) + json.dumps(log_file)
    assert ANN.user_id not in told and "Ann" not in told
    assert "former member" in told  # the handovers still say the side changed hands
    bob_after = await service.privacy.export(BOB.user_id)
    assert bob_after == {**bob_before, "exported_at": bob_after["exported_at"]}  # Bob keeps all of his
    # the game under way goes on: Bob plays, and a GM hands her side to Cat, who plays it
    async with service.store.repo.session() as s:
        seat = (await s.execute(select(Seat).where(Seat.game_id == under_way, Seat.player == "A"))).scalar_one()  # type: ignore[arg-type]
    assert (seat.user_id, seat.display_name) == (pseudonym, "former member")
    await service.seats.hand_over(GM, under_way, CAT.user_id, "Cat", "A")
    await service.commands.submit(CAT, under_way, "move Kestrel")
    assert (await service.audit.check(under_way)).ok


async def test_a_seat_of_a_game_not_started_is_free_again(service: GameService) -> None:
    info = await service.lobby.create_game(ANN, "chan-3")
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.privacy.forget(ANN.user_id)
    await service.lobby.join(CAT, info.id, "A", "Cat")  # her side, taken by someone else
    async with service.store.repo.session() as s:
        actors = set((await s.execute(select(EventRecord.actor))).scalars())  # type: ignore[call-overload]
    assert ANN.user_id not in actors


async def test_a_member_deletes_only_themselves(service: GameService) -> None:
    gid = await short_game(service, "chan-4")
    await service.squadrons.save(BOB, SQUADRON)
    await service.squadrons.save(ANN, SQUADRON)
    await service.privacy.forget(ANN.user_id)
    assert len(await service.squadrons.saved(BOB)) == 1 and not await service.squadrons.saved(ANN)
    seats: dict[str, Any] = {s.player: s for s in (await service.store.load(gid, fresh=True)).seats}
    assert (seats["B"].user_id, seats["B"].display_name) == (BOB.user_id, "Bob")
    await service.commands.submit(BOB, gid, "concede B")  # Bob still plays his side


async def test_a_referee_game_keeps_playing_after_its_umpire_is_forgotten(service: GameService) -> None:
    """The referee systems log who rolled in their events and keep it in their states: rewritten alike,
    the stored game still replays to the state it holds, and its other seats play on."""
    from game.codec import from_data
    from game.systems.base import replay
    from game.systems.wsim import SYSTEM as WSIM

    ref = service.referee
    info = await ref.create_game(ANN, "chan-ref", "wsim")
    for actor, seat in ((ANN, "Umpire"), (BOB, "British"), (CAT, "French")):
        await ref.join(actor, info.id, seat, actor.user_id[-3:])
    await ref.submit(ANN, info.id, "roll 3d6 for a test")
    await ref.submit(ANN, info.id, "next")
    await service.privacy.forget(ANN.user_id)
    assert not [r for r in await every_row(service) if ANN.user_id in r[1]]
    loaded = await ref._load(info.id, fresh=True)
    initial = from_data(WSIM.state_type, json.loads(loaded.record.initial_state))
    events = [e for _, _, e in await service.store.repo.events(info.id, system=WSIM)]
    assert replay(WSIM, initial, events) == loaded.state  # the log, rewritten, still makes the state
    await ref.submit(CAT, info.id, "plot Redoutable L1R1")  # the other seats play on
    seats = {name: user for name, user, _ in (await ref.info(info.id)).seats}
    assert seats["Umpire"].startswith("former:") and seats["British"] == BOB.user_id


async def test_a_handover_names_a_member_who_never_acted_and_is_forgotten_too(service: GameService) -> None:
    """A GM gave her side away before she played: the log's handover holds her name and nothing else of
    hers, and still loses it."""
    text = scenario_text([S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")],
                         test_dice=False)
    info = await service.lobby.create_game(BOB, "chan-5", scenario_text=text)
    await service.lobby.join(ANN, info.id, "A", "Annabel")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    await service.commands.submit(BOB, info.id, "pick B Take Courage")
    await service.seats.hand_over(GM, info.id, CAT.user_id, "Cat", "A")
    await service.privacy.forget(ANN.user_id, known_names=["Annabel"])
    assert not [r for r in await every_row(service) if "Annabel" in r[1] or ANN.user_id in r[1]]
    assert (await service.audit.check(info.id)).ok

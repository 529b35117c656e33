"""Issue 11 through the service: no secret in any answer, dice nobody chooses or foresees and anyone
can check, no one acting beyond their seat, and storage that survives a second process, a damaged row
and a dead scheduler."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from game import events as ev
from game.codec import to_data
from game.errors import DiceNotAllowed, NotYourShip, NotYourTurn, RulesError
from game.fairness import commitment
from game.model import Phase
from game.service.db import make_engine
from game.service.game_service import (
    LOCAL_GUILD,
    Actor,
    GameService,
    NotPermitted,
    NotSeated,
    ServiceError,
    UndoRefused,
)
from game.service.models import EventRecord, GameRecord, ScheduledJob, Snapshot, utcnow
from game.service.results import PlanRefused
from game.service.scheduler import run_due, schedule
from tests.helpers import S, scenario_text
from tests.seeds import counting_seeds

ANN, BOB, EVE = Actor("111", "g1"), Actor("222", "g1"), Actor("333", "g1")
GM = Actor("999", "g1", gm=True)
PICKS = (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB), ("pick A Careful Aim", ANN),
         ("pick B Reload!", BOB))


async def new_game(service: GameService, text: str | None = None, channel: str = "chan-1") -> int:
    info = await service.lobby.create_game(ANN, channel, scenario_text=text)
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    return info.id


async def to_movement(service: GameService, gid: int) -> None:
    for line, who in PICKS:
        await service.commands.submit(who, gid, line)


async def refusal(call: object) -> RulesError:
    with pytest.raises(RulesError) as err:
        await call  # type: ignore[misc]
    return err.value


# ---------------------------------------------------------------- secrets


async def test_a_guess_at_the_other_hand_teaches_nothing(service: GameService) -> None:
    gid = await new_game(service)
    await service.commands.submit(BOB, gid, "pick B Reload!")
    hand_b = (await service.reading.state_for_audit(gid)).squadron("B").hand + ("Reload!",)
    for who in (ANN, EVE):
        for guess in ("zzz", "Rel", "R", "Take", "Reload!"):
            for send in (service.commands.submit(who, gid, f"pick B {guess}"), service.commands.plan(who, gid, f"pick B {guess}")):
                text = (await refusal(send)).text
                assert not any(card in text for card in hand_b), (who, guess, text)
    assert isinstance(await refusal(service.commands.submit(ANN, gid, "pick B zzz")), NotYourShip)
    assert isinstance(await refusal(service.commands.submit(EVE, gid, "pick B zzz")), NotSeated)


async def test_no_answer_carries_the_seed_or_the_dice_position(service: GameService) -> None:
    gid = await new_game(service)
    seed = (await service.store.repo.load(gid)).record.dice_seed  # type: ignore[union-attr]
    out = await service.commands.submit(ANN, gid, "pick A Effective Fire")
    for blob in (json.dumps(to_data(out.view.game)), repr(out.events), json.dumps(to_data((await service.reading.view(BOB, gid)).game))):
        assert seed not in blob
    assert out.view.game.seed == 0 and out.view.game.log_position == 0
    assert (await service.lobby.info(gid)).dice_commitment == commitment(seed)


async def test_a_planned_order_is_only_ever_for_ones_own_side_and_its_refusal_is_private(service: GameService) -> None:
    gid = await new_game(service)
    with pytest.raises(NotYourShip):
        await service.commands.plan(ANN, gid, "pick B Reload!")
    await service.commands.plan(ANN, gid, "pick A Effective Fire")  # meant for the second pick of turn 1
    await service.commands.submit(ANN, gid, "pick A Effective Fire")  # …but Ann plays that card at once
    await service.commands.submit(BOB, gid, "pick B Take Courage")  # revealed; both pick again
    await service.commands.submit(BOB, gid, "pick B Reload!")  # now the game waits for Ann alone
    results = await service.commands.run_planned(gid)
    assert len(results) == 1 and isinstance(results[0], PlanRefused)
    refused = results[0]
    assert (refused.user_id, refused.player) == (ANN.user_id, "A")
    hand_a = (await service.reading.state_for_audit(gid)).squadron("A").hand
    assert "not in player A's initiative hand" in refused.reason and hand_a[0] in refused.reason  # hers alone
    assert not (await service.reading.state_for_audit(gid)).squadron("A").picked


# ---------------------------------------------------------------- fair dice


async def test_nobody_chooses_the_dice_outside_the_offline_table(service: GameService) -> None:
    with pytest.raises(NotPermitted):
        await service.lobby.create_game(ANN, "chan-x", seed=4)
    with pytest.raises(NotPermitted):
        await service.lobby.create_game(GM, "chan-x", scenario_seed=True)
    local = Actor("local", LOCAL_GUILD)
    a = await service.lobby.create_game(local, "t1", seed=4)
    b = await service.lobby.create_game(local, "t2", seed=4)
    assert a.dice_commitment == b.dice_commitment  # a chosen seed is reproducible, for scripts and tests
    c = await service.lobby.create_game(ANN, "chan-y")
    d = await service.lobby.create_game(ANN, "chan-z")
    assert len({a.dice_commitment, c.dice_commitment, d.dice_commitment}) == 3


async def test_a_finished_game_verifies_and_a_tampered_one_does_not(service: GameService) -> None:
    info = await service.lobby.create_game(ANN, "chan-1")
    for p in ("A", "B"):
        await service.lobby.join(ANN, info.id, p, ai=True)
    with pytest.raises(ServiceError) as early:
        await service.audit.verify(ANN, info.id)
    assert info.dice_commitment in early.value.text  # before the end: only the commitment
    assert await service.audit.revealed_seed(info.id) is None
    await service.commands.play_ai(info.id, limit=5000)
    assert (await service.reading.state_for_audit(info.id)).phase is Phase.OVER
    check = await service.audit.verify(EVE, info.id)
    rolled = [e for _, _, e in await service.store.repo.events(info.id) if isinstance(e, ev.DiceRolled | ev.DiceRerolled)]
    assert check.verification.ok and check.verification.rolls == len(rolled) > 0, check.verification.mismatches
    assert check.commitment == info.dice_commitment == commitment(check.seed)
    assert await service.audit.revealed_seed(info.id) == check.seed
    exported = await service.audit.export_log(EVE, info.id)
    assert exported["seed"] == check.seed and len(exported["events"]) == (await service.store.repo.load(info.id)).record.last_seq  # type: ignore[union-attr]

    async with service.store.repo.session() as s, s.begin():  # someone edits one die in the stored log
        row = (await s.execute(select(EventRecord).where(EventRecord.game_id == info.id, EventRecord.type == "DiceRolled")
                               .order_by(EventRecord.seq).limit(1))).scalars().one()
        data = json.loads(row.payload)
        faces = data["faces"]
        faces[0] = "skull" if faces[0] != "skull" else "sail"
        await s.execute(update(EventRecord).where(EventRecord.id == row.id).values(payload=json.dumps(data)))
    bad = await service.audit.verify(EVE, info.id)
    assert not bad.verification.ok and f"event {row.seq}" in bad.verification.summary()


async def test_a_retried_decision_rolls_the_same_faces(service: GameService) -> None:
    gid = await new_game(service)
    await to_movement(service, gid)
    loaded = await service.store.load(gid)
    from game.notation import parse

    cmd = parse("move Kestrel adjust +1", loaded.state)
    first = await service.commands._decide(loaded, cmd)
    again = await service.commands._decide(loaded, cmd)
    assert first == again and any(isinstance(e, ev.DiceRolled) and e.at == 0 for e in first)


# ---------------------------------------------------------------- seats and authority


async def test_the_gm_role_and_data_are_a_gms_alone(service: GameService) -> None:
    with pytest.raises(NotPermitted):
        await service.data.set_gm_role(ANN, "555")
    await service.data.set_gm_role(GM, "555")
    assert (await service.store.repo.guild_settings("g1")).gm_role_id == "555"
    with pytest.raises(NotPermitted):
        await service.data.import_data(ANN, "ranges.toml", "")


async def test_a_gm_acts_for_a_player_only_past_the_deadline_and_the_log_says_so(service: GameService) -> None:
    gid = await new_game(service)
    err = await refusal(service.commands.submit(GM, gid, "pick A Effective Fire"))
    assert isinstance(err, NotPermitted) and "deadline" in err.text
    async with service.store.repo.session() as s, s.begin():
        await s.execute(update(ScheduledJob).where(ScheduledJob.kind == "deadline", ScheduledJob.payload.contains('"A"'))
                        .values(due_at=utcnow() - timedelta(minutes=1)))
    out = await service.commands.submit(GM, gid, "pick A Effective Fire")
    assert isinstance(out.events[0], ev.ActedFor) and out.events[0].by == GM.user_id and out.events[0].player == "A"
    err = await refusal(service.commands.submit(GM, gid, "pick B Reload!"))  # B is not late
    assert isinstance(err, NotPermitted)


async def test_test_dice_are_for_seated_players_and_a_bad_face_changes_nothing(service: GameService) -> None:
    text = scenario_text([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")])
    gid = await new_game(service, text)
    with pytest.raises(NotSeated):
        await service.commands.submit(EVE, gid, "dice skull")
    with pytest.raises(DiceNotAllowed) as err:
        await service.commands.submit(ANN, gid, "dice banana")
    assert "banana" in err.value.text and "skull" in err.value.text
    await service.commands.submit(ANN, gid, "pick A Down!")  # the game goes on
    assert (await service.reading.state_for_audit(gid)).squadron("A").picked
    normal = await new_game(service, channel="chan-2")
    with pytest.raises(DiceNotAllowed):
        await service.commands.submit(ANN, normal, "dice skull")


async def test_undo_needs_the_opponent_and_never_crosses_a_reveal_or_a_roll(service: GameService) -> None:
    gid = await new_game(service)
    await service.commands.submit(ANN, gid, "pick A Effective Fire")
    await service.commands.submit(BOB, gid, "pick B Take Courage")  # both cards revealed
    err = await refusal(service.undo.request(BOB, gid))
    assert isinstance(err, UndoRefused) and "revealed a card" in err.text
    await service.commands.submit(ANN, gid, "pick A Careful Aim")
    await service.commands.submit(BOB, gid, "pick B Reload!")
    await service.commands.submit(ANN, gid, "move Kestrel")
    await service.undo.request(ANN, gid)
    for who, kind in ((ANN, UndoRefused), (EVE, UndoRefused)):
        assert isinstance(await refusal(service.undo.approve(who, gid)), kind)
    out = await service.undo.approve(BOB, gid)
    assert isinstance(out.events[0], ev.StateRestored) and "player B's consent" in out.events[0].reason
    await service.commands.submit(ANN, gid, "move Kestrel adjust +1")  # a Skill Test: its dice are seen
    err = await refusal(service.undo.request(ANN, gid))
    assert "dice" in err.text
    assert "dice" in (await refusal(service.undo.request(GM, gid))).text  # not even a GM


# ---------------------------------------------------------------- storage across processes


async def test_a_second_process_with_a_stale_copy_accepts_a_legal_order(db_url: str) -> None:
    engines = [make_engine(db_url), make_engine(db_url)]
    try:
        one, two = (GameService(e, seeds=counting_seeds()) for e in engines)
        gid = await new_game(one)
        await to_movement(one, gid)
        await two.reading.view(BOB, gid)  # the second process caches the game now
        await one.commands.submit(ANN, gid, "move Kestrel", request_id="k1")
        # the second process's copy says it is still A's turn: it reloads rather than refuse B
        out = await two.commands.submit(BOB, gid, "move Otter")
        assert out.last_seq > out.first_seq
        with pytest.raises(NotYourTurn):
            await two.commands.submit(BOB, gid, "move Otter")  # now a real refusal, not a stale one
        again = await two.commands.submit(ANN, gid, "move Kestrel", request_id="k1")  # a retried request: its first answer
        assert again.replayed and (again.first_seq, again.last_seq) != (out.first_seq, out.last_seq)
        await one.undo.request(ANN, gid)  # stale in process one now
        await two.reading.view(ANN, gid)
        await one.commands.submit(ANN, gid, "move Amazone")
        undone = await two.undo.request(GM, gid)  # decided on a stale copy, written after a reload
        assert isinstance(undone.events[0], ev.StateRestored)
        assert (await one.audit.check(gid)).ok
    finally:
        for e in engines:
            await e.dispose()


async def test_a_damaged_game_is_skipped_and_a_damaged_snapshot_is_rebuilt(service: GameService) -> None:
    good = await new_game(service)
    damaged = await new_game(service, channel="chan-2")
    for gid in (good, damaged):
        await to_movement(service, gid)
        for line, who in (("move Kestrel", ANN), ("move Otter", BOB), ("move Amazone", ANN)):
            await service.commands.submit(who, gid, line)
    before = await service.reading.state_for_audit(good)
    last = (await service.store.repo.load(damaged)).record.last_seq  # type: ignore[union-attr]
    async with service.store.repo.session() as s, s.begin():
        snap_rows = (await s.execute(select(Snapshot).where(Snapshot.game_id == good))).scalars().all()
        assert snap_rows  # snapshot_every=10 in the fixture
        await s.execute(update(Snapshot).where(Snapshot.game_id == good).values(state="{not json"))
        await s.execute(update(EventRecord).where(EventRecord.game_id == damaged, EventRecord.seq == last)
                        .values(payload='{"type": "NoSuchEvent"}'))
    fresh = GameService(service.store.repo.engine)
    report = await fresh.audit.rebuild_all()
    assert report.loaded == 1 and [gid for gid, _ in report.damaged] == [damaged]
    assert f"event {last}" in report.damaged[0][1]
    assert await fresh.reading.state_for_audit(good) == before  # rebuilt from the events instead
    with pytest.raises(ServiceError) as err:
        await fresh.reading.view(ANN, damaged)
    assert "cannot be read" in err.value.text


async def test_a_job_claimed_by_a_dead_process_runs_again(service: GameService) -> None:
    job_id = await schedule(service.store.repo, "reminder", utcnow() - timedelta(minutes=1), None, {})
    async with service.store.repo.session() as s, s.begin():  # claimed, then the claimer was killed
        await s.execute(update(ScheduledJob).where(ScheduledJob.id == job_id)
                        .values(status="running", locked_until=utcnow() + timedelta(minutes=5)))
    ran: list[int] = []

    async def handler(job: ScheduledJob) -> None:
        ran.append(job.id or 0)

    assert await run_due(service.store.repo, {"reminder": handler}) == 0  # the lease still holds
    assert await run_due(service.store.repo, {"reminder": handler}, now=utcnow() + timedelta(minutes=10)) == 1
    assert ran == [job_id]
    async with service.store.repo.session() as s:
        job = await s.get(ScheduledJob, job_id)
        assert job is not None and job.status == "done" and job.locked_until is None
    _ = GameRecord  # the models the test reads

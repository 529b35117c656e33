"""/captain's service part (game/service/records.py): records from finished games only, per server
or (for the captain alone) across servers, hidden categories left out for others, and a rebuild from
the logs giving the same figures."""

from __future__ import annotations

import pytest

from game.service.game_service import Actor, GameService
from game.service.records import RecordRefused
from tests.helpers import S, scenario_text

ANN, BOB = Actor("111", "g1"), Actor("222", "g1")
ANN2, CAT2 = Actor("111", "g2"), Actor("333", "g2")


async def game(service: GameService, a: Actor, b: Actor, over: bool = True, loser: Actor | None = None,
               test_dice: bool = False) -> int:
    text = scenario_text([S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")],
                         test_dice=test_dice)
    info = await service.lobby.create_game(a, f"chan-{a.guild_id}", scenario_text=text)
    await service.lobby.join(a, info.id, "A", "Ann" if a.user_id == "111" else "Cat")
    await service.lobby.join(b, info.id, "B", {"222": "Bob", "333": "Cat", "111": "Ann"}[b.user_id])
    for line, who in (("pick A Effective Fire", a), ("pick B Take Courage", b), ("pick A Careful Aim", a),
                      ("pick B Reload!", b)):
        await service.commands.submit(who, info.id, line)
    if over:
        await service.commands.concede(loser or b, info.id)
    return info.id


async def test_a_record_counts_finished_games_of_this_server_only(service: GameService) -> None:
    await game(service, ANN, BOB)  # Ann wins (Bob concedes)
    await game(service, ANN, BOB, loser=ANN)
    await game(service, ANN, BOB, over=False)  # still in play: never counted
    await game(service, ANN2, CAT2)  # another server's
    here = await service.records.record(BOB.user_id, ANN.user_id, "g1")
    assert (here.games, here.wins, here.draws, here.losses) == (2, 1, 0, 1)
    assert here.name == "Ann" and here.scope == "server"
    assert here.rivals is not None and [(r.name, r.wins, r.losses) for r in here.rivals] == [("Bob", 1, 1)]
    assert here.favourite_ships == (("Sloop", 2),)
    everywhere = await service.records.record(ANN.user_id, ANN.user_id, None)
    assert (everywhere.games, everywhere.wins) == (3, 2)
    assert {r.name for r in everywhere.rivals or ()} == {"Bob", "Cat"}
    with pytest.raises(RecordRefused):  # which servers Ann plays in is hers to tell
        await service.records.record(BOB.user_id, ANN.user_id, None)
    other = await service.records.record(CAT2.user_id, CAT2.user_id, "g1")
    assert other.games == 0


async def test_a_hidden_category_is_left_out_for_others_only(service: GameService) -> None:
    await game(service, ANN, BOB)
    await service.records.set_hidden(ANN.user_id, "luck", True)
    await service.records.set_hidden(ANN.user_id, "rivals", True)
    seen = await service.records.record(BOB.user_id, ANN.user_id, "g1")
    assert seen.hits is None and seen.tests is None and seen.rivals is None
    assert "luck" not in seen.shown and "results" in seen.shown and seen.games == 1
    own = await service.records.record(ANN.user_id, ANN.user_id, "g1")
    assert own.hits is not None and own.rivals is not None and own.hidden == {"luck", "rivals"}
    await service.records.set_hidden(ANN.user_id, "luck", False)
    assert (await service.records.record(BOB.user_id, ANN.user_id, "g1")).hits is not None
    with pytest.raises(RecordRefused):
        await service.records.set_hidden(ANN.user_id, "secrets", True)


async def test_a_rebuild_from_the_logs_gives_the_same_figures(service: GameService) -> None:
    await game(service, ANN, BOB)
    await game(service, ANN, BOB, loser=ANN)
    first = await service.records.record(ANN.user_id, ANN.user_id, "g1")
    assert await service.records.record(BOB.user_id, ANN.user_id, "g1") == first
    assert len(service.records._records) == 1  # one record kept, for both viewers
    service.records._games.clear()
    service.records._records.clear()
    again = await service.records.record(ANN.user_id, ANN.user_id, "g1")
    assert again == first and again is not first
    await game(service, ANN, BOB)  # a game that ends makes a new record
    assert (await service.records.record(ANN.user_id, ANN.user_id, "g1")).games == 3


async def test_dice_typed_in_by_testers_are_no_luck(service: GameService) -> None:
    gid = await game(service, ANN, BOB, test_dice=True)
    summary = service.records._games[gid][1]
    assert not summary.verified
    record = await service.records.record(ANN.user_id, ANN.user_id, "g1")
    assert record.hits is not None and record.hits.dice == 0 and record.games == 1


async def test_the_rating_history_replays_this_servers_results_only(service: GameService) -> None:
    from game.league.rating import Skill, rate
    from game.service.models import League, LeagueGame, utcnow

    async with service.store.repo.session() as s, s.begin():
        for guild, results in (("g1", [("111", "222", "111"), ("111", "222", None), ("222", "111", "222")]),
                               ("g2", [("111", "333", "333")])):
            lg = League(guild_id=guild, channel_id="1", name="Cup", scenario="quickstart", format="swiss",
                        round_hours=24, status="over", created_by="111")
            s.add(lg)
            await s.flush()
            for n, (a, b, winner) in enumerate(results, start=1):
                s.add(LeagueGame(league_id=lg.id, round=n, table_no=1, a_member=a, b_member=b, status="done",
                                 winner=winner, recorded_at=utcnow()))
            # a forfeit and a bye move nothing
            s.add(LeagueGame(league_id=lg.id, round=9, table_no=1, a_member="111", b_member="222", status="done",
                             winner="111", forfeited="B", recorded_at=utcnow()))
            s.add(LeagueGame(league_id=lg.id, round=9, table_no=2, a_member="111", status="done", winner="111",
                             recorded_at=utcnow()))
    ann, bob = Skill(), Skill()
    expected = []
    for side in ("a", None, "b"):  # Ann beat Bob, drew, then lost (Bob was side a in the third)
        if side == "b":
            bob, ann = rate(bob, ann, "a")
        else:
            ann, bob = rate(ann, bob, side)
        expected.append(ann.ordinal)
    record = await service.records.record("222", "111", "g1")
    assert record.history == pytest.approx(expected) and record.rating == pytest.approx(expected[-1])
    await service.records.set_hidden("111", "rating", True)
    hidden = await service.records.record("222", "111", "g1")
    assert hidden.rating is None and hidden.history == ()
    assert (await service.records.record("111", "111", None)).history == ()  # a rating is a server's


async def test_a_finished_game_is_figured_as_it_ends_and_a_forgotten_rival_is_not_named(service: GameService) -> None:
    gid = await game(service, ANN, BOB)
    kept = service.records._games[gid]  # computed by the hook on the game's end
    seen = await service.records.record(BOB.user_id, BOB.user_id, "g1")
    assert service.records._games[gid] is kept  # and used as it is: the same seats, the same game
    assert [r.name for r in seen.rivals or ()] == ["Ann"]
    await service.privacy.forget(ANN.user_id, ["Ann"])
    after = await service.records.record(BOB.user_id, BOB.user_id, "g1")
    assert after.games == 1 and all(r.name != "Ann" and r.member != ANN.user_id for r in after.rivals or ())
    assert (await service.records.record(ANN.user_id, ANN.user_id, None)).games == 0


async def test_luck_is_the_verified_logs_own_dice(service: GameService) -> None:
    """A broadside with the game's own fair dice: the record's hits are those the log holds, and the
    tail chance is the binomial's, computed here by hand from the logged faces."""
    from math import comb

    from game import events as ev
    from game.model import Phase
    from game.service.repository import decode_state

    # as tests/game/test_attack.py's duel: head to wind, nobody moves; 6" apart, Musket Shot
    text = scenario_text([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")],
                         test_dice=False)
    info = await service.lobby.create_game(ANN, "chan-g1", scenario_text=text)
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    for line, who in (("pick A Adjust Position", ANN), ("pick B Take Courage", BOB), ("pick A Down!", ANN),
                      ("pick B Reload!", BOB)):
        await service.commands.submit(who, info.id, line)
    for _ in range(6):
        loaded = await service.store.load(info.id)
        if loaded.state.phase is not Phase.MOVEMENT:
            break
        player = loaded.state.active_player
        ship = "Galleon" if player == "A" else "Frigate"
        await service.commands.submit(ANN if player == "A" else BOB, info.id, f'move "{ship}" hold')
    assert (await service.store.load(info.id)).state.active_player == "A"
    await service.commands.submit(ANN, info.id, "fire Galleon starboard Frigate")
    if (await service.store.load(info.id)).state.pending is not None:
        await service.commands.submit(ANN, info.id, "keep")
    await service.commands.concede(BOB, info.id)
    rolls = [e for _, _, e in await service.store.repo.events(info.id)
             if isinstance(e, ev.DiceRolled) and e.player == "A" and e.kind == "hit_musket"]
    assert len(rolls) == 1 and len(rolls[0].faces) == 5
    k = rolls[0].successes
    record = await service.records.record(BOB.user_id, ANN.user_id, "g1")
    assert service.records._games[info.id][1].verified
    assert record.hits is not None and (record.hits.dice, record.hits.observed) == (5, k)
    assert record.hits.chance == pytest.approx(sum(comb(5, i) * 3**i * 5 ** (5 - i) for i in range(k, 6)) / 8**5)
    assert not decode_state((await service.store.load(info.id)).record.initial_state).test_dice

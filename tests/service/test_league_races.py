"""Leagues under concurrency (issue 22, findings 8 and 14): two GMs making one round, and members
joining at once, on SQLite and PostgreSQL, through two services on one database (two processes' worth
of caches and connection pools)."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from sqlalchemy import func, select

from game.errors import RulesError
from game.service.game_service import Actor, GameService
from game.service.models import GameRecord, LeagueEntry
from tests.service.test_leagues import MANUAL, SHORT

GM1, GM2 = Actor("901", "g1", gm=True), Actor("902", "g1", gm=True)


async def _paired_not_made(service: GameService, name: str, entrants: int) -> None:
    """A league of computer captains whose first round is paired, but none of its games made: the
    threads were refused."""
    await service.leagues.create(GM1, "c", name, scenario="short", scenario_text=SHORT)
    for _ in range(entrants):
        await service.leagues.join(GM1, name, ai=True)

    async def refused(title: str) -> str:
        raise RulesError("I may not create threads here.")

    with pytest.raises(RulesError, match="may not create threads"):
        await service.leagues.start(GM1, name, refused)


async def _games(service: GameService) -> int:
    async with service.store.repo.session() as s:
        return int((await s.execute(select(func.count()).select_from(GameRecord))).scalar_one())


async def test_a_second_gm_while_the_first_makes_the_round_adds_no_game(two: list[GameService]) -> None:
    """GM 1 starts the league and is held up opening the first table's thread; GM 2 runs /league round
    meanwhile. Every pairing gets exactly one game (before: GM 2 made both games, and GM 1, once its
    thread came, made both again: four games for two pairings, every entrant in two)."""
    first, second = two
    await first.leagues.create(GM1, "c", "Race", scenario="short", scenario_text=SHORT)
    for _ in range(4):
        await first.leagues.join(GM1, "Race", ai=True)
    inside, go = asyncio.Event(), asyncio.Event()
    made: list[str] = []

    async def slow_place(title: str) -> str:
        made.append(f"gm1:{title}")
        inside.set()
        await go.wait()
        return f"gm1-{len(made)}"

    async def quick_place(title: str) -> str:
        made.append(f"gm2:{title}")
        return f"gm2-{len(made)}"

    starting = asyncio.create_task(first.leagues.start(GM1, "Race", slow_place))
    await asyncio.wait_for(inside.wait(), 30)
    late = await second.leagues.next_round(GM2, "Race", quick_place)
    go.set()
    report = await starting
    pairings = (await first.leagues.show("g1", "Race")).pairings
    assert [p.status for p in pairings] == ["playing", "playing"]
    assert len({p.game_id for p in pairings}) == 2 and await _games(first) == 2
    assert len(made) == 2, made  # one thread per table: the one GM 2 found claimed got no second thread
    # each GM's report names the games it made itself, and between them every table once
    assert sorted(p.table for p in (*report.made, *late.made)) == [1, 2]


async def test_two_gms_closing_a_round_at_once_make_one_game_per_pairing(two: list[GameService]) -> None:
    """Both GMs run the command on a round paired but not yet made (its threads were refused), at the
    same moment: the pairings are claimed one by one, and nobody's table is made twice."""
    first, second = two
    await _paired_not_made(first, "Twice", 8)
    assert {p.status for p in (await first.leagues.show("g1", "Twice")).pairings} == {"pending"}
    counter = itertools.count(1)

    def place_for(who: str):  # type: ignore[no-untyped-def]
        async def place(title: str) -> str:
            await asyncio.sleep(0.01)  # a thread takes a round trip to Discord: the other GM gets a turn
            return f"{who}-{next(counter)}"
        return place

    reports = await asyncio.gather(first.leagues.next_round(GM1, "Twice", place_for("gm1")),
                                   second.leagues.next_round(GM2, "Twice", place_for("gm2")))
    pairings = (await first.leagues.show("g1", "Twice")).pairings
    assert [p.status for p in pairings] == ["playing"] * 4
    assert len({p.game_id for p in pairings}) == 4 and await _games(first) == 4
    assert sorted(p.table for r in reports for p in r.made) == [1, 2, 3, 4]


async def test_members_joining_at_once_never_pass_the_cap(two: list[GameService],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from game.service import leagues as module

    monkeypatch.setattr(module, "MAX_ENTRANTS", 3)
    first, second = two
    await first.leagues.create(GM1, "c", "Small")

    async def join(i: int) -> str:
        service = (first, second)[i % 2]
        try:
            await service.leagues.join(Actor(str(500 + i), "g1"), "Small", f"P{i}")
        except RulesError as exc:
            return exc.message
        return "registered"

    answers = await asyncio.gather(*(join(i) for i in range(8)))
    assert answers.count("registered") == 3, answers
    assert sorted(set(answers) - {"registered"}) == ["Small is full: a league takes 3 entrants."]
    async with first.store.repo.session() as s:
        assert (await s.execute(select(func.count()).select_from(LeagueEntry))).scalar_one() == 3


async def test_computer_captains_entered_at_once_get_distinct_numbers(two: list[GameService]) -> None:
    first, second = two
    await first.leagues.create(GM1, "c", "Robots")

    async def enter(i: int) -> str:
        service, gm = ((first, GM1), (second, GM2))[i % 2]
        return (await service.leagues.join(gm, "Robots", ai=True)).name

    names = await asyncio.gather(*(enter(i) for i in range(6)))
    assert sorted(names) == [f"Computer captain {n}" for n in range(1, 7)], names


async def test_a_member_joining_as_the_league_starts_is_in_its_first_round_or_refused(
        two: list[GameService]) -> None:
    """Registration closes with the start: a join committed before the start is paired in round 1, one
    after it is refused; nobody is registered and left out of the round."""
    first, second = two
    await first.leagues.create(GM1, "c", "Door", scenario="short", scenario_text=SHORT)
    for _ in range(3):
        await first.leagues.join(GM1, "Door", ai=True)

    async def join() -> str:
        try:
            await second.leagues.join(Actor("777", "g1"), "Door", "Late")
        except RulesError as exc:
            return exc.message
        return "registered"

    async def start() -> str:
        try:
            await first.leagues.start(GM1, "Door")
        except RulesError as exc:
            return exc.message
        return "started"

    results = await asyncio.gather(start(), join())
    info = await first.leagues.show("g1", "Door")
    paired = {m for p in info.pairings for m in (p.a, p.b) if m}
    registered = {e.member for e in info.entrants}
    if info.status == "running":
        assert paired == registered, (results, paired, registered)
    else:  # the start was refused because the entrants changed under it: nothing was paired
        assert info.pairings == () and "777" in registered, results


async def test_two_gms_closing_a_finished_round_at_once_pair_the_next_once(two: list[GameService]) -> None:
    """Both close round 1 at the same moment: round 2 is paired once and its games made once; the GM
    who lost the race is told the round is already under way (or makes the tables nobody was making)."""
    first, second = two
    await first.leagues.create(GM1, "c", "Close", scenario="short", scenario_text=SHORT, settings=MANUAL)
    for _ in range(4):
        await first.leagues.join(GM1, "Close", ai=True)
    for p in (await first.leagues.start(GM1, "Close")).started:
        await first.commands.play_ai(p.game_id or 0, limit=2000)

    async def close(service: GameService, gm: Actor) -> str:
        try:
            report = await service.leagues.next_round(gm, "Close")
        except RulesError as exc:
            return exc.message
        return f"closed {len(report.closed)}, made {len(report.made)}"

    answers = await asyncio.gather(close(first, GM1), close(second, GM2))
    info = await first.leagues.show("g1", "Close")
    assert info.current_round == 2 and len(info.pairings) == 2
    assert len({p.game_id for p in info.pairings}) == 2 and await _games(first) == 4
    assert "closed 2, made" in " ".join(answers), answers
    for a in answers:
        assert a.startswith("closed") or a == "Round 2 of Close is already under way: another GM has just paired it.", a


async def test_a_table_being_made_is_neither_decided_nor_its_entrant_dropped_meanwhile(
        two: list[GameService]) -> None:
    """A second GM cannot decide a table, forfeit it or drop one of its entrants while the first GM's
    command holds its claim: the game made a moment later would not be the pairing's result."""
    first, second = two
    await first.leagues.create(GM1, "c", "Held", scenario="short", scenario_text=SHORT)
    for who in ("301", "302"):
        await first.leagues.join(Actor(who, "g1"), "Held", f"P{who}")
    inside, go = asyncio.Event(), asyncio.Event()

    async def slow_place(title: str) -> str:
        inside.set()
        await go.wait()
        return "thread-1"

    starting = asyncio.create_task(first.leagues.start(GM1, "Held", slow_place))
    await asyncio.wait_for(inside.wait(), 30)
    late = second.leagues
    for attempt in (late.forfeit(GM2, "Held", 1, "A"), late.record_result(GM2, "Held", 1, "B"),
                    late.drop(GM2, "Held", "301")):
        with pytest.raises(RulesError, match="The game of table 1 is being made right now"):
            await attempt
    go.set()
    (p,) = (await starting).made
    assert p.status == "playing" and not p.forfeited
    assert not any(e.dropped for e in (await late.show("g1", "Held")).entrants)


async def test_a_claim_whose_command_died_is_taken_over_after_the_lease(two: list[GameService]) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from game.service.league_claims import CLAIM_LEASE
    from game.service.models import LeagueGame, utcnow

    first, _ = two
    await _paired_not_made(first, "Crash", 2)
    now = utcnow()
    async with first.store.repo.session() as s, s.begin():  # a command claimed the table and its process died
        await s.execute(update(LeagueGame).values(status="making", claim="dead", claimed_at=now))
    soon = await first.leagues.at(lambda: now + CLAIM_LEASE - timedelta(seconds=1)).next_round(GM1, "Crash")
    assert soon.made == () and await _games(first) == 0  # still the other command's to make
    later = await first.leagues.at(lambda: now + CLAIM_LEASE + timedelta(seconds=1)).next_round(GM1, "Crash")
    assert [p.status for p in later.made] == ["playing"] and await _games(first) == 1

"""A server's printed tables (game/service/table_entries.py) through the referee service: a GM enters WS&IM's
Fire Results Table once, and a broadside with FFN 8 or more then resolves in one command; the entries stay in
their server, a game under way keeps what it started with, a game's own entries come first, and the `/rules`
look-up names whose each value is."""

from __future__ import annotations

import json

import pytest

from game.codec import from_data
from game.errors import NotYourShip, UnknownName
from game.service.authority import Actor
from game.service.errors import NotPermitted
from game.service.game_service import GameService
from game.service.referee import RefereeService
from game.systems.base import replay
from game.systems.table_entry import SeedDisagrees
from game.systems.wsim import SYSTEM as WSIM
from tests.systems.helpers import quote

G = "guild"
BRIT, FRENCH, UMPIRE = (Actor(u, G) for u in ("1", "2", "3"))
GM = Actor("7", G, gm=True)
SEED = "../systems/wsim/seed_002_tables.txt"
ROWS = [str(n) for n in range(8, 57)] + ["57+"]


def hull(row: str) -> str:
    """What the group's printed copy reads in the test: a value per row, so a wrong row shows."""
    return f"{int(row.rstrip('+')) // 8}H1C"


FIRE_RESULTS = 'table = "fire_results"\n[cells]\n' + "\n".join(
    f'"{r}" = {{ hull = "{hull(r)}", rigging = "1R" }}' for r in ROWS) + "\n"


async def game(ref: RefereeService, guild_actors: tuple[Actor, Actor, Actor] = (BRIT, FRENCH, UMPIRE)) -> int:
    brit, french, umpire = guild_actors
    info = await ref.create_game(brit, "chan", "wsim")
    for actor, seat in zip(guild_actors, ("British", "French", "Umpire"), strict=True):
        await ref.join(actor, info.id, seat, f"user {actor.user_id}")
    return info.id


async def to_combat(ref: RefereeService, gid: int) -> None:
    await ref.submit(UMPIRE, gid, "next")  # A's wind rolled; B and C have nothing to do: D
    await ref.submit(FRENCH, gid, "plot Redoutable 1")
    await ref.submit(BRIT, gid, "plot Victory 1")
    await ref.submit(UMPIRE, gid, "next")  # F and G have nothing to do: H


async def test_a_fire_with_ffn_8_or_more_resolves_in_one_command(service: GameService) -> None:
    ref = service.referee
    with pytest.raises(NotPermitted, match="Only a GM"):
        await ref.enter_server_table(UMPIRE, "wsim", FIRE_RESULTS, "Umpire")
    said = await ref.enter_server_table(GM, "wsim", FIRE_RESULTS, "Ann")
    assert "the Fire Results Table, 100 cell(s)" in said
    assert "Fire Results Table (`fire_results`): 100 cell(s), by Ann" in await ref.server_tables(G, "wsim")
    gid = await game(ref)
    await to_combat(ref, gid)
    out = await ref.submit(BRIT, gid, "fire Victory left Redoutable range 2")
    # the counting seeds roll a 7 for the fire (the dice of its place in the log, after the phases skipped on the
    # way): MFN 28 + 7 = FFN 35; the Critical Number is the text's (line 120: "35 … 6"), the hits the server's
    # entry, named as such
    assert quote(__file__, SEED, 120, "35\t3\t1\t1\t3\t6").split("\t")[-1] == "6"
    fire = (await ref._load(gid)).state.fire(1)
    assert (fire.mfn, fire.ffn, fire.critical_number, fire.hits) == (28, 35, 6, hull("35"))
    assert f"FFN 35; hits {hull('35')} (this server's entry by Ann); Critical Number 6" in out.public[-1]
    assert not any("Referee: read the printed" in line for line in out.public)  # nothing waits for the referee
    assert (await ref.submit(UMPIRE, gid, "next")).info.phase == "J"  # the hits are marked at the phase's end; I skipped
    loaded = await ref._load(gid)
    initial = (await ref._load(gid)).record.initial_state
    assert '"by":"Ann"' in initial.replace(" ", "")  # the server's entries are in the game's initial state
    events = [e for _, _, e in await ref.store.repo.events(gid, system=WSIM)]
    assert replay(WSIM, from_data(WSIM.state_type, json.loads(initial)), events) == loaded.state


async def test_lookups_name_whose_value_and_stay_in_their_server(service: GameService) -> None:
    ref = service.referee
    assert "Read the printed FIRE RESULTS TABLE, row 20" in await ref.lookup("wsim", "fire_results", "20", "hull", None, G)
    await ref.enter_server_table(GM, "wsim", FIRE_RESULTS + '[override]\n"7 or less" = { critical = 1 }\n', "Ann")
    assert await ref.lookup("wsim", "fire_results", "20", "hull", None, G) == (
        "**Fire Results Table**, FFN 20, column hull: 2H1C (this server's entry by Ann)")
    assert await ref.lookup("wsim", "fire_results", "3", "critical", None, G) == (
        "**Fire Results Table**, FFN 7 or less, column critical: 1 (this server's entry by Ann, in place of the play "
        "aid's text, which reads 0)")
    # another server's look-ups and games read the play aid's text
    other = tuple(Actor(a.user_id, "elsewhere") for a in (BRIT, FRENCH, UMPIRE))
    assert "Read the printed" in await ref.lookup("wsim", "fire_results", "20", "hull", None, "elsewhere")
    assert "has entered no printed table" in await ref.server_tables("elsewhere", "wsim")
    theirs = await game(ref, (other[0], other[1], other[2]))
    assert (await ref._load(theirs)).state.printed == ()
    assert "Read the printed" in await ref.lookup("wsim", "fire_results", "20", "hull", theirs)


async def test_a_game_keeps_what_it_started_with_and_its_own_entries_come_first(service: GameService) -> None:
    ref = service.referee
    before = await game(ref)
    await ref.enter_server_table(GM, "wsim", FIRE_RESULTS, "Ann")
    assert "Read the printed" in await ref.lookup("wsim", "fire_results", "20", "hull", before)  # under way: unchanged
    # the game's referee enters the table for that game: it answers before the server's
    mine = 'table = "fire_results"\n[cells]\n"20" = { hull = "4H" }\n'
    with pytest.raises(NotYourShip, match="Only the referee"):
        await ref.enter_game_table(BRIT, before, mine)
    out = await ref.enter_game_table(UMPIRE, before, mine)
    assert out.public == ("The referee enters the printed Fire Results Table: 1 cell(s). `/rules table: fire_results` "
                          "shows them.",)
    assert await ref.lookup("wsim", "fire_results", "20", "hull", before) == (
        "**Fire Results Table**, FFN 20, column hull: 4H (entered by the referee from the printed copy)")
    await ref.submit(UMPIRE, before, "end")
    after = await game(ref)
    await ref.enter_game_table(UMPIRE, after, mine)
    assert "4H (entered by the referee" in await ref.lookup("wsim", "fire_results", "20", "hull", after)
    assert "3H1C (this server's entry by Ann)" in await ref.lookup("wsim", "fire_results", "30", "hull", after)


async def test_a_bad_file_changes_nothing(service: GameService) -> None:
    ref = service.referee
    await ref.enter_server_table(GM, "wsim", FIRE_RESULTS, "Ann")
    with pytest.raises(SeedDisagrees, match="row 15, column critical: the play aid's text reads 2, the file 3"):
        await ref.enter_server_table(GM, "wsim", 'table = "fire_results"\n[cells]\n"15" = { critical = 3 }\n', "Ann")
    with pytest.raises(UnknownName):
        await ref.enter_server_table(GM, "wsim", 'table = "fire_results"\n[cells]\n"6" = { hull = "1H" }\n', "Ann")
    assert "100 cell(s)" in await ref.server_tables(G, "wsim")
    # entering a table again replaces its cells; a member's name is text, never markup
    await ref.enter_server_table(GM, "wsim", 'table = "fire_results"\n[cells]\n"8" = { hull = "1H" }\n', "**Bob**")
    assert "1 cell(s), by \\*\\*Bob\\*\\*" in await ref.server_tables(G, "wsim")
    assert (await ref.lookup("wsim", "fire_results", "8", "hull", None, G)).endswith(
        "1H (this server's entry by \\*\\*Bob\\*\\*)")

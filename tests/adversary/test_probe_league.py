"""Adversary probes of /league: hostile names, a GM who plays deciding their own table, and a round's
post that Discord would refuse."""

from __future__ import annotations

from tests.adversary.eyes import ANN, BOB, EVE, MANAGE_GUILD, Table, answer_text, assert_no_pings

UNEXPECTED = "Something went wrong on my side"


async def test_hostile_league_names_are_refused_or_shown_without_pings(table: Table) -> None:
    t = table
    mark = t.mark()
    for name in ("A" * 6000, "   ", "\u200b" * 65, "x" * 65):
        a = answer_text(await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name=name))
        assert a.startswith("❌") and len(a) <= 2000 and UNEXPECTED not in a, (name[:20], a[:200])
    for name in ("@everyone <@&555555555555555555>", "*" * 64, "𝕮𝖚𝖕 " * 12 + "‮x"):
        mark = t.mark()
        a = await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name=name)
        assert "announced here" in answer_text(a) and len(answer_text(a)) <= 2000, answer_text(a)[:200]
        assert "open for registration" in t.seen_by(EVE, mark)
        a = answer_text(await t.cmd(EVE, "league", "join", name=name))
        assert "is registered" in a and UNEXPECTED not in a, a[:200]
        a = answer_text(await t.cmd(EVE, "league", "show", name=name, page=10_000))
        assert UNEXPECTED not in a and len(a) <= 2000, a[:200]
    for name in ("nope" * 1500, "", "\x00"):
        for sub in ("show", "standings", "join"):
            a = answer_text(await t.cmd(EVE, "league", sub, name=name))
            assert a.startswith("❌") and len(a) <= 2000 and UNEXPECTED not in a, (sub, name[:20], a[:200])
        a = answer_text(await t.cmd(EVE, "league", "result", name=name, table=10_000, winner="A", note="n" * 6000))
        assert a.startswith("❌") and "Only a GM" in a, a[:200]
    assert_no_pings(t.fake, mark)


async def test_a_gm_who_plays_in_a_league_does_not_decide_their_own_table(table: Table) -> None:
    """Ann holds Manage Server and plays in the league: at her own table she has a player's rights,
    as in any game she plays (game/service/authority.py as_seated), so she may not record her own win."""
    t = table
    await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Cup", scenario="quickstart")
    for user in (ANN, BOB):
        assert "is registered" in answer_text(await t.cmd(user, "league", "join", name="Cup"))
    assert "under way" in answer_text(await t.cmd(ANN, "league", "start", permissions=MANAGE_GUILD, name="Cup"))
    info = await t.service.lobby.info(1)
    ann_side = next(s.player for s in info.seats if s.user_id == str(ANN[0]))
    a = answer_text(await t.cmd(ANN, "league", "result", permissions=MANAGE_GUILD, name="Cup", table=1,
                                winner=ann_side, note="I win"))
    assert a.startswith("❌"), f"Ann, a player at table 1, recorded her own win: {a}"


def test_a_rounds_post_pings_at_most_100_members_and_only_those_it_names() -> None:
    """Discord refuses a message whose allowed_mentions.users holds more than 100 ids (400 Invalid Form
    Body). A league takes 256 entrants (game/service/leagues.py MAX_ENTRANTS): round 1 of a 120-member
    league is 60 tables, 120 members to ping."""
    from datetime import UTC, datetime

    from bot.league_rounds import mentions as _mentions
    from bot.league_rounds import round_text as _round_text
    from game.service.leagues import LeagueInfo, Pairing

    pairings = tuple(Pairing(1, n + 1, str(10**17 + 2 * n), f"P{2 * n}", str(10**17 + 2 * n + 1), f"P{2 * n + 1}",
                             n + 1, str(9 * 10**17 + n), "playing", None, 0, 0, "") for n in range(60))
    fields = LeagueInfo.__dataclass_fields__
    values = {"id": 1, "name": "Cup", "guild_id": "1", "channel_id": "1", "scenario": "quickstart", "size": "",
              "format": "swiss", "round_hours": 72, "status": "running", "current_round": 1, "rounds": 7,
              "entrants": (), "pairings": pairings, "deadline": datetime.now(UTC)}
    for k, f in fields.items():
        if k not in values:
            values[k] = f.default if f.default is not f.default_factory else f.default_factory()  # type: ignore[misc]
    info = LeagueInfo(**{k: v for k, v in values.items() if k in fields})
    import discord

    text = _round_text(info, pairings)
    allowed = discord.AllowedMentions.none().merge(_mentions(text, pairings)).to_dict()  # as the bot's client sends it
    assert allowed.get("parse") == [], allowed
    assert len(text) <= 2000
    assert len(allowed.get("users", [])) <= 100, f"allowed_mentions names {len(allowed['users'])} users"
    named = {u for u in allowed.get("users", []) if f"<@{u}>" in text}
    assert named == set(allowed.get("users", [])), f"{len(allowed['users']) - len(named)} pinged users not in the text"


async def test_standings_and_autocomplete_with_strange_names(table: Table) -> None:
    """Members whose display names are 32 emoji or right-to-left marks; another server's league is
    never offered here."""
    from game.service.game_service import Actor

    t = table
    await t.service.leagues.create(Actor("42", "999", gm=True), "1", "Secret Other Server Cup")
    odd = [(444444444444444401, "💥" * 32), (444444444444444402, "\u202e" + "ש" * 31),
           (444444444444444403, "<@111111111111111111>"), (444444444444444404, "@everyone")]
    assert "announced" in answer_text(await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Odd"))
    for user in odd:
        assert "is registered" in answer_text(await t.cmd(user, "league", "join", name="Odd"))
    mark = t.mark()
    assert "under way" in answer_text(await t.cmd(ANN, "league", "start", permissions=MANAGE_GUILD, name="Odd"))
    for sub in ("standings", "show"):
        a = await t.cmd(EVE, "league", sub, name="Odd")
        assert UNEXPECTED not in answer_text(a) and len(answer_text(a)) <= 2000, answer_text(a)[:300]
    assert_no_pings(t.fake, mark)
    for typed in ("", "S", "Secret"):
        offered = await t.complete(EVE, "league", "show", "name", typed)
        assert not any("Secret" in o for o in offered), offered


async def test_a_scenario_name_given_with_a_file_fits_its_column(table: Table) -> None:
    """/league create file: (a two-sided scenario) scenario: 500 characters. leagues.scenario is
    VARCHAR(100) (game/service/models.py): SQLite stores the 500 characters, PostgreSQL refuses the
    INSERT (a raw DataError, answered "Something went wrong"). The name must be refused or cut."""
    from sqlalchemy import select

    from game.scenario import builtin_scenarios
    from game.service.models import League

    t = table
    text = builtin_scenarios()["quickstart"].encode()
    a = answer_text(await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Filed", scenario="S" * 500,
                                attachments={"file": t.fake.attach("s.toml", text)}))
    assert UNEXPECTED not in a and len(a) <= 2000, a[:300]
    async with t.service.store.repo.session() as s:
        rows = (await s.execute(select(League))).scalars().all()
    assert all(len(r.scenario) <= 100 for r in rows), [len(r.scenario) for r in rows]

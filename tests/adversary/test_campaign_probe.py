"""Adversary probes of /campaign (issue 27, item 5): a ledger read while a battle is being fought
shows nothing of it that a spectator could not see, GM commands from a plain member, joining twice,
battles with members who left or are still fighting, hostile names, and a saved list edited after
joining."""

from __future__ import annotations

from importlib import resources

from game.errors import RulesError
from game.service.game_service import Actor
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    MANAGE_GUILD,
    Table,
    answer_text,
    assert_no_pings,
    assert_nothing_hidden,
    hidden_cards,
)
from tests.bot.fake_discord import GUILD_ID

GAIL = (999999999999999901, "Gail")  # the campaign's GM, who plays in none of its battles
SQUADRON = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
UNEXPECTED = "Something went wrong on my side"


async def campaign(t: Table, *members: tuple[int, str], name: str = "Channel War") -> None:
    a = answer_text(await t.cmd(GAIL, "campaign", "create", permissions=MANAGE_GUILD, name=name))
    assert "is created" in a, a
    for user in members:
        await t.service.squadrons.save(Actor(str(user[0]), str(GUILD_ID)), SQUADRON)
        a = answer_text(await t.cmd(user, "campaign", "join", name=name, squadron="Zeeland Admiralty"))
        assert "You joined" in a, a


async def test_a_ledger_read_during_a_battle_shows_nothing_a_spectator_could_not_see(table: Table) -> None:
    t = table
    await campaign(t, ANN, BOB)
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name="Channel War",
                                members={"a": ANN, "b": BOB}, thread=False, settle=30))
    assert a.startswith("✅ Battle 1 is made: game #1"), a
    # Ann picks her initiative card: face down, known to her alone until Bob has picked too
    await t.submit(ANN, "pick A Effective Fire")
    mark = t.mark()
    for sub, extra in (("ledger", {}), ("show", {}), ("ledger", {"page": 1})):
        a = answer_text(await t.cmd(EVE, "campaign", sub, name="Channel War", **extra))
        assert a and UNEXPECTED not in a, a
    state, log = await t.state(), await t.log_events()
    hidden = hidden_cards(state, log, [])
    assert state.squadron("A").face_down == "Effective Fire" and "Effective Fire" in hidden
    received = t.received(EVE, since=mark)
    assert any(item.sent.files for item in received)  # the picture was read too, as its drawn texts
    assert_nothing_hidden(received, hidden, await t.seed(), "a spectator reading the ledger")
    said = "\n".join(item.text for item in received)
    # nothing of the game under way: no turn, phase, ship state or pick; the battle is named with its place
    assert "being fought in" in said and "picked" not in said.lower() and "turn 1" not in said.lower()
    # the squadrons are the campaign's, as they stood before the battle: sound
    assert "damage" not in said.replace("damage carried", "")


async def test_a_plain_member_cannot_run_the_gm_commands(table: Table) -> None:
    t = table
    await campaign(t, ANN, BOB)
    before = len((await t.service.campaigns.ledger(str(GUILD_ID), "Channel War")).lines)
    probes = (("create", {"name": "Mine"}), ("battle", {"name": "Channel War", "members": {"a": ANN, "b": BOB}}),
              ("apply", {"name": "Channel War", "battle": 1, "points_a": 1000}), ("end", {"name": "Channel War"}))
    for sub, values in probes:
        a = answer_text(await t.cmd(EVE, "campaign", sub, **values))  # type: ignore[arg-type]
        assert a.startswith("❌") and "Only a GM" in a and UNEXPECTED not in a, (sub, a)
    assert len((await t.service.campaigns.ledger(str(GUILD_ID), "Channel War")).lines) == before
    assert not t.fake.threads()


async def test_joining_twice_and_battles_nobody_may_fight(table: Table) -> None:
    t = table
    await campaign(t, ANN, BOB)
    a = answer_text(await t.cmd(ANN, "campaign", "join", name="Channel War", squadron="Zeeland Admiralty"))
    assert "already a member" in a, a
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name="Channel War",
                                members={"a": ANN, "b": ANN}))
    assert "one side of a battle only" in a, a
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name="Channel War",
                                members={"a": ANN, "b": EVE}))
    assert a.startswith("❌") and "is not a member of Channel War" in a, a
    assert "You left Channel War" in answer_text(await t.cmd(BOB, "campaign", "leave", name="Channel War"))
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name="Channel War",
                                members={"a": ANN, "b": BOB}))
    assert "Bob has left Channel War" in a, a
    assert not t.fake.threads()  # nothing was made for a refused battle


async def test_hostile_campaign_names_are_refused_or_shown_without_pings(table: Table) -> None:
    t = table
    mark = t.mark()
    for name in ("A" * 6000, "   ", "x" * 65):
        a = answer_text(await t.cmd(GAIL, "campaign", "create", permissions=MANAGE_GUILD, name=name))
        assert a.startswith("❌") and len(a) <= 2000 and UNEXPECTED not in a, (name[:20], a[:200])
    for name in ("@everyone <@&555555555555555555>", "*" * 64, f"<@{BOB[0]}> war"):
        a = answer_text(await t.cmd(GAIL, "campaign", "create", permissions=MANAGE_GUILD, name=name))
        assert "announced here" in a, a[:200]
        await t.service.squadrons.save(Actor(str(ANN[0]), str(GUILD_ID)), SQUADRON)
        assert "You joined" in answer_text(await t.cmd(ANN, "campaign", "join", name=name,
                                                       squadron="Zeeland Admiralty"))
        a = answer_text(await t.cmd(EVE, "campaign", "ledger", name=name))
        assert "ledger page 1" in a and UNEXPECTED not in a, a[:200]
    for name in ("nope" * 1500, "", "\x00"):
        for sub in ("show", "ledger", "join", "leave"):
            values = {"squadron": "x"} if sub == "join" else {}
            a = answer_text(await t.cmd(EVE, "campaign", sub, name=name, **values))
            assert a.startswith("❌") and len(a) <= 2000 and UNEXPECTED not in a, (sub, name[:20], a[:200])
    assert_no_pings(t.fake, mark)


async def test_a_saved_list_edited_after_joining_changes_nothing_in_the_campaign(table: Table) -> None:
    t = table
    await campaign(t, ANN, BOB)
    ann = Actor(str(ANN[0]), str(GUILD_ID))
    # Ann swaps her saved list for one with a first-rate crew everywhere: the campaign keeps what she joined with
    await t.service.squadrons.save(ann, SQUADRON.replace('name = "Brak"\nclass = "Fluyt"',
                                                         'name = "Brak"\nclass = "Fluyt"\nskill = 2'))
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name="Channel War",
                                members={"a": ANN, "b": BOB}, thread=False, settle=30))
    assert a.startswith("✅"), a
    state = await t.state()
    assert next(s for s in state.ships if s.id == "Brak-A").skill == 0


async def test_a_member_of_another_server_finds_no_campaign_of_this_one(table: Table) -> None:
    """Campaigns are a server's: from another server (where the same member may be a GM) the campaign is
    not there to read, join, fight or end, and its name is not offered."""
    t = table
    await campaign(t, ANN, BOB)
    elsewhere = "900000000000000777"
    outsider = Actor(str(EVE[0]), elsewhere, gm=True)
    await t.service.squadrons.save(outsider, SQUADRON)
    campaigns = t.service.campaigns
    assert await campaigns.names(elsewhere) == []
    for call in (campaigns.show(elsewhere, "Channel War"), campaigns.ledger(elsewhere, "Channel War"),
                 campaigns.join(outsider, "Channel War", "Zeeland Admiralty", "Eve"),
                 campaigns.battle(outsider, "Channel War", [str(ANN[0])], [str(BOB[0])], "1"),
                 campaigns.end(outsider, "Channel War")):
        try:
            await call
        except RulesError as exc:
            assert "This server has no campaign called 'Channel War'" in exc.message, exc.message
        else:
            raise AssertionError("a campaign answered another server")
    info = await campaigns.show(str(GUILD_ID), "Channel War")
    assert [m.name for m in info.members] == ["Ann", "Bob"] and info.status == "open" and not info.battles

"""Issue 27, item 5: a campaign through the service: members join with a copy of their saved
squadron, a GM makes a battle (a normal game, seated), applies the carry-over once its game is over,
and the ledger tells it all. Runs on SQLite, and PostgreSQL with TEST_POSTGRES_URL."""

from __future__ import annotations

import asyncio
from importlib import resources

import pytest

from game.campaign import CarryOver
from game.model import Phase
from game.service.campaigns import CampaignRefused
from game.service.errors import NotPermitted
from game.service.game_service import Actor, GameService

GUILD = "900000000000000001"
ANN = Actor("100000000000000111", GUILD)
BOB = Actor("100000000000000222", GUILD)
CAT = Actor("100000000000000333", GUILD)
GM = Actor("100000000000000444", GUILD, gm=True)
SQUADRON = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
CHANNEL = "700000000000000001"


async def campaign_of_three(service: GameService) -> None:
    await service.campaigns.create(GM, CHANNEL, "Channel War", "skirmish")
    for who, name in ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")):
        await service.squadrons.save(who, SQUADRON)
        await service.campaigns.join(who, "channel war", "Zeeland Admiralty", name)


async def test_a_battle_is_a_seated_game_and_its_carry_over_applies_once(service: GameService) -> None:
    await campaign_of_three(service)
    battle = await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)
    assert (battle.number, battle.status, battle.sides) == (1, "playing", (("A", (ANN.user_id,)), ("B", (BOB.user_id,))))
    info = await service.lobby.info(battle.game_id)
    assert [(s.player, s.user_id, s.name) for s in info.seats] == [("A", ANN.user_id, "Ann"),
                                                                             ("B", BOB.user_id, "Bob")]
    assert info.name == "Channel War: battle 1"
    assert await service.campaigns.of_game(battle.game_id) == "Channel War"
    with pytest.raises(CampaignRefused, match="has not ended yet"):
        await service.campaigns.apply(GM, "Channel War", 1, CarryOver())
    with pytest.raises(CampaignRefused, match="Ann is still in battle 1"):
        await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [CAT.user_id], "700000000000000002")

    await service.commands.concede(BOB, battle.game_id)
    shown = await service.campaigns.show(GUILD, "Channel War")
    assert (shown.battles[0].status, shown.battles[0].winner) == ("over", "A")
    applied = await service.campaigns.apply(GM, "Channel War", 1, CarryOver(damage="kept"), {"A": 3, "B": 1})
    assert applied.battle.status == "applied" and applied.battle.applied_by == GM.user_id
    assert {m.name: m.points for m in applied.campaign.members} == {"Ann": 3, "Bob": 1, "Cat": 0}
    with pytest.raises(CampaignRefused, match="already been applied"):
        await service.campaigns.apply(GM, "Channel War", 1, CarryOver())

    ledger = await service.campaigns.ledger(GUILD, "Channel War")
    kinds = [line.kind for line in ledger.lines]
    assert kinds == ["created", "joined", "joined", "joined", "battle", "carry"]
    carry = ledger.lines[-1].text
    assert carry.startswith("Battle 1: ") and "applied the carry-over" in carry and "Ann gains 3 campaign points" in carry
    # the next battle: Ann, now free, against Cat
    second = await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [CAT.user_id], "700000000000000002")
    assert second.number == 2


async def test_the_campaign_keeps_its_copy_when_the_saved_list_is_edited(service: GameService) -> None:
    await campaign_of_three(service)
    smaller = SQUADRON.split("\n[[ship]]\nname = \"Zwaluw\"")[0]
    await service.squadrons.save(ANN, smaller)  # the saved list now has four ships
    ann = next(m for m in (await service.campaigns.show(GUILD, "Channel War")).members if m.name == "Ann")
    assert [s.name for s in ann.squadron.ships] == ["Zeelandia", "Vlissingen", "Brak", "Hazewind", "Zwaluw"]
    battle = await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)
    state = await service.reading.state_for_audit(battle.game_id)
    assert sum(1 for s in state.ships if s.owner == "A") == 5


async def test_gm_commands_members_and_servers(service: GameService) -> None:
    with pytest.raises(NotPermitted, match="Only a GM may create a campaign"):
        await service.campaigns.create(ANN, CHANNEL, "Mine")
    await campaign_of_three(service)
    for call in (service.campaigns.battle(ANN, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL),
                 service.campaigns.apply(ANN, "Channel War", 1, CarryOver()),
                 service.campaigns.end(ANN, "Channel War")):
        with pytest.raises(NotPermitted):
            await call
    with pytest.raises(CampaignRefused, match="already a member"):
        await service.campaigns.join(ANN, "Channel War", "Zeeland Admiralty", "Ann")
    elsewhere = Actor(ANN.user_id, "900000000000000002", gm=True)
    with pytest.raises(CampaignRefused, match="no campaign called"):
        await service.campaigns.show(elsewhere.guild_id, "Channel War")
    with pytest.raises(CampaignRefused, match="no campaign called"):
        await service.campaigns.battle(elsewhere, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)
    await service.campaigns.leave(CAT, "Channel War")
    with pytest.raises(CampaignRefused, match="Cat has left"):
        await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [CAT.user_id], CHANNEL)
    with pytest.raises(CampaignRefused, match="is not a member"):
        await service.campaigns.battle(GM, "Channel War", [ANN.user_id], ["100000000000000999"], CHANNEL)
    await service.campaigns.end(GM, "Channel War")
    with pytest.raises(CampaignRefused, match="is over"):
        await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)


async def test_two_gms_applying_at_once_one_wins(two: list[GameService]) -> None:
    first, second = two
    await campaign_of_three(first)
    battle = await first.campaigns.battle(GM, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)
    await first.commands.concede(BOB, battle.game_id)
    other_gm = Actor("100000000000000555", GUILD, gm=True)
    results = await asyncio.gather(first.campaigns.apply(GM, "Channel War", 1, CarryOver(), {"A": 5}),
                                   second.campaigns.apply(other_gm, "Channel War", 1, CarryOver(), {"A": 5}),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, CampaignRefused)]
    assert len(refused) == 1, results
    assert "already been applied" in refused[0].message or "changed by another command" in refused[0].message
    info = await first.campaigns.show(GUILD, "Channel War")
    assert next(m.points for m in info.members if m.name == "Ann") == 5  # awarded once
    assert [line.kind for line in (await first.campaigns.ledger(GUILD, "Channel War")).lines].count("carry") == 1
    state = await first.reading.state_for_audit(battle.game_id)
    assert state.phase is Phase.OVER


async def test_a_forgotten_member_leaves_no_trace_and_a_purged_server_no_campaign(service: GameService) -> None:
    from tests.service.test_privacy import every_row

    await campaign_of_three(service)
    battle = await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)
    await service.commands.concede(BOB, battle.game_id)
    await service.campaigns.apply(GM, "Channel War", 1, CarryOver(), {"A": 2})
    assert (await service.privacy.export(ANN.user_id))["campaigns"][0]["points"] == 2
    await service.privacy.forget(ANN.user_id, known_names=["Ann"])
    rows = [r for r in await every_row(service) if r[0].startswith("campaign")]
    assert rows and not [r for r in rows if ANN.user_id in r[1] or "Ann" in r[1]]
    info = await service.campaigns.show(GUILD, "Channel War")
    assert [(m.name, m.points, m.left) for m in info.members][0] == ("former member", 2, True)

    counts = await service.retention.purge(GUILD)
    assert counts["campaigns"] == 1 and counts["campaign_members"] == 3
    assert not [r for r in await every_row(service) if r[0].startswith("campaign")]


async def test_a_battle_played_to_its_end_by_the_engine_carries_its_real_losses(service: GameService) -> None:
    """Both members hand their sides to the computer captain, which plays the battle to its end with
    the game's own dice; the carry-over then reads the engine's final state: every ship that ended
    Sunk, destroyed or Captured has left its squadron, and each survivor's Damage is what it ended with."""
    await campaign_of_three(service)
    battle = await service.campaigns.battle(GM, "Channel War", [ANN.user_id], [BOB.user_id], CHANNEL)
    for who in (ANN, BOB):
        await service.seats.hand_over(who, battle.game_id)
    await service.commands.play_ai(battle.game_id, limit=5000)
    final = await service.reading.state_for_audit(battle.game_id)
    assert final.phase is Phase.OVER
    applied = await service.campaigns.apply(GM, "Channel War", 1, CarryOver(damage="kept"))
    after = {m.member: m.squadron for m in applied.campaign.members}
    owner = {"A": ANN.user_id, "B": BOB.user_id}
    lost = {"sunk", "removed", "captured"}
    for ship in final.ships:
        member = owner[ship.owner]
        name = ship.id.removesuffix(f"-{ship.owner}")
        kept = next(s for s in after[member].ships if s.name == name and not s.prize_of)
        gone = {st.value for st in ship.statuses} & lost
        assert (kept.fate != "afloat") == bool(gone), (ship.id, ship.statuses, kept)
        if not gone:
            assert kept.damage == ship.damage, ship.id
    prizes = [s for q in after.values() for s in q.ships if s.prize_of]
    captured = [s for s in final.ships if "captured" in {st.value for st in s.statuses}]
    assert len(prizes) == len([s for s in captured if s.controller != s.owner])
    assert any(s.fate != "afloat" or s.damage for q in after.values() for s in q.ships)  # something happened
    sunk = [s.id.removesuffix(f"-{s.owner}") for s in final.ships if "sunk" in {st.value for st in s.statuses}]
    for name, s in ((n, next(s for s in final.ships if s.id.startswith(n))) for n in sunk):
        who = "Ann" if s.owner == "A" else "Bob"
        assert f"{name} ({who}'s Zeeland Admiralty) was sunk and leaves the squadron." in applied.lines


async def test_a_fleet_battle_seats_two_members_a_side_and_points_go_to_each(service: GameService) -> None:
    await campaign_of_three(service)
    dee = Actor("100000000000000666", GUILD)
    await service.squadrons.save(dee, SQUADRON)
    await service.campaigns.join(dee, "Channel War", "Zeeland Admiralty", "Dee")
    battle = await service.campaigns.battle(GM, "Channel War", [ANN.user_id, CAT.user_id],
                                            [BOB.user_id, dee.user_id], CHANNEL)
    info = await service.lobby.info(battle.game_id)
    assert [(s.player, s.name) for s in info.seats] == [("A1", "Ann"), ("A2", "Cat"), ("B1", "Bob"), ("B2", "Dee")]
    await service.commands.concede(BOB, battle.game_id)
    assert (await service.campaigns.show(GUILD, "Channel War")).battles[0].winner == "A"
    applied = await service.campaigns.apply(GM, "Channel War", 1, CarryOver(), {"A": 2, "B": -1})
    assert {m.name: m.points for m in applied.campaign.members} == {"Ann": 2, "Bob": -1, "Cat": 2, "Dee": -1}

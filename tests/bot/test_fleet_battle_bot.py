"""Fleet battles through the bot: four players (or a player with two squadrons) each pick from their
own hand through the private menu and command only their own ships."""

from __future__ import annotations

from typing import Any

from game.ai.captain import Captain
from game.commands import PickCard
from game.model import Phase
from game.notation import format_command
from game.phases.flow import deciders
from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, act_as, last_followup, pick

DAN = (444444444444444444, "Dan")
SEATS = {"A1": ANN, "A2": BOB, "B1": EVE, "B2": DAN}


async def test_four_players_fight_a_fleet_battle_to_the_end(harness: Any) -> None:
    bot, fake = harness
    service = bot.service
    await dispatch(bot, command(ANN, "game", "create", scenario="fleet_battle"), fake)
    for seat, user in SEATS.items():
        sent = await dispatch(bot, command(user, "game", "join", side=seat), fake)
    assert "The game begins" in last_followup(sent).content
    sent = await dispatch(bot, command(ANN, "game", "join"), fake)
    assert "Every side is taken" in last_followup(sent).content

    # another player's ship is refused, with the player's own ships named
    state = await service.reading.state_for_audit(1)
    foreign = state.ships_of("B1")[0].id
    captains = {p: Captain(p, 2) for p in SEATS}
    acted: set[str] = set()
    refused = False
    for _ in range(900):
        state = await service.reading.state_for_audit(1)
        due = deciders(state)
        if not due:
            break
        player = sorted(due)[0]
        user = SEATS[player]
        cmd = captains[player].act(state)
        if not refused and state.phase is Phase.MOVEMENT and player.startswith("A"):
            sent = await dispatch(bot, command(user, "order", line=f"move {foreign}"), fake)
            assert "is not yours to command" in last_followup(sent).content
            refused = True
        sent = await act_as(bot, fake, user, cmd, state)
        if isinstance(cmd, PickCard):
            assert "face down" in last_followup(sent).content
        reply = last_followup(sent).content
        assert not reply.startswith(("⚠️", "❌")), (player, format_command(cmd), reply)
        acted.add(player)
    state = await service.reading.state_for_audit(1)
    assert refused and acted == set(SEATS)
    assert state.phase is Phase.OVER and state.winner in ("Allies", "Crown"), state.result
    assert (await service.audit.check(1)).ok
    # each player was mentioned when the game waited for them
    texts = fake.public_texts()
    for seat, (uid, _) in SEATS.items():
        assert any(f"<@{uid}> (player {seat})" in t for t in texts), seat


async def test_one_player_commands_two_squadrons_each_with_its_own_hand(harness: Any) -> None:
    bot, fake = harness
    service = bot.service
    await dispatch(bot, command(ANN, "game", "create", scenario="fleet_battle"), fake)
    for seat, user in (("A1", ANN), ("A2", ANN), ("B1", EVE), ("B2", DAN)):
        await dispatch(bot, command(user, "game", "join", side=seat), fake)
    state = await service.reading.state_for_audit(1)
    first, second = state.squadron("A1").hand[0], state.squadron("A2").hand[-1]
    sent = await pick(bot, fake, ANN, first)  # the menu opens on A1's hand
    assert "face down" in last_followup(sent).content
    sent = await pick(bot, fake, ANN, second)  # pressed again: A2's hand
    assert "face down" in last_followup(sent).content
    state = await service.reading.state_for_audit(1)
    assert (state.squadron("A1").face_down, state.squadron("A2").face_down) == (first, second)


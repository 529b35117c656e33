"""Standing orders through the service: given with the /orders calls, kept per turn, carried out by
run_standing after each commit, each step told to the player; and a refused edit changes nothing."""

from __future__ import annotations

import pytest

from game.ai.captain import Captain
from game.errors import RulesError
from game.model import Phase
from game.notation import format_command
from game.phases.flow import deciders
from game.service.game_service import GameService, NotSeated, Outcome
from game.service.orders_service import OrderNote
from game.standing import captain_orders
from game.views import view_of
from tests.service.test_service import ANN, BOB, EVE, new_game


async def give_orders(service: GameService, gid: int) -> None:
    """Bob's orders as a player who trusts the computer captain would give them, through the API."""
    state = await service.reading.state_for_audit(gid)
    rules = await service.reading.rules(gid)
    wanted = captain_orders(view_of(state, "B"), rules, state.log_position)
    await service.orders.clear(BOB, gid)
    for o in wanted.ships:
        if o.move is not None:
            await service.orders.move(BOB, gid, format_command(o.move))
        await service.orders.attack(BOB, gid, o.ship, "best")
    await service.orders.policy(BOB, gid, reroll="fortune", fallback="discretion")


async def test_editing_orders(service: GameService) -> None:
    gid = await new_game(service)
    await service.orders.attack(BOB, gid, "Otter", "ship", target="Kestrel", then="nearest")
    await service.orders.move(BOB, gid, "move Hoorn turn end port 30")
    await service.orders.policy(BOB, gid, reroll="skill", fallback="skip", discretion=True, ship="Otter")
    mine = await service.orders.current(BOB, gid)
    assert [o.ship for o in mine.ships] == ["Otter", "Hoorn"]
    assert mine.lines() == [
        "**Otter**: captain's discretion; fire at Kestrel, else nearest",
        "**Hoorn**: move `B: move Hoorn turn end port 30`",
        "Re-rolls: re-roll failures with Skill.",
        "An order that has become illegal: skip it.",
    ]
    for bad in (service.orders.move(BOB, gid, "move Kestrel"),  # Ann's ship
                service.orders.attack(BOB, gid, "Otter", "ship", target="Hoorn"),  # not an enemy
                service.orders.attack(BOB, gid, "Otter", "biggest"),
                service.orders.policy(BOB, gid, reroll="always"),
                service.orders.move(BOB, gid, "fire Otter port Kestrel"),
                service.orders.current(EVE, gid)):
        with pytest.raises(RulesError):
            await bad
    assert await service.orders.current(BOB, gid) == mine  # nothing refused was kept
    assert (await service.orders.current(ANN, gid)).ships == ()  # each side its own


async def _answer_all(service: GameService, gid: int) -> list[Outcome | OrderNote]:
    out: list[Outcome | OrderNote] = []
    for _ in range(100):
        done = await service.orders.run(gid)
        out += done
        if not any(isinstance(x, Outcome) for x in done):
            return out
    raise AssertionError("standing orders never stopped")


async def test_standing_orders_play_the_turn_and_say_what_they_did(service: GameService) -> None:
    gid = await new_game(service)
    actors = {"A": ANN, "B": BOB}
    rules = await service.reading.rules(gid)
    wakes = {"A": 0, "B": 0}
    notes: list[OrderNote] = []
    present = None
    for n in range(400):
        state = await service.reading.state_for_audit(gid)
        if state.turn > 3 or state.phase is Phase.OVER:
            break
        p = sorted(deciders(state))[0]
        if present != p and state.turn >= 1 and state.phase is not Phase.SETUP:
            wakes[p] += 1
        cmd = Captain(p, n, rules).act(state)
        await service.commands.submit(actors[p], gid, cmd, request_id=f"t-{n}")
        present = p
        if p == "B" and deciders(await service.reading.state_for_audit(gid)):
            await give_orders(service, gid)
        done = await _answer_all(service, gid)
        notes += [x for x in done if isinstance(x, OrderNote)]
        if any(isinstance(x, Outcome) for x in done):
            present = None
    turns = 3
    assert wakes["B"] <= 2 * turns < wakes["A"]
    assert notes and all(x.user_id in (ANN.user_id, BOB.user_id) for x in notes)
    said = " ".join(x.text for x in notes if x.user_id == BOB.user_id)
    assert "as ordered" in said and "`B: move " in said
    # the only legal answer is taken for Ann too (nothing to fire at), and told to her alone
    assert all("nothing to fire at" in x.text for x in notes if x.user_id == ANN.user_id)
    assert (await service.audit.check(gid)).ok


async def test_orders_lapse_at_the_next_turn(service: GameService) -> None:
    gid = await new_game(service)
    await service.orders.policy(BOB, gid, reroll="never")
    state = await service.reading.state_for_audit(gid)
    assert (await service.orders.current(BOB, gid)).turn == state.turn == 0
    await service.commands.pick(ANN, gid, "Effective Fire")
    await service.commands.pick(BOB, gid, "Reload!")
    later = await service.reading.state_for_audit(gid)
    assert later.turn == 1
    assert (await service.orders.current(BOB, gid)).reroll == "ask"


async def test_a_spectator_has_no_orders(service: GameService) -> None:
    gid = await new_game(service)
    with pytest.raises(NotSeated):
        await service.orders.policy(EVE, gid, reroll="never")

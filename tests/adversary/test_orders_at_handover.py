"""Issue 22, finding 14 and property 5: standing orders (and planned orders) belong to the member who
gave them and lapse when the side changes hands. The new holder is told so, never shown them, and
their first edit starts afresh instead of bringing the predecessor's orders back."""

from __future__ import annotations

from game.service.authority import Actor
from tests.adversary.eyes import ANN, EVE, Table, answer_text
from tests.adversary.test_acting_for_a_side import handover
from tests.adversary.test_sweep import open_quickstart
from tests.bot.fake_discord import GUILD_ID

LAPSED = ("🗒️ Your predecessor's standing orders for side A lapsed at the hand-over (before turn 1): they are "
          "never carried out, and yours start afresh.")


def as_actor(user: tuple[int, str]) -> Actor:
    return Actor(str(user[0]), str(GUILD_ID))


async def anns_orders_then_eve_holds_a(t: Table) -> str:
    await open_quickstart(t)
    ship = (await t.state()).ships_of("A")[0].id
    await t.service.orders.move(as_actor(ANN), 1, f'move "{ship}" hold')
    await t.service.orders.policy(as_actor(ANN), 1, reroll="never", fallback="discretion")
    assert "🔁" in await handover(t, ANN, EVE)
    return ship


async def test_the_new_holder_is_told_the_predecessors_orders_lapsed(table: Table) -> None:
    t = table
    ship = await anns_orders_then_eve_holds_a(t)
    answer = answer_text(await t.cmd(EVE, "orders", "show"))
    assert answer == (f"{LAPSED}\n🗒️ **Your standing orders for turn 0**\nRe-rolls: ask me.\n"
                      "An order that has become illegal: wait for me."), answer
    assert ship not in answer


async def test_an_edit_by_the_new_holder_never_revives_them(table: Table) -> None:
    t = table
    ship = await anns_orders_then_eve_holds_a(t)
    answer = answer_text(await t.cmd(EVE, "orders", "rerolls", policy="skill"))
    assert answer == (f"{LAPSED}\n🗒️ **Your standing orders for turn 0**\nRe-rolls: re-roll failures with Skill.\n"
                      "An order that has become illegal: wait for me."), answer
    orders = await t.service.orders.current(as_actor(EVE), 1)
    assert orders.of(ship) is None and orders.fallback == "wait"
    # once the side's orders are the new holder's own, there is nothing lapsed to tell
    answer = answer_text(await t.cmd(EVE, "orders", "show"))
    assert "lapsed" not in answer and "re-roll failures with Skill" in answer, answer


async def test_the_former_holder_commands_the_side_no_more(table: Table) -> None:
    """Ann planned A's pick and handed the side to Eve: her plan lapses quietly (no DM, no ping in the
    channel about a side not hers), and her own orders for A are refused."""
    t = table
    await open_quickstart(t)
    await t.service.commands.plan(as_actor(ANN), 1, "pick A Down!")
    mark = t.mark()
    assert "🔁" in await handover(t, ANN, EVE)
    assert not (await t.state()).squadron("A").picked
    said = "\n".join(i.text for i in t.received(ANN, since=mark))
    assert "planned order" not in said, said
    answer = answer_text(await t.cmd(ANN, "order", line="pick A Careful Aim"))
    assert answer == "❌ You are not playing in this game. Join a side first (/game join), or watch.", answer
    assert not (await t.state()).squadron("A").picked

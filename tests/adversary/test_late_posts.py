"""Issue 13, item 2, from the other side of the table: posts the courier delivers late (held back by a
failure, or left behind by a crash) show nobody what they could not have seen when the command was
given, and ping nobody the game does not wait for."""

from __future__ import annotations

from datetime import timedelta

from game.service.models import utcnow
from tests.adversary.eyes import ANN, BOB, EVE, Table, assert_learns_nothing, assert_no_pings
from tests.adversary.test_secret_picks import pick_via_menu
from tests.bot.fake_discord import CHANNEL_ID


async def test_posts_held_back_by_a_failure_keep_the_picks_secret(table: Table) -> None:
    t = table
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    mark = t.mark()
    t.fake.forbid(CHANNEL_ID)  # every post fails for a while: the posts of Bob's pick wait in the outbox
    await pick_via_menu(t, BOB, "Take Courage")
    t.fake.forbidden.clear()
    delivered = await t.bot.courier.drain(1, now=utcnow() + timedelta(hours=1))
    assert delivered >= 1  # what was held back went out
    assert not (await t.state()).squadron("A").picked  # before Ann's pick: Bob's card is still a secret
    for user, who in ((ANN, "the opponent"), (EVE, "a spectator")):
        await assert_learns_nothing(t, user, who, since=mark)
    late = [r for r in t.fake.requests[mark:] if r.in_channel and r.response_message_id]
    mentioned = {str(u) for r in late for u in r.payload.get("allowed_mentions", {}).get("users", [])}
    assert mentioned and mentioned <= {str(ANN[0])}  # the late board pings only the player the game waits for
    assert_no_pings(t.fake, since=mark)

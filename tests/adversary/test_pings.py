"""Issue 11, item 7 (2, mentions): whatever a scenario, a squadron or a player is called, the bot pings
nobody but the players it names as next to act: never @everyone, @here or a role."""

from __future__ import annotations

from importlib import resources

from game.names import text
from tests.adversary.eyes import ANN, BOB, Table, answer_text, assert_no_pings
from tests.adversary.test_secret_picks import pick_via_menu
from tests.helpers import S, scenario_text

LOUD = "@everyone @here <@&555555555555555555>"
SHOWN = text(LOUD)  # as literal text: escaped, so that not even a client without the mention renders one
HERE = (999999999999999999, "@here")  # a member whose display name is a mention


async def test_names_that_look_like_mentions_are_echoed_without_a_ping(table: Table) -> None:
    t = table
    text = scenario_text([S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")],
                         test_dice=False).replace('name = "test"', f'name = "{LOUD}"')
    mark = t.mark()
    created = await t.cmd(ANN, "game", "create", attachments={"file": t.fake.attach("loud.toml", text.encode())})
    assert SHOWN in answer_text(created) and SHOWN in t.seen_by(BOB, mark)
    await t.cmd(HERE, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    await pick_via_menu(t, HERE, "Down!")
    await pick_via_menu(t, BOB, "Take Courage")
    for name in ("list", "status"):
        await t.cmd(BOB, "game", name)
    dutch = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
    loud_list = dutch.replace('name = "Zeeland Admiralty"', f'name = "{LOUD}"')
    saved = await t.cmd(BOB, "squadron", "save", attachments={"file": t.fake.attach("l.toml", loud_list.encode())})
    assert SHOWN in answer_text(saved)
    await t.cmd(BOB, "squadron", "list")
    assert sum(SHOWN in answer_text(item.sent) for item in t.public()) >= 2  # the name is shown, in the open, as text
    mentioned = [r for r in t.fake.requests if r.payload.get("allowed_mentions", {}).get("users")]
    assert mentioned, "the player to act is still pinged"
    assert_no_pings(t.fake)

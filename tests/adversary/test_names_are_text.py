"""Issue 22, finding 10 and property 7: names are text. Every name the bot echoes (members, squadrons,
ships, scenarios, leagues, referee systems' units) is given a hostile value, and the real bot is driven
through the fake Discord over every post that echoes names: no message's text may hold a hostile name
as written (where Discord would render it as a link, a mention, emphasis, a heading or a quote); each
shows as the literal name, escaped."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from game.model import Phase
from game.names import text
from game.scenario import builtin_scenarios
from game.service.referee import builtin_setups
from tests.adversary.eyes import EVE, GUS, Table, answer_text, assert_no_pings, last_answer
from tests.adversary.test_secret_picks import pick_via_menu
from tests.adversary.test_sweep import drive
from tests.bot.fake_discord import Sent, command, user_json
from tests.helpers import S, scenario_text

LINK = "[Free Nitro](https://t.ly/x)"
EVERYONE = "@everyone"
USER = "<@123>"
CHANNEL = "<#1>"
ROLE = "<@&1>"
BOLD = "**bold**"
CODE = "`code`"
SPOILER = "||spoiler||"
HEADING = "# heading"
QUOTE = "> quote"
FENCE = "```fence"
HOSTILE = (LINK, EVERYONE, USER, CHANNEL, ROLE, BOLD, CODE, SPOILER, HEADING, QUOTE, FENCE)

# members whose display names are hostile: the two players and the one a side is handed to
ANN = (111111111111111111, LINK)
BOB = (222222222222222222, f"{EVERYONE} {ROLE}")
CARL = (444444444444444444, f"{QUOTE} {USER}")
GM = 1 << 5  # Manage Server


def contents(sent: Sent) -> list[str]:
    """The texts Discord renders as markdown in what the bot sent: a message's content and its embeds
    (labels of buttons and menus are plain text)."""
    body = sent.payload.get("data", sent.payload) if "/callback" in sent.path else sent.payload
    if not isinstance(body, dict):
        return []
    out = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        out += [str(embed.get(k) or "") for k in ("title", "description")]
        out += [str(f.get(k) or "") for f in embed.get("fields") or [] for k in ("name", "value")]
    return [x for x in out if x]


def rendered(content: str) -> str:
    """What Discord's clients read as markdown: all but the inline code spans, which show as written
    (the rule of Discord's markdown parser: a run of backticks, the shortest content, the same run)."""
    return re.sub(r"(`+)([\s\S]*?[^`])\1(?!`)", " ", content)


def unescaped(name: str, content: str) -> bool:
    """The name is in the text as written, not after a backslash that makes its first mark literal (a
    heading or a quote is one only where a line starts)."""
    if name in (HEADING, QUOTE):
        return re.search(rf"^[ \t]*{re.escape(name)}", content, re.MULTILINE) is not None
    return any(at == 0 or content[at - 1] != "\\"
               for at in (m.start() for m in re.finditer(re.escape(name), content)))


def leaks(t: Table, since: int = 0) -> list[tuple[str, str]]:
    """Each hostile name found as written in a text the bot sent, with that text."""
    return [(name, content) for sent in t.fake.requests[since:] for content in contents(sent)
            for name in HOSTILE if unescaped(name, rendered(content))]


def said(t: Table, since: int = 0) -> str:
    return "\n".join(c for sent in t.fake.requests[since:] for c in contents(sent))


def assert_names_are_text(t: Table, since: int, shown: tuple[str, ...]) -> None:
    found = leaks(t, since)
    assert not found, "\n".join(f"{name!r} as written in: {content[:300]!r}" for name, content in found[:8])
    everything = said(t, since)
    # a heading or a quote mark inside a line is text as it stands
    missing = [name for name in shown if text(name) not in everything
               and not (name in (HEADING, QUOTE) and name in everything)]
    assert not missing, f"not shown as literal text: {missing}"
    # Discord finds mentions behind a backslash too: what keeps the hostile ones from pinging is that
    # every message allows only the users it means to ping, never @everyone, @here or a role
    assert_no_pings(t.fake, since)


def member_option(user: tuple[int, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A USER option naming this member, and the resolved data Discord sends with it."""
    option = {"name": "member", "type": 6, "value": str(user[0])}
    resolved = {"users": {str(user[0]): user_json(user[0], user[1])},
                "members": {str(user[0]): {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "nick": None,
                                           "avatar": None, "flags": 0, "permissions": "0", "deaf": False,
                                           "mute": False}}}
    return option, resolved


async def hand_over(t: Table, by: tuple[int, str], to: tuple[int, str], side: str) -> Sent:
    """`/game handover side: member: @to`, the member resolved as Discord sends one."""
    payload = command(by, "game", "handover", side=side)
    option, resolved = member_option(to)
    payload["data"]["options"][0]["options"].append(option)
    payload["data"]["resolved"] = resolved
    return last_answer(await t.send(by, payload), str(payload["token"]))


async def test_oak_and_iron_posts_echo_names_as_text(table: Table) -> None:
    t = table
    ships = [S(LINK, "Sloop", 14, 10, 90, "A"), S(BOLD, "Sloop", 10, 14, 90, "A"),
             S(SPOILER, "Sloop", 22, 26, 270, "B"), S(HEADING, "Sloop", 26, 22, 270, "B")]
    scenario = scenario_text(ships, test_dice=False).replace('name = "test"', f'name = "{USER} {CHANNEL} {FENCE}"')
    mark = t.mark()
    # a side is named the way commands type it: markup in a side's name is refused, and echoed as text
    marked = scenario.replace('player = "B"', f'player = "{ROLE}"')
    refused = answer_text(await t.cmd(ANN, "game", "create", attachments={"file": t.fake.attach("s.toml", marked.encode())}))
    assert refused.startswith("❌") and "must be letters and digits" in refused, refused
    created = await t.cmd(ANN, "game", "create", attachments={"file": t.fake.attach("s.toml", scenario.encode())})
    assert "is set up" in answer_text(created), answer_text(created)
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    await pick_via_menu(t, ANN, "Down!")
    await pick_via_menu(t, BOB, "Take Courage")
    await drive(t, lambda s: s.phase is Phase.ATTACK)
    for name in ("status", "list", "seats"):
        await t.cmd(BOB, "game", name)
    for user in (ANN, BOB):
        await t.cmd(user, "options")
    await t.cmd(ANN, "plan", line=f'pass "{LINK}"')
    assert text(LINK) in answer_text(await t.cmd(EVE, "board", ship=LINK))
    assert text(BOLD) in answer_text(await t.cmd(ANN, "log"))
    assert text(FENCE) in answer_text(await t.cmd(ANN, "mygames"))
    mark_handover = t.mark()
    handed = await hand_over(t, ANN, CARL, "A")
    assert "Handed over" in answer_text(handed), answer_text(handed)
    [line] = [c for c in said(t, mark_handover).splitlines() if "changes hands" in c]  # finding 10
    assert line.startswith(f"🔁 Side A changes hands: {text(CARL[1])} plays it from now on (was {text(LINK)};"), line
    await t.cmd(BOB, "game", "seats")
    refused = answer_text(await t.cmd(BOB, "order", line=f'fire "{QUOTE}"'))  # an error that echoes names
    assert refused.startswith("❌ There is no ship called") and text(LINK) in refused, refused
    pending = await drive(t, lambda s: s.pending is not None)  # a roll its roller may re-roll, named in the open
    mark_roll = t.mark()
    await t.cmd(EVE, "game", "status")
    assert f"decide on {text(pending.pending.ship)}'s roll" in said(t, mark_roll) if pending.pending else False
    await t.cmd(BOB, "game", "concede")
    assert (await t.state()).phase is Phase.OVER
    assert_names_are_text(t, mark, (LINK, BOLD, SPOILER, HEADING, USER, CHANNEL, FENCE, EVERYONE, ROLE, QUOTE))



async def test_league_posts_echo_names_as_text(table: Table) -> None:
    t = table
    league = f"{SPOILER} {FENCE}"
    short = builtin_scenarios()["quickstart"].replace('defender = "B"', 'defender = "B"\nlast_turn = 1')
    short = re.sub(r'(?m)^name = ".*"$', f'name = "{HEADING} {CODE}"', short, count=1)
    short = short.replace('"Kestrel"', f'"{BOLD}"').replace('"Player B"', f'"{LINK}"')
    mark = t.mark()
    created = await t.cmd(GUS, "league", "create", permissions=GM, name=league,
                          attachments={"file": t.fake.attach("short.toml", short.encode())})
    assert "is created" in answer_text(created), answer_text(created)
    for user in (ANN, BOB, CARL):
        assert "is registered" in answer_text(await t.cmd(user, "league", "join", name=league))
    await t.cmd(GUS, "league", "join", permissions=GM, name=league, ai=True)
    assert "under way" in answer_text(await t.cmd(GUS, "league", "start", permissions=GM, name=league, settle=30))
    for sub in ("show", "standings"):
        await t.cmd(EVE, "league", sub, name=league)
    await t.cmd(EVE, "league", "show")
    assert_names_are_text(t, mark, (SPOILER, FENCE, LINK, EVERYONE, ROLE, QUOTE, USER))


async def test_referee_posts_echo_names_as_text(table: Table) -> None:
    t = table
    setup = builtin_setups("wsim")["trafalgar"].replace("Victory and Redoutable", f"{USER} {HEADING}")
    setup = setup.replace('"Victory"', f'"{LINK}"').replace('"Nelson"', f'"{SPOILER}"')
    mark = t.mark()
    # a seat is named the way commands type it: markup in a seat's name is refused, and echoed as text
    marked = setup.replace('"British"', f'"{BOLD}"')
    refused = answer_text(await t.cmd(ANN, "game", "create", system="wsim",
                                      attachments={"file": t.fake.attach("setup.toml", marked.encode())}))
    assert refused.startswith(f"❌ The setup's seat '{text(BOLD)}' must be letters and digits"), refused
    created = await t.cmd(ANN, "game", "create", system="wsim",
                          attachments={"file": t.fake.attach("setup.toml", setup.encode())})
    assert "is set up" in answer_text(created), answer_text(created)
    for user, seat in ((ANN, "British"), (BOB, "French"), (EVE, "Umpire")):
        assert "You hold the seat" in answer_text(await t.cmd(user, "ref", "join", seat=seat))
    for _ in "ABCD":
        await t.cmd(EVE, "ref", "do", line="next")
    assert "Sealed" in answer_text(await t.cmd(ANN, "ref", "order", line=f'plot "{LINK}" 1'))
    await t.cmd(BOB, "ref", "order", line="plot Redoutable L1R1")
    refused = answer_text(await t.cmd(BOB, "ref", "order", line=f'plot "{QUOTE}" 1'))
    assert refused.startswith("❌"), refused
    for sub, values in (("log", {}), ("status", {}), ("ship", {"ship": LINK[:10]})):
        await t.cmd(EVE, "ref", sub, **values)
    await t.cmd(EVE, "game", "list")
    assert_names_are_text(t, mark, (USER, HEADING, LINK, BOLD, QUOTE, SPOILER))


async def test_squadron_posts_echo_names_as_text(table: Table) -> None:
    t = table
    squadrons = resources.files("game.data").joinpath("oak_and_iron/squadrons")
    dutch = squadrons.joinpath("dutch_skirmish.toml").read_text().replace('"Zeeland Admiralty"', f'"{LINK}"')
    dutch = dutch.replace('"Zeelandia"', f'"{BOLD}"').replace('"Vlissingen"', f'"{SPOILER}"')
    zeeland = squadrons.joinpath("dutch_skirmish.toml").read_text()
    zeeland = zeeland.replace('"Zeeland Admiralty"', f'"{USER} {FENCE}"')
    mark = t.mark()
    for user, text_ in ((ANN, dutch), (BOB, zeeland)):
        saved = await t.cmd(user, "squadron", "save", attachments={"file": t.fake.attach("l.toml", text_.encode())})
        assert "Saved" in answer_text(saved), answer_text(saved)
    await t.cmd(ANN, "squadron", "list")
    assert text(BOLD) in answer_text(await t.cmd(ANN, "squadron", "check", squadron=LINK))
    await t.cmd(ANN, "squadron", "new", name=QUOTE, size="skirmish", faction="Dutch",
                admiral="Cornelis Evertsen the Youngest")
    await t.cmd(ANN, "squadron", "ship", squadron=QUOTE, name=HEADING, **{"class": "Sloop"})
    await t.cmd(ANN, "game", "create", scenario="drafted", size="skirmish")
    await t.cmd(ANN, "game", "join", side="A", squadron=LINK)
    await t.cmd(BOB, "game", "join", side="B", squadron=f"{USER} {FENCE}")
    await drive(t, lambda s: s.phase is not Phase.PREPARATION)
    await t.cmd(EVE, "game", "status")
    await t.cmd(ANN, "log")
    assert_names_are_text(t, mark, (LINK, BOLD, SPOILER, USER, FENCE, QUOTE, HEADING))

"""Issue 26, item 6, through Discord: /help is written from the registered command tree, so every
command and subcommand, with its options, is in it; each page fits one message; the guide is linked
by the DOCS_URL setting only, never by a path in the repository."""

from __future__ import annotations

import re
from typing import Any

from discord import app_commands

from bot.limits import MAX_CONTENT
from tests.bot.fake_discord import CHANNEL_ID, Sent, _base, command, dispatch
from tests.bot.test_bot import ANN

GUIDE = "https://example.org/quarterdeck/"


def _answer(sent: list[Sent]) -> tuple[Sent, str]:
    callback = next(r for r in sent if "/callback" in r.path)
    return callback, str(callback.payload["data"]["content"])


async def _pages(bot: Any, fake: Any, **values: Any) -> list[str]:
    """Every page of /help (with these options), read as a member would: page 1, then as the footer
    says, until a page names no next one."""
    out: list[str] = []
    while True:
        answer, text = _answer(await dispatch(bot, command(ANN, "help", **values, page=len(out) + 1), fake))
        assert answer.payload["type"] == 4 and answer.ephemeral  # private, at once
        assert len(text) <= MAX_CONTENT
        out.append(text)
        if ": next, " not in text.rsplit("*Page", 1)[-1]:
            return out
        assert len(out) < 20


async def test_every_command_and_subcommand_is_in_the_help_within_discords_limits(harness: Any) -> None:
    bot, fake = harness
    bot.docs_url = GUIDE
    pages = await _pages(bot, fake)
    assert len(pages) > 1  # about eighty commands do not fit one message
    everything = "\n".join(pages)
    walked = [c for c in bot.tree.walk_commands()]
    assert len(walked) > 70
    for cmd in walked:
        if isinstance(cmd, app_commands.Group):
            assert f"**/{cmd.qualified_name}**: {cmd.description}" in everything, cmd.qualified_name
            continue
        line = next((ln for ln in everything.splitlines() if ln.lstrip("• ").startswith(f"`/{cmd.qualified_name}")
                     and ln.lstrip("• ")[len(cmd.qualified_name) + 2] in " `"), None)
        assert line is not None, cmd.qualified_name
        assert cmd.description[:40] in line, (cmd.qualified_name, line)
        for p in cmd.parameters:  # every option, the optional ones in brackets
            assert (p.display_name if p.required else f"[{p.display_name}]") in line, (cmd.qualified_name, p.name)
    # what the old fixed text never mentioned
    for name in ("orders", "clock", "league", "mygames", "ref", "game replay", "game verify", "game handover",
                 "options", "data"):
        assert f"/{name}" in everything, name
    assert all(f"<{GUIDE}>" in p for p in pages)
    assert "docs/" not in everything  # no path in the repository: no member can open one


async def test_one_command_in_detail_with_each_option(harness: Any) -> None:
    bot, fake = harness
    [text] = await _pages(bot, fake, command="game create")
    create = next(c for c in bot.tree.walk_commands() if c.qualified_name == "game create")
    assert isinstance(create, app_commands.Command)
    for p in create.parameters:
        assert f"`{p.display_name}`" in text and p.description[:40] in text, p.name
    assert "One of: patrol, skirmish, engagement." in text
    assert "📖" not in text  # without DOCS_URL, no link at all

    group = await _pages(bot, fake, command="/ref")  # a group: each of its commands in detail
    assert all(f"`/ref {c.name}" in "\n".join(group) for c in bot.tree.get_command("ref").commands)

    # a typo finds the command; a name that is none is refused privately
    [typo] = await _pages(bot, fake, command="game creat")
    assert typo == text
    answer, refused = _answer(await dispatch(bot, command(ANN, "help", command="teleport"), fake))
    assert answer.ephemeral and refused.startswith("❌ There is no command called 'teleport'."), refused
    answer, beyond = _answer(await dispatch(bot, command(ANN, "help", page=99), fake))
    assert answer.ephemeral and re.match(r"❌ There is no page 99: this help has \d+\.", beyond), beyond


async def test_the_command_option_autocompletes_command_names(harness: Any) -> None:
    bot, fake = harness
    data = {"id": "1", "name": "help", "type": 1, "options": [
        {"name": "command", "type": 3, "value": "handovr", "focused": True}]}
    sent = await dispatch(bot, _base(ANN, CHANNEL_ID, 4, data), fake)
    offered = [c["value"] for c in next(r.payload["data"]["choices"] for r in sent if r.payload.get("type") == 8)]
    assert offered[:2] == ["game handover", "ref handover"] or set(offered[:2]) == {"game handover", "ref handover"}


async def test_a_long_docs_url_is_linked_whole_on_every_page(harness: Any) -> None:
    from bot.help import help_pages

    bot, _ = harness
    url = "https://example.org/" + "q" * 270  # DOCS_URL allows 300 characters
    for name in (None, "move", "squadron", "ref"):
        for page in help_pages(bot.tree, name, url):
            assert len(page) <= MAX_CONTENT and page.endswith(f"<{url}>"), (name, len(page))

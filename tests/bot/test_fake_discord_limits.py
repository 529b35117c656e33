"""The fake Discord answers as Discord does when a request breaks a limit, a rate limit, names a
channel that does not exist or lacks a permission; and a test whose bot broke a limit fails."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.dms import dm_channel
from tests.bot import discord_limits as limits
from tests.bot.fake_discord import CHANNEL_ID
from tests.bot.harness import running_bot


def _row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def _button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _select(custom_id: str, n: int, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": f"o{i}", "value": str(i)} for i in range(n)],
            **extra}


def test_a_message_within_every_limit_passes() -> None:
    body = {"content": "x" * 2000, "embeds": [{"title": "t" * 256, "description": "d" * 4096}],
            "components": [_row(*(_button(f"b{i}") for i in range(5))), _row(_select("s", 25))]}
    assert limits.message_errors(body) == {}


@pytest.mark.parametrize(("body", "where"), [
    ({"content": "x" * 2001}, "content: Must be 2000 or fewer in length."),
    ({"embeds": [{}] * 11}, "embeds: Must be 10 or fewer"),
    ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title: Must be 256"),
    ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description: Must be 4096"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields: Must be 25"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
    ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text"),
    ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name"),
    ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "MAX_EMBED_SIZE_EXCEEDED"),
    ({"components": [_row(_button(f"b{i}")) for i in range(6)]}, "components: Must be 5 or fewer"),
    ({"components": [_row(*(_button(f"b{i}") for i in range(6)))]}, "components.0.components: Must be 5"),
    ({"components": [_row(_select("s", 3), _button("b"))]}, "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ({"components": [_row(_select("s", 26))]}, "components.0.components.0.options: Must be between 1 and 25"),
    ({"components": [_row(_select("s", 0))]}, "options: Must be between 1 and 25"),
    ({"components": [_row({"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v"}]})]},
     "options.0.label"),
    ({"components": [_row({"type": 3, "custom_id": "s", "options": [{"label": "l", "value": "v" * 101}]})]},
     "options.0.value"),
    ({"components": [_row({"type": 3, "custom_id": "s",
                           "options": [{"label": "l", "value": "v", "description": "d" * 101}]})]},
     "options.0.description"),
    ({"components": [_row(_select("s", 3, placeholder="p" * 151))]}, "placeholder"),
    ({"components": [_row(_select("s", 3, max_values=4))]}, "max_values"),
    ({"components": [_row(_button("c" * 101))]}, "custom_id: Must be between 1 and 100"),
    ({"components": [_row(_button("same"), _button("same"))]}, "COMPONENT_CUSTOM_ID_DUPLICATED"),
    ({"components": [_row(_button("b", label="l" * 81))]}, "label: Must be 80 or fewer"),
    ({"attachments": [{"id": i} for i in range(11)]}, "attachments: Must be 10 or fewer"),
    ({"allowed_mentions": {"users": [str(i) for i in range(101)]}}, "allowed_mentions.users: Must be 100 or fewer"),
])
def test_each_broken_limit_is_named_by_its_field(body: dict[str, Any], where: str) -> None:
    assert any(where in e for e in limits.flatten(limits.message_errors(body))), limits.flatten(
        limits.message_errors(body))


def test_interaction_answers_threads_and_commands_have_their_limits() -> None:
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    assert "data.choices: Must be 25 or fewer in length. (BASE_TYPE_MAX_LENGTH)" in limits.flatten(
        limits.callback_errors({"type": 8, "data": {"choices": choices}}))
    assert limits.flatten(limits.callback_errors({"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}}))
    assert limits.flatten(limits.callback_errors({"type": 4, "data": {"content": "x" * 2001}})) == [
        "data.content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)"]
    assert limits.thread_errors({"name": "n" * 100}) == {}
    assert limits.thread_errors({"name": "n" * 101}) and limits.thread_errors({"name": ""})
    command = {"name": "game", "description": "d", "options": [{"type": 3, "name": "o", "description": "d"}] * 26}
    assert "0.options: Must be 25 or fewer in length. (BASE_TYPE_MAX_LENGTH)" in limits.flatten(
        limits.command_errors([command]))
    assert limits.command_errors([{"name": "Game", "description": "d"}])
    assert limits.command_errors([{"name": "g" * 33, "description": "d"}])
    assert limits.command_errors([{"name": "game", "description": "d" * 101}])


async def test_a_post_too_long_is_refused_as_discord_refuses_it(harness: Any) -> None:
    bot, fake = harness
    fake.expect_violation("content: Must be 2000 or fewer")
    with pytest.raises(discord.HTTPException) as refused:
        await bot.get_partial_messageable(CHANNEL_ID).send("x" * 2001)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "In content: Must be 2000 or fewer in length." in refused.value.text  # discord.py's reading of it
    assert [str(v) for v in fake.violations] == [
        f"POST /channels/{CHANNEL_ID}/messages: content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)"]
    await bot.get_partial_messageable(CHANNEL_ID).send("x" * 2000)
    assert len(fake.violations) == 1


async def test_components_discord_py_would_send_are_checked_too(harness: Any) -> None:
    bot, fake = harness
    fake.expect_violation("COMPONENT_CUSTOM_ID_DUPLICATED")
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json={"content": "x", "components": [_row(_button("a"), _button("a"))]})
    assert refused.value.code == 50035 and len(fake.violations) == 1


async def test_a_test_fails_when_its_bot_broke_a_limit(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="Discord would have refused"):
        async with running_bot(tmp_path) as (bot, _):
            with contextlib.suppress(discord.HTTPException):
                await bot.get_partial_messageable(CHANNEL_ID).send("x" * 2001)


async def test_the_command_tree_meets_discords_limits(harness: Any) -> None:
    """Every slash command as the bot would register it: names, descriptions, options, choices."""
    bot, fake = harness
    synced = await bot.tree.sync()
    assert {c.name for c in synced} >= {"game", "squadron", "order", "board"}
    put = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert put and not fake.violations


async def test_a_rate_limited_route_is_retried_after_retry_after(harness: Any) -> None:
    bot, fake = harness
    budget = fake.rate_limit(f"/channels/{CHANNEL_ID}/messages", 1, window=0.2)
    channel = bot.get_partial_messageable(CHANNEL_ID)
    await channel.send("one")
    await channel.send("two")  # answered 429 first; discord.py waits retry_after and sends it again
    assert budget.refused >= 1
    posted = [r.content for r in fake.channel_messages() if r.response_message_id]
    assert posted == ["one", "two"]


async def test_unknown_channels_forbidden_channels_and_closed_dms(harness: Any) -> None:
    bot, fake = harness
    with pytest.raises(discord.NotFound) as unknown:
        await bot.get_partial_messageable(123456789012345678).send("hello")
    assert unknown.value.code == 10003
    fake.forbid(CHANNEL_ID)
    with pytest.raises(discord.Forbidden) as forbidden:
        await bot.get_partial_messageable(CHANNEL_ID).send("hello")
    assert forbidden.value.code == 50013
    fake.closed_dms.add("42")
    with pytest.raises(discord.Forbidden) as closed:  # the DM channel opens; the message is refused
        await (await dm_channel(bot, 42)).send("hello")
    assert closed.value.code == 50007


async def test_an_archived_thread_reopens_on_a_post_unless_locked(harness: Any) -> None:
    bot, fake = harness
    parent = await bot.fetch_channel(CHANNEL_ID)
    assert isinstance(parent, discord.TextChannel)
    thread = await parent.create_thread(name="Oak & Iron", type=discord.ChannelType.public_thread)
    fake.archive(thread.id)
    await thread.send("back again")
    assert fake.channels[str(thread.id)]["thread_metadata"]["archived"] is False
    fake.archive(thread.id, locked=True)
    with pytest.raises(discord.HTTPException) as locked:
        await thread.send("let me in")
    assert locked.value.code == 50083
    fake.delete_channel(thread.id)
    with pytest.raises(discord.NotFound):
        await thread.send("anyone?")


async def test_files_over_the_upload_limit_are_refused(harness: Any) -> None:
    bot, fake = harness
    fake.max_upload = 1000
    channel = bot.get_partial_messageable(CHANNEL_ID)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=discord.File(io.BytesIO(b"x" * 1001), filename="big.png"))
    assert (refused.value.status, refused.value.code) == (413, 40005)
    await channel.send(file=discord.File(io.BytesIO(b"x" * 1000), filename="fits.png"))
    # the limit is a file's, not the message's; the message's own is 25 MiB
    await channel.send(files=[discord.File(io.BytesIO(b"x" * 1000), filename=f"{i}.png") for i in range(3)])
    fake.max_upload = limits.REQUEST  # a boosted server
    with pytest.raises(discord.HTTPException) as request:
        await channel.send(files=[discord.File(io.BytesIO(b"x" * (limits.REQUEST // 2 + 1)), filename=f"{i}.png")
                                  for i in range(2)])
    assert (request.value.status, request.value.code) == (413, 40005)

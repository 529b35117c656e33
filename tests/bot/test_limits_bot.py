"""The bot within Discord's limits where users can push it past them: long lists are paged or end
with "… and N more", errors that echo what was typed are cut, names are capped where they are made,
nothing is made for a game that cannot be created, and a rate limit only delays the board. The fake
Discord refuses (and the harness fails the test for) anything Discord would refuse."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.actions import UNEXPECTED
from game.scenario import builtin_scenarios
from game.schema.common import MAX_NAME
from game.service.game_service import Actor
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, Sent, command, dispatch
from tests.bot.test_bot import ANN, BOB, last_followup, setup_game

LONG = "W" * 32  # Discord's longest display name
SEATS = ("A1", "A2", "B1", "B2")


def _answer(sent: list[Sent]) -> str:
    return last_followup(sent).content


async def test_game_list_pages_fourteen_four_player_games(harness: Any) -> None:
    """Fourteen fleet battles with four long names each once made /game list 3,000 characters long,
    which Discord refuses: every /game list failed. Now it shows a page, unfinished games first."""
    bot, fake = harness
    service = bot.service
    ann = Actor(str(ANN[0]), str(GUILD_ID))
    over = await service.lobby.create_game(ann, "700000000000000100", scenario="quickstart")
    await service.lobby.join(ann, over.id, "A", LONG)
    await service.lobby.join(Actor(str(BOB[0]), str(GUILD_ID)), over.id, "B", LONG)
    await service.commands.concede(ann, over.id)
    for i in range(14):
        game = await service.lobby.create_game(ann, str(700000000000000200 + i), scenario="fleet_battle")
        for n, seat in enumerate(SEATS):
            await service.lobby.join(Actor(str(ANN[0] + n), str(GUILD_ID)), game.id, seat, f"{LONG[:-1]}{n}")

    first = _answer(await dispatch(bot, command(ANN, "game", "list"), fake))
    lines = first.splitlines()
    assert len(first) <= 2000 and len(lines) == 9, first
    assert [line.split()[0] for line in lines[:8]] == [f"#{g}" for g in range(15, 7, -1)]  # newest first
    assert lines[-1] == "… and 7 more (next page: `/game list page:2`)"
    assert all(line.count(f"{'W' * 23}…") == 4 for line in lines[:8]), lines  # every seat, its name cut

    second = _answer(await dispatch(bot, command(ANN, "game", "list", page=2), fake)).splitlines()
    assert [line.split()[0] for line in second] == ["#7", "#6", "#5", "#4", "#3", "#2", "#1"]
    assert "— over," in second[-1]  # the finished game last
    beyond = _answer(await dispatch(bot, command(ANN, "game", "list", page=3), fake))
    assert beyond == "There is no page 3: the server has 15 games, 8 a page."


async def test_a_long_squadron_list_ends_with_and_n_more(harness: Any) -> None:
    bot, fake = harness
    ann = Actor(str(ANN[0]), str(GUILD_ID))
    for i in range(40):
        await bot.service.squadrons.start(ann, f"{i:02d} " + "S" * (MAX_NAME - 3), "skirmish", "English", "Untested")
    text = _answer(await dispatch(bot, command(ANN, "squadron", "list"), fake))
    assert len(text) <= 2000
    shown = [line for line in text.splitlines() if line.startswith("• ")]
    assert 5 < len(shown) < 40
    assert text.splitlines()[-1].startswith(f"… and {40 - len(shown)} more")


async def test_a_rules_error_echoing_3000_characters_is_cut_and_keeps_what_is_allowed(harness: Any) -> None:
    bot, fake = harness
    name = "Q" * 3000
    text = _answer(await dispatch(bot, command(ANN, "squadron", "check", squadron=name), fake))
    assert len(text) <= 2000 and text.startswith("❌ You have no saved squadron called 'QQQ")
    assert text.endswith("… List yours with /squadron list.")
    await setup_game(bot, fake)
    text = _answer(await dispatch(bot, command(ANN, "order", line=f"move {name} straight 3"), fake))
    assert text.startswith("❌") and len(text) <= 2000 and UNEXPECTED not in text


async def test_names_are_capped_where_they_are_made(harness: Any) -> None:
    bot, fake = harness
    ann = Actor(str(ANN[0]), str(GUILD_ID))
    text = _answer(await dispatch(bot, command(ANN, "squadron", "new", name="N" * (MAX_NAME + 1), size="skirmish",
                                               faction="English", admiral="Untested"), fake))
    assert text == f"❌ A squadron needs a name of 1 to {MAX_NAME} characters."
    await bot.service.squadrons.start(ann, "Channel Fleet", "skirmish", "English", "Untested")
    text = _answer(await dispatch(bot, command(ANN, "squadron", "ship", squadron="Channel Fleet", name="S" * 200,
                                               **{"class": "Sloop"}), fake))
    assert text.startswith("❌ That cannot go into a squadron list") and f"1 to {MAX_NAME} characters" in text
    text = _answer(await dispatch(bot, command(ANN, "squadron", "check", squadron="Channel Fleet"), fake))
    assert not text.startswith("❌")  # the list still reads back


async def test_a_200_character_scenario_name_makes_a_thread_name_within_100(harness: Any) -> None:
    bot, fake = harness
    upload = fake.attach("mine.toml", builtin_scenarios()["quickstart"].replace('name = "Quick start"\n', "").encode())
    sent = await dispatch(bot, command(ANN, "game", "create", thread=True, scenario="X" * 200,
                                       attachments={"file": upload}), fake)
    assert "is set up and announced in <#" in _answer(sent)
    [thread] = fake.threads()
    assert len(thread["name"]) <= 100 and thread["name"].startswith("Oak & Iron: ")
    info = await bot.service.lobby.game_in_channel(str(GUILD_ID), thread["id"])
    assert info is not None and len(info.name) <= MAX_NAME


async def test_a_scenario_typo_makes_no_thread(harness: Any) -> None:
    bot, fake = harness
    sent = await dispatch(bot, command(ANN, "game", "create", thread=True, scenario="quickstrat"), fake)
    assert _answer(sent).startswith("❌ There is no built-in scenario 'quickstrat'.")
    assert not [r for r in sent if r.path.endswith("/threads")] and not fake.threads()


async def test_a_thread_made_for_a_game_that_then_fails_is_deleted(harness: Any, monkeypatch: Any) -> None:
    bot, fake = harness

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(bot.service.store.repo, "create_game", broken)
    sent = await dispatch(bot, command(ANN, "game", "create", thread=True), fake)
    assert _answer(sent) == UNEXPECTED
    made = [r for r in sent if r.path.endswith("/threads")]
    assert made and not fake.threads()
    assert any(r.method == "DELETE" for r in sent)


async def test_a_rate_limit_on_the_channel_only_delays_the_board(harness: Any) -> None:
    bot, fake = harness
    budget = fake.rate_limit(f"/channels/{CHANNEL_ID}/messages", 1, window=2.0, method="POST")  # wide: a loaded machine is slow
    await setup_game(bot, fake)  # the announcement, then the last join posts the board, then answers
    assert budget.refused >= 1
    boards = [r for r in fake.channel_messages() if r.files and r.response_message_id]
    assert len(boards) == 1 and boards[0].files[0][0] == "board-1.png"
    for _ in range(100):  # the status goes out a window later still
        if any("📋" in r.content and r.response_message_id for r in fake.channel_messages()):
            break
        await asyncio.sleep(0.1)
    assert any("📋" in r.content and r.response_message_id for r in fake.channel_messages())



def test_files_go_in_messages_of_ten_and_within_a_request() -> None:
    from bot.limits import MAX_REQUEST, file_batches

    assert file_batches([1] * 23) == [list(range(10)), list(range(10, 20)), [20, 21, 22]]
    big = MAX_REQUEST // 3
    # a replay's GIFs, each near the server's limit, never make a request Discord refuses (413)
    assert file_batches([big, big, big, 5]) == [[0, 1], [2, 3]]
    assert file_batches([MAX_REQUEST * 2, 1]) == [[0], [1]]
    assert file_batches([]) == []

"""/captain and /captain-privacy through the bot: private answers, a finished game counted and one in
play not, a hidden category absent from another member's text and image, the record across servers
for its own captain only, and the rating plot sent with alt text."""

from __future__ import annotations

from typing import Any

from game.service.models import League, LeagueGame, utcnow
from tests.bot.fake_discord import GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, setup_game


async def play_and_concede(bot: Any, fake: Any) -> None:
    await setup_game(bot, fake)
    await dispatch(bot, command(ANN, "order", line="pick A Down!"), fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)


async def ranked_result(bot: Any) -> None:
    """One league result in this server, Ann over Bob: the rating history has a point."""
    async with bot.service.store.repo.session() as s, s.begin():
        lg = League(guild_id=str(GUILD_ID), channel_id="1", name="Cup", scenario="quickstart", format="swiss",
                    round_hours=24, status="over", created_by=str(ANN[0]))
        s.add(lg)
        await s.flush()
        s.add(LeagueGame(league_id=lg.id, round=1, table_no=1, a_member=str(ANN[0]), b_member=str(BOB[0]),
                         status="done", winner=str(ANN[0]), recorded_at=utcnow()))


async def test_a_game_in_play_counts_for_nothing_and_a_finished_one_does(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(ANN, "order", line="pick A Down!"), fake)
    shown = last_followup(await dispatch(bot, command(EVE, "captain", members={"member": ANN}), fake))
    assert shown.ephemeral and "Games 0" in shown.content and not shown.files
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    shown = last_followup(await dispatch(bot, command(EVE, "captain", members={"member": ANN}), fake))
    assert "Games 1: 1 won, 0 drawn, 0 lost" in shown.content and "Hits:" in shown.content


async def test_hidden_categories_stay_hidden_from_others_in_text_and_image(harness: Any) -> None:
    bot, fake = harness
    await play_and_concede(bot, fake)
    await ranked_result(bot)
    own = last_followup(await dispatch(bot, command(ANN, "captain"), fake))
    (name, body), = own.files
    assert name == "rating.png" and body.startswith(b"\x89PNG")
    described = own.payload["attachments"][0]["description"]
    assert "rating after each of 1 ranked games" in described
    for category in ("rating", "luck", "rivals"):
        said = last_followup(await dispatch(bot, command(ANN, "captain-privacy", category=category), fake))
        assert said.ephemeral and "Hidden" in said.content
    seen = last_followup(await dispatch(bot, command(EVE, "captain", members={"member": ANN}), fake))
    assert seen.ephemeral and not seen.files  # no plot, so no alt text either
    for gone in ("Rating", "Hits", "Tests passed", "Head-to-head", "Bob"):
        assert gone not in seen.content
    assert "hidden by its captain" in seen.content and "Games 1" in seen.content
    own = last_followup(await dispatch(bot, command(ANN, "captain"), fake))
    assert own.files and "Hidden from others" in own.content and "Head-to-head" in own.content


async def test_the_record_across_servers_is_its_captains_alone(harness: Any) -> None:
    bot, fake = harness
    await play_and_concede(bot, fake)
    refused = last_followup(await dispatch(bot, command(EVE, "captain", members={"member": ANN}, scope="all"), fake))
    assert refused.ephemeral and "only to its own captain" in refused.content and "Games" not in refused.content
    own = last_followup(await dispatch(bot, command(ANN, "captain", scope="all"), fake))
    assert own.ephemeral and "in every server" in own.content and "Games 1" in own.content


def test_luck_is_said_as_a_percentage_or_as_one_time_in_so_many() -> None:
    from bot.cogs.captain import _luck
    from game.record import Luck

    assert _luck("Hits", Luck(5, 4, 1.875, 2268 / 32768, "exact")) == (
        "Hits: 4 from 5 dice against 1.9 expected; fair dice do at least this well 7% of the time (exactly)")
    assert "once in 1,250 times (by the normal approximation)" in _luck("Hits", Luck(2000, 800, 750.0, 0.0008, "normal"))
    assert "less than once in a million" in _luck("Hits", Luck(2000, 900, 750.0, 1e-9, "normal"))
    assert _luck("Tests passed", Luck(0, 0, 0.0, 1.0, "none")) == "Tests passed: no verified dice yet"

"""The bot driven through discord.py's real objects: interaction payloads go through the client's
own parsing into the real command tree; only Discord's REST API is faked, on loopback."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.app import QuarterdeckBot
from game.ai.captain import Captain
from game.commands import Command, KeepRoll, PickCard, Reroll, UseFortune
from game.model import Game
from game.notation import format_command
from game.phases.flow import deciders
from game.service.game_service import Actor
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Sent, command, component, dispatch

ANN = (111111111111111111, "Ann")
BOB = (222222222222222222, "Bob")
EVE = (333333333333333333, "Eve")
USERS = {"A": ANN, "B": BOB}


def followups(sent: list[Sent]) -> list[Sent]:
    return [r for r in sent if r.path.startswith("/api/v10/webhooks/") and r.method == "POST"]


def last_followup(sent: list[Sent]) -> Sent:
    """The interaction's last answer, which Discord must have taken (a follow-up sent before the
    interaction was acknowledged, or after its token expired, never reaches the user)."""
    found = followups(sent)
    assert found, [(r.method, r.path) for r in sent]
    assert found[-1].status < 300, f"Discord refused the answer ({found[-1].status}): {found[-1].content[:200]}"
    return found[-1]


def announcement(sent: list[Sent]) -> Sent:
    """The new game's announcement: a message of the channel, for everyone there."""
    found = [r for r in sent if r.in_channel and "is set up here" in r.content]
    assert len(found) == 1 and not found[0].ephemeral, [(r.method, r.path, r.content[:60]) for r in sent]
    return found[0]


async def setup_game(bot: QuarterdeckBot, fake: FakeDiscord) -> list[Sent]:
    sent = await dispatch(bot, command(ANN, "game", "create"), fake)
    assert "SHA-256" in announcement(sent).content
    assert "is set up" in last_followup(sent).content and last_followup(sent).ephemeral
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    return await dispatch(bot, command(BOB, "game", "join", side="B"), fake)


async def pick(bot: QuarterdeckBot, fake: FakeDiscord, user: tuple[int, str], card: str) -> list[Sent]:
    opened = await dispatch(bot, component(user, "qd:pick:1", message_id="1"), fake)
    callback = next(r for r in opened if "/callback" in r.path)
    assert callback.payload["type"] == 5 and callback.ephemeral  # deferred privately, before the database is read
    answer = last_followup(opened)
    assert answer.ephemeral  # a private menu
    menu = answer.payload["components"][0]["components"][0]
    assert card in [o["value"] for o in menu["options"]]
    # the deferred answer is the message the follow-up fills: the menu's message
    return await dispatch(bot, component(user, menu["custom_id"], callback.response_message_id, component_type=3,
                                         values=[card]), fake)


async def act_as(bot: QuarterdeckBot, fake: FakeDiscord, user: tuple[int, str], cmd: Command,
                 state: Game) -> list[Sent]:
    """Give a command as a player would: a pick through the private menu, a re-roll decision through
    the buttons (naming the roll they answer), anything else as `/order` in table notation."""
    if isinstance(cmd, PickCard):
        return await pick(bot, fake, user, cmd.card)
    roll = await bot.service.reading.roll_decision(1)
    if isinstance(cmd, KeepRoll | UseFortune):
        custom = f"qd:keep:1:{roll}" if isinstance(cmd, KeepRoll) else f"qd:fortune:1:{roll}"
        return await dispatch(bot, component(user, custom, message_id="1"), fake)
    if isinstance(cmd, Reroll):
        n = len(state.pending.faces) if state.pending else 5
        return await dispatch(bot, component(user, f"qd:reroll:1:{roll}:{n}:1", "1", 3, [str(d) for d in cmd.dice]),
                              fake)
    return await dispatch(bot, command(user, "order", line=format_command(cmd).split(": ", 1)[-1]), fake)


async def test_two_players_play_the_quick_start_to_the_end(harness: Any) -> None:
    bot, fake = harness
    sent = await setup_game(bot, fake)
    board_posts = [r for r in sent if r.in_channel and r.files]
    assert board_posts and board_posts[0].files[0][0] == "board-1.png"
    assert board_posts[0].files[0][1][:8] == b"\x89PNG\r\n\x1a\n"
    components = board_posts[0].payload["components"][0]["components"]
    assert components[0]["custom_id"] == "qd:pick:1"
    service = bot.service
    captains = {p: Captain(p, 4) for p in "AB"}
    picks_seen: list[tuple[str, str, int]] = []
    for _ in range(400):
        state = await service.reading.state_for_audit(1)
        due = deciders(state)
        if not due:
            break
        player = sorted(due)[0]
        user = USERS[player]
        cmd = captains[player].act(state)
        mark = len(fake.requests)
        sent = await act_as(bot, fake, user, cmd, state)
        if isinstance(cmd, PickCard):
            assert "face down" in last_followup(sent).content
            picks_seen.append((player, cmd.card, mark))
        first = next(r for r in sent if "/callback" in r.path)
        assert first.payload["type"] in (4, 5, 6)  # deferred (or a private menu) before anything else
        assert not last_followup(sent).content.startswith("⚠️"), last_followup(sent).content
    state = await service.reading.state_for_audit(1)
    assert state.winner in ("A", "B"), state.result
    assert (await service.audit.check(1)).ok
    # every activation posted the board; the status message was edited in place
    assert len([r for r in fake.channel_messages() if r.files]) > 20
    assert any(r.method == "PATCH" and r.path.startswith(f"/api/v10/channels/{CHANNEL_ID}/messages/")
               for r in fake.requests)
    assert any("Game over" in t for t in fake.public_texts())
    # no pick ever showed before its reveal
    for player, card, mark in picks_seen:
        later = fake.requests[mark:]
        reveal = next((i for i, r in enumerate(later) if "Revealed:" in r.content), len(later))
        public = [r for r in later[:reveal] if (r.in_channel or (r.path.startswith("/api/v10/webhooks/") and not r.ephemeral))]
        assert not any(card in r.content for r in public), (player, card)


async def test_mentions_only_the_player_to_act(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    await pick(bot, fake, BOB, "Take Courage")
    await pick(bot, fake, ANN, "Careful Aim")
    sent = await pick(bot, fake, BOB, "Reload!")
    post = [r for r in sent if r.in_channel and r.files][-1]
    assert f"<@{ANN[0]}>" in post.content and f"<@{BOB[0]}>" not in post.content
    assert [str(u) for u in post.payload["allowed_mentions"]["users"]] == [str(ANN[0])]
    assert post.message is not None and (post.message.id, str(ANN[0])) in fake.notified  # really pinged
    assert not [u for m, u in fake.notified if m == post.message.id and u != str(ANN[0])]
    assert "Revealed: A: Effective Fire, B: Take Courage" in "\n".join(fake.public_texts())


async def test_a_third_user_cannot_move_their_ships(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    before = len(fake.channel_messages())
    sent = await dispatch(bot, command(EVE, "move", ship="Kestrel"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.content.startswith("❌") and "not playing" in answer.content
    sent = await dispatch(bot, command(BOB, "move", ship="Kestrel"), fake)
    assert "not yours to command" in last_followup(sent).content and last_followup(sent).ephemeral
    assert len(fake.channel_messages()) == before  # nothing posted, nothing applied
    sent = await dispatch(bot, command(ANN, "move", ship="Kestrel", turn="end", turn_side="port", turn_degrees=30.0), fake)
    assert not last_followup(sent).content.startswith("❌")
    state = await bot.service.reading.state_for_audit(1)
    assert state.ship("Kestrel").heading == pytest.approx(150)


async def test_rules_errors_say_what_is_allowed(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    sent = await dispatch(bot, command(ANN, "move", ship="Kestrel", turn="end", turn_side="port", turn_degrees=45.0), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "Turn between 1° and 30°" in answer.content


async def test_preview_is_private_and_changes_nothing(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    before = len(fake.channel_messages())
    sent = await dispatch(bot, command(ANN, "move", ship="Kestrel", turn="end", turn_side="port", turn_degrees=30.0,
                                       preview=True), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.files and answer.files[0][0] == "preview.png"
    assert "Preview" in answer.content
    assert len(fake.channel_messages()) == before
    assert (await bot.service.reading.state_for_audit(1)).ship("Kestrel").heading == 180


async def test_closed_dms_do_not_stop_the_pick(harness: Any) -> None:
    bot, fake = harness
    fake.closed_dms.add(str(BOB[0]))
    await setup_game(bot, fake)
    dms = [r for r in fake.requests if r.path.startswith("/api/v10/channels/") and r.path.split("/")[4]
           in fake.dm_channels.values()]
    assert dms  # the nudges were tried
    sent = await pick(bot, fake, BOB, "Take Courage")
    assert "face down" in last_followup(sent).content
    assert (await bot.service.reading.state_for_audit(1)).squadron("B").picked


async def test_missing_attach_permission_posts_text_instead(harness: Any) -> None:
    bot, fake = harness
    fake.no_files_in.add(str(CHANNEL_ID))
    sent = await setup_game(bot, fake)
    texts = [r.content for r in sent if r.in_channel]
    assert any("Attach Files" in t for t in texts)


async def test_an_expired_interaction_changes_nothing(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    payload = component(ANN, "qd:pick:1", message_id="1")
    fake.expired.add(payload["id"])
    await dispatch(bot, payload, fake, settle=0.5)
    state = await bot.service.reading.state_for_audit(1)
    assert not state.squadron("A").picked


async def test_an_unexpected_error_reaches_nobody_raw(harness: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    bot, fake = harness
    await setup_game(bot, fake)

    async def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(bot.service.commands, "submit", boom)
    sent = await dispatch(bot, command(ANN, "order", line="pick A Down!"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "Something went wrong" in answer.content
    assert "database on fire" not in json.dumps([r.payload for r in fake.requests])


async def test_plan_ahead_is_carried_out_when_play_reaches_the_player(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    sent = await dispatch(bot, command(BOB, "plan", line="move Otter turn end starboard 20"), fake)
    assert "Planned" in last_followup(sent).content
    await dispatch(bot, command(ANN, "order", line="move Kestrel"), fake)
    state = await bot.service.reading.state_for_audit(1)
    assert state.ship("Otter").heading == pytest.approx(200) and "Otter" in state.activated


async def test_a_gm_acts_for_a_player_only_after_their_deadline(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    role = 555
    from datetime import timedelta

    from sqlalchemy import update

    from game.service.models import GuildSettings, ScheduledJob, utcnow

    await bot.service.data.save_settings(GuildSettings(guild_id=str(GUILD_ID), gm_role_id=str(role)))
    sent = await dispatch(bot, command(EVE, "order", roles=(role,), line="pick A Effective Fire"), fake)
    refusal = last_followup(sent)
    assert refusal.ephemeral and "still within their deadline" in refusal.content
    assert not (await bot.service.reading.state_for_audit(1)).squadron("A").picked
    async with bot.service.store.repo.session() as s, s.begin():  # A's 48 hours go by
        await s.execute(update(ScheduledJob).where(ScheduledJob.kind == "deadline")
                        .values(due_at=utcnow() - timedelta(minutes=1)))
    sent = await dispatch(bot, command(EVE, "order", roles=(role,), line="pick A Effective Fire"), fake)
    assert not last_followup(sent).content.startswith("❌")
    assert (await bot.service.reading.state_for_audit(1)).squadron("A").picked
    assert any(f"A GM (<@{EVE[0]}>) gives player A's next order (their deadline had passed)" in t
               for t in fake.public_texts())
    view = await bot.service.reading.view(Actor(str(EVE[0]), str(GUILD_ID)), 1)
    assert view.game.squadron("A").face_down is None  # the GM acted; spectators still see no secret


async def test_gm_ends_a_game_and_lookups_answer_privately(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    sent = await dispatch(bot, command(EVE, "rules", term="Fluyt"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "Fluyt" in answer.content and "provisional" in answer.content
    sent = await dispatch(bot, command(EVE, "game", "concede"), fake)
    assert last_followup(sent).content.startswith("❌")
    sent = await dispatch(bot, command(EVE, "game", "concede", permissions=1 << 5, side="B"), fake)  # Manage Server
    assert (await bot.service.reading.state_for_audit(1)).winner == "A"
    assert any("Game over" in t for t in fake.public_texts())
    sent = await dispatch(bot, command(EVE, "board"), fake)
    assert last_followup(sent).files and last_followup(sent).ephemeral


async def test_gm_exports_and_imports_game_data(harness: Any) -> None:
    import io
    import zipfile

    bot, fake = harness
    sent = await dispatch(bot, command(ANN, "data", "export"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.files[0][0] == "quarterdeck-data.zip"
    files = zipfile.ZipFile(io.BytesIO(answer.files[0][1])).read("ranges.toml").decode()
    edited = fake.attach("ranges.toml", files.replace("max = 12.0", "max = 14.0").encode())
    sent = await dispatch(bot, command(BOB, "data", "import", attachments={"file": edited}), fake)
    assert "Only a GM" in last_followup(sent).content
    broken = fake.attach("ranges.toml", files.replace("max = 4.0", "max = 0.5").encode())
    # an import plays a trial game with the data before accepting it: seconds on a loaded machine
    sent = await dispatch(bot, command(ANN, "data", "import", permissions=1 << 5, attachments={"file": broken}), fake,
                          settle=60)
    assert "ranges.toml" in last_followup(sent).content and "pistol" in last_followup(sent).content
    sent = await dispatch(bot, command(ANN, "data", "import", permissions=1 << 5, attachments={"file": edited}), fake,
                          settle=60)
    assert "imported" in last_followup(sent).content
    assert "max = 14.0" in (await bot.service.data.export_data(str(GUILD_ID)))["ranges.toml"]


async def test_create_a_game_from_an_uploaded_scenario_file(harness: Any) -> None:
    from pathlib import Path

    bot, fake = harness
    text = (Path(__file__).resolve().parents[2] / "examples" / "winds_eye.toml").read_bytes()
    upload = fake.attach("winds_eye.toml", text)
    sent = await dispatch(bot, command(ANN, "game", "create", attachments={"file": upload}), fake)
    assert "In the Wind's Eye" in last_followup(sent).content
    state = await bot.service.reading.state_for_audit(1)
    assert state.ship("Kestrel").heading == 0 and state.test_dice


async def test_squadrons_are_checked_and_kept_for_reuse(harness: Any) -> None:
    from importlib import resources

    bot, fake = harness
    legal = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_bytes()
    sent = await dispatch(bot, command(ANN, "squadron", "save", attachments={"file": fake.attach("z.toml", legal)}), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "Saved **Zeeland Admiralty**" in answer.content and "73 points" in answer.content
    broken = legal.replace(b'class = "Fluyt"', b'class = "Second Rate"')
    sent = await dispatch(bot, command(ANN, "squadron", "save", attachments={"file": fake.attach("b.toml", broken)}), fake)
    assert "points" in last_followup(sent).content and last_followup(sent).content.startswith("❌")
    sent = await dispatch(bot, command(ANN, "squadron", "list"), fake)
    assert "Zeeland Admiralty" in last_followup(sent).content
    sent = await dispatch(bot, command(BOB, "squadron", "list"), fake)
    assert "No saved squadrons" in last_followup(sent).content  # each player keeps their own
    sent = await dispatch(bot, command(ANN, "squadron", "show", squadron="zeeland admiralty"), fake)
    assert last_followup(sent).files[0][1] == legal

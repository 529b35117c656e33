"""Adversary probes of /clock: players and seated GMs changing a game's clock, hostile hours and
time zones, vacations, and a deadline's computer captain picking a secret card for a late player."""

from __future__ import annotations

from game.service.scheduler import run_due
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    GUS,
    MANAGE_GUILD,
    Table,
    answer_text,
    assert_learns_nothing,
    deadline_passes,
)
from tests.adversary.test_sweep import make_gm_role, open_quickstart
from tests.bot.fake_discord import OTHER_CHANNEL_ID

UNEXPECTED = "Something went wrong on my side"


async def clock_events(t: Table) -> list[str]:
    from game import events as ev
    return [e.change for e in await t.log_events() if isinstance(e, ev.ClockChanged)]


async def test_only_an_unseated_gm_changes_a_games_clock(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    for user, perms in ((ANN, 0), (BOB, 0), (EVE, 0), (ANN, MANAGE_GUILD), (BOB, MANAGE_GUILD)):
        for sub, values in (("settings", {"deadline_hours": 1, "on_deadline": "pass"}), ("pause", {}),
                            ("extend", {"hours": 720})):
            a = await t.cmd(user, "clock", sub, permissions=perms, **values)
            assert a.ephemeral and answer_text(a).startswith("❌"), (user[1], perms, sub, answer_text(a))
    assert await clock_events(t) == []
    mark = t.mark()
    a = await t.cmd(GUS, "clock", "pause")
    assert "paused" in answer_text(a) and "Clock (paused" in t.seen_by(EVE, mark)  # the GM is told, and everyone
    # outside a game's channel a GM changes nothing
    a = await t.cmd(GUS, "clock", "resume", channel_id=OTHER_CHANNEL_ID)
    assert answer_text(a).startswith("❌"), answer_text(a)
    assert await clock_events(t) == ["paused"]


async def test_a_time_zone_longer_than_a_file_name_is_refused(table: Table) -> None:
    """/clock hours time_zone: 300 characters (Discord allows 6000 in a string option)."""
    t = table
    for zone in ("A" * 300, "Europe/" + "P" * 300):
        a = await t.cmd(ANN, "clock", "hours", time_zone=zone)
        text = answer_text(a)
        assert a.ephemeral and text.startswith("❌") and UNEXPECTED not in text, (zone[:30], text[:200])


async def test_hostile_hours_and_vacations_are_refused_in_one_private_message(table: Table) -> None:
    t = table
    await open_quickstart(t)
    for zone in ("../../../../etc/passwd", "/etc/localtime", "Europe/Paris\n", " UTC", "\x00",
                 "𝔈𝔲𝔯𝔬𝔭𝔢/Paris", "nan", "1e308", "Europe/../Europe/Paris", "Etc/GMT+14" * 20):
        a = await t.cmd(ANN, "clock", "hours", time_zone=zone)
        text = answer_text(a)
        assert a.ephemeral and text.startswith("❌") and len(text) <= 2000 and UNEXPECTED not in text, (zone[:30], text[:200])
    a = answer_text(await t.cmd(ANN, "clock", "hours", time_zone="Pacific/Kiritimati", quiet_from=23, quiet_to=0))
    assert a.startswith("🕰️") and "Pacific/Kiritimati" in a, a
    for days, mode in ((90.0, "stop"), (1e-9, "captain"), (0.0, "stop"), (89.999999, "substitute")):
        a = await t.cmd(BOB, "clock", "away", days=days, mode=mode)
        text = answer_text(a)
        assert a.ephemeral and UNEXPECTED not in text and len(text) <= 2000, (days, mode, text[:200])
        if mode == "substitute":
            assert text.startswith("❌"), text  # nobody named to stand in
    # Eve, with no game, may go away too: nothing of anyone's game is said to her
    text = answer_text(await t.cmd(EVE, "clock", "away", days=3.5))
    assert "none" in text and UNEXPECTED not in text, text


async def test_a_deadline_captains_pick_stays_secret(table: Table) -> None:
    """Bob is late with his initiative pick and the deadline lets the computer captain pick for him:
    the channel, Ann and Eve learn nothing of the card it chose."""
    t = table
    await make_gm_role(t)
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    assert "Clock" in answer_text(await t.cmd(GUS, "clock", "settings", on_deadline="captain"))
    _, menu, message = await t.open_hand(ANN)
    await t.press(ANN, menu, message, values=["Down!"])
    mark = t.mark()
    await deadline_passes(t, "B")
    handlers = {"deadline": t.bot._deadline, "reminder": t.bot._remind}
    assert await run_due(t.service.store.repo, handlers) >= 1
    state = await t.state()
    assert state.squadron("B").picked or state.turn >= 1 or state.squadron("B").face_down, "the captain did not pick"
    for label, user in (("opponent", ANN), ("spectator", EVE), ("GM", GUS)):
        await assert_learns_nothing(t, user, label, since=mark)


async def test_a_hand_menu_opened_before_the_deadline_captain_picked_changes_nothing(table: Table) -> None:
    """Bob opens his hand menu, is late, the computer captain picks for him at the deadline (and the
    cards are revealed); his old menu must not change the pick, and answers him alone."""
    t = table
    await make_gm_role(t)
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    await t.cmd(GUS, "clock", "settings", on_deadline="captain")
    _, bob_menu, bob_message = await t.open_hand(BOB)
    assert bob_menu
    _, menu, message = await t.open_hand(ANN)
    await t.press(ANN, menu, message, values=["Down!"])
    await deadline_passes(t, "B")
    assert await run_due(t.service.store.repo, {"deadline": t.bot._deadline, "reminder": t.bot._remind}) >= 1
    state = await t.state()
    picked = state.squadron("B").face_up or state.squadron("B").face_down
    assert picked
    version = await t.version()
    other = next(c for c in state.squadron("B").hand if c != picked)
    mark = t.mark()
    answer = await t.press(BOB, bob_menu, bob_message, values=[other])
    assert await t.version() == version
    after = await t.state()
    assert (after.squadron("B").face_up or after.squadron("B").face_down) == picked
    assert not any(i.has(other) for i in t.public(mark)), "the stale pick's card was posted"
    assert answer is None or answer.ephemeral or not answer_text(answer)

"""Issue 22, property 5 and finding 14: acting for a side follows one rule. A GM acts for a player, or
takes their seat, only past the deadline, with the player's consent (naming the GM to stand in) or
through an explicit override that the log and the game-over post show; a stand-in named for a
vacation acts for the side while the player is away, and not after; the player who handed a side
over commands it no more."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from game import events as ev
from game.model import Phase
from game.phases.flow import deciders
from game.service.authority import Actor
from game.service.models import utcnow
from tests.adversary.eyes import ANN, BOB, EVE, GUS, Table, answer_text, deadline_passes, last_answer
from tests.adversary.test_sweep import make_gm_role, open_quickstart
from tests.bot.fake_discord import GUILD_ID, command, user_json

GUILD = str(GUILD_ID)
WITHIN = ("Player A is still within their deadline: a GM may act for a player, or take their seat, only after it "
          "has passed, when their seat is empty, or with the player's consent (they name you to stand in: "
          "/clock away). Wait, ask the player, or repeat the command with `override: True`: the override is "
          "logged and shown when the game ends.")


def as_actor(user: tuple[int, str]) -> Actor:
    return Actor(str(user[0]), GUILD)


async def handover(t: Table, user: tuple[int, str], to: tuple[int, str], **values: Any) -> str:
    """/game handover member: `to`, with the member resolved as Discord sends it."""
    from tests.adversary.eyes import ROLES

    payload = command(user, "game", "handover", roles=ROLES.get(user[0], ()), **values)
    payload["data"]["options"][0]["options"].append({"name": "member", "type": 6, "value": str(to[0])})
    member = {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
              "permissions": "0", "nick": None, "avatar": None}
    payload["data"]["resolved"] = {"users": {str(to[0]): user_json(*to)}, "members": {str(to[0]): member}}
    return answer_text(last_answer(await t.send(user, payload), str(payload["token"])))


async def overrides_in_game_over_post(t: Table, mark: int) -> str:
    assert answer_text(await t.cmd(BOB, "game", "concede")).startswith("🏳️")
    posts = t.seen_by(EVE, mark)
    assert "Game over" in posts
    return posts


async def gus_override_is_in_the_game_over_post(t: Table) -> None:
    ended = await overrides_in_game_over_post(t, t.mark())
    assert f"⚠️ GM overrides in this game: <@{GUS[0]}> for player A (before turn 1)." in ended, ended


async def holder_of_a(t: Table) -> str | None:
    return next(s.user_id for s in (await t.service.lobby.info(1)).seats if s.player == "A")


async def test_a_gm_acts_within_the_deadline_only_by_a_logged_override(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)  # A owes a pick, well within the deadline
    version = await t.version()
    refused = await t.cmd(GUS, "order", line="pick A Down!")
    assert refused.ephemeral and answer_text(refused) == f"❌ {WITHIN}", answer_text(refused)
    assert await t.version() == version
    mark = t.mark()
    answer = answer_text(await t.cmd(GUS, "order", line="pick A Down!", override=True))
    assert answer.startswith("✅"), answer
    assert (await t.state()).squadron("A").face_up == "Down!"  # both picked: revealed
    acted = [e for e in await t.log_events() if isinstance(e, ev.ActedFor)]
    assert [(e.player, e.by, e.kind) for e in acted] == [("A", str(GUS[0]), "override")]
    said = f"⚠️ GM override by <@{GUS[0]}>: player A is still within their deadline; the GM acts for them."
    assert said in t.seen_by(EVE, mark)
    await gus_override_is_in_the_game_over_post(t)


async def test_a_refused_override_never_shows_the_sides_hand(table: Table) -> None:
    """A GM who plays no part probes with `override`: a line that cannot be carried out is refused
    without naming a card of A's hand (a refused attempt logs nothing, so it would be a free look)."""
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    hand = (await t.state()).squadron("A").hand
    version = await t.version()
    for line in ("pick A Nonsense", "pick A Broadside Of Lies", "A: move Nonsense"):
        refused = await t.cmd(GUS, "order", line=line, override=True)
        text = answer_text(refused)
        assert refused.ephemeral and text.startswith("❌"), text
        assert not [card for card in hand if card in text], (line, text)
    assert await t.version() == version


async def test_a_players_override_is_no_more_than_their_own_seat(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    answer = answer_text(await t.cmd(BOB, "order", line="pick A Down!", override=True))
    assert answer == "❌ You do not command side A. Your sides: B.", answer
    assert not (await t.state()).squadron("A").picked


async def test_a_gm_takes_a_seat_within_the_deadline_only_by_a_logged_override(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    answer = await handover(t, GUS, GUS, side="A")
    assert answer == f"❌ {WITHIN}", answer
    assert await holder_of_a(t) == str(ANN[0])
    answer = await handover(t, GUS, GUS, side="A", override=True)
    assert answer.startswith("🔁"), answer
    assert await holder_of_a(t) == str(GUS[0])
    kinds = [(type(e).__name__, getattr(e, "kind", "")) for e in await t.log_events()
             if isinstance(e, ev.ActedFor | ev.SeatHandedOver)]
    assert kinds == [("ActedFor", "override"), ("SeatHandedOver", "")]
    await gus_override_is_in_the_game_over_post(t)


async def test_a_gm_takes_the_seat_of_a_player_past_their_deadline(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    await deadline_passes(t, "A")
    answer = await handover(t, GUS, GUS, side="A")
    assert answer.startswith("🔁"), answer
    acted = [e for e in await t.log_events() if isinstance(e, ev.ActedFor)]
    assert [(e.player, e.kind, e.reason) for e in acted] == [("A", "gm", "their deadline had passed")]
    ended = await overrides_in_game_over_post(t, t.mark())
    assert "GM override" not in ended


async def test_a_stand_in_acts_for_the_side_while_its_player_is_away_and_not_after(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    await t.service.clock.set_away(as_actor(ANN), utcnow() + timedelta(days=3), "substitute", str(EVE[0]))
    # Eve may act for A, and A only
    answer = answer_text(await t.cmd(EVE, "order", line="B: keep"))
    assert answer.startswith("❌") and "B" in answer, answer
    mark = t.mark()
    answer = answer_text(await t.cmd(EVE, "order", line="pick A Down!"))
    assert answer.startswith("✅"), answer
    assert (await t.state()).squadron("A").face_up == "Down!"
    acted = [e for e in await t.log_events() if isinstance(e, ev.ActedFor)]
    assert [(e.player, e.by, e.kind) for e in acted] == [("A", str(EVE[0]), "stand-in")]
    said = f"<@{EVE[0]}> gives player A's next order (standing in while <@{ANN[0]}> is away)."
    assert said in t.seen_by(EVE, mark)
    # a stand-in plays for the side; ending the game for it is the player's (or a GM's)
    answer = answer_text(await t.cmd(EVE, "order", line="concede A"))
    assert answer.startswith("❌") and "does not concede" in answer, answer
    assert (await t.state()).phase is not Phase.OVER
    # the time away runs out: Eve is a spectator again
    from game.service import orders_store as store

    clock = await store.player_clock(t.service.store.repo, str(ANN[0]))
    clock.away_until = utcnow() - timedelta(minutes=1)
    await store.save_clock(t.service.store.repo, clock)
    version = await t.version()
    state = await t.state()
    line = "pick A Careful Aim" if "A" in deciders(state) else f'move "{state.ships_of("A")[0].id}" hold'
    answer = answer_text(await t.cmd(EVE, "order", line=line))
    assert answer == "❌ You are not playing in this game. Join a side first (/game join), or watch.", answer
    assert await t.version() == version


async def test_the_opponent_named_to_stand_in_does_not_command_both_sides(table: Table) -> None:
    t = table
    await open_quickstart(t)
    await t.service.clock.set_away(as_actor(ANN), utcnow() + timedelta(days=3), "substitute", str(BOB[0]))
    answer = answer_text(await t.cmd(BOB, "order", line="pick A Down!"))
    assert answer.startswith("❌") and "You do not command side A" in answer, answer
    assert not (await t.state()).squadron("A").picked


async def test_a_stand_in_chooses_from_the_away_players_hand(table: Table) -> None:
    """The stand-in presses **Choose initiative card** and gets player A's own hand, privately."""
    t = table
    await open_quickstart(t)
    await t.service.clock.set_away(as_actor(ANN), utcnow() + timedelta(days=3), "substitute", str(EVE[0]))
    opened, menu, message = await t.open_hand(EVE)
    assert menu == "qd:hand:1:A:0" and "Your hand (player A)" in answer_text(opened), answer_text(opened)
    await t.press(EVE, menu, message, values=["Careful Aim"])
    state = await t.state()
    assert state.squadron("A").face_up == "Careful Aim" and state.squadron("B").face_up == "Take Courage"
    assert [(e.player, e.kind) for e in await t.log_events() if isinstance(e, ev.ActedFor)] == [("A", "stand-in")]

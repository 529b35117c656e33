"""Issue 11, item 7 (3): only a side's seat holder gives its orders. A GM acts for a player only past
that player's deadline, in the open; a GM who plays in the game has only a player's rights there;
only a GM names the GM role, whatever Discord showed; `dice` belongs to a test game's players."""

from __future__ import annotations

from game.dice import seed_from_number
from game.model import Phase
from game.service.models import GuildSettings
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    GM_ROLE,
    GUS,
    MANAGE_GUILD,
    ROLES,
    SEEDS,
    Table,
    answer_text,
    assert_no_pings,
    deadline_passes,
    gm_role_command,
    last_answer,
)
from tests.adversary.test_sweep import drive, make_gm_role, open_quickstart
from tests.bot.fake_discord import GUILD_ID, command
from tests.helpers import S, scenario_text

HAL = (888888888888888888, "Hal")  # Manage Server, no seat


async def answer_to(t: Table, user: tuple[int, str], payload: dict[str, object]) -> str:
    return answer_text(last_answer(await t.send(user, payload), str(payload["token"])))


async def text_of(t: Table, user: tuple[int, str], name: str, sub: str | None = None, /, permissions: int = 0,
                  **values: object) -> str:
    return await answer_to(t, user, command(user, name, sub, permissions=permissions, roles=ROLES.get(user[0], ()),
                                            **values))


async def test_only_the_roller_answers_a_roll(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    state = await drive(t, lambda s: s.pending is not None and s.pending.player == "B")
    version = await t.version()
    why = {ANN: "This decision is player B's", EVE: "You are not playing in this game",
           GUS: "Player B is still within their deadline"}
    ids = await t.roll_ids()
    for user, reason in why.items():
        for custom, values in ((ids["keep"], None), (ids["fortune"], None), (ids["reroll"], ["1"])):
            answer = answer_text(await t.press(user, custom, values=values))
            assert answer.startswith("❌") and reason in answer, (user[1], custom, answer)
        for line in ("keep", "fortune", "reroll 1", "B: keep"):
            answer = answer_text(await t.cmd(user, "order", line=line))
            assert answer.startswith("❌") and reason in answer, (user[1], line, answer)
    assert await t.version() == version and (await t.state()).pending == state.pending
    assert answer_text(await t.press(BOB, ids["keep"])).startswith("🎲")  # the buttons work for their owner
    assert (await t.state()).pending != state.pending


async def test_a_gm_order_with_nobody_to_act_for_says_so(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    answer = answer_text(await t.cmd(GUS, "order", line="keep"))
    assert answer.startswith("❌") and "Player  " not in answer and "`B: keep`" in answer, answer


async def test_only_a_gm_names_the_gm_role(table: Table) -> None:
    t = table
    settings = t.service.store.repo.guild_settings
    # Discord hides the command from members without Manage Server; a client that sends it anyway is refused
    answer = await answer_to(t, EVE, gm_role_command(EVE, 4242))
    assert answer.startswith("❌") and "Only a GM" in answer, answer
    assert (await settings(str(GUILD_ID))).gm_role_id is None
    assert "GM role set" in await answer_to(t, HAL, gm_role_command(HAL, GM_ROLE, permissions=MANAGE_GUILD))
    assert (await settings(str(GUILD_ID))).gm_role_id == str(GM_ROLE)
    # the current GM role may hand it on; then the old role no longer makes a GM
    assert "GM role set" in await answer_to(t, GUS, gm_role_command(GUS, 4243, roles=(GM_ROLE,)))
    assert "Only a GM" in await answer_to(t, EVE, gm_role_command(EVE, 4244, roles=(GM_ROLE,)))
    assert (await settings(str(GUILD_ID))).gm_role_id == "4243"
    assert_no_pings(t.fake)  # "GM role set to <@&4243>" names the role without pinging it


async def test_a_gm_acts_for_a_player_only_past_their_deadline_and_is_named(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)  # A owes a pick
    for gm, permissions in ((GUS, 0), (HAL, MANAGE_GUILD)):
        answer = await text_of(t, gm, "order", permissions=permissions, line="pick A Down!")
        assert answer.startswith("❌") and "still within their deadline" in answer, answer
    assert not (await t.state()).squadron("A").picked
    await deadline_passes(t, "A")
    mark = t.mark()
    answer = await text_of(t, HAL, "order", permissions=MANAGE_GUILD, line="pick A Down!")
    assert not answer.startswith("❌"), answer
    assert (await t.state()).squadron("A").face_up == "Down!"  # both picked: revealed
    posts = "\n".join(i.text for i in t.public(since=mark))
    assert f"A GM (<@{HAL[0]}>) gives player A's next order (their deadline had passed)" in posts


async def test_a_gm_who_plays_has_only_a_players_rights(table: Table) -> None:
    """Ann has Manage Server and plays A: past Bob's deadline she still may not pick for him (nor read his
    hand in the error), end the game for him, or undo without his consent."""
    t = table
    await open_quickstart(t)
    await t.submit(ANN, "pick A Down!")
    await t.submit(ANN, "pick A Careful Aim")  # now only Bob owes a pick, and his deadline passes
    await deadline_passes(t, "B")
    version = await t.version()
    for line in ("pick B zzz", "pick B Rel", "pick B Reload!"):
        answer = await text_of(t, ANN, "order", permissions=MANAGE_GUILD, line=line)
        assert answer == "❌ You do not command side B. Your sides: A.", answer
    answer = await text_of(t, ANN, "game", "concede", permissions=MANAGE_GUILD, side="B")
    assert answer.startswith("❌"), answer
    answer = await text_of(t, ANN, "order", permissions=MANAGE_GUILD, line="concede B")
    assert answer.startswith("❌"), answer
    assert await t.version() == version and (await t.state()).phase is not Phase.OVER
    await t.submit(BOB, "pick B Reload!")
    state = await t.state()
    mover = {"A": ANN, "B": BOB}[state.active_player or "A"]
    await t.submit(mover, f'move "{state.ships_of(state.active_player or "A")[0].id}"')  # no dice: undoable
    answer = await text_of(t, ANN, "game", "undo", permissions=MANAGE_GUILD)
    assert "Asked" in answer and (await t.state()).undo_request is not None, "her undo is a request, not an order"
    answer = await text_of(t, ANN, "game", "approve-undo", permissions=MANAGE_GUILD)
    assert answer.startswith("❌") and "consent" in answer, answer
    assert not any(e.__class__.__name__ == "StateRestored" for e in await t.log_events())


async def test_dice_in_a_test_game_belong_to_its_players(table: Table) -> None:
    t = table
    await make_gm_role(t)
    text = scenario_text([S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")])
    await t.cmd(ANN, "game", "create", attachments={"file": t.fake.attach("test.toml", text.encode())})
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    assert (await t.state()).test_dice
    for user, reason in ((EVE, "not playing"), (GUS, "Only a player of this test game")):
        answer = answer_text(await t.cmd(user, "order", line="dice sail sail"))
        assert answer.startswith("❌") and reason in answer, answer
    answer = answer_text(await t.cmd(ANN, "order", line="dice sail zzz"))
    assert answer.startswith("❌") and "'zzz' is not a face of the die" in answer and "Faces:" in answer, answer
    # the game goes on, and the refused faces were not kept: the next fixed faces are the ones used
    for user, line in ((ANN, "pick A Down!"), (BOB, "pick B Take Courage"), (ANN, "pick A Careful Aim"),
                       (BOB, "pick B Reload!")):
        assert not answer_text(await t.cmd(user, "order", line=line)).startswith("❌")
    state = await t.state()
    player = state.active_player or "A"
    user = ANN if player == "A" else BOB
    assert answer_text(await t.cmd(user, "order", line="dice skull skull skull skull skull")).startswith("✅")
    ship = state.ships_of(player)[0].id
    moved = answer_text(await t.cmd(user, "order", line=f'move "{ship}" heading port 10'))
    assert moved.startswith("✅"), moved
    rolled = [e for e in await t.log_events() if e.__class__.__name__ == "DiceRolled"]
    assert rolled and rolled[-1].faces == ("skull",) * len(rolled[-1].faces)


async def test_nobody_chooses_the_dice_seed_of_a_game(table: Table) -> None:
    t = table
    create = t.bot.tree.get_command("game").get_command("create")  # type: ignore[union-attr]
    assert "seed" not in {p.name for p in create.parameters}
    for cmd in t.bot.tree.walk_commands():
        assert "seed" not in {p.name for p in getattr(cmd, "parameters", [])}, cmd.qualified_name
    # a client that sends a seed anyway gets a game with a secret seed of the service's drawing
    await t.send(ANN, command(ANN, "game", "create", seed=5))
    seed = await t.seed()
    assert seed == SEEDS[0] and seed != seed_from_number(5)


async def test_a_guild_setting_names_no_gm_for_another_server(table: Table) -> None:
    """The GM role of one server makes nobody a GM in another server's game."""
    t = table
    await t.service.data.save_settings(GuildSettings(guild_id="999", gm_role_id=str(GM_ROLE)))
    await open_quickstart(t)
    answer = answer_text(await t.cmd(GUS, "order", line="pick A Down!"))
    assert "You are not playing in this game" in answer, answer

"""Each referee-assistant system played for two turns through Discord (the real bot on the fake
Discord): `/game create system:`, `/ref join`, secret orders with `/ref order` read only by their
owner until they are revealed together, the phases moved on by the referee, a table applied, and
`/rules table:` look-ups. The dice are the game's own (the counting seeds make them reproducible)."""

from __future__ import annotations

from typing import Any

from bot.app import QuarterdeckBot
from game.service.referee import builtin_setups
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Sent, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup

User = tuple[int, str]


class Table:
    """Three people at one Discord table: two players and the referee."""

    def __init__(self, bot: QuarterdeckBot, fake: FakeDiscord) -> None:
        self.bot, self.fake = bot, fake

    async def send(self, user: User, name: str, sub: str | None = None, /, **values: Any) -> Sent:
        sent = await dispatch(self.bot, command(user, name, sub, **values), self.fake)
        callback = next(r for r in sent if "/callback" in r.path)
        assert callback.payload["type"] == 5  # deferred before anything else
        return last_followup(sent)

    async def ok(self, user: User, sub: str, /, **values: Any) -> Sent:
        answer = await self.send(user, "ref", sub, **values)
        assert answer.ephemeral and not answer.content.startswith(("❌", "⚠️")), answer.content
        return answer

    def public(self) -> str:
        return "\n".join(self.fake.public_texts())

    async def start(self, system: str, seats: dict[User, str]) -> None:
        created = await self.send(ANN, "game", "create", system=system)
        assert "is set up" in created.content and created.ephemeral, created.content  # to its creator
        [told] = [r for r in self.fake.channel_messages() if "is set up here" in r.content]  # to everyone
        assert "SHA-256" in told.content and not told.ephemeral
        for user, seat in seats.items():
            joined = await self.ok(user, "join", seat=seat)
            assert f"You hold the seat of {seat}" in joined.content


async def _plots(t: Table, fake: FakeDiscord, first: tuple[User, str, str], second: tuple[User, str, str],
                 reveal: str) -> None:
    """Two secret orders: the first's text reaches only its owner until the second is in; then one
    channel message reveals both."""
    mark = len(fake.requests)
    (user1, line1, secret1), (user2, line2, _) = first, second
    sealed = await t.ok(user1, "order", line=line1)
    assert "Sealed" in sealed.content and secret1 in sealed.content  # its owner reads it
    opponent_log = await t.ok(user2, "log")
    assert secret1 not in opponent_log.content
    public = [r.content for r in fake.requests[mark:] if r.in_channel or (not r.ephemeral and "/webhooks/" in r.path)]
    assert public and not any(secret1 in p for p in public), public
    await t.ok(user2, "order", line=line2)
    revealed = [r.content for r in fake.requests[mark:] if r.in_channel and "Revealed:" in r.content]
    assert len(revealed) == 1 and reveal in revealed[0], revealed


async def test_wsim_two_turns_with_plots_revealed_together(harness: Any) -> None:
    bot, fake = harness
    t = Table(bot, fake)
    await t.start("wsim", {ANN: "British", BOB: "French", EVE: "Umpire"})
    await t.ok(EVE, "do", line="next")  # the wind rolled in A; B and C have nothing to do: D
    for turn in (1, 2):
        assert f"Turn {turn}: D. Movement notation Phase" in t.public()
        await _plots(t, fake, (ANN, "plot Victory 1", "Victory: 1"), (BOB, "plot Redoutable L1R1", ""),
                     "Revealed: Victory: 1; Redoutable: L1R1")
        if turn == 2:
            break
        await t.ok(EVE, "do", line="next")  # F and G skipped: nothing fouled or grappled
        # the fire calculator reads the Fire Base and the fire tables; the hits come from the printed table
        await t.ok(ANN, "do", line="fire Victory left Redoutable range 2")
        assert "FFN" in t.public()
        refused = await t.send(EVE, "ref", "do", line="next")
        assert refused.ephemeral and "still wait" in refused.content
        await t.ok(EVE, "do", line="hits 1 1H")
        for _ in "JD":  # I skipped; then K skipped (sails are set in J), turn 2's wind rolled, B and C skipped
            await t.ok(EVE, "do", line="next")
    info = await bot.service.referee.info(1)
    assert (info.turn, info.phase) == (2, "E")
    ship = await t.ok(BOB, "ship", ship="Redoutable")  # privately (t.ok): the owner's loads are in it
    assert "Hull: 19 of 20 left" in ship.content.splitlines(), ship.content
    assert "Left broadside: roundshot, initial broadside" in ship.content.splitlines()
    [(name, png)] = ship.files
    assert name == "ship.png" and png.startswith(b"\x89PNG")
    [attached] = ship.payload["attachments"]
    assert attached["description"].startswith("Ship sheet of Redoutable (French)")
    assert "Hull: 19 of 20 left" in attached["description"] and "roundshot" in attached["description"]
    # the same ship for its opponent: the loads read "?" in the text, the description and the image
    seen = await t.ok(ANN, "ship", ship="Redoutable")
    assert "Left broadside: ? (secret)" in seen.content.splitlines() and "roundshot" not in seen.content
    assert "roundshot" not in seen.payload["attachments"][0]["description"]
    assert seen.files and seen.files[0][1] != png
    assert "Turn 2, phase E" in (await t.ok(EVE, "status")).content


async def test_iron_and_oak_two_turns_with_hidden_order_cards(harness: Any) -> None:
    bot, fake = harness
    t = Table(bot, fake)
    await t.start("iron_and_oak", {ANN: "Union", BOB: "Confederate", EVE: "Umpire"})
    for turn, order in ((1, "anchor"), (2, "weigh")):
        while (await bot.service.referee.info(1)).phase != "order":
            await t.ok(EVE, "do", line="next")
        mark = len(fake.requests)
        sealed = await t.ok(ANN, "order", line=f"order Monitor {order}")
        assert f"Monitor: {order}" in sealed.content
        await t.ok(BOB, "order", line=f"order Virginia {order}")
        await t.ok(ANN, "order", line=f"order Minnesota {order}")
        await t.ok(BOB, "order", line=f"order Jamestown {order}")
        public = [r.content for r in fake.requests[mark:] if r.in_channel]
        assert "Union seals the Monitor order." in "\n".join(public) and order not in "\n".join(public)
        await t.ok(EVE, "do", line="next")
        # the owners reveal their cards one at a time, in the order they choose
        refused = await t.send(ANN, "ref", "do", line="reveal Virginia")
        assert refused.ephemeral and "belongs to Confederate" in refused.content
        await t.ok(BOB, "do", line="reveal Virginia")
        assert f"Revealed: Virginia: {order}" in t.public() and f"Revealed: Monitor: {order}" not in t.public()
        await t.ok(ANN, "do", line="reveal Monitor")  # the map knows each Grid Box's depth: nothing is asked
        assert f"Revealed: Monitor: {order}" in t.public()
        await t.ok(ANN, "do", line="reveal Minnesota")
        await t.ok(BOB, "do", line="reveal Jamestown")
        await t.ok(EVE, "do", line="next")
        assert f"Turn {turn}: Replace Card Phase" in t.public()
    # a garbled table answers "read the printed table" until the referee enters what the copy says
    looked = await t.send(ANN, "rules", None, table="drifting", row="1")
    assert looked.ephemeral and looked.content.startswith("Read the printed"), looked.content
    refused = await t.send(ANN, "ref", "do", line="printed drifting 1 = 4")
    assert "Only the referee" in refused.content
    await t.ok(EVE, "do", line="printed drifting 1 = 4")
    looked = await t.send(BOB, "rules", None, table="drift", row="1")
    assert "Drifting Table" in looked.content and "4 (entered by the referee" in looked.content


async def test_captains_sea_two_turns_with_maneuvers_revealed_by_impulse(harness: Any) -> None:
    bot, fake = harness
    t = Table(bot, fake)
    await t.start("captains_sea", {ANN: "US", BOB: "British", EVE: "Umpire"})
    for turn, (first, second) in ((1, ("turn-port", "straight")), (2, ("straight", "turn-starboard"))):
        while (await bot.service.referee.info(1)).phase != "initiative":
            await t.ok(EVE, "do", line="next")
        await t.ok(EVE, "do", line="initiative US")
        await t.ok(EVE, "do", line="next")
        await t.ok(ANN, "do", line="bearing Constitution C")
        await t.ok(BOB, "do", line="bearing Guerriere D")
        # the Base Movement Point Table, read from both bearings
        assert "Constitution has 5 MP" in t.public() and "Guerriere has 2 MP" in t.public()
        await t.ok(ANN, "do", line="impulses Constitution 6")
        await t.ok(BOB, "do", line="impulses Guerriere 6")
        await t.ok(EVE, "do", line="next")
        assert f"Turn {turn}: Activation Cycle" in t.public()
        if turn == 1:
            mark = len(fake.requests)
            sealed = await t.ok(ANN, "order", line=f"maneuver Constitution {first}")
            assert f"Constitution: {first}" in sealed.content
            await t.ok(BOB, "order", line=f"maneuver Guerriere {second}")
        # in turn 2 the blocks chosen after turn 1's reveal start the cycle ("if not already selected")
        public = "\n".join(r.content for r in fake.requests[mark:] if r.in_channel)
        assert f"Constitution: {first}" not in public and f"Guerriere: {second}" not in public
        await t.ok(EVE, "do", line="next")
        revealed = [r.content for r in fake.requests[mark:] if r.in_channel and "Revealed:" in r.content]
        assert len(revealed) == 1 and f"Revealed: Constitution: {first}; Guerriere: {second}" in revealed[0]
        if turn == 1:
            # "Select Maneuver (if not 12th Impulse)": each ship chooses its next block after its reveal
            mark = len(fake.requests)
            await t.ok(ANN, "order", line="maneuver Constitution straight")
            await t.ok(BOB, "order", line="maneuver Guerriere turn-starboard")
    info = await bot.service.referee.info(1)
    assert (info.turn, info.phase) == (2, "activation")
    looked = await t.send(BOB, "rules", None, table="base_movement", row="C", column="A")
    assert looked.ephemeral and looked.content.startswith("**Base Movement Point Table**, "), looked.content


async def test_rules_table_outside_a_game_names_the_system(harness: Any) -> None:
    bot, fake = harness
    t = Table(bot, fake)
    looked = await t.send(ANN, "rules", None, table="fire_base", row="1", column="1", system="wsim")
    assert looked.ephemeral and looked.content == "**Fire Base**, guns 1, range 1: 2", looked.content
    # a clean cell that looks odd answers as printed, naming the line of the play aid's text it is printed on
    odd = await t.send(ANN, "rules", None, table="carronades", row="2", column="4", system="wsim")
    assert odd.content.startswith("**Carronades**, carronades 2, range 4: 1 (as printed on line 22 of the play aid's "
                                  "text: WS&IM's own carronades reach 2 (Basic) or 3 (Advanced) hexes"), odd.content
    refused = await t.send(ANN, "rules", None, table="fire_base", row="1")
    assert refused.content.startswith("❌") and "system:" in refused.content
    unknown = await t.send(ANN, "rules", None, table="nothing", row="1", system="wsim")
    assert "There is no table" in unknown.content


async def test_an_uploaded_setup_and_a_bad_one(harness: Any) -> None:
    bot, fake = harness
    t = Table(bot, fake)
    bad = fake.attach("setup.toml", b'players = ["Only"]\n[[ship]]\nid = "X"\n')
    refused = await t.send(ANN, "game", "create", attachments={"file": bad}, system="captains_sea", thread=True)
    assert refused.ephemeral and refused.content.startswith("❌") and "two players" in refused.content
    assert not any("/threads" in r.path for r in fake.requests)  # checked before a thread was made
    assert await bot.service.lobby.game_in_channel(str(GUILD_ID), str(CHANNEL_ID)) is None
    text = builtin_setups("captains_sea")["frigate_duel"].replace("Constitution and Guerriere", "Our duel")
    good = fake.attach("setup.toml", text.encode())
    created = await t.send(ANN, "game", "create", attachments={"file": good}, system="captains_sea")
    assert "**Our duel**" in created.content and "Captain's Sea" in created.content
    # Oak & Iron's commands point to /ref in this channel; /game list lists the game
    status = await t.send(ANN, "game", "status")
    assert status.ephemeral and "/ref" in status.content
    listed = await t.send(ANN, "game", "list")
    assert "Our duel" in listed.content


async def test_a_seat_is_handed_over_with_a_member_option(harness: Any) -> None:
    """`/ref handover member:` carries the member as Discord sends a USER option (its id in the
    option, the user and the partial member in `resolved`); the channel reads who holds the seat now,
    and a seat that is not yours is refused privately."""
    bot, fake = harness
    t = Table(bot, fake)
    await t.start("wsim", {ANN: "British", BOB: "French", EVE: "Umpire"})
    dan = (4444, "dan")
    refused = await dispatch(bot, command(BOB, "ref", "handover", members={"member": dan}, seat="British"), fake)
    answer = last_followup(refused)
    assert answer.ephemeral and answer.content.startswith("❌") and "not yours" in answer.content
    done = last_followup(await dispatch(bot, command(ANN, "ref", "handover", members={"member": dan}), fake))
    assert done.ephemeral and "Handed over" in done.content and "British: <@4444>" in done.content
    assert "The seat of British is handed to dan." in t.public()
    assert "You hold no seat" in (await t.send(ANN, "ref", "do", line="roll 2d6")).content


async def test_a_sheet_whose_image_fails_still_answers_with_its_text(harness: Any, monkeypatch: Any) -> None:
    """The drawing is a worker's job: should it fail, the private answer is the sheet's text alone."""
    import importlib

    # the module discord.py loaded as the extension (it replaces the one a plain import made)
    cog = importlib.import_module("bot.cogs.referee")

    async def broken(sheet: Any) -> tuple[bytes, str]:
        raise RuntimeError("the worker died")

    bot, fake = harness
    t = Table(bot, fake)
    await t.start("wsim", {ANN: "British", BOB: "French", EVE: "Umpire"})
    monkeypatch.setattr(cog, "render_sheet_async", broken)
    ship = await t.ok(ANN, "ship", ship="Victory")
    assert "Left broadside: roundshot, initial broadside" in ship.content.splitlines() and not ship.files


async def test_a_printed_table_uploaded_once_for_the_server(harness: Any) -> None:
    """`/ref table-entry file:` as a GM enters WS&IM's Fire Results Table for the server (a member who is not a GM
    is refused), `/ref table-entry` shows it, `/rules` answers with it naming who entered it, and a file that
    disagrees with a legible cell of the play aid's text is refused naming the cell and both values."""
    import discord

    bot, fake = harness
    t = Table(bot, fake)
    body = 'table = "fire_results"\n[cells]\n"20" = { hull = "2H1C", rigging = "1R" }\n"21" = ["2H", "1R1C", 3]\n'
    gm = {"permissions": discord.Permissions(manage_guild=True).value}
    refused = await t.send(BOB, "ref", "table-entry", attachments={"file": fake.attach("frt.toml", body.encode())},
                           system="wsim")
    assert refused.ephemeral and refused.content.startswith("❌") and "Only a GM" in refused.content
    entered = await t.send(ANN, "ref", "table-entry", attachments={"file": fake.attach("frt.toml", body.encode())},
                           system="wsim", **gm)
    assert entered.ephemeral and entered.content.startswith("✅ Entered for this server: the Fire Results Table, "
                                                            "4 cell(s)"), entered.content
    shown = await t.send(BOB, "ref", "table-entry", system="wsim")
    assert "Fire Results Table (`fire_results`): 4 cell(s), by Ann" in shown.content
    looked = await t.send(BOB, "rules", None, table="fire_results", row="21", column="rigging", system="wsim")
    assert looked.content == "**Fire Results Table**, FFN 21, column rigging: 1R1C (this server's entry by Ann)"
    wrong = body.replace("1R1C\", 3]", "1R1C\", 4]")
    bad = await t.send(ANN, "ref", "table-entry", attachments={"file": fake.attach("frt.toml", wrong.encode())},
                       system="wsim", **gm)
    assert bad.content.startswith("❌") and "row 21, column critical: the play aid's text reads 3, the file 4" in bad.content
    big = fake.attach("frt.toml", b"#" * 60_000)
    too_big = await t.send(ANN, "ref", "table-entry", attachments={"file": big}, system="wsim", **gm)
    assert too_big.content.startswith("❌") and "too large" in too_big.content
    # a game started afterwards answers with the server's entries
    await t.start("wsim", {ANN: "British", BOB: "French", EVE: "Umpire"})
    looked = await t.send(EVE, "rules", None, table="fire_results", row="20", column="hull")
    assert looked.content.endswith("2H1C (this server's entry by Ann)"), looked.content
    # in the game's channel its referee enters a table for this game alone, and everyone reads the account
    mine = 'table = "fire_results"\n[cells]\n"20" = { hull = "3H" }\n'
    not_referee = await t.send(ANN, "ref", "table-entry", attachments={"file": fake.attach("frt.toml", mine.encode())})
    assert not_referee.content.startswith("❌") and "Only the referee" in not_referee.content
    done = await t.send(EVE, "ref", "table-entry", attachments={"file": fake.attach("frt.toml", mine.encode())})
    assert done.content == "✅ Entered for this game."
    assert "The referee enters the printed Fire Results Table: 1 cell(s)." in t.public()
    looked = await t.send(BOB, "rules", None, table="fire_results", row="20", column="hull")
    assert looked.content.endswith("3H (entered by the referee from the printed copy)"), looked.content

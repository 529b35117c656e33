"""Issue 16: in a referee-assistant game a sealed order is read by its owner only, until it is
revealed: the opponent, a spectator and a member without a seat who holds the GM role learn nothing
of it from the channel, their answers (the log, a ship's log, the status, refusals of their own
attempts to touch it) or autocomplete, and nobody can overwrite it by naming its owner."""

from __future__ import annotations

from tests.adversary.eyes import ANN, BOB, EVE, GUS, SEEDS, Table, answer_text
from tests.adversary.test_sweep import make_gm_role

SECRET = "L1R1"  # Redoutable's plot: a text nothing else in the game prints


async def sealed_game(t: Table) -> int:
    """WS&IM: Bob plays the French, Ann the British, the referee's seat is Gus-free (a stranger's)."""
    await make_gm_role(t)
    assert "is set up" in answer_text(await t.cmd(ANN, "game", "create", system="wsim"))
    await t.cmd(ANN, "ref", "join", seat="British")
    await t.cmd(BOB, "ref", "join", seat="French")
    umpire = (444444444444444444, "Uma")
    await t.cmd(umpire, "ref", "join", seat="Umpire")
    await t.cmd(umpire, "ref", "do", line="next")  # A's wind rolled; B and C have nothing to do: D
    mark = t.mark()
    sealed = answer_text(await t.cmd(BOB, "ref", "order", line=f"plot Redoutable {SECRET}"))
    assert SECRET in sealed  # the owner reads it back
    return mark


async def test_nobody_else_reads_a_sealed_plot(table: Table) -> None:
    t = table
    mark = await sealed_game(t)
    for user in (ANN, EVE, GUS):
        await t.cmd(user, "ref", "log")
        await t.cmd(user, "ref", "ship", ship="Redoutable")
        await t.cmd(user, "ref", "status")
        await t.cmd(user, "ref", "order", line="plot Redoutable 1")  # not theirs
        await t.cmd(user, "ref", "do", line="French: plot Redoutable 2")  # a spoofed owner
        await t.cmd(user, "ref", "do", line="reveal Redoutable")
        await t.cmd(user, "ref", "undo")
        await t.complete(user, "ref", "ship", "ship", "Red")
        for item in t.received(user, mark, lookups=True):
            assert not item.has(SECRET), (user[1], item.kind, item.text[:300])
            assert not item.has(SEEDS[0]), (user[1], item.kind)
    # the plot stands as Bob sealed it: Ann's order reveals both together
    reveal = mark
    await t.cmd(ANN, "ref", "order", line="plot Victory 1")
    public = [i.text for i in t.public(reveal) if "Revealed:" in i.text]
    assert len(public) == 1 and f"Redoutable: {SECRET}" in public[0] and "Victory: 1" in public[0]


async def test_the_service_answers_each_viewer_their_own_view(table: Table) -> None:
    t = table
    await sealed_game(t)
    from game.service.authority import Actor
    from tests.bot.fake_discord import GUILD_ID

    ref = t.bot.service.referee
    bob, ann, eve = (Actor(str(u[0]), str(GUILD_ID)) for u in (BOB, ANN, EVE))
    assert (await ref.view(bob, 1)).orders.order("Redoutable").text == SECRET
    for actor in (ann, eve):
        assert (await ref.view(actor, 1)).orders.order("Redoutable").text is None
        assert not any(SECRET in line for line in await ref.log(actor, 1, 200))


async def test_nobody_else_reads_a_ships_loads_or_its_double_shot(table: Table) -> None:
    """Issue 24: the ship log showed the opponent the loading flag beside the hidden load. Ann loads
    double shot on Victory's left (two Load Phases: half loaded until the next); Bob, Eve and Gus ask
    for Victory's sheet and read no load and no flag in the text, the image or its alt text."""
    t = table
    await sealed_game(t)
    umpire = (444444444444444444, "Uma")
    await t.cmd(ANN, "ref", "order", line="plot Victory 1")  # the plots are revealed
    await t.cmd(umpire, "ref", "do", line="next")  # F and G skipped: H
    await t.cmd(ANN, "ref", "do", line="fire Victory left Redoutable range 2")  # empties the left
    await t.cmd(umpire, "ref", "do", line="hits 1 1H")
    await t.cmd(umpire, "ref", "do", line="next")  # I skipped: J (Redoutable, hit, may still begin a repair)
    mark = t.mark()
    await t.cmd(ANN, "ref", "do", line="load Victory left DS")
    own = await t.cmd(ANN, "ref", "ship", ship="Victory")
    # the owner's answer says it, in the text, the attachment's description and the image drawn
    drawn = "\n".join("\n".join(t.drawn.texts[bytes(png)]) for _, png in own.files)
    for said in (own.content, own.payload["attachments"][0]["description"], drawn):
        assert "double shot half loaded" in said, said
    for user in (BOB, EVE, GUS):
        answer = await t.cmd(user, "ref", "ship", ship="Victory")
        assert answer.files and "? (secret)" in answer.content  # the sheet was sent, with the loads hidden
        for item in t.received(user, mark):
            for secret in ("double shot", "half loaded", "roundshot", "initial broadside", "Loaded this turn"):
                assert not item.has(secret), (user[1], secret, item.kind, item.text[:300])
    from game.service.authority import Actor
    from tests.bot.fake_discord import GUILD_ID

    seen = await t.bot.service.referee.view(Actor(str(BOB[0]), str(GUILD_ID)), 1)
    assert {(b.load, b.ds_loading) for b in seen.ship("Victory").broadsides} == {("?", False)}


async def test_the_load_phase_completing_a_double_shot_tells_nobody_else(table: Table) -> None:
    """Double shot takes two Load Phases: the second completes it with no order from the owner. Were
    that told to the others ("Victory works its left broadside" with nobody loading, or Victory's
    "loaded this turn" set in their view), they would know it had been half loaded: the flag the
    view hides. Ann's own log says it; Bob's, Eve's and Gus's say nothing of it."""
    from game.service.authority import Actor
    from tests.bot.fake_discord import GUILD_ID

    t = table
    await sealed_game(t)
    umpire = (444444444444444444, "Uma")
    await t.cmd(ANN, "ref", "order", line="plot Victory 1")
    await t.cmd(umpire, "ref", "do", line="next")  # F and G skipped: H
    await t.cmd(ANN, "ref", "do", line="fire Victory left Redoutable range 2")
    await t.cmd(umpire, "ref", "do", line="hits 1 1H")
    await t.cmd(umpire, "ref", "do", line="next")  # I skipped: J (Redoutable, hit, may still begin a repair)
    await t.cmd(ANN, "ref", "do", line="load Victory left DS")
    await t.cmd(umpire, "ref", "do", line="next")  # K skipped, then A, B and C: the next turn's plots
    await t.cmd(BOB, "ref", "order", line="plot Redoutable 0")
    await t.cmd(ANN, "ref", "order", line="plot Victory 0")
    await t.cmd(umpire, "ref", "do", line="next")  # F and G skipped: H
    mark = t.mark()
    await t.cmd(umpire, "ref", "do", line="next")  # I skipped; J: the Load Phase completes the double shot
    ref = t.bot.service.referee
    assert ((await ref.info(1)).turn, (await ref.info(1)).phase) == (2, "J")
    ann = Actor(str(ANN[0]), str(GUILD_ID))
    assert any("Victory loads double shot on the left" in line for line in await ref.log(ann, 1, 5))
    assert (await ref.view(ann, 1)).ship("Victory").loaded_this_turn
    for user in (BOB, EVE, GUS):
        await t.cmd(user, "ref", "log")
        await t.cmd(user, "ref", "ship", ship="Victory")
        for item in t.received(user, mark):
            for told in ("works its left", "double shot", "Loaded this turn"):
                assert not item.has(told), (user[1], told, item.kind, item.text[:300])
        seen = (await ref.view(Actor(str(user[0]), str(GUILD_ID)), 1)).ship("Victory")
        assert not seen.loaded_this_turn and {(b.load, b.ds_loading) for b in seen.broadsides} == {("?", False)}

"""Issue 7's done-when, through the bot: two players build 100-point squadrons with /squadron, set up
a drafted game with terrain through /setup (with a private deployment preview), and play it to a result."""

from __future__ import annotations

from typing import Any

from bot.app import QuarterdeckBot
from game.ai.captain import Captain
from game.commands import (
    AddTerrain,
    ChooseRole,
    Command,
    Deploy,
    Draft,
    FinishStep,
    PlaceTerrain,
)
from game.model import Phase
from game.notation import format_command
from game.phases.flow import deciders
from tests.bot.fake_discord import FakeDiscord, command, dispatch
from tests.bot.test_bot import ANN, BOB, act_as, announcement, last_followup

HAND = ("Down!", "Careful Aim", "Take Courage", "Effective Fire", "Reload!", "Favorable Wind", "Adjust Position")
DUTCH = ("Zeeland", "Dutch", "Cornelis Evertsen the Youngest", [
    ("Zeven Provincien", "Fourth Rate", 1, ""), ("Zeelandia", "Fifth Rate", 2, "Additional Guns"),
    ("Vlissingen", "Fifth Rate", 0, ""), ("Brak", "Sixth Rate", 0, "Weatherly"), ("Hazewind", "Fluyt", 0, "Stout"),
])
ENGLISH = ("Channel", "English", "John Benbow", [
    ("Lion", "Fourth Rate", 1, ""), ("Hart", "Fifth Rate", 1, "Additional Guns"), ("Kite", "Fifth Rate", 0, "Swift"),
    ("Dove", "Sixth Rate", 1, "Weatherly"), ("Swallow", "Brigantine", 0, ""),
])


async def build(bot: QuarterdeckBot, fake: FakeDiscord, user: tuple[int, str], spec: Any) -> str:
    name, faction, admiral, ships = spec
    sent = await dispatch(bot, command(user, "squadron", "new", name=name, size="skirmish", faction=faction,
                                       admiral=admiral), fake)
    assert "Hand (0/7): empty" in last_followup(sent).content
    for ship, cls, skill, options in ships:
        sent = await dispatch(bot, command(user, "squadron", "ship", squadron=name, name=ship, skill=skill,
                                           options=options or None, **{"class": cls}), fake)
    answer = last_followup(sent).content
    assert answer.startswith(f"**{name}**") and "Still to fix" in answer and "hand is 5 + admiral value = 7" in answer
    for card in HAND:
        sent = await dispatch(bot, command(user, "squadron", "hand", squadron=name, card=card), fake)
    sent = await dispatch(bot, command(user, "squadron", "check", squadron=name), fake)
    return last_followup(sent).content


SETUP_VERBS = {ChooseRole: "role", Draft: "draft", AddTerrain: "terrain", PlaceTerrain: "place", FinishStep: "finish",
               Deploy: "deploy"}


def setup_options(cmd: Command) -> dict[str, Any]:
    if isinstance(cmd, ChooseRole):
        return {"role": cmd.role}
    if isinstance(cmd, Draft):
        return {"card": cmd.card}
    if isinstance(cmd, AddTerrain):
        return {"kind": cmd.kind}
    if isinstance(cmd, PlaceTerrain):
        return {"piece": cmd.piece, "x": float(cmd.x), "y": float(cmd.y), "rotation": float(cmd.rotation)}
    if isinstance(cmd, Deploy):
        return {"ship": cmd.ship, "x": float(cmd.x), "y": float(cmd.y), "heading": float(cmd.heading)}
    return {}


async def test_two_built_squadrons_set_up_a_drafted_game_and_play_it_to_a_result(harness: Any) -> None:
    bot, fake = harness
    service = bot.service
    # a mistake first: a captain on the Flagship is named as a fault, then corrected
    await dispatch(bot, command(ANN, "squadron", "new", name="Zeeland", size="skirmish", faction="Dutch",
                                admiral="Cornelis Evertsen the Youngest"), fake)
    sent = await dispatch(bot, command(ANN, "squadron", "ship", squadron="Zeeland", name="Zeven Provincien",
                                       captain="Bold Captain", **{"class": "Fourth Rate"}), fake)
    assert "no captain there" in last_followup(sent).content
    assert "✅ Legal" in await build(bot, fake, ANN, DUTCH)
    summary = await build(bot, fake, BOB, ENGLISH)
    assert "✅ Legal" in summary and "97/100 points" in summary
    sent = await dispatch(bot, command(ANN, "squadron", "list"), fake)
    assert "Zeeland** — Dutch skirmish, 5 ships, 100 pts" in last_followup(sent).content

    sent = await dispatch(bot, command(ANN, "game", "create", scenario="drafted", size="skirmish"), fake)
    assert "saved squadrons" in announcement(sent).content
    sent = await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    assert "join with one of your saved squadrons" in last_followup(sent).content  # a drafted game needs a list
    await dispatch(bot, command(ANN, "game", "join", side="A", squadron="Zeeland"), fake)
    sent = await dispatch(bot, command(BOB, "game", "join", side="B", squadron="Channel"), fake)
    assert "the set-up begins" in last_followup(sent).content
    assert any("Objective:" in t for t in fake.public_texts())
    assert not any("Reload!" in t for t in fake.public_texts())  # the hands stay secret

    users = {"A": ANN, "B": BOB}
    captains = {p: Captain(p, 5) for p in "AB"}
    previewed = False
    for _ in range(600):
        state = await service.reading.state_for_audit(1)
        due = deciders(state)
        if not due:
            break
        player = sorted(due)[0]
        user = users[player]
        cmd = captains[player].act(state)
        if type(cmd) in SETUP_VERBS:
            if isinstance(cmd, Deploy) and not previewed:
                opts = setup_options(cmd)
                sent = await dispatch(bot, command(user, "setup", "deploy", preview=True, **opts), fake)
                answer = last_followup(sent)
                assert answer.ephemeral and "a legal deployment" in answer.content and answer.files
                sent = await dispatch(bot, command(user, "setup", "deploy", **{**opts, "y": 18.0}), fake)
                assert "not wholly inside the deployment zone" in last_followup(sent).content
                previewed = True
            sent = await dispatch(bot, command(user, "setup", SETUP_VERBS[type(cmd)], **setup_options(cmd)), fake)
        else:
            sent = await act_as(bot, fake, user, cmd, state)
        reply = last_followup(sent).content
        assert not reply.startswith(("⚠️", "❌")), (format_command(cmd), reply)
    state = await service.reading.state_for_audit(1)
    assert previewed and state.prep is not None and state.prep.step == "done"
    assert state.table.terrain, "the drafted settings put terrain on the table"
    assert state.phase is Phase.OVER and state.winner in ("A", "B"), state.result
    assert (await service.audit.check(1)).ok
    assert any("deployment zone" in t or "deploys at" in t for t in fake.public_texts())

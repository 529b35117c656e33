"""Issue 22, finding 4 and property 3: consent to an undo comes from someone else. A member seated on
both teams of a fleet battle (A1 and B1) asks to undo and may not then consent to it through their
B1 seat; their own teammate may not either; the other member of team B, or a GM, may."""

from __future__ import annotations

from game import events as ev
from game.ai.captain import Captain
from game.model import Game, Phase
from game.phases.flow import deciders
from tests.adversary.eyes import ANN, BOB, GUS, Table, answer_text
from tests.adversary.test_sweep import make_gm_role

DAN = (444444444444444444, "Dan")
FLEET = {"A1": ANN, "B1": ANN, "A2": BOB, "B2": DAN}  # Ann holds a squadron on each team


async def fleet_battle_after_a_move(t: Table) -> Game:
    """The four squadrons pick; the first ship to move makes a move that rolls nothing (undoable)."""
    await make_gm_role(t)
    await t.cmd(ANN, "game", "create", scenario="fleet_battle")
    for side, user in FLEET.items():
        assert "Seated" in answer_text(await t.cmd(user, "game", "join", side=side))
    captains = {p: Captain(p, 3) for p in FLEET}
    for _ in range(60):
        state = await t.state()
        if (state.phase is Phase.MOVEMENT and state.active_player and state.pending is None
                and state.offer is None and not state.choices):
            break
        player = sorted(deciders(state))[0]
        await t.submit(FLEET[player], captains[player].act(state))
    else:
        raise AssertionError("the Movement Phase never came")
    player = state.active_player
    assert player is not None
    ship = state.ships_of(player)[0].id
    assert answer_text(await t.cmd(FLEET[player], "order", line=f'move "{ship}" hold')).startswith("✅")
    return state


async def test_the_asker_on_both_teams_never_consents_to_their_own_undo(table: Table) -> None:
    t = table
    await fleet_battle_after_a_move(t)
    mark = t.mark()
    assert "Asked" in answer_text(await t.cmd(ANN, "game", "undo"))
    asked = (await t.state()).undo_request
    assert asked is not None and asked[0] == "A1"
    version = await t.version()
    refused = await t.cmd(ANN, "game", "approve-undo")
    answer = answer_text(refused)
    assert refused.ephemeral and answer == ("❌ You asked for this undo, so the consent cannot be your own. A player "
                                            "on the other team who did not ask (player B2) or a GM may consent."), answer
    # her teammate on A2 is no more the other side than she is
    answer = answer_text(await t.cmd(BOB, "game", "approve-undo"))
    assert answer == ("❌ Only a player on the other team who did not ask (player B2) or a GM may consent to "
                      "player A1's undo."), answer
    assert await t.version() == version
    assert not [e for e in await t.log_events() if isinstance(e, ev.StateRestored)]
    # and the channel was told who may consent, not "the opponent"
    assert ("Player A1 asks to take back the last activation; a player on the other team who did not ask (or a GM) "
            "may consent with /game approve-undo.") in t.seen_by(DAN, mark)


async def test_the_other_member_of_team_b_consents(table: Table) -> None:
    t = table
    before = await fleet_battle_after_a_move(t)
    assert "Asked" in answer_text(await t.cmd(ANN, "game", "undo"))
    assert answer_text(await t.cmd(DAN, "game", "approve-undo")).startswith("↩️")
    restored = [e for e in await t.log_events() if isinstance(e, ev.StateRestored)]
    assert [e.reason for e in restored] == ["undone with player B2's consent"]
    state = await t.state()
    assert state.ships == before.ships and state.activation == before.activation


async def test_a_gm_consents_and_the_log_says_it_was_a_gm(table: Table) -> None:
    t = table
    await fleet_battle_after_a_move(t)
    assert "Asked" in answer_text(await t.cmd(ANN, "game", "undo"))
    assert answer_text(await t.cmd(GUS, "game", "approve-undo")).startswith("↩️")
    restored = [e for e in await t.log_events() if isinstance(e, ev.StateRestored)]
    assert [(e.reason, e.by) for e in restored] == [("undone with a GM's consent ({by}) at player A1's request",
                                                     str(GUS[0]))]  # the member as data, no markup stored
    posted = "\n".join(i.text for i in t.public())  # and the channel is told as before
    assert f"(undone with a GM's consent (<@{GUS[0]}>) at player A1's request)" in posted, posted

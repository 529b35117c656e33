"""The service and the views where the bot adds nothing: at every step of whole games, what each player
and a spectator may see (their view, each event as redacted for them, the service's answers) holds
no card they may not know, no seed, no position in the dice stream and no event deck."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from game import events as ev
from game.ai.captain import Captain
from game.ai.match import MAX_COMMANDS
from game.commands import Enlist
from game.phases.flow import deciders
from game.phases.preparation import drafted_game
from game.rules_data import load_rules
from game.scenario import load_scenario_text
from game.service.game_service import Actor
from game.squadron import random_squadron
from game.table_session import TableSession
from game.views import event_for, view_of
from tests.adversary.eyes import ANN, BOB, Table, assert_view_keeps_secrets, hidden_cards, strings_in
from tests.bot.fake_discord import GUILD_ID
from tests.helpers import S, scenario_text

HANDS = {"A": ["Await New Orders", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position"],
         "B": ["Await New Orders", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind"]}
SHIPS = [S("Lion", "Fourth Rate", 15, 18, 0, "A"), S("Otter", "Sloop", 19, 18, 0, "B"),
         S("Hoorn", "Sloop", 19, 14, 0, "B")]
BORROWING = scenario_text(SHIPS, test_dice=False, flagships={"B": "Otter"}, hands=HANDS)
# with three cards each, the computer captains come to play Await New Orders
SHORT = scenario_text(SHIPS, test_dice=False, flagships={"B": "Otter"},
                      hands={p: cards[:3] for p, cards in HANDS.items()})


def check_everyone(session: TableSession, new_events: list[Any]) -> None:
    state = session.state
    for viewer in (*state.players, None):
        assert_view_keeps_secrets(view_of(state, viewer), state, session.events)
        hidden = hidden_cards(state, session.events, [viewer] if viewer else [])
        for e in new_events:
            shown = event_for(e, viewer)
            leaked = hidden & set(strings_in(shown))
            assert not leaked, f"{type(e).__name__} shows {sorted(leaked)} to {viewer or 'a spectator'}"
            assert not getattr(shown, "event_deck", ()), "the event deck's order reached a player"


def watched(session: TableSession, until_turn: int = 99) -> TableSession:
    """Computer captains play on (to the end, or past that turn); every player's and a spectator's view
    is checked after each command."""
    captains = {p: Captain(p, 7, session.rules) for p in session.state.players}
    for _ in range(MAX_COMMANDS):
        due = deciders(session.state)
        if not due or session.state.turn > until_turn:
            return session
        before = len(session.events)
        session.submit(captains[sorted(due)[0]].act(session.state))
        check_everyone(session, session.events[before:])
    raise AssertionError("the game did not end")


def test_another_players_borrow_choice_shows_none_of_their_hand() -> None:
    """Await New Orders offers the rest of its owner's hand; before the fix every view carried it."""
    t = TableSession(load_scenario_text(BORROWING))
    for line in ("pick A Careful Aim", "pick B Await New Orders", "pick A Effective Fire"):
        t.submit_line(line)
    events = t.submit_line("pick B Reload!")
    choice = t.state.choices[0]
    assert (choice.player, choice.kind, choice.options) == ("B", "borrow", ("Take Courage", "Fleet Maneuver",
                                                                            "Favorable Wind"))
    check_everyone(t, events)
    assert view_of(t.state, "B").game.choices[0].options == choice.options  # its owner chooses from them


def test_ai_games_show_nobody_a_secret_at_any_step() -> None:
    rules = load_rules()
    borrowed = 0
    for seed in (1, 2, 3):
        session = watched(TableSession(replace(load_scenario_text(SHORT), seed=seed), rules))
        assert session.state.winner
        borrowed += sum(1 for e in session.events if isinstance(e, ev.ChoicesSet)
                        and any(c.kind == "borrow" for c in e.choices))
    assert borrowed  # Await New Orders was played: its choice was checked too


def test_a_drafted_game_shows_nobody_the_event_deck_or_a_hand() -> None:
    """The set-up draws the secret event deck; QD_LONG=1 checks every turn of the game."""
    rules = load_rules()
    a = random_squadron(3, "patrol", rules, faction="Dutch")
    b = random_squadron(4, "patrol", rules, faction="English")
    session = TableSession(drafted_game(a.size, 5), rules)
    session.submit(Enlist("A", a))
    session.submit(Enlist("B", b))
    long = bool(os.environ.get("QD_LONG"))
    watched(session, until_turn=99 if long else 2)  # by default the set-up and two turns
    assert session.state.winner or not long
    assert any(isinstance(e, ev.SetupCardsDrawn) and e.event_deck for e in session.events)


async def test_the_service_answers_each_player_from_their_own_view(table: Table) -> None:
    service = table.service
    ann, bob = (Actor(str(u[0]), str(GUILD_ID)) for u in (ANN, BOB))
    info = await service.lobby.create_game(ann, "1", scenario="borrow", scenario_text=BORROWING)
    await service.lobby.join(ann, info.id, "A", "Ann")
    await service.lobby.join(bob, info.id, "B", "Bob")
    for actor, line in ((ann, "pick A Careful Aim"), (bob, "pick B Await New Orders"), (bob, "pick B Reload!")):
        await service.commands.submit(actor, info.id, line)
    outcome = await service.commands.submit(ann, info.id, "pick A Effective Fire")  # Ann's pick brings B's choice
    state = await service.reading.state_for_audit(info.id)
    assert state.choices and state.choices[0].player == "B"
    log = [e for _, _, e in await service.store.repo.events(info.id)]
    hidden = hidden_cards(state, log, ["A"])
    assert hidden >= {"Take Courage", "Fleet Maneuver", "Favorable Wind"}
    assert not hidden & set(strings_in(outcome.events)), "Ann's own answer"
    assert not hidden & set(strings_in(outcome.view))
    assert not hidden & set(strings_in(await service.reading.view(ann, info.id)))
    assert not hidden & set(strings_in(await service.reading.log(ann, info.id, 100)))
    spectator = Actor("333", str(GUILD_ID))
    assert not hidden_cards(state, log, []) & set(strings_in(await service.reading.view(spectator, info.id)))
    assert "Take Courage" in set(strings_in(await service.reading.view(bob, info.id)))


async def test_an_undo_restores_each_players_own_view(table: Table) -> None:
    """StateRestored carries a whole state: whoever gets it (the approver's answer, anyone's /log) gets
    it as their own view, without the other side's hand or face-down card."""
    service = table.service
    ann, bob = (Actor(str(u[0]), str(GUILD_ID)) for u in (ANN, BOB))
    info = await service.lobby.create_game(ann, "1")
    await service.lobby.join(ann, info.id, "A", "Ann")
    await service.lobby.join(bob, info.id, "B", "Bob")
    for actor, line in ((ann, "pick A Down!"), (bob, "pick B Take Courage"), (ann, "pick A Careful Aim"),
                        (bob, "pick B Reload!")):
        await service.commands.submit(actor, info.id, line)
    state = await service.reading.state_for_audit(info.id)
    mover, other = (ann, bob) if state.active_player == "A" else (bob, ann)
    await service.commands.submit(mover, info.id, f'move "{state.ships_of(state.active_player or "A")[0].id}"')
    await service.undo.request(mover, info.id)
    outcome = await service.undo.approve(other, info.id)
    assert any(isinstance(e, ev.StateRestored) for e in outcome.events)
    state = await service.reading.state_for_audit(info.id)
    log = [e for _, _, e in await service.store.repo.events(info.id)]
    for actor, players in ((ann, ["A"]), (bob, ["B"]), (Actor("333", str(GUILD_ID)), [])):
        hidden = hidden_cards(state, log, players)
        assert hidden, players
        assert not hidden & set(strings_in(await service.reading.log(actor, info.id, 100))), players
    approver = ["A"] if other is ann else ["B"]
    assert not hidden_cards(state, log, approver) & set(strings_in(outcome.events))

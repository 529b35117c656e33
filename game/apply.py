"""apply(state, event) -> state. Never checks a rule, never rolls a die."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from game import events as ev
from game.model import Game, LandingParty, Phase, Status
from game.model import evolve as replace


def _ship(state: Game, ship_id: str, **changes: Any) -> Game:
    return state.with_ship(replace(state.ship(ship_id), **changes))


def _squadron(state: Game, player: str, **changes: Any) -> Game:
    return state.with_squadron(replace(state.squadron(player), **changes))


def _phase_began(s: Game, e: ev.PhaseBegan) -> Game:
    return replace(s, phase=e.phase, turn=e.turn, activated=frozenset(), activation=None)


def _card_picked(s: Game, e: ev.CardPicked) -> Game:
    q = s.squadron(e.player)
    hand = list(q.hand)
    if e.card is not None and e.card in hand:
        hand.remove(e.card)
    return _squadron(s, e.player, hand=tuple(hand), face_down=e.card, picked=True)


def _cards_revealed(s: Game, e: ev.CardsRevealed) -> Game:
    for player, card in e.cards:
        s = _squadron(s, player, face_up=card, face_down=None, picked=False)
    return s


def _initiative(s: Game, e: ev.InitiativeWon) -> Game:
    return replace(s, initiative=e.player)


def _rerolled(s: Game, e: ev.DiceRerolled) -> Game:
    p = s.pending
    if p is None:
        return s
    if e.means == "fortune":
        p = replace(p, faces=e.faces, fortune_used=True, skill_rerolled=())
    else:
        p = replace(p, faces=e.faces, skill_rerolled=tuple(sorted(set(p.skill_rerolled) | set(e.positions))))
    return replace(s, pending=p)


def _activation_step(s: Game, e: ev.ActivationStep) -> Game:
    a = s.activation
    if a is None:
        return s
    return replace(
        s,
        activation=replace(
            a,
            step=e.step,
            speed_adjust=e.speed_adjust,
            cut_free=e.cut_free,
            speed_limit=e.speed_limit,
        ),
    )


def _activation_ended(s: Game, e: ev.ActivationEnded) -> Game:
    return replace(s, activation=None, activated=s.activated | {e.ship})


def _moved(s: Game, e: ev.ShipMoved) -> Game:
    x, y, h = e.path[-1]
    return _ship(s, e.ship, x=x, y=y, heading=h)


def _track(s: Game, e: ev.TrackChanged) -> Game:
    return _ship(s, e.ship, **{e.track: e.total})


def _status_gained(s: Game, e: ev.StatusGained) -> Game:
    return _ship(s, e.ship, statuses=s.ship(e.ship).statuses | {e.status})


def _status_lost(s: Game, e: ev.StatusLost) -> Game:
    return _ship(s, e.ship, statuses=s.ship(e.ship).statuses - {e.status})


def _reload(s: Game, e: ev.ReloadMarker) -> Game:
    r = s.ship(e.ship).reload
    return _ship(s, e.ship, reload=(r | {e.side}) if e.present else (r - {e.side}))


def _entangle(s: Game, e: ev.EntanglementChanged) -> Game:
    for a, b in ((e.ship, e.other), (e.other, e.ship)):
        w = s.ship(a).entangled_with
        s = _ship(s, a, entangled_with=(w | {b}) if e.entangled else (w - {b}))
    return s


def _flag(s: Game, e: ev.FlagTransferred) -> Game:
    return _squadron(s, e.player, flagship=e.to_ship)


def _landing(s: Game, e: ev.LandingPartyChanged) -> Game:
    return _ship(s, e.ship, landing_parties=tuple(LandingParty(x, y, on) for x, y, on in e.parties))


def _returned(s: Game, e: ev.CardsReturned) -> Game:
    return _squadron(s, e.player, hand=e.hand, discards=e.discards, face_up=None, borrowed=None)


def _strike(s: Game, e: ev.StrikePointsCounted) -> Game:
    return replace(s, strike_points=e.points)


def _ended(s: Game, e: ev.GameEnded) -> Game:
    return replace(s, winner=e.winner, result=e.reason, phase=Phase.OVER, active_player=None, activation=None)


def _scrolled(s: Game, e: ev.TableScrolled) -> Game:
    ships = tuple(replace(x, x=x.x + e.dx, y=x.y + e.dy) if x.on_table else x for x in s.ships)
    outlines = dict(e.terrain)
    terrain = tuple(replace(t, points=outlines.get(t.id, t.points)) for t in s.table.terrain)
    return replace(s, ships=ships, table=replace(s.table, terrain=terrain))


def _officer_lost(s: Game, e: ev.OfficerLost) -> Game:
    if e.officer == "admiral":
        return _squadron(s, e.player, admiral="", admiral_value=0, admiral_lost=True)
    return _ship(s, e.ship, captain="")


def _admiral_assigned(s: Game, e: ev.AdmiralAssigned) -> Game:
    return _squadron(s, e.player, flagship=e.ship, admiral=e.admiral, admiral_value=e.value, admiral_lost=False)


_HANDLERS: dict[type, Callable[[Game, Any], Game]] = {
    ev.PhaseBegan: _phase_began,
    ev.ActivePlayer: lambda s, e: replace(s, active_player=e.player),
    ev.CardPicked: _card_picked,
    ev.CardsRevealed: _cards_revealed,
    ev.EventCardDrawn: lambda s, e: replace(
        s, event_face_up=e.card, event_deck=s.event_deck[1:] if e.card else s.event_deck
    ),
    ev.InitiativeWon: _initiative,
    ev.DiceRolled: lambda s, e: s,
    ev.DiceRerolled: _rerolled,
    ev.RollAwaitsChoice: lambda s, e: replace(s, pending=e.pending),
    ev.RollSettled: lambda s, e: replace(s, pending=None),
    ev.FortuneSpent: lambda s, e: _squadron(s, e.player, fortune=e.left),
    ev.ActivationBegan: lambda s, e: replace(s, activation=e.activation),
    ev.ActivationStep: _activation_step,
    ev.ActivationEnded: _activation_ended,
    ev.SeamanshipDone: lambda s, e: s,
    ev.ShipMoved: _moved,
    ev.Collided: lambda s, e: s,
    ev.TrackChanged: _track,
    ev.StatusGained: _status_gained,
    ev.StatusLost: _status_lost,
    ev.SailChanged: lambda s, e: _ship(s, e.ship, sail=e.sail),
    ev.ReloadMarker: _reload,
    ev.EntanglementChanged: _entangle,
    ev.WakeMarker: lambda s, e: _ship(s, e.ship, wake=e.present),
    ev.FlagTransferred: _flag,
    ev.LandingPartyChanged: _landing,
    ev.OrderHalted: lambda s, e: s,
    ev.CardsReturned: _returned,
    ev.StrikePointsCounted: _strike,
    ev.GameEnded: _ended,
    ev.OfferMade: lambda s, e: replace(s, offer=e.offer),
    ev.OfferClosed: lambda s, e: replace(s, offer=None),
    ev.ChoicesSet: lambda s, e: replace(s, choices=e.choices),
    ev.ControlChanged: lambda s, e: _ship(s, e.ship, controller=e.controller),
    ev.OfficerLost: _officer_lost,
    ev.AdmiralAssigned: _admiral_assigned,
    ev.EffectBorrowed: lambda s, e: _squadron(s, e.player, borrowed=e.card),
    ev.AttackResolved: lambda s, e: s,
    ev.HandTrimmed: lambda s, e: _squadron(s, e.player, hand=e.hand),
    ev.UndoRequested: lambda s, e: replace(s, undo_request=(e.player, e.before_seq)),
    ev.ActedFor: lambda s, e: s,
    ev.SeatHandedOver: lambda s, e: s,  # seats are the service's: the log only remembers
    ev.ClockChanged: lambda s, e: s,  # the clock is the service's too
    ev.StateRestored: lambda s, e: e.state,
    ev.EventDiscarded: lambda s, e: replace(s, event_face_up=None),
    ev.WeatherEdgeChanged: lambda s, e: replace(s, table=replace(s.table, weather_edge=e.edge)),
    ev.TableScrolled: _scrolled,
}


# ---------------------------------------------------------------- the chapter-7 set-up


def _prep(s: Game, **changes: Any) -> Game:
    assert s.prep is not None
    return replace(s, prep=replace(s.prep, **changes))


def _enlisted(s: Game, e: ev.SquadronEnlisted) -> Game:
    player = e.squadron.player
    ships = tuple(x for x in s.ships if x.owner != player) + e.ships
    return replace(s.with_squadron(e.squadron), ships=ships)


def _drawn(s: Game, e: ev.SetupCardsDrawn) -> Game:
    return _prep(replace(s, objective=e.objective, event_deck=e.event_deck), offered=e.offered)


def _role(s: Game, e: ev.RoleChosen) -> Game:
    return _prep(replace(s, defender=e.defender), attacker=e.attacker)


def _drafted(s: Game, e: ev.CardDrafted) -> Game:
    assert s.prep is not None
    offered = tuple(c for c in s.prep.offered if c != e.card)
    s = _prep(s, offered=offered, drafted=(*s.prep.drafted, (e.player, e.deck, e.card)))
    return _squadron(s, e.player, advantage=e.card) if e.deck == "advantage" else s


def _terrain_placed(s: Game, e: ev.TerrainPlaced) -> Game:
    prep = s.prep
    t = e.terrain
    placed = [x for x in s.table.terrain if x.id != t.id]
    s = replace(s, table=replace(s.table, terrain=(*placed, t)))
    if prep is None or prep.step == "done":
        return s  # a card's piece, placed during the battle
    if e.adjusted:
        return _prep(s, adjusted=(*prep.adjusted, t.id))
    return _prep(s, pool=tuple(p for p in prep.pool if p.id != t.id))


def _terrain_removed(s: Game, e: ev.TerrainRemoved) -> Game:
    assert s.prep is not None
    return _prep(s, pool=tuple(p for p in s.prep.pool if p.id != e.piece), removed=(*s.prep.removed, e.piece))


def _deployed(s: Game, e: ev.ShipDeployed) -> Game:
    ship = s.ship(e.ship)
    return _ship(s, e.ship, x=e.x, y=e.y, heading=e.heading, statuses=ship.statuses - {Status.UNDEPLOYED})


_HANDLERS.update({
    ev.SquadronEnlisted: _enlisted,
    ev.SetupCardsDrawn: _drawn,
    ev.SetupStep: lambda s, e: _prep(s, step=e.step, to_act=e.to_act),
    ev.RoleChosen: _role,
    ev.CardDrafted: _drafted,
    ev.DraftDiscarded: lambda s, e: _prep(s, offered=()),
    ev.FortuneGained: lambda s, e: _squadron(s, e.player, fortune=e.total),
    ev.TerrainAdded: lambda s, e: _prep(s, pool=(*s.prep.pool, e.piece)) if s.prep else s,
    ev.TerrainPlaced: _terrain_placed,
    ev.TerrainRemoved: _terrain_removed,
    ev.AdjustPassed: lambda s, e: _prep(s, passed=(*s.prep.passed, e.player)) if s.prep else s,
    ev.ShipDeployed: _deployed,
    ev.EffectUsed: lambda s, e: _ship(s, e.ship, used=(*s.ship(e.ship).used, e.tag)),
})


def apply(state: Game, event: Any) -> Game:
    if isinstance(event, ev.StateRestored):
        # the dice position goes back too, so an undone roll comes up the same when replayed
        return event.state
    new = _HANDLERS[type(event)](state, event)
    if state.undo_request is not None and not isinstance(event, ev.UndoRequested):
        new = replace(new, undo_request=None)
    return replace(new, log_position=state.log_position + 1)


def apply_all(state: Game, events: Iterable[Any]) -> Game:
    for e in events:
        state = apply(state, e)
    return state


def replay(initial: Game, events: Iterable[Any]) -> Game:
    """Rebuild a state from its starting point and its whole event log."""
    return apply_all(initial, events)


def _ensure_every_event_handled() -> None:
    missing = [name for name, cls in ev.EVENTS.types.items() if cls not in _HANDLERS]
    if missing:
        raise RuntimeError(f"apply has no handler for {missing}")


_ensure_every_event_handled()

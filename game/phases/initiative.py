"""Initiative Phase: reveal, who has the initiative, the secret pick for next turn."""

from __future__ import annotations

from game import effects
from game import events as ev
from game.commands import PickCard
from game.context import Decision
from game.errors import IllegalAction, UnknownName
from game.model import Choice, Game, Phase
from game.phases.common import nothing_waiting, owes_pick, require_phase, skill_dice, take_fatigue

CHALLENGE_ROUNDS = 100  # a tie after this many rounds is vanishingly rare; the defender then wins


def card_value(ctx: Decision, card: str | None) -> int:
    if card is None:
        return 0
    return ctx.rules.card(card).value


def pick_card(ctx: Decision, cmd: PickCard) -> None:
    nothing_waiting(ctx.state)
    require_phase(ctx.state, Phase.SETUP, Phase.INITIATIVE)
    try:
        q = ctx.state.squadron(cmd.player)
    except KeyError:
        raise UnknownName(
            f"There is no player {cmd.player!r} in this game.", f"Players: {', '.join(ctx.state.players)}."
        ) from None
    if q.picked:
        raise IllegalAction(
            f"Player {cmd.player} has already chosen a card face down this turn.",
            "The choice stands until the reveal.",
        )
    if q.hand and not owes_pick(ctx.state, cmd.player):
        raise IllegalAction(
            f"Player {cmd.player} has no ship left that can act: a squadron wholly Captured or Out of Action "
            "plays no initiative card.",
            "Its pick is made for it (no card) when the other squadrons pick.",
        )
    if cmd.card not in q.hand:
        raise IllegalAction(
            f"{cmd.card!r} is not in player {cmd.player}'s initiative hand.",
            f"Choose one of: {', '.join(q.hand)}.",
        )
    ctx.emit(ev.CardPicked(cmd.player, cmd.card))
    auto_pick_empty_hands(ctx)
    if not all(s.picked for s in ctx.state.squadrons):
        return
    if ctx.state.phase is Phase.SETUP:
        begin_turn(ctx, 1)
    else:
        ctx.flow.after_picks(ctx)


def auto_pick_empty_hands(ctx: Decision) -> None:
    """No card for a squadron that owes none (an empty hand, or wholly Captured or Out of Action)."""
    for q in ctx.state.squadrons:
        if not q.picked and not owes_pick(ctx.state, q.player):
            ctx.emit(ev.CardPicked(q.player, None))


def begin_turn(ctx: Decision, turn: int) -> None:
    """Steps 1 of the Initiative Phase: reveal and decide the initiative. Picks follow."""
    ctx.emit(ev.PhaseBegan(Phase.INITIATIVE, turn))
    ctx.emit(ev.ActivePlayer(None))
    state = ctx.state
    ctx.emit(ev.CardsRevealed(tuple((q.player, q.face_down) for q in state.squadrons)))
    leaders = _card_leaders(ctx)
    if len(leaders) == 1:
        _settle(ctx, leaders[0], "card")
        return
    ctx.emit(ev.EventCardDrawn(state.event_deck[0] if state.event_deck else None))
    drawn = ctx.state.event_face_up
    chooser = _event_chooser(ctx, leaders)
    if drawn is not None and chooser is not None:
        # a Tactician looks at the card first and may discard it for the next (`event keep|discard`)
        ctx.emit(ev.ChoicesSet((Choice(chooser, "event_draw", drawn, ("keep", "discard")),)))
        return
    continue_tie(ctx)


def _card_leaders(ctx: Decision) -> list[str]:
    """The sides with the highest revealed cards. In a fleet battle each side adds up its squadrons'."""
    state = ctx.state
    values = {t: sum(card_value(ctx, state.squadron(p).face_up) for p in state.players_of(t)) for t in state.teams}
    best = max(values.values())
    return [t for t, v in values.items() if v == best]


def _event_chooser(ctx: Decision, leaders: list[str]) -> str | None:
    """A squadron of a tied side whose Flagship carries an officer who may look at the event drawn."""
    for team in leaders:
        for p in ctx.state.players_of(team):
            flag = ctx.state.flagship_of(p)
            if flag is not None and flag.can_act and effects.first(ctx.state, flag, "event_choice", ctx.rules):
                return p
    return None


def event_choice(ctx: Decision, choice: Choice, answer: str) -> None:
    if answer not in ("keep", "discard"):
        raise IllegalAction(f"The event {choice.ship} is kept or discarded.", "Answer event keep or event discard.")
    if answer == "discard":
        ctx.emit(ev.EventDiscarded(choice.ship))
        state = ctx.state
        ctx.emit(ev.EventCardDrawn(state.event_deck[0] if state.event_deck else None))


def continue_tie(ctx: Decision) -> None:
    """A tie after the event card: an instant event acts, then admiral values, then a Challenge Test."""
    resolve_instant_event(ctx)
    leaders = _card_leaders(ctx)
    admirals = {
        t: sum(ctx.state.squadron(p).admiral_value + effects.admiral_bonus(ctx.state, p, ctx.rules)
               for p in ctx.state.players_of(t))
        for t in leaders
    }
    top = max(admirals.values())
    leaders = [t for t in leaders if admirals[t] == top]
    if len(leaders) == 1:
        _settle(ctx, leaders[0], "admiral")
        return
    first = {ctx.state.players_of(t)[0]: t for t in leaders}
    _settle(ctx, first[challenge_test(ctx, list(first))], "challenge")


def _settle(ctx: Decision, winner: str, reason: str) -> None:
    ctx.emit(ev.InitiativeWon(winner, reason))
    auto_pick_empty_hands(ctx)
    if all(q.picked for q in ctx.state.squadrons):
        ctx.flow.after_picks(ctx)


def challenge_test(ctx: Decision, players: list[str]) -> str:
    """Each Flagship rolls a Skill Test; most sails and swords wins, then higher Skill, then again."""
    state: Game = ctx.state
    for _ in range(CHALLENGE_ROUNDS):
        scores = {}
        for p in players:
            flag = state.flagship_of(p)
            n = skill_dice(flag) if flag else 5
            faces = ctx.roll(n, "challenge_test", "challenge_test", p, flag.id if flag else "")
            scores[p] = ctx.successes("challenge_test", faces)
        top = max(scores.values())
        leaders = [p for p in players if scores[p] == top]
        if len(leaders) == 1:
            return leaders[0]
        skills = {p: (f.skill if (f := state.flagship_of(p)) else 0) for p in leaders}
        best = max(skills.values())
        leaders = [p for p in leaders if skills[p] == best]
        if len(leaders) == 1:
            return leaders[0]
        players = leaders
    return state.defender or players[0]


CLOCKWISE = ("N", "E", "S", "W")


def resolve_instant_event(ctx: Decision) -> None:
    """An 'instant' event acts at once and is discarded; a 'turn' event stays face up."""
    card = ctx.state.event_face_up
    if card is None or card not in ctx.rules.events:
        return
    for e in effects.event_on_draw(ctx.state, ctx.rules):
        action, amount = e.get("action"), int(e.get("amount", 1))
        if action == "remove_fatigue":
            for s in ctx.state.ships:
                if s.can_act and s.fatigue:
                    take_fatigue(ctx, s.id, -amount)
        elif action == "take_fatigue":
            for q in ctx.state.squadrons:
                flag = ctx.state.flagship_of(q.player)
                if flag is not None and flag.can_act:
                    take_fatigue(ctx, flag.id, amount)
        elif action == "shift_wind":
            edge = ctx.state.table.weather_edge
            steps = int(e.get("steps", 1))
            ctx.emit(ev.WeatherEdgeChanged(CLOCKWISE[(CLOCKWISE.index(edge) + steps) % 4]))
    if ctx.rules.events[card].duration == "instant":
        ctx.emit(ev.EventDiscarded(card))

"""One line of plain English per event, for logs and chat. Never names a face-down card."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from game import events as ev
from game import roll_text
from game.names import member, moment, prose
from game.names import text as named

if TYPE_CHECKING:
    from game.model import Game
    from game.rules_data import RulesData

_STEPS = {"role": "attacker or defender", "draft": "drafting", "select": "terrain pool", "place": "placing terrain",
          "adjust": "adjusting terrain", "deploy": "deployment"}


def account(e: Any) -> str:
    match e:
        case ev.PhaseBegan(phase=phase, turn=0):
            return "— The set-up is done: each player chooses a first initiative card —"
        case ev.PhaseBegan(phase=phase, turn=turn):
            return f"— Turn {turn}: {phase.value.title()} Phase —"
        case ev.SquadronEnlisted(squadron=q, ships=ships):
            return f"Player {q.player} brings {named(q.name)} ({named(q.faction)}, {len(ships)} ships, Flagship {named(q.flagship)})."
        case ev.SetupCardsDrawn(objective=objective, offered=offered):
            return f"Objective: {named(objective) if objective else 'none'}. Drawn to draft: {_all(offered)}."
        case ev.SetupStep(step=step, to_act=p) if p:
            return f"Set-up — {_STEPS.get(step, step)}: player {p} to act."
        case ev.RoleChosen(attacker=a, defender=d):
            return f"Player {a} is the attacker, player {d} the defender."
        case ev.CardDrafted(player=p, deck=deck, card=card):
            return f"Player {p} drafts the {deck} card {named(card)}."
        case ev.DraftDiscarded(cards=cards):
            return f"Discarded: {_all(cards)}." if cards else ""
        case ev.FortuneGained(player=p, total=n, card=card):
            return f"{named(card)}: player {p} now has {n} Fortune Points."
        case ev.TerrainAdded(piece=piece):
            return f"Player {piece.owner} adds a {piece.kind.value.replace('_', ' ')} ({named(piece.id)}) to the pool."
        case ev.TerrainPlaced(terrain=t, adjusted=adjusted):
            xs, ys = [p[0] for p in t.points], [p[1] for p in t.points]
            verb = "moved to" if adjusted else "placed at"
            return f"{named(t.id)} {verb} ({sum(xs) / len(xs):.1f}, {sum(ys) / len(ys):.1f})."
        case ev.TerrainRemoved(piece=piece, reason=reason):
            return f"{named(piece)} is removed from the game: {reason}."
        case ev.AdjustPassed(player=p):
            return f"Player {p} is done adjusting terrain."
        case ev.ShipDeployed(ship=ship, x=x, y=y, heading=h):
            return f"{named(ship)} deploys at ({x:g}, {y:g}) heading {h:g}°."
        case ev.ActivePlayer(player=p):
            return f"Player {p} to act." if p else ""
        case ev.CardPicked(player=p):
            return f"Player {p} has chosen an initiative card face down."
        case ev.CardsRevealed(cards=cards):
            return "Revealed: " + ", ".join(f"{p}: {named(c) if c else 'no card'}" for p, c in cards)
        case ev.EventCardDrawn(card=card):
            return f"Tie: event card drawn: {named(card)}." if card else "Tie: no event deck, the draw is ignored."
        case ev.EffectBorrowed(player=p, card=card):
            return f"Player {p} uses the effect of {named(card)} this turn."
        case ev.EventDiscarded(card=card):
            return f"The event {named(card)} is over."
        case ev.TableScrolled(dx=dx, dy=dy):
            return f"Scrolling Sea: everything on the table moves ({dx:+.1f}, {dy:+.1f})."
        case ev.WeatherEdgeChanged(edge=edge):
            return f"The wind shifts: it now blows from the {edge}."
        case ev.InitiativeWon(player=p, reason=reason):
            why = {"card": "higher card", "admiral": "higher admiral value", "challenge": "Challenge Test"}[reason]
            return f"Player {p} has the initiative ({why})."
        case ev.DiceRolled():
            return roll_text.dice_line(e)
        case ev.DiceRerolled():
            return roll_text.reroll_line(e)
        case ev.RollAwaitsChoice():
            return roll_text.awaits_line(e)
        case ev.RollSettled():
            return roll_text.settled_line(e)
        case ev.AttackResolved():
            return roll_text.attack_line(e) + _why_nothing(e)
        case ev.FortuneSpent(player=p, left=left):
            return f"Player {p} spends a Fortune Point ({left} left)."
        case ev.ActivationBegan(activation=a, speed_rating=rating, speed_limited_by=why):
            speed = f"speed {a.speed if rating is None else rating}" + (f" ({why})" if why else "")
            if a.point_of_sail.value == "winds_eye":
                speed = "In the Wind's Eye"
            return f"{named(a.ship)} activates: {a.point_of_sail.value.replace('_', ' ')}, {speed}."
        case ev.SeamanshipDone(ship=ship, action=action, passed=passed):
            return f"{named(ship)}: {action} {'succeeds' if passed else 'fails'}."
        case ev.ShipMoved(ship=ship, path=path, reason=reason, stopped_by=hit):
            x, y, h = path[-1]
            stop = f", stopped by {named(hit)}" if hit else ""
            return f"{named(ship)} {reason.replace('_', ' ')} to ({x:.2f}, {y:.2f}) heading {h:.0f}°{stop}."
        case ev.Collided(ship=ship, other=other, kind=kind):
            return f"{named(ship)} collides with {named(other)}" + (" (land!)" if kind == "land" else "") + "."
        case ev.TrackChanged(ship=ship, track=track, amount=amount, total=total):
            verb = "takes" if amount > 0 else "removes"
            return f"{named(ship)} {verb} {abs(amount)} {track} (now {total})."
        case ev.StatusGained(ship=ship, status=s):
            return f"{named(ship)} is now {s.value.replace('_', ' ')}."
        case ev.StatusLost(ship=ship, status=s):
            return f"{named(ship)} is no longer {s.value.replace('_', ' ')}."
        case ev.SailChanged(ship=ship, sail=sail):
            return f"{named(ship)} sail setting: {sail.value}."
        case ev.ReloadMarker(ship=ship, side=side, present=present):
            return f"{named(ship)} {'takes a' if present else 'removes its'} reload marker ({side.value})."
        case ev.EntanglementChanged(ship=a, other=b, entangled=yes):
            return f"{named(a)} and {named(b)} are {'Entangled' if yes else 'no longer Entangled'}."
        case ev.FlagTransferred(from_ship=a, to_ship=b):
            return f"The Admiral moves from {named(a)} to {named(b)}."
        case ev.LandingPartyChanged(ship=ship, parties=parties):
            return f"{named(ship)} has {len(parties)} landing party token(s) ashore."
        case ev.OrderHalted(ship=ship, message=msg):
            return f"{named(ship)}'s order stops here: {prose(msg)}"  # a rules error, worded around raw names
        case ev.CardsReturned(player=p):
            return f"Player {p}'s initiative card is returned."
        case ev.StrikePointsCounted(points=points):
            return "Strike Points: " + ", ".join(f"{p} {n}" for p, n in points)
        case ev.GameEnded(winner=w, reason=reason):
            return f"Game over: {'player ' + w if w else 'no one'} wins ({reason})."
        case ev.ActedFor(player=p, by=by, kind="stand-in", reason=why):
            return f"{member(by)} gives player {p}'s next order ({said(why, e)})."
        case ev.ActedFor(player=p, kind="override", reason=why):
            return f"⚠️ {said(why, e)}: player {p} is still within their deadline; the GM acts for them."
        case ev.ActedFor(player=p, by=by, reason=why):
            return f"A GM ({member(by)}) gives player {p}'s next order ({said(why, e)})."
        case ev.SeatHandedOver(player=p, before=before, to=to, by=by):
            return f"🔁 Side {p} changes hands: {named(to)} plays it from now on (was {named(before)}; handed over by {member(by)})."
        case ev.ClockChanged(change=change, by=by, detail=detail):
            return f"⏱️ Clock ({change}{', by ' + member(by) if by else ''}): {said(detail, e)}"
        case ev.StateRestored(reason=why):
            return f"↩️ The last activation is taken back ({said(why, e)})."
        case ev.UndoRequested(player=p):
            return (f"Player {p} asks to take back the last activation; a player on the other team who did not ask "
                    "(or a GM) may consent with /game approve-undo.")
    return ""


# the places in an event's stored wording where the members and the time its fields hold are said
_MEMBERS = ("by", "away", "substitute")


def said(words: str, e: Any) -> str:
    """An event's stored wording (a reason, a clock's detail) with the members and the time its fields
    name put in as tokens: the log stores `{by}`, `{away}`, `{substitute}`, `{until}`, never markup or
    a token. Wording stored before these fields existed has none of them and reads as it was stored."""
    for field in _MEMBERS:
        who = getattr(e, field, "")
        if who:
            words = words.replace("{" + field + "}", member(who))
    until = getattr(e, "until", "")
    if not until:
        return words
    try:
        return words.replace("{until}", moment(until))
    except (ValueError, OverflowError):  # a log file from elsewhere: its text is a name, not a time
        return words.replace("{until}", named(until))


def _all(cards: tuple[str, ...] | list[str]) -> str:
    return ", ".join(named(c) for c in cards)


def overrides_line(events: Iterable[Any], most: int = 10) -> str:
    """The GM overrides of a whole game, said again in its game-over post: who acted for which player
    within their deadline, and in which turn. Empty when there were none."""
    turn = 0
    seen: dict[str, None] = {}
    for e in events:
        if isinstance(e, ev.PhaseBegan):
            turn = e.turn
        elif isinstance(e, ev.ActedFor) and e.kind == "override":
            seen[f"{member(e.by)} for player {e.player} ({f'turn {turn}' if turn else 'before turn 1'})"] = None
    if not seen:
        return ""
    lines = list(seen)
    more = f" and {len(lines) - most} more (see the log)" if len(lines) > most else ""
    return f"⚠️ GM overrides in this game: {', '.join(lines[:most])}{more}."




# ---------------------------------------------------------------- what no single event says


def _why_nothing(e: ev.AttackResolved) -> str:
    """Why a hull attack that hit did no damage or gave no Fatigue, from the event's own fields: the
    rule that held it back (the event does not say which ship was Small or which card was face up)."""
    if not e.hits or e.aim != "hull" or e.kind == "close" or (e.damage and e.fatigue):
        return ""
    why = []
    if not e.damage:
        small = " (a Small ship's counts as 2 at Cannon Shot)" if e.band == "cannon" else ""
        harmless = "; a Partial Fire from Small Arms or Heavy Musket Volley does none" if e.kind == "partial" else ""
        why.append(f"no damage: each point of damage takes as many hits as the target's Fortitude{small}{harmless}")
    if not e.fatigue:
        why.append("no Fatigue: a card such as Down! takes off the first Fatigue of each attack, and a ship at 7 "
                   "takes no more")
    text = "; ".join(why)
    return f" {text[0].upper()}{text[1:]}."


def account_lines(events: Sequence[Any], game: Game | None = None, rules: RulesData | None = None) -> list[str]:
    """The account of a batch of events (one command's), a line each, with the lines no single event
    carries: a ship that passes or holds, and, given the state after the batch and the rules, an
    on-reveal card that found nothing to do. Events are never added for these: words only."""
    out: list[str] = []
    for i, e in enumerate(events):
        line = account(e)
        if line:
            out.append(line)
        if isinstance(e, ev.ActivationEnded):
            out += _idle_activation(events[:i], e)
        elif isinstance(e, ev.PhaseBegan) and e.phase.value == "movement" and game is not None and rules is not None:
            out += _reveals_without_effect(events[:i], game, rules)
    return out


_QUIET_STEPS = (ev.ActivationStep, ev.WakeMarker, ev.ActivePlayer)


def _idle_activation(before: Sequence[Any], end: ev.ActivationEnded) -> list[str]:
    """An Attack Phase activation with no attack is a pass; a Movement one in which the ship neither
    moved nor acted is a hold. Told only when the batch shows the whole activation."""
    ship = end.ship
    if end.phase.value == "attack":
        for e in reversed(before):
            if isinstance(e, ev.AttackResolved) and e.ship == ship:
                return []
            if isinstance(e, ev.PhaseBegan) or isinstance(e, ev.ActivationEnded) and e.ship != ship:
                break  # the activation before this one: no attack of this ship since
        return [f"{named(ship)} passes: no attack this turn."]
    if end.phase.value == "movement":
        for e in reversed(before):
            if isinstance(e, ev.ActivationBegan) and e.activation.ship == ship:
                return [f"{named(ship)} holds where it is."]
            if not isinstance(e, _QUIET_STEPS):
                return []
    return []


# on-reveal actions a player would see nothing of when they find nothing to do, and what they look for
_REVEAL_WANTS = {"remove_fatigue": "Fatigue to remove", "remove_reload": "a reload marker to remove"}
_SCOPE_WORDS = {"formation": "in Formation", "near_flagship": "near the Flagship", "own_ships": ""}


def _reveals_without_effect(before: Sequence[Any], game: Game, rules: RulesData) -> list[str]:
    """The face-up cards whose on-reveal effect found nothing to do, and why: said once the picks
    for the next turn are made (when they act), from the state after and the events of the batch."""
    from game import effects  # the account is read by front ends that need no effect interpreter otherwise

    window = list(before)
    picks = [i for i, e in enumerate(window) if isinstance(e, ev.CardPicked)]
    if not picks:
        return []  # the batch does not hold the moment the cards act
    window = window[picks[-1]:]
    out = []
    for q in game.squadrons:
        card = q.borrowed or q.face_up
        found = rules.cards.get(card or "")
        if found is None:
            continue
        for effect in found.effects:
            action = str(effect.get("action", ""))
            scope = str(effect.get("scope", "own_ships"))
            if effect.get("kind") != "on_reveal" or action not in _REVEAL_WANTS or scope not in _SCOPE_WORDS \
                    or "requires" in effect or "condition" in effect:
                continue
            mine = {s.id for s in game.ships_of(q.player)}
            if any(_acted(e, action, mine) for e in window):
                continue
            where = _SCOPE_WORDS[scope]
            ships = [s for s in game.ships_of(q.player) if s.can_act and effects.in_scope(game, s, effect, rules)]
            who = f"player {q.player}'s ships" + (f" {where}" if where else "")
            why = (f"no ship of player {q.player} is {where}" if where and not ships
                   else f"none of {who} has {_REVEAL_WANTS[action]}")
            out.append(f"{named(found.name)} (player {q.player}) does nothing: {why}.")
    return out


def _acted(e: Any, action: str, mine: set[str]) -> bool:
    if action == "remove_fatigue":
        return isinstance(e, ev.TrackChanged) and e.track == "fatigue" and e.amount < 0 and e.ship in mine
    return isinstance(e, ev.ReloadMarker) and not e.present and e.ship in mine

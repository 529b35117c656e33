"""The tutorial's hints: one short line for each step of a guided first game's first turn (a scenario
with `tutorial = true`, docs/first-game.md), posted under the board.

A hint is read from the learner's own view and from the options the board post already shows for
them (game/options.py): it can tell nothing the learner could not see, so never the computer captain's
hidden card. The board post is public, so what the learner's cards do (from the card data) is told
with the private menu of their hand instead (`hand_hint`). After turn 1 the hints stop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from game import events as ev
from game.model import Game, Phase
from game.options import Option, Options
from game.phases.common import owes_pick
from game.rules_data import RulesData

LAST_TURN = 1  # the turn the hints guide; from the next one the learner plays alone
ON_YOUR_OWN = "💡 You're on your own now — `/options` shows what you can do, `/rules` explains a term."
PATH = "A broadside path is the strip beside a ship's side where its guns can hit."


def learner(game: Game) -> str:
    """The side the tutorial teaches: its first squadron (the computer captain plays the rest)."""
    return game.players[0]


def hint(seen: Game, options: Sequence[Options], events: Sequence[Any], rules: RulesData) -> str:
    """The hint for a board post of a tutorial game, or "": `seen` is the learner's own view, `options`
    what the post shows for each player it waits for, `events` what the post tells."""
    if not seen.tutorial:
        return ""
    if any(isinstance(e, ev.PhaseBegan) and e.turn == LAST_TURN + 1 for e in events):
        return ON_YOUR_OWN  # once: with the post that opens turn 2
    if seen.turn > LAST_TURN or seen.phase is Phase.OVER:
        return ""
    me = learner(seen)
    mine = next((o for o in options if o.player == me), None)
    if mine is None:
        return ""  # the computer captain's step: it acts at once
    if seen.pending is not None and seen.pending.player == me:
        return _roll_hint(seen, me)
    if seen.offer is not None or seen.choices:
        return ""  # a rare decision: its own prompt says what to do
    if owes_pick(seen, me):
        return _pick_hint(seen)
    if seen.phase is Phase.MOVEMENT:
        return _movement_hint(seen, me, mine, rules)
    if seen.phase is Phase.ATTACK:
        return _attack_hint(mine)
    return ""


def _card(name: str, rules: RulesData) -> str:
    card = rules.cards.get(name)
    return f"{name} ({card.value}: {card.text.rstrip('.')})" if card else name


def _pick_hint(seen: Game) -> str:
    # the hand stays private even here (a spectator may not learn it): the menu's answer lists it
    if seen.phase is Phase.SETUP:
        return ("💡 Tutorial, step 1: press Choose initiative card; the menu only you see lists your cards and "
                "what each does. Choose one face down. The higher card takes the initiative: its side moves "
                "and fires first this turn, and the card's effect lasts the turn.")
    return ("💡 Tutorial: before the turn is played, each side already chooses its card for the next turn, face "
            "down: press Choose initiative card again.")


def hand_hint(seen: Game, player: str, rules: RulesData) -> str:
    """For the learner alone, with the menu of their hand: what each card does, from the card data."""
    if not seen.tutorial or player != learner(seen) or seen.turn > LAST_TURN or not owes_pick(seen, player):
        return ""
    cards = "; ".join(_card(c, rules) for c in seen.squadron(player).hand)
    soon = "this turn" if seen.phase is Phase.SETUP else "next turn"
    return (f"💡 Tutorial: your cards, for {soon}: {cards}. A high value wins the initiative; a low one may "
            "have the better effect.")


def _your_card(seen: Game, me: str, rules: RulesData) -> str:
    played = seen.squadron(me).face_up
    return f" Your card this turn: {_card(played, rules)}." if played else ""


def _movement_hint(seen: Game, me: str, mine: Options, rules: RulesData) -> str:
    moves = [o for o in mine.items if o.order]
    if not moves:
        return ""
    ships = list(dict.fromkeys(o.ship for o in moves if o.ship))
    closing = next((o for o in moves if o.text.startswith("to bring guns to bear")), None)
    if seen.activation is not None:
        pick = moves[0]
        why = "finish it" if pick.order.startswith("done") else "move it"
        return f"💡 Tutorial: {pick.ship}'s activation is under way: {why} with `/order line: {pick.order}`."
    if closing is not None:
        pick = closing
        why = f"it turns and brings a loaded broadside to bear ({_bearing(closing.text)})"
    else:
        pick = _best_plain(moves)
        why = f"{_plain_words(pick)}"
    others = [s for s in ships if s != pick.ship]
    if others:
        what = (f"💡 Tutorial: move one ship at a time, taking turns with the computer captain; ships still to "
                f"move: {', '.join(ships)}. Suggested: {pick.ship} first")
    else:
        what = f"💡 Tutorial: your last ship to move is {pick.ship}"
    rest = f" Then move {', '.join(others)}." if others else ""
    return (f"{what}, `/order line: {pick.order}` (or pick it in the menu below): {why}.{rest} "
            f"{PATH}{_your_card(seen, me, rules)}")


def _bearing(text: str) -> str:
    """What a closing move's option says lies in a path after it: "port path: Otter 10.0" (Cannon Shot)"."""
    return text.split("` (", 1)[1].removesuffix(")") if "` (" in text else "see the menu"


def _best_plain(moves: list[Option]) -> Option:
    """A ship whose broadside path already holds an enemy first, else the first ship."""
    return next((o for o in moves if "path:" in o.text), moves[0])


def _plain_words(option: Option) -> str:
    if option.order.split() != ["move", option.ship] and option.order != f'move "{option.ship}"':
        return option.text  # held in the wind's eye, anchored, entangled: the option says what it may do
    if "path:" in option.text:
        return f"it sails straight on; {option.text.split('; ', 1)[-1]}"
    return f"it sails straight on ({option.text})"


def _attack_hint(mine: Options) -> str:
    shots = [o for o in mine.items if o.order and not o.order.startswith("pass")]
    if not shots:
        idle = next((o for o in mine.items if o.order.startswith("pass")), None)
        if idle is None:
            return ""
        return (f"💡 Tutorial: {idle.ship} has no enemy in a broadside path within range: pass with "
                f"`/order line: {idle.order}`.")
    best = max(shots, key=_dice)  # the first of the most dice: each ship's shots come best first
    cannon = " At Cannon Shot only 💥 cannon and 💀 skull faces hit." if "Cannon Shot" in best.text else ""
    reload = " A side that fires a Broadside must reload before it fires again." if "Broadside" in best.text else ""
    return (f"💡 Tutorial: fire! {best.ship}: {best.text}. Give it with `/order line: {best.order}` or "
            f"`/attack`.{cannon}{reload}")


def _dice(option: Option) -> int:
    found = re.search(r"(\d+) dic?e$", option.text)
    return int(found[1]) if found else 0


def _roll_hint(seen: Game, me: str) -> str:
    left = seen.squadron(me).fortune
    pending = seen.pending
    if pending is None or pending.fortune_used or left <= 0:
        return "💡 Tutorial: keep the roll with the Keep the roll button: play goes on."
    return (f"💡 Tutorial: keep the roll, or spend a Fortune Point to re-roll every die once (you have {left} for "
            "the whole game: save them for the rolls that matter most).")

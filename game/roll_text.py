"""How rolls read in the account: a test shows what it needs, its faces, its successes and its
result; an attack counts hits; a critical, collision, shoal, sinking or officer die names its
effect; a re-roll offer says exactly what the roller may still do."""

from __future__ import annotations

from collections.abc import Sequence

from game import events as ev
from game.model import Game, PendingRoll
from game.names import text as named

ATTACK_LABEL = {"broadside": "Broadside", "partial": "Partial Fire", "close": "Close Combat"}
TEST_LABEL = {"seamanship": "Seamanship Action", "boarding": "Boarding", "repair_aground": "Repair (refloat)",
              "card_test": "card test"}
BAND_LABEL = {"yard_arm": "Yard Arm", "pistol": "Pistol Shot", "musket": "Musket Shot", "cannon": "Cannon Shot"}


def faces_text(faces: Sequence[str]) -> str:
    return " ".join(f"[{f}]" for f in faces)


def count(n: int, words: str) -> str:
    """`1 die`, `2 dice`, `0 successes`, `2 more dice`: the last word agrees with the number."""
    head, _, word = words.rpartition(" ")
    if n != 1:
        word = {"success": "successes", "die": "dice"}.get(word, word + "s")
    return f"{n} {head + ' ' if head else ''}{word}"


def is_attack(kind: str) -> bool:
    return kind.startswith(("hit_", "close_combat")) or kind in ("rigging", "crew", "fog_beyond_cannon")


def _test_label(purpose: str) -> str:
    base, _, note = purpose.partition(" (")
    label = TEST_LABEL.get(base, base.replace("_", " "))
    return f"{label} ({note}" if note else label


def _needed(kind: str, needed: int) -> int:
    # logs written before tests kept their target: a Skill Test passes on one success
    return needed or (1 if kind == "skill_test" else 0)


def _test_result(successes: int, need: int) -> str:
    return f"{count(successes, 'success')}: {'passed' if successes >= need else 'failed'}"


def critical_effect(faces: Sequence[str]) -> str:
    """What a critical check's faces do (docs/rulings.md, critical escalation)."""
    skulls, sails, swords = (sum(1 for f in faces if f == k) for k in ("skull", "sail", "sword"))
    out = []
    if skulls:
        out.append("1 damage" if skulls == 1 else f"{skulls} skulls: damage and Crippled (Out of Action if "
                                                 "Crippled already)")
    if sails:
        out.append("Sail Setting down" if sails == 1 else f"{sails} sails: Sail Setting down and Aground")
    if swords:
        out.append("1 Fatigue" if swords == 1 else f"{swords} swords: 1 Fatigue and the helm is struck")
    return "; ".join(out) or "no effect"


def _effect(e: ev.DiceRolled) -> str | None:
    """The effect of a roll that is neither a test nor an attack, or None for a plain count."""
    hit = e.successes > 0
    if e.purpose == "critical":
        return critical_effect(e.faces)
    if e.purpose == "critical_reroll":
        return critical_effect(e.faces + e.kept)
    if e.purpose == "collision":
        effects = ([f"{named(e.ship)} takes 1 damage"] if "skull" in e.faces else []) + (
            ["the ships are Entangled"] if "sail" in e.faces else [])
        return "; ".join(effects) or "no damage, not Entangled"
    if e.purpose == "shoal":
        return "Aground" if hit else "clear of the shoal"
    if e.purpose == "sinking":
        return "she sinks" if hit else "she stays afloat"
    if e.purpose == "officer_hit":
        return "an officer is struck down" if hit else "no officer is hurt"
    return None


def dice_line(e: ev.DiceRolled) -> str:
    who = named(e.ship) if e.ship else (f"player {e.player}" if e.player else "")
    faces = faces_text(e.faces)
    need = _needed(e.kind, e.needed)
    if need:
        return (f"{who} Skill Test ({_test_label(e.purpose)}), needs {count(need, 'success')}: {faces} — "
                f"{_test_result(e.successes, need)}.")
    if e.kind == "challenge_test":
        return f"{who} Challenge Test: {faces} — {count(e.successes, 'success')} (the most wins)."
    at = f" at {named(e.target)}" if e.target else ""
    if is_attack(e.kind):
        if e.purpose == "exploding":
            return f"{who} rolls {count(len(e.faces), 'more die')}{at}: {faces} — {count(e.successes, 'hit')}."
        purpose = e.purpose.partition(" (")[0]
        label = ATTACK_LABEL.get(purpose, e.purpose.replace("_", " "))
        if purpose == "close" and e.target:
            at = f" against {named(e.target)}"
        return f"{who} {label}{at}: {faces} — {count(e.successes, 'hit')}."
    effect = _effect(e)
    if e.purpose == "critical":
        return f"{who} critical check{' on ' + named(e.target) if e.target else ''}: {faces} — {effect}."
    if e.purpose == "critical_reroll":
        kept = f" (kept {faces_text(e.kept)})" if e.kept else ""
        return f"{who} re-rolls {count(len(e.faces), 'critical die')}: {faces}{kept} — {effect}."
    if e.purpose == "collision":
        with_ = f" (hitting {named(e.target)})" if e.target else ""
        return f"{who} collision dice{with_}: {faces} — {effect}."
    if effect is not None:
        return f"{who} {e.purpose.replace('_', ' ')}: {faces} — {effect}."
    return f"{who} {e.purpose.replace('_', ' ')}: {faces} — {count(e.successes, 'success')}."


def reroll_line(e: ev.DiceRerolled) -> str:
    which = (f"all {count(len(e.positions), 'die')}" if e.means == "fortune"
             else ("die " if len(e.positions) == 1 else "dice ") + _positions(e.positions))
    means = "a Fortune Point" if e.means == "fortune" else "Skill"
    head = f"{named(e.ship)} re-rolls {which} with {means}: {faces_text(e.faces)} — "
    need = _needed(e.kind, e.needed)
    if need:
        return head + f"{count(e.successes, 'success')}, needs {need}: {'passed' if e.successes >= need else 'failed'}."
    if is_attack(e.kind):
        return head + f"{count(e.successes, 'hit')}."
    return head + f"{count(e.successes, 'success')}."


def _positions(positions: Sequence[int]) -> str:
    names = [str(p + 1) for p in positions]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def reroll_choices(p: PendingRoll, fortune_left: int) -> str:
    """What the roller of a waiting roll may do, e.g. `Skill 1: re-roll up to 1 die; Fortune: 2
    left`. fortune_left < 0: the count is not known (an old log)."""
    parts = []
    left = min(p.skill - len(p.skill_rerolled), len(p.faces) - len(p.skill_rerolled))
    if left > 0:
        done = f" (not die {_positions(p.skill_rerolled)} again)" if p.skill_rerolled else ""
        parts.append(f"Skill {p.skill}: re-roll up to {count(left, 'die')}{done}")
    if not p.fortune_used and fortune_left != 0:
        parts.append(f"Fortune: {fortune_left} left" if fortune_left > 0 else "Fortune: re-roll every die")
    return "; ".join(parts) or "no re-roll left"


def reroll_offer(state: Game) -> str:
    """The re-roll offer of the roll waiting in this state (empty when none waits)."""
    p = state.pending
    if p is None:
        return ""
    return reroll_choices(p, state.squadron(p.player).fortune)


def awaits_line(e: ev.RollAwaitsChoice) -> str:
    p = e.pending
    need = _needed(p.kind, p.needed)
    hits = sum(1 for f in p.faces if f in p.success)
    if need:
        what = f"{named(p.ship)}'s Skill Test ({_test_label(p.purpose)}) failed ({count(hits, 'success')}, needs {need})"
    else:
        label = ATTACK_LABEL.get(p.purpose, p.purpose.replace("_", " "))
        at = f" at {named(p.target)}" if p.target else ""
        what = f"{named(p.ship)}'s {label}{at}: {count(hits, 'hit')}, {count(len(p.faces) - hits, 'die')} missed"
    return f"{what}. Player {p.player} may re-roll — {reroll_choices(p, e.fortune_left)} — or keep."


def settled_line(e: ev.RollSettled) -> str:
    if e.purpose in ATTACK_LABEL:
        return ""  # the attack's own line follows with its hits, damage and Fatigue
    return f"{named(e.ship)}'s Skill Test ({_test_label(e.purpose)}) {'passed' if e.passed else 'failed'}."


def attack_line(e: ev.AttackResolved) -> str:
    label = ATTACK_LABEL.get(e.kind, e.kind)
    side = f"{e.side} " if e.kind == "broadside" and e.side else ""
    if e.kind == "close":
        where = {"landing": "Landing Parties ashore", "boat": "Boat Assault"}.get(e.side) or (
            f"{e.contact} contact" if e.contact in ("bow", "stern") else f"{e.contact} side contact" if e.contact
            else "")
        how = f" ({where})" if where else ""
        return (f"{named(e.ship)}'s Close Combat against {named(e.target)}{how}: {count(e.hits, 'hit')} — "
                f"{e.damage} damage, {e.fatigue} Fatigue.")
    notes = [BAND_LABEL.get(e.band, e.band.replace("_", " ").title()), f"aimed at the {e.aim}"]
    if e.rake:
        notes.append(f"raking from the {e.rake}")
    return (f"{named(e.ship)}'s {side}{label} at {named(e.target)} ({', '.join(notes)}): {count(e.hits, 'hit')} — "
            f"{e.damage} damage, {e.fatigue} Fatigue.")

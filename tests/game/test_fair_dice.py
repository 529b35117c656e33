"""Dice nobody can foresee or bend, and anyone can check afterwards: HMAC-SHA256 of a secret seed and
the roll's position; every roll in a log recomputed from the revealed seed; the computer captain
judging from its own view with dice of its own."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from typing import Any

import pytest

from game import events as ev
from game.ai.captain import Captain
from game.ai.match import ai_game, drafted_ai_game
from game.dice import FairDice, die_index, seed_from_number
from game.engine import decide
from game.fairness import commitment, new_seed, verify_log
from game.notation import parse
from game.rules_data import load_rules
from game.squadron import random_squadron
from game.table_session import TableSession
from game.views import event_for, view_of
from tests.helpers import S, session, to_movement

RULES = load_rules()


def test_a_seed_is_256_secret_bits_and_its_commitment_is_sha256() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 64 for s in seeds)
    seed = next(iter(seeds))
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def test_the_same_position_rolls_the_same_faces_and_another_seed_other_faces() -> None:
    seed = seed_from_number(3)
    a = FairDice(seed, 41).roll(30, RULES.die.sides)
    b = FairDice(seed, 41).roll(30, RULES.die.sides)
    assert a == b  # a decision retried after a crash rolls what it rolled
    assert FairDice(seed, 42).roll(30, RULES.die.sides) != a
    assert FairDice(seed_from_number(4), 41).roll(30, RULES.die.sides) != a
    # each die is HMAC-SHA256(seed, "position:k") as a number, modulo the die's sides
    import hmac

    k7 = hmac.new(bytes.fromhex(seed), b"41:7", hashlib.sha256).digest()
    assert a[7] == RULES.die.sides[int.from_bytes(k7, "big") % len(RULES.die.sides)]


def test_faces_follow_the_die() -> None:
    sides = RULES.die.sides
    counts = Counter(sides[die_index(seed_from_number(9), p, k, len(sides))] for p in range(400) for k in range(40))
    expected = {face: 16000 * sides.count(face) / len(sides) for face in set(sides)}
    chi2 = sum((counts[f] - e) ** 2 / e for f, e in expected.items())
    assert chi2 < 20.5  # 5 degrees of freedom: p = 0.001


def _drawn_by(t: TableSession) -> int:
    return sum(len(e.faces) if isinstance(e, ev.DiceRolled) else len(e.positions) if isinstance(e, ev.DiceRerolled)
               else 0 for e in t.events)


def test_every_roll_of_a_game_is_recomputed_from_its_seed() -> None:
    t = ai_game(5)
    seed = seed_from_number(5)
    result = verify_log(t.initial, t.log, seed, RULES, commitment(seed))
    assert result.ok, result.mismatches
    assert result.unrecorded == 0 and result.rolls == sum(isinstance(e, ev.DiceRolled | ev.DiceRerolled) for e in t.events)
    assert result.dice == _drawn_by(t) > 50


def test_a_drafted_set_up_is_checked_too_card_draws_included() -> None:
    a = random_squadron(11, "patrol", RULES)
    b = random_squadron(12, "patrol", RULES)
    t = drafted_ai_game(8, a, b, RULES)
    seed = seed_from_number(8)
    result = verify_log(t.initial, t.log, seed, RULES)
    assert result.ok, result.mismatches
    assert any(isinstance(e, ev.SetupCardsDrawn) for e in t.events)


def _tamper(log: list[tuple[int, Any]], kind: type, change: Any) -> list[tuple[int, Any]]:
    i = next(i for i, (_, e) in enumerate(log) if isinstance(e, kind))
    out = list(log)
    out[i] = (out[i][0], change(out[i][1]))
    return out


def test_a_tampered_log_fails() -> None:
    t = ai_game(6)
    seed = seed_from_number(6)
    assert verify_log(t.initial, t.log, seed, RULES).ok

    def other_face(e: ev.DiceRolled) -> ev.DiceRolled:
        swap = next(f for f in RULES.die.sides if f != e.faces[0])
        return dataclasses.replace(e, faces=(swap, *e.faces[1:]))

    bad = verify_log(t.initial, _tamper(t.log, ev.DiceRolled, other_face), seed, RULES)
    assert not bad.ok and "the seed gives" in bad.mismatches[0]
    moved = verify_log(t.initial, _tamper(t.log, ev.DiceRolled, lambda e: dataclasses.replace(e, at=e.at + 3)), seed, RULES)
    assert not moved.ok
    assert not verify_log(t.initial, t.log, seed_from_number(7), RULES).ok
    assert "does not match" in verify_log(t.initial, t.log, seed, RULES, published="0" * 64).mismatches[0]


def test_views_carry_no_seed_position_event_deck_or_other_hand() -> None:
    t = session([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")])
    t.state = dataclasses.replace(t.state, seed=1234, event_deck=("Squall", "Becalmed"))
    t.submit_line("pick A Down!")
    for viewer in ("A", "B", None):
        g = view_of(t.state, viewer).game
        assert (g.seed, g.log_position, g.event_deck) == (0, 0, ())
        for q in g.squadrons:
            if q.player != viewer:
                assert q.hand == () and q.face_down is None
    assert view_of(t.state, "A").game.squadron("A").face_down == "Down!"
    assert view_of(t.state, "B").event_deck_size == 2


def test_events_show_no_other_hand_to_anyone_else() -> None:
    state = session([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]).state
    hand = state.squadron("B").hand
    secret = [ev.CardPicked("B", hand[0]), ev.HandTrimmed("B", hand[:2]), ev.CardsReturned("B", hand, ()),
              ev.StateRestored(state, "undone"), ev.SetupCardsDrawn(None, (), ("Squall",), 0)]
    for viewer in ("A", None, ("A",)):
        shown = repr([event_for(e, viewer) for e in secret])
        assert not any(card in shown for card in hand), viewer
        assert "Squall" not in shown
    assert hand[0] in repr(event_for(secret[0], "B"))


def test_another_players_card_name_is_never_resolved_against_their_hand() -> None:
    state = session([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]).state
    seen_by_a = view_of(state, "A").game
    for guess in ("zzz", "Rel", "R", "Reload!"):
        cmd = parse(f"pick B {guess}", seen_by_a, hands=["A"])
        assert cmd.card == guess  # taken as written: neither an error listing B's cards nor a completion
    assert parse("pick A care", seen_by_a, hands=["A"]).card == "Careful Aim"


def _cut_free_position() -> TableSession:
    """Otter has collided with Kestrel and they are Entangled: Kestrel's player must decide whether to
    try a Cut Free (a Skill Test whose dice the game would roll)."""
    t = session([S("Kestrel", "Sloop", 20, 15, 90, "A"), S("Otter", "Corvette", 20, 19.5, 180, "B")])
    to_movement(t)
    t.submit_line("dice sail cannon musket pistol")
    t.submit_line("move Otter")
    assert t.state.ship("Kestrel").entangled and t.state.active_player == "A"
    return t


def test_the_captain_chooses_alike_whatever_dice_the_game_would_roll() -> None:
    """Two games that differ only in the dice they would roll next: the captain's choice (its own
    random source fixed) is the same, and it is never shown the game's dice or another side's view."""
    t = _cut_free_position()
    one = dataclasses.replace(t.state, seed=1, log_position=t.state.log_position)
    two = dataclasses.replace(t.state, seed=2, log_position=t.state.log_position + 17)
    order = "move Kestrel cutfree"
    assert decide(one, parse(order, one), FairDice(seed_from_number(1), one.log_position)) != \
        decide(two, parse(order, two), FairDice(seed_from_number(2), two.log_position))  # the games' dice differ
    choices = {repr(Captain("A", 42, RULES).act(s)) for s in (one, two)}
    assert len(choices) == 1
    with pytest.raises(ValueError):
        Captain("A", 42, RULES).choose(view_of(one, "B"))

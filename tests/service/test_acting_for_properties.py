"""Issue 22, properties 3 and 5, over random seatings of a fleet battle: whoever holds which seats,
stands in, is a GM or asks for an override, the one rule gives exactly the permissions the docs
name (docs/fair-play.md, "Who may act"), and consent to an undo never comes from the asker."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import RulesError
from game.scenario import builtin_scenarios, load_scenario_text
from game.service.authority import Actor, Proxies, acting_for, authorise, undo_consent
from game.service.models import Seat

STATE = load_scenario_text(builtin_scenarios()["fleet_battle"], "fleet_battle.toml")
SIDES = ("A1", "A2", "B1", "B2")
MEMBERS = ("1", "2", "3", "4", "5")
holders = st.lists(st.sampled_from((*MEMBERS, None, "ai")), min_size=4, max_size=4)


def seats_of(held: list[str | None]) -> list[Seat]:
    return [Seat(game_id=1, player=p, user_id=None if u in (None, "ai") else u, is_ai=u == "ai")
            for p, u in zip(SIDES, held, strict=True)]


@settings(max_examples=300, deadline=None)
@given(held=holders, member=st.sampled_from(MEMBERS), gm=st.booleans(), side=st.sampled_from(SIDES),
       absent=st.sets(st.sampled_from(SIDES)), stand_ins=st.dictionaries(st.sampled_from(SIDES),
                                                                         st.sampled_from(MEMBERS)),
       override=st.booleans(), ending=st.booleans())
def test_one_rule_for_acting_for_a_side(held: list[str | None], member: str, gm: bool, side: str, absent: set[str],
                                        stand_ins: dict[str, str], override: bool, ending: bool) -> None:
    seats = seats_of(held)
    away = {s: (sub, held[SIDES.index(s)] or "") for s, sub in stand_ins.items() if held[SIDES.index(s)] not in
            (None, "ai")}
    proxies = Proxies(frozenset(absent), away, override)
    actor = Actor(member, "g", gm)
    own = {s.player for s in seats if s.user_id == member}
    standing_in = side in away and away[side][0] == member and side not in own and all(
        STATE.allied(side, p) for p in own)
    try:
        acted = acting_for(STATE, seats, actor, side, proxies, ending)
    except RulesError:
        acted, refused = None, True
    else:
        refused = False
    if side in own:
        assert not refused and acted is None
    elif standing_in:
        assert refused == ending
        assert ending or (acted is not None and acted.kind == "stand-in" and acted.by == member)
    elif gm and (ending or side in absent or override):
        assert acted is not None and acted.by == member
        assert (acted.kind == "override") == (not ending and side not in absent)
    else:
        assert refused, "nobody else acts for a side"


@settings(max_examples=300, deadline=None)
@given(held=holders, asker=st.sampled_from(SIDES), consenter=st.sampled_from(MEMBERS), gm=st.booleans())
def test_consent_to_an_undo_comes_from_someone_else(held: list[str | None], asker: str, consenter: str,
                                                    gm: bool) -> None:
    seats = seats_of(held)
    asked_by = held[SIDES.index(asker)]
    if asked_by in (None, "ai"):
        return
    try:
        reason = undo_consent(STATE, seats, Actor(consenter, "g", gm), asker, asked_by)
    except RulesError:
        reason = ""
    others = {s.player for s in seats if s.user_id == consenter and not STATE.allied(s.player, asker)}
    if consenter != asked_by and others:
        assert reason.startswith("undone with player ") and reason.split()[3].removesuffix("'s") in others
    elif gm and consenter != asked_by:
        assert reason.startswith("undone with a GM's consent")
    else:
        assert reason == "", "the asker (even a GM), their team and spectators never consent"


def test_a_teammate_stands_in_beside_their_own_seat() -> None:
    """Bob holds A2 and stands in for A1 while Ann is away: an order for an A1 ship is his to give,
    logged as standing in; an unnamed side is still his own."""
    from game.notation import parse

    seats = seats_of(["1", "2", "3", "4"])
    proxies = Proxies(stand_ins={"A1": ("2", "1")})
    ship = STATE.ships_of("A1")[0].id
    cmd, acted = authorise(STATE, seats, Actor("2", "g"), parse(f'move "{ship}" hold', STATE), proxies)
    assert getattr(cmd, "player", "") == "A1"
    assert acted is not None and (acted.player, acted.by, acted.kind) == ("A1", "2", "stand-in")
    cmd, acted = authorise(STATE, seats, Actor("2", "g"), parse("keep", STATE), proxies)
    assert acted is None

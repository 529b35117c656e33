"""Adversary probes of /orders (standing orders): acting for the other side, learning B's hand through
the answers, hostile input, and orders outliving the seat of the member who gave them."""

from __future__ import annotations

from game import events as ev
from game.phases.flow import deciders
from game.service import orders_store as store
from tests.adversary.eyes import (
    ADVERSARIES,
    ANN,
    BOB,
    EVE,
    GUS,
    Table,
    answer_text,
    assert_nothing_hidden,
    hidden_cards,
)
from tests.adversary.test_secret_picks import B_HIDDEN
from tests.adversary.test_sweep import make_gm_role, open_quickstart
from tests.bot.fake_discord import CHANNEL_ID

UNEXPECTED = "Something went wrong on my side"


async def b_orders(t: Table) -> object:
    return await store.load_orders(t.service.store.repo, 1, "B")


async def test_nobody_gives_or_reads_orders_for_a_side_not_theirs(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    state = await t.state()
    b_ship = state.ships_of("B")[0].id
    a_ship = state.ships_of("A")[0].id
    await t.cmd(BOB, "orders", "rerolls", policy="fortune")  # B's own orders, which nobody else may read
    before = await b_orders(t)
    version = await t.version()
    for label, user in ADVERSARIES.items():
        mark = t.mark()
        answers = [
            await t.cmd(user, "orders", "attack", ship=b_ship, rule="best"),
            await t.cmd(user, "orders", "attack", ship=b_ship, rule="hold", target=a_ship),
            await t.cmd(user, "orders", "move", line=f'move "{b_ship}"'),
            await t.cmd(user, "orders", "move", line=f'B: move "{b_ship}"'),
            await t.cmd(user, "orders", "discretion", ship=b_ship),
            await t.cmd(user, "orders", "show"),
        ]
        for a in answers:
            assert a.ephemeral, (label, answer_text(a))
            assert "fortune" not in answer_text(a).lower(), (label, answer_text(a))  # B's policy
            assert UNEXPECTED not in answer_text(a), (label, answer_text(a))
        assert await b_orders(t) == before, label
        st, log = await t.state(), await t.log_events()
        assert_nothing_hidden(t.received(user, mark), hidden_cards(st, log, ["A"] if user is ANN else []),
                              await t.seed(), label)
    assert await t.version() == version


async def test_a_standing_move_naming_bs_cards_is_no_oracle(table: Table) -> None:
    """`/orders move` parses the line: a pick for B answers the same whatever B holds."""
    t = table
    await open_quickstart(t)
    for user in (ANN, EVE):
        seen = {card: answer_text(await t.cmd(user, "orders", "move", line=f"pick B {card}")).replace(card, "CARD")
                for card in (*B_HIDDEN, "zzz", "Rel", "Take")}
        assert len(set(seen.values())) == 1, (user[1], seen)
        assert not any(c in v for c in B_HIDDEN for v in seen.values()), seen


async def test_hostile_input_to_orders_is_refused_in_one_message(table: Table) -> None:
    t = table
    await open_quickstart(t)
    lines = ["move " + "X" * 5900, "move 𝕂𝕖𝕤𝕥𝕣𝕖𝕝 turn end port 1e308", "move \u202eKestrel nan",
             'move "' + "é" * 100 + '" turn end port nan', "\x00", " ", "move Kestrel turn end port -1e308 crew reload port"]
    for line in lines:
        a = answer_text(await t.cmd(BOB, "orders", "move", line=line))
        assert a.startswith("❌") and len(a) <= 2000 and UNEXPECTED not in a, (line[:40], a[:300])
    for ship, target in (("S" * 100, None), ("💥" * 100, "T" * 100), ("", None)):
        a = answer_text(await t.cmd(BOB, "orders", "attack", ship=ship, rule="best", target=target))
        assert a.startswith("❌") and UNEXPECTED not in a, (ship[:20], a[:300])
    a = answer_text(await t.cmd(BOB, "orders", "discretion", ship="∅" * 100))
    assert a.startswith("❌") and UNEXPECTED not in a, a[:300]
    assert await b_orders(t) is None


async def test_orders_of_a_replaced_player_do_not_play_for_the_new_one(table: Table) -> None:
    """In turn 1's Movement Phase Bob gives his orders (the computer captain's discretion for the rest
    of the turn), then a GM gives side B to Eve. Bob's orders must not go on deciding for Eve's side."""
    from game.model import Phase
    from game.service.game_service import Actor
    from tests.adversary.test_sweep import drive
    from tests.bot.fake_discord import GUILD_ID

    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    await drive(t, lambda g: g.turn >= 1 and g.phase is Phase.MOVEMENT and deciders(g) == {"A"}
                and g.activation is None and g.pending is None)
    assert "standing orders" in answer_text(await t.cmd(BOB, "orders", "discretion"))
    # what /game handover side:B member:@Eve does for a GM (the member option needs Discord's resolved data)
    await t.service.seats.hand_over(Actor(str(GUS[0]), str(GUILD_ID), gm=True), 1, str(EVE[0]), "Eve", "B")
    assert any(s.player == "B" and s.user_id == str(EVE[0]) for s in (await t.service.store.repo.load(1)).seats)
    mark_events = len(await t.log_events())
    st = await t.state()
    ship = next(s.id for s in st.ships_of("A") if s.id not in st.activated)
    assert answer_text(await t.cmd(ANN, "order", line=f'move "{ship}"')).startswith("✅")
    later = (await t.log_events())[mark_events:]
    b_ships = {s.id for s in (await t.state()).ships_of("B")}
    moved_for_eve = [e.ship for e in later if isinstance(e, ev.ShipMoved) and e.ship in b_ships]
    assert not moved_for_eve, f"Bob's standing orders moved Eve's ships: {moved_for_eve}"
    assert CHANNEL_ID


async def test_a_pick_made_by_standing_orders_stays_secret(table: Table) -> None:
    """Bob leaves the turn to the computer captain's discretion before the initiative pick: once Ann
    has picked, his orders do not pick his card (a secret pick is always the player's own, standing.py),
    and Ann, Eve and Gus learn nothing of his hand."""
    from tests.adversary.eyes import assert_learns_nothing

    t = table
    await make_gm_role(t)
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    assert "standing orders" in answer_text(await t.cmd(BOB, "orders", "discretion"))
    mark = t.mark()
    _, menu, message = await t.open_hand(ANN)
    await t.press(ANN, menu, message, values=["Down!"])
    state = await t.state()
    b = state.squadron("B")
    assert not b.face_down and not b.picked, "standing orders picked Bob's secret card"
    for label, user in (("opponent", ANN), ("spectator", EVE), ("GM", GUS)):
        await assert_learns_nothing(t, user, label, since=mark)

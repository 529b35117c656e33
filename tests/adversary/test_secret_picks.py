"""Issue 11, item 7 (1): a pick for player B, sent by anyone else, teaches nothing about B's hand or
B's face-down card: not in the channel, not in the private answer, not in a DM, and not by the answer
differing between a card B holds and one B does not (an oracle needs no name in the text)."""

from __future__ import annotations

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
from tests.adversary.test_sweep import make_gm_role, open_quickstart

B_HIDDEN = ("Take Courage", "Reload!", "Fire as She Bears", "Fleet Maneuver", "Favorable Wind")
NOT_B = ("Down!", "Careful Aim", "Lee Gauge Fire", "zzz")  # A's cards, a card nobody holds, nonsense
PREFIXES = ("Rel", "R", "F", "Take", "fire as")


async def answers(t: Table, user: tuple[int, str], card: str, menu: str) -> dict[str, str]:
    """What `pick B <card>` gets through each way of sending it, with the card written as CARD."""
    got = {
        "order": answer_text(await t.cmd(user, "order", line=f"pick B {card}")),
        "plan": answer_text(await t.cmd(user, "plan", line=f"pick B {card}")),
        "B's menu": answer_text(await t.press(user, f"qd:hand:1:B:{(await t.state()).turn}", menu, values=[card])),
    }
    return {how: text.replace(card, "CARD") for how, text in got.items()}


async def test_a_pick_for_b_is_refused_the_same_whatever_b_holds(table: Table) -> None:
    t = table
    await make_gm_role(t)
    menu = await open_quickstart(t)  # B: Take Courage face down, four cards in hand
    version = await t.version()
    for label, user in ADVERSARIES.items():
        mark = t.mark()
        seen: dict[str, dict[str, str]] = {}
        for card in (*B_HIDDEN, *NOT_B, *PREFIXES):
            seen[card] = await answers(t, user, card, menu)
        reference = seen["zzz"]
        assert all(text.startswith("❌") for text in reference.values()), (label, reference)
        assert not any(card in text for card in B_HIDDEN for text in reference.values()), reference
        for card, got in seen.items():
            assert got == reference, f"{label}: `pick B {card}` is answered unlike `pick B zzz`: {got} / {reference}"
        # the channel and the DMs say nothing of B's cards (the answers were compared above: they may
        # only echo what the sender typed)
        state, log = await t.state(), await t.log_events()
        players = ["A"] if user is ANN else []
        elsewhere = [i for i in t.received(user, since=mark) if i.kind != "answer"]
        assert_nothing_hidden(elsewhere, hidden_cards(state, log, players), await t.seed(), label)
    assert await t.version() == version
    assert not (await t.state()).squadron("A").picked


async def test_prefixes_resolve_only_against_the_senders_own_hand(table: Table) -> None:
    """Ann's own pick by prefix resolves on her hand; a prefix of B's card is an error about her own hand."""
    t = table
    await open_quickstart(t)
    answer = answer_text(await t.cmd(ANN, "order", line="pick A Rel"))  # B holds Reload!; A holds no "Rel…"
    assert answer.startswith("❌") and not any(card in answer for card in B_HIDDEN), answer
    answer = answer_text(await t.cmd(ANN, "order", line="pick A Car"))
    assert not answer.startswith("❌"), answer
    a = (await t.state()).squadron("A")
    assert "Careful Aim" in (a.face_down, a.face_up)


async def pick_via_menu(t: Table, user: tuple[int, str], card: str) -> None:
    opened, custom, message = await t.open_hand(user)
    assert opened is not None and opened.ephemeral and custom
    answer = await t.press(user, custom, message, values=[card])
    assert "face down" in answer_text(answer), answer_text(answer)


async def plan_refused_later(t: Table) -> int:
    """Bob plans next turn's pick (Favorable Wind), then picks that card himself through the menu; the
    plan comes up when play first waits for Bob alone (his first activation) and is refused, with a
    reason that lists the cards he holds. The request count before that activation is returned."""
    await open_quickstart(t)
    assert "Planned: `pick B Favorable Wind`" in answer_text(await t.cmd(BOB, "plan", line="pick B Fav"))
    await pick_via_menu(t, ANN, "Down!")  # the reveal
    await pick_via_menu(t, BOB, "Favorable Wind")
    mark = t.mark()
    await pick_via_menu(t, ANN, "Careful Aim")  # the Movement Phase begins
    for _ in range(3):
        state = await t.state()
        if state.active_player != "A":
            break
        mark = t.mark()
        ship = next(s.id for s in state.ships_of("A") if s.id not in state.activated)
        assert answer_text(await t.cmd(ANN, "order", line=f'move "{ship}"')).startswith("✅")
    return mark


async def test_a_refused_planned_pick_is_told_to_its_planner_alone(table: Table) -> None:
    t = table
    mark = await plan_refused_later(t)
    state = await t.state()
    hidden = {c for c in (*state.squadron("B").hand, state.squadron("B").face_down) if c}
    dm = t.dms_to(BOB, since=mark)
    assert dm and "was not carried out" in dm[0].text, [i.text[:200] for i in t.received(BOB, since=mark)]
    assert "Fire as She Bears" in dm[0].text, "the reason names Bob's own cards: it must stay his"
    note = [i for i in t.public(since=mark) if "planned order" in i.text]
    assert note and "details sent to you by DM" in note[0].text
    for user in (ANN, EVE, GUS):
        for item in t.received(user):
            assert not [c for c in hidden if c in item.text], item.text[:300]
            assert "pick B" not in item.text and "Favorable" not in item.text  # not even the planned line


async def test_with_dms_closed_the_planner_is_only_asked_for_a_new_order(table: Table) -> None:
    t = table
    t.fake.closed_dms.add(str(BOB[0]))
    mark = await plan_refused_later(t)
    state = await t.state()
    hidden = {c for c in (*state.squadron("B").hand, state.squadron("B").face_down) if c}
    notes = [i.text for i in t.public(since=mark) if "planned order" in i.text]
    assert notes and "give a new order" in notes[-1]
    assert not [c for item in t.public() for c in hidden if c in item.text]

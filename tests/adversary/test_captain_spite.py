"""Adversary probes of /captain's hidden categories (issue 27, item 1): a member who hid their
head-to-head is not given away by the head-to-head of the captains they played, read by a third."""

from __future__ import annotations

from game.service.game_service import Actor
from tests.adversary.eyes import Table
from tests.service.test_records import ANN, BOB, game

CAT = Actor("333", "g1")
EVE = "444"  # a third member, reading the others' records


async def test_a_hidden_head_to_head_is_not_read_back_through_the_opponents_records(table: Table) -> None:
    service = table.service
    await game(service, ANN, BOB)  # Ann wins
    await game(service, ANN, BOB, loser=ANN)  # Bob wins
    await game(service, BOB, CAT)  # Bob wins against Cat, who hides nothing
    await service.records.set_hidden(ANN.user_id, "rivals", True)
    await service.records.set_hidden(ANN.user_id, "results", True)
    hers = await service.records.record(EVE, ANN.user_id, "g1")
    assert hers.rivals is None and hers.games is None
    # Bob's record, read by Eve: Ann's games against him are not listed (they are half Ann's), Cat's are
    seen = await service.records.record(EVE, BOB.user_id, "g1")
    assert seen.rivals is not None and [r.name for r in seen.rivals] == ["Cat"], seen.rivals
    # Bob sees his whole record, and so does Ann see her games against him
    for viewer in (BOB.user_id, ANN.user_id):
        full = await service.records.record(viewer, BOB.user_id, "g1")
        assert full.rivals is not None and {r.name for r in full.rivals} == {"Ann", "Cat"}

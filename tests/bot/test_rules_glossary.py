"""`/rules term:` answers what its own list does not from the game's glossary (game/glossary.py), as
the offline table's `rules NAME` does: a trait, a term, a misspelt card."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import EVE, last_followup


async def test_rules_answers_a_trait_a_term_and_a_misspelt_card(harness: Any) -> None:
    bot, fake = harness
    for term, said in (("Small", "Small (ship trait): The ship's Fortitude counts as 2 against attacks at Cannon Shot"),
                       ("Shaken", "Shaken (term): Fatigue 7."),
                       ("Rollng Broadsides", "`move SHIP crew fire port TARGET`")):
        answer = last_followup(await dispatch(bot, command(EVE, "rules", term=term), fake))
        assert answer.ephemeral and said in answer.content, answer.content
    nothing = last_followup(await dispatch(bot, command(EVE, "rules", term="Zzyzx"), fake))
    assert nothing.content.startswith("Nothing found for")

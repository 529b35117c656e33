"""Issue 22, finding 13: a referee-assistant setup file built to break the parser (30,000 nested arrays
in 60 KB, a dotted key of thousands of parts, deep inline tables) is refused with the limit it broke,
as an Oak & Iron scenario upload is, instead of "Something went wrong"; nothing is created, and no
thread is left behind."""

from __future__ import annotations

import pytest

from game.schema.common import MAX_DEPTH
from tests.adversary.eyes import ANN, Table, answer_text
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID

UNEXPECTED = "Something went wrong"

HOSTILE = {
    "nested arrays": "x = " + "[" * 30_000 + "]" * 30_000 + "\n",
    "nested inline tables": "x = " + "{a = " * 5_000 + "1" + "}" * 5_000 + "\n",
    "nested table headers": "[" + ".".join(["a"] * 5_000) + "]\n",
    "a long dotted key": ".".join(["k"] * 20_000) + " = 1\n",
}


@pytest.mark.parametrize("system", ["wsim", "iron_and_oak", "captains_sea"])
async def test_a_setup_that_nests_too_deep_is_refused(table: Table, system: str) -> None:
    t = table
    for what, text in HOSTILE.items():
        body = text.encode()
        assert len(body) <= 100_000, what  # under the size limit: it is the nesting that must be caught
        for thread in (False, True):
            a = answer_text(await t.cmd(ANN, "game", "create", system=system, thread=thread,
                                        attachments={"file": t.fake.attach("setup.toml", body)}))
            assert a.startswith("❌") and UNEXPECTED not in a, (system, what, a[:300])
            assert f"more than {MAX_DEPTH}" in a, (system, what, a[:300])  # the limit broken
    assert await t.service.referee.game_in_channel(str(GUILD_ID), str(CHANNEL_ID), include_over=True) is None
    assert not [r for r in t.fake.requests if r.method == "POST" and r.path.endswith("/threads")]

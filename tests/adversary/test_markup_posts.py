"""Issue 23 item 6: the log keeps members and times as data and the bot alone makes Discord markup.
Played through the fake Discord: a GM's extension names its new deadline as a Discord timestamp and
the GM as a mention, in the answer and in the channel, with no token left unsaid."""

from __future__ import annotations

import re

from game import events as ev
from tests.adversary.clock_jobs import planned
from tests.adversary.eyes import GUS, Table, answer_text
from tests.adversary.test_stale_deadline import both_to_pick


async def test_an_extension_posts_its_deadline_as_a_timestamp(table: Table) -> None:
    t = table
    await both_to_pick(t)
    mark = t.mark()
    answer = answer_text(await t.cmd(GUS, "clock", "extend", hours=5))
    dues = {int(due.timestamp()) for side in "AB" for due, _ in await planned(t, "deadline", side)}
    found = re.search(rf"⏱️ Clock \(extended, by <@{GUS[0]}>\): the deadline is extended by 5 h \(now <t:(\d+):f>\)",
                      answer)
    assert found and int(found[1]) in dues, (answer, dues)
    posted = "\n".join(i.text for i in t.public(mark))
    assert found[0] in posted, posted
    assert not re.search("[\x02\x03]", answer + posted)  # every token said
    (logged,) = [e for e in await t.log_events() if isinstance(e, ev.ClockChanged) and e.change == "extended"]
    assert (logged.detail, logged.by) == ("the deadline is extended by 5 h (now {until})", str(GUS[0]))

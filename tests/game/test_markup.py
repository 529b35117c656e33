"""Discord markup is made in bot/ only (issue 23 item 6): events and the service's answers carry
members and times as data, the account says them as neutral tokens, the bot as `<@id>` / `<t:…:f>`
and a terminal, a log or a replay as plain text; events stored before keep decoding and replaying."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.markup import chat, member_id
from game import events as ev
from game.account import account, overrides_line
from game.apply import replay
from game.codec import to_data
from game.model import Phase
from game.names import iso, member, moment, plain, prose, text
from game.scenario import quickstart
from game.table_session import TableSession

ROOT = Path(__file__).resolve().parents[2]
MARKUP = ("<@", "<t:", "<#")
ANN, EVE, GUS = "111111111111111111", "222222222222222222", "333333333333333333"
WHEN = datetime(2026, 11, 28, 12, 30, tzinfo=UTC)
EPOCH = int(WHEN.timestamp())


def _text_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant that can end up in text (a docstring only documents)."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_code_in_game_writes_discord_markup() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {value!r}" for path in sorted((ROOT / "game").rglob("*.py"))
             for line, value in _text_literals(ast.parse(path.read_text(encoding="utf-8")))
             if any(mark in value for mark in MARKUP)]
    assert found == [], "Discord markup is the bot's to make (bot/markup.py):\n" + "\n".join(found)


def test_the_walk_finds_markup_where_it_is_written() -> None:
    """The check above reads f-strings and plain strings alike, and passes over docstrings."""
    source = 'def f(u):\n    """Says <@id>."""\n    return f"by <@{u}>" + "at <t:" + "x"\n'
    assert sorted(v for _, v in _text_literals(ast.parse(source)) if any(m in v for m in MARKUP)) == ["at <t:", "by <@"]


# each event as today's code stores it, and as the code before stored it (markup written in)
NEW = [
    ev.ActedFor("A", EVE, "standing in while {away} is away", "stand-in", ANN),
    ev.ActedFor("A", GUS, "GM override by {by}", "override"),
    ev.ClockChanged("away", ANN, "{by} is away until {until}: {substitute} is asked to stand in", iso(WHEN), EVE),
    ev.ClockChanged("extended", GUS, "the deadline is extended by 5 h (now {until})", iso(WHEN)),
]
OLD = [
    {"type": "ActedFor", "player": "A", "by": EVE, "reason": f"standing in while <@{ANN}> is away", "kind": "stand-in"},
    {"type": "ActedFor", "player": "A", "by": GUS, "reason": f"GM override by <@{GUS}>", "kind": "override"},
    {"type": "ClockChanged", "change": "away", "by": ANN,
     "detail": f"<@{ANN}> is away until <t:{EPOCH}:f>: <@{EVE}> is asked to stand in"},
    {"type": "ClockChanged", "change": "extended", "by": GUS, "detail": f"the deadline is extended by 5 h (now <t:{EPOCH}:f>)"},
]
POSTED = [  # what the bot posted for each before this change, and still does
    f"<@{EVE}> gives player A's next order (standing in while <@{ANN}> is away).",
    f"⚠️ GM override by <@{GUS}>: player A is still within their deadline; the GM acts for them.",
    f"⏱️ Clock (away, by <@{ANN}>): <@{ANN}> is away until <t:{EPOCH}:f>: <@{EVE}> is asked to stand in",
    f"⏱️ Clock (extended, by <@{GUS}>): the deadline is extended by 5 h (now <t:{EPOCH}:f>)",
]


@pytest.mark.parametrize(("new", "old", "posted"), list(zip(NEW, OLD, POSTED, strict=True)))
def test_the_bot_posts_old_and_new_events_as_before(new: object, old: dict[str, str], posted: str) -> None:
    assert not any(mark in str(to_data(new)) for mark in MARKUP)  # the log stores no markup now
    assert chat(account(new)) == posted
    assert chat(account(ev.EVENTS.decode(old))) == posted  # an event stored before decodes and reads the same


def test_a_terminal_reads_members_and_times_as_plain_text() -> None:
    lines = [plain(account(e)) for e in NEW]
    assert lines == [
        f"@{EVE} gives player A's next order (standing in while @{ANN} is away).",
        f"⚠️ GM override by @{GUS}: player A is still within their deadline; the GM acts for them.",
        f"⏱️ Clock (away, by @{ANN}): @{ANN} is away until 2026-11-28 12:30 UTC: @{EVE} is asked to stand in",
        f"⏱️ Clock (extended, by @{GUS}): the deadline is extended by 5 h (now 2026-11-28 12:30 UTC)",
    ]
    assert not any(c in "".join(lines) for c in "\x02\x03<>")
    # an event stored before keeps its markup in a terminal: shown as it was stored (docs/bot.md)
    assert plain(account(ev.EVENTS.decode(OLD[3]))).endswith(f"(now <t:{EPOCH}:f>)")


def test_the_offline_tables_members_are_said_as_they_are() -> None:
    """Not a Discord id (a local player, a computer captain): the id itself, in chat and terminal alike."""
    line = account(ev.ActedFor("A", "local", "their deadline had passed"))
    assert line == "A GM (local) gives player A's next order (their deadline had passed)."
    assert chat(line) == plain(line) == line


def test_an_undo_names_who_took_it_back() -> None:
    state = quickstart(seed=1)
    new = ev.StateRestored(state, "undone with a GM's consent ({by}) at player A1's request", GUS)
    old = {**ev.EVENTS.encode(new), "reason": f"undone with a GM's consent (<@{GUS}>) at player A1's request"}
    del old["by"]
    said = f"↩️ The last activation is taken back (undone with a GM's consent (<@{GUS}>) at player A1's request)."
    assert chat(account(new)) == chat(account(ev.EVENTS.decode(old))) == said
    assert plain(account(new)).endswith(f"(@{GUS}) at player A1's request).")


def test_the_game_over_overrides_line_mentions_as_before() -> None:
    line = overrides_line([ev.PhaseBegan(Phase.INITIATIVE, 2), NEW[1]])
    assert chat(line) == f"⚠️ GM overrides in this game: <@{GUS}> for player A (turn 2)."
    assert plain(line) == f"⚠️ GM overrides in this game: @{GUS} for player A (turn 2)."


def test_a_log_stored_before_replays_to_the_same_state() -> None:
    """A log with events encoded the way the code before did (markup in their wording, none of the new
    fields) decodes and replays to exactly the state the same log in today's encoding gives."""
    initial = quickstart(seed=3)
    table = TableSession(initial)
    played = table.submit_line("pick A Down!")
    back = ev.StateRestored(initial, "undone by a GM ({by})", GUS)
    table.state = initial  # taken back: the same order again
    new_log = [*played, *NEW, back, *table.submit_line("pick A Down!")]
    encoded = [ev.EVENTS.encode(e) for e in new_log]
    old_back = {k: v for k, v in ev.EVENTS.encode(back).items() if k != "by"} | {"reason": f"undone by a GM (<@{GUS}>)"}
    old_log = [*encoded[:len(played)], *OLD, old_back, *encoded[len(played) + len(NEW) + 1:]]
    assert replay(initial, [ev.EVENTS.decode(d) for d in old_log]) == replay(initial, new_log) == table.state


def test_a_name_cannot_forge_a_member_or_a_time() -> None:
    """The token marks are control characters no name may hold; `text` takes them out all the same."""
    forged = "\x02m" + GUS + "\x03 \x02t1:f\x03"
    assert "<@" not in chat(text(forged)) and "<t:" not in chat(text(forged))
    assert chat(prose(f"due {moment(WHEN, 'R')} for {member(ANN)}")) == f"due <t:{EPOCH}:R> for <@{ANN}>"


def test_the_bot_reads_a_typed_mention_as_the_member() -> None:
    assert [member_id(s) for s in (f"<@{ANN}>", f" <@!{ANN}> ", ANN, "Bob", f"<@{ANN}> and more")] == \
        [ANN, ANN, ANN, "Bob", f"<@{ANN}> and more"]


@pytest.mark.parametrize("until", ["next Tuesday <@1>", "0001-01-01T00:00:00+05:00"])
def test_a_log_from_elsewhere_with_no_time_in_until_still_reads(until: str) -> None:
    """`quarterdeck replay` reads logs anyone wrote: an `until` that is no time is shown as text."""
    line = account(ev.EVENTS.decode({"type": "ClockChanged", "change": "extended", "by": GUS,
                                     "detail": "now {until}", "until": until}))
    assert plain(line).endswith(f"now {until}") if "<" not in until else chat(line).endswith(r"now next Tuesday \<\@1\>")


def test_only_ascii_digits_are_a_discord_id() -> None:
    assert member("١٢٣") == "١٢٣" and chat(member("123")) == "<@123>"

"""Issue 23, item 2: each outbox post kind is a frozen dataclass, encoded and decoded in one place
(game/service/posts.py), and the rows on disk keep the shape they had when payloads were dicts: rows a
database already holds decode, and new rows are written byte for byte as before."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from game.events import CardPicked
from game.service import outbox
from game.service.frontend import Delivery, Unreadable
from game.service.game_service import Actor, GameService
from game.service.models import OutboxRow, utcnow
from game.service.posts import (
    POSTS,
    AnyPost,
    Board,
    Created,
    Note,
    Notice,
    Nudge,
    Planned,
    Status,
    decode,
    decode_row,
    lane,
    stored,
)

ANN = Actor("1", "g")

# (kind, payload text, key) exactly as the code before the post types wrote them (json.dumps of its
# dicts), with the post each stands for
OLD_ROWS: list[tuple[str, str, str | None, AnyPost]] = [
    ("created", '{"system": "oak_and_iron"}', None, Created("oak_and_iron")),
    ("created", '{"system": "wsim"}', None, Created("wsim")),
    ("board", "{}", None, Board()),
    ("board", '{"first": 3, "last": 7}', None, Board(3, 7)),
    ("status", "{}", None, Status()),
    ("nudge", '{"player": "A", "user": "111", "turn": 2}', "nudge:A:2", Nudge("A", "111", 2)),
    ("note", '{"user": "111", "player": "B", "text": "Hold fire: no target"}', None,
     Note("111", "B", "Hold fire: no target")),
    ("planned", '{"user": "111", "player": "A", "line": "move Swift 2", "reason": "Swift has moved"}', None,
     Planned("111", "A", "move Swift 2", "Swift has moved")),
    ("notice", '{"text": "\\u23f0 Reminder, <@111> (game #1).", "users": ["111"]}', None,
     Notice("⏰ Reminder, <@111> (game #1).", ("111",))),
    ("notice", '{"text": "\\u231b Deadline (game #1).", "users": []}', None, Notice("⌛ Deadline (game #1).")),
]


@pytest.mark.parametrize(("kind", "text", "key", "post"), OLD_ROWS)
def test_a_row_in_the_old_format_decodes_and_a_post_is_written_as_before(
        kind: str, text: str, key: str | None, post: AnyPost) -> None:
    assert decode_row(kind, text) == post
    row = stored(post)
    assert (row.kind, json.dumps(row.payload), row.key) == (kind, text, key)


def test_every_kind_has_one_type_and_its_old_lane() -> None:
    # follow and digest: the followers' DMs (game/service/following.py), new kinds on the DM lane; the
    # chronicle card (issue 27) in the channel, in order, after the board; a league round that closed by
    # itself (issue 27, item 4) in the channel of the game that ended it, after its last board; a campaign
    # battle's end (issue 27, item 5) in the channel too
    assert set(POSTS.types) == {"board", "status", "created", "nudge", "note", "planned", "notice", "follow", "digest",
                                "chronicle", "league_round", "campaign"}
    # the lanes of game/service/outbox.py before the types: status edits, DMs (nudge, note), the channel
    assert {k: lane(k) for k in POSTS.types} == {
        "board": "channel", "status": "status", "created": "channel", "nudge": "dm", "note": "dm",
        "planned": "channel", "notice": "channel", "follow": "dm", "digest": "dm", "chronicle": "channel",
        "league_round": "channel", "campaign": "channel"}
    assert lane("a kind from a newer version") == "channel"


def test_what_the_old_readers_tolerated_still_decodes() -> None:
    assert decode("notice", {"text": "⏰"}) == Notice("⏰")  # a notice with no one to ping
    assert decode("created", {}) == Created("oak_and_iron")  # read as "oak_and_iron" before too
    assert decode("board", {"first": 1, "last": 2, "extra": True}) == Board(1, 2)  # a key it does not know
    assert Notice("x", ("12", "<@3>", "")).user_ids == [12]  # only ids are pinged


@pytest.mark.parametrize(("kind", "payload"), [
    ("parrot", {}),
    ("nudge", {"player": "A", "user": "1"}),  # no turn
    ("nudge", {"player": "A", "user": "1", "turn": "two"}),
    ("notice", {"text": 5}),
    ("board", []),
])
def test_a_row_no_type_fits_is_refused(kind: str, payload: object) -> None:
    with pytest.raises(ValueError):
        decode(kind, payload)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        decode_row(kind, json.dumps(payload))


def test_only_registered_types_are_written() -> None:
    with pytest.raises(TypeError):
        stored(Unreadable("parrot", "no"))  # type: ignore[arg-type]


async def _game(service: GameService) -> int:
    return (await service.lobby.create_game(ANN, "c1")).id  # no outbox: no announcement row


async def test_rows_a_database_already_holds_are_claimed_as_typed_posts(service: GameService) -> None:
    gid = await _game(service)
    for kind, text, key, post in OLD_ROWS:
        async with service.store.repo.session() as s, s.begin():
            s.add(OutboxRow(game_id=gid, kind=kind, payload=text, key=key, next_try_at=utcnow()))
        claimed = await service.front.claim(gid, utcnow())
        assert claimed is not None and claimed.post == post and claimed.kind == kind and claimed.attempts == 1
        await service.front.delivered(claimed, utcnow())
    assert await service.front.claim(gid, utcnow()) is None
    assert {r.status for r in await _rows(service, gid)} == {"done"}


async def test_an_unreadable_row_is_handed_over_as_such_and_recorded_like_any(service: GameService) -> None:
    gid = await _game(service)
    async with service.store.repo.session() as s, s.begin():
        s.add(OutboxRow(game_id=gid, kind="parrot", payload='{"squawk": 1}', next_try_at=utcnow()))
        s.add(OutboxRow(game_id=gid, kind="nudge", payload="not json", next_try_at=utcnow()))
    first = await service.front.claim(gid, utcnow())
    assert first is not None and isinstance(first.post, Unreadable) and first.post.kind == "parrot"
    second = await service.front.claim(gid, utcnow())  # a DM: its own lane
    assert second is not None and isinstance(second.post, Unreadable) and "JSON" in second.post.why
    now = utcnow()
    assert await service.front.failed(first, "given up", now, None) == "failed"
    assert await service.front.failed(second, "503", now, now + timedelta(seconds=4)) == "pending"
    assert await service.front.claim(gid, now + timedelta(seconds=2)) is None  # its backoff holds
    again = await service.front.claim(gid, now + timedelta(seconds=5))
    assert again is not None and again.id == second.id and again.attempts == 2


async def test_posts_written_through_the_front_are_the_old_rows(service: GameService) -> None:
    gid = await _game(service)
    ids = await service.front.post(gid, *(post for *_, post in OLD_ROWS))
    written = {r.id: r for r in await _rows(service, gid)}
    assert [(written[i].kind, written[i].payload, written[i].key) for i in ids] == \
        [(kind, text, key) for kind, text, key, _ in OLD_ROWS]
    # the service's own call, with a kind and payload, goes through the same types and refuses a misfit
    await service.front.enqueue(gid, "notice", {"text": "📣", "users": ["2"]})
    assert (await _rows(service, gid))[-1].payload == json.dumps({"text": "📣", "users": ["2"]})
    with pytest.raises(ValueError):
        await service.front.enqueue(gid, "notcie", {"text": "📣"})


async def test_a_board_tells_its_range_of_events(service: GameService) -> None:
    service.front.outbox = True
    gid = (await service.lobby.create_game(ANN, "c1")).id
    await service.lobby.join(ANN, gid, "A", "Ann")
    await service.lobby.join(Actor("2", "g"), gid, "B", "Bob")
    outcome = await service.commands.pick(ANN, gid, "Effective Fire")
    boards = [r for r in await _rows(service, gid) if r.id in outcome.posts and r.kind == "board"]
    board = decode_row("board", boards[0].payload)
    assert isinstance(board, Board)
    told = (await service.reading.board(gid, board.first, board.last)).events
    assert len(told) == outcome.last_seq - outcome.first_seq + 1
    assert [type(e) for e in told] == [type(e) for e in outcome.events]
    assert all(not isinstance(e, CardPicked) or e.card is None for e in told)  # as a spectator sees them
    assert (await service.reading.board(gid)).events == ()
    delivery = Delivery(boards[0].id or 0, gid, "board", 1, board)
    assert await service.front.later_boards(delivery) == 0


async def _rows(service: GameService, gid: int) -> list[OutboxRow]:
    async with service.store.repo.session() as s:
        return await outbox.rows_of(s, gid)

"""What the bot is to post about a game, one frozen dataclass per kind, like the events (game/events.py).

A post is stored as an outbox row (game/service/outbox.py): its kind, a word, and its fields as a JSON
object. This module is the one place that turns a post into a row and a row back into a post, so the
service writes typed posts and the courier (bot/outbox.py) receives them; nothing else reads payloads.

The rows on disk keep the shape they had when payloads were plain dicts: a kind's fields are its
payload's keys, and a field left at None is not written (a board with no new events is `{}`). Rows
written before the types existed therefore decode, and new rows read as old ones did.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from game.codec import from_data, to_data

T = TypeVar("T")


@dataclass(frozen=True)
class Post:
    """A post as its row is written: its kind, its payload, and (for once-only rows) a key."""

    kind: str
    payload: dict[str, Any]
    key: str | None = None


class PostRegistry:
    """The post types by kind, encoded as (kind, {field: value}) with None fields left out."""

    def __init__(self) -> None:
        self.types: dict[str, type] = {}
        self.kinds: dict[type, str] = {}

    def register(self, kind: str) -> Callable[[type[T]], type[T]]:
        def add(cls: type[T]) -> type[T]:
            if kind in self.types:
                raise ValueError(f"two post types for the kind {kind!r}")
            self.types[kind] = cls
            self.kinds[cls] = kind
            return cls
        return add

    def kind_of(self, post: Any) -> str:
        try:
            return self.kinds[type(post)]
        except KeyError as exc:
            raise TypeError(f"{type(post).__name__} is not a registered post type") from exc

    def encode(self, post: Any) -> tuple[str, dict[str, Any]]:
        kind = self.kind_of(post)
        data = to_data(post)
        assert isinstance(data, dict)
        return kind, {k: v for k, v in data.items() if v is not None}

    def decode(self, kind: str, payload: dict[str, Any]) -> Any:
        """The post of a stored row; ValueError when the kind is unknown or the payload does not fit it."""
        try:
            cls = self.types[kind]
        except KeyError as exc:
            raise ValueError(f"unknown post kind {kind!r}") from exc
        if not isinstance(payload, dict):
            raise ValueError(f"a {kind} post needs an object, got {payload!r}")
        names = {f.name for f in dataclasses.fields(cls)}
        try:
            return from_data(cls, {k: v for k, v in payload.items() if k in names})
        except (TypeError, KeyError) as exc:
            raise ValueError(f"a {kind} post does not fit: {exc}") from exc


POSTS = PostRegistry()

# where a kind's rows wait their turn (game/service/outbox.py): strictly in order in the channel; the
# newest status edit only; each DM on its own
CHANNEL, STATUS, DM = "channel", "status", "dm"


@POSTS.register("board")
@dataclass(frozen=True)
class Board:
    """The board with the account of events first..last (none: the game as it is, /game status)."""

    first: int | None = None
    last: int | None = None
    lane: ClassVar[str] = CHANNEL


@POSTS.register("status")
@dataclass(frozen=True)
class Status:
    """The game's status message, edited in place to show the game as it is when it goes out."""

    lane: ClassVar[str] = STATUS


@POSTS.register("created")
@dataclass(frozen=True)
class Created:
    """A new game's announcement where it is played."""

    system: str = "oak_and_iron"
    lane: ClassVar[str] = CHANNEL


@POSTS.register("nudge")
@dataclass(frozen=True)
class Nudge:
    """A DM to a member who owes an initiative pick this turn; written once per player and turn."""

    player: str
    user: str
    turn: int
    lane: ClassVar[str] = DM

    @property
    def key(self) -> str:
        return f"nudge:{self.player}:{self.turn}"


@POSTS.register("note")
@dataclass(frozen=True)
class Note:
    """What a player's standing orders did: theirs alone, by DM."""

    user: str
    player: str
    text: str
    lane: ClassVar[str] = DM


@POSTS.register("planned")
@dataclass(frozen=True)
class Planned:
    """A planned order the game refused when play reached it, told to its planner."""

    user: str
    player: str
    line: str
    reason: str
    lane: ClassVar[str] = CHANNEL


@POSTS.register("notice")
@dataclass(frozen=True)
class Notice:
    """A line for the channel (reminders, deadlines, stand-in pings), pinging only the users it names."""

    text: str = "…"
    users: tuple[str, ...] = ()
    lane: ClassVar[str] = CHANNEL

    @property
    def user_ids(self) -> list[int]:
        return [int(u) for u in self.users if u.isdigit()]


@POSTS.register("follow")
@dataclass(frozen=True)
class FollowBoard:
    """A follower's DM of a board post (game/service/following.py): the spectator's board and the
    account of events first..last, with a button to unfollow (`follow` is the follow's id)."""

    user: str
    follow: int
    first: int | None = None
    last: int | None = None
    lane: ClassVar[str] = DM


@POSTS.register("digest")
@dataclass(frozen=True)
class FollowDigest:
    """A follower's daily digest line for one game, with a button to unfollow."""

    user: str
    follow: int
    text: str
    lane: ClassVar[str] = DM



@POSTS.register("chronicle")
@dataclass(frozen=True)
class ChronicleCard:
    """A finished game's summary card (game/service/chronicle.py): in its channel with the Rematch
    button, or (`chronicle`) in the server's chronicle channel with a thread for after-action reports."""

    chronicle: bool = False
    lane: ClassVar[str] = CHANNEL


@POSTS.register("campaign")
@dataclass(frozen=True)
class CampaignBattleOver:
    """A campaign's battle has ended (game/service/campaigns.py): its channel is told which battle it
    was and that a GM now applies what carries over."""

    campaign: str = ""
    number: int = 0
    lane: ClassVar[str] = CHANNEL


@POSTS.register("league_round")
@dataclass(frozen=True)
class LeagueRound:
    """A league round that closed by itself as its last game ended (game/service/leagues.py): its results,
    the next round's games made and its pairings, or the final standings, in the league's channel; and a
    DM for each entrant who forfeits at once (`told`, `texts`). Carried by the game that ended last."""

    league: int
    round: int  # the round that closed
    told: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()
    lane: ClassVar[str] = CHANNEL


AnyPost = (Board | Status | Created | Nudge | Note | Planned | Notice | FollowBoard | FollowDigest | ChronicleCard
           | LeagueRound | CampaignBattleOver)


def stored(post: AnyPost) -> Post:
    """The row to write for a post (a nudge carries its once-only key)."""
    kind, payload = POSTS.encode(post)
    return Post(kind, payload, post.key if isinstance(post, Nudge) else None)


def stored_all(posts: Sequence[AnyPost]) -> list[Post]:
    return [stored(p) for p in posts]


def decode(kind: str, payload: dict[str, Any]) -> AnyPost:
    post: AnyPost = POSTS.decode(kind, payload)
    return post


def decode_row(kind: str, payload: str) -> AnyPost:
    """The post of a row as stored (its payload as JSON text); ValueError if it cannot be read."""
    try:
        data = json.loads(payload)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the payload is not JSON: {exc}") from exc
    return decode(kind, data)


def lane(kind: str) -> str:
    """Where rows of this kind wait their turn; a kind no type claims waits in the channel, in order."""
    cls = POSTS.types.get(kind)
    found = getattr(cls, "lane", CHANNEL) if cls is not None else CHANNEL
    return str(found)

"""What each person receives from the real bot on the fake Discord, and the checks on it.

Everything is read off the requests the bot made: channel posts and edits, the answers to the person's
own interactions (ephemeral or not), their DMs, autocomplete choices, the files attached (a board image
is read as the text the renderer drew into it (a ship sheet's too), a JSON, TOML or zip file as its text). The whole JSON
payload is searched, so a name in a select option or a component label counts as much as one in the
content."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any

from game import events as ev
from game.model import Game
from game.service.game_service import Actor
from game.views import View
from tests.bot.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    FakeDiscord,
    Sent,
    _base,
    _options,
    command,
    component,
)

ANN = (111111111111111111, "Ann")  # player A: the opponent whose eyes are on B's cards
BOB = (222222222222222222, "Bob")  # player B
EVE = (333333333333333333, "Eve")  # a spectator: a plain member of the channel, no seat
GUS = (777777777777777777, "Gus")  # a member without a seat who holds the server's GM role
GM_ROLE = 555555555555555555
MANAGE_GUILD = 1 << 5
OTHER_CHANNEL = OTHER_CHANNEL_ID  # another channel of the same server

# the people who must learn nothing of B's hand (and, for the last two, of A's) before its reveal
ADVERSARIES = {"opponent": ANN, "spectator": EVE, "member without a seat": GUS}
SEATS = {ANN[0]: "A", BOB[0]: "B"}
ROLES = {GUS[0]: (GM_ROLE,)}

# a dice seed: 64 hex digits; the fixture hands out SEEDS[0], SEEDS[1], … to the games in order
SEEDS = tuple(f"{i:02x}" * 32 for i in (0xA7, 0x3C, 0x5E, 0x91))


@dataclass(frozen=True)
class Item:
    """One thing a person received."""

    kind: str  # channel | answer | dm | autocomplete
    text: str  # the whole payload as JSON, plus every attached file's text
    sent: Sent

    def has(self, needle: str) -> bool:
        return needle in self.text


@dataclass
class Drawn:
    """The renderer's record: for each PNG it made, the text drawn into it, and every view it drew."""

    texts: dict[bytes, list[str]] = field(default_factory=dict)
    views: list[View] = field(default_factory=list)


def _file_text(name: str, data: bytes, drawn: Drawn) -> str:
    body = bytes(data)
    if body[:8] == b"\x89PNG\r\n\x1a\n":
        assert body in drawn.texts, f"{name}: a PNG the renderer did not draw"
        return "\n".join(drawn.texts[body])
    if name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(body)) as z:
            return "\n".join(z.read(n).decode("utf-8", errors="replace") for n in z.namelist())
    return body.decode("utf-8", errors="replace")


def item_text(sent: Sent, drawn: Drawn) -> str:
    parts = [json.dumps(sent.payload, ensure_ascii=False)]
    parts += [_file_text(name, body, drawn) for name, body in sent.files]
    return "\n".join(parts)


def _is_dm(fake: FakeDiscord, sent: Sent, user: int | None = None) -> bool:
    channels = fake.dm_channels.values() if user is None else [fake.dm_channels.get(str(user), "-")]
    return sent.method == "POST" and any(sent.path == f"/api/v10/channels/{c}/messages" for c in channels)


def _is_public(fake: FakeDiscord, sent: Sent) -> bool:
    if sent.path.startswith("/api/v10/channels/") and sent.method in ("POST", "PATCH") and "/messages" in sent.path:
        return not _is_dm(fake, sent)
    data = sent.payload.get("data", sent.payload) if "/callback" in sent.path else sent.payload
    answer = sent.path.startswith("/api/v10/webhooks/") or ("/callback" in sent.path and sent.payload.get("type") == 4)
    return answer and bool(data.get("content") or sent.files) and not sent.ephemeral


class Table:
    """The bot, the fake Discord and who sent which interaction."""

    def __init__(self, bot: Any, fake: FakeDiscord, drawn: Drawn) -> None:
        self.bot, self.fake, self.drawn = bot, fake, drawn
        self.service = bot.service
        self.tokens: dict[str, int] = {}  # interaction token -> the user who sent it
        self.lookups: set[str] = set()  # tokens of rules lookups (the same answer in every game)
        self.here = CHANNEL_ID  # where the game is: the sweep sends there (a tutorial's thread)

    # ------------------------------------------------------------------ sending

    async def send(self, user: tuple[int, str], payload: dict[str, Any], settle: float = 5.0,
                   lookup: bool = False) -> list[Sent]:
        """Feed an interaction to discord.py as the gateway would; back when its answer has gone out."""
        token = str(payload["token"])
        self.tokens[token] = user[0]
        if lookup:
            self.lookups.add(token)
        before = len(self.fake.requests)
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def listen(sent: Sent) -> None:
            if token_of(sent) == token and _final(sent) and not answered.done():
                answered.set_result(None)

        self.fake.listeners.append(listen)
        try:
            self.fake.receive(payload)
            self.bot._connection.parse_interaction_create(payload)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(answered, settle)
        finally:
            self.fake.listeners.remove(listen)
        await asyncio.sleep(0)
        return self.fake.requests[before:]

    async def cmd(self, user: tuple[int, str], name: str, sub: str | None = None, /, lookup: bool = False,
                  channel_id: int | None = None, settle: float = 5.0, **values: Any) -> Sent:
        """A slash command; the last answer the sender got (the error or the result)."""
        payload = command(user, name, sub, channel_id=channel_id or self.here, roles=ROLES.get(user[0], ()), **values)
        sent = await self.send(user, payload, settle=settle, lookup=lookup)
        return last_answer(sent, payload["token"])

    async def press(self, user: tuple[int, str], custom_id: str, message_id: str = "1",
                    values: list[str] | None = None, channel_id: int | None = None, settle: float = 5.0) -> Sent | None:
        kind = 2 if values is None else 3
        payload = component(user, custom_id, message_id, kind, values, channel_id=channel_id or self.here)
        payload["member"]["roles"] = [str(r) for r in ROLES.get(user[0], ())]
        sent = await self.send(user, payload, settle=settle)
        mine = [r for r in sent if payload["token"] in r.path and (r.path.startswith("/api/v10/webhooks/")
                                                                    or r.payload.get("type") == 4)]
        return mine[-1] if mine else None

    async def open_hand(self, user: tuple[int, str], channel_id: int | None = None) -> tuple[Sent | None, str, str]:
        """Press **Choose initiative card**: the private answer, its menu's custom id ("" if none) and the
        id of the message the menu is on (the deferred answer, which the follow-up fills)."""
        mark = self.mark()
        opened = await self.press(user, "qd:pick:1", channel_id=channel_id)
        menus = [c for c in components_of(opened) if c.get("type") == 3] if opened is not None else []
        token = token_of(opened) if opened is not None else None
        deferred = [r for r in self.fake.requests[mark:] if token and token_of(r) == token and "/callback" in r.path]
        return opened, (str(menus[0]["custom_id"]) if menus else ""), (deferred[0].response_message_id if deferred else "1")

    async def roll_ids(self, game_id: int = 1) -> dict[str, str]:
        """The custom ids of the roll buttons as the newest board post would carry them now."""
        roll = await self.service.reading.roll_decision(game_id) or 0
        return {"keep": f"qd:keep:{game_id}:{roll}", "fortune": f"qd:fortune:{game_id}:{roll}",
                "reroll": f"qd:reroll:{game_id}:{roll}:5:1"}

    async def complete(self, user: tuple[int, str], name: str, sub: str | None, option: str, typed: str,
                       lookup: bool = False, **values: Any) -> list[str]:
        """An autocomplete request for `option` with `typed` so far: the choices offered."""
        opts = _options(values)
        opts.append({"name": option, "type": 3, "value": typed, "focused": True})
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        data = {"id": "1", "name": name, "type": 1, "options": opts, "guild_id": str(GUILD_ID)}
        payload = _base(user, self.here, 4, data, roles=ROLES.get(user[0], ()))
        sent = await self.send(user, payload, lookup=lookup)
        found = [r for r in sent if token_of(r) == payload["token"] and r.payload.get("type") == 8]
        assert found, f"no autocomplete answer for /{name} {sub or ''} {option}"
        return [c["value"] for c in found[-1].payload["data"]["choices"]]

    # ------------------------------------------------------------------ receiving

    def received(self, user: tuple[int, str], since: int = 0, lookups: bool = False) -> list[Item]:
        """Everything this person could read: the channel, the answers to their own interactions, their
        DMs. Rules lookups (/rules, /help, /data, /squadron) are left out unless asked for."""
        out = []
        for sent in self.fake.requests[since:]:
            token = token_of(sent)
            if token is not None and token in self.lookups and not lookups:
                continue
            if token is not None and self.tokens.get(token) == user[0]:
                kind = "autocomplete" if sent.payload.get("type") == 8 else "answer"
            elif _is_dm(self.fake, sent, user[0]):
                kind = "dm"
            elif _is_public(self.fake, sent):
                kind = "channel"
            else:
                continue
            out.append(Item(kind, item_text(sent, self.drawn), sent))
        return out

    def public(self, since: int = 0) -> list[Item]:
        return [Item("channel", item_text(s, self.drawn), s) for s in self.fake.requests[since:]
                if _is_public(self.fake, s)]

    def seen_by(self, user: tuple[int, str], since: int = 0) -> str:
        """The text of every channel message this member could read, posted since `since`."""
        return "\n".join(r.content for r in self.fake.requests[since:] if r.in_channel and _is_public(self.fake, r)
                         and r.message is not None and r.message in self.fake.visible_to(user[0]))

    def dms_to(self, user: tuple[int, str], since: int = 0) -> list[Item]:
        return [Item("dm", item_text(s, self.drawn), s) for s in self.fake.requests[since:]
                if _is_dm(self.fake, s, user[0])]

    def mark(self) -> int:
        return len(self.fake.requests)

    # ------------------------------------------------------------------ the game behind the scenes

    async def state(self, game_id: int = 1) -> Game:
        return await self.service.reading.state_for_audit(game_id)

    async def seed(self, game_id: int = 1) -> str:
        return str((await self.service.store.repo.load(game_id)).record.dice_seed)

    async def version(self, game_id: int = 1) -> int:
        return int((await self.service.store.repo.load(game_id)).record.last_seq)

    async def submit(self, user: tuple[int, str], line: Any, game_id: int = 1) -> Any:
        """A player's own order given straight to the service: moving the game on between checks."""
        return await self.service.commands.submit(Actor(str(user[0]), str(GUILD_ID)), game_id, line)

    async def log_events(self, game_id: int = 1) -> list[Any]:
        return [e for _, _, e in await self.service.store.repo.events(game_id)]


def _final(sent: Sent) -> bool:
    """The last request of an interaction: its follow-up, or a callback that answers it outright."""
    return (sent.path.startswith("/api/v10/webhooks/") and sent.method == "POST") or (
        "/callback" in sent.path and sent.payload.get("type") in (4, 8))


def token_of(sent: Sent) -> str | None:
    """The interaction token in a callback or follow-up path."""
    parts = sent.path.split("/")
    if sent.path.startswith("/api/v10/webhooks/") and len(parts) > 5:
        return parts[5]
    if sent.path.startswith("/api/v10/interactions/") and len(parts) > 5:
        return parts[5]
    return None


def last_answer(sent: list[Sent], token: str) -> Sent:
    mine = [r for r in sent if token in r.path and (r.path.startswith("/api/v10/webhooks/")
                                                   or (r.payload.get("type") == 4))]
    assert mine, [(r.method, r.path) for r in sent]
    assert mine[-1].status < 300, f"Discord refused the answer ({mine[-1].status}): {mine[-1].content[:200]}"
    return mine[-1]


def components_of(sent: Sent | None) -> list[dict[str, Any]]:
    """The components of a post or an answer, out of their action rows."""
    if sent is None:
        return []
    data = sent.payload.get("data", sent.payload) if "/callback" in sent.path else sent.payload
    return [c for row in data.get("components") or [] for c in row.get("components") or []]


def answer_text(sent: Sent | None) -> str:
    if sent is None:
        return ""
    data = sent.payload.get("data", sent.payload) if "/callback" in sent.path else sent.payload
    return str(data.get("content") or "")


# ---------------------------------------------------------------------- what must stay hidden


def cards_of(state: Game, players: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for q in state.squadrons:
        if q.player in players:
            out |= {c for c in (*q.hand, q.face_down, q.face_up, *q.discards) if c}
    return out


def hidden_cards(state: Game, log: Iterable[Any], viewer_players: Iterable[str]) -> set[str]:
    """The initiative cards the viewer may not know: the other sides' hands and face-down cards, less
    every card shown face up, discarded or revealed so far and the viewer's own cards."""
    mine = set(viewer_players)
    public = {c for q in state.squadrons for c in (q.face_up, q.borrowed, *q.discards) if c}
    for e in log:
        if isinstance(e, ev.CardsRevealed):
            public |= {c for _, c in e.cards if c}
        elif isinstance(e, ev.EffectBorrowed):
            public.add(e.card)
    hidden: set[str] = set()
    for q in state.squadrons:
        if q.player not in mine:
            hidden |= {c for c in (*q.hand, q.face_down) if c}
    return hidden - public - cards_of(state, mine)


async def assert_learns_nothing(table: Table, user: tuple[int, str], who: str, since: int = 0) -> None:
    """Nothing this person received since then names a card they may not know now, or the seed."""
    state, log = await table.state(), await table.log_events()
    hidden = hidden_cards(state, log, [SEATS[user[0]]] if user[0] in SEATS else [])
    assert hidden, "nothing secret to keep: the check tests nothing"
    assert_nothing_hidden(table.received(user, since=since), hidden, await table.seed(), who)


def assert_nothing_hidden(items: Iterable[Item], hidden: set[str], seed: str, who: str) -> None:
    for item in items:
        leaked = sorted(c for c in hidden if item.has(c))
        assert not leaked, f"{who} received hidden card(s) {leaked} in a {item.kind}: {item.text[:600]}"
        assert seed not in item.text and seed.upper() not in item.text, f"{who} received the dice seed: {item.kind}"


def strings_in(obj: Any) -> Iterator[str]:
    """Every string a value holds, however deep (a view, an event, a state)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, Enum):
        yield str(obj.value)
    elif is_dataclass(obj):
        for f in fields(obj):
            yield from strings_in(getattr(obj, f.name))
    elif isinstance(obj, tuple | list | set | frozenset):
        for x in obj:
            if not isinstance(x, int | float):  # skip the numbers of geometry quickly
                yield from strings_in(x)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings_in(k)
            yield from strings_in(v)


def assert_view_keeps_secrets(view: View, state: Game, log: Iterable[Any]) -> None:
    """A view carries no seed, no dice position, no event deck and no card its viewer may not know."""
    g = view.game
    assert (g.seed, g.log_position, g.event_deck) == (0, 0, ()), (g.seed, g.log_position, g.event_deck)
    hidden = hidden_cards(state, log, [view.viewer] if view.viewer else [])
    leaked = hidden & set(strings_in(view))
    assert not leaked, f"the view of {view.viewer or 'a spectator'} holds {sorted(leaked)}"


MENTION = re.compile(r"<@!?(\d+)>")


def assert_no_ping(sent: Sent) -> None:
    """A message pings nobody but the users it names, and never @everyone, @here or a role."""
    data = sent.payload.get("data", sent.payload) if "/callback" in sent.path else sent.payload
    if not data.get("content"):
        return
    allowed = data.get("allowed_mentions")
    assert allowed is not None, f"no allowed_mentions (Discord would ping everything named): {data['content'][:200]}"
    assert allowed.get("parse") == [], allowed
    assert not allowed.get("roles"), allowed
    named = set(MENTION.findall(str(data["content"])))
    assert {str(u) for u in allowed.get("users", [])} <= named, (allowed, data["content"][:200])


def assert_no_pings(fake: FakeDiscord, since: int = 0) -> None:
    for sent in fake.requests[since:]:
        assert_no_ping(sent)


def spy_renderer(drawn: Drawn) -> Callable[..., bytes]:
    """render.board.render_board, recording what each image shows (the real renderer still draws it)."""
    from render import board

    real = board.render_board

    def render_board(view: Any, options: Any = None) -> bytes:
        png = real(view, options)
        drawn.texts[png] = board.scene_texts(view, options)
        drawn.views.append(view)
        return png

    return render_board


def spy_sheets(drawn: Drawn) -> Callable[..., tuple[bytes, str]]:
    """render.ship_sheet.render_sheet, recording the texts drawn into each ship sheet's image."""
    from render import ship_sheet

    real = ship_sheet.render_sheet

    def render_sheet(sheet: Any) -> tuple[bytes, str]:
        png, alt = real(sheet)
        drawn.texts[png] = ship_sheet.texts(ship_sheet.sheet_figure(sheet))
        return png, alt

    return render_sheet


def spy_cards(drawn: Drawn) -> Callable[..., tuple[bytes, str]]:
    """render.summary_card.summary_card, recording the texts drawn into each finished game's card."""
    from matplotlib.text import Text

    from render import summary_card as cards

    real = cards.summary_card

    def summary_card(summary: Any, card: Any) -> tuple[bytes, str]:
        png, alt = real(summary, card)
        drawn.texts[png] = [t.get_text() for t in cards.summary_figure(summary, card).findobj(Text)]
        return png, alt

    return summary_card


def discord_role(role_id: int, name: str) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 1, "permissions": "0",
            "managed": False, "mentionable": True, "flags": 0}


def gm_role_command(user: tuple[int, str], role_id: int, permissions: int = 0,
                    roles: tuple[int, ...] = ()) -> dict[str, Any]:
    """/game gm-role with a role option, as Discord resolves it."""
    payload = command(user, "game", "gm-role", roles=roles, permissions=permissions)
    payload["data"]["options"][0]["options"] = [{"name": "role", "type": 8, "value": str(role_id)}]
    payload["data"]["resolved"] = {"roles": {str(role_id): discord_role(role_id, "Admirals")}}
    return payload



async def deadline_passes(table: Table, player: str, game_id: int = 1) -> None:
    """The player's current deadline lies in the past (as if 48 hours had gone by)."""
    from datetime import timedelta

    from sqlalchemy import update

    from game.service.models import ScheduledJob, utcnow

    async with table.service.store.repo.session() as s, s.begin():
        await s.execute(update(ScheduledJob)
                        .where(ScheduledJob.kind == "deadline", ScheduledJob.game_id == game_id,  # type: ignore[arg-type]
                               ScheduledJob.payload.contains(f'"player": "{player}"'))  # type: ignore[attr-defined]
                        .values(due_at=utcnow() - timedelta(minutes=1)))
    assert player in await table.service.store.repo.overdue_players(game_id, utcnow())


def spy_campaigns(drawn: Drawn) -> Callable[..., tuple[bytes, str]]:
    """render.campaign.campaign_png, recording the texts drawn into each campaign picture."""
    from matplotlib.text import Text

    from render import campaign

    real = campaign.campaign_png

    def campaign_png(picture: Any) -> tuple[bytes, str]:
        png, alt = real(picture)
        drawn.texts[png] = [t.get_text() for t in campaign.campaign_figure(picture).findobj(Text)]
        return png, alt

    return campaign_png

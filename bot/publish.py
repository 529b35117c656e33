"""What the bot posts after a command: a short account with dice faces, the board, who acts next
(mentioning only that player), prompts for pending decisions, and the status message edited in place."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.dms import send_dm
from bot.faces import faces
from bot.limits import MAX_CONTENT, fit
from bot.markup import chat
from bot.views import options_view, pick_view, reroll_view
from game import events as ev
from game import names
from game.account import account_lines
from game.options import SHOWN_CHARS, SHOWN_LINE
from game.phases.common import choice_hint
from game.phases.preparation import what_now as setup_what_now
from game.roll_text import reroll_offer
from game.service.game_service import GameInfo, GameService
from game.service.results import BoardRead, SeatInfo
from game.systems import system
from game.views import View, event_for
from render.alt_text import board_alt
from render.options import RenderOptions
from render.overlays import deployment_zones, last_attacks, last_move
from render.pooled import render_board_async  # draws in a worker process

log = logging.getLogger(__name__)

MAX_ACCOUNT = 1800
MAX_OPTIONS = SHOWN_CHARS  # what the player to act can do: the rest is one /options away
MAX_HINT = 700  # a tutorial's hint (the movement one is the longest, ~560): the account gets the rest


def account_text(events: Sequence[Any], limit: int = MAX_ACCOUNT) -> str:
    # the batch's lines, with a pass or a hold said (no event says it)
    told = account_lines([e for e in events if not isinstance(e, ev.CardPicked | ev.ActivePlayer)])
    lines = [faces(line) for line in told if line]
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    # the newest lines lead to the board they are posted with (moves played in a burst, one post)
    head = "… (earlier: /log)"
    kept: list[str] = []
    used = len(head)
    for line in reversed(lines):
        if used + 1 + len(line) > limit:
            break
        kept.append(line)
        used += 1 + len(line)
    if not kept:  # one line longer than the whole: its end
        return fit(f"{head}\n…{lines[-1][-max(1, limit - len(head) - 2):]}", limit)
    return "\n".join([head, *reversed(kept)])


def options_text(lines: Sequence[str], limit: int = MAX_OPTIONS, more: int = 0) -> str:
    """The options of the player to act, one line per ship, cut with "and N more" to fit; `more`
    lines were left out unworked (Options.left_out: always past the cut)."""
    out: list[str] = []
    for i, line in enumerate(lines):
        line = line if len(line) <= SHOWN_LINE else line[:SHOWN_LINE - 3] + "…"
        if sum(len(x) + 1 for x in out) + len(line) > limit:
            out.append(f"… and {len(lines) - i + more} more (`/options`)")
            break
        out.append(line)
    else:
        if more:  # shown_options never leaves out what fits: said rather than hidden all the same
            out.append(f"… and {more} more (`/options`)")
    return "\n".join(f"• {x}" if not x.startswith("…") else x for x in out)


def seat_user(info_seats: Sequence[SeatInfo], player: str) -> str | None:
    for seat in info_seats:
        if seat.player == player and not seat.ai:
            return seat.user_id
    return None


def waiting_text(view: View, seats: Sequence[SeatInfo],
                 due: Sequence[str]) -> tuple[str, list[int]]:
    """Who the game waits for (`due`, read by the service off the whole state: a spectator's view
    cannot tell who still holds cards), with a mention of those players only."""
    g = view.game
    if g.winner or g.phase.value == "over":
        return f"🏁 **Game over**: player {g.winner} wins ({g.result}).", []
    # a member holding two squadrons of a fleet battle is named (and pinged) once, with both sides
    held: dict[str, list[str]] = {}
    parts = []
    for player in sorted(due):
        user = seat_user(seats, player)
        if user and user.isdigit():
            held.setdefault(user, []).append(player)
        else:
            parts.append(f"player {player}")
    parts = [f"<@{user}> (player{'s' if len(ps) > 1 else ''} {' and '.join(ps)})" for user, ps in held.items()] + parts
    users = [int(user) for user in held]
    if not parts:
        return "", []
    if g.phase.value == "preparation":
        what = f"set-up: {setup_what_now(g)}"
    elif g.phase.value in ("setup", "initiative") and not g.pending and not g.choices:
        what = "choose an initiative card (press **Choose initiative card**)"
    elif g.pending is not None:
        what = f"decide on {names.text(g.pending.ship)}'s roll (buttons below) — {reroll_offer(g)}, or keep"
    elif g.offer is not None:
        what = f"take or decline a free attack on {names.text(g.offer.target)}: `/order free fire …` or `/order decline`"
    elif g.choices:
        ch = g.choices[0]
        what = f"decide about {names.text(ch.ship)} ({ch.kind.replace('_', ' ')}) with `/order`: {choice_hint(ch.kind)}"
    else:
        what = f"activate a ship ({g.phase.value} phase)"
    return f"➡️ {' and '.join(parts)}: {what}.", users


async def page_link(client: discord.Client, service: GameService, game_id: int) -> str:
    """The game's web page (docs/web.md) when WEB_BASE_URL is set, else "". A page not offered (another
    system's game) or a database that cannot make its token now gives no link, never a failed post."""
    base = getattr(client, "web_base_url", "")
    if not base:
        return ""
    try:
        return f"{base}g/{await service.web.game_token(game_id)}/"
    except Exception:
        log.exception("no web page link for game %s", game_id)
        return ""


def page_line(link: str) -> str:
    # the angle brackets keep Discord from unfurling a preview of the page under the post
    return f"🌐 Follow it live on the web: <{link}>" if link else ""


def created_text(info: GameInfo, system_name: str, link: str = "") -> str:
    """A new game's announcement in its channel or thread: what it is, how to take a side, and the
    SHA-256 of its secret dice seed, which everyone can compare with the seed shown at the end."""
    name = names.text(info.name)
    free = [s.player for s in info.seats if s.free]
    if system_name != "oak_and_iron":
        head = f"⚓ **{name}** (game #{info.id}, {system(system_name).title}) is set up here."
        how = ("Take a seat with `/ref join` (the referee's too); then play with `/ref do` and give secret orders "
               "with `/ref order`.")
        seats = f"Seats: {', '.join(s.player for s in info.seats)}."
    else:
        head = f"⚓ **{name}** (game #{info.id}) is set up here."
        bring = " with one of your saved squadrons (`squadron:`)" if info.phase == "preparation" else ""
        how = (f"Take a side with `/game join`{bring} (or give one to the computer captain with `ai: True`)."
               if free else "")
        seats = "Sides: " + ", ".join(s.player if s.free else f"{s.player}: {names.text(fit(s.name, 40))}"
                                      for s in info.seats) + "."
    seed = (f"🎲 The dice come from a secret seed whose SHA-256 is `{info.dice_commitment}`; the seed is shown "
            "when the game ends, and `/game verify` then recomputes every roll.")
    return fit("\n".join(x for x in (f"{head} {seats} {how}".strip(), seed, page_line(link)) if x))


async def post_board(channel: discord.abc.Messageable, read: BoardRead, *, nonce: str) -> None:
    """Post the account of the read's events, the board and the next prompt in the game channel (the
    courier does, for a board row of the outbox: bot/outbox.py, whose row gives the `nonce`)."""
    info, spectator, game_id = read.info, read.spectator, read.info.id
    events = list(read.events)  # as a spectator sees them: what a player alone may see is redacted
    waiting = read.waiting
    mention, users = waiting_text(spectator, info.seats, [o.player for o in waiting])
    what_now = options_text([names.prose(line) for o in waiting for line in o.lines()[1:]],
                            more=sum(o.left_out for o in waiting))
    ended = any(isinstance(e, ev.GameEnded) for e in events)
    reveal = (f"🎲 The dice seed was `{read.seed}` (its SHA-256 was posted when the game began): `/game verify` "
              "recomputes every roll; `/game replay` shows the whole game again." if read.seed and ended else "")
    overrides = chat(read.overrides) if ended else ""  # never only in the middle of the log
    hint = fit(names.prose(read.hint), MAX_HINT) if read.hint else ""  # a tutorial's (game/tutorial.py)
    tail = "\n".join(x for x in (mention, what_now, hint, overrides, reveal) if x)
    text = account_text(events, min(MAX_ACCOUNT, MAX_CONTENT - len(tail) - 2)) if events else ""
    body = "\n".join(x for x in (text, tail) if x) or "…"
    zones = deployment_zones(spectator.game, read.rules)
    options = RenderOptions(last_move=last_move(events), last_attacks=last_attacks(events), zones=zones,
                            rules=read.rules)
    png = await render_board_async(spectator, options)
    view: discord.ui.View | None = None
    g = spectator.game
    if g.pending is not None:
        view = reroll_view(game_id, read.roll or 0, g.pending)
    elif g.phase.value in ("setup", "initiative") and not g.choices and read.due:  # owes_pick, off the whole state
        view = pick_view(game_id)
    elif len(waiting) == 1 and any(o.order for o in waiting[0].items) and seat_user(info.seats, waiting[0].player):
        view = options_view(game_id, read.position, waiting[0])
    kwargs: dict[str, Any] = {
        "content": fit(body),
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users], roles=False,
                                                    everyone=False),
        "nonce": nonce,  # the refused first try made no message: the second may carry the same nonce
    }
    if view is not None:
        kwargs["view"] = view
    try:
        alt = board_alt(spectator, options.last_move, options.last_attacks)
        await channel.send(file=discord.File(io.BytesIO(png), filename=f"board-{game_id}.png", description=alt),
                           **kwargs)
    except discord.Forbidden:
        log.warning("cannot attach files in the channel of game %s", game_id)
        warning = "\n⚠️ I may not attach files here, so no board image (give me *Attach Files*)."
        await channel.send(fit(body, MAX_CONTENT - len(warning)) + warning,
                           **{k: v for k, v in kwargs.items() if k != "content"})


async def post_account(channel: discord.abc.Messageable, logged: Sequence[Any], *, nonce: str) -> None:
    """Only the account of these events: for a board post that a newer one already follows (posts held
    back by a failure, going out late), whose picture and prompt would show the game as it is now."""
    text = account_text([event_for(e, None) for e in logged])
    if text:
        await channel.send(fit(text), allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)


async def update_status(channel: discord.PartialMessageable, service: GameService, read: BoardRead,
                        link: str = "", *, nonce: str) -> None:
    """One status message per game, edited in place, showing the game as it is now (the courier
    coalesces the edits of a game: the last state wins)."""
    g, game_id = read.spectator.game, read.info.id
    waiting = ", ".join(f"player {p}" for p in read.due) or "nobody"
    deadline = read.deadline
    when = f" · deadline <t:{int(deadline.timestamp())}:R>" if deadline and g.phase.value != "over" else ""
    if read.paused and g.phase.value != "over":
        until = read.paused_until
        when = f" · ⏸️ clock paused{f' until <t:{int(until.timestamp())}:f>' if until else ''}"
    result = f" · **player {g.winner} wins** ({g.result})" if g.winner else ""
    content = (f"📋 **{names.text(read.info.name)}** (game #{game_id}) — turn {g.turn} · {g.phase.value} phase · "
               f"waiting for {waiting}{when}{result}" + (f"\n{page_line(link)}" if link else ""))
    if read.status_message is not None:
        try:
            await channel.get_partial_message(int(read.status_message)).edit(content=content)
            return
        except discord.NotFound:
            pass  # the status message was deleted: a new one takes its place
    # a retry after a crash between the post and this record is given the first message back, by its nonce
    sent = await channel.send(content, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)
    await service.front.set_status_message(game_id, str(sent.id))


async def nudge(client: discord.Client, game_id: int, user_id: str, link: str, *, nonce: str) -> None:
    """A DM to a player who owes an initiative pick, with a link to the game channel. It raises when
    Discord refuses (a closed DM: 50007): the courier records that and does not try again."""
    await send_dm(client, int(user_id), f"⚓ Your initiative card for game #{game_id} is due. Choose it in the game channel "
                    f"with the **Choose initiative card** button. {link}\n`/mygames` lists every game waiting on you.",
                    nonce=nonce)

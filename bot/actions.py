"""One way every interaction is handled: defer first, one service call, then the messages. Rules
errors answer privately with what is allowed; the service's faults privately as its own trouble, with
what to do; anything unexpected is logged and answered with a plain apology; the service's
transaction means nothing is ever half-applied."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.dms import send_dm
from bot.limits import MAX_CHOICE_NAME, MAX_CHOICES, error_text, fit
from bot.markup import chat
from game import names
from game.errors import RulesError
from game.fuzzy import ranked
from game.service.errors import ServiceError
from game.service.game_service import Actor, AlreadyDecided, GameNotFound, GameService, Outcome
from game.service.metrics import ERRORS
from game.service.orders_service import OrderNote
from game.service.results import PlanRefused
from game.views import View

log = logging.getLogger(__name__)

Action = Callable[[GameService, Actor, int], Awaitable[Outcome | None]]
Retire = Callable[[discord.Interaction], Awaitable[None]]
Preview = Callable[[GameService, View, int], Awaitable[tuple[bytes, str]]]
UNEXPECTED = "⚠️ Something went wrong on my side. Nothing was changed by it, and the error has been logged."
FAULT = "⚠️ A problem on my side, not with your order: "
FAULT_ADVICE = "Nothing was changed. If it keeps happening, tell whoever runs this bot."
ANNOUNCE_LATER = (" I could not post its announcement there yet (I need View Channel, Send Messages and, in a "
                  "thread, Send Messages in Threads); it is tried again until it goes out.")


def choices(names: list[str], current: str) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete: the names containing what was typed so far, then those it is a typo of (Discord
    takes 25, of 100 characters). `names` are only what the asker may see: ranking adds no name."""
    return [discord.app_commands.Choice(name=n[:MAX_CHOICE_NAME], value=n[:MAX_CHOICE_NAME])
            for n in ranked(current, names)[:MAX_CHOICES]]


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined, no-any-return]


async def actor_of(interaction: discord.Interaction) -> Actor:
    guild = str(interaction.guild_id or f"dm-{interaction.user.id}")
    gm = False
    member = interaction.user
    if isinstance(member, discord.Member):
        settings = await service_of(interaction).data.settings(guild)  # cached: read on every keystroke
        # the role ids as the interaction carried them (the guild's role cache may not hold them yet)
        role_ids = {str(r) for r in getattr(member, "_roles", [])} | {str(r.id) for r in member.roles}
        gm = interaction.permissions.manage_guild or (
            settings.gm_role_id is not None and settings.gm_role_id in role_ids
        )
    return Actor(str(interaction.user.id), guild, gm=gm)


def channel_key(interaction: discord.Interaction) -> str:
    return str(interaction.channel_id)


async def game_here(interaction: discord.Interaction, include_over: bool = False) -> int:
    """The game of this channel or thread (for looking, also the last finished one)."""
    service = service_of(interaction)
    found = await service.lobby.game_here(str(interaction.guild_id), channel_key(interaction), include_over)
    if found is None:
        raise GameNotFound("There is no game in progress in this channel.",
                           "Start one with /game create, or go to the game's channel or thread.")
    return found


async def defer(interaction: discord.Interaction, update: bool = False) -> bool:
    """Acknowledge within Discord's 3 seconds. False if the interaction has expired. A deferral is
    always private: its first follow-up keeps the deferral's visibility (Discord's "Create Followup
    Message"), so what everyone may read is posted in the channel instead (`post_here`, the outbox).
    With `update`, a component's own message is what the interaction may edit later (for a menu on a
    private message, which only its interaction can change); the answers are follow-ups either way."""
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.NotFound:
        log.warning("interaction %s expired before it was acknowledged", interaction.id)
        return False
    except discord.InteractionResponded:
        pass
    return True


def refusal(exc: RulesError, hint: str = "") -> str:
    """A rules error as the private answer: what was wrong (cut first if long), what is allowed. Both
    echo names and what was typed, unescaped where the game wrote them: here they become text."""
    return error_text(chat(names.prose(exc.message)), chat(names.prose(f"{exc.allowed}{hint}".strip())))


def fault(exc: ServiceError) -> str:
    """A fault of the service as the private answer: what went wrong, owned as the bot's own trouble
    (the order may well be fine, so nothing in it says the order was refused), what to do, and whom to
    tell when trying again does not help."""
    what = exc.allowed or "Try again in a moment."
    return error_text(names.prose(exc.message), names.prose(f"{what} {FAULT_ADVICE}"), prefix=FAULT)


def answer(exc: RulesError | ServiceError) -> str:
    """The private answer to a refusal (the rules' or the service's) or a fault, each in its own words."""
    return refusal(exc) if isinstance(exc, RulesError) else fault(exc)


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """A private answer, cut to what one message may hold."""
    try:
        await interaction.followup.send(fit(content), ephemeral=True, **kwargs)
    except discord.NotFound:
        log.warning("interaction %s expired before the answer", interaction.id)


async def deliver(interaction: discord.Interaction, game_id: int) -> int:
    """What the service wrote to the outbox for this game goes out now (the courier retries what
    fails): how many posts went out."""
    courier = getattr(interaction.client, "courier", None)
    return int(await courier.drain(game_id)) if courier is not None else 0


async def post_here(interaction: discord.Interaction, content: str, **kwargs: Any) -> bool:
    """A public answer, as a message of the interaction's channel or thread. A deferral's visibility is
    kept by its first answer (Discord's "Create Followup Message"), so a command that may refuse
    privately defers privately and posts what everyone may read like this. False if Discord refused
    it (the caller tells the user privately)."""
    # by id, as the courier reaches a game's channel: works for a thread the cache does not hold
    channel = interaction.client.get_partial_messageable(interaction.channel_id or 0, guild_id=interaction.guild_id)
    try:
        await channel.send(fit(content), allowed_mentions=discord.AllowedMentions.none(), **kwargs)
    except discord.HTTPException as exc:
        log.warning("could not post in channel %s: %s", interaction.channel_id, exc)
        return False
    return True


async def act(interaction: discord.Interaction, action: Action,
              done: str | Callable[[int], Awaitable[str]] = "✅ Done.", publish_result: bool = True,
              game_id: int | None = None, retire: Retire | None = None) -> Outcome | None:
    """`retire` takes the components off the message they were pressed on, once the decision they
    answer is taken (by this press, or earlier: a stale press retires them too)."""
    if not await defer(interaction):
        return None
    service = service_of(interaction)
    with service.front.one_look():  # the command and its posts read each game once
        return await _act(interaction, service, action, done, publish_result, game_id, retire)


async def _act(interaction: discord.Interaction, service: GameService, action: Action,
               done: str | Callable[[int], Awaitable[str]], publish_result: bool, game_id: int | None,
               retire: Retire | None) -> Outcome | None:
    try:
        gid = game_id if game_id is not None else await game_here(interaction)
        actor = await actor_of(interaction)
        outcome = await action(service, actor, gid)
    except RulesError as exc:
        if retire is not None and isinstance(exc, AlreadyDecided):
            await retire_components(interaction, retire)
        ERRORS.labels("refused").inc()
        await reply(interaction, refusal(exc))
        return None
    except ServiceError as exc:  # a fault: the components stay, as the decision they answer is still open
        ERRORS.labels("fault").inc()
        log.warning("service fault in %s: %s", interaction.command.name if interaction.command else "a component", exc)
        await reply(interaction, fault(exc))
        return None
    except Exception:
        ERRORS.labels("unexpected").inc()
        log.exception("unexpected error in %s", interaction.command.name if interaction.command else "a component")
        await reply(interaction, UNEXPECTED)
        return None
    if retire is not None:
        await retire_components(interaction, retire)  # before the new board goes up with the live components
    try:
        if publish_result:
            await after_command(interaction, gid, outcome)
        await reply(interaction, done if isinstance(done, str) else await done(gid))
    except discord.Forbidden:
        log.exception("missing permissions in channel %s", interaction.channel_id)
        await reply(interaction, "✅ Done, but I lack the permission to post in this channel "
                                 "(I need View Channel, Send Messages and Attach Files).")
    except Exception:
        log.exception("could not post the result of a command")
        await reply(interaction, "✅ Done (the command was applied), but posting the board failed; see /board.")
    return outcome


async def retire_components(interaction: discord.Interaction, retire: Retire) -> None:
    """Stale components are only untidy: a message that cannot be edited any more is left as it is."""
    try:
        await retire(interaction)
    except discord.HTTPException:
        log.info("could not take the components off the message of interaction %s", interaction.id)


async def after_command(interaction: discord.Interaction, game_id: int, outcome: Outcome | None) -> None:
    """Deliver what the command wrote to the outbox (the board, the status, nudges), then let computer
    captains and planned orders play what is now theirs: from the service's driver, whatever became
    of these posts (a failed one is retried by the courier and never stops the game)."""
    service = service_of(interaction)
    bot: Any = interaction.client
    if outcome is None or (not outcome.events and not outcome.replayed):
        await service.front.announce(game_id)  # nothing was committed (/game status, the last seat taken)
    await bot.courier.drain(game_id)
    await bot.driver.advance(game_id, bot.courier.drain)


async def tell_player(client: discord.Client, game_id: int, note: OrderNote, *, nonce: str) -> None:
    """What a player's standing orders did concerns their own side: said in a DM, never in the channel."""
    if not note.user_id.isdigit():
        return
    try:
        await send_dm(client, int(note.user_id), fit(f"🗒️ Game #{game_id}, side {note.player}: {names.prose(note.text)}"), nonce=nonce)
    except discord.HTTPException:
        log.info("could not DM user %s about their standing orders", note.user_id)


async def tell_planner(client: discord.Client, channel: Any, game_id: int, refused: PlanRefused, *,
                       nonces: tuple[str, str]) -> None:
    """Why a planned order was not carried out concerns its planner's own side: said to them in a DM;
    the channel only learns that they are needed. Two messages, so two nonces (the DM's, the channel's):
    Discord matches a nonce across all the bot's messages, wherever they were sent."""
    text = (f"🗓️ Your planned order {names.code(refused.line[:300])} for game #{game_id} was not carried out: "
            f"{names.prose(refused.reason[:1200])}")
    private = False
    if refused.user_id.isdigit():
        try:
            await send_dm(client, int(refused.user_id), text, nonce=nonces[0])
            private = True
        except discord.HTTPException:
            log.info("could not DM user %s about a planned order", refused.user_id)
    note = "details sent to you by DM" if private else "give a new order, or see `/plan`"
    await channel.send(f"🗓️ <@{refused.user_id}>: your planned order for player {refused.player} could not be "
                       f"carried out ({note}).",
                       allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(refused.user_id))])
                       if refused.user_id.isdigit() else discord.AllowedMentions.none(), nonce=nonces[1])


async def send_line(interaction: discord.Interaction, line: str, override: bool = False) -> None:
    """A line of table notation as the actor's order: the slash commands that build notation end here.
    `override`: a GM acts for a player within their deadline, in the open (authority.acting_for)."""
    async def send(service: GameService, actor: Actor, gid: int) -> Any:
        return await service.commands.submit(actor, gid, line, request_id=f"cmd:{interaction.id}", override=override)

    await act(interaction, send, done=f"✅ {names.code(line)}")


async def private_preview(interaction: discord.Interaction, build: Preview) -> None:
    """A board image and a line, privately, built from the actor's view: nothing is changed."""
    if not await defer(interaction):
        return
    service = service_of(interaction)
    try:
        gid = await game_here(interaction)
        view = await service.reading.view(await actor_of(interaction), gid)
        png, text = await build(service, view, gid)
    except (RulesError, ServiceError) as exc:
        ERRORS.labels("refused" if isinstance(exc, RulesError) else "fault").inc()
        await reply(interaction, answer(exc))
        return
    # the line says what the preview shows; it is the picture's words too (names raw: not markdown)
    await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="preview.png",
                                                     description=names.plain(text).replace("**", "").replace("`", "")[:1024]))

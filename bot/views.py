"""Buttons and menus. Every one is a dynamic item: its custom id carries the game and the decision it
answers (the roll's event number, the pick's turn, the log position of an options menu), so it keeps
working after a restart, and a stale one answers privately instead of acting on whatever waits now.
The scheme is in docs/bot.md."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.actions import UNEXPECTED, act, actor_of, answer, defer, reply, retire_components, service_of
from bot.chronicle import RematchButton
from bot.faces import FACES
from bot.pause import PauseButton
from game import names
from game.commands import KeepRoll, Reroll, UseFortune
from game.errors import RulesError
from game.model import PendingRoll
from game.options import SHOWN_ORDERS, Option, Options
from game.rules_data import RulesData
from game.service.errors import ServiceError
from game.service.game_service import Actor, AlreadyDecided, Expect, GameService

log = logging.getLogger(__name__)


def _old_button() -> AlreadyDecided:
    """A component from before decisions were named in custom ids cannot say which one it answers."""
    return AlreadyDecided("That button is from an older board post and cannot tell which roll it was for.",
                          "Use the buttons on the newest board post (`/game status` posts one).")


def _old_menu() -> AlreadyDecided:
    return AlreadyDecided("That menu is from before a restart of the bot and cannot tell which pick it was for.",
                          "Press **Choose initiative card** again.")


class PickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:pick:(?P<game>\d+)"):
    """Opens the presser's own hand. It answers no decision itself (the menu it opens names the turn),
    so an old one simply opens the hand as it is now."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Choose initiative card", style=discord.ButtonStyle.primary,
                                           emoji="🂠", custom_id=f"qd:pick:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PickButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open a private menu of the player's own hand."""
        if not await defer(interaction):  # reading the game may take longer than Discord's 3 seconds
            return
        service = service_of(interaction)
        try:
            # a stand-in's sides too, while the player is away; a player with two squadrons chooses for each
            # in turn, each from its own hand; the game's own cards (a guild may have its own)
            hand = await service.reading.hand(await actor_of(interaction), self.game_id)
            players, owed, view, rules = hand.players, hand.owed, hand.view, hand.rules
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        except Exception:  # deferred: without an answer the member would be left "thinking…"
            log.exception("unexpected error opening the hand of game %s", self.game_id)
            await reply(interaction, UNEXPECTED)
            return
        if not owed:
            text = ("You are not playing in this game." if not players
                    else "You have already chosen your card." if all(view.game.squadron(p).picked for p in players)
                    else "The game is not waiting for an initiative card from you now.")
            await reply(interaction, f"ℹ️ {text}")
            return
        player, turn = owed[0], view.game.turn
        hint = hand.hint  # a tutorial's learner: what each card of the hand does
        await reply(interaction, f"Your hand (player {player}). Your choice stays secret until the reveal."
                    + (f"\n{names.prose(hint)}" if hint else ""),
                    view=hand_view(self.game_id, player, turn, view.game.squadron(player).hand, rules))


class HandSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"qd:hand:(?P<game>\d+):(?P<player>[^:]{1,8})(?::(?P<turn>\d+))?"):
    """A player's private hand, for the pick of one turn. The card chosen comes back with the
    interaction, so the menu needs nothing from memory: it works after a restart."""

    def __init__(self, game_id: int, player: str, turn: int | None, options: list[discord.SelectOption] | None = None) -> None:
        custom = f"qd:hand:{game_id}:{player}" + (f":{turn}" if turn is not None else "")
        super().__init__(discord.ui.Select(placeholder="Choose your card", custom_id=custom,
                                           options=options or [discord.SelectOption(label="(no cards)", value="-")]))
        self.game_id, self.player, self.turn = game_id, player, turn

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandSelect:
        turn = match["turn"]
        return cls(int(match["game"]), match["player"], int(turn) if turn is not None else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        card, player, turn = (values[0] if values else ""), self.player, self.turn

        async def pick(service: GameService, actor: Actor, gid: int) -> Any:
            if turn is None:
                raise _old_menu()
            return await service.commands.pick(actor, gid, card, player=player, request_id=f"pick:{interaction.id}",
                                      expect=Expect(turn=turn))

        # the menu is on a private message: only an interaction of its own can take it away
        if await defer(interaction, update=True):
            await act(interaction, pick, done=f"🤫 You chose **{names.text(card)}** face down.", game_id=self.game_id,
                      retire=_clear_private)


def hand_view(game_id: int, player: str, turn: int, hand: tuple[str, ...], rules: RulesData) -> discord.ui.View:
    options = []
    for card in hand[:25]:
        found = rules.cards.get(card)
        label = f"{card} ({found.value})" if found else card
        options.append(discord.SelectOption(label=label[:100], value=card[:100],
                                            description=(found.text if found else "")[:100] or None))
    view = discord.ui.View(timeout=None)
    view.add_item(HandSelect(game_id, player, turn, options))
    return view


class KeepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:keep:(?P<game>\d+)(?::(?P<roll>\d+))?"):
    def __init__(self, game_id: int, roll: int | None) -> None:
        super().__init__(discord.ui.Button(label="Keep the roll", style=discord.ButtonStyle.secondary,
                                           custom_id=_roll_id("keep", game_id, roll)))
        self.game_id, self.roll = game_id, roll

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> KeepButton:
        return cls(int(match["game"]), _number(match["roll"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answer(interaction, self.game_id, self.roll, KeepRoll())


class FortuneButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"qd:fortune:(?P<game>\d+)(?::(?P<roll>\d+))?"):
    def __init__(self, game_id: int, roll: int | None) -> None:
        super().__init__(discord.ui.Button(label="Spend a Fortune Point (re-roll all)", style=discord.ButtonStyle.danger,
                                           emoji="🍀", custom_id=_roll_id("fortune", game_id, roll)))
        self.game_id, self.roll = game_id, roll

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> FortuneButton:
        return cls(int(match["game"]), _number(match["roll"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answer(interaction, self.game_id, self.roll, UseFortune())


class RerollSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"qd:reroll:(?P<game>\d+):(?:(?P<roll>\d+):)?(?P<n>\d+):(?P<k>\d+)"):
    """Pick the dice to re-roll with Skill (up to the Skill left). The dice count and the limit are in
    the id too: a select whose options change needs a new id for Discord to show it afresh."""

    def __init__(self, game_id: int, roll: int | None, faces: tuple[str, ...] = (), skill_left: int = 1,
                 rerolled: tuple[int, ...] = ()) -> None:
        options = [
            discord.SelectOption(label=f"Die {i + 1}: {FACES.get(f, '')} {f}", value=str(i + 1))
            for i, f in enumerate(faces) if i not in rerolled
        ] or [discord.SelectOption(label="(no dice)", value="0")]
        k = max(1, min(skill_left, len(options)))
        custom = _roll_id("reroll", game_id, roll) + f":{len(faces)}:{k}"
        super().__init__(discord.ui.Select(placeholder=f"Re-roll up to {k} with Skill", min_values=1, max_values=k,
                                           options=options, custom_id=custom))
        self.game_id, self.roll = game_id, roll

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RerollSelect:
        return cls(int(match["game"]), _number(match["roll"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [int(v) for v in _values(interaction) if v.isdigit() and int(v) > 0]
        await _answer(interaction, self.game_id, self.roll, Reroll(tuple(values)))


def _values(interaction: discord.Interaction) -> list[str]:
    """What was chosen in a select, as the interaction carried it (a rebuilt item knows no options)."""
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values", [])]


def _roll_id(kind: str, game_id: int, roll: int | None) -> str:
    return f"qd:{kind}:{game_id}" + (f":{roll}" if roll is not None else "")


def _number(text: str | None) -> int | None:
    return int(text) if text is not None else None


async def _answer(interaction: discord.Interaction, game_id: int, roll: int | None, command: Any) -> None:
    async def send(service: GameService, actor: Actor, gid: int) -> Any:
        if roll is None:
            raise _old_button()
        return await service.commands.submit(actor, gid, command, request_id=f"roll:{interaction.id}", expect=Expect(roll=roll))

    await act(interaction, send, done="🎲 Done.", game_id=game_id, retire=_clear_post)


async def _clear_post(interaction: discord.Interaction) -> None:
    """The board post the buttons were on keeps its text and image; the newest post has the live buttons."""
    if interaction.message is not None:
        await interaction.message.edit(view=None)


async def _clear_private(interaction: discord.Interaction) -> None:
    """The private message the menu was on (the interaction was deferred as an update of it)."""
    await interaction.edit_original_response(view=None)


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"qd:opt:(?P<game>\d+):(?P<seq>\d+)"):
    """The player to act's options on the board post: choosing one shows it privately with a button
    that gives the order. It belongs to the moment it was posted at (`seq`)."""

    def __init__(self, game_id: int, seq: int, options: Options | None = None) -> None:
        items = [o for o in options.items if o.order][:SHOWN_ORDERS] if options is not None else []
        choices = [discord.SelectOption(label=f"{o.ship}: {o.text}"[:100] if o.ship else o.text[:100], value=str(i))
                   for i, o in enumerate(items)] or [discord.SelectOption(label="(no options)", value="0")]
        super().__init__(discord.ui.Select(placeholder="What to do now…", options=choices,
                                           custom_id=f"qd:opt:{game_id}:{seq}"))
        self.game_id, self.seq = game_id, seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OptionSelect:
        return cls(int(match["game"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        values = _values(interaction)
        index = int(values[0]) if values and values[0].isdigit() else -1
        try:
            option = await _chosen_option(interaction, self.game_id, self.seq, index)
        except (RulesError, ServiceError) as exc:
            if isinstance(exc, AlreadyDecided):  # choosing only shows an option: the menu goes once stale
                await retire_components(interaction, _clear_post)
            await reply(interaction, answer(exc))
            return
        except Exception:  # deferred: without an answer the member would be left "thinking…"
            log.exception("unexpected error reading the options of game %s", self.game_id)
            await reply(interaction, UNEXPECTED)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(OptionGo(self.game_id, self.seq, index))
        await reply(interaction, f"**{option.ship}: {option.text}**\nThe order: `{option.order}`. Press to give it "
                                 "(or use /move, /attack or /order for anything else).", view=view)


class OptionGo(discord.ui.DynamicItem[discord.ui.Button[Any]],
               template=r"qd:go:(?P<game>\d+):(?P<seq>\d+):(?P<index>\d+)"):
    def __init__(self, game_id: int, seq: int, index: int) -> None:
        super().__init__(discord.ui.Button(label="Give this order", style=discord.ButtonStyle.success,
                                           custom_id=f"qd:go:{game_id}:{seq}:{index}"))
        self.game_id, self.seq, self.index = game_id, seq, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OptionGo:
        return cls(int(match["game"]), int(match["seq"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def go(service: GameService, actor: Actor, gid: int) -> Any:
            option = await _chosen_option(interaction, gid, self.seq, self.index)
            return await service.commands.submit(actor, gid, option.order, request_id=f"go:{interaction.id}",
                                        expect=Expect(position=self.seq))

        # the button is on a private message: only an interaction of its own can take it away
        if await defer(interaction, update=True):
            await act(interaction, go, done="✅ Ordered.", game_id=self.game_id, retire=_clear_private)


async def _chosen_option(interaction: discord.Interaction, game_id: int, seq: int, index: int) -> Option:
    """The option a menu offered, if the game is still where the menu was made."""
    service = service_of(interaction)
    now, options = await service.reading.options(await actor_of(interaction), game_id)
    if now != seq:
        raise AlreadyDecided("That menu was for an earlier moment of the game: play has moved on.",
                             "Use the newest board's menu, or /options.")
    items = [o for o in options.items if o.order]
    if not items:
        raise RulesError("The game is not waiting for you now.", "Wait for your turn.")
    if not 0 <= index < len(items):
        raise RulesError("That option is not on offer.", "Use the newest board's menu, or /options.")
    return items[index]


def options_view(game_id: int, seq: int, options: Options) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OptionSelect(game_id, seq, options))
    return view


def pick_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PickButton(game_id))
    return view


def reroll_view(game_id: int, roll: int, pending: PendingRoll) -> discord.ui.View:
    """The roll's buttons, naming the roll they answer (`GameService.roll_decision`)."""
    view = discord.ui.View(timeout=None)
    left = pending.skill - len(pending.skill_rerolled)
    if left > 0:
        view.add_item(RerollSelect(game_id, roll, pending.faces, left, pending.skill_rerolled))
    if not pending.fortune_used:
        view.add_item(FortuneButton(game_id, roll))
    view.add_item(KeepButton(game_id, roll))
    return view


DYNAMIC_ITEMS = (PickButton, HandSelect, KeepButton, FortuneButton, RerollSelect, OptionSelect, OptionGo, RematchButton,
                 PauseButton)
__all__ = ["DYNAMIC_ITEMS", "defer", "hand_view", "options_view", "pick_view", "reply", "reroll_view"]

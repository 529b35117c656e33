"""Buttons and menus. The buttons in game channels are dynamic items (their custom id carries the
game), so they keep working after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.actions import act, actor_of, defer, reply, service_of
from game.commands import KeepRoll, Reroll, UseFortune
from game.errors import RulesError
from game.model import PendingRoll
from game.options import Option, Options
from game.rules_data import RulesData
from game.service.game_service import Actor, GameService


class PickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:pick:(?P<game>\d+)"):
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
        service = service_of(interaction)
        actor = await actor_of(interaction)
        try:
            view = await service.view(actor, self.game_id)
            players = [p for p, user, _, ai in (await service.info(self.game_id)).seats if user == actor.user_id and not ai]
            owed = [p for p in players if not view.game.squadron(p).picked]
            if owed:  # a player with two squadrons chooses for each in turn, each from its own hand
                view = await service.view(actor, self.game_id, player=owed[0])
        except RulesError as exc:
            await interaction.response.send_message(f"❌ {exc.text}", ephemeral=True)
            return
        if not owed:
            text = "You are not playing in this game." if not players else "You have already chosen your card."
            await interaction.response.send_message(f"ℹ️ {text}", ephemeral=True)
            return
        player = owed[0]
        hand = view.game.squadron(player).hand
        rules = await service.rules_of_game(self.game_id)  # the game's own cards (a guild may have imported its own)
        await interaction.response.send_message(
            f"Your hand (player {player}). Your choice stays secret until the reveal.",
            view=HandView(self.game_id, player, hand, rules), ephemeral=True,
        )


class HandView(discord.ui.View):
    def __init__(self, game_id: int, player: str, hand: tuple[str, ...], rules: RulesData) -> None:
        super().__init__(timeout=600)
        options = []
        for card in hand[:25]:
            found = rules.cards.get(card)
            label = f"{card} ({found.value})" if found else card
            options.append(discord.SelectOption(label=label[:100], value=card[:100],
                                                description=(found.text if found else "")[:100] or None))
        select: discord.ui.Select[HandView] = discord.ui.Select(placeholder="Choose your card", options=options,
                                                                 custom_id=f"qd:hand:{game_id}:{player}")
        select.callback = self._chosen  # type: ignore[method-assign]
        self.select = select
        self.game_id, self.player = game_id, player
        self.add_item(select)

    async def _chosen(self, interaction: discord.Interaction) -> None:
        card = self.select.values[0]
        player = self.player

        async def pick(service: GameService, actor: Actor, gid: int) -> Any:
            return await service.pick(actor, gid, card, player=player, request_id=f"pick:{interaction.id}")

        await act(interaction, pick, done=f"🤫 You chose **{card}** face down.", game_id=self.game_id)


class KeepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:keep:(?P<game>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Keep the roll", style=discord.ButtonStyle.secondary,
                                           custom_id=f"qd:keep:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> KeepButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answer(interaction, self.game_id, KeepRoll())


class FortuneButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:fortune:(?P<game>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Spend a Fortune Point (re-roll all)", style=discord.ButtonStyle.danger,
                                           emoji="🍀", custom_id=f"qd:fortune:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> FortuneButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answer(interaction, self.game_id, UseFortune())


class RerollSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"qd:reroll:(?P<game>\d+):(?P<n>\d+):(?P<k>\d+)"):
    """Pick the dice to re-roll with Skill (up to the Skill left)."""

    def __init__(self, game_id: int, faces: tuple[str, ...] = (), skill_left: int = 1, rerolled: tuple[int, ...] = ()) -> None:
        from bot.publish import FACES

        options = [
            discord.SelectOption(label=f"Die {i + 1}: {FACES.get(f, '')} {f}", value=str(i + 1))
            for i, f in enumerate(faces) if i not in rerolled
        ] or [discord.SelectOption(label="(no dice)", value="0")]
        k = max(1, min(skill_left, len(options)))
        super().__init__(discord.ui.Select(placeholder=f"Re-roll up to {k} with Skill", min_values=1, max_values=k,
                                           options=options, custom_id=f"qd:reroll:{game_id}:{len(faces)}:{k}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RerollSelect:
        made = cls(int(match["game"]))
        made.item.values  # noqa: B018 - the values come from the interaction
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [int(v) for v in (interaction.data or {}).get("values", []) if str(v).isdigit() and int(v) > 0]  # type: ignore[union-attr]
        await _answer(interaction, self.game_id, Reroll(tuple(values)))


async def _answer(interaction: discord.Interaction, game_id: int, command: Any) -> None:
    async def send(service: GameService, actor: Actor, gid: int) -> Any:
        return await service.submit(actor, gid, command, request_id=f"roll:{interaction.id}")

    await act(interaction, send, done="🎲 Done.", game_id=game_id)


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"qd:opt:(?P<game>\d+):(?P<seq>\d+)"):
    """The player to act's options on the board post: choosing one shows it privately with a button
    that gives the order. It belongs to the moment it was posted at (`seq`)."""

    def __init__(self, game_id: int, seq: int, options: Options | None = None) -> None:
        items = [o for o in options.items if o.order][:25] if options is not None else []
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
        values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
        index = int(values[0]) if values and str(values[0]).isdigit() else -1
        try:
            option = await _chosen_option(interaction, self.game_id, self.seq, index)
        except RulesError as exc:
            await reply(interaction, f"❌ {exc.text}")
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
            return await service.submit(actor, gid, option.order, request_id=f"go:{interaction.id}")

        await act(interaction, go, done="✅ Ordered.", game_id=self.game_id)


async def _chosen_option(interaction: discord.Interaction, game_id: int, seq: int, index: int) -> Option:
    """The option a menu offered, if the game is still where the menu was made."""
    service = service_of(interaction)
    now, options = await service.options(await actor_of(interaction), game_id)
    if now != seq:
        raise RulesError("That menu was for an earlier moment of the game: play has moved on.",
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


def reroll_view(game_id: int, pending: PendingRoll) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    left = pending.skill - len(pending.skill_rerolled)
    if left > 0:
        view.add_item(RerollSelect(game_id, pending.faces, left, pending.skill_rerolled))
    if not pending.fortune_used:
        view.add_item(FortuneButton(game_id))
    view.add_item(KeepButton(game_id))
    return view


DYNAMIC_ITEMS = (PickButton, KeepButton, FortuneButton, RerollSelect, OptionSelect, OptionGo)
__all__ = ["DYNAMIC_ITEMS", "defer", "options_view", "pick_view", "reply", "reroll_view"]

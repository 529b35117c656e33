"""Every slash command, every autocomplete and every game button, sent by one person against player B.

Acting commands name B's side, B's ships or a prefix of B's cards; looking commands look. Rules
look-ups (/rules, /help, /data export, /squadron) answer the same in every game and without one: the
sweep gives back their answers so a test can check exactly that."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from discord import app_commands

from tests.adversary.eyes import ANN, GM_ROLE, ROLES, Table, gm_role_command, item_text

DUTCH = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_bytes()
LOOKUP_COMMANDS = {"rules", "help", "data export", "squadron"}


@dataclass(frozen=True)
class Targets:
    """What the adversary aims at: B's ships, one of A's ships, prefixes of B's cards (never a whole
    name: an answer may echo what was typed), and B's private hand menu when it exists."""

    their_ships: tuple[str, str]
    my_ship: str
    card_prefixes: tuple[str, ...]
    menu_message: str | None = None
    game_over: bool = False  # the channel is free again: anyone may create the next game there


@dataclass(frozen=True)
class Request:
    name: str  # "game create", "move", …
    values: dict[str, Any]
    lookup: bool = False

    @property
    def acting(self) -> bool:
        """An order for the game (or a GM's power) that the sender must be refused."""
        if self.values.get("preview") or self.lookup:
            return False
        return self.name in ACTING or self.name.startswith("setup ")


ACTING = {"order", "plan", "move", "attack", "game create", "game join", "game concede", "game approve-undo",
          "game undo", "data import", "game handover", "league create", "league join", "league start", "league round",
          "league result", "league forfeit", "league drop", "orders move", "orders attack", "orders discretion",
          "clock settings", "clock pause", "clock resume", "clock extend", "game chronicle", "game web-pages",
          "game pause", "game resume", "league pause", "league resume", "league late-entry", "league settings",
          "campaign create", "campaign join", "campaign leave", "campaign battle", "campaign apply", "campaign end",
          "ref join", "ref do", "ref order", "ref undo", "ref handover", "ref table-entry"}
LEAGUE = "Cup"  # a league the sweep names but that no one has created: joining it is refused too
CAMPAIGN = "Saga"  # likewise a campaign


def is_lookup(name: str) -> bool:
    return name in LOOKUP_COMMANDS or name.split()[0] in LOOKUP_COMMANDS


def order_lines(t: Targets, gm: bool) -> list[str]:
    ob, ob2, mine = t.their_ships[0], t.their_ships[1], t.my_ship
    lines = [f"pick B {p}" for p in t.card_prefixes] + [
        f'move "{ob}"', f'move "{ob}" heading port 10', f'seamanship "{ob}" heading port 10', f'advance "{ob}"',
        f'crew "{ob}" rally', f'done "{ob}"', f'fire "{ob}" port "{mine}"', f'partial "{ob}" "{mine}"',
        f'melee "{ob}" "{mine}"', f'free fire "{ob}" port "{mine}"', f'pass "{ob}"', "B: reroll 1", "B: fortune",
        "B: keep", "reroll 1", "fortune", "keep", "B: decline", f'freeturn "{ob}" port 10', f'capture "{ob}"',
        f'transfer "{ob}" "{ob2}"', f"B: borrow {t.card_prefixes[0]}", "B: event keep", "B: shoal skip",
        "B: role attacker", "B: draft x", "B: terrain shoal", "B: place x 1 1", "B: finish",
        f'B: deploy "{ob}" 1 1', "dice skull", "B: dice skull",
    ]
    if not gm:
        lines.append("concede B")  # a GM may end a game for a side: that is the GM's power, not a hole
    return lines


def plan_lines(t: Targets) -> list[str]:
    ob, mine = t.their_ships[0], t.my_ship
    return [f"pick B {t.card_prefixes[0]}", f'move "{ob}"', f'fire "{ob}" port "{mine}"', "concede B", "B: keep"]


def lookup_requests(squadron: str) -> list[Request]:
    return [
        Request("rules", {"term": "Reload"}, True),
        Request("help", {}, True),
        Request("data export", {}, True),
        Request("squadron save", {"file": ("dutch.toml", DUTCH)}, True),
        Request("squadron new", {"name": "@everyone", "size": "skirmish", "faction": "Dutch",
                                 "admiral": "Cornelis Evertsen the Youngest"}, True),
        Request("squadron ship", {"squadron": "@everyone", "name": "@here", "class": "Fluyt"}, True),
        Request("squadron hand", {"squadron": "@everyone", "card": "Down!"}, True),
        Request("squadron check", {"squadron": squadron}, True),
        Request("squadron drop", {"squadron": "@everyone", "ship": "@here"}, True),
        Request("squadron show", {"squadron": squadron}, True),
        Request("squadron list", {}, True),
    ]


def game_requests(t: Targets, gm: bool, seated: bool) -> list[Request]:
    ob, mine = t.their_ships[0], t.my_ship
    out = [] if t.game_over else [Request("game create", {"scenario": "quickstart"})]
    out += [
        Request("game join", {"side": "B"}),
        Request("game join", {}),
        Request("game status", {}),
        Request("game start", {}),
        Request("game list", {}),
        Request("game concede", {} if gm else {"side": "B"}),
        Request("game approve-undo", {}),
        Request("game gm-role", {"role": GM_ROLE}),
        Request("game verify", {}),
        Request("game replay", {}),
        Request("game seats", {}),
        # following by DM: the sender gets a spectator's boards (the DMs are checked like every answer)
        Request("game follow", {}),
        Request("game follow", {"digest_hour": 7}),
        Request("game unfollow", {}),
        Request("game follow", {}),
        Request("mygames", {}),
        # records: another's across servers is refused; this server's holds finished games only (none)
        Request("captain", {}),
        Request("captain", {"members": {"member": ANN}}),
        Request("captain", {"members": {"member": ANN}, "scope": "all"}),
        Request("captain", {"scope": "all"}),
        Request("captain-privacy", {"category": "luck"}),
        # the sender's own data: shown, and the delete asked (B's button is pressed below); the download
        # holds the sender's saved squadrons, whose card names are theirs to know, so it is left out of
        # the secrets check like a look-up (tests/bot/test_privacy_bot.py checks it holds only theirs)
        Request("privacy show", {}),
        Request("privacy export", {}, True),
        Request("privacy delete", {}),
        Request("move", {"ship": ob}),
        Request("move", {"ship": ob, "turn": "end", "turn_side": "port", "turn_degrees": 10.0, "preview": True}),
        Request("attack", {"ship": ob, "kind": "broadside", "target": mine, "side": "both"}),
        Request("attack", {"ship": ob, "kind": "close", "target": mine}),
        Request("board", {}),
        Request("board", {"ship": ob}),
        Request("options", {}),
        Request("options", {"ship": ob}),
        Request("log", {}),
        Request("setup role", {"role": "attacker"}),
        Request("setup draft", {"card": "x"}),
        Request("setup terrain", {"kind": "shoal"}),
        Request("setup place", {"piece": "x", "x": 1.0, "y": 1.0}),
        Request("setup finish", {}),
        Request("setup deploy", {"ship": ob, "x": 1.0, "y": 1.0}),
        Request("setup deploy", {"ship": ob, "x": 1.0, "y": 1.0, "preview": True}),
        Request("data import", {"file": ("zzz.toml", b"x = 1\n")}),
    ]
    # the referee-assistant commands: this channel's game is Oak & Iron's, so every one is refused
    out += [Request("ref join", {}), Request("ref join", {"seat": "B"}), Request("ref do", {"line": "next"}),
            Request("ref order", {"line": f'plot "{ob}" 1'}), Request("ref undo", {}), Request("ref log", {}),
            Request("ref ship", {"ship": ob}), Request("ref status", {}),
            Request("ref handover", {"members": {"member": (4242, "mallory")}, "seat": "B"}),
            Request("ref table-entry", {"system": "wsim"}, lookup=True)]  # what the server entered: anyone may read
    if not gm:  # entering a table for the whole server is a GM's power
        out.append(Request("ref table-entry", {"system": "wsim", "file": (
            "fire.toml", b'table = "fire_results"\n[cells]\n"8" = { hull = "1H" }\n')}))
    out += [Request("league show", {}), Request("league show", {"name": LEAGUE}),
            Request("league standings", {"name": LEAGUE}), Request("league join", {"name": LEAGUE}),
            Request("league log", {"name": LEAGUE})]
    # campaigns: the ledger and the list are anyone's to read; joining one that does not exist is refused
    out += [Request("campaign show", {}), Request("campaign show", {"name": CAMPAIGN}),
            Request("campaign ledger", {"name": CAMPAIGN}),
            Request("campaign join", {"name": CAMPAIGN, "squadron": "Zeeland"}),
            Request("campaign leave", {"name": CAMPAIGN})]
    # standing orders name B's ships (refused); the rest edit the sender's own orders, if any
    out += [
        Request("orders move", {"line": f'move "{ob}"'}),
        Request("orders attack", {"ship": ob, "rule": "nearest"}),
        Request("orders attack", {"ship": ob, "target": mine}),
        Request("orders discretion", {"ship": ob}),
        Request("orders show", {}),
        Request("orders rerolls", {"policy": "ask"}),
        Request("orders fallback", {"then": "wait"}),
        Request("orders clear", {}),
        Request("clock hours", {"time_zone": "UTC"}),
        Request("clock days", {"days": "Mon-Fri 18:00-23:00"}),
    ]
    if not gm:  # a GM's clock, and where the server's finished games are chronicled, are the GM's powers
        out.append(Request("game chronicle", {}))
        out.append(Request("game web-pages", {"listed": True}))  # whether the server's pages are listed
        out += [Request("clock settings", {"deadline_hours": 1, "on_deadline": "captain"}), Request("clock pause", {}),
                Request("clock resume", {}), Request("clock extend", {"hours": 1})]
    if not seated:  # a player's own vacation is written in their game's log: theirs to do
        out.append(Request("clock away", {"days": 1.0}))
    if not gm:
        out.append(Request("game handover", {"side": "B", "ai": True}))  # a GM may: that is the GM's power
        # running a league is a GM's power too
        out += [Request("league create", {"name": LEAGUE}), Request("league start", {"name": LEAGUE}),
                Request("league round", {"name": LEAGUE}),
                Request("league result", {"name": LEAGUE, "table": 1, "winner": "A"}),
                Request("league forfeit", {"name": LEAGUE, "table": 1, "side": "B"}),
                Request("league drop", {"name": LEAGUE, "entrant": str(ANN[0])}),
                Request("league pause", {"name": LEAGUE}), Request("league resume", {"name": LEAGUE}),
                Request("league late-entry", {"name": LEAGUE, "members": {"member": ANN}}),
                Request("league settings", {"name": LEAGUE, "auto_close": False})]
        # and running a campaign
        out += [Request("campaign create", {"name": CAMPAIGN}),
                Request("campaign battle", {"name": CAMPAIGN, "members": {"a": ANN, "b": ANN}}),
                Request("campaign apply", {"name": CAMPAIGN, "battle": 1}),
                Request("campaign end", {"name": CAMPAIGN})]
    if not gm and not seated:
        out.append(Request("game undo", {}))  # a player may ask (the opponent consents); a GM's is immediate
        # a player may ask for a pause and a GM make one; a spectator neither asks, nor resumes one
        out += [Request("game pause", {"hours": 2, "reason": "@everyone"}), Request("game resume", {})]
    out += [Request("order", {"line": line}) for line in order_lines(t, gm)]
    out += [Request("plan", {"line": line}) for line in plan_lines(t)]
    return out


async def send(table: Table, user: tuple[int, str], request: Request) -> str:
    """Send one request; the token of the interaction."""
    from tests.bot.fake_discord import command

    name, _, sub = request.name.partition(" ")
    if request.name == "game gm-role":
        payload = gm_role_command(user, request.values["role"], roles=ROLES.get(user[0], ()))
    else:
        values = {k: v for k, v in request.values.items() if not isinstance(v, tuple)}
        files = {k: table.fake.attach(*v) for k, v in request.values.items() if isinstance(v, tuple)}
        payload = command(user, name, sub or None, channel_id=table.here, roles=ROLES.get(user[0], ()),
                          attachments=files or None, **values)
    await table.send(user, payload, lookup=request.lookup)
    return str(payload["token"])


def autocompleted(tree: app_commands.CommandTree) -> list[tuple[str, str]]:
    """Every (command, option) the bot autocompletes."""
    out = []
    for cmd in tree.walk_commands():
        if isinstance(cmd, app_commands.Command):
            out += [(cmd.qualified_name, p.display_name) for p in cmd.parameters if p.autocomplete]
    return out


def every_command(tree: app_commands.CommandTree) -> set[str]:
    return {c.qualified_name for c in tree.walk_commands() if isinstance(c, app_commands.Command)}


def lookup_completion(name: str, option: str) -> bool:
    """Autocompletes that answer from the rules or the sender's own saved lists, never from a game."""
    return is_lookup(name) or (name, option) in {("game create", "scenario"), ("game join", "squadron")}


async def complete_all(table: Table, user: tuple[int, str], squadron: str, lookups: bool) -> dict[str, list[str]]:
    """Ask every autocomplete of one kind (rules look-ups, or the game's) with nothing typed yet."""
    out = {}
    for name, option in autocompleted(table.bot.tree):
        if lookup_completion(name, option) != lookups:
            continue
        cmd, _, sub = name.partition(" ")
        context = {"squadron": squadron} if option != "squadron" and cmd == "squadron" else {}
        out[f"{name}.{option}"] = await table.complete(user, cmd, sub or None, option, "", lookup=lookups, **context)
    return out


async def buttons(table: Table, user: tuple[int, str], t: Targets, seated: bool = False) -> list[tuple[str, str | None]]:
    """The game's buttons and menus as the adversary could press them, here and from another channel:
    each roll button and B's menu with the answer it got (the pick button opens one's own hand)."""
    from tests.adversary.eyes import OTHER_CHANNEL, answer_text

    await table.press(user, "qd:pick:1")
    await table.press(user, "qd:pick:1", channel_id=OTHER_CHANNEL)
    ids = await table.roll_ids()  # the buttons of the roll waiting now, if one is
    pressed = [("keep", await table.press(user, ids["keep"])), ("fortune", await table.press(user, ids["fortune"])),
               ("keep elsewhere", await table.press(user, ids["keep"], channel_id=OTHER_CHANNEL)),
               ("reroll", await table.press(user, ids["reroll"], values=["1"]))]
    seq = await table.bot.service.reading.position(1)  # the options menu and its order button, of this moment
    pressed += [("options menu", await table.press(user, f"qd:opt:1:{seq}", values=["0"])),
                ("give the order", await table.press(user, f"qd:go:1:{seq}:0"))]
    # B's delete button, forged: it names B, so pressed by anyone else it deletes nothing
    from tests.adversary.eyes import BOB

    pressed.append(("B's delete button", await table.press(user, f"qd:forget:{BOB[0]}")))
    # B's unfollow button, forged: it names B, so pressed by anyone else it ends nothing
    pressed.append(("B's unfollow button", await table.press(user, f"qd:unfollow:1:{BOB[0]}")))
    # the Rematch: refused before the end, and after it to anyone but the game's players (whose press
    # makes the rematch: tests/bot/test_chronicle_bot.py), here and from another channel alike
    if not (seated and t.game_over):
        pressed += [("rematch", await table.press(user, "qd:rematch:1")),
                    ("rematch elsewhere", await table.press(user, "qd:rematch:1", channel_id=OTHER_CHANNEL))]
    if t.menu_message is not None:  # B's own private menu, as if its message had reached someone else
        menu = f"qd:hand:1:B:{(await table.state()).turn}"  # as if made for this turn's pick
        for value in ("zzz", *t.card_prefixes):
            pressed.append((f"B's menu: {value}", await table.press(user, menu, t.menu_message, values=[value])))
    return [(label, answer_text(sent) if sent is not None else None) for label, sent in pressed]


async def lookups(table: Table, user: tuple[int, str], squadron: str) -> dict[str, str]:
    """The rules look-ups: what each answered (content and files), keyed by request."""
    out: dict[str, str] = {}
    for request in lookup_requests(squadron):
        before = table.mark()
        token = await send(table, user, request)
        answers = [r for r in table.fake.requests[before:] if token in r.path and r.payload.get("type") != 5]
        assert answers and all(r.ephemeral for r in answers), (request.name, [r.payload for r in answers])
        out[f"{request.name} {sorted(request.values)}"] = "\n".join(_stable(item_text(r, table.drawn)) for r in answers)
    for key, choices in (await complete_all(table, user, squadron, lookups=True)).items():
        out[key] = repr(choices)
    return out


def _stable(text: str) -> str:
    """An answer without what differs between two sends of the same request (attachment ids)."""
    import re

    return re.sub(r'"id": "?\d+"?', '"id": _', text)


@dataclass(frozen=True)
class Swept:
    tokens: list[str]  # every interaction sent
    refusals: list[tuple[str, str | None]]  # each order or power the sender lacks, with the answer


async def sweep(table: Table, user: tuple[int, str], t: Targets, gm: bool, seated: bool) -> Swept:
    """Send every game command, autocomplete and button."""
    from tests.adversary.eyes import answer_text

    tokens, refusals = [], []
    for request in game_requests(t, gm, seated):
        before = table.mark()
        token = await send(table, user, request)
        tokens.append(token)
        if request.acting:
            answers = [r for r in table.fake.requests[before:] if token in r.path and r.payload.get("type") != 5]
            label = f"{request.name} {request.values}"
            refusals.append((label, answer_text(answers[-1]) if answers else None))
    await complete_all(table, user, "", lookups=False)
    refusals += await buttons(table, user, t, seated)
    return Swept(tokens, refusals)

"""Games for the web tests, played through the service as the bot would."""

from __future__ import annotations

from game.service.game_service import Actor, GameService
from tests.helpers import S, scenario_text

GUILD = "900000000000000001"
ANN, BOB = Actor("111", GUILD), Actor("222", GUILD)
GM = Actor("999", GUILD, gm=True)
HANDS = {"A": ["Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position"],
         "B": ["Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind"]}
SHIPS = [S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")]


async def new_game(service: GameService, channel: str = "chan-1") -> int:
    text = scenario_text(SHIPS, test_dice=False, hands=HANDS)
    info = await service.lobby.create_game(ANN, channel, scenario_text=text)
    return info.id


async def seated_game(service: GameService, channel: str = "chan-1") -> int:
    gid = await new_game(service, channel)
    await service.lobby.join(ANN, gid, "A", "Ann")
    await service.lobby.join(BOB, gid, "B", "Bob")
    return gid


async def picks(service: GameService, gid: int) -> None:
    for line, who in (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB), ("pick A Careful Aim", ANN),
                      ("pick B Reload!", BOB)):
        await service.commands.submit(who, gid, line)

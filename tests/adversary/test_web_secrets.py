"""Issue 28: the web pages show what a spectator may see, never more. A whole game is played by computer
captains through the web_service while a reader with the page's link asks EVERY route after every command:
the page (and a replay frame's page), the state, the frames, the live stream's next state, the server's
index; and at every new phase the board and the frames as PNG (read as the texts the renderer drew,
with every view it drew checked) and the log file. Before the end nothing names a card hidden at that
moment, the dice seed, or where the dice stream stands (the views carry no seed, no log position and
no event deck); the log file exists only once the game is over, and the seed is shown then."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from game.model import Phase
from game.service.game_service import GameService
from tests.adversary.eyes import Drawn, assert_view_keeps_secrets, hidden_cards, spy_renderer, strings_in
from tests.helpers import scenario_text
from tests.web.games import ANN, GM, GUILD, HANDS, SHIPS

SECRET_FIELDS = ('"hand"', '"face_down"', '"log_position"', '"event_deck"', '"seed":', '"dice_seed"')


async def _texts(c: TestClient, token: str, stream: Any) -> dict[str, str]:  # type: ignore[type-arg]
    out = {}
    for path in (f"/g/{token}/", f"/g/{token}/?frame=1", f"/g/{token}/state.json", f"/g/{token}/frames.json",
                 f"/s/{GUILD}/", f"/g/{token}/log.json"):
        r = await c.get(path)
        out[path] = f"{r.status} {await r.text()}"
    out["events"] = await _next_event(stream)
    return out


async def _next_event(stream: Any) -> str:
    data = ""
    while True:
        line = await asyncio.wait_for(stream.content.readline(), 10)
        if line.startswith(b"data: "):
            data = line[6:].decode()
        elif line == b"\n" and data:
            return data


async def _pngs(c: TestClient, token: str, drawn: Drawn) -> dict[str, str]:  # type: ignore[type-arg]
    state = json.loads(await (await c.get(f"/g/{token}/state.json")).text())
    out = {}
    for path in [f"/g/{token}/board.png"] + [f"/g/{token}/frame/{n}.png" for n in sorted({1, state["frames"]}) if state["frames"]]:
        r = await c.get(path)
        body = await r.read()
        assert r.status == 200 and body in drawn.texts, f"{path}: a PNG the renderer did not draw"
        out[path] = "\n".join(drawn.texts[body])
    return out


async def test_every_page_of_a_whole_game_keeps_every_secret(web_service: GameService,
                                                             web_client: TestClient,  # type: ignore[type-arg]
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    text = scenario_text(SHIPS, test_dice=False, hands=HANDS)
    gid = (await web_service.lobby.create_game(ANN, "chan-web", scenario_text=text)).id
    phases = await watched(web_service, web_client, monkeypatch, gid, until=None)
    assert {Phase.SETUP, Phase.INITIATIVE, Phase.MOVEMENT, Phase.ATTACK, Phase.OVER} <= phases, phases


async def test_every_page_of_a_drafted_set_up_keeps_every_secret(web_service: GameService,
                                                                 web_client: TestClient,  # type: ignore[type-arg]
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The chapter-7 set-up (squadrons enlisted, drafting, terrain, deployment) to the first activations."""
    gid = (await web_service.lobby.create_game(ANN, "chan-draft", scenario="drafted", size="skirmish")).id
    phases = await watched(web_service, web_client, monkeypatch, gid, until=Phase.MOVEMENT)
    assert {Phase.PREPARATION, Phase.MOVEMENT} <= phases, phases


async def watched(web_service: GameService, web_client: TestClient,  # type: ignore[type-arg]
                  monkeypatch: pytest.MonkeyPatch, gid: int, until: Phase | None) -> set[Phase]:
    """Computer captains play the game (to its end, or into phase `until`) while every route is read."""
    drawn = Drawn()
    monkeypatch.setattr("render.board.render_board", spy_renderer(drawn))
    await web_service.web.set_listed(GM, True)
    token = await web_service.web.game_token(gid)
    seed = (await web_service.store.repo.load(gid)).record.dice_seed  # type: ignore[union-attr]
    assert len(seed) == 64

    def check(texts: dict[str, str], state: Any, log: list[Any], over: bool) -> int:
        hidden = hidden_cards(state, log, [])
        for path, body in texts.items():
            if over and path.endswith("log.json"):
                continue  # the finished game's whole record, hands included, as /game verify attaches it
            leaked = sorted(c for c in hidden if c in body)
            assert not leaked, f"{path} shows hidden card(s) {leaked} at turn {state.turn} {state.phase.value}"
            if not over:
                assert seed not in body and seed.upper() not in body, f"{path} shows the seed before the end"
                assert not any(f in body for f in SECRET_FIELDS), (path, [f for f in SECRET_FIELDS if f in body])
        return len(hidden)

    async def look(stream: Any, phase_changed: bool) -> int:
        loaded = await web_service.store.repo.load(gid)
        assert loaded is not None
        state, log = loaded.state, [e for _, _, e in await web_service.store.repo.events(gid)]
        over = state.phase is Phase.OVER
        texts = await _texts(web_client, token, stream)
        if phase_changed or over:
            texts |= await _pngs(web_client, token, drawn)
            if not over:
                for view in drawn.views:  # a spectator's view, holding nothing a spectator may not know
                    assert view.viewer is None, view.viewer
                    assert_view_keeps_secrets(view, state, log)
                    leaked = hidden_cards(state, log, []) & set(strings_in(view))
                    assert not leaked, f"a board drawn for the page holds {sorted(leaked)}"
            drawn.views.clear()
        if not over:
            assert texts[f"/g/{token}/log.json"].startswith("404"), "the log file before the end"
        return check(texts, state, log, over)

    # open: nobody seated yet; then each side taken, and the game under way
    stream = await web_client.get(f"/g/{token}/events")
    secrets_checked = await look(stream, True)
    await web_service.lobby.join(ANN, gid, "A", "Ann", ai=True)
    await web_service.lobby.join(ANN, gid, "B", "Bob", ai=True)
    phases: set[Phase] = set()
    last_phase = None
    for _ in range(400):
        loaded = await web_service.store.load(gid)
        if loaded.state.phase is Phase.OVER or (until is not None and loaded.state.phase is until):
            phases.add(loaded.state.phase)
            break
        played = await web_service.commands.captain_move(loaded)
        assert played is not None, "the computer captains stopped before the end"
        now = (loaded.state.turn, loaded.state.phase)
        phases.add(loaded.state.phase)
        secrets_checked += await look(stream, now != last_phase)
        last_phase = now
    assert secrets_checked > 0, "no card was ever hidden: the check tests nothing"
    loaded = await web_service.store.load(gid)
    if until is None:
        assert loaded.state.phase is Phase.OVER, "the game did not end"
        # the end: the seed, the dice check in words and the log file, for everyone with the link
        page = await (await web_client.get(f"/g/{token}/")).text()
        assert seed in page and "Every roll recomputed from the seed" in page and "match the seed" in page
        log_file = await web_client.get(f"/g/{token}/log.json")
        assert log_file.status == 200 and (await log_file.json())["seed"] == seed
    stream.close()
    return phases

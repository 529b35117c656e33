"""Issue 28 in a real browser: Debian's headless chromium, driven by Selenium through chromium-driver,
loads a game's page served on a real socket, watches it follow the game while moves are played through
the service (no reload), scrubs the replay with the keyboard and the step links, and takes
screenshots 400 and 1280 px wide. Skipped, with the reason, where no browser is installed (.ci/run
installs one). QD_WEB_SCREENSHOTS=folder keeps the screenshots there (docs/images/ for docs/web.md)."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from game.service.game_service import GameService
from tests.web.games import ANN, BOB, picks, seated_game
from web.app import make_app
from web.limits import Limits

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

try:
    import selenium  # noqa: F401
    HAVE_SELENIUM = True
except ImportError:  # pragma: no cover - the dev extras install it
    HAVE_SELENIUM = False

pytestmark = pytest.mark.skipif(
    not (HAVE_SELENIUM and os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason="no browser: install Debian's chromium and chromium-driver (.ci/run does) and the dev extras (selenium)")


def _browser(script: bool = True) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-GB"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not script:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)


@pytest.fixture
async def served(service: GameService) -> AsyncIterator[str]:
    runner = web.AppRunner(make_app(service, Limits(burst=10_000, per_second=1_000.0), poll_seconds=0.2))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def _in_browser(call: Callable[..., Any], *args: Any) -> Any:
    # Selenium blocks: it runs in a thread while this loop serves the page it asks for
    return await asyncio.to_thread(call, *args)


async def _until(driver: Any, script: str, what: str, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = await _in_browser(driver.execute_script, script)
        if found:
            return found
        await asyncio.sleep(0.1)
    logs = await _in_browser(driver.get_log, "browser")
    raise AssertionError(f"the page never showed {what}; the browser said: {logs[-5:]}")


def _shots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("QD_WEB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def test_a_page_follows_the_game_and_scrubs_its_replay(service: GameService, served: str,
                                                              tmp_path: Path) -> None:
    gid = await seated_game(service)
    await picks(service, gid)
    await service.commands.submit(ANN, gid, "move Kestrel")
    token = await service.web.game_token(gid)
    driver = await _in_browser(_browser)
    shots = _shots_dir(tmp_path)
    try:
        await _in_browser(driver.set_window_size, 1280, 1000)
        await _in_browser(driver.get, f"{served}/g/{token}/")
        await _until(driver, "return document.getElementById('live').classList.contains('on')", "the live mark")
        await _in_browser(driver.execute_script, "window.notReloaded = true")
        frames_before = int(await _in_browser(driver.execute_script, "return document.getElementById('frame').max"))
        # the game moves on in the service: the page follows without a reload
        await service.commands.submit(BOB, gid, "move Otter")
        await _until(driver, "return [...document.querySelectorAll('#account-list li')]"
                             ".some(li => li.textContent.includes('Otter'))", "Otter's move in the account")
        assert await _in_browser(driver.execute_script, "return window.notReloaded === true"), "the page reloaded"
        frames_now = int(await _in_browser(driver.execute_script, "return document.getElementById('frame').max"))
        assert frames_now == frames_before + 1
        board = await _in_browser(driver.execute_script, "return document.getElementById('board-img').src")
        assert "board.png?v=" in board
        await _until(driver, "const i = document.getElementById('board-img'); return i.complete && i.naturalWidth > 0",
                     "the new board")
        alt = await _in_browser(driver.execute_script, "return document.getElementById('board-img').alt")
        assert alt.startswith("test, turn 1") and "Otter" in alt
        # times in the reader's zone (the UTC words stay as the title)
        await _in_browser(driver.save_screenshot, str(shots / "web-1280.png"))

        # the replay: the keyboard on the range, the Home key anywhere in it, and the step links
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        scrub = await _in_browser(driver.find_element, By.ID, "frame")
        await _in_browser(scrub.send_keys, Keys.ARROW_LEFT)
        await _until(driver, f"return document.getElementById('frame-no').textContent === '{frames_now - 1}'",
                     "the previous move")
        await _until(driver, f"return document.getElementById('frame-img').src.endsWith('frame/{frames_now - 1}.png')",
                     "the previous frame's image")
        caption = await _in_browser(driver.execute_script, "return document.getElementById('frame-caption').textContent")
        assert "Kestrel" in caption, caption
        await _in_browser(scrub.send_keys, Keys.HOME)
        await _until(driver, "return document.getElementById('frame-no').textContent === '1'", "the first move")
        step = await _in_browser(driver.find_element, By.CSS_SELECTOR, ".steps a[aria-keyshortcuts=ArrowRight]")
        await _in_browser(step.click)
        await _until(driver, "return document.getElementById('frame-no').textContent === '2'", "the second move")
        assert "?frame=2" in await _in_browser(lambda: driver.current_url)
        await _until(driver, "const i = document.getElementById('frame-img'); return i.complete && i.naturalWidth > 0",
                     "the frame's image")

        # a phone: the page reads in one column, the board as wide as the screen
        await _in_browser(driver.set_window_size, 400, 900)
        await _in_browser(driver.get, f"{served}/g/{token}/")
        width = await _in_browser(driver.execute_script, "return document.documentElement.scrollWidth")
        assert width <= 400, f"the page is {width} px wide at 400"
        shown = await _in_browser(driver.execute_script,
                                  "return document.getElementById('board-img').getBoundingClientRect().width")
        assert 340 <= shown <= 400
        await _until(driver, "const i = document.getElementById('board-img'); return i.complete && i.naturalWidth > 0",
                     "the board")
        await _in_browser(driver.save_screenshot, str(shots / "web-400.png"))
        await _in_browser(driver.execute_script, "document.getElementById('replay').scrollIntoView()")
        await _in_browser(driver.save_screenshot, str(shots / "web-400-replay.png"))
        problems = [e for e in await _in_browser(driver.get_log, "browser")
                    if e["level"] == "SEVERE" and "favicon" not in e["message"]]
        assert not problems, problems  # no script error, and nothing the Content-Security-Policy refused
    finally:
        await _in_browser(driver.quit)
    for name in ("web-1280.png", "web-400.png"):
        assert (shots / name).stat().st_size > 10_000


async def test_without_script_the_page_reads_whole_and_the_replay_steps(service: GameService, served: str) -> None:
    gid = await seated_game(service)
    await picks(service, gid)
    await service.commands.submit(ANN, gid, "move Kestrel")
    token = await service.web.game_token(gid)
    driver = await _in_browser(_browser, False)
    try:
        from selenium.webdriver.common.by import By

        await _in_browser(driver.set_window_size, 400, 900)
        await _in_browser(driver.get, f"{served}/g/{token}/")
        text = await _in_browser(lambda: driver.find_element(By.TAG_NAME, "main").text)
        assert "Waiting for player" in text and "UTC" in text  # the deadline in UTC words without the script
        assert "Reload the page to see new moves." in text  # and it says how to see new moves
        total = int(await _in_browser(lambda: driver.find_element(By.ID, "frame-count").text))
        back = await _in_browser(driver.find_element, By.CSS_SELECTOR, ".steps a[aria-keyshortcuts=ArrowLeft]")
        await _in_browser(back.click)
        assert f"?frame={total - 1}" in await _in_browser(lambda: driver.current_url)
        shown = await _in_browser(lambda: driver.find_element(By.ID, "frame-no").text)
        assert shown == str(total - 1)
        button = await _in_browser(driver.find_element, By.CSS_SELECTOR, "#scrubber button[type=submit]")
        assert await _in_browser(button.is_displayed)  # the slider's own button, shown only without script
    finally:
        await _in_browser(driver.quit)


async def test_a_finished_game_shows_its_seed_its_check_and_its_log(service: GameService, served: str,
                                                                     tmp_path: Path) -> None:
    from tests.web.games import new_game

    gid = await new_game(service)
    await service.lobby.join(ANN, gid, "A", "Ann", ai=True)
    await service.lobby.join(BOB, gid, "B", "Bob", ai=True)
    await service.commands.play_ai(gid, limit=400)
    seed = (await service.store.repo.load(gid)).record.dice_seed  # type: ignore[union-attr]
    token = await service.web.game_token(gid)
    driver = await _in_browser(_browser)
    shots = _shots_dir(tmp_path)
    try:
        await _in_browser(driver.set_window_size, 400, 900)
        await _in_browser(driver.get, f"{served}/g/{token}/")
        fair = await _in_browser(driver.execute_script, "return document.getElementById('fair').textContent")
        assert seed in fair and "match the seed" in fair, fair
        waiting = await _in_browser(driver.execute_script, "return document.getElementById('waiting').textContent")
        assert waiting.startswith("Game over")
        status = await _in_browser(driver.execute_script,
                                   "return fetch('log.json').then(r => r.status + ' ' + r.headers.get('content-type'))")
        assert status == "200 application/json; charset=utf-8"
        await _in_browser(driver.execute_script, "document.getElementById('fair').scrollIntoView()")
        await _in_browser(driver.save_screenshot, str(shots / "web-400-finished.png"))
    finally:
        await _in_browser(driver.quit)

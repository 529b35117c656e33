"""The worker pool: decisions and computer captains run in another process and give exactly what
they give inline; a rules error comes back whole; the bot process never loads matplotlib."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.errors import IllegalAction, RulesError
from game.events import EVENTS
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.workers import Workers
from tests.seeds import counting_seeds

GM = Actor("gm", "g1", gm=True)
ANN = Actor("111", "g1")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pool() -> Iterator[Workers]:
    workers = Workers(1)  # one process for the module: starting one costs about a second
    yield workers
    workers.close()


async def _ai_game(db_url: str, workers: Workers, moves: int) -> list[str]:
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds(), workers=workers)
        info = await service.lobby.create_game(GM, "c1")
        await service.lobby.join(GM, info.id, "A", ai=True)
        await service.lobby.join(GM, info.id, "B", ai=True)
        await service.commands.play_ai(info.id, limit=moves)
        return [json.dumps(EVENTS.encode(e), sort_keys=True) for _, _, e in await service.store.repo.events(info.id)]
    finally:
        await engine.dispose()


async def test_computer_captains_in_a_worker_play_exactly_as_inline(db_url: str, tmp_path: Path, pool: Workers) -> None:
    from tests.databases import sqlite_at_head

    other = sqlite_at_head(tmp_path / "inline.db")
    pooled = await _ai_game(db_url, pool, 40)
    inline = await _ai_game(other, Workers(0), 40)
    assert len(pooled) > 40 and pooled == inline  # same commands, same dice, same events
    assert pool.pids() and os.getpid() not in pool.pids()


async def test_a_rules_error_decided_in_a_worker_reaches_the_player_whole(db_url: str, pool: Workers) -> None:
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds(), workers=pool)
        info = await service.lobby.create_game(ANN, "c1")
        await service.lobby.join(ANN, info.id, "A", "Ann")
        await service.lobby.join(GM, info.id, "B", ai=True)
        with pytest.raises(RulesError) as refused:
            await service.commands.pick(ANN, info.id, "No Such Card")
        assert type(refused.value) is IllegalAction and refused.value.code == "illegal"  # raised by decide()
        assert "No Such Card" in refused.value.message and refused.value.allowed, refused.value.text
        assert await service.reading.position(info.id) == 0  # nothing applied
    finally:
        await engine.dispose()


def test_the_bot_with_workers_never_loads_matplotlib() -> None:
    """Boards and the replay are drawn in the worker; the bot process only awaits their bytes."""
    out = subprocess.run([sys.executable, "-m", "tests.service.pool_child"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"boards": seen["boards"], "png": True, "gif": "GIF89a", "phase": seen["phase"],
                    "matplotlib": False, "workers": 1}
    assert seen["boards"] >= 1


@pytest.mark.parametrize(("workers", "cached", "expected"), [
    ("", "", (min(2, os.cpu_count() or 1), 1000)), ("0", "5", (0, 5)), ("3", "1", (3, 1)),
])
def test_worker_and_cache_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, workers: str, cached: str,
                                   expected: tuple[int, int]) -> None:
    from game.service.settings import Settings

    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("WORKERS", workers)
    monkeypatch.setenv("CACHED_GAMES", cached)
    settings = Settings.from_env()
    assert (settings.workers, settings.cached_games) == expected


@pytest.mark.parametrize(("name", "value", "said"), [
    ("WORKERS", "-1", "WORKERS must be a whole number of at least 0"), ("WORKERS", "two", "not 'two'"),
    ("CACHED_GAMES", "0", "CACHED_GAMES must be a whole number of at least 1"),
])
def test_settings_that_cannot_work_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, value: str,
                                               said: str) -> None:
    from game.service.settings import Settings, SettingsError

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=said):
        Settings.from_env()


def test_the_built_in_rules_travel_to_a_worker_as_their_name_and_imported_ones_whole(pool: Workers) -> None:
    import pickle

    from game.rules_data import default_texts, load_rules, rules_from_texts
    from game.service.jobs import decide_job  # noqa: F401 - what the rules travel with

    built_in = load_rules()
    assert len(pickle.dumps(built_in)) < 200 and pickle.loads(pickle.dumps(built_in)) is built_in
    texts = default_texts("oak_and_iron")
    texts["ranges.toml"] = texts["ranges.toml"].replace("max = 12.0", "max = 14.0")
    imported = rules_from_texts("oak_and_iron", texts)  # a guild's own data: not the built-in object
    again = pickle.loads(pickle.dumps(imported))
    assert again is not imported and again == imported and again.range_of("cannon") == 14.0
    # and in a worker process, each is what the service holds
    import asyncio

    async def ranges() -> tuple[float, float]:
        return (await pool.run(_longest_range, built_in), await pool.run(_longest_range, imported))

    assert asyncio.run(ranges()) == (12.0, 14.0)


def _longest_range(rules: object) -> float:
    from game.rules_data import RulesData

    assert isinstance(rules, RulesData)
    return rules.ranges[-1].max

"""systemd's notify protocol: the messages reach the socket NOTIFY_SOCKET names (a path or an abstract
name), nothing happens without one, and the watchdog's interval is half of what systemd set."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.notify import feed_watchdog, notify, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_the_messages_reach_systemds_socket(listener: socket.socket) -> None:
    assert notify("READY=1")
    assert listener.recv(100) == b"READY=1"


def test_an_abstract_socket_name(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"quarterdeck-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify("STOPPING=1")
        assert sock.recv(100) == b"STOPPING=1"


def test_without_notify_socket_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify("READY=1")


def test_a_socket_that_is_gone_is_only_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody"))
    assert not notify("WATCHDOG=1")


@pytest.mark.parametrize(("usec", "pid", "interval"), [
    ("30000000", "", 15.0), ("30000000", "self", 15.0), ("30000000", "1", None), ("", "", None), ("0", "", None)])
def test_the_watchdog_interval_is_half_of_watchdogsec(monkeypatch: pytest.MonkeyPatch, usec: str, pid: str,
                                                      interval: float | None) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()) if pid == "self" else pid)
    assert watchdog_interval() == interval


async def test_the_watchdog_is_fed_while_the_loop_runs(listener: socket.socket) -> None:
    feeder = asyncio.create_task(feed_watchdog(0.01))
    try:
        got = [await asyncio.to_thread(listener.recv, 100) for _ in range(3)]
    finally:
        feeder.cancel()
    assert got == [b"WATCHDOG=1"] * 3


def test_the_unit_waits_for_ready_and_watches_the_bot() -> None:
    import configparser

    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(Path(__file__).resolve().parents[2] / "deploy" / "quarterdeck.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) >= 30
    assert service["Restart"] == "on-failure"  # a watchdog kill is a failure: the bot is started again


async def test_the_bot_says_ready_once_connected_and_stopping_at_the_end(
        harness: Any, listener: socket.socket, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.observe import observing
    from game.service.settings import Settings
    from game.service.workers import Workers

    bot, _ = harness
    monkeypatch.setenv("WATCHDOG_USEC", "40000")  # 20 ms: fed at once, then again
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    async with observing(Settings(), bot, Workers(0)):
        assert await heard(listener) == b"WATCHDOG=1"  # fed while connecting, and not ready yet
        bot._connection.call_handlers("ready")
        await until(listener, b"READY=1")
    await until(listener, b"STOPPING=1")


async def heard(sock: socket.socket) -> bytes:
    return await asyncio.to_thread(sock.recv, 100)  # the fixture's timeout fails a message that never comes


async def until(sock: socket.socket, message: bytes) -> None:
    """Read past the watchdog's messages to this one."""
    while (got := await heard(sock)) != message:
        assert got == b"WATCHDOG=1", got

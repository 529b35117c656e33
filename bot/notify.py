"""systemd's notify protocol (deploy/quarterdeck.service: Type=notify, WatchdogSec): READY=1 once the
bot is connected, WATCHDOG=1 while its event loop runs, STOPPING=1 at shutdown. Each message is one
datagram to the socket NOTIFY_SOCKET names, so a few lines of socket code do it rather than a
dependency (the `sdnotify` package is this, unmaintained since 2017). Without NOTIFY_SOCKET (a
terminal, Docker, a unit of Type=exec) every call does nothing."""

from __future__ import annotations

import asyncio
import logging
import os
import socket

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send one message; False when there is no one to tell or the socket refused it."""
    path = os.environ.get("NOTIFY_SOCKET", "")
    if not path or path[0] not in "/@":  # vsock addresses (vsock:…) are for virtual machines: not ours
        return False
    address = "\0" + path[1:] if path[0] == "@" else path  # "@": Linux's abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("could not tell systemd %s: %s", message.split("=")[0], exc)
        return False
    return True


def watchdog_interval() -> float | None:
    """How often to feed the watchdog (half of WatchdogSec, as sd_watchdog_enabled advises), or None
    when systemd set none for this process."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000


async def feed_watchdog(interval: float) -> None:
    """WATCHDOG=1 every `interval` seconds, from the event loop: a loop that is stuck stops feeding it,
    and systemd restarts the bot."""
    while True:
        notify("WATCHDOG=1")
        await asyncio.sleep(interval)

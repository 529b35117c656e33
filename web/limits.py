"""Per-client rate limits: a token bucket per address. Behind a reverse proxy every request comes from
the proxy, so with `trust_proxy` the client is the address the proxy appended last to
X-Forwarded-For (the one a client cannot forge: docs/web.md)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    burst: int = 120  # requests a client may make at once (a page, its script, style, board and frames)
    per_second: float = 4.0  # and then, on average
    streams_per_client: int = 8  # open live pages per client
    streams: int = 2_000  # open live pages in all
    clients: int = 50_000  # addresses remembered (the least recent forgotten first)


class Buckets:
    def __init__(self, limits: Limits, now: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._now = now
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, when)

    def take(self, client: str) -> float:
        """0 when the request may go ahead, else the seconds until it may."""
        now = self._now()
        tokens, then = self._buckets.pop(client, (float(self.limits.burst), now))
        tokens = min(float(self.limits.burst), tokens + (now - then) * self.limits.per_second)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.limits.per_second
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.limits.clients:
            self._buckets.popitem(last=False)
        return wait


def client_of(remote: str | None, forwarded: str | None, trust_proxy: bool) -> str:
    if trust_proxy and forwarded:
        last = forwarded.split(",")[-1].strip()
        if last:
            return last[:64]
    return (remote or "unknown")[:64]

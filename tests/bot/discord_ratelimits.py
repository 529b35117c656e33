"""Discord's rate limits as the fake Discord runs them (topics-rate-limits.mdx, quoted where modelled):

- **Per-route buckets.** "Per-route rate limits exist for many individual endpoints, and may include the
  HTTP method"; they "account for top-level resources within the path", which are "channels
  (`channel_id`), guilds (`guild_id`), and webhooks (`webhook_id` or `webhook_id + webhook_token`)". Every
  answer carries the `X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket` headers, and discord.py paces
  itself by them, so a bot that reads them is never refused by a bucket.
- **The global limit.** "All bots can make up to 50 requests per second to our API", but "Interaction
  endpoints are not bound to the bot's Global Rate Limit" (the callback, and the webhook routes under an
  interaction token).
- **429.** A JSON body with `message`, `retry_after` and `global`, the `Retry-After` header, and
  `X-RateLimit-Global` / `X-RateLimit-Scope` on a 429. It also carries `Via: 1.1 google`, as Discord's
  answers come through Google's front end: discord.py takes a 429 without `Via` for a Cloudflare ban.
- **Invalid requests.** "An invalid request is one that results in 401, 403, or 429 statuses" and "this
  limit is 10,000 per 10 minutes"; "429 errors returned with `X-RateLimit-Scope: shared` are not counted".

Discord publishes no per-route figures ("rate limits should not be hard coded into your app"): the ones
below are those widely observed (5 messages per 5 s in a channel). Tests run the windows `scale` times
as fast as Discord does (0.01: a 5 s window lasts 50 ms), so a whole game fits in a test; the counts
are Discord's, and a test that measures a burst runs at scale 1."""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_LIMIT = 50  # requests per second, for a bot token
INVALID_LIMIT = 10_000  # 401, 403 and 429 answers per 10 minutes before a temporary ban
TEST_SCALE = 0.01


@dataclass(frozen=True)
class RouteLimit:
    """One kind of bucket: requests matching `pattern` (a path under /api/v10, with the top-level
    resource captured as `major`) share `limit` requests per `per` seconds for each `major`."""

    name: str
    method: str | None
    pattern: re.Pattern[str]
    limit: int
    per: float

    @property
    def bucket_hash(self) -> str:
        """What `X-RateLimit-Bucket` names: the same for every major resource ("non-inclusive of
        top-level resources in the path")."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:16]


def _route(name: str, method: str | None, pattern: str, limit: int, per: float) -> RouteLimit:
    return RouteLimit(name, method, re.compile(pattern), limit, per)


ROUTES: tuple[RouteLimit, ...] = (
    _route("create-message", "POST", r"^/channels/(?P<major>\d+)/messages$", 5, 5.0),
    _route("edit-message", "PATCH", r"^/channels/(?P<major>\d+)/messages/\d+$", 5, 5.0),
    _route("delete-message", "DELETE", r"^/channels/(?P<major>\d+)/messages/\d+$", 5, 5.0),
    _route("create-thread", "POST", r"^/channels/(?P<major>\d+)/threads$", 5, 5.0),
    _route("channel", None, r"^/channels/(?P<major>\d+)$", 5, 5.0),
    _route("open-dm", "POST", r"^/users/@me/channels$", 5, 5.0),
    # interaction follow-ups and edits: one bucket per interaction token
    _route("webhook", None, r"^/webhooks/(?P<major>\d+/[^/]+)(?:/.*)?$", 5, 2.0),
    _route("interaction-callback", "POST", r"^/interactions/(?P<major>\d+/[^/]+)/callback$", 5, 2.0),
    _route("commands", "PUT", r"^/applications/\d+/(?:guilds/(?P<major>\d+)/)?commands$", 2, 10.0),
    _route("guild", None, r"^/guilds/(?P<major>\d+)(?:/.*)?$", 10, 1.0),
    _route("other", None, r"^(?P<major>)/.*$", 10, 1.0),
)


def interaction_route(path: str) -> bool:
    """The routes not bound to the global limit: the callback, and the webhook routes of an interaction
    token (the fake's interaction tokens start with "tok-"; a real webhook's never do here)."""
    return path.startswith("/interactions/") or bool(re.match(r"^/webhooks/\d+/tok-", path))


@dataclass
class Window:
    """One bucket's (or the global limit's) current window."""

    limit: int
    per: float  # Discord seconds
    started: float = -math.inf  # fake-clock seconds
    used: int = 0

    def roll(self, now: float, scale: float) -> None:
        if now - self.started >= self.per * scale:
            self.started, self.used = now, 0

    def reset_after(self, now: float, scale: float) -> float:
        """In the seconds a test lives by (scaled), which is what the headers say."""
        return max(0.0, self.started + self.per * scale - now)


@dataclass
class Verdict:
    """What the limits say of one request: headers for the answer, and a 429 body if refused."""

    headers: dict[str, str]
    refused: dict[str, object] | None = None
    scope: str = "user"


@dataclass
class RateLimits:
    scale: float = TEST_SCALE
    clock: Callable[[], float] = time.monotonic
    buckets: dict[tuple[str, str], Window] = field(default_factory=dict)
    global_window: Window = field(default_factory=lambda: Window(GLOBAL_LIMIT, 1.0))
    refused: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, scope) of each 429
    invalid: list[tuple[float, int, str]] = field(default_factory=list)  # (when, status, path) of 401/403/429

    def route_of(self, method: str, path: str) -> tuple[RouteLimit, str]:
        for route in ROUTES:
            if route.method is not None and route.method != method:
                continue
            found = route.pattern.match(path)
            if found:
                return route, found.groupdict().get("major") or ""
        raise AssertionError(f"no bucket for {method} {path}")  # "other" matches every path

    def check(self, method: str, path: str) -> Verdict:
        """Take one request from its bucket (and the global limit), or refuse it."""
        now = self.clock()
        route, major = self.route_of(method, path)
        window = self.buckets.setdefault((route.name, major), Window(route.limit, route.per))
        window.roll(now, self.scale)
        if not interaction_route(path):
            self.global_window.roll(now, self.scale)
            if self.global_window.used >= self.global_window.limit:
                wait = self.global_window.reset_after(now, self.scale)
                return self._refuse(method, path, "global", wait, {
                    "Retry-After": str(math.ceil(wait)), "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
        headers = self._headers(route, window, now)
        if window.used >= window.limit:
            wait = window.reset_after(now, self.scale)
            return self._refuse(method, path, "user", wait, {**headers, "Retry-After": str(math.ceil(wait)),
                                                              "X-RateLimit-Scope": "user"})
        window.used += 1
        if not interaction_route(path):
            self.global_window.used += 1
        return Verdict(self._headers(route, window, now))

    def _headers(self, route: RouteLimit, window: Window, now: float) -> dict[str, str]:
        after = window.reset_after(now, self.scale) if window.used else route.per * self.scale
        return {
            "X-RateLimit-Limit": str(route.limit),
            "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": route.bucket_hash,
        }

    def _refuse(self, method: str, path: str, scope: str, wait: float, headers: dict[str, str]) -> Verdict:
        self.refused.append((method, path, scope))
        body: dict[str, object] = {"message": "You are being rate limited.", "retry_after": round(wait, 3),
                                   "global": scope == "global"}
        return Verdict({**headers, "Via": "1.1 google"}, body, scope)

    def shared_refusal(self, wait: float) -> Verdict:
        """A limit on a shared resource, which the bot could not know of (and which is not held against
        it): what a test's `fake.rate_limit` budget answers."""
        return Verdict({"Retry-After": str(math.ceil(wait)), "X-RateLimit-Scope": "shared", "Via": "1.1 google"},
                       {"message": "The resource is being rate limited.", "retry_after": round(wait, 3),
                        "global": False}, "shared")

    def answered(self, status: int, path: str, scope: str | None = None) -> None:
        """Count an invalid request: 401, 403, and 429 unless on a shared resource."""
        if status in (401, 403) or (status == 429 and scope != "shared"):
            self.invalid.append((self.clock(), status, path))

    def invalid_in_ten_minutes(self) -> int:
        now = self.clock()
        return sum(1 for when, _, _ in self.invalid if now - when <= 600)

"""A service that is never asked anything: for what the app is before any request."""

from __future__ import annotations

from typing import Any

from game.service.game_service import GameService


class _Web:
    def on_commit(self, hook: Any) -> None:
        pass


def no_service() -> GameService:
    service = GameService.__new__(GameService)
    service.web = _Web()  # type: ignore[assignment]
    return service

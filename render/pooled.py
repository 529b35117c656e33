"""The render entry points the bot awaits: each draws in a worker process (game/service/workers.py),
so the bot process never imports matplotlib and a render never holds its GIL. This module imports
no drawing code itself; the jobs import it inside the worker."""

from __future__ import annotations

from collections.abc import Sequence

from game.campaign import Picture
from game.chronicle import CardText, Summary
from game.replay import Frame
from game.service.workers import default
from game.systems.sheet import Sheet
from game.views import View
from render.options import RenderOptions


def render_job(view: View, options: RenderOptions | None) -> bytes:
    from render.board import render_board

    return render_board(view, options)


def replay_job(frames: Sequence[Frame], limit_bytes: int, rules: object, fmt: str = "webp") -> list[bytes]:
    from render.replay import replay_files

    return replay_files(frames, limit_bytes, rules, fmt=fmt)


def sheet_job(sheet: Sheet) -> tuple[bytes, str]:
    from render.ship_sheet import render_sheet

    return render_sheet(sheet)


def summary_job(summary: Summary, card: CardText) -> tuple[bytes, str]:
    from render.summary_card import summary_card

    return summary_card(summary, card)


async def render_board_async(view: View, options: RenderOptions | None = None) -> bytes:
    """render_board in a worker process (with WORKERS=0, in a thread)."""
    return await default().run(render_job, view, options, thread=True)


async def replay_files_async(frames: Sequence[Frame], limit_bytes: int, rules: object = None,
                             fmt: str = "webp") -> list[bytes]:
    """replay_files in a worker process (with WORKERS=0, in a thread)."""
    return await default().run(replay_job, list(frames), limit_bytes, rules, fmt, thread=True)


async def render_sheet_async(sheet: Sheet) -> tuple[bytes, str]:
    """A ship's sheet as PNG bytes and its alt text, in a worker process (with WORKERS=0, in a thread)."""
    return await default().run(sheet_job, sheet, thread=True)


def rating_job(name: str, history: Sequence[float]) -> bytes:
    from render.rating_history import rating_png

    return rating_png(name, history)


async def rating_png_async(name: str, history: Sequence[float]) -> bytes:
    """A captain's rating history as a PNG, in a worker process (with WORKERS=0, in a thread)."""
    return await default().run(rating_job, name, list(history), thread=True)


async def summary_card_async(summary: Summary, card: CardText) -> tuple[bytes, str]:
    """A finished game's summary card and its alt text, in a worker process (with WORKERS=0, in a thread)."""
    return await default().run(summary_job, summary, card, thread=True)


def campaign_job(picture: Picture) -> tuple[bytes, str]:
    from render.campaign import campaign_png

    return campaign_png(picture)


async def campaign_png_async(picture: Picture) -> tuple[bytes, str]:
    """A campaign's squadrons as a PNG and its alt text, in a worker process (with WORKERS=0, in a thread)."""
    return await default().run(campaign_job, picture, thread=True)

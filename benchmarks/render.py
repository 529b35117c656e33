"""Render time: the quick start and a 20-ship Engagement table with 8 terrain pieces, p50 and p95
over 50 renders each, and the ratio to saving a bare matplotlib figure of the same pixel size."""

from __future__ import annotations

import io
import statistics
import time

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from benchmarks.engine import engagement
from game.scenario import quickstart
from game.views import view_of
from render import RenderOptions, render_board
from render.board import DPI

RENDERS = 50


def _times(fn: object, n: int = RENDERS) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - t0) * 1000)
    return out


def bare(width: int, height: int) -> list[float]:
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    FigureCanvasAgg(fig)

    def save() -> None:
        fig.savefig(io.BytesIO(), format="png")

    return _times(save)


def main() -> None:
    from PIL import Image

    for name, game, ship in (("quick start", quickstart(), "Amazone"), ("Engagement 20 ships, 8 terrain", engagement(), "A4")):
        view = view_of(game, "A")
        options = RenderOptions(active_ship=ship)
        png = render_board(view, options)  # the first call draws the static layer
        width, height = Image.open(io.BytesIO(png)).size
        times = _times(lambda: render_board(view, options))  # noqa: B023 - called at once
        base = bare(width, height)
        p50, p95 = statistics.median(times), statistics.quantiles(times, n=20)[18]
        print(f"{name} ({width}x{height}, {len(png) / 1024:.0f} KB): p50 {p50:.1f} ms, p95 {p95:.1f} ms; "
              f"bare figure savefig p50 {statistics.median(base):.1f} ms; ratio {p50 / statistics.median(base):.2f}")


if __name__ == "__main__":
    main()

"""Render time in CPU milliseconds (p50 and p95), each figure beside the same board drawn by the
renderer as it stood at the start of issue 15 (`render/` at that commit, from git: benchmarks.baseline) in
the same run,
the two taking turns so that both see the same load on a shared machine:

- the quick start and a 20-ship Engagement table with 8 terrain pieces, the table's layer kept;
- a new table's first board: every kept table layer dropped before each render (the texts' kept
  images stay, as they do in a bot that has drawn other games);
- the naive reference: the same figure size with the same artists (table, ships, marks, every
  text as a matplotlib Text) drawn by `Figure.savefig`, no cache at all.

The new renderer has Pillow keep a few freed memory blocks (render.png), a setting of the whole
process, so the old renderer beside it benefits too: the ratios understate the gain. The old board
is also timed on its own with Pillow's default (no blocks kept), as it ran before.

It also prints how far the new board's pixels are from the old one's (mean and largest channel
difference, and the share of pixels off by more than 40), the bound the golden images hold."""

from __future__ import annotations

import importlib
import io
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image, _imaging

from benchmarks import baseline
from benchmarks.engine import engagement
from game.scenario import quickstart
from game.views import view_of
from render import RenderOptions, render_board
from render import static as new_static

RENDERS = 40


def _cpu_ms(fn: Callable[[], Any]) -> float:
    t0 = time.process_time()
    fn()
    return (time.process_time() - t0) * 1000


def _side_by_side(new: Callable[[], Any], base: Callable[[], Any], n: int = RENDERS) -> tuple[list[float], list[float]]:
    a: list[float] = []
    b: list[float] = []
    for _ in range(n):
        a.append(_cpu_ms(new))
        b.append(_cpu_ms(base))
    return a, b


def _p(times: list[float]) -> str:
    return f"p50 {statistics.median(times):6.1f} ms, p95 {statistics.quantiles(times, n=20)[18]:6.1f} ms"


def naive(old: Any, view: Any, options: Any) -> Callable[[], bytes]:
    """The board's artists, texts included, added to its figure and saved by matplotlib: what the
    renderer would cost without its caches, sprites and palette."""
    fig, _, sc = old.board.layout(view, options)

    def draw() -> bytes:
        added = []
        for a in sc.data:
            added.append(sc.static.ax.add_artist(a))
        for a in [*sc.pixels, *sc.static.text_artists(), *sc.text_artists()]:
            added.append(fig.add_artist(a))
        out = io.BytesIO()
        fig.savefig(out, format="png")
        for a in added:
            a.remove()
        return out.getvalue()

    return draw


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _difference(new_png: bytes, old_png: bytes) -> str:
    a, b = _pixels(new_png), _pixels(old_png)
    if a.shape != b.shape:
        return f"sizes differ: {a.shape} vs {b.shape}"
    d = np.abs(a - b)
    return f"mean {d.mean():.3f}, max {d.max()}, off by > 40: {(d.max(axis=2) > 40).mean() * 100:.3f}% of pixels"


def main() -> None:
    old = baseline.old_package("render", "baseline_render")
    if old is None:
        print("the start-of-issue renderer is not available (no git): nothing compared")
        return
    importlib.import_module("baseline_render.board")
    importlib.import_module("baseline_render.static")
    for name, game, ship in (("quick start", quickstart(), "Amazone"),
                             ("Engagement 20 ships, 8 terrain", engagement(), "A4")):
        view = view_of(game, "A")
        options = RenderOptions(active_ship=ship)
        old_options = old.RenderOptions(active_ship=ship)
        png, old_png = render_board(view, options), old.render_board(view, old_options)  # the layers drawn
        width, height = Image.open(io.BytesIO(png)).size
        print(f"{name} ({width}x{height}; PNG {len(png) / 1024:.0f} KB, old {len(old_png) / 1024:.0f} KB)")
        print(f"  pixels against the old board: {_difference(png, old_png)}")
        warm, warm_old = _side_by_side(lambda: render_board(view, options),  # noqa: B023 - called at once
                                       lambda: old.render_board(view, old_options))  # noqa: B023
        print(f"  board:            {_p(warm)}   old {_p(warm_old)}   "
              f"ratio {statistics.median(warm) / statistics.median(warm_old):.2f}")
        kept = _imaging.get_blocks_max()
        _imaging.set_blocks_max(0)
        alone = [_cpu_ms(lambda: old.render_board(view, old_options)) for _ in range(RENDERS // 2)]  # noqa: B023
        _imaging.set_blocks_max(kept)
        print(f"  old board alone, Pillow keeping no blocks (as it ran): {_p(alone)}   "
              f"ratio {statistics.median(warm) / statistics.median(alone):.2f}")

        def first() -> bytes:
            new_static._STATIC.clear()
            return render_board(view, options)  # noqa: B023

        def first_old() -> bytes:
            old.static._STATIC.clear()
            return bytes(old.render_board(view, old_options))  # noqa: B023

        cold, cold_old = _side_by_side(first, first_old, RENDERS // 2)
        print(f"  new table, first: {_p(cold)}   old {_p(cold_old)}   "
              f"ratio {statistics.median(cold) / statistics.median(cold_old):.2f}")
        ref = [_cpu_ms(naive(old, view, old_options)) for _ in range(RENDERS // 4)]
        print(f"  naive reference (same artists, Figure.savefig): p50 {statistics.median(ref):.1f} ms; "
              f"board / naive {statistics.median(warm) / statistics.median(ref):.2f}, "
              f"first board / naive {statistics.median(cold) / statistics.median(ref):.2f}")


if __name__ == "__main__":
    main()

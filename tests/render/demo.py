"""Write every scene of tests/render/scenes.py as a PNG, full size and 400 px wide (how a phone
shows it): `python -m tests.render.demo DIR`."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

from render import render_board
from tests.render.scenes import crowded


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (view, options) in crowded().items():
        png = render_board(view, options)
        (folder / f"{name}.png").write_bytes(png)
        image = Image.open(io.BytesIO(png)).convert("RGB")  # a palette image would be resized without smoothing
        w, h = image.size
        image.resize((400, round(h * 400 / w)), Image.Resampling.LANCZOS).save(folder / f"{name}-400.png")
        print(folder / f"{name}.png", f"{w}x{h}", f"{len(png) // 1024} KB")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "demo-boards"))

"""The board's pixels as PNG bytes.

A board has a few dozen colours and their anti-aliased edges: 256 of them keep it looking the same,
and the PNG is half the size and faster to write than full colour. Choosing the 256 (an octree over
every pixel) cost more than drawing the ships, so the palette is chosen from a quarter of the
pixels (every other pixel of every other row: the lines and glyphs of a board are at least two
pixels wide, so each still adds its colours; averaging 2 x 2 blocks instead was slower and further
off), then every pixel is mapped to its nearest palette colour. Against full colour this differs
no more than the octree over every pixel did (about one level per channel on average, mostly the
sea one level off): tests/render/test_fast.py holds it within the bounds below and
`python -m benchmarks render` prints the difference to the old renderer's PNG."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

# measured on the boards of tests/render/scenes.py and the golden cases against the same pixels in
# full colour (largest seen: channel 28, mean 1.12), with a margin
MAX_CHANNEL_DIFFERENCE = 40
MEAN_DIFFERENCE = 1.4

# Pillow keeps freed blocks for the next board: render/__init__.py says so before Pillow loads.


def to_image(pixels: np.ndarray, colours: int) -> Image.Image:
    """The RGBA pixels (H x W x 4, opaque: the figure is white) as an RGB image, or as a palette
    image of at most `colours` colours (0: full colour)."""
    h, w = pixels.shape[:2]
    rgb = Image.frombytes("RGB", (w, h), np.ascontiguousarray(pixels), "raw", "RGBX")
    if not colours:
        return rgb
    sample = rgb.resize((w // 2, h // 2), Image.Resampling.NEAREST) if min(w, h) >= 64 else rgb
    palette = sample.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    image = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    image.info.pop("transparency", None)  # every colour is opaque: no transparency chunk
    return image


def encode(pixels: np.ndarray, colours: int = 256, compress_level: int = 1) -> bytes:
    out = io.BytesIO()
    to_image(pixels, colours).save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()

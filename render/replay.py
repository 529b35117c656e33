"""A game's replay as animated images: every frame the same part of the table (the union of the
areas of play), the board over a caption that says what happened, cut into as few files as fit
Discord's upload limit.

Animated WebP by default: Discord plays it like a GIF, and for a whole game it is about 2.5 times
smaller and quicker to encode (a board's anti-aliased edges and captions need far more than a
GIF's 256 colours to stay sharp, which WebP has). GIF stays an option for viewers that play no WebP."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from game.replay import Frame
from render.board import render_pixels
from render.layout import area_of_play
from render.options import RenderOptions
from render.overlays import last_attacks, last_move

WIDTHS = (640, 480, 360)  # tried in turn until the frames fit
CAPTION_LINES = 4
FRAME_MS = 1400  # long enough to read a caption of three lines
LAST_FRAME_MS = 5000
MAX_FRAMES_PER_FILE = 400
FORMATS = ("webp", "gif")  # the first is the default
WEBP_QUALITY = 80  # lossy: captions stay legible at 400 px wide (tests/render/test_replay_formats.py)


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.FreeTypeFont:
    import matplotlib  # ships DejaVu Sans: the same face the boards use, on every machine

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    return ImageFont.truetype(str(path), size)


def replay_box(frames: Sequence[Frame], options: RenderOptions) -> tuple[float, float, float, float]:
    boxes = [area_of_play(f.view.game, options) for f in frames]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _wrap(text: str, draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """The line broken at spaces to fit `width` pixels (a word longer than the width is cut)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if draw.textlength(trial, font=font) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = "  " + word
    lines.append(current)
    out = []
    for line in lines:
        while len(line) > 1 and draw.textlength(line, font=font) > width:
            line = line[:-2] + "…"
        out.append(line)
    return out


def frame_image(frame: Frame, options: RenderOptions, index: int, total: int) -> Image.Image:
    """The board over its caption: the frame's number, then what happened (the last lines, which
    carry the outcome, when there are more than fit)."""
    options = replace(options, last_move=last_move(frame.events), last_attacks=last_attacks(frame.events))
    board = Image.fromarray(render_pixels(frame.view, options)).convert("RGB")
    w = board.width
    size = max(12, w // 36)
    font = _font(size)
    strip = Image.new("RGB", (w, (CAPTION_LINES + 1) * (size + 4) + 8), "white")
    draw = ImageDraw.Draw(strip)
    lines = [part for line in frame.caption for part in _wrap(line, draw, font, w - 12)]
    if len(lines) > CAPTION_LINES:  # the last lines carry the outcome
        lines = [f"(… {len(lines) - CAPTION_LINES + 1} lines before: /game log)", *lines[-(CAPTION_LINES - 1):]]
    head = f"{index}/{total} · command {frame.command}"
    draw.text((6, 4), head, fill=(90, 90, 90), font=font)
    for i, line in enumerate(lines):
        draw.text((6, 4 + (i + 1) * (size + 4)), line, fill="black", font=font)
    out = Image.new("RGB", (w, board.height + strip.height), "white")
    out.paste(board, (0, 0))
    out.paste(strip, (0, board.height))
    return out


def _encode(images: Sequence[Image.Image], fmt: str = "webp") -> bytes:
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    if fmt == "gif":
        images[0].save(out, format="GIF", save_all=True, append_images=list(images[1:]), duration=durations,
                       loop=0, optimize=False, disposal=1)
    else:
        images[0].save(out, format="WEBP", save_all=True, append_images=list(images[1:]), duration=durations,
                       loop=0, quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def replay_gifs(frames: Sequence[Frame], limit_bytes: int, rules: object = None,
                progress: Callable[[int], None] | None = None, widths: Sequence[int] = WIDTHS) -> list[bytes]:
    """The replay as GIFs (replay_files with fmt="gif")."""
    return replay_files(frames, limit_bytes, rules, progress, widths, "gif")


def replay_files(frames: Sequence[Frame], limit_bytes: int, rules: object = None,
                 progress: Callable[[int], None] | None = None, widths: Sequence[int] = WIDTHS,
                 fmt: str = "webp") -> list[bytes]:
    """The replay in as few animated files (WebP or GIF) as fit `limit_bytes` each: first smaller
    frames, then several files. Empty when nothing happened yet."""
    if fmt not in FORMATS:
        raise ValueError(f"a replay is {' or '.join(FORMATS)}, not {fmt!r}")
    if not frames:
        return []
    base = RenderOptions(guide=False, rules=rules)  # type: ignore[arg-type]
    box = replay_box(frames, base)
    images: list[Image.Image] = []
    for width in widths:
        options = replace(base, width_px=width, zoom_box=box)
        images = []
        for i, frame in enumerate(frames, 1):
            images.append(frame_image(frame, options, i, len(frames)))
            if progress is not None:
                progress(i)
        whole = _encode(images[:MAX_FRAMES_PER_FILE], fmt)
        if len(whole) <= limit_bytes and len(images) <= MAX_FRAMES_PER_FILE:
            return [whole]
        per_frame = len(whole) / min(len(images), MAX_FRAMES_PER_FILE)
        if per_frame * 8 <= limit_bytes:  # small enough frames: split rather than shrink further
            break
    return _split(images, limit_bytes, fmt)


def _split(images: Sequence[Image.Image], limit_bytes: int, fmt: str) -> list[bytes]:
    parts: list[bytes] = []
    start = 0
    while start < len(images):
        count = min(MAX_FRAMES_PER_FILE, len(images) - start)
        while True:
            gif = _encode(images[start:start + count], fmt)
            if len(gif) <= limit_bytes or count == 1:
                break
            count = max(1, int(count * limit_bytes / len(gif) * 0.95))
        if len(gif) > limit_bytes:
            raise ValueError("a single frame of the replay is larger than the upload limit")
        parts.append(gif)
        start += count
    return parts


def write_pngs(frames: Sequence[Frame], folder: Path, rules: object = None, width: int = 1080) -> list[Path]:
    """Every frame as frame-NNN.png (board and caption) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    if not frames:
        return []
    base = RenderOptions(guide=False, rules=rules, width_px=width)  # type: ignore[arg-type]
    options = replace(base, zoom_box=replay_box(frames, base))
    paths = []
    for i, frame in enumerate(frames, 1):
        path = folder / f"frame-{i:03d}.png"
        frame_image(frame, options, i, len(frames)).save(path, format="PNG", optimize=False)
        paths.append(path)
    return paths

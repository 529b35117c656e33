"""Issue 27, item 6: replays are animated WebP by default (GIF as an option), with the same split
under the upload limit; WebP is the smaller of the two for the same frames, and its captions stay
legible when shown 400 px wide."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from game.ai.match import ai_game
from game.replay import Frame, frames
from render.replay import replay_files


def _frames() -> list[Frame]:
    """The first moments of a computer captains' game, each event its own command."""
    session = ai_game(3)
    return frames(session.initial, enumerate(session.events, 1))[:24]


def test_webp_is_the_default_and_the_smaller() -> None:
    frames = _frames()
    [webp] = replay_files(frames, 8_000_000)
    [gif] = replay_files(frames, 8_000_000, fmt="gif")
    with Image.open(io.BytesIO(webp)) as a, Image.open(io.BytesIO(gif)) as b:
        assert (a.format, b.format) == ("WEBP", "GIF") and a.n_frames == b.n_frames == len(frames)
        assert a.size == b.size
    assert len(webp) < len(gif)


def test_a_webp_replay_splits_under_the_limit_like_a_gif() -> None:
    frames = _frames()
    smallest = replay_files(frames, 8_000_000, widths=(360,))[0]
    limit = len(smallest) * 2 // 3
    parts = replay_files(frames, limit)
    assert len(parts) >= 2 and all(len(p) <= limit for p in parts)
    counts = []
    for part in parts:
        with Image.open(io.BytesIO(part)) as im:
            counts.append(im.n_frames)
    assert sum(counts) == len(frames)


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="webp or gif"):
        replay_files(_frames()[:2], 1_000_000, fmt="mp4")

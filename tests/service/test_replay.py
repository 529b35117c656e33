"""Issue 14, item 5: a game told again. One frame per command, as a spectator saw it (no hand before
its reveal), the same part of the table in every frame, GIFs that fit the upload limit (split when
they must), and a finished game's log that `quarterdeck replay` plays back and draws."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from cli.main import main as quarterdeck
from game.service.game_service import Actor, GameService
from game.views import view_of
from render.replay import replay_gifs, write_pngs
from tests.helpers import S, scenario_text

ANN, BOB = Actor("111", "g1"), Actor("222", "g1")
HANDS = {"A": ["Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position"],
         "B": ["Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind"]}


async def short_game(service: GameService) -> int:
    text = scenario_text([S("Kestrel", "Sloop", 14, 10, 90, "A"), S("Otter", "Sloop", 22, 26, 270, "B")],
                         test_dice=False)
    info = await service.lobby.create_game(ANN, "chan-1", scenario_text=text)
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    for line, who in (("pick A Effective Fire", ANN), ("pick B Take Courage", BOB), ("pick A Careful Aim", ANN),
                      ("pick B Reload!", BOB)):
        await service.commands.submit(who, info.id, line)
    return info.id


def gif_frames(data: bytes) -> list[tuple[int, int]]:
    with Image.open(io.BytesIO(data)) as im:
        sizes = []
        for i in range(im.n_frames):
            im.seek(i)
            sizes.append(im.size)
        return sizes


async def test_a_replay_shows_every_command_as_a_spectator_saw_it(service: GameService) -> None:
    gid = await short_game(service)
    for line in ("move Kestrel", "move Otter"):
        await service.commands.submit(BOB if "Otter" in line else ANN, gid, line)
    shown, rules, log_file = await service.audit.replay(ANN, gid)
    assert log_file is None  # not over: the log holds secrets until the end
    final = (await service.store.repo.load(gid)).state  # type: ignore[union-attr]
    assert shown[-1].view == view_of(final, None)  # the last frame is the game as it stands
    assert [f.command for f in shown] == sorted({f.command for f in shown})  # one frame per command, in order
    text = [line for f in shown for line in f.caption]
    revealed_at = next(i for i, f in enumerate(shown) if any("Revealed" in line for line in f.caption))
    before = " ".join(line for f in shown[:revealed_at] for line in f.caption)
    for card in (*HANDS["A"], *HANDS["B"]):
        assert card not in before  # nobody's pick or hand shows before the reveal
    assert any("Effective Fire" in line for line in text)  # and the reveal does show it
    assert all(not q.hand for f in shown for q in f.view.game.squadrons)  # no hand in any frame

    gifs = replay_gifs(shown, 8_000_000, rules)
    assert len(gifs) == 1
    sizes = gif_frames(gifs[0])
    assert len(sizes) == len(shown) and len(set(sizes)) == 1  # every frame the same size and framing
    # a tighter limit: smaller frames first
    limit = len(gifs[0]) * 2 // 3
    smaller = replay_gifs(shown, limit, rules)
    assert len(smaller) == 1 and len(smaller[0]) <= limit and gif_frames(smaller[0])[0][0] < sizes[0][0]
    # a limit that even the smallest frames cannot meet in one file: several files, each within it
    smallest = replay_gifs(shown, 8_000_000, rules, widths=(360,))[0]
    limit = len(smallest) * 2 // 3
    parts = replay_gifs(shown, limit, rules)
    assert len(parts) >= 2 and all(len(p) <= limit for p in parts)
    assert sum(len(gif_frames(p)) for p in parts) == len(shown)


async def test_a_finished_games_log_plays_back_and_draws(service: GameService, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    gid = await short_game(service)
    await service.commands.submit(ANN, gid, "move Kestrel")
    await service.commands.concede(BOB, gid)
    shown, _, log_file = await service.audit.replay(BOB, gid)
    assert log_file is not None and log_file["format"] == "quarterdeck-log/1"
    assert "wins" in " ".join(shown[-1].caption) or "concede" in " ".join(shown[-1].caption).lower()
    path = tmp_path / "game-log.json"
    path.write_text(json.dumps(log_file), encoding="utf-8")
    out = tmp_path / "boards"
    assert quarterdeck(["replay", str(path), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{len(shown)} moments" in printed and f"{len(shown)} boards written" in printed
    for f in shown:
        assert all(line in printed for line in f.caption)
    pngs = sorted(out.glob("frame-*.png"))
    assert len(pngs) == len(shown)
    with Image.open(pngs[-1]) as im:
        assert im.width == 1080


async def test_a_damaged_log_file_is_refused_with_a_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    for text in ("{", json.dumps({"format": "something-else"}), json.dumps({"format": "quarterdeck-log/1"}),
                 "[" * 5000 + "]" * 5000):
        bad.write_text(text, encoding="utf-8")
        assert quarterdeck(["replay", str(bad), "--out", str(tmp_path / "x")]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_nothing_to_replay_draws_nothing(tmp_path: Path) -> None:
    assert replay_gifs([], 1_000_000) == []
    assert write_pngs([], tmp_path / "none") == []

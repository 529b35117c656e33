"""`quarterdeck web`: bad input is one `error:` line and status 2; given the bot's database it serves the
pages until SIGTERM and stops cleanly (a real process, a real socket)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cli.main import main as quarterdeck
from game.service.db import upgrade_to_head

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args,said", [
    (["web", "--port", "99999"], "--port must be a port"),
    (["web", "--db", "/nonexistent/folder/q.db"], "does not exist yet"),
])
def test_bad_input_is_one_error_line(args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    from game.service.workers import default

    before = default()
    assert quarterdeck(args) == 2
    assert default() is before  # refused before any worker process was started
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and said in err[0], err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_it_serves_until_told_to_stop(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    await upgrade_to_head(url)  # the bot made it
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "WORKERS": "0"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "web", "--port", str(port)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        body = ""
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    body = r.read().decode()
                    assert r.headers["Referrer-Policy"] == "no-referrer"
                break
            except OSError:
                time.sleep(0.2)
        assert "Quarterdeck" in body, proc.stderr.read() if proc.poll() is not None else "no answer"
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in out

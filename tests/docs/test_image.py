"""Issue 26 item 2: the image runs as a user who owns its data directory. Docker itself is rarely at
hand (there is no daemon where these tests were written, and no registry to pull the base image from),
so the Dockerfile is read and checked, and the layout it makes (a working directory the bot may not
write, a data directory it owns) is reproduced with a temporary directory and run; the build itself
is tested where a daemon and the base image are there."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined and comments left out."""
    joined = DOCKERFILE.replace("\\\n", " ")
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def last(word: str) -> str:
    return [rest for w, rest in instructions() if w == word][-1]


def env() -> dict[str, str]:
    values: dict[str, str] = {}
    for word, rest in instructions():
        if word == "ENV":
            values.update(part.split("=", 1) for part in shlex.split(rest))
    return values


def healthcheck() -> list[str]:
    rest = last("HEALTHCHECK")
    return list(json.loads(rest[rest.index("CMD") + 3:]))


def data_dir() -> str:
    return json.loads(v) if (v := last("VOLUME")).startswith("[") else v


def test_the_user_owns_the_data_directory_and_the_default_database_is_in_it() -> None:
    user, data = last("USER"), data_dir()
    run = " ".join(rest for word, rest in instructions() if word == "RUN")
    assert f"useradd --system --no-create-home {user}" in run
    assert f"mkdir {data}" in run and f"chown {user}:{user} {data}" in run
    assert user != "root" and data == "/data"
    url = make_url(env()["DATABASE_URL"])
    assert url.drivername == "sqlite+aiosqlite" and Path(url.database or "").parent == Path(data)
    # the bot starts in the data directory: a relative sqlite URL (.env.example's) lands there too
    assert last("WORKDIR") == data
    words = [w for w, _ in instructions()]
    assert words.index("USER") > max(i for i, w in enumerate(words) if w == "RUN"), "installed as root, run as the user"


def test_the_healthcheck_asks_healthz_on_health_port() -> None:
    command = healthcheck()
    assert command[:2] == ["python", "-c"] and "/healthz" in command[2] and "HEALTH_PORT" in command[2]
    assert env()["HEALTH_PORT"].startswith("127.0.0.1:")  # inside the container only
    assert last("CMD") == '["python", "-m", "bot"]'


def unprivileged(command: list[str]) -> list[str]:
    """The command as a user without the power to write where the permission bits forbid: this user
    if not root; root without the capabilities that override them (setpriv), which the image's
    `quarterdeck` user never has."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("run as root without setpriv: permissions cannot be made to apply")
    dropped = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--bounding-set={dropped}", f"--inh-caps={dropped}", *command]


@pytest.fixture
def image_layout(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """/app (read-only to the bot, as root's is) and /data (the bot's own), as the image makes them."""
    app, data = tmp_path / "app", tmp_path / "data"
    app.mkdir()
    data.mkdir()
    app.chmod(0o555)
    yield app, data
    app.chmod(0o755)


def start(app: Path, args: list[str], **settings: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "HEALTH_PORT", "OWNER_WEBHOOK_URL")}
    environ.update(PYTHONPATH=str(ROOT), **settings)
    return subprocess.run(unprivileged([sys.executable, *args]), cwd=app, env=environ, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_start_in_an_unwritable_directory_names_the_setting(image_layout: tuple[Path, Path]) -> None:
    """`python -m bot` as the old image ran it, with the database in a working directory it may not
    write: a clear message, no traceback, before Discord is asked."""
    app, _ = image_layout
    done = start(app, ["-m", "bot"], DISCORD_TOKEN="a.token.that.is.never.sent")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].startswith("Quarterdeck cannot start: DATABASE_URL puts the database at "
                                  f"{app / 'quarterdeck.db'}, which user "), done.stderr
    assert "Traceback" not in done.stderr and not (app / "quarterdeck.db").exists()


def test_the_images_default_database_is_made_and_migrated_in_the_data_directory(
        image_layout: tuple[Path, Path]) -> None:
    """The service's storage opened on the image's default URL (its /data here in a temporary
    directory), from the working directory the bot may not write, as the bot's start opens it."""
    app, data = image_layout
    url = env()["DATABASE_URL"].replace(f"////{data_dir().strip('/')}/", f"///{data}/")
    script = ("import asyncio, os, sys\n"
              "from game.service.opening import open_service\n"
              "async def main():\n"
              "    service = await open_service(os.environ['DATABASE_URL'])\n"
              "    print(len(await service.lobby.game_channels()))\n"
              "    await service.front.close()\n"
              "asyncio.run(main())\n")
    done = start(app, ["-c", script], DATABASE_URL=url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0"] and (data / "quarterdeck.db").exists()


def docker_unavailable() -> str | None:
    if shutil.which("docker") is None:
        return "docker is not installed"
    info = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    if info.returncode != 0:
        return "no Docker daemon answers `docker info`"
    base = last("FROM")
    if subprocess.run(["docker", "image", "inspect", base], capture_output=True, timeout=60).returncode != 0:
        return f"the base image {base} is not present locally, and no image can be pulled here"
    return None


def test_the_image_builds_and_its_user_migrates_a_database_in_the_volume() -> None:
    why = docker_unavailable()
    if why is not None:
        pytest.skip(why)
    tag = "quarterdeck-test-image"
    subprocess.run(["docker", "build", "--pull=false", "-t", tag, str(ROOT)], check=True, timeout=1800)
    try:
        opened = subprocess.run(
            ["docker", "run", "--rm", tag, "python", "-c",
             "import asyncio, os; from game.service.opening import open_service; "
             "s = asyncio.run(open_service(os.environ['DATABASE_URL'])); "
             "print(os.path.exists('/data/quarterdeck.db'), os.getuid() != 0)"],
            capture_output=True, text=True, timeout=300)
        assert opened.returncode == 0, opened.stderr
        assert opened.stdout.split() == ["True", "True"]
        inspected = json.loads(subprocess.run(["docker", "image", "inspect", tag], capture_output=True, text=True,
                                              check=True, timeout=60).stdout)[0]["Config"]
        assert inspected["User"] == "quarterdeck" and "/data" in inspected["Volumes"]
        assert "/healthz" in " ".join(inspected["Healthcheck"]["Test"])
    finally:
        subprocess.run(["docker", "image", "rm", "-f", tag], capture_output=True, timeout=120)


def test_the_guides_docker_run_keeps_the_data_and_the_healthcheck() -> None:
    guide = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8").replace("\\\n", " ")
    runs = [shlex.split(line) for line in guide.splitlines() if line.startswith("docker run -d ")]
    assert len(runs) == 1
    run = runs[0]
    assert run[run.index("-v") + 1].endswith(f":{data_dir()}"), "the games live in a volume, not the container"
    # after --env-file, so that .env.example's empty HEALTH_PORT= does not turn the HEALTHCHECK's endpoint off
    assert run.index("-e") > run.index("--env-file") and run[run.index("-e") + 1] == f"HEALTH_PORT={env()['HEALTH_PORT']}"

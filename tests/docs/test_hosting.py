"""docs/hosting.md against what it describes: the permission number, the Compose file and the
systemd unit (issue 12, item 7)."""

from __future__ import annotations

import configparser
import inspect
import re
import shutil
import subprocess
from pathlib import Path

import discord
import pytest

from bot.permissions import PERMISSIONS, SCOPES, invite_url
from game.service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
HOSTING = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
NAMES = {  # Discord's own names for the flags, as the Developer Portal shows them
    "view_channel": "View Channel", "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads", "create_public_threads": "Create Public Threads",
    "attach_files": "Attach Files", "read_message_history": "Read Message History",
}


def test_the_permission_number_in_the_guide_is_the_bots_own() -> None:
    rebuilt = discord.Permissions(**dict.fromkeys(NAMES, True)).value
    assert rebuilt == PERMISSIONS.value, "a permission was added or dropped: name it in NAMES and in docs/hosting.md"
    quoted = {int(n) for n in re.findall(r"permissions=(\d+)", HOSTING)}
    assert quoted == {rebuilt} == {PERMISSIONS.value}
    table = {row.split("|")[1].strip() for row in HOSTING.splitlines() if row.startswith("| ") and "---" not in row}
    assert set(NAMES.values()) <= table, "every permission asked for has its row in the guide's table"
    assert {"permission"} | set(NAMES.values()) == table, "the guide's table names no other permission"


def test_the_invite_link_carries_both_scopes_and_the_number() -> None:
    url = invite_url(123456789012345678)
    assert url.startswith("https://discord.com/oauth2/authorize?client_id=123456789012345678")
    assert f"permissions={PERMISSIONS.value}" in url and "scope=bot+applications.commands" in url
    assert SCOPES == ("bot", "applications.commands")
    assert url.replace("123456789012345678", "APPLICATION_ID") in HOSTING


def settings_read() -> set[str]:
    return set(re.findall(r'environ\.get\("([A-Z_]+)"', inspect.getsource(Settings.from_env)))


def test_the_compose_bot_gets_every_setting_and_a_postgres_url() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    assert set(bot["environment"]) == settings_read(), "the bot service passes exactly the settings the bot reads"
    url = bot["environment"]["DATABASE_URL"]
    assert url.startswith("postgresql+asyncpg://quarterdeck:") and url.endswith("@db:5432/quarterdeck")
    assert db["environment"]["POSTGRES_USER"] == "quarterdeck" and db["environment"]["POSTGRES_DB"] == "quarterdeck"
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert (ROOT / bot["build"]["context"].replace("..", ".") / bot["build"]["dockerfile"]).exists()
    assert "pgdata" in compose["volumes"]


def test_the_two_shard_compose_runs_two_processes_that_share_the_shards_and_the_database(
        monkeypatch: pytest.MonkeyPatch) -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "deploy" / "compose.two-shards.yaml").read_text(encoding="utf-8"))
    single = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    assert compose["services"]["db"] == single["services"]["db"]
    bots = {name: svc for name, svc in compose["services"].items() if name.startswith("bot")}
    assert len(bots) == 2
    shards: list[int] = []
    for svc in bots.values():
        env = svc["environment"]
        assert set(env) == settings_read() and env["DATABASE_URL"] == single["services"]["bot"]["environment"]["DATABASE_URL"]
        assert svc["depends_on"]["db"]["condition"] == "service_healthy"
        for key in ("SHARD_COUNT", "SHARD_IDS"):
            monkeypatch.setenv(key, env[key])
        count, ids = Settings.from_env().shards()  # what the process would make of them
        assert count == 2 and ids is not None
        shards += ids
    assert sorted(shards) == [0, 1], "every shard is run, by exactly one process"
    assert "compose.two-shards.yaml" in HOSTING


def test_the_image_leaves_secrets_and_databases_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", "*.db", "*.db-*", ".venv/"} <= set(ignored)
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    copied = {line.split()[1] for line in dockerfile.splitlines() if line.startswith("COPY ")}
    # the migrations and alembic.ini are read from beside the code at start-up (game/service/db.py)
    assert {"migrations", "game", "bot", "render", "cli"} <= copied and "alembic.ini" in dockerfile
    # every package the project installs is in the image (web/ came later: the image must follow)
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    assert {p.rstrip("*") for p in packages["find"]["include"]} <= copied


def test_the_systemd_unit_runs_the_bot_where_it_may_write() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "deploy" / "quarterdeck.service")
    service = unit["Service"]
    home = service["WorkingDirectory"]
    assert service["ExecStart"] == f"{home}/.venv/bin/python -m bot"
    assert home in service["ReadWritePaths"].split(), "the SQLite database and its -wal file live there"
    assert service["Environment"] == "MPLCONFIGDIR=/var/cache/" + service["CacheDirectory"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    for key in ("WorkingDirectory", "ExecStart", "ReadWritePaths"):
        assert key in HOSTING, f"the guide says to change {key} when moving the bot"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit_apart_from_the_missing_install(tmp_path: Path) -> None:
    """`systemd-analyze verify` on the unit with its paths pointed at this checkout: only a missing
    program may be reported, for a checkout without .venv."""
    text = (ROOT / "deploy" / "quarterdeck.service").read_text(encoding="utf-8").replace("/opt/quarterdeck", str(ROOT))
    unit = tmp_path / "quarterdeck.service"
    unit.write_text(text, encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (done.stdout + done.stderr).splitlines()
                  if line.strip() and "is not executable" not in line and "quarterdeck" in line]
    assert complaints == []


def test_env_example_lists_every_setting_the_bot_reads() -> None:
    listed = {line.split("=", 1)[0] for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")}
    assert settings_read() <= listed, f"missing from .env.example: {settings_read() - listed}"
    assert listed - settings_read() == {"POSTGRES_PASSWORD"}  # read by Docker Compose, not by the bot


@pytest.mark.parametrize(("given", "level"), [("", "INFO"), ("debug", "DEBUG"), (" Warning ", "WARNING")])
def test_log_level_blank_or_any_case_is_accepted(monkeypatch: pytest.MonkeyPatch, given: str, level: str) -> None:
    monkeypatch.setenv("LOG_LEVEL", given)
    assert Settings.from_env().log_level == level


def test_an_unknown_log_level_is_a_settings_error_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.service.settings import SettingsError

    monkeypatch.setenv("LOG_LEVEL", "verbose")
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        Settings.from_env()

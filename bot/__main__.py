"""`python -m bot`: the Discord bot with DISCORD_TOKEN; without one, the offline table.
`python -m bot --check`: whether the token works and the bot may do what it needs in every game
channel (bot/check.py); `--sync`: sync the slash commands even if they look unchanged."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from game.service.settings import Settings, SettingsError

USAGE = """usage: python -m bot [--check] [--sync] [-h]

Runs Quarterdeck: the Discord bot with DISCORD_TOKEN set (in the environment or .env), or, without
one and at a terminal, the offline table: a first game of the quick start, you as player A against
the computer captain (a stored game is resumed; `quarterdeck table --new` starts another).

  --check   whether the token works and the bot may do what it needs in every game channel
  --sync    sync the slash commands even if they look unchanged
  -h        this help

The settings are described in .env.example and docs/hosting.md."""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "-h" in args or "--help" in args:
        print(USAGE)
        return 0
    unknown = [a for a in args if a not in ("--check", "--sync")]
    if unknown:
        print(f"{USAGE.splitlines()[0]}\nerror: unknown argument {unknown[0][:40]!r}", file=sys.stderr)
        return 2
    try:
        settings = Settings.from_env()
        settings.shards()
    except SettingsError as exc:
        print(f"Quarterdeck cannot start: {exc}", file=sys.stderr)
        return 2
    if "--check" in args:
        return check(settings)
    from bot.logs import configure

    configure(settings.log_level, settings.log_format)
    logging.getLogger("bot").info("settings: %s", settings.described())
    if not settings.discord_token:
        if not sys.stdin.isatty():  # a service manager's start: a table nobody can type at would end at once
            print("Quarterdeck cannot start: no DISCORD_TOKEN is set (see .env.example and docs/hosting.md), and "
                  "without a terminal there is no offline table to open. Set DISCORD_TOKEN to run the bot; "
                  "`quarterdeck table` plays offline (also from a script).", file=sys.stderr)
            return 2
        print("No DISCORD_TOKEN is set (see .env.example), so Quarterdeck opens the offline table instead.")
        from pathlib import Path

        from cli.first_game import FIRST_GAME_AI
        from cli.table import run_table

        # a first game against the computer captain (a stored one is resumed), its boards in out/
        return run_table(None, None, sys.stdin, sys.stdout, sys.stdin.isatty(), db=settings.database_url,
                         out_dir=Path("out"), default_ai=FIRST_GAME_AI)
    try:
        return asyncio.run(run_bot(settings, force_sync="--sync" in args))
    except SettingsError as exc:  # found on opening the storage (a SQLite file it may not write)
        print(f"Quarterdeck cannot start: {exc}", file=sys.stderr)
        return 2


def check(settings: Settings) -> int:
    """The check's report on stdout; what stops it from running at all, on stderr like any start."""
    if not settings.discord_token.strip():
        print("Quarterdeck cannot check: no DISCORD_TOKEN is set (see .env.example); the check needs the bot's token.",
              file=sys.stderr)
        return 2
    from bot.check import run_check

    # the report is the output: the log shows only what went wrong (rate limits, Discord's errors), and
    # not the warnings about voice libraries that discord.py writes when a client is made
    debug = settings.log_level == "DEBUG"
    logging.basicConfig(level=logging.DEBUG if debug else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not debug:
        logging.getLogger("discord.client").setLevel(logging.ERROR)
    try:
        return asyncio.run(run_check(settings, sys.stdout))
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stdout)
        return 2


async def run_bot(settings: Settings, force_sync: bool = False) -> int:
    from bot.app import QuarterdeckBot
    from game.service.opening import open_service

    shard_count, shard_ids = settings.shards()
    from game.service.workers import configure

    workers = configure(settings.workers)  # renders use it too; matplotlib loads only in the workers
    service = await open_service(settings.database_url, workers=workers, cached_games=settings.cached_games)
    workers.start()
    bot = QuarterdeckBot(service, settings.dev_guild_id, shard_count=shard_count, shard_ids=shard_ids,
                         force_sync=force_sync, guild_retention_days=settings.guild_retention_days,
                         docs_url=settings.docs_url, web_base_url=settings.web_base_url)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    from bot.observe import observing

    failed: BaseException | None = None
    try:
        async with observing(settings, bot, workers):
            runner = asyncio.create_task(bot.start(settings.discord_token))
            waiter = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            failed = runner.exception() if runner in done else None
            if failed is not None:  # inside: the owner's webhook hears of it too
                logging.getLogger("bot").error("the bot stopped: %s", failed)
            await bot.close()
    except SettingsError as exc:  # HEALTH_PORT taken: said like any setting that cannot work
        print(f"Quarterdeck cannot start: {exc}", file=sys.stderr)
        await bot.close()
        failed = exc
    finally:
        await service.front.close()
        workers.close()
    if failed is not None:
        return 2 if isinstance(failed, SettingsError) else 1
    logging.getLogger("bot").info("shut down cleanly")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())

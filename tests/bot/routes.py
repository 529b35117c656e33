"""Every route of Discord's HTTP API the bot calls, why it calls it, and a test that calls it through the
bot against the fake Discord. Routes are named by their `operationId` in Discord's API document
(tests/bot/discord_api/openapi.json).

The list is kept true both ways: the fake records a request to a route not listed here as a
violation, which fails the test that made it (a new call needs a line here and a test); and when a
test named here runs, it fails unless it really called its route (`assert_covers`)."""

from __future__ import annotations

import os
from dataclasses import dataclass

QUICK_START = "tests/bot/test_bot.py::test_two_players_play_the_quick_start_to_the_end"
CHECK = "tests/bot/test_check.py::test_a_channel_whose_settings_deny_attach_files"


@dataclass(frozen=True)
class Route:
    operation: str  # the document's operationId
    method: str
    template: str  # the document's path
    why: str
    test: str  # the node id of a test that calls it through the bot


ROUTES: tuple[Route, ...] = (
    Route("get_my_user", "GET", "/users/@me", "logging in: who the bot is", QUICK_START),
    Route("get_my_oauth2_application", "GET", "/oauth2/applications/@me",
          "logging in: the application id, for the command tree and the invite link", QUICK_START),
    Route("create_interaction_response", "POST", "/interactions/{interaction_id}/{interaction_token}/callback",
          "acknowledging every interaction within 3 s (a private deferral), autocomplete choices", QUICK_START),
    Route("execute_webhook", "POST", "/webhooks/{webhook_id}/{webhook_token}",
          "an interaction's answer: the first fills the deferral, later ones are new private messages", QUICK_START),
    Route("update_original_webhook_message", "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
          "taking a private menu away once its choice is made", QUICK_START),
    Route("create_message", "POST", "/channels/{channel_id}/messages",
          "the outbox's posts (announcements, boards, notices, the status message), public answers, DMs",
          QUICK_START),
    Route("update_message", "PATCH", "/channels/{channel_id}/messages/{message_id}",
          "the status message edited in place; stale buttons taken off a board post", QUICK_START),
    Route("create_dm", "POST", "/users/@me/channels",
          "opening a member's DM channel, once a process (bot/dms.py): pick nudges, standing orders' notes",
          QUICK_START),
    Route("create_thread", "POST", "/channels/{channel_id}/threads", "a game, or a league game, in its own thread",
          "tests/bot/test_discord_contract.py::test_a_thread_game_is_announced_in_its_thread_for_everyone"),
    Route("create_thread_from_message", "POST", "/channels/{channel_id}/messages/{message_id}/threads",
          "the after-action thread on a finished game's card in the server's chronicle channel",
          "tests/bot/test_chronicle_bot.py::test_the_card_goes_to_the_chronicle_channel_with_a_thread"),
    Route("delete_channel", "DELETE", "/channels/{channel_id}",
          "the thread made for a game that could not be created after all",
          "tests/bot/test_limits_bot.py::test_a_thread_made_for_a_game_that_then_fails_is_deleted"),
    Route("bulk_set_application_commands", "PUT", "/applications/{application_id}/commands",
          "syncing the slash commands (only when they changed)",
          "tests/bot/test_shards_and_sync.py::test_commands_are_synced_once_then_only_when_they_change"),
    Route("bulk_set_guild_application_commands", "PUT", "/applications/{application_id}/guilds/{guild_id}/commands",
          "syncing them to DEV_GUILD_ID", "tests/bot/test_shards_and_sync.py::test_the_dev_guild_gets_its_own_sync"),
    Route("list_my_guilds", "GET", "/users/@me/guilds", "`--check`: the servers the bot is in", CHECK),
    Route("get_guild", "GET", "/guilds/{guild_id}", "`--check`: a server's roles", CHECK),
    Route("get_guild_member", "GET", "/guilds/{guild_id}/members/{user_id}",
          "`--check`: the bot's own roles; before a follower's DM: still a member, with which roles", CHECK),
    Route("get_thread_member", "GET", "/channels/{channel_id}/thread-members/{user_id}",
          "before a follower's DM of a game in a private thread: still in the thread",
          "tests/bot/test_follow_access_bot.py::test_a_private_threads_game_reaches_only_followers_in_the_thread"),
    Route("get_channel", "GET", "/channels/{channel_id}", "`--check`: a game channel's permission settings", CHECK),
)

OPERATIONS = {r.operation for r in ROUTES}


def current_test() -> str:
    """The node id of the test running now (pytest says it in PYTEST_CURRENT_TEST)."""
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]


def assert_covers(operations: set[str], test: str | None = None) -> None:
    """The test running now, if this list names it for a route, called that route."""
    test = current_test() if test is None else test
    owed = [r.operation for r in ROUTES if r.test == test and r.operation not in operations]
    assert not owed, f"{test} is named in tests/bot/routes.py as the test of {owed}, but did not call them"

"""The fake Discord holds requests and its own answers to Discord's published contract: the OpenAPI
document (tests/bot/discord_api/openapi.json) and the rules of the documentation pages that the
document leaves out (tests/bot/discord_limits.py)."""

from __future__ import annotations

import contextlib
import copy
from pathlib import Path
from typing import Any

import discord
import pytest

from tests.bot import contract
from tests.bot import discord_limits as limits
from tests.bot.fake_discord import APP_ID, BOT_USER, CHANNEL_ID, FakeDiscord, answered_command
from tests.bot.harness import running_bot

MESSAGES = f"/api/v10/channels/{CHANNEL_ID}/messages"
WEBHOOK = f"/api/v10/webhooks/{APP_ID}/tok-1"
CALLBACK = "/api/v10/interactions/1000000000000000001/tok-1/callback"
COMMANDS = f"/api/v10/applications/{APP_ID}/commands"


def errors_of(method: str, path: str, body: Any, query: dict[str, str] | None = None, parts: tuple[str, ...] = (),
              multipart: bool = False, lenient: bool = True) -> list[str]:
    refusal = contract.request_errors(method, path, query or {}, body, parts, multipart, lenient)
    return [] if refusal is None else refusal.errors


def nested(method: str, path: str, body: Any, query: dict[str, str] | None = None) -> dict[str, Any]:
    """The `errors` of Discord's answer to this request."""
    refusal = contract.request_errors(method, path, query or {}, body)
    assert refusal is not None and refusal.status == 400
    assert refusal.body["code"] == 50035 and refusal.body["message"] == "Invalid Form Body"
    found: dict[str, Any] = refusal.body["errors"]
    return found


def _row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def _button(custom_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **extra}


def _select(n: int) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": [{"label": f"o{i}", "value": str(i)} for i in range(n)]}


def _option(name: str, choices: int = 0, text: int = 100) -> dict[str, Any]:
    option: dict[str, Any] = {"type": 3, "name": name, "description": "d" * 100}
    if choices:
        option["choices"] = [{"name": f"{i:02d}".ljust(text, "n"), "value": f"{i:02d}".ljust(text, "v")}
                             for i in range(choices)]
    return option


# ------------------------------------------------------------------ operations


def test_a_request_is_matched_to_its_operation_literal_segments_first() -> None:
    def op(method: str, path: str) -> str:
        found = contract.operation(method, path)
        assert found is not None, (method, path)
        return found[0].operation_id

    assert op("GET", "/api/v10/users/@me") == "get_my_user"
    assert op("GET", "/api/v10/users/42") == "get_user"
    assert op("PATCH", f"{WEBHOOK}/messages/@original") == "update_original_webhook_message"
    assert op("PATCH", f"{WEBHOOK}/messages/123") == "update_webhook_message"
    assert op("POST", WEBHOOK) == "execute_webhook"
    assert op("PUT", COMMANDS) == "bulk_set_application_commands"
    assert contract.operation("POST", "/api/v10/users/@me") is None


def test_a_route_that_is_no_operation_is_answered_404() -> None:
    refusal = contract.request_errors("POST", "/api/v10/channels/1/typing-indicator", {}, {})
    assert refusal is not None and refusal.status == 404
    assert "is no operation of Discord's API" in refusal.errors[0]


# ------------------------------------------------------------------ requests Discord refuses


def test_content_over_2000_characters_is_refused_where_the_document_allows_4000() -> None:
    assert errors_of("POST", MESSAGES, {"content": "x" * 2000}) == []
    # the document's MessageCreateRequest allows 4,000: the page's 2,000 is the rule (discord_limits)
    assert nested("POST", MESSAGES, {"content": "x" * 2001}) == {"content": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}
    # the webhook's schema says 2,000 too: told once, not twice
    assert errors_of("POST", WEBHOOK, {"content": "x" * 2001}) == [
        "content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)"]


def test_a_select_of_26_options_is_refused_at_its_options() -> None:
    assert errors_of("POST", MESSAGES, {"components": [_row(_select(25))]}) == []
    errors = nested("POST", MESSAGES, {"components": [_row(_select(26))]})
    assert "_errors" in errors["components"]["0"]["components"]["0"]["options"]
    assert any(e.startswith("components.0.components.0.options: ")
               for e in errors_of("POST", MESSAGES, {"components": [_row(_select(26))]}))


def test_a_broken_snowflake_is_refused_in_the_path_and_in_the_body() -> None:
    assert nested("POST", "/api/v10/channels/70000x/messages", {"content": "hi"}) == {"channel_id": {"_errors": [
        {"code": "NUMBER_TYPE_COERCE", "message": 'Value "70000x" is not snowflake.'}]}}
    assert errors_of("POST", MESSAGES, {"content": "hi", "allowed_mentions": {"users": ["12", "01"]}}) == [
        'allowed_mentions.users.1: Value "01" is not snowflake. (NUMBER_TYPE_COERCE)']


def test_allowed_mentions_parse_is_exclusive_with_a_list_of_its_kind() -> None:
    exclusive = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1", "2"]}}
    assert nested("POST", MESSAGES, exclusive) == {"allowed_mentions": {"_errors": [
        {"code": "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
         "message": 'parse:["users"] and users: [ids...] are mutually exclusive.'}]}}
    roles = {"content": "x", "allowed_mentions": {"parse": ["roles", "everyone"], "roles": ["3"]}}
    assert any("MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in e for e in errors_of("POST", WEBHOOK, roles))
    # the page: an empty list is no conflict, nor is a list of another kind than the parsed one
    assert errors_of("POST", MESSAGES, {"content": "x", "allowed_mentions": {"parse": ["users"], "users": []}}) == []
    assert errors_of("POST", MESSAGES, {"content": "x", "allowed_mentions": {"parse": ["everyone"],
                                                                           "users": ["1"]}}) == []


def test_a_command_over_8000_characters_in_all_is_refused() -> None:
    # 32 + 100 for the command; an option's name and description 1 + 100, each choice's name and value
    options = [_option("a", 25), _option("b", 12), _option("c", 1, text=2)]
    fits: dict[str, Any] = {"name": "g" * 32, "description": "d" * 100, "options": options}
    assert limits.command_size(fits) == 132 + (101 + 25 * 200) + (101 + 12 * 200) + (101 + 4) == 7839
    options.append(_option("e", 1, text=60))  # + 101 + 120: 8060, over
    assert errors_of("PUT", COMMANDS, [{"name": "ok", "description": "d"}, fits]) == [
        "1: Command exceeds maximum size (8000) (APPLICATION_COMMAND_TOO_LARGE)"]
    options[-1] = _option("e", 1, text=2)  # + 105: 7944, within
    assert errors_of("PUT", COMMANDS, [fits]) == []


def test_the_longest_localization_is_what_counts() -> None:
    command: dict[str, Any] = {"name": "g", "description": "d", "options": [_option("a", 25), _option("b", 24)]}
    base = limits.command_size(command)
    command["description_localizations"] = {"fr": "d" * 100, "de": "d" * 50}
    assert limits.command_size(command) == base + 99


def test_command_and_option_names_follow_the_pages_pattern() -> None:
    assert limits.command_name_ok("fire") and limits.command_name_ok("tir-à_l'arc") and limits.command_name_ok("तीर")
    assert limits.command_name_ok("ยิง")
    for bad in ("Fire", "fire now", "fire!", "", "f" * 33):
        assert not limits.command_name_ok(bad), bad
        assert any("name" in e for e in errors_of("PUT", COMMANDS, [{"name": bad, "description": "d"}])), bad
    option = {"name": "game", "description": "d", "options": [{"type": 3, "name": "Side", "description": "d"}]}
    assert errors_of("PUT", COMMANDS, [option]) == ["0.options.0.name: Command name is invalid "
                                                     "(APPLICATION_COMMAND_INVALID_NAME)"]
    # a user or message command may be mixed case with spaces
    assert errors_of("PUT", COMMANDS, [{"name": "Show Board", "type": 3, "description": ""}]) == []


def test_descriptions_and_choice_values_have_the_pages_limits() -> None:
    assert errors_of("PUT", COMMANDS, [{"name": "g", "description": ""}]) == [
        "0.description: Must be between 1 and 100 in length. (BASE_TYPE_BAD_LENGTH)"]
    choice = {"name": "g", "description": "d", "options": [
        {"type": 3, "name": "o", "description": "d", "choices": [{"name": "c", "value": "v" * 101}]}]}
    assert errors_of("PUT", COMMANDS, [choice]) == [  # the document allows 6,000; the page 100
        "0.options.0.choices.0.value: Must be 100 or fewer in length. (BASE_TYPE_MAX_LENGTH)"]


def test_an_unknown_type_is_refused_with_the_types_allowed() -> None:
    errors = errors_of("POST", MESSAGES, {"components": [_row({"type": 99, "custom_id": "x"})]})
    assert 'components.0.components.0: Value of field "type" must be one of (2, 3, 5, 6, 7, 8,). ' \
           "(UNION_TYPE_CHOICES)" in errors
    option = {"name": "g", "description": "d", "options": [{"type": 99, "name": "o", "description": "d"}]}
    assert [e for e in errors_of("PUT", COMMANDS, [option]) if "UNION_TYPE_CHOICES" in e] == [
        '0.options.0: Value of field "type" must be one of (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,). '
        "(UNION_TYPE_CHOICES)"]
    assert errors_of("POST", CALLBACK, {"type": 3}) == [
        '(body): Value of field "type" must be one of (1, 4, 5, 6, 7, 8, 9, 12, 13,). (UNION_TYPE_CHOICES)']


def test_a_union_is_told_by_the_form_the_value_was_meant_for() -> None:
    """execute_webhook's body is anyOf two forms, a component one of seven: the fault is told where it
    is, not as a failed union at the top."""
    body = {"content": "x", "components": [_row(_button("b", label="l" * 81)), _row({"type": 2, "custom_id": "c"})]}
    assert errors_of("POST", WEBHOOK, body) == [
        "components.0.components.0.label: Must be 80 or fewer in length. (BASE_TYPE_MAX_LENGTH)",
        "components.1.components.0.style: This field is required (BASE_TYPE_REQUIRED)",
    ]


def test_legacy_rows_custom_ids_and_components_v2() -> None:
    six = [_row(_button(f"b{i}")) for i in range(6)]
    assert "components: Must be 5 or fewer in length. (BASE_TYPE_MAX_LENGTH)" in errors_of("POST", MESSAGES,
                                                                                           {"components": six})
    assert any("COMPONENT_CUSTOM_ID_DUPLICATED" in e for e in errors_of(
        "POST", MESSAGES, {"components": [_row(_button("same")), _row(_button("same"))]}))
    # with IS_COMPONENTS_V2 rows are not limited to five, but content is not allowed
    v2 = {"flags": limits.IS_COMPONENTS_V2, "components": six}
    assert errors_of("POST", MESSAGES, v2) == []
    assert errors_of("POST", MESSAGES, {**v2, "content": "x"}) == [
        "content: The 'content', 'embeds', 'sticker_ids' and 'poll' fields cannot be used with IS_COMPONENTS_V2 "
        "(MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2)"]
    crowded = {"flags": limits.IS_COMPONENTS_V2, "components": [_row(*(_button(f"{r}{i}") for i in range(5)))
                                                                for r in range(7)]}  # 7 rows + 35 buttons
    assert "components: Must be 40 or fewer in length (components at every depth). (BASE_TYPE_MAX_LENGTH)" in \
        errors_of("POST", MESSAGES, crowded)


def test_query_parameters_are_checked_against_the_operation() -> None:
    assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wait": "1", "with_components": "0"}) == []
    assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wait": "yes"}) == [
        "wait: 'yes' is not of type 'boolean' (SCHEMA_TYPE)"]
    assert errors_of("POST", WEBHOOK, {"content": "x"}, {"thread_id": "abc"}) == [
        'thread_id: Value "abc" is not snowflake. (NUMBER_TYPE_COERCE)']
    assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wiat": "1"}) == [
        "wiat: execute_webhook takes no query parameter wiat (SCHEMA_UNKNOWN_QUERY_PARAMETER)"]


def test_each_new_attachment_names_a_file_part() -> None:
    body = {"content": "x", "attachments": [{"id": "0", "filename": "board.png"}]}
    assert errors_of("POST", MESSAGES, body, parts=("files[0]",), multipart=True) == []
    assert errors_of("POST", MESSAGES, body, parts=("files[1]",), multipart=True) == [
        "attachments.0.id: No file part files[0] for this new attachment (ATTACHMENT_NOT_FOUND)"]
    assert errors_of("POST", MESSAGES, body, parts=("files[0]", "board"), multipart=True) == [
        "files.1: A file part must be named files[n], each n once: 'board' (FILE_PART_NAME_INVALID)"]
    callback = {"type": 4, "data": {"content": "x", "attachments": [{"id": 0, "filename": "b.png"}]}}
    assert errors_of("POST", CALLBACK, callback, parts=(), multipart=True) == [
        "data.attachments.0.id: No file part files[0] for this new attachment (ATTACHMENT_NOT_FOUND)"]
    # an edit keeps attachments already on the message by their ids
    kept = {"content": "x", "attachments": [{"id": "1300000000000000000"}]}
    assert errors_of("PATCH", f"{MESSAGES}/1300000000000000001", kept) == []


def test_what_discord_py_sends_validates() -> None:
    """discord.py's own shaping of a message with a view, files and mentions."""
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Keep", custom_id="qd:keep:1:0", emoji="⚓"))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.invalid/rules"))
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id="qd:pick", options=[discord.SelectOption(label=f"card {i}", value=str(i)) for i in range(25)])
    view.add_item(select)
    body = {"content": "⚓", "components": view.to_components(),
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(111111111111111111)], everyone=False,
                                                        roles=False).to_dict(),
            "attachments": [{"id": 0, "filename": "board-1.png"}], "tts": False}
    assert errors_of("POST", MESSAGES, body, parts=("files[0]",), multipart=True) == []
    assert errors_of("POST", CALLBACK, {"type": 4, "data": {**body, "attachments": [], "flags": 64}},
                     {"with_response": "1"}) == []
    assert errors_of("POST", CALLBACK, {"type": 5, "data": {"flags": 64}}, {"with_response": "1"}) == []
    assert errors_of("POST", CALLBACK, {"type": 8, "data": {"choices": [{"name": "Ship", "value": "Ship"}]}}) == []
    assert errors_of("POST", "/api/v10/users/@me/channels", {"recipient_id": 42}) == []


# ------------------------------------------------------------------ the leniencies, exactly


def test_the_leniencies_are_exactly_the_named_ones() -> None:
    assert set(contract.LENIENCIES) == {"snowflake-as-integer", "query-boolean-words"}
    assert all(len(leniency.reason) > 80 for leniency in contract.LENIENCIES.values())
    mentions = {"content": "x", "allowed_mentions": {"users": [111111111111111111]}}
    # a snowflake as a JSON integer: only with the leniency, never negative or fractional
    assert errors_of("POST", MESSAGES, mentions) == []
    assert errors_of("POST", MESSAGES, mentions, lenient=False) == [
        'allowed_mentions.users.0: Value "111111111111111111" is not snowflake. (NUMBER_TYPE_COERCE)']
    for bad in (-1, 1.5, 2**64):
        assert errors_of("POST", MESSAGES, {"content": "x", "allowed_mentions": {"users": [bad]}}), bad
    # boolean query words: JSON's always, the page's others only with the leniency
    for word in ("true", "false"):
        assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wait": word}, lenient=False) == []
    for word in ("True", "1", "False", "0"):
        assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wait": word}) == []
        assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wait": word}, lenient=False) == [
            f"wait: '{word}' is not of type 'boolean' (SCHEMA_TYPE)"]
    for word in ("yes", "TRUE", "2", ""):
        assert errors_of("POST", WEBHOOK, {"content": "x"}, {"wait": word}), word


def test_no_leniency_applies_to_the_fakes_answers() -> None:
    message = _answer_message()
    assert contract.response_errors("POST", MESSAGES, 200, message) == []
    message["author"] = {**message["author"], "id": int(message["author"]["id"])}
    assert contract.response_errors("POST", MESSAGES, 200, message) == [
        f'author.id: Value "{BOT_USER["id"]}" is not snowflake. (NUMBER_TYPE_COERCE)']


# ------------------------------------------------------------------ the fake's answers


def _answer_message() -> dict[str, Any]:
    fake = FakeDiscord()
    made = fake._new_message(str(CHANNEL_ID), {"content": "hi", "components": [_row(_button("b", emoji={
        "name": "⚓", "id": None}))]}, [("board.png", b"png")])
    return copy.deepcopy(fake._message_json(made))


def test_an_answer_missing_a_required_field_is_caught() -> None:
    message = _answer_message()
    del message["mention_roles"]
    assert contract.response_errors("POST", MESSAGES, 200, message) == [
        "mention_roles: This field is required (BASE_TYPE_REQUIRED)"]
    command = answered_command({"name": "game", "description": "d", "dm_permission": None}, None)
    assert contract.response_errors("PUT", COMMANDS, 200, [command]) == []
    del command["version"]
    assert contract.response_errors("PUT", COMMANDS, 200, [command]) == [
        "0.version: This field is required (BASE_TYPE_REQUIRED)"]


def test_an_answer_is_held_to_its_status() -> None:
    thread = {"id": "1", "type": 11, "flags": 0, "guild_id": "2", "name": "t", "owner_id": "3", "message_count": 0,
              "member_count": 1, "total_message_sent": 0, "thread_metadata": {
                  "archived": False, "archive_timestamp": None, "auto_archive_duration": 1440, "locked": False}}
    threads = f"/api/v10/channels/{CHANNEL_ID}/threads"
    assert contract.response_errors("POST", threads, 201, thread) == []
    assert contract.response_errors("POST", threads, 200, thread) == [
        "(status): create_thread is not documented to answer 200"]
    # a refusal is an error answer: Discord's nested field errors, their codes strings (reference.mdx)
    refusal = contract.request_errors("POST", MESSAGES, {}, {"content": "x" * 2001, "embeds": [{}] * 11})
    assert refusal is not None
    assert contract.response_errors("POST", MESSAGES, 400, refusal.body) == []
    assert contract.response_errors("POST", MESSAGES, 400, {"code": 50035, "message": "Invalid Form Body", "errors": {
        "content": {"_errors": [{"code": 1, "message": "m"}]}}})
    assert contract.response_errors("POST", MESSAGES, 429, {"message": "slow", "retry_after": 0.5,
                                                             "global": False}) == []
    assert contract.response_errors("POST", MESSAGES, 429, {"message": "slow"})


def test_a_field_with_errors_of_its_own_and_of_its_parts_answers_its_parts() -> None:
    """The document's ErrorDetails: a field holds `_errors` or its parts' errors, not both."""
    body = {"embeds": [{"title": "t" * 257, "description": "d" * 4000}, {"description": "d" * 2000}]}
    refusal = contract.request_errors("POST", MESSAGES, {}, body)
    assert refusal is not None
    assert "embeds: Embed size exceeds maximum size of 6000 (MAX_EMBED_SIZE_EXCEEDED)" in refusal.errors
    assert list(refusal.body["errors"]["embeds"]) == ["0"]
    assert contract.response_errors("POST", MESSAGES, 400, refusal.body) == []


async def test_a_test_fails_when_the_fake_answers_against_the_document(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="the fake's answer to POST /channels/.*mention_roles: This field is "
                                             "required"):
        async with running_bot(tmp_path) as (bot, fake):
            answer = fake.answer

            def careless(sent: Any) -> Any:
                response = answer(sent)
                if sent.method == "POST" and sent.path.endswith("/messages") and isinstance(response.body, bytes):
                    response.body = response.body.replace(b'"mention_roles": [], ', b"")
                return response

            fake.answer = careless  # type: ignore[method-assign]
            fake.expect_violation("mention_roles")  # a bug of the fake's cannot be expected
            with contextlib.suppress(discord.HTTPException):
                await bot.get_partial_messageable(CHANNEL_ID).send("hello")
            assert [v.answer for v in fake.violations] == [True]

"""Discord's documented limits on what a bot sends, checked the way Discord checks them: each broken
limit becomes an entry of an "Invalid Form Body" error (code 50035), nested by the path of the field
that broke it, as in

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

Sources: the API reference's pages on messages (content, embeds, attachments), message components,
interactions (responses, autocomplete), threads and application commands. Lengths are counted in
characters (code points), as Discord counts them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELDS = 256, 4096, 25
FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR = 256, 1024, 2048, 256
EMBED_TOTAL = 6000
ROWS, BUTTONS_PER_ROW = 5, 5
SELECT_OPTIONS, OPTION_TEXT, PLACEHOLDER = 25, 100, 150
CUSTOM_ID, BUTTON_LABEL = 100, 80
CHOICES, CHOICE_TEXT = 25, 100
FILES = 10
MENTIONS = 100  # users (and roles) one message may allow to be pinged
UPLOAD = 10 * 1024 * 1024  # bytes a file, with no boost: "The default limit is `10 MiB`"
REQUEST = 25 * 1024 * 1024  # "The maximum request size when sending a message is **25 MiB**"
THREAD_NAME = 100
COMMAND_NAME, COMMAND_DESCRIPTION, COMMAND_OPTIONS = 32, 100, 25
COMMAND_NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")

Errors = dict[str, Any]


def _add(errors: Errors, path: tuple[str | int, ...], code: str, message: str) -> None:
    node = errors
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _max_len(errors: Errors, path: tuple[str | int, ...], value: Any, limit: int) -> None:
    if value is not None and len(str(value)) > limit:
        _add(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _between(errors: Errors, path: tuple[str | int, ...], value: Any, low: int, high: int) -> None:
    if value is None or not low <= len(str(value)) <= high:
        _add(errors, path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _max_items(errors: Errors, path: tuple[str | int, ...], items: list[Any], limit: int) -> None:
    if len(items) > limit:
        _add(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


# ---------------------------------------------------------------------- messages


def message_errors(body: dict[str, Any], files: Sequence[tuple[str, bytes]] = (),
                   prefix: tuple[str | int, ...] = ()) -> Errors:
    """A message body (a channel post, an edit, a follow-up, or an interaction response's `data`)."""
    errors: Errors = {}
    _max_len(errors, (*prefix, "content"), body.get("content"), CONTENT)
    embeds = body.get("embeds") or []
    _max_items(errors, (*prefix, "embeds"), embeds, EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        at = (*prefix, "embeds", i)
        _max_len(errors, (*at, "title"), embed.get("title"), EMBED_TITLE)
        _max_len(errors, (*at, "description"), embed.get("description"), EMBED_DESCRIPTION)
        _max_len(errors, (*at, "footer", "text"), (embed.get("footer") or {}).get("text"), FOOTER)
        _max_len(errors, (*at, "author", "name"), (embed.get("author") or {}).get("name"), AUTHOR)
        fields = embed.get("fields") or []
        _max_items(errors, (*at, "fields"), fields, EMBED_FIELDS)
        for j, f in enumerate(fields):
            _between(errors, (*at, "fields", j, "name"), f.get("name"), 1, FIELD_NAME)
            _between(errors, (*at, "fields", j, "value"), f.get("value"), 1, FIELD_VALUE)
        total += sum(len(str(x or "")) for x in (embed.get("title"), embed.get("description"),
                                                 (embed.get("footer") or {}).get("text"),
                                                 (embed.get("author") or {}).get("name")))
        total += sum(len(str(f.get("name") or "")) + len(str(f.get("value") or "")) for f in fields)
    if total > EMBED_TOTAL:
        _add(errors, (*prefix, "embeds"), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")
    _components(errors, prefix, body.get("components") or [])
    _max_items(errors, (*prefix, "attachments"), list(files) or body.get("attachments") or [], FILES)
    allowed = body.get("allowed_mentions") or {}
    for kind in ("users", "roles"):
        _max_items(errors, (*prefix, "allowed_mentions", kind), allowed.get(kind) or [], MENTIONS)
    return errors


def _components(errors: Errors, prefix: tuple[str | int, ...], rows: list[dict[str, Any]]) -> None:
    _max_items(errors, (*prefix, "components"), rows, ROWS)
    seen: set[str] = set()
    for i, row in enumerate(rows):
        at = (*prefix, "components", i)
        if row.get("type") != 1:
            _add(errors, (*at, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if not items or (selects and len(items) > 1):
            _add(errors, (*at, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                 "The specified component exceeds the maximum width")
        _max_items(errors, (*at, "components"), items, BUTTONS_PER_ROW)
        for j, item in enumerate(items):
            _component(errors, (*at, "components", j), item, seen)


def _component(errors: Errors, at: tuple[str | int, ...], item: dict[str, Any], seen: set[str]) -> None:
    custom_id = item.get("custom_id")
    link = item.get("type") == 2 and item.get("style") == 5
    if link:
        if custom_id is not None:
            _add(errors, (*at, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button has no custom id")
    else:
        _between(errors, (*at, "custom_id"), custom_id, 1, CUSTOM_ID)
        if custom_id is not None and custom_id in seen:
            _add(errors, (*at, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
        seen.add(str(custom_id))
    if item.get("type") == 2:
        _max_len(errors, (*at, "label"), item.get("label"), BUTTON_LABEL)
        return
    _max_len(errors, (*at, "placeholder"), item.get("placeholder"), PLACEHOLDER)
    if item.get("type") != 3:
        return
    options = item.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS:
        _add(errors, (*at, "options"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {SELECT_OPTIONS} in length.")
    values: set[str] = set()
    for k, option in enumerate(options):
        _between(errors, (*at, "options", k, "label"), option.get("label"), 1, OPTION_TEXT)
        _between(errors, (*at, "options", k, "value"), option.get("value"), 1, OPTION_TEXT)
        _max_len(errors, (*at, "options", k, "description"), option.get("description"), OPTION_TEXT)
        if option.get("value") in values:
            _add(errors, (*at, "options", k, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                 "Select option values must be unique")
        values.add(option.get("value"))
    low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
    if not 0 <= low <= SELECT_OPTIONS:
        _add(errors, (*at, "min_values"), "NUMBER_TYPE_MAX", f"int value should be less than or equal to {SELECT_OPTIONS}.")
    if not 1 <= high <= min(SELECT_OPTIONS, max(1, len(options))) or low > high:
        _add(errors, (*at, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
             "max_values must be between min_values and the number of options")


def upload_too_large(files: Sequence[tuple[str, bytes]], limit: int = UPLOAD) -> bool:
    """Discord answers 413 (code 40005) to a file over the upload limit, which "applies to each file in
    a request" and depends on the server's boost tier (reference.mdx, "Uploading Files"), or to files
    adding up to more than a request may carry (resources-message.mdx, Create Message)."""
    return any(len(body) > limit for _, body in files) or sum(len(body) for _, body in files) > REQUEST


# ---------------------------------------------------------------------- interactions, threads, commands


def callback_errors(body: dict[str, Any], files: Sequence[tuple[str, bytes]] = ()) -> Errors:
    """An interaction response: a message (4, 7), a deferral (5, 6), autocomplete choices (8), a modal (9)."""
    kind = body.get("type")
    data = body.get("data") or {}
    errors: Errors = {}
    if kind in (4, 7):
        errors = message_errors(data, files, prefix=("data",))
    elif kind == 8:
        choices = data.get("choices") or []
        _max_items(errors, ("data", "choices"), choices, CHOICES)
        for i, choice in enumerate(choices):
            _between(errors, ("data", "choices", i, "name"), choice.get("name"), 1, CHOICE_TEXT)
            if isinstance(choice.get("value"), str):
                _max_len(errors, ("data", "choices", i, "value"), choice.get("value"), CHOICE_TEXT)
    elif kind == 9:
        _between(errors, ("data", "title"), data.get("title"), 1, 45)
        _between(errors, ("data", "custom_id"), data.get("custom_id"), 1, CUSTOM_ID)
        _components(errors, ("data",), data.get("components") or [])
    return errors


def thread_errors(body: dict[str, Any]) -> Errors:
    errors: Errors = {}
    _between(errors, ("name",), body.get("name"), 1, THREAD_NAME)
    return errors


def command_errors(commands: list[dict[str, Any]]) -> Errors:
    """A bulk overwrite of application commands (PUT /applications/{id}/commands)."""
    errors: Errors = {}
    for i, cmd in enumerate(commands):
        _command(errors, (i,), cmd, slash=cmd.get("type", 1) == 1)
    return errors


def _command(errors: Errors, at: tuple[str | int, ...], cmd: dict[str, Any], slash: bool) -> None:
    name = str(cmd.get("name") or "")
    if slash and (not COMMAND_NAME_PATTERN.match(name) or name != name.lower()):
        _add(errors, (*at, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    _between(errors, (*at, "name"), name, 1, COMMAND_NAME)
    if slash:
        _between(errors, (*at, "description"), cmd.get("description"), 1, COMMAND_DESCRIPTION)
    options = cmd.get("options") or []
    _max_items(errors, (*at, "options"), options, COMMAND_OPTIONS)
    for j, option in enumerate(options):
        _command(errors, (*at, "options", j), option, slash=True)
        choices = option.get("choices") or []
        _max_items(errors, (*at, "options", j, "choices"), choices, CHOICES)
        for k, choice in enumerate(choices):
            _between(errors, (*at, "options", j, "choices", k, "name"), choice.get("name"), 1, CHOICE_TEXT)
            if isinstance(choice.get("value"), str):
                _max_len(errors, (*at, "options", j, "choices", k, "value"), choice.get("value"), CHOICE_TEXT)


def flatten(errors: Errors, path: str = "") -> list[str]:
    """Each error as "path: message", for a readable test failure."""
    out = []
    for key, value in errors.items():
        if key == "_errors":
            out += [f"{path or '(body)'}: {e['message']} ({e['code']})" for e in value]
        else:
            out += flatten(value, f"{path}.{key}" if path else key)
    return out

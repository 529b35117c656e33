"""Discord's documented limits on what a bot sends, checked the way Discord checks them: each broken
limit becomes an entry of an "Invalid Form Body" error (code 50035), nested by the path of the field
that broke it, as in

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

Sources: the API reference's pages on messages (content, embeds, attachments), message components,
interactions (responses, autocomplete), threads and application commands. Lengths are counted in
characters (code points), as Discord counts them.

These are the rules the pages state and Discord's OpenAPI document (tests/bot/discord_api/, checked
by tests/bot/contract.py) leaves out or states more loosely: where the two differ, the pages state
what Discord does (a message's content is up to 4,000 characters in the document, 2,000 on the
page). Each rule quotes its page (Discord's developer documentation, docs/*.mdx)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

# resources-message.mdx, Create Message: "content ... Message contents (up to 2000 characters)"
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELDS = 256, 4096, 25
FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR = 256, 1024, 2048, 256
# resources-message.mdx, Embed Limits: "the combined sum of characters in all `title`, `description`,
# `field.name`, `field.value`, `footer.text`, and `author.name` fields across all embeds attached to a
# message must not exceed 6000 characters"
EMBED_TOTAL = 6000
# components-reference.mdx: "Legacy messages allow up to 5 action rows as top-level components"; with
# IS_COMPONENTS_V2 "Messages allow up to 40 total components"
ROWS, BUTTONS_PER_ROW = 5, 5
IS_COMPONENTS_V2 = 1 << 15
V2_COMPONENTS = 40
SELECT_OPTIONS, OPTION_TEXT, PLACEHOLDER = 25, 100, 150
CUSTOM_ID, BUTTON_LABEL = 100, 80
CHOICES, CHOICE_TEXT = 25, 100
FILES = 10
MENTIONS = 100  # users (and roles) one message may allow to be pinged
UPLOAD = 10 * 1024 * 1024  # bytes a file, with no boost: "The default limit is `10 MiB`"
REQUEST = 25 * 1024 * 1024  # "The maximum request size when sending a message is **25 MiB**"
THREAD_NAME = 100
# interactions-application-commands.mdx: "description ... 1-100 character description"; a choice's
# "value ... Value for the choice, up to 100 characters if string" (the document allows 6,000)
COMMAND_NAME, COMMAND_DESCRIPTION, COMMAND_OPTIONS = 32, 100, 25
# interactions-application-commands.mdx: "Slash commands can have a maximum of 8000 characters for
# combined name, description, and value properties for each command, its options (including
# subcommands and groups), and choices. When localization fields are present, only the longest
# localization for each field (including the default value) is counted towards the size limit."
COMMAND_TOTAL = 8000

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
        # the same page: "Leading and trailing whitespace characters are not included (they are trimmed
        # automatically)"
        texts = [embed.get("title"), embed.get("description"), (embed.get("footer") or {}).get("text"),
                 (embed.get("author") or {}).get("name"), *(x for f in fields for x in (f.get("name"), f.get("value")))]
        total += sum(len(str(x or "").strip()) for x in texts)
    if total > EMBED_TOTAL:
        _add(errors, (*prefix, "embeds"), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")
    components = body.get("components") or []
    if int(body.get("flags") or 0) & IS_COMPONENTS_V2:
        _layout(errors, prefix, body, components)
    else:
        _components(errors, prefix, components)
    _max_items(errors, (*prefix, "attachments"), list(files) or body.get("attachments") or [], FILES)
    _allowed_mentions(errors, (*prefix, "allowed_mentions"), body.get("allowed_mentions") or {})
    return errors


def _allowed_mentions(errors: Errors, at: tuple[str | int, ...], allowed: dict[str, Any]) -> None:
    for kind in ("users", "roles"):
        _max_items(errors, (*at, kind), allowed.get(kind) or [], MENTIONS)
        # resources-message.mdx, Allowed Mentions: "the `parse` field is **mutually exclusive** with the
        # other fields ... Passing a falsy value such as `null` or an empty array into the `users` field
        # does not trigger a validation error"; "an *invalid* configuration, because it includes both
        # `parse` and `users`". Discord's answer: code MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE.
        if kind in (allowed.get("parse") or []) and allowed.get(kind):
            _add(errors, at, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                 f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')


def _layout(errors: Errors, prefix: tuple[str | int, ...], body: dict[str, Any], components: list[Any]) -> None:
    """A message with IS_COMPONENTS_V2 (components-reference.mdx): "Messages allow up to 40 total
    components"; resources-message.mdx: "When the flag `IS_COMPONENTS_V2` is set, the message can only
    contain `components`. Providing `content`, `embeds`, `sticker_ids`, `poll`, or `shared_client_theme`
    will fail with a 400 BAD REQUEST response." Custom ids are unique in the whole message."""
    for key in ("content", "embeds", "sticker_ids", "poll", "shared_client_theme"):
        if body.get(key):
            _add(errors, (*prefix, key), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 "The 'content', 'embeds', 'sticker_ids' and 'poll' fields cannot be used with IS_COMPONENTS_V2")
    every: list[tuple[tuple[str | int, ...], dict[str, Any]]] = []

    def walk(at: tuple[str | int, ...], item: Any) -> None:
        if not isinstance(item, dict):
            return
        every.append((at, item))
        for key in ("components", "accessory"):
            inner = item.get(key)
            for j, sub in (enumerate(inner) if isinstance(inner, list) else [("", inner)] if inner else []):
                walk((*at, key, j) if j != "" else (*at, key), sub)

    for i, item in enumerate(components):
        walk((*prefix, "components", i), item)
    if len(every) > V2_COMPONENTS:
        _add(errors, (*prefix, "components"), "BASE_TYPE_MAX_LENGTH",
             f"Must be {V2_COMPONENTS} or fewer in length (components at every depth).")
    seen: set[str] = set()
    for at, item in every:
        if item.get("type") in (2, 3, 5, 6, 7, 8):
            _component(errors, at, item, seen)


def _components(errors: Errors, prefix: tuple[str | int, ...], rows: list[dict[str, Any]]) -> None:
    """Legacy components: action rows of buttons or one select. components-reference.mdx: "Legacy
    messages allow up to 5 action rows as top-level components"; "Multiple components on the same
    message must not share the same `custom_id`." """
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
        slash = cmd.get("type") in (None, 1)
        _command(errors, (i,), cmd, slash=slash)
        if slash and command_size(cmd) > COMMAND_TOTAL:  # worded as reference.mdx's example Request Error
            _add(errors, (i,), "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_TOTAL})")
    return errors


# Unicode's Scripts.txt: the code points of the Devanagari and Thai scripts (their blocks less the
# Common and Inherited marks: the dandas, the Vedic tone marks, the baht sign)
_DEVANAGARI_AND_THAI = ((0x0900, 0x0950), (0x0955, 0x0963), (0x0966, 0x097F), (0xA8E0, 0xA8FF),
                        (0x11B00, 0x11B09), (0x0E01, 0x0E3A), (0x0E40, 0x0E5B))


def command_name_ok(name: str) -> bool:
    """interactions-application-commands.mdx: "`CHAT_INPUT` command names and command option names must
    match the following regex `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` with the unicode flag
    set. If there is a lowercase variant of any letters used, you must use those." (Python's `re`
    has no \\p{...}: the classes are read off the Unicode database.)"""
    def allowed(c: str) -> bool:
        return (c in "-_'" or unicodedata.category(c)[0] in "LN"
                or any(low <= ord(c) <= high for low, high in _DEVANAGARI_AND_THAI))
    return 1 <= len(name) <= COMMAND_NAME and all(allowed(c) for c in name) and name == name.lower()


def command_size(cmd: dict[str, Any]) -> int:
    """The characters that count towards COMMAND_TOTAL: names, descriptions and choice values of the
    command, its options at every depth and their choices, each at its longest localization."""
    def longest(item: dict[str, Any], key: str) -> int:
        texts = [str(item.get(key) or ""), *((item.get(f"{key}_localizations") or {}).values())]
        return max(len(str(t)) for t in texts)

    size = longest(cmd, "name") + longest(cmd, "description")
    for choice in cmd.get("choices") or []:
        size += longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in cmd.get("options") or [])


def _command(errors: Errors, at: tuple[str | int, ...], cmd: dict[str, Any], slash: bool) -> None:
    name = str(cmd.get("name") or "")
    if slash and not command_name_ok(name):
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

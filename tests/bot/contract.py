"""Discord's published contract, applied to what the fake Discord receives and what it answers.

The contract is Discord's OpenAPI document (tests/bot/discord_api/openapi.json, validated with
`jsonschema` as JSON Schema 2020-12, the dialect of OpenAPI 3.1) and the rules Discord's documentation
states that the document leaves out (tests/bot/discord_limits.py). A request is matched to its
operation by method and path template; its path and query parameters and its body are validated, and
what breaks the contract is reported as Discord reports it: an "Invalid Form Body" (code 50035) whose
`errors` are nested by the path of the field at fault.

The document is read once per process and each operation's validators are compiled the first time
that operation is met: the bot uses a dozen of the document's 200-odd operations.

Where discord.py shapes a request differently from the document in a way Discord accepts, the
difference is allowed in one place, LENIENCIES, with the reason; nothing else is let through. The
fake's answers get no leniency; where the document's description of an answer contradicts the pages
(which show what Discord answers), the pages win, in CORRECTIONS.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.bot import discord_limits as limits

API: Final = "/api/v10"
DOCUMENT: Final = Path(__file__).with_name("discord_api") / "openapi.json"
_URI: Final = "urn:discord-api-spec:openapi.json"
_COMPONENT: Final = "#/components/schemas/"
_METHODS: Final = ("get", "put", "post", "patch", "delete")

Errors = dict[str, Any]


# ---------------------------------------------------------------------- the one place of leniency


@dataclass(frozen=True)
class Leniency:
    """A way discord.py shapes requests that the document does not allow but Discord accepts.
    `schemas` replaces entries of the document's components/schemas when requests are validated
    (never answers: the fake must answer exactly as documented); `query_booleans` are further words
    read as a boolean in a query string."""

    reason: str
    schemas: Mapping[str, Any] = field(default_factory=dict)
    query_booleans: Mapping[str, bool] = field(default_factory=dict)


LENIENCIES: Final[Mapping[str, Leniency]] = {
    "snowflake-as-integer": Leniency(
        reason=(
            "discord.py writes the ids it is given as JSON integers (allowed_mentions.users and .roles "
            "from discord.Object ids, create_dm's recipient_id, and attachments[].id as the index n of "
            "the part files[n]); the document's SnowflakeType is a string only, but Discord reads a "
            "snowflake from either: "
            "resources-message.mdx types the attachment request's id as \"snowflake or number\" "
            "(\"attachment id, for new attachments this must match the `n` in `files[n]`\"). An "
            "integer is still held to the snowflake's range: a negative or fractional one is refused."
        ),
        schemas={"SnowflakeType": {"anyOf": [
            {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"},
            {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        ]}},
    ),
    "query-boolean-words": Leniency(
        reason=(
            "discord.py writes boolean query parameters as 1 and 0 (execute_webhook's `wait=1` and "
            "`with_components=0`, the interaction callback's `with_response=1`); the document types "
            "them as booleans, which a query string spells `true`/`false`, and reference.mdx "
            "(Boolean Query Strings) says Discord also takes the others: \"Discord represents such "
            "cases using `True`, `true`, or `1` for true and `False`, `false` or `0` for false.\""
        ),
        query_booleans={"True": True, "1": True, "False": False, "0": False},
    ),
}

# what a query string's boolean is without any leniency: JSON's spelling
_STRICT_QUERY_BOOLEANS: Final = {"true": True, "false": False}


@dataclass(frozen=True)
class Correction:
    """Where the document's description of an answer contradicts Discord's documentation pages,
    which show what Discord answers: `schemas` replaces entries of components/schemas when the
    fake's answers are validated."""

    reason: str
    schemas: Mapping[str, Any]


CORRECTIONS: Final[Mapping[str, Correction]] = {
    "field-error-codes-are-strings": Correction(
        reason=(
            "the document types each entry of a field's `_errors` as its Error object, with an integer "
            "`code`; reference.mdx (Error Messages) shows what Discord answers, string codes: "
            "{\"code\": \"BASE_TYPE_REQUIRED\", \"message\": \"This field is required\"}"
        ),
        schemas={"InnerErrors": {
            "type": "object", "additionalProperties": False, "required": ["_errors"],
            "properties": {"_errors": {"type": "array", "items": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}},
        }},
    ),
    "rate-limit-code-optional": Correction(
        reason=(
            "the document's RatelimitedResponse requires the Error object's `code`; "
            "topics-rate-limits.mdx (Rate Limit Response Structure) makes it optional (\"code? | "
            "integer | An error code for some limits\") and its example 429 has none"
        ),
        schemas={"RatelimitedResponse": {
            "type": "object", "required": ["message", "retry_after", "global"],
            "properties": {"message": {"type": "string"}, "retry_after": {"type": "number"},
                           "global": {"type": "boolean"}, "code": {"type": "integer"}},
        }},
    ),
}


# ---------------------------------------------------------------------- the document


@functools.cache
def document() -> dict[str, Any]:
    with DOCUMENT.open(encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


@functools.cache
def _schemas(lenient: bool) -> dict[str, Any]:
    """components/schemas as requests are validated (lenient: with LENIENCIES) or as answers are
    (with CORRECTIONS only)."""
    schemas = dict(document()["components"]["schemas"])
    for change in (LENIENCIES if lenient else CORRECTIONS).values():
        schemas.update(change.schemas)
    return schemas


@functools.cache
def _registry(lenient: bool) -> Registry[Any]:
    doc = document()
    doc = {**doc, "components": {**doc["components"], "schemas": _schemas(lenient)}}
    resource: Resource[Any] = Resource.from_contents(doc, default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(_URI, resource)
    return registry


@functools.cache
def _validator_class(lenient: bool) -> type[Draft202012Validator]:
    """Draft 2020-12 with unions that first set aside the branches a value cannot be (another JSON
    type, another `type` tag): the document's messages and components are unions of up to a dozen
    forms, and the standard keywords validate every form in full even when the value is valid
    (oneOf must show no other form matches). A value that fails is validated again by the standard
    keywords, so the errors, and what passes, are exactly the standard ones."""
    schemas = _schemas(lenient)
    standard_one_of = Draft202012Validator.VALIDATORS["oneOf"]
    standard_any_of = Draft202012Validator.VALIDATORS["anyOf"]

    def impossible(validator: Any, branch: Any, instance: Any) -> bool:
        # (Python's == never finds unequal what JSON Schema finds equal: "!=" and "not in" are safe)
        for _ in range(16):  # a chain of $refs; the document's are short
            if not isinstance(branch, dict):
                return False
            if "const" in branch and instance != branch["const"]:  # the document's enums: a oneOf of consts
                return True
            if "enum" in branch and instance not in branch["enum"]:
                return True
            kind = branch.get("type")
            kinds = [kind] if isinstance(kind, str) else kind or []
            if kinds and not any(validator.is_type(instance, k) for k in kinds):
                return True
            tag = (branch.get("properties") or {}).get("type")
            if isinstance(tag, dict) and isinstance(instance, dict) and "type" in instance:
                allowed = tag["enum"] if "enum" in tag else [tag["const"]] if "const" in tag else None
                if allowed is not None and instance["type"] not in allowed:
                    return True
            ref = branch.get("$ref")  # left by _inline only where a schema refers to itself
            if not isinstance(ref, str) or not ref.removeprefix(_URI).startswith(_COMPONENT):
                return False
            branch = schemas.get(ref.removeprefix(_URI).removeprefix(_COMPONENT))
        return False

    def one_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
        possible = [i for i, branch in enumerate(branches) if not impossible(validator, branch, instance)]
        if len(possible) == 1:
            only = possible[0]
            if not any(validator.descend(instance, branches[only], schema_path=only)):
                return
        yield from standard_one_of(validator, branches, instance, schema)

    def any_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
        for i, branch in enumerate(branches):
            if impossible(validator, branch, instance):
                continue
            if not any(validator.descend(instance, branch, schema_path=i)):
                return
        yield from standard_any_of(validator, branches, instance, schema)

    extended: type[Draft202012Validator] = validators.extend(Draft202012Validator,
                                                             {"oneOf": one_of, "anyOf": any_of})
    return extended


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _pointer(*keys: str | int) -> str:
    return "/" + "/".join(_escape(str(k)) for k in keys)


def _at(pointer: str) -> Any:
    node: Any = document()
    for key in pointer.removeprefix("/").split("/"):
        key = key.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def _followed(pointer: str) -> tuple[Any, str]:
    """The node at this pointer, its own `$ref` (to components/...) followed as OpenAPI allows for
    parameters, request bodies and responses; and the pointer where it is defined."""
    node = _at(pointer)
    while isinstance(node, dict) and "$ref" in node:
        pointer = node["$ref"].removeprefix("#")
        node = _at(pointer)
    return node, pointer


_inlined: dict[tuple[str, bool], Any] = {}


def _inline(node: Any, lenient: bool, open_refs: frozenset[str] = frozenset()) -> Any:
    """The schema with its references to components/schemas replaced by what they name (a `$ref`'s
    only sibling in the document is a description): a reference costs a registry look-up each time
    it is met, and a message's schema meets hundreds. A schema that refers to itself keeps that
    reference, made absolute for the registry."""
    if isinstance(node, list):
        return [_inline(item, lenient, open_refs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if not (isinstance(ref, str) and ref.startswith(_COMPONENT)):
        return {key: _inline(value, lenient, open_refs) for key, value in node.items()}
    name = ref.removeprefix(_COMPONENT)
    if name in open_refs:
        return {"$ref": f"{_URI}{ref}"}
    if (name, lenient) not in _inlined:
        _inlined[(name, lenient)] = _inline(_schemas(lenient)[name], lenient, open_refs | {name})
    return _inlined[(name, lenient)]


@functools.cache
def _validator(pointer: str, lenient: bool) -> Draft202012Validator:
    """The validator of the schema at this pointer into the document, compiled once per process."""
    return _validator_class(lenient)(_inline(_at(pointer), lenient), registry=_registry(lenient))


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    operation_id: str
    pointer: str  # of the operation object in the document
    pattern: re.Pattern[str]

    @property
    def spec(self) -> dict[str, Any]:
        node: dict[str, Any] = document()["paths"][self.template][self.method.lower()]
        return node

    def parameters(self) -> dict[tuple[str, str], tuple[dict[str, Any], str]]:
        return _parameters(self)


@functools.cache
def _parameters(op: Operation) -> dict[tuple[str, str], tuple[dict[str, Any], str]]:
    """(in, name) -> (parameter, pointer of its schema): the path item's, then the operation's."""
    out: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
    item = document()["paths"][op.template]
    for owner, at in ((item, _pointer("paths", op.template)), (op.spec, op.pointer)):
        for i in range(len(owner.get("parameters") or [])):
            param, where = _followed(f"{at}/parameters/{i}")
            out[(param["in"], param["name"])] = (param, f"{where}/schema")
    return out


def _shape(method: str, path: str) -> tuple[str, str, int]:
    """What narrows the operations a path may be: its method, first segment and length."""
    segments = path.strip("/").split("/")
    return method, segments[0], len(segments)


@functools.cache
def _operations_by_shape() -> dict[tuple[str, str, int], tuple[Operation, ...]]:
    by_shape: dict[tuple[str, str, int], list[Operation]] = {}
    for op in _operations():
        by_shape.setdefault(_shape(op.method, op.template), []).append(op)
    return {shape: tuple(ops) for shape, ops in by_shape.items()}


@functools.cache
def _operations() -> tuple[Operation, ...]:
    ops = []
    for template, item in document()["paths"].items():
        regex = "".join(f"(?P<{seg[1:-1]}>[^/]+)" if seg.startswith("{") else re.escape(seg)
                        for seg in re.split(r"(\{[^}]+\})", template))
        for method in _METHODS:
            if method in item:
                ops.append(Operation(method.upper(), template, item[method].get("operationId", ""),
                                     _pointer("paths", template, method), re.compile(f"^{regex}$")))
    # a literal segment wins over a parameter (/users/@me is not /users/{user_id})
    return tuple(sorted(ops, key=lambda op: -sum(not s.startswith("{") for s in op.template.split("/"))))


def operation(method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
    """The document's operation for a request, and its path parameters."""
    path = path.removeprefix(API)
    for op in _operations_by_shape().get(_shape(method, path), ()):
        found = op.pattern.match(path)
        if found is not None:
            return op, found.groupdict()
    return None


# ---------------------------------------------------------------------- errors, Discord's way


def _add(errors: Errors, path: Iterable[str | int], code: str, message: str) -> None:
    node = errors
    for key in path:
        node = node.setdefault(str(key), {})
    entries = node.setdefault("_errors", [])
    if not any(e["code"] == code and e["message"] == message for e in entries):
        entries.append({"code": code, "message": message})


def merge(into: Errors, more: Errors) -> Errors:
    """Both trees of field errors in one (an entry already there is not repeated)."""
    for key, value in more.items():
        if key == "_errors":
            for entry in value:
                _add(into, (), entry["code"], entry["message"])
        else:
            merge(into.setdefault(key, {}), value)
    return into


def answerable(errors: Errors) -> Errors:
    """The tree as Discord's answer holds it: a field has either its own `_errors` or its parts'
    errors (the document's ErrorDetails), so where both were found the parts' are told."""
    children = {k: answerable(v) for k, v in errors.items() if k != "_errors"}
    return children or {"_errors": errors["_errors"]}


def _describe(error: ValidationError) -> tuple[str, str]:
    """Discord's code and message for a broken schema keyword. The codes are those Discord answers
    for the same fault (BASE_TYPE_*, NUMBER_TYPE_*, ...); a keyword Discord has no known code for
    is named after the keyword (SCHEMA_...)."""
    keyword, limit, value = str(error.validator), error.validator_value, error.instance
    if keyword in ("maxLength", "maxItems"):
        return "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
    if keyword in ("minLength", "minItems"):
        return "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."
    if keyword == "maximum":
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
    if keyword == "minimum":
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
    if keyword == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if keyword in ("enum", "const"):  # worded as reference.mdx's example: "Value must be one of (0, 1, 2)."
        choices = limit if keyword == "enum" else [limit]
        return "BASE_TYPE_CHOICES", f"Value must be one of ({', '.join(map(repr, choices))})."
    snowflake = isinstance(error.schema, dict) and error.schema.get("format") == "snowflake"
    if keyword in ("pattern", "type") and snowflake:
        return "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not snowflake."
    if keyword == "pattern":
        return "STRING_TYPE_REGEX", f"String value did not match validation regex ({limit})."
    if keyword == "type" and ("integer" in limit or "number" in limit) and not isinstance(value, dict | list):
        return "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not int."
    if keyword in ("anyOf", "oneOf"):
        tags = sorted({tag for sub in error.context or () if tuple(sub.relative_path) == ("type",)
                       and sub.validator == "enum" for tag in sub.validator_value})
        if tags and isinstance(value, dict):
            listed = ", ".join(map(str, tags))
            return "UNION_TYPE_CHOICES", f"Value of field \"type\" must be one of ({listed},)."
        return "UNION_TYPE_CHOICES", "Value matches none of the forms this field may take."
    return f"SCHEMA_{re.sub(r'(?<!^)(?=[A-Z])', '_', keyword).upper()}", error.message[:300]


def _kind_mismatch(error: ValidationError) -> bool:
    """A union's branch that fails because the value is another kind of thing altogether (another
    JSON type, or another `type` tag): not the branch the sender meant."""
    path = tuple(error.relative_path)
    return (not path and error.validator in ("type", "enum", "const")) or (
        path == ("type",) and error.validator in ("enum", "const", "type"))


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors to tell for one failed keyword. A failed union (`anyOf`, which the document marks
    `x-discord-union: oneOf`, or `oneOf`) is told by the branch the value was meant for: the one of
    its kind (its `type` tag, its JSON type) that came nearest to passing; its own errors, not the
    union's, are what a reader can act on."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    meant = {i: errs for i, errs in branches.items() if not any(_kind_mismatch(e) for e in errs)}
    if not meant:  # of another kind than every form: told by the one form that is not null, if one
        meant = {i: errs for i, errs in branches.items()
                 if not (len(errs) == 1 and errs[0].validator == "type" and errs[0].validator_value == "null")}
        if len(meant) != 1:
            return [error]
    best = min(meant.values(), key=len)  # the nearest to passing; of equals, the first in the document
    return [leaf for sub in best for leaf in _leaves(sub)]


def _where(error: ValidationError) -> list[str | int]:
    path: list[str | int] = list(error.absolute_path)
    if error.validator == "required":  # jsonschema places it on the object; Discord on the field
        missing = re.match(r"'([^']*)' is a required property", error.message)
        if missing:
            path.append(missing.group(1))
    return path


Fault = tuple[tuple[str | int, ...], str, str]  # where, Discord's code, message


def faults(pointer: str, instance: Any, lenient: bool = True) -> list[Fault]:
    """The instance against the schema at `pointer` in the document: each fault where it is."""
    out: list[Fault] = []
    for error in _validator(pointer, lenient).iter_errors(instance):
        for leaf in _leaves(error):
            code, message = _describe(leaf)
            out.append((tuple(_where(leaf)), code, message))
    return out


@functools.lru_cache(maxsize=4096)
def _parameter_faults(pointer: str, value: str | bool | int, lenient: bool) -> tuple[Fault, ...]:
    """A path or query parameter's faults: the same channel ids and interaction tokens recur."""
    return tuple(faults(pointer, value, lenient))


def _parameter_errors(pointer: str, value: str | bool | int, lenient: bool, name: str) -> Errors:
    errors: Errors = {}
    for where, code, message in _parameter_faults(pointer, value, lenient):
        _add(errors, (name, *where), code, message)
    return errors


def schema_errors(pointer: str, instance: Any, lenient: bool = True, prefix: Sequence[str | int] = ()) -> Errors:
    """The instance against the schema at `pointer` in the document, as Discord's nested errors."""
    errors: Errors = {}
    for where, code, message in faults(pointer, instance, lenient):
        _add(errors, (*prefix, *where), code, message)
    return errors


def flatten(errors: Errors) -> list[str]:
    return limits.flatten(errors)


def _line(fault: Fault) -> str:
    where, code, message = fault
    return f"{'.'.join(map(str, where)) or '(body)'}: {message} ({code})"


# ---------------------------------------------------------------------- requests


@dataclass(frozen=True)
class Refusal:
    """How Discord answers a request that breaks its contract, and the faults for a test's report."""

    status: int
    body: dict[str, Any]
    errors: list[str]


def _doc_rules(op: Operation, body: Any, files: int) -> Errors:
    """The documented rules the document leaves out, for the operations they govern."""
    placeholders = [("", b"")] * files
    commands = body if isinstance(body, list) else []
    rules: dict[str, Callable[[], Errors]] = {
        "create_message": lambda: limits.message_errors(body, placeholders),
        "update_message": lambda: limits.message_errors(body, placeholders),
        "execute_webhook": lambda: limits.message_errors(body, placeholders),
        "update_webhook_message": lambda: limits.message_errors(body, placeholders),
        "update_original_webhook_message": lambda: limits.message_errors(body, placeholders),
        "create_interaction_response": lambda: limits.callback_errors(body, placeholders),
        "create_thread": lambda: limits.thread_errors(body),
        "bulk_set_application_commands": lambda: limits.command_errors(commands),
        "bulk_set_guild_application_commands": lambda: limits.command_errors(commands),
    }
    rule = rules.get(op.operation_id)
    return rule() if rule is not None and isinstance(body, dict | list) else {}


def _query_value(raw: str, schema: dict[str, Any], lenient: bool) -> Any:
    """A query string's text as the JSON value its schema describes (what Discord parses it as)."""
    kind = schema.get("type")
    if kind == "boolean":
        words = dict(_STRICT_QUERY_BOOLEANS)
        if lenient:
            for leniency in LENIENCIES.values():
                words.update(leniency.query_booleans)
        return words.get(raw, raw)
    if kind == "integer" and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw


def _file_parts(op: Operation, body: Any, parts: Sequence[str]) -> Errors:
    """reference.mdx, Uploading Files: "Each file parameter must be uniquely named in the format
    `files[n]` ... The suffixed index `n` is the snowflake placeholder that can be used in the
    `attachments` field"; resources-message.mdx: an attachment's id, "for new attachments this must
    match the `n` in `files[n]`". A new message has only new attachments, so each of its ids names a
    part; an edit (PATCH, or an interaction's UPDATE_MESSAGE) may also keep attachments already on
    the message by their ids."""
    errors: Errors = {}
    indices: set[int] = set()
    for i, name in enumerate(parts):
        found = re.fullmatch(r"files\[(\d+)\]", name)
        if found is None or int(found.group(1)) in indices:
            _add(errors, ("files", i), "FILE_PART_NAME_INVALID",
                 f"A file part must be named files[n], each n once: {name!r}")
        else:
            indices.add(int(found.group(1)))
    data = body.get("data") if op.operation_id == "create_interaction_response" else body
    attachments = (data or {}).get("attachments") if isinstance(data, dict) else None
    prefix: tuple[str, ...] = ("data",) if data is not body else ()
    creates = op.operation_id in ("create_message", "execute_webhook") or (
        op.operation_id == "create_interaction_response" and body.get("type") == 4)
    if creates and isinstance(attachments, list):
        for i, att in enumerate(attachments):
            att_id = att.get("id") if isinstance(att, dict) else None
            if str(att_id).isdigit() and int(str(att_id)) not in indices:
                _add(errors, (*prefix, "attachments", i, "id"), "ATTACHMENT_NOT_FOUND",
                     f"No file part files[{att_id}] for this new attachment")
    return errors


def request_errors(method: str, path: str, query: Mapping[str, str], body: Any, parts: Sequence[str] = (),
                   multipart: bool = False, lenient: bool = True) -> Refusal | None:
    """Why Discord would refuse this request, or None. `body` is the JSON body, or a multipart
    body's payload_json; `parts` the names of a multipart body's other parts (its files)."""
    found = operation(method, path)
    if found is None:
        return Refusal(404, {"message": "404: Not Found", "code": 0},
                       [f"(route): {method} {path.removeprefix(API)} is no operation of Discord's API"])
    op, path_values = found
    errors: Errors = {}
    params = op.parameters()
    for name, value in path_values.items():
        _, pointer = params[("path", name)]
        merge(errors, _parameter_errors(pointer, value, lenient, name))
    for name, raw in query.items():
        if ("query", name) not in params:
            # the document names every parameter an operation reads: another one means something
            # the bot expects Discord to do and Discord will not
            _add(errors, (name,), "SCHEMA_UNKNOWN_QUERY_PARAMETER",
                 f"{op.operation_id} takes no query parameter {name}")
            continue
        param, pointer = params[("query", name)]
        schema, _ = _followed(pointer)
        merge(errors, _parameter_errors(pointer, _query_value(raw, schema, lenient), lenient, name))
    if "requestBody" in op.spec:
        request_body, where = _followed(f"{op.pointer}/requestBody")
        content = request_body["content"]
        media = "multipart/form-data" if multipart else "application/json"
        if media not in content:
            _add(errors, (), "SCHEMA_MEDIA_TYPE", f"{op.operation_id} takes no {media} body")
        elif body is None and request_body.get("required"):
            _add(errors, (), "BASE_TYPE_REQUIRED", "A body is required")
        elif body is not None:
            merge(errors, schema_errors(f"{where}/content/{_escape(media)}/schema", body, lenient))
    if isinstance(body, dict):
        merge(errors, _file_parts(op, body, parts))
    merge(errors, _doc_rules(op, body, len(parts)))
    if not errors:
        return None
    return Refusal(400, {"code": 50035, "message": "Invalid Form Body", "errors": answerable(errors)},
                   flatten(errors))


# ---------------------------------------------------------------------- answers


def _response(op: Operation, status: int) -> tuple[dict[str, Any], str] | None:
    responses = op.spec.get("responses") or {}
    for key in (str(status), f"{status // 100}XX", "default"):
        if key in responses:
            found: tuple[dict[str, Any], str] = _followed(f"{op.pointer}/responses/{_escape(key)}")
            return found
    return None


def response_errors(method: str, path: str, status: int, body: Any) -> list[str]:
    """Where the fake's answer departs from the document's response for this operation and status:
    each a "field.path: message (CODE)". Validated strictly: no leniency applies to answers."""
    found = operation(method, path)
    if found is None:
        return []  # the request was refused as no route of Discord's; that 404 is not an operation's
    op, _ = found
    if status >= 500:
        return []  # an outage a test provokes on purpose: the document describes no server errors
    documented = _response(op, status)
    if documented is None:
        return [f"(status): {op.operation_id} is not documented to answer {status}"]
    response, pointer = documented
    content = response.get("content")
    if content is None:
        return [] if body is None else [f"(body): {op.operation_id} answers {status} with no body"]
    if "application/json" not in content:
        return []
    if body is None:
        return [f"(body): {op.operation_id} answers {status} with a JSON body"]
    return [_line(f) for f in faults(f"{pointer}/content/application~1json/schema", body, lenient=False)]

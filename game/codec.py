"""Frozen dataclasses to JSON-able values and back, driven by their type hints.

States, events and commands all round-trip through here, so snapshots and the event log store
plain JSON and a replay rebuilds exactly the same objects.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar, get_args, get_origin

T = TypeVar("T")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def to_data(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(to_data(v) for v in value)
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


def from_data(tp: Any, data: Any) -> Any:
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        for a in args:
            if a is type(None):
                continue
            try:
                return from_data(a, data)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{data!r} fits none of {tp}")
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in data)
        return tuple(from_data(a, v) for a, v in zip(args, data, strict=True))
    if origin is frozenset:
        (a,) = get_args(tp)
        return frozenset(from_data(a, v) for v in data)
    if origin in (dict, typing.Mapping) or tp is dict:
        args = get_args(tp)
        if not args:
            return dict(data)
        return {from_data(args[0], k): from_data(args[1], v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise TypeError(f"{tp.__name__} needs an object, got {data!r}")
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = from_data(hints[f.name], data[f.name])
        return tp(**kwargs)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise TypeError(f"expected a number, got {data!r}")
        return float(data)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise TypeError(f"expected a whole number, got {data!r}")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise TypeError(f"expected text, got {data!r}")
        return data
    if tp is bool:
        if not isinstance(data, bool):
            raise TypeError(f"expected true or false, got {data!r}")
        return data
    if tp is Any or tp is object:
        return data
    raise TypeError(f"cannot decode {tp!r}")


class TaggedRegistry:
    """Named dataclass types (events, commands) encoded as {"type": name, ...fields}."""

    def __init__(self) -> None:
        self.types: dict[str, type] = {}

    def register(self, cls: type[T]) -> type[T]:
        self.types[cls.__name__] = cls
        return cls

    def encode(self, value: Any) -> dict[str, Any]:
        data = to_data(value)
        assert isinstance(data, dict)
        return {"type": type(value).__name__, **data}

    def decode(self, data: dict[str, Any]) -> Any:
        body = dict(data)
        name = body.pop("type")
        try:
            cls = self.types[name]
        except KeyError as exc:
            raise ValueError(f"unknown type {name!r}") from exc
        return from_data(cls, body)

"""Typed records over a JSON column: each field has its JSON key and a codec; unknown keys and key order are kept.

A record is a dataclass deriving :class:`JsonRecord` whose fields are declared with :func:`key`.
:meth:`JsonRecord.from_json` reads a mapping: a declared key that is missing leaves its field at its
default (a required one is an error), a value of the wrong type is a :class:`RecordError` naming the
key, and a key nobody declared is kept in ``extra``. :meth:`JsonRecord.to_json` writes the record back
with the keys in the order they were read, then the keys set since. A record built in code writes every
field but the ``sparse`` ones left at their default; a record read writes the keys it read and the fields
given another value since. So a record written by older code reads and writes back as it was (a key it lacks stays
absent), and nothing another version of the server wrote is lost.

Example::

    @dataclass
    class Point(JsonRecord):
        x: int = key(WHOLE)
        label: str = key(TEXT, "name", default="", sparse=True)

    p = Point.from_json({"x": 1, "colour": "red"}, "point")
    p.x, p.extra                     # (1, {'colour': 'red'})
    p.to_json()                      # {'x': 1, 'colour': 'red'}
    Point.from_json({"x": "1"}, "point")   # RecordError: point.x must be a whole number, not a string
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import MISSING, dataclass, field
from enum import Enum
from typing import Any, Callable, Generic, TypeVar

from shared.errors import InfraError

T = TypeVar("T")
R = TypeVar("R", bound="JsonRecord")
E = TypeVar("E", bound=Enum)

_META = "json_record"


class RecordError(InfraError):
    """A stored record holds a value the server cannot read: names the key and what it must be."""


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Codec(Generic[T]):
    """How one field is read from JSON (checking it) and written back."""

    decode: Callable[[Any, str], T]
    encode: Callable[[T], Any] = copy.deepcopy


def _check(test: Callable[[Any], bool], what: str) -> Callable[[Any, str], Any]:
    def decode(value: Any, where: str) -> Any:
        if not test(value):
            raise RecordError(f"{where} must be {what}, not {_kind(value)}")
        return value
    return decode


TEXT: Codec[str] = Codec(_check(lambda v: isinstance(v, str), "a string"))
FLAG: Codec[bool] = Codec(_check(lambda v: isinstance(v, bool), "true or false"))
WHOLE: Codec[int] = Codec(_check(lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"))
NUMBER: Codec[float] = Codec(_check(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number"))
OBJECT: Codec[dict[str, Any]] = Codec(lambda v, where: copy.deepcopy(_check(lambda v: isinstance(v, dict),
                                                                              "an object")(v, where)))
ANY: Codec[Any] = Codec(lambda v, where: copy.deepcopy(v))


def optional(codec: Codec[T]) -> Codec[T | None]:
    """*codec*, or null."""
    return Codec(lambda v, where: None if v is None else codec.decode(v, where),
                 lambda v: None if v is None else codec.encode(v))


def list_of(codec: Codec[T]) -> Codec[list[T]]:
    """A list whose every item is read by *codec*."""
    def decode(value: Any, where: str) -> list[T]:
        if not isinstance(value, list):
            raise RecordError(f"{where} must be a list, not {_kind(value)}")
        return [codec.decode(item, f"{where}[{i}]") for i, item in enumerate(value)]
    return Codec(decode, lambda items: [codec.encode(item) for item in items])


def enum_of(kind: type[E]) -> Codec[E]:
    """One of the values of the Enum *kind*."""
    def decode(value: Any, where: str) -> E:
        try:
            return kind(value)
        except (ValueError, TypeError):
            allowed = ", ".join(repr(m.value) for m in kind)
            raise RecordError(f"{where} must be one of {allowed}, not {value!r}") from None
    return Codec(decode, lambda member: member.value)


def record_of(kind: type[R]) -> Codec[R]:
    """A nested record."""
    return Codec(lambda v, where: kind.from_json(v, where), lambda rec: rec.to_json())


@dataclass(frozen=True)
class _Spec:
    codec: Codec[Any]
    name: str | None
    sparse: bool


def key(codec: Codec[Any], name: str | None = None, *, default: Any = MISSING,
        default_factory: Callable[[], Any] | Any = MISSING, sparse: bool = False) -> Any:
    """A field stored under *name* (the field's own name by default), read and written by *codec*.

    Without a default the key is required. *sparse*: the key is written only when the field holds
    something other than its default (or when it was read).
    """
    return field(default=default, default_factory=default_factory,
                 metadata={_META: _Spec(codec, name, sparse)})


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is MISSING and f.default_factory is MISSING


def _default(f: dataclasses.Field[Any]) -> Any:
    return f.default_factory() if f.default_factory is not MISSING else f.default  # type: ignore[misc]


@dataclass
class JsonRecord:
    """Base of typed records stored as JSON objects: see the module docstring."""

    extra: dict[str, Any] = field(default_factory=dict, kw_only=True, repr=False)   # keys no field declares
    # the keys as read, in their order; None for a record built in code
    order: list[str] | None = field(default=None, kw_only=True, repr=False, compare=False)

    @classmethod
    def _fields(cls) -> list[tuple[dataclasses.Field[Any], str, _Spec]]:
        return [(f, spec.name or f.name, spec) for f in dataclasses.fields(cls)
                if (spec := f.metadata.get(_META)) is not None]

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The JSON keys this record declares, in the order it writes them."""
        return tuple(name for _, name, _ in cls._fields())

    @classmethod
    def from_json(cls: type[R], data: Any, where: str) -> R:
        """Read *data* (an object); *where* names it in errors (``"run 1a2b: plan.replans[0]"``)."""
        if not isinstance(data, dict):
            raise RecordError(f"{where} must be an object, not {_kind(data)}")
        values: dict[str, Any] = {}
        for f, name, spec in cls._fields():
            if name in data:
                values[f.name] = spec.codec.decode(data[name], f"{where}.{name}")
            elif _required(f):
                raise RecordError(f"{where}: {name!r} is missing")
        known = set(cls.keys())
        extra = {k: copy.deepcopy(v) for k, v in data.items() if k not in known}
        return cls(**values, extra=extra, order=list(data))

    def to_json(self) -> dict[str, Any]:
        """The record as a new JSON object (nothing in it is shared with the record)."""
        read = self.order or []
        out: dict[str, Any] = {}
        for f, name, spec in self._fields():
            value = getattr(self, f.name)
            if name in read or (self.order is None and not spec.sparse) or _required(f) or value != _default(f):
                out[name] = spec.codec.encode(value)
        out.update(copy.deepcopy(self.extra))
        first = [k for k in read if k in out]
        return {k: out[k] for k in [*first, *(k for k in out if k not in read)]}

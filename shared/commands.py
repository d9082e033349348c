"""How a controller declares its commands — the single source for the AI
context, plan validation, dynamic controller detection and the dashboard's forms.

A controller method becomes a command with :func:`command`; the declared
parameter names are checked against the method's signature when the class is
created, so what is advertised is exactly what the code reads.
"""
from __future__ import annotations

import inspect
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, Callable, TypeVar

from shared.keys import Key


class ParamType(str, Enum):
    STRING = "string"
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    KEY = "key"  # a canonical remote key name (shared.keys.Key)


class ControllerType(str, Enum):
    """What capability a controller provides. A device composes several."""

    REMOTE = "remote"
    SCREEN = "screen"
    VERIFICATION = "verification"
    NAVIGATION = "navigation"
    POWER = "power"


class CommandKind(str, Enum):
    """Which executor runs a command."""

    ACTION = "action"
    VERIFICATION = "verification"
    NAVIGATION = "navigation"


@dataclass(frozen=True)
class ParamSpec:
    name: str
    type: ParamType = ParamType.STRING
    required: bool = False
    default: Any = None
    description: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["type"] = self.type.value
        data["choices"] = list(self.choices)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ParamSpec":
        return cls(
            name=data["name"],
            type=ParamType(data.get("type", "string")),
            required=bool(data.get("required", False)),
            default=data.get("default"),
            description=data.get("description", ""),
            choices=tuple(data.get("choices") or ()),
            minimum=data.get("minimum"),
            maximum=data.get("maximum"),
        )


@dataclass(frozen=True)
class CommandSpec:
    name: str
    description: str
    params: tuple[ParamSpec, ...] = ()
    controller_type: ControllerType = ControllerType.REMOTE
    kind: CommandKind = CommandKind.ACTION
    destructive: bool = False
    timeout_s: float | None = None   # this command's default step timeout (shared/policy.py cascade)

    def param(self, name: str) -> ParamSpec | None:
        return next((p for p in self.params if p.name == name), None)

    def signature(self) -> str:
        """``press_key(key: key, repeat: int = 1)`` — for prompts and the dashboard."""
        parts = []
        for p in self.params:
            text = f"{p.name}: {p.type.value}"
            if not p.required:
                text += f" = {p.default!r}"
            parts.append(text)
        return f"{self.name}({', '.join(parts)})"

    def to_dict(self) -> dict[str, Any]:
        d = {
            "name": self.name,
            "description": self.description,
            "params": [p.to_dict() for p in self.params],
            "controller_type": self.controller_type.value,
            "kind": self.kind.value,
            "destructive": self.destructive,
        }
        if self.timeout_s is not None:
            d["timeout_s"] = self.timeout_s
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CommandSpec":
        return cls(
            name=data["name"],
            description=data.get("description", ""),
            params=tuple(ParamSpec.from_dict(p) for p in data.get("params", [])),
            controller_type=ControllerType(data.get("controller_type", "remote")),
            kind=CommandKind(data.get("kind", "action")),
            destructive=bool(data.get("destructive", False)),
            timeout_s=float(data["timeout_s"]) if isinstance(data.get("timeout_s"), (int, float)) else None,
        )


KEY_CHOICES = tuple(k.value for k in Key)


def P(
    name: str,
    type: ParamType = ParamType.STRING,
    *,
    required: bool = False,
    default: Any = None,
    description: str = "",
    choices: tuple[str, ...] = (),
    minimum: float | None = None,
    maximum: float | None = None,
) -> ParamSpec:
    """Shorthand to declare a parameter. Key parameters get the key vocabulary."""
    if type is ParamType.KEY and not choices:
        choices = KEY_CHOICES
    if type is ParamType.STRING and default is None and not required:
        default = ""
    return ParamSpec(name, type, required, default, description, choices, minimum, maximum)


F = TypeVar("F", bound=Callable[..., Any])


def command(description: str, *params: ParamSpec, destructive: bool = False,
            timeout_s: float | None = None) -> Callable[[F], F]:
    """Mark a controller method as a command.

    The controller type and kind come from the controller class; the name is
    the method name::

        @command("Press a remote key", P("key", ParamType.KEY, required=True))
        def press_key(self, key: Key) -> str: ...
    """

    def mark(fn: F) -> F:
        fn.__command__ = (description, tuple(params), destructive, timeout_s)  # type: ignore[attr-defined]
        return fn

    return mark


def collect_commands(cls: type, controller_type: ControllerType, kind: CommandKind) -> dict[str, CommandSpec]:
    """Gather the ``@command`` methods of *cls*, checking declarations against signatures."""
    specs: dict[str, CommandSpec] = {}
    for attr in dir(cls):
        fn = getattr(cls, attr, None)
        marker = getattr(fn, "__command__", None)
        if marker is None:
            continue
        description, params, destructive, timeout_s = marker
        sig_names = [n for n in inspect.signature(fn).parameters if n != "self"]
        declared = [p.name for p in params]
        if sorted(sig_names) != sorted(declared):
            raise TypeError(
                f"{cls.__name__}.{attr}: declared params {declared} do not match "
                f"the method's parameters {sig_names}"
            )
        specs[attr] = CommandSpec(attr, description, params, controller_type, kind, destructive, timeout_s)
    return specs


def coerce_param(spec: ParamSpec, value: Any) -> Any:
    """Coerce *value* to the declared type, raising ``ValueError`` with a readable reason."""
    from shared.keys import parse_key

    if value is None:
        raise ValueError(f"{spec.name} is null")
    t = spec.type
    if t is ParamType.STRING:
        if isinstance(value, (dict, list)):
            raise ValueError(f"{spec.name} must be a string")
        out: Any = str(value)
    elif t is ParamType.INT:
        if isinstance(value, bool):
            raise ValueError(f"{spec.name} must be an integer")
        try:
            f = float(str(value).strip())
        except ValueError:
            raise ValueError(f"{spec.name} must be an integer, got {value!r}") from None
        if f != int(f):
            raise ValueError(f"{spec.name} must be an integer, got {value!r}")
        out = int(f)
    elif t is ParamType.FLOAT:
        if isinstance(value, bool):
            raise ValueError(f"{spec.name} must be a number")
        try:
            out = float(str(value).strip())
        except ValueError:
            raise ValueError(f"{spec.name} must be a number, got {value!r}") from None
        if out != out or out in (float("inf"), float("-inf")):
            raise ValueError(f"{spec.name} must be a finite number")
    elif t is ParamType.BOOL:
        if isinstance(value, bool):
            out = value
        elif str(value).strip().lower() in ("true", "1", "yes", "on"):
            out = True
        elif str(value).strip().lower() in ("false", "0", "no", "off"):
            out = False
        else:
            raise ValueError(f"{spec.name} must be true or false, got {value!r}")
    elif t is ParamType.KEY:
        out = parse_key(str(value)).value
    else:  # pragma: no cover - exhaustive over the enum
        raise ValueError(f"unsupported type {t}")
    if spec.choices and out not in spec.choices:
        raise ValueError(f"{spec.name} must be one of {', '.join(spec.choices)}, got {out!r}")
    if isinstance(out, (int, float)) and not isinstance(out, bool):
        if spec.minimum is not None and out < spec.minimum:
            raise ValueError(f"{spec.name} must be >= {spec.minimum}, got {out}")
        if spec.maximum is not None and out > spec.maximum:
            raise ValueError(f"{spec.name} must be <= {spec.maximum}, got {out}")
    return out

"""The assistant's allowlisted tools: one declaration each, one registry.

A tool is declared once with :func:`tool`: its name, what it does, its
parameters (which become the JSON schema the LLM sees and the validation every
call passes, whoever wrote it), the REST endpoint whose access rule it obeys
(:data:`server.auth_policy.POLICY`: a viewer's assistant cannot run what a
viewer cannot), and whether it is destructive (it then waits for an explicit
confirmation)::

    @tool("cancel_run", "Cancel a queued or running run", endpoint="api.cancel_run",
          params=(Param("run_id", "the run's id"),), destructive=True)
    def cancel_run(env: ToolEnv, args: dict[str, Any]) -> ToolOutput: ...

A call naming no registered tool, or with arguments that do not fit the
declaration, is refused with a message and never runs.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from server.auth_policy import POLICY
from server.auth_users import Role, User
from shared.errors import DevicePilotError

log = logging.getLogger(__name__)

JSON_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "integer": int, "boolean": bool}


class ToolRefused(DevicePilotError):
    """A tool call that may not or cannot run: unknown tool, bad arguments, role too low."""


@dataclass(frozen=True)
class Param:
    name: str
    description: str
    type: str = "string"
    required: bool = True
    enum: tuple[str, ...] = ()
    max_length: int = 300
    maximum: int = 1000

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "description": self.description}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.type == "string":
            out["maxLength"] = self.max_length
        if self.type == "integer":
            out.update(minimum=1, maximum=self.maximum)
        return out

    def check(self, tool: str, value: Any) -> Any:
        expected = JSON_TYPES[self.type]
        if self.type == "integer" and isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if not isinstance(value, expected) or (self.type == "integer" and isinstance(value, bool)):
            raise ToolRefused(f"{tool}: '{self.name}' must be a {self.type}, not {type(value).__name__}")
        if isinstance(value, str):
            value = value.strip()
            if not value and self.required:
                raise ToolRefused(f"{tool}: '{self.name}' is empty")
            if len(value) > self.max_length:
                raise ToolRefused(f"{tool}: '{self.name}' is longer than {self.max_length} characters")
        if self.enum and value not in self.enum:
            raise ToolRefused(f"{tool}: '{self.name}' must be one of {', '.join(self.enum)}, not {value!r}")
        if self.type == "integer" and not 1 <= value <= self.maximum:
            raise ToolRefused(f"{tool}: '{self.name}' must be between 1 and {self.maximum}")
        return value


@dataclass
class ToolOutput:
    """What a tool found or did: a one-line summary for people, data for the model, and what it is about."""

    summary: str
    data: Any = None
    runs: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ToolCall:
    """A validated request to run one tool."""

    tool: str
    arguments: dict[str, Any]
    id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ToolCall":
        return cls(str(data["tool"]), dict(data.get("arguments") or {}), str(data.get("id") or ""))


@dataclass
class ToolResult:
    """One call's outcome, as stored, shown and sent back to the model."""

    tool: str
    arguments: dict[str, Any]
    ok: bool
    summary: str
    data: Any = None
    runs: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ToolEnv:
    """What a tool runs with: the server and the user whose rights it has."""

    srv: Any
    user: User


Handler = Callable[[ToolEnv, dict[str, Any]], ToolOutput]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    endpoint: str                        # the REST endpoint whose access rule (POLICY) this tool obeys
    handler: Handler
    params: tuple[Param, ...] = ()
    destructive: bool = False
    spends_llm: bool = False             # it may plan with the LLM: the daily token budget applies
    harmless_when: Callable[[ToolEnv, dict[str, Any]], bool] | None = None   # a destructive call that would
    #                                      change nothing (cancelling a run that ended) needs no confirmation

    def needs_confirmation(self, env: ToolEnv, arguments: dict[str, Any]) -> bool:
        if not self.destructive:
            return False
        if self.harmless_when is None:
            return True
        try:
            return not self.harmless_when(env, arguments)
        except DevicePilotError:        # e.g. no such run: running it says so plainly
            return False

    @property
    def role(self) -> Role:
        rule = POLICY.get(self.endpoint)
        if not isinstance(rule, Role):
            raise ToolRefused(f"tool {self.name} follows {self.endpoint}, which has no role in the access policy")
        return rule

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False,
                "properties": {p.name: p.schema() for p in self.params},
                "required": [p.name for p in self.params if p.required]}

    def declaration(self) -> dict[str, Any]:
        """The OpenAI ``tools`` entry."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.schema()}}

    def validate(self, arguments: Any) -> dict[str, Any]:
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ToolRefused(f"{self.name}: arguments must be an object, not {type(arguments).__name__}")
        known = {p.name: p for p in self.params}
        unknown = sorted(set(arguments) - set(known))
        if unknown:
            raise ToolRefused(f"{self.name} has no parameter {', '.join(map(repr, unknown))}; "
                              f"its parameters are {', '.join(known) or 'none'}")
        out: dict[str, Any] = {}
        for p in self.params:
            value = arguments.get(p.name)
            if value is None or value == "":
                if p.required:
                    raise ToolRefused(f"{self.name} needs '{p.name}' ({p.description})")
                continue
            out[p.name] = p.check(self.name, value)
        return out

    def allowed_for(self, user: User) -> bool:
        return user.may(self.role)


REGISTRY: dict[str, Tool] = {}


def tool(name: str, description: str, *, endpoint: str, params: tuple[Param, ...] = (),
         destructive: bool = False, spends_llm: bool = False,
         harmless_when: Callable[[ToolEnv, dict[str, Any]], bool] | None = None) -> Callable[[Handler], Handler]:
    """Declare and register a tool (see the module's docstring)."""

    def register(fn: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"tool {name!r} is declared twice")
        REGISTRY[name] = Tool(name, description, endpoint, fn, params, destructive, spends_llm, harmless_when)
        return fn

    return register


def lookup(name: Any) -> Tool:
    if not isinstance(name, str) or name not in REGISTRY:
        raise ToolRefused(f"there is no tool {str(name)[:60]!r}; the tools are {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name]


def validate_call(name: Any, arguments: Any, call_id: str = "") -> ToolCall:
    """The one gate every call passes, from the LLM, its text, or the built-in translator."""
    found = lookup(name)
    return ToolCall(found.name, found.validate(arguments), call_id)


def tools_for(user: User) -> list[Tool]:
    """The tools *user*'s role may call (the only ones offered to the model)."""
    return [t for t in REGISTRY.values() if t.allowed_for(user)]


def run_call(env: ToolEnv, call: ToolCall) -> ToolResult:
    """Run *call* with the user's own rights; a refusal or a project error becomes a failed result."""
    found = lookup(call.tool)
    if not found.allowed_for(env.user):
        return ToolResult(call.tool, call.arguments, False,
                          f"{call.tool} needs the {found.role.label} role; {env.user.name} is a "
                          f"{env.user.role.label}", id=call.id)
    try:
        out = found.handler(env, call.arguments)
    except DevicePilotError as exc:
        log.info("assistant tool %s for %s refused: %s", call.tool, env.user.name, exc)
        return ToolResult(call.tool, call.arguments, False, str(exc), id=call.id)
    log.info("assistant tool %s for %s: %s", call.tool, env.user.name, out.summary[:200])
    audit = env.srv.extras.get("audit")
    if audit is not None:
        audit.append(f"assistant.{call.tool}", user=env.user.name, method="TOOL", path="/api/assistant/messages",
                     status=200, device=(out.devices[0] if len(out.devices) == 1 else ""),
                     run=(out.runs[0] if len(out.runs) == 1 else ""), arguments=call.arguments)
    return ToolResult(call.tool, call.arguments, True, out.summary, out.data, out.runs, out.devices, call.id)

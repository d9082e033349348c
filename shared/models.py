"""Domain models shared by server and hosts: contexts, plans, step results, statuses.

Everything that crosses the server↔host wire is one of these dataclasses,
serialised with ``to_dict``/``from_dict``.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from shared.commands import CommandKind, CommandSpec
from shared.policy import Limits
from shared.screen import ScreenObservation
from shared.vocabulary import CommandTable


class RunStatus(str, Enum):
    QUEUED = "queued"
    PLANNING = "planning"
    PLANNED = "planned"        # mode "plan": a plan and nothing run
    RUNNING = "running"
    PASSED = "passed"
    FAILED = "failed"          # the device did not behave
    ERROR = "error"            # the infrastructure broke
    INFEASIBLE = "infeasible"  # the device cannot do the task
    CANCELLED = "cancelled"    # a person (or the assistant) stopped it

    @property
    def finished(self) -> bool:
        return self in (RunStatus.PLANNED, RunStatus.PASSED, RunStatus.FAILED,
                        RunStatus.ERROR, RunStatus.INFEASIBLE, RunStatus.CANCELLED)

    def may_become(self, new: "RunStatus") -> bool:
        """The run's lifecycle, in one place: ``queued → planning (device reserved) → running → an end``."""
        return new in RUN_TRANSITIONS.get(self, frozenset())


_ENDS = frozenset({RunStatus.PASSED, RunStatus.FAILED, RunStatus.ERROR, RunStatus.CANCELLED})
RUN_TRANSITIONS: dict[RunStatus, frozenset[RunStatus]] = {
    RunStatus.QUEUED: frozenset({RunStatus.PLANNING, RunStatus.ERROR, RunStatus.CANCELLED}),
    # back to queued: the server restarted while planning, which nothing on the device saw
    RunStatus.PLANNING: frozenset({RunStatus.QUEUED, RunStatus.RUNNING, RunStatus.PLANNED, RunStatus.INFEASIBLE,
                                   RunStatus.ERROR, RunStatus.CANCELLED}),
    # infeasible while running: on screens no tree knew, the device is found unable only once it has looked
    RunStatus.RUNNING: _ENDS | {RunStatus.INFEASIBLE},
}


class StepStatus(str, Enum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"


class PlannerName(str, Enum):
    CACHE = "cache"
    LLM = "llm"
    BUILTIN = "builtin"
    TESTCASE = "testcase"
    USER = "user"


@dataclass(frozen=True)
class ElementInfo:
    """Something on a screen a task may name: 'the banner', 'Melody TV', 'the first result'."""

    name: str
    text: str = ""
    selector: str = ""
    many: bool = False
    opens: str = ""   # the node that selecting this element leads to, when it leads somewhere
    values: tuple[str, ...] = ()   # a setting's possible values, when the tree lists them: any other is refused

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "text": self.text, "selector": self.selector, "many": self.many}
        if self.opens:
            d["opens"] = self.opens
        if self.values:
            d["values"] = list(self.values)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ElementInfo":
        values = d.get("values") or ()
        if isinstance(values, str) or not all(isinstance(v, (str, int, float)) for v in values):
            raise ValueError(f"element {d.get('name')!r}: values must be a list of strings")
        return cls(str(d.get("name", "")), str(d.get("text", "") or ""), str(d.get("selector", "") or ""),
                   bool(d.get("many", False)), str(d.get("opens", "") or ""), tuple(str(v) for v in values))


@dataclass(frozen=True)
class NodeInfo:
    """A navigation node as AI Central sees it."""

    id: str
    label: str
    description: str = ""
    keywords: tuple[str, ...] = ()
    elements: tuple[ElementInfo, ...] = ()
    param: str = ""                  # a parameterised node ("movie detail for {name}"): goto takes param=
    items: tuple[str, ...] = ()      # the items it is known to show

    def to_dict(self) -> dict[str, Any]:
        d = {"id": self.id, "label": self.label, "description": self.description,
             "keywords": list(self.keywords), "elements": [e.to_dict() for e in self.elements]}
        if self.param:
            d["param"] = self.param
            d["items"] = list(self.items)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "NodeInfo":
        return cls(str(d["id"]), str(d.get("label", d["id"])), str(d.get("description", "") or ""),
                   tuple(d.get("keywords") or ()), tuple(ElementInfo.from_dict(e) for e in d.get("elements") or ()),
                   str(d.get("param") or ""), tuple(str(i) for i in d.get("items") or ()))


@dataclass(frozen=True)
class ExecutorContext:
    """What one executor (action, verification or navigation) tells AI Central."""

    kind: CommandKind
    commands: tuple[CommandSpec, ...] = ()
    nodes: tuple[NodeInfo, ...] = ()
    current_node: str | None = None
    entry_node: str | None = None
    # the nodes are every screen of the app (a tree written by hand): what none of them shows is not there.
    # An explored draft is not: the live screen and the screens steps lead to may have more
    complete: bool = True

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": self.kind.value, "commands": [c.to_dict() for c in self.commands],
             "nodes": [n.to_dict() for n in self.nodes], "current_node": self.current_node,
             "entry_node": self.entry_node}
        if not self.complete:
            d["complete"] = False
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ExecutorContext":
        return cls(CommandKind(d["kind"]), tuple(CommandSpec.from_dict(c) for c in d.get("commands", [])),
                   tuple(NodeInfo.from_dict(n) for n in d.get("nodes", [])), d.get("current_node"),
                   d.get("entry_node"), d.get("complete", True) is not False)


@dataclass(frozen=True)
class PlanningContext:
    """The three executor contexts of one device, as a planner receives them."""

    device_model: str
    userinterface: str
    action: ExecutorContext
    verification: ExecutorContext
    navigation: ExecutorContext
    current_node: str | None = None
    screen: ScreenObservation | None = None   # what the device shows now (never part of the fingerprint)

    @property
    def commands(self) -> dict[str, CommandSpec]:
        out: dict[str, CommandSpec] = {}
        for ctx in (self.action, self.verification, self.navigation):
            for spec in ctx.commands:
                out.setdefault(spec.name, spec)
        return CommandTable(out)  # old command names still answer "in" while planners switch over

    @property
    def nodes(self) -> dict[str, NodeInfo]:
        return {n.id: n for n in self.navigation.nodes}

    def fingerprint(self) -> str:
        """A stable hash of what the device can do (commands and nodes), for the plan cache."""
        payload = json.dumps(
            [self.device_model, self.userinterface,
             sorted((c.signature() for c in self.commands.values())),
             sorted(n.id for n in self.navigation.nodes)] + ([] if self.navigation.complete else ["open world"]),
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


@dataclass
class PlanStep:
    step: int
    command: str
    params: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    controller_type: str | None = None  # filled by validation from the context
    limits: Limits = field(default_factory=Limits)   # this step's timeout and retries (shared/policy.py)

    def to_dict(self) -> dict[str, Any]:
        d = {"step": self.step, "command": self.command, "params": dict(self.params),
             "description": self.description}
        if self.controller_type:
            d["controller_type"] = self.controller_type
        d.update(self.limits.to_dict())
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "PlanStep":
        limits = Limits.from_dict({k: d[k] for k in ("step_timeout", "max_retries") if d.get(k) is not None},
                                  f"step {d.get('step', '?')}")
        return cls(int(d.get("step", 0)), str(d["command"]), dict(d.get("params") or {}),
                   str(d.get("description", "") or ""), d.get("controller_type"), limits)


@dataclass
class Plan:
    """``{analysis, feasible, plan: [{step, command, params, description}]}`` plus validation notes."""

    analysis: str
    feasible: bool
    steps: list[PlanStep] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)      # validation notes: dropped steps and why
    planner: str = PlannerName.BUILTIN.value
    # clauses of the task to plan once these steps have run, against the screen the device
    # then shows (closed loop): their targets are on no screen known before
    pending: list[str] = field(default_factory=list)
    # an infeasible plan whose refused clause is a check ("verify Walk the dog is done", with no such todo):
    # once steps have run, the task has failed (what the tester expects is not there) rather than asked for
    # something the device cannot do
    refused_check: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = {"analysis": self.analysis, "feasible": self.feasible,
             "plan": [s.to_dict() for s in self.steps], "notes": list(self.notes),
             "planner": self.planner}
        if self.pending:
            d["pending"] = list(self.pending)
        if self.refused_check:
            d["refused_check"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Plan":
        pending = d.get("pending") or []
        return cls(str(d.get("analysis", "")), bool(d.get("feasible", False)),
                   [PlanStep.from_dict(s) for s in d.get("plan", [])], list(d.get("notes", [])),
                   str(d.get("planner", PlannerName.BUILTIN.value)),
                   [str(c) for c in pending] if isinstance(pending, list) else [],
                   d.get("refused_check") is True)


def _image_bytes(value: Any) -> bytes | None:
    """A step's screenshot as it crossed the wire: image bytes, or None for anything else (the step itself
    is kept; a screenshot that is not bytes is dropped with a warning rather than losing the step)."""
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    logging.getLogger(__name__).warning("a step's screenshot arrived as %s, not bytes: dropped",
                                        type(value).__name__)
    return None


@dataclass
class StepResult:
    """What the host reports for one executed step."""

    step: int
    command: str
    params: dict[str, Any]
    controller_type: str
    status: StepStatus
    message: str
    duration_ms: int
    description: str = ""
    screenshot: bytes | None = None      # PNG, JPEG or WebP bytes over the wire; a path once stored
    current_node: str | None = None

    @property
    def success(self) -> bool:
        return self.status is StepStatus.PASSED

    def to_wire(self) -> dict[str, Any]:
        return {"step": self.step, "command": self.command, "params": self.params,
                "controller_type": self.controller_type, "status": self.status.value,
                "message": self.message, "duration_ms": self.duration_ms,
                "description": self.description, "screenshot": self.screenshot,
                "current_node": self.current_node}

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> "StepResult":
        return cls(int(d["step"]), str(d["command"]), dict(d.get("params") or {}),
                   str(d.get("controller_type", "")), StepStatus(d["status"]), str(d.get("message", "")),
                   int(d.get("duration_ms", 0)), str(d.get("description", "")), _image_bytes(d.get("screenshot")),
                   d.get("current_node"))

"""The server↔host messages of a run, one dataclass each (event names: shared/protocol.py).

Each has ``to_wire()`` (a JSON-able dict for Socket.IO) and ``from_wire()``, which raises
``ValueError`` for a malformed message so the receiver can refuse it with a reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.models import Plan, RunStatus, StepResult
from shared.policy import Limits


def _obj(raw: Any, what: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"{what} must be an object")
    return raw


def _text(raw: dict[str, Any], key: str, what: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{what}.{key} must be non-empty text")
    return value


@dataclass(frozen=True)
class RunReport:
    """A run a host is executing, or whose events it has not had acknowledged (sent at registration)."""

    run_id: str
    device_id: str = ""
    steps_sent: int = 0

    def to_wire(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "device_id": self.device_id, "steps_sent": self.steps_sent}

    @classmethod
    def from_wire(cls, raw: Any) -> "RunReport":
        d = _obj(raw, "run report")
        sent = d.get("steps_sent", 0)
        return cls(_text(d, "run_id", "run report"), str(d.get("device_id") or ""),
                   sent if isinstance(sent, int) and not isinstance(sent, bool) else 0)


@dataclass(frozen=True)
class RunPlanRequest:
    """Server → host (``run_plan``): run these steps of a run on a device, within these limits."""

    run_id: str
    device_id: str
    plan: Plan
    run_limits: Limits = field(default_factory=Limits)
    server_limits: Limits = field(default_factory=Limits)

    def to_wire(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "device_id": self.device_id, "plan": self.plan.to_dict(),
                "limits": {"run": self.run_limits.to_dict(), "server": self.server_limits.to_dict()}}

    @classmethod
    def from_wire(cls, raw: Any) -> "RunPlanRequest":
        d = _obj(raw, "run_plan")
        limits = d.get("limits") or {}
        if not isinstance(limits, dict):
            raise ValueError("run_plan.limits must be an object {run, server}")
        return cls(_text(d, "run_id", "run_plan"), _text(d, "device_id", "run_plan"),
                   Plan.from_dict(_obj(d.get("plan"), "run_plan.plan")),
                   Limits.from_dict(limits.get("run"), "run limits"), Limits.from_dict(limits.get("server"),
                                                                                      "server limits"))


@dataclass(frozen=True)
class StepReport:
    """Host → server (``step_result``): one executed step of a run."""

    run_id: str
    step: StepResult

    def to_wire(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "step": self.step.to_wire()}

    @classmethod
    def from_wire(cls, raw: Any) -> "StepReport":
        d = _obj(raw, "step_result")
        try:
            step = StepResult.from_wire(_obj(d.get("step"), "step_result.step"))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"step_result.step is incomplete: {exc}") from None
        return cls(_text(d, "run_id", "step_result"), step)


@dataclass(frozen=True)
class RunFinished:
    """Host → server (``run_finished``): the end of the steps it was sent, and how many steps it sent in all."""

    run_id: str
    status: RunStatus
    message: str = ""
    current_node: str | None = None
    steps_sent: int | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "status": self.status.value, "message": self.message,
                "current_node": self.current_node, "steps_sent": self.steps_sent}

    @classmethod
    def from_wire(cls, raw: Any) -> "RunFinished":
        d = _obj(raw, "run_finished")
        try:
            status = RunStatus(d.get("status"))
        except ValueError:
            status = RunStatus.ERROR   # an end the server cannot read is an error, never a pass
        sent = d.get("steps_sent")
        node = d.get("current_node")
        return cls(_text(d, "run_id", "run_finished"), status, str(d.get("message") or ""),
                   node if isinstance(node, str) else None,
                   sent if isinstance(sent, int) and not isinstance(sent, bool) else None)


@dataclass(frozen=True)
class CancelRun:
    """Server → host (``cancel_run``): stop the run at its next step (``abort``: the server already ended it)."""

    run_id: str
    abort: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "abort": self.abort}

    @classmethod
    def from_wire(cls, raw: Any) -> "CancelRun":
        d = _obj(raw, "cancel_run")
        return cls(_text(d, "run_id", "cancel_run"), bool(d.get("abort")))


@dataclass(frozen=True)
class Ack:
    """The server's acknowledgement of a host event: kept (``ok``), or the run must stop there (``abort``)."""

    ok: bool
    abort: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {"ok": self.ok, "abort": self.abort}

    @classmethod
    def from_wire(cls, raw: Any) -> "Ack":
        d = raw if isinstance(raw, dict) else {}
        return cls(bool(d.get("ok")), bool(d.get("abort")))

"""A device at run time: its three executors, and the running of a plan step by step.

For each step the runtime asks the executors — and through them the device's
controllers — which one provides the command (dynamic controller-type
detection: there is no command→controller table). A step that raises
:class:`DeviceFailure` ends the run ``failed``; an :class:`InfraError` (or any
unexpected exception) ends it ``error``.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from backend_core.device import Device
from backend_core.executors import ActionExecutor, NavigationExecutor, VerificationExecutor
from backend_core.verifications.common import safe_screenshot
from shared.commands import CommandKind
from shared.errors import DeviceFailure, InfraError, RequestError, UnknownCommand
from shared.models import ExecutorContext, Plan, PlanStep, RunStatus, StepResult, StepStatus

log = logging.getLogger(__name__)

StepCallback = Callable[[StepResult], None]


@dataclass(frozen=True)
class RunOutcome:
    status: RunStatus
    message: str
    current_node: str | None = None


class DeviceRuntime:
    def __init__(self, device: Device) -> None:
        self.device = device
        self.actions = ActionExecutor(device)
        self.verifications = VerificationExecutor(device)
        self.navigation = NavigationExecutor(device.tree, self.actions, self.verifications)
        self.lock = threading.Lock()

    @property
    def executors(self) -> dict[CommandKind, Any]:
        return {CommandKind.ACTION: self.actions, CommandKind.VERIFICATION: self.verifications,
                CommandKind.NAVIGATION: self.navigation}

    def context(self, kind: CommandKind) -> ExecutorContext:
        return self.executors[kind].get_available_context(self.device.model, self.device.userinterface)

    def executor_for(self, command: str) -> Any:
        for executor in self.executors.values():
            if executor.provides(command):
                return executor
        raise UnknownCommand(f"device {self.device.id!r} has no controller providing {command!r}")

    def screenshot(self) -> bytes | None:
        return safe_screenshot(self.device.screen)

    def execute_step(self, step: PlanStep, *, with_screenshot: bool = True) -> tuple[StepResult, Exception | None]:
        """Run one step; never raises. Returns the result and the exception that ended it, if any."""
        start = time.monotonic()
        controller_type = step.controller_type or ""
        error: Exception | None = None
        shot: bytes | None = None
        try:
            executor = self.executor_for(step.command)
            controller_type, message = executor.execute(step.command, step.params)
            status = StepStatus.PASSED
        except DeviceFailure as exc:
            status, message, error, shot = StepStatus.FAILED, str(exc), exc, exc.screenshot
        except (InfraError, RequestError) as exc:
            status, message, error = StepStatus.ERROR, str(exc), exc
        except Exception as exc:  # an unexpected bug must end the run as an error, not kill the host
            log.exception("step %d (%s) raised", step.step, step.command)
            status, message, error = StepStatus.ERROR, f"{type(exc).__name__}: {exc}", exc
        if status is StepStatus.PASSED and controller_type not in ("navigation", "verification"):
            self._refresh_node()
        if with_screenshot and shot is None and status is not StepStatus.ERROR:
            shot = self.screenshot()
        duration_ms = int((time.monotonic() - start) * 1000)
        log.info("step %d %s %s (%d ms): %s", step.step, step.command, status.value, duration_ms, message)
        return StepResult(step.step, step.command, dict(step.params), controller_type, status, message,
                          duration_ms, step.description, shot, self.navigation.current_node), error

    def _refresh_node(self) -> None:
        """An action may have moved the device to another screen: find out which, cheaply."""
        try:
            self.navigation.refresh()
        except Exception as exc:  # locating is best effort; the next goto locates again
            log.debug("could not re-locate after an action: %s", exc)
            self.navigation.current_node = None

    def run_plan(self, plan: Plan, on_step: StepCallback, cancel: threading.Event | None = None) -> RunOutcome:
        """Run *plan* step by step, calling *on_step* after each; stop at the first failure or error."""
        with self.lock:
            for step in plan.steps:
                if cancel is not None and cancel.is_set():
                    return RunOutcome(RunStatus.ERROR, "run cancelled", self.navigation.current_node)
                result, error = self.execute_step(step)
                on_step(result)
                if result.status is StepStatus.FAILED:
                    return RunOutcome(RunStatus.FAILED, f"step {step.step} failed: {result.message}",
                                      self.navigation.current_node)
                if result.status is StepStatus.ERROR:
                    if isinstance(error, InfraError):
                        self.navigation.current_node = None  # after a crash, where we are is unknown
                    return RunOutcome(RunStatus.ERROR, f"step {step.step} error: {result.message}",
                                      self.navigation.current_node)
            return RunOutcome(RunStatus.PASSED, f"{len(plan.steps)} step(s) passed", self.navigation.current_node)

    def close(self) -> None:
        self.device.close()


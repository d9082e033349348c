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
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from backend_core.controllers.base import transcode
from backend_core.device import Device
from backend_core.executors import ActionExecutor, NavigationExecutor, VerificationExecutor
from backend_core.verifications.common import safe_screenshot
from shared.commands import CommandKind
from shared.errors import DeviceFailure, InfraError, RequestError, UnknownCommand
from shared.models import ExecutorContext, Plan, PlanStep, RunStatus, StepResult, StepStatus
from shared.policy import Limits, StepPolicy
from shared.screenshots import ImageFormat, ScreenshotPolicy, ShotReason

log = logging.getLogger(__name__)

StepCallback = Callable[[StepResult], None]


@dataclass(frozen=True)
class RunOutcome:
    status: RunStatus
    message: str
    current_node: str | None = None


class StepTimedOut(InfraError):
    """A step ran past its timeout (shared/policy.py): the device or its controller stopped answering."""


class DeviceRuntime:
    def __init__(self, device: Device, limits: tuple[Limits, ...] = (),
                 shots: ScreenshotPolicy | None = None) -> None:
        self.device = device
        self.limits = limits   # the device's, then its host's (shared/policy.py cascade)
        self.shots = shots or ScreenshotPolicy()   # when a run's step carries a screenshot (shared/screenshots.py)
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

    def policy(self, step: PlanStep, run: tuple[Limits, ...] = ()) -> StepPolicy:
        """Step → run → command declaration → device → host → server (the last of *run*) → built-in."""
        run_level, server_level = (run[0], run[1:]) if run else (Limits(), ())
        spec = next((c for kind in (CommandKind.ACTION, CommandKind.VERIFICATION)
                     for c in self.device.commands(kind) if c.name == step.command), None)
        declared = Limits(spec.timeout_s) if spec is not None and spec.timeout_s is not None else Limits()
        wait = step.params.get("timeout")
        return StepPolicy.cascade(step.limits, run_level, declared, *self.limits, *server_level,
                                  wait_timeout=float(wait) if isinstance(wait, (int, float))
                                  and not isinstance(wait, bool) else None)

    def _bounded(self, step: PlanStep, timeout_s: float) -> tuple[str, str]:
        """Run the step's command, waiting at most *timeout_s*; past it, the step is an error."""
        executor = self.executor_for(step.command)
        done: dict[str, Any] = {}
        finished = threading.Event()

        def work() -> None:
            try:
                done["value"] = executor.execute(step.command, step.params)
            except BaseException as exc:  # handed to the run's thread below
                done["error"] = exc
            finally:
                finished.set()

        threading.Thread(target=work, name=f"step-{step.step}", daemon=True).start()
        if not finished.wait(timeout_s):
            self.navigation.forget()   # where the device is now is unknown
            raise StepTimedOut(f"{step.command} did not finish within its {timeout_s:g} s timeout (set "
                               "step_timeout on the step, the run, the device or the host to change it)")
        if "error" in done:
            raise done["error"]
        return done["value"]

    def execute_step(self, step: PlanStep, *, with_screenshot: bool = True, limits: tuple[Limits, ...] = (),
                     locate: bool = True) -> tuple[StepResult, Exception | None]:
        """Run one step, retrying errors (never failures) as its policy allows; never raises.

        Returns the result and the exception that ended it, if any. *limits* are the run's and
        the server's levels of the cascade (shared/policy.py). *locate*: after an action, find out
        which screen it led to now; without it, the device is located at the next need (a goto, the
        end of the run, the server's next plan) and the result's node is None.
        """
        policy = self.policy(step, limits)
        attempt = 0
        while True:
            result, error = self._execute_once(step, with_screenshot, policy, locate)
            if result.status is not StepStatus.ERROR or attempt >= policy.max_retries \
                    or isinstance(error, UnknownCommand):
                if attempt:
                    result.message += f" (after {attempt} retr{'y' if attempt == 1 else 'ies'})"
                return result, error
            attempt += 1
            log.warning("step %d (%s) error, retry %d of %d: %s", step.step, step.command, attempt,
                        policy.max_retries, result.message)
            time.sleep(min(2.0, 0.25 * 2 ** attempt))

    def _execute_once(self, step: PlanStep, with_screenshot: bool, policy: StepPolicy,
                      locate: bool = True) -> tuple[StepResult, Exception | None]:
        start = time.monotonic()
        controller_type = step.controller_type or ""
        error: Exception | None = None
        shot: bytes | None = None
        try:
            controller_type, message = self._bounded(step, policy.timeout_s)
            status = StepStatus.PASSED
        except DeviceFailure as exc:
            status, message, error, shot = StepStatus.FAILED, str(exc), exc, exc.screenshot
        except (InfraError, RequestError) as exc:
            status, message, error = StepStatus.ERROR, str(exc), exc
        except Exception as exc:  # an unexpected bug must end the run as an error, not kill the host
            log.exception("step %d (%s) raised", step.step, step.command)
            status, message, error = StepStatus.ERROR, f"{type(exc).__name__}: {exc}", exc
        if status is StepStatus.PASSED and controller_type not in ("navigation", "verification"):
            if locate:
                self._refresh_node()
            else:
                self.navigation.mark_moved()
        if shot is None and (status is StepStatus.FAILED or with_screenshot and status is StepStatus.PASSED):
            shot = self.screenshot()   # a failure always carries its evidence
        duration_ms = int((time.monotonic() - start) * 1000)
        log.info("step %d %s %s (%d ms): %s", step.step, step.command, status.value, duration_ms, message)
        return StepResult(step.step, step.command, dict(step.params), controller_type, status, message,
                          duration_ms, step.description, shot, self.navigation.known_node), error

    def located(self) -> str | None:
        """The node the device is on, located now if an action since the last check may have moved it."""
        if self.navigation.moved:
            self._refresh_node()
        return self.navigation.current_node

    def _refresh_node(self) -> None:
        """An action may have moved the device to another screen: find out which, cheaply."""
        try:
            self.navigation.refresh()
        except Exception as exc:  # locating is best effort; the next goto locates again
            log.debug("could not re-locate after an action: %s", exc)
            self.navigation.forget()

    def run_plan(self, plan: Plan, on_step: StepCallback, cancel: threading.Event | None = None,
                 limits: tuple[Limits, ...] = ()) -> RunOutcome:
        """Run *plan* step by step, calling *on_step* after each; stop at the first failure or error.

        Screenshots follow :attr:`shots`. Each result is handed, in order, to a delivery thread that
        encodes its screenshot and calls *on_step*, so the next step does not wait for the encoder;
        every result has been delivered when this returns.
        """
        with self.lock, ThreadPoolExecutor(max_workers=1, thread_name_prefix="step-delivery") as delivery:
            delivered: list[Future[None]] = []
            try:
                return self._run_steps(plan, cancel, limits,
                                       lambda result, reason: delivered.append(
                                           delivery.submit(self._deliver, result, reason, on_step)))
            finally:
                for future in delivered:
                    future.result()   # a callback's exception is the caller's, as it would be inline

    def _run_steps(self, plan: Plan, cancel: threading.Event | None, limits: tuple[Limits, ...],
                   deliver: Callable[[StepResult, ShotReason | None], Any]) -> RunOutcome:
        # an action's screen is located only where it is needed: by a goto (which checks where it
        # starts), after the last step, and where the run ends early
        for index, step in enumerate(plan.steps, 1):
            if cancel is not None and cancel.is_set():
                return RunOutcome(RunStatus.ERROR, "run cancelled", self.located())
            last = index == len(plan.steps)
            reason = self.shots.reason(index, last=last, verification=self.verifications.provides(step.command))
            result, error = self.execute_step(step, with_screenshot=reason is not None, limits=limits, locate=last)
            deliver(result, ShotReason.FAILURE if result.status is StepStatus.FAILED else reason)
            if result.status is StepStatus.FAILED:
                return RunOutcome(RunStatus.FAILED, f"step {step.step} failed: {result.message}", self.located())
            if result.status is StepStatus.ERROR:
                if isinstance(error, InfraError):
                    self.navigation.forget()  # after a crash, where we are is unknown
                return RunOutcome(RunStatus.ERROR, f"step {step.step} error: {result.message}", self.located())
        return RunOutcome(RunStatus.PASSED, f"{len(plan.steps)} step(s) passed", self.located())

    def _deliver(self, result: StepResult, reason: ShotReason | None, on_step: StepCallback) -> None:
        """Encode the step's screenshot as the policy says (a failure's stays PNG), then report the step."""
        if result.screenshot and reason is not ShotReason.FAILURE and self.shots.format is not ImageFormat.PNG:
            try:
                result.screenshot = transcode(result.screenshot, self.shots.format, self.shots.quality)
            except Exception as exc:  # the PNG is still a screenshot: keep it
                log.warning("step %d: screenshot kept as PNG, could not encode it as %s: %s",
                            result.step, self.shots.format.value, exc)
        on_step(result)

    def close(self) -> None:
        self.device.close()


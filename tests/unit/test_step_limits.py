"""Step timeouts and retries: the cascade step → run → command → device → host → server, enforced for real."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from backend_core.controllers.base import RemoteController
from backend_core.device import Device
from backend_core.runtime import DeviceRuntime
from host.config import HostConfig
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, ControllerError, DeviceFailure, RequestError
from shared.models import Plan, PlanStep, RunStatus, StepStatus
from shared.policy import DEFAULT_STEP_TIMEOUT_S, Limits, StepPolicy


class Flaky(RemoteController):
    """Hangs, breaks (infrastructure) or fails (the device did not behave) on demand."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}
        self.release = threading.Event()

    def _count(self, name: str) -> int:
        self.calls[name] = self.calls.get(name, 0) + 1
        return self.calls[name]

    @command("Hang until released")
    def hang(self) -> str:
        self._count("hang")
        self.release.wait(30)
        return "released"

    @command("Break the first N calls, then work", P("times", ParamType.INT, default=1))
    def break_then_work(self, times: int) -> str:
        if self._count("break") <= times:
            raise ControllerError("adb: device offline")
        return "worked"

    @command("Never behave")
    def misbehave(self) -> str:
        self._count("misbehave")
        raise DeviceFailure("the screen did not change")

    @command("Quick, with a long declared timeout", timeout_s=120)
    def slow_by_design(self) -> str:
        return "ok"


@pytest.fixture
def flaky() -> Flaky:
    return Flaky()


def runtime(flaky: Flaky, *limits: Limits) -> DeviceRuntime:
    return DeviceRuntime(Device("d1", "D", "m", "ui", [flaky]), tuple(limits))


def test_the_cascade_takes_the_most_specific_level() -> None:
    assert StepPolicy.cascade() == StepPolicy(DEFAULT_STEP_TIMEOUT_S, 0)
    assert StepPolicy.cascade(Limits(), Limits(5, None), Limits(9, 2)) == StepPolicy(5, 2)
    assert StepPolicy.cascade(Limits(5), wait_timeout=20).timeout_s == 25   # a wait's own timeout is honoured


def test_step_run_command_device_host_server_in_that_order(flaky: Flaky) -> None:
    rt = runtime(flaky, Limits(7), Limits(8, 1))               # device, then host
    step = PlanStep(1, "slow_by_design")
    assert rt.policy(step) == StepPolicy(120, 1)                 # the declaration beats the device
    assert rt.policy(step, (Limits(3), Limits(99))) == StepPolicy(3, 1)          # the run beats the declaration
    assert rt.policy(PlanStep(1, "hang", limits=Limits(2, 0)), (Limits(3), )) == StepPolicy(2, 0)  # the step
    assert rt.policy(PlanStep(1, "hang"), (Limits(), Limits(44, 3))) == StepPolicy(7, 1)           # device
    assert runtime(flaky).policy(PlanStep(1, "hang"), (Limits(), Limits(44, 3))) == StepPolicy(44, 3)  # server


def test_a_hung_step_is_an_error_after_its_timeout(flaky: Flaky) -> None:
    rt = runtime(flaky)
    began = time.monotonic()
    outcome = rt.run_plan(Plan("x", True, [PlanStep(1, "hang", limits=Limits(0.5)), PlanStep(2, "hang")]),
                          lambda r: None)
    took = time.monotonic() - began
    flaky.release.set()
    assert outcome.status is RunStatus.ERROR and "within its 0.5 s timeout" in outcome.message
    assert took < 3 and flaky.calls["hang"] == 1                # the run stopped at the hung step


def test_errors_are_retried_and_failures_never(flaky: Flaky) -> None:
    rt = runtime(flaky)
    result, _ = rt.execute_step(PlanStep(1, "break_then_work", {"times": 2}, limits=Limits(max_retries=2)))
    assert result.status is StepStatus.PASSED and "after 2 retries" in result.message
    flaky.calls.clear()
    result, _ = rt.execute_step(PlanStep(1, "break_then_work", {"times": 5}, limits=Limits(max_retries=1)))
    assert result.status is StepStatus.ERROR and flaky.calls["break"] == 2
    result, _ = rt.execute_step(PlanStep(1, "misbehave", limits=Limits(max_retries=3)))
    assert result.status is StepStatus.FAILED and flaky.calls["misbehave"] == 1


def test_limits_are_validated_where_they_are_given(tmp_path: Path) -> None:
    with pytest.raises(RequestError, match="max_retries must be a whole number from 0 to 5"):
        Limits.from_dict({"max_retries": 9})
    with pytest.raises(RequestError, match="step_timeout must be seconds"):
        PlanStep.from_dict({"step": 1, "command": "x", "step_timeout": -1})
    assert PlanStep.from_dict({"step": 1, "command": "x", "step_timeout": 4}).to_dict()["step_timeout"] == 4
    raw = {"host": {"id": "h", "limits": {"step_timeout": 12}},
           "devices": [{"id": "d", "controllers": [{"type": "x"}], "limits": {"max_retries": 2}}]}
    config = HostConfig.from_dict(raw, tmp_path)
    assert config.limits == Limits(12) and config.devices[0].limits == Limits(None, 2)
    raw["devices"][0]["limits"] = {"retries": 2}
    with pytest.raises(ConfigError, match="devices.0. .d..limits: unknown key"):
        HostConfig.from_dict(raw, tmp_path)

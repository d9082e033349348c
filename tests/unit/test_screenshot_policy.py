"""Screenshots where they are useful: checks, failures, each plan's end and a cadence, in a compact format.

A real runtime runs real plans against a screen that renders a real PNG (OpenCV); the
test reads which steps came back with which image format, and on which thread.
"""
from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from backend_core.controllers.base import RemoteController, ScreenController, VerificationController
from backend_core.device import Device
from backend_core.runtime import DeviceRuntime
from host.config import HostConfig
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, DeviceFailure, RequestError
from shared.models import Plan, PlanStep, RunStatus, StepResult
from shared.screenshots import ImageFormat, ScreenshotPolicy, ShotReason, sniff


class Canvas(ScreenController):
    """A 640×360 screen whose colour each press changes; counts its captures."""

    def __init__(self) -> None:
        self.shade = 0
        self.captures = 0

    def screenshot(self) -> bytes:
        self.captures += 1
        image = np.full((360, 640, 3), self.shade % 256, dtype=np.uint8)
        cv2.putText(image, f"screen {self.shade}", (40, 180), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
        return cv2.imencode(".png", image)[1].tobytes()


class Pad(RemoteController):
    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas

    @command("Press a key", P("key", ParamType.STRING))
    def press_key(self, key: str) -> str:
        self.canvas.shade += 40
        return key


class Checks(VerificationController):
    @command("Pass or fail on demand", P("ok", ParamType.BOOL, default=True))
    def check_screen(self, ok: bool = True) -> str:
        if not ok:
            raise DeviceFailure("the screen is not the one asked for")
        return "as expected"


def runtime(policy: ScreenshotPolicy | None = None) -> tuple[DeviceRuntime, Canvas]:
    canvas = Canvas()
    device = Device("d1", "D", "m", "ui", [canvas, Pad(canvas), Checks()])
    return DeviceRuntime(device, shots=policy), canvas


def plan(*commands: str, fail_check: bool = False) -> Plan:
    steps = [PlanStep(i, c, {"key": "DOWN"} if c == "press_key" else {"ok": not fail_check})
             for i, c in enumerate(commands, 1)]
    return Plan("t", True, steps)


def formats(steps: list[StepResult]) -> list[ImageFormat | None]:
    return [sniff(s.screenshot) if s.screenshot else None for s in steps]


def test_by_default_only_checks_and_the_end_carry_a_compact_screenshot() -> None:
    rt, canvas = runtime()
    steps: list[StepResult] = []
    outcome = rt.run_plan(plan("press_key", "press_key", "check_screen", "press_key", "press_key"), steps.append)
    assert outcome.status is RunStatus.PASSED
    assert formats(steps) == [None, None, ImageFormat.JPEG, None, ImageFormat.JPEG]
    assert canvas.captures == 2   # the three other steps cost no capture at all
    decoded = cv2.imdecode(np.frombuffer(steps[-1].screenshot or b"", np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (360, 640, 3)   # the whole screen, not a thumbnail


def test_a_failure_always_carries_lossless_evidence() -> None:
    rt, _ = runtime(ScreenshotPolicy(format=ImageFormat.WEBP))
    steps: list[StepResult] = []
    outcome = rt.run_plan(plan("press_key", "check_screen", "press_key", fail_check=True), steps.append)
    assert outcome.status is RunStatus.FAILED and len(steps) == 2
    assert formats(steps) == [None, ImageFormat.PNG]


def test_a_cadence_adds_every_nth_step_and_png_keeps_everything_lossless() -> None:
    rt, _ = runtime(ScreenshotPolicy(every=2, format=ImageFormat.WEBP, quality=50))
    steps: list[StepResult] = []
    rt.run_plan(plan(*["press_key"] * 5), steps.append)
    assert formats(steps) == [None, ImageFormat.WEBP, None, ImageFormat.WEBP, ImageFormat.WEBP]
    rt, _ = runtime(ScreenshotPolicy(every=1, format=ImageFormat.PNG))
    steps.clear()
    rt.run_plan(plan("press_key", "press_key"), steps.append)
    assert formats(steps) == [ImageFormat.PNG, ImageFormat.PNG]


def test_steps_are_delivered_in_order_off_the_run_thread_and_all_before_the_outcome() -> None:
    rt, _ = runtime(ScreenshotPolicy(every=1))
    seen: list[tuple[int, str]] = []
    outcome = rt.run_plan(plan(*["press_key"] * 6), lambda s: seen.append((s.step, threading.current_thread().name)))
    assert outcome.status is RunStatus.PASSED
    assert [step for step, _ in seen] == [1, 2, 3, 4, 5, 6]
    assert all(name.startswith("step-delivery") for _, name in seen)


def test_a_failing_step_callback_still_reaches_the_caller() -> None:
    rt, _ = runtime()

    def broken(_: StepResult) -> None:
        raise ConnectionError("the link to the server is gone")

    with pytest.raises(ConnectionError):
        rt.run_plan(plan("press_key"), broken)
    assert rt.lock.acquire(blocking=False)   # and the device is free again


@pytest.mark.parametrize(("index", "last", "verification", "every", "reason"), [
    (1, False, False, 0, None), (3, True, False, 0, ShotReason.END), (2, False, True, 0, ShotReason.VERIFICATION),
    (4, False, False, 2, ShotReason.CADENCE), (3, False, False, 2, None)])
def test_reason(index: int, last: bool, verification: bool, every: int, reason: ShotReason | None) -> None:
    assert ScreenshotPolicy(every=every).reason(index, last=last, verification=verification) is reason


@pytest.mark.parametrize(("raw", "message"), [
    ({"every": -1}, "every must be"), ({"quality": 0}, "quality must be"), ({"format": "gif"}, "format must be"),
    ({"cadence": 3}, "unknown key"), ("often", "must be a mapping")])
def test_bad_settings_say_what_to_fix(raw: object, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        ScreenshotPolicy.from_dict(raw)


def test_host_config_sets_it_per_host_and_per_device(tmp_path: Path) -> None:
    raw = {"host": {"id": "h1", "screenshots": {"every": 5, "format": "webp", "quality": 60}},
           "devices": [{"id": "a", "controllers": [{"type": "x"}]},
                       {"id": "b", "controllers": [{"type": "x"}], "screenshots": {"format": "jpg"}}]}
    config = HostConfig.from_dict(raw, tmp_path)
    assert config.screenshots == ScreenshotPolicy(5, ImageFormat.WEBP, 60)
    assert config.devices[0].screenshots is None and config.devices[1].screenshots == ScreenshotPolicy()
    raw["devices"][1]["screenshots"] = {"format": "bmp"}
    with pytest.raises(ConfigError, match=r"devices\[1\] \(b\).screenshots.format"):
        HostConfig.from_dict(raw, tmp_path)

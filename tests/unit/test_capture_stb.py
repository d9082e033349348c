"""An IR set-top box seen through a capture: irsend shim → the box redraws → ffmpeg → OCR and video checks,
and a plain-language task planned by the built-in planner and run on it."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from backend_core.runtime import DeviceRuntime
from host.config import HostConfig
from host.lab import Lab
from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from shared.commands import CommandKind
from shared.models import PlanningContext, RunStatus, StepResult
from shared.vocabulary import canonical
from tests.fakes import FIXTURES, FakeIrsend

STB_CONFIG = FIXTURES / "stb" / "stb-host.yaml"


@pytest.fixture
def stb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[DeviceRuntime, FakeIrsend]]:
    fake = FakeIrsend(tmp_path)
    for name, value in fake.env(frame=tmp_path / "frame.png").items():
        monkeypatch.setenv(name, value)
    subprocess.run(["irsend", "SEND_ONCE", "stb", "KEY_MENU"], check=True, timeout=30)  # the box shows its menu
    lab = Lab.build(HostConfig.load(STB_CONFIG))
    try:
        yield lab.runtime("stb-1"), fake
    finally:
        lab.close()


def run(rt: DeviceRuntime, command: str, **params: object) -> str:
    return rt.executor_for(command).execute(command, params)[1]


def test_keys_change_what_the_capture_shows(stb: tuple[DeviceRuntime, FakeIrsend]) -> None:
    rt, fake = stb
    run(rt, "wait_for_text", text="Live TV", timeout=5)
    run(rt, "press_key", key="OK")
    run(rt, "wait_for_text", text="Aurora News", area="0,0.7,1,0.3", timeout=5)
    run(rt, "press_key", key="CHANNEL_UP")
    run(rt, "wait_for_text", text="2 Boreal Sports", timeout=5)
    run(rt, "press_key", key="POWER")
    assert run(rt, "wait_for_black_screen", timeout=5).startswith("screen is black")
    run(rt, "press_key", key="POWER")
    run(rt, "wait_for_black_screen", present=False, timeout=5)
    assert fake.calls()[-4:] == [["SEND_ONCE", "stb", "KEY_OK"], ["SEND_ONCE", "stb", "KEY_CHANNELUP"],
                                 ["SEND_ONCE", "stb", "KEY_POWER"], ["SEND_ONCE", "stb", "KEY_POWER"]]


def test_channel_task_is_planned_and_passes(stb: tuple[DeviceRuntime, FakeIrsend]) -> None:
    rt, fake = stb
    ctx = PlanningContext("fake-stb", "fake-stb", rt.context(CommandKind.ACTION),
                          rt.context(CommandKind.VERIFICATION), rt.context(CommandKind.NAVIGATION))
    plan = BuiltinPlanner().plan(PlanRequest("go to live TV, switch to channel 5 and check the banner shows "
                                             "Melody TV", ctx))
    assert plan.feasible, plan.analysis
    # whichever spelling the planner uses, it is the same check (old names map to the canonical ones)
    assert [canonical(s.command)[0] for s in plan.steps] == ["goto", "press_key", "wait_for_text"]
    assert [plan.steps[0].params["node"], plan.steps[1].params["key"], plan.steps[2].params["text"]] == \
        ["live", "DIGIT_5", "Melody TV"]
    steps: list[StepResult] = []
    outcome = rt.run_plan(plan, steps.append)
    assert outcome.status is RunStatus.PASSED, [s.message for s in steps]
    assert ["SEND_ONCE", "stb", "KEY_5"] in fake.calls()
    # screenshots where they are useful (the check, the end), in the compact default format
    assert [s.screenshot[:3] if s.screenshot else None for s in steps] == [None, None, b"\xff\xd8\xff"]

"""The run's server↔host messages: one dataclass each, a round trip through the wire, and clear refusals."""
from __future__ import annotations

import pytest

from shared.messages import Ack, CancelRun, RunFinished, RunPlanRequest, RunReport, StepReport
from shared.models import Plan, PlanStep, RunStatus, StepResult, StepStatus
from shared.policy import Limits


@pytest.mark.parametrize("message", [
    RunReport("0123456789ab", "tv-1", 3),
    RunPlanRequest("0123456789ab", "tv-1", Plan("a", True, [PlanStep(1, "goto", {"node": "home"})]), Limits(5), Limits(30, 1)),
    StepReport("0123456789ab", StepResult(1, "goto", {"node": "home"}, "navigation", StepStatus.PASSED, "ok", 12)),
    RunFinished("0123456789ab", RunStatus.FAILED, "step 2 failed", "home", 2),
    CancelRun("0123456789ab", abort=True),
    Ack(True),
])
def test_each_message_survives_the_wire(message: object) -> None:
    again = type(message).from_wire(message.to_wire())  # type: ignore[attr-defined]
    assert again.to_wire() == message.to_wire()  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls,raw,expected", [
    (RunPlanRequest, {"run_id": "r", "device_id": "d"}, "run_plan.plan must be an object"),
    (RunPlanRequest, {"device_id": "d", "plan": {}}, "run_plan.run_id must be non-empty text"),
    (StepReport, {"run_id": "r", "step": {"step": 1}}, "step_result.step is incomplete"),
    (CancelRun, ["r"], "cancel_run must be an object"),
    (RunReport, {"device_id": "d"}, "run report.run_id"),
])
def test_a_malformed_message_is_refused_with_a_reason(cls: type, raw: object, expected: str) -> None:
    with pytest.raises(ValueError, match=None) as err:
        cls.from_wire(raw)
    assert expected in str(err.value)


def test_an_unreadable_end_is_an_error_never_a_pass() -> None:
    assert RunFinished.from_wire({"run_id": "r", "status": "PASSED!"}).status is RunStatus.ERROR
    assert Ack.from_wire(None) == Ack(False)


def test_a_step_whose_screenshot_is_not_bytes_keeps_the_step_and_drops_the_picture() -> None:
    wire = StepResult(2, "click_element", {"text": "OK"}, "web", StepStatus.PASSED, "clicked", 12,
                      screenshot=b"\x89PNG....").to_wire()
    assert StepResult.from_wire(wire).screenshot == b"\x89PNG...."
    assert StepResult.from_wire({**wire, "screenshot": bytearray(b"\xff\xd8\xff..")}).screenshot == b"\xff\xd8\xff.."
    kept = StepResult.from_wire({**wire, "screenshot": "runs/abc/step-002.png"})
    assert kept.screenshot is None and (kept.step, kept.status, kept.message) == (2, StepStatus.PASSED, "clicked")

"""Every plan is validated against the context: nothing outside it can run."""
from __future__ import annotations

from shared.models import Plan, PlanStep
from shared.plan import MAX_STEPS, validate_plan
from tests.unit.conftest import demo_context


def make(*steps: tuple[str, dict]) -> Plan:
    return Plan("test", True, [PlanStep(i + 1, c, p) for i, (c, p) in enumerate(steps)])


def test_valid_steps_are_kept_renumbered_and_typed() -> None:
    ctx = demo_context()
    p = validate_plan(make(("goto", {"node": "Live TV"}), ("press_key", {"key": "enter", "repeat": "2"})), ctx)
    assert p.feasible and p.notes == []
    assert [(s.step, s.command, s.params, s.controller_type) for s in p.steps] == [
        (1, "goto", {"node": "live"}, "navigation"),
        (2, "press_key", {"key": "OK", "repeat": 2}, "remote"),
    ]


def test_unknown_command_is_dropped_with_the_reason() -> None:
    p = validate_plan(make(("format_device", {}), ("goto", {"node": "home"})), demo_context())
    assert [s.command for s in p.steps] == ["goto"]
    assert any("unknown command 'format_device'" in n for n in p.notes)


def test_unknown_node_is_dropped() -> None:
    p = validate_plan(make(("goto", {"node": "weather"})), demo_context())
    assert not p.feasible and p.steps == []
    assert any("unknown navigation node 'weather'" in n for n in p.notes)


def test_unknown_parameter_is_dropped_but_the_step_kept() -> None:
    p = validate_plan(make(("press_key", {"key": "OK", "force": True})), demo_context())
    assert p.steps[0].params == {"key": "OK"}
    assert any("unknown parameter 'force'" in n for n in p.notes)


def test_bad_types_ranges_and_missing_params_drop_the_step() -> None:
    ctx = demo_context()
    bad = [
        ("press_key", {"key": "TELEPORT"}),
        ("press_key", {"key": "OK", "repeat": 1000}),
        ("press_key", {"key": "OK", "repeat": "many"}),
        ("tap", {"x": 2.5, "y": 0.5}),
        ("input_text", {}),
        ("waitForTextToAppear", {"text": "x", "timeout": "soon"}),
        ("click_element", {"index": -51}),
    ]
    p = validate_plan(make(*bad), ctx)
    assert p.steps == [] and not p.feasible
    assert len(p.notes) == len(bad)


def test_camel_and_snake_case_spellings_resolve_to_the_declared_name() -> None:
    p = validate_plan(make(("WaitForElement", {"selector": "#x"}), ("PressKey", {"key": "UP"}),
                           ("waitForElementToDisappear", {"selector": "#y"})), demo_context())
    assert [s.command for s in p.steps] == ["wait_for_element", "press_key", "wait_for_element"]
    assert p.steps[2].params == {"selector": "#y", "present": False}


def test_step_cap() -> None:
    p = validate_plan(make(*[("press_key", {"key": "UP"})] * (MAX_STEPS + 5)), demo_context())
    assert len(p.steps) == MAX_STEPS
    assert any("cut at" in n for n in p.notes)


def test_an_infeasible_plan_stays_infeasible_with_no_steps() -> None:
    p = validate_plan(Plan("cannot", False, [PlanStep(1, "goto", {"node": "home"})]), demo_context())
    assert not p.feasible and p.steps == []

"""Extraction of plans from LLM answers: shapes, breakage and field variants."""
from __future__ import annotations

import json

import pytest

from server.llm.extraction import extract_plan
from server.llm.repair import loads_lenient, repair_json

PLAN = {"analysis": "Go to live TV, tune 5.", "feasible": True, "plan": [
    {"step": 1, "command": "goto", "params": {"node": "live"}, "description": "Go to Live TV"},
    {"step": 2, "command": "press_key", "params": {"key": "DIGIT_5"}, "description": "Press 5"},
]}


def steps(text: str) -> list[tuple[str, dict]]:
    result = extract_plan(text)
    assert result.plan is not None, result.reason
    return [(s.command, s.params) for s in result.plan.steps]


EXPECTED = [("goto", {"node": "live"}), ("press_key", {"key": "DIGIT_5"})]


def test_plain_json() -> None:
    result = extract_plan(json.dumps(PLAN))
    assert result.ok and result.notes == [] and not result.truncated
    assert result.plan.analysis == "Go to live TV, tune 5." and result.plan.feasible
    assert [(s.command, s.params) for s in result.plan.steps] == EXPECTED


@pytest.mark.parametrize("wrap", [
    "```json\nPLAN\n```",
    "Here is the plan:\n```json\nPLAN\n```\nThat should do it.",
    "```\nPLAN\n```",
    "```JSON\nPLAN```",
    "Thinking... the user wants channel 5. PLAN Done.",
    "<think>maybe {not this}</think>\nPLAN",
])
def test_fences_and_prose(wrap: str) -> None:
    assert steps(wrap.replace("PLAN", json.dumps(PLAN))) == EXPECTED


def test_prefers_the_json_fence_over_other_fences() -> None:
    text = "```python\nprint('hi')\n```\n```json\n" + json.dumps(PLAN) + "\n```"
    assert steps(text) == EXPECTED


@pytest.mark.parametrize("broken", [
    # trailing commas
    '{"analysis": "a", "feasible": true, "plan": [{"step": 1, "command": "goto", "params": {"node": "live",},},'
    ' {"step": 2, "command": "press_key", "params": {"key": "DIGIT_5"},},],}',
    # single quotes and Python literals
    "{'analysis': 'a', 'feasible': True, 'plan': [{'step': 1, 'command': 'goto', 'params': {'node': 'live'}},"
    " {'step': 2, 'command': 'press_key', 'params': {'key': 'DIGIT_5'}, 'description': None}]}",
    # unquoted keys and comments
    '{analysis: "a", // why\n feasible: true, /* steps */ plan: [{step: 1, command: "goto", params: {node: "live"}},'
    ' {step: 2, command: "press_key", params: {key: "DIGIT_5"}}]}',
    # a raw newline inside a string
    '{"analysis": "line one\nline two", "feasible": true, "plan": [{"command": "goto", "params": {"node": "live"}},'
    ' {"command": "press_key", "params": {"key": "DIGIT_5"}}]}',
])
def test_usual_breakage_is_repaired(broken: str) -> None:
    result = extract_plan(broken)
    assert result.ok, result.reason
    assert [(s.command, s.params) for s in result.plan.steps] == EXPECTED
    assert "the answer was not valid JSON and was repaired" in result.notes


def test_truncated_after_the_steps_keeps_the_plan() -> None:
    text = json.dumps({**PLAN, "notes": "some long closing remark that got cut"})[:-12]
    result = extract_plan(text)
    assert result.ok and result.truncated and not result.plan_cut
    assert [(s.command, s.params) for s in result.plan.steps] == EXPECTED


def test_truncated_inside_a_step_drops_that_step_and_flags_the_cut() -> None:
    text = json.dumps(PLAN)
    text = text[: text.index("DIGIT_5") + 3]
    result = extract_plan(text)
    assert result.ok and result.truncated and result.plan_cut
    assert [(s.command, s.params) for s in result.plan.steps] == [("goto", {"node": "live"})]
    assert any("cut off inside it" in n for n in result.notes)


@pytest.mark.parametrize("variant, expected", [
    ({"command_name": "press_key", "args": {"key": "OK"}}, ("press_key", {"key": "OK"}, None)),
    ({"name": "press_key", "arguments": {"key": "OK"}}, ("press_key", {"key": "OK"}, None)),
    ({"action": "press_key", "parameters": '{"key": "OK"}'}, ("press_key", {"key": "OK"}, None)),
    ({"command": "remote.press_key", "params": {"key": "OK"}}, ("press_key", {"key": "OK"}, "remote")),
    ({"command": "verification:waitForTextToAppear()", "params": {"text": "Hi"}},
     ("waitForTextToAppear", {"text": "Hi"}, "verification")),
    ({"tool": {"name": "goto", "arguments": {"node": "live"}}}, ("goto", {"node": "live"}, None)),
    ({"command": "goto", "node": "live"}, ("goto", {"node": "live"}, None)),
    ({"command": "press_key", "controller_type": "remote", "params": {"key": "OK", "repeat": "3"}},
     ("press_key", {"key": "OK", "repeat": "3"}, "remote")),
])
def test_field_variants_are_normalized(variant: dict, expected: tuple) -> None:
    result = extract_plan(json.dumps({"plan": [variant]}))
    assert result.ok, result.reason
    step = result.plan.steps[0]
    assert (step.command, step.params, step.controller_type) == expected


def test_numbers_and_booleans_sent_as_strings() -> None:
    result = extract_plan(json.dumps({"analysis": "x", "feasible": "true",
                                      "plan": [{"step": "7", "command": "goto", "params": {"node": "live"}}]}))
    assert result.plan.feasible is True and result.plan.steps[0].step == 7


@pytest.mark.parametrize("shape", [
    [{"command": "goto", "params": {"node": "live"}}],                                   # a bare list of steps
    {"steps": [{"command": "goto", "params": {"node": "live"}}]},                        # "steps"
    {"response": {"plan": [{"command": "goto", "params": {"node": "live"}}]}},           # wrapped
    {"plan": {"analysis": "x", "plan": [{"command": "goto", "params": {"node": "live"}}]}},  # nested
    {"command": "goto", "params": {"node": "live"}},                                     # one step alone
])
def test_plan_shapes(shape: object) -> None:
    assert steps(json.dumps(shape)) == [("goto", {"node": "live"})]


def test_infeasible_answer() -> None:
    result = extract_plan('{"analysis": "No weather screen.", "feasible": false, "plan": []}')
    assert result.ok and not result.plan.feasible and result.plan.steps == []
    assert result.plan.analysis == "No weather screen."


@pytest.mark.parametrize("text, reason", [
    ("", "the answer is empty"),
    ("   \n ", "the answer is empty"),
    ("I cannot help with that.", "no JSON object found"),
    ('{"status": "ok", "items": [1, 2]}', "holds JSON but no plan"),
    ('{"analysis": "x", "feasible": true, "plan": []}', "feasible but holds no usable step"),
    (None, "not text"),
])
def test_no_plan_gives_a_reason(text: object, reason: str) -> None:
    result = extract_plan(text)
    assert result.plan is None and reason in result.reason


def test_steps_without_a_command_are_noted() -> None:
    result = extract_plan('{"plan": ["press OK", {"params": {}}, {"command": "goto", "params": {"node": "x"}}]}')
    assert [s.command for s in result.plan.steps] == ["goto"]
    assert "step 1: not an object, ignored" in result.notes and "step 2: no command, ignored" in result.notes


def test_repair_json_reports_where_the_cut_fell() -> None:
    r = repair_json('{"plan": [{"command": "goto", "params": {"node": "li')
    assert r.truncated and r.plan_cut and r.step_cut
    assert json.loads(r.text)["plan"][0]["command"] == "goto"
    value, repaired = loads_lenient('{"a": 1}')
    assert value == {"a": 1} and repaired is None

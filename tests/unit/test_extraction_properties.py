"""Property-based: random and hostile text through extraction and validation.

Whatever goes in, extraction never raises, and validation never lets out a
step the device does not declare — command, parameters, types, ranges, nodes.
"""
from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.llm.extraction import extract_plan
from server.llm.repair import repair_json
from shared.commands import coerce_param
from shared.models import Plan, PlanningContext, PlanStep
from shared.plan import MAX_STEPS, validate_plan, validate_step
from tests.fakes.device_context import streamtv_context

CTX: PlanningContext = streamtv_context()
COMMANDS = CTX.commands
NODES = CTX.nodes
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KEYS = ["plan", "steps", "command", "command_name", "name", "action", "params", "args", "arguments", "step",
        "description", "analysis", "feasible", "node", "key", "text", "selector", "repeat", "timeout", "x", "y",
        "controller_type", "response", "tool", "url", "index", "expect"]
COMMAND_NAMES = [*COMMANDS, "factory_reset", "shell", "rm -rf /", "remote.press_key", "verification.goto",
                 "PRESS_KEY", "eval", "__import__", "navigate_to_url;reboot", "goto()"]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), st.sampled_from(["OK", "DIGIT_5", "live", "guide", "weather", "1e999", "-1", "nan",
                                           "inf", "true", "999999999999999999999", "", "\u202e", "0.5"]),
    st.sampled_from(COMMAND_NAMES), st.sampled_from(list(NODES)),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), children,
                                               max_size=6)),
    max_leaves=40,
)
STEP = st.fixed_dictionaries(
    {"command": st.sampled_from(COMMAND_NAMES)},
    optional={"step": SCALARS, "params": st.one_of(st.dictionaries(st.sampled_from(KEYS), SCALARS, max_size=5),
                                                  st.text(max_size=20), JSON_VALUES),
              "description": st.text(max_size=60), "controller_type": SCALARS, "node": SCALARS, "key": SCALARS},
)
PLANS = st.fixed_dictionaries({"plan": st.lists(STEP, max_size=60)},
                              optional={"analysis": SCALARS, "feasible": SCALARS})


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """A plan-like JSON text, then broken the ways LLM answers break."""
    text = json.dumps(draw(st.one_of(PLANS, JSON_VALUES)))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["cut", "quote", "comma", "insert", "delete", "fence", "prose"]))
        if op == "cut" and text:
            text = text[: draw(st.integers(0, len(text)))]
        elif op == "quote":
            text = text.replace('"', "'")
        elif op == "comma":
            text = text.replace("}", ",}").replace("]", ",]")
        elif op == "insert":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(["{", "}", "[", "]", '"', "'", ",", ":", "\\", "//", "/*",
                                                     "\n", "True", "None", "```"])) + text[at:]
        elif op == "delete" and text:
            at = draw(st.integers(0, len(text) - 1))
            text = text[:at] + text[at + 1:]
        elif op == "fence":
            text = f"```json\n{text}\n```"
        else:
            text = draw(st.text(max_size=40)) + text + draw(st.text(max_size=40))
    return text


def assert_only_allowed(plan: Plan) -> None:
    """The validated plan holds nothing the device does not declare, with params as declared."""
    assert len(plan.steps) <= MAX_STEPS
    if not plan.feasible:
        assert plan.steps == []
    for i, step in enumerate(plan.steps, 1):
        assert step.step == i
        spec = COMMANDS.get(step.command)
        assert spec is not None, step.command
        assert step.controller_type == spec.controller_type.value
        assert isinstance(step.params, dict)
        for name, value in step.params.items():
            pspec = spec.param(name)
            assert pspec is not None, (step.command, name)
            assert coerce_param(pspec, value) == value  # already of its type, in range and choices
        for pspec in spec.params:
            if pspec.required:
                assert pspec.name in step.params
        if step.command == "goto":
            assert step.params["node"] in NODES
        assert "\n" not in step.description and len(step.description) <= 300


@SETTINGS
@given(st.text(max_size=400))
def test_random_text_never_raises_and_never_escapes_the_allowlist(text: str) -> None:
    result = extract_plan(text)
    assert result.plan is not None or result.reason
    if result.plan is not None:
        assert_only_allowed(validate_plan(result.plan, CTX))


@SETTINGS
@given(mangled())
def test_hostile_plans_never_raise_and_never_escape_the_allowlist(text: str) -> None:
    result = extract_plan(text)
    assert result.plan is not None or result.reason
    if result.plan is not None:
        assert_only_allowed(validate_plan(result.plan, CTX))


@SETTINGS
@given(st.text(max_size=300))
def test_repair_always_returns_text(text: str) -> None:
    repaired = repair_json(text)
    assert isinstance(repaired.text, str)


@SETTINGS
@given(st.sampled_from(COMMAND_NAMES), JSON_VALUES, SCALARS, st.text(max_size=50))
def test_validate_step_never_raises(command: str, params: Any, hint: Any, description: str) -> None:
    step = PlanStep(1, command, params if isinstance(params, dict) else {"value": params}, description,
                    hint if isinstance(hint, str) else None)
    valid, notes = validate_step(step, CTX)
    if valid is None:
        assert notes
    else:
        assert_only_allowed(Plan("", True, [valid]))

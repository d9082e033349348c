"""Validation of plans against what a device can really do.

Every plan, from any planner, passes through :func:`validate_plan` before it
is stored or run. Unknown commands, unknown navigation nodes and invalid
parameters are dropped with the reason kept on the plan; nothing outside the
device's declared commands can ever reach an executor.

What is checked, step by step: the command is one the context declares
(case and ``snake``/``camelCase`` tolerated); a controller-type hint
(``"remote.press_key"``) agrees with the command's controller type; every
parameter is declared, coerces to its type and lies within its range and
choices (strings are capped at :data:`MAX_STRING_CHARS`); required parameters
are present; a ``goto`` names a node of the context. Descriptions are plain
text, stripped of control characters. A plan holds at most :data:`MAX_STEPS`.
"""
from __future__ import annotations

import logging
import re
from typing import Any

from shared.commands import CommandKind, CommandSpec, ControllerType, coerce_param
from shared.vocabulary import canonical
from shared.models import NodeInfo, Plan, PlanningContext, PlanStep

log = logging.getLogger(__name__)

MAX_STEPS = 40
MAX_STRING_CHARS = 2000
DESCRIPTION_CHARS = 300
GOTO = "goto"
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")
_TYPE_ALIASES = {"nav": "navigation", "navigate": "navigation", "verify": "verification", "check": "verification",
                 "actions": "action", "remotes": "remote", "verifications": "verification"}


def _squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def resolve_command(name: str, commands: dict[str, CommandSpec]) -> CommandSpec | None:
    """Find *name* among *commands*, tolerating case and ``snake_case``/``camelCase`` spelling."""
    if name in commands:
        return commands[name]
    wanted = _squash(name)
    for spec in commands.values():
        if _squash(spec.name) == wanted:
            return spec
    return None


def resolve_node(value: Any, ctx: PlanningContext, nodes: dict[str, NodeInfo] | None = None) -> str | None:
    """Map a node id or label (any case) to a node id of the context."""
    text = str(value).strip()
    nodes = nodes if nodes is not None else ctx.nodes
    if text in nodes:
        return text
    low = _squash(text)
    if not low:
        return None
    for node in nodes.values():
        if _squash(node.id) == low or _squash(node.label) == low:
            return node.id
    return None


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _type_matches(hint: str, spec: CommandSpec) -> bool | None:
    """Whether a controller-type hint fits *spec*; None when the hint is no known type (ignored)."""
    low = _TYPE_ALIASES.get(hint.strip().lower(), hint.strip().lower())
    known = {t.value for t in ControllerType} | {k.value for k in CommandKind}
    if low not in known:
        return None
    return low in (spec.controller_type.value, spec.kind.value)


def plain_text(text: Any, limit: int = DESCRIPTION_CHARS) -> str:
    """*text* as one short line of plain text (no control or direction-override characters)."""
    return _CONTROL.sub(" ", str(text or "")).strip()[:limit]


def validate_step(step: PlanStep, ctx: PlanningContext) -> tuple[PlanStep | None, list[str]]:
    """Return the validated step (or None if it must be dropped) and notes about it."""
    return _validate_step(step, ctx, ctx.commands, ctx.nodes)


def _validate_step(step: PlanStep, ctx: PlanningContext, commands: dict[str, CommandSpec],
                   nodes: dict[str, NodeInfo]) -> tuple[PlanStep | None, list[str]]:
    notes: list[str] = []
    if not isinstance(step.command, str):
        return None, [f"step {step.step}: dropped a command that is not a name"]
    # old names (waitForElementToAppear, …) map to the canonical vocabulary, with a deprecation warning
    command, mapped_params = canonical(step.command, step.params if isinstance(step.params, dict) else {})
    if command != step.command:
        step = PlanStep(step.step, command, mapped_params, step.description, step.controller_type)
    spec = resolve_command(step.command, commands)
    if spec is None:
        return None, [f"step {step.step}: dropped unknown command {_short(step.command)}"]
    if isinstance(step.controller_type, str) and step.controller_type:
        fits = _type_matches(step.controller_type, spec)
        if fits is False:
            return None, [f"step {step.step}: dropped {spec.name}: it is a {spec.controller_type.value} command, "
                          f"not {_short(step.controller_type)}"]
    params: dict[str, Any] = {}
    raw_params = step.params if isinstance(step.params, dict) else {}
    for key, value in raw_params.items():
        pspec = spec.param(str(key))
        if pspec is None:
            notes.append(f"step {step.step}: dropped unknown parameter {_short(key)} of {spec.name}")
            continue
        if value is None and not pspec.required:
            continue
        try:
            coerced = coerce_param(pspec, value)
        except (ValueError, TypeError, OverflowError) as exc:
            return None, notes + [f"step {step.step}: dropped {spec.name}: {plain_text(exc, 200)}"]
        if isinstance(coerced, str) and len(coerced) > MAX_STRING_CHARS:
            return None, notes + [f"step {step.step}: dropped {spec.name}: {pspec.name} is longer than "
                                  f"{MAX_STRING_CHARS} characters"]
        params[pspec.name] = coerced
    for pspec in spec.params:
        if pspec.required and pspec.name not in params:
            return None, notes + [f"step {step.step}: dropped {spec.name}: missing required parameter {pspec.name!r}"]
    if spec.name == GOTO:
        node = resolve_node(params.get("node", ""), ctx, nodes)
        if node is None:
            return None, notes + [f"step {step.step}: dropped goto: unknown navigation node {_short(params.get('node'))}"]
        params["node"] = node
    return PlanStep(step.step, spec.name, params, plain_text(step.description), spec.controller_type.value), notes


def validate_plan(plan: Plan, ctx: PlanningContext, max_steps: int = MAX_STEPS) -> Plan:
    """Return a new plan holding only valid steps, renumbered from 1, with notes on what was dropped."""
    notes = list(plan.notes)
    steps: list[PlanStep] = []
    commands, nodes = ctx.commands, ctx.nodes
    for index, step in enumerate(plan.steps):
        if len(steps) >= max_steps:
            notes.append(f"plan cut at {max_steps} steps; {len(plan.steps) - index} more dropped")
            break
        valid, step_notes = _validate_step(step, ctx, commands, nodes)
        notes.extend(step_notes)
        if valid is not None:
            valid.step = len(steps) + 1
            steps.append(valid)
    feasible = plan.feasible and bool(steps)
    analysis = plan.analysis
    if plan.feasible and not steps:
        analysis = (analysis + " " if analysis else "") + "No step of the plan can run on this device."
    for note in notes[len(plan.notes):]:
        log.info("plan validation: %s", note)
    return Plan(analysis, feasible, steps if feasible else [], notes, plan.planner,
                [plain_text(c, MAX_STRING_CHARS) for c in plan.pending[:MAX_STEPS]] if feasible else [],
                plan.refused_check and not feasible)

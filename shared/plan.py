"""Validation of plans against what a device can really do.

Every plan, from any planner, passes through :func:`validate_plan` before it
is stored or run. Unknown commands, unknown navigation nodes and invalid
parameters are dropped with the reason kept on the plan; nothing outside the
device's declared commands can ever reach an executor.
"""
from __future__ import annotations

import logging
import re
from typing import Any

from shared.commands import CommandSpec, coerce_param
from shared.models import Plan, PlanningContext, PlanStep

log = logging.getLogger(__name__)

MAX_STEPS = 40
GOTO = "goto"


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


def resolve_node(value: Any, ctx: PlanningContext) -> str | None:
    """Map a node id or label (any case) to a node id of the context."""
    text = str(value).strip()
    nodes = ctx.nodes
    if text in nodes:
        return text
    low = _squash(text)
    for node in nodes.values():
        if _squash(node.id) == low or _squash(node.label) == low:
            return node.id
    return None


def validate_step(step: PlanStep, ctx: PlanningContext) -> tuple[PlanStep | None, list[str]]:
    """Return the validated step (or None if it must be dropped) and notes about it."""
    notes: list[str] = []
    spec = resolve_command(step.command, ctx.commands)
    if spec is None:
        return None, [f"step {step.step}: dropped unknown command {step.command!r}"]
    params: dict[str, Any] = {}
    for key, value in (step.params or {}).items():
        pspec = spec.param(str(key))
        if pspec is None:
            notes.append(f"step {step.step}: dropped unknown parameter {key!r} of {spec.name}")
            continue
        if value is None and not pspec.required:
            continue
        try:
            params[pspec.name] = coerce_param(pspec, value)
        except ValueError as exc:
            return None, notes + [f"step {step.step}: dropped {spec.name}: {exc}"]
    for pspec in spec.params:
        if pspec.required and pspec.name not in params:
            return None, notes + [f"step {step.step}: dropped {spec.name}: missing required parameter {pspec.name!r}"]
    if spec.name == GOTO:
        node = resolve_node(params.get("node", ""), ctx)
        if node is None:
            return None, notes + [f"step {step.step}: dropped goto: unknown navigation node {params.get('node')!r}"]
        params["node"] = node
    return PlanStep(step.step, spec.name, params, step.description[:300], spec.controller_type.value), notes


def validate_plan(plan: Plan, ctx: PlanningContext, max_steps: int = MAX_STEPS) -> Plan:
    """Return a new plan holding only valid steps, renumbered from 1, with notes on what was dropped."""
    notes = list(plan.notes)
    steps: list[PlanStep] = []
    for step in plan.steps:
        if len(steps) >= max_steps:
            notes.append(f"plan cut at {max_steps} steps; {len(plan.steps) - max_steps} more dropped")
            break
        valid, step_notes = validate_step(step, ctx)
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
    return Plan(analysis, feasible, steps if feasible else [], notes, plan.planner)

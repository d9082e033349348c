"""Planning one run: rules expanded, AI Central asked, and a record of how the plan came about.

:class:`RunPlanner` is what the run service calls instead of asking AI Central
directly. It

* expands the rules the task names (:mod:`server.rules`). A task that names
  none is planned exactly as before, in one request. A task that names rules
  is planned part by part, in order — text parts by AI Central's planners,
  explicit-step bodies as written — so every step is known to come from its
  rule; the parts are joined and validated again as one plan;
* records, for :mod:`server.api_planning`, which planners were tried and why
  each was or was not used, how long each took and what it cost, the prompt
  sent to the LLM and its raw answer (secrets scrubbed), and what validation
  dropped and why.

The LLM planner leaves its prompt messages and raw answer on the request
(``llm_prompt``, ``llm_answer``); the per-run prompt template reaches it the
same way (``prompt_template``).
"""
from __future__ import annotations

import copy
import dataclasses
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from server.ai_central import AICentral, PlanOutcome, ReplanInfo
from server.llm.usage import TokenUsage
from server.planners.base import Planner, PlanRequest
from server.db import Database, PlanningRow, utcnow
from server.rule_store import RuleStore
from server.rules import Expansion, Part, expand
from shared.models import Plan, PlannerName, PlanningContext, PlanStep
from shared.plan import GOTO, validate_plan

log = logging.getLogger(__name__)

ANSWER_CHARS = 20000
SCRUBBED = "***"
# things shaped like credentials, whatever configured them: (pattern, replacement)
_SECRET_PATTERNS = ((re.compile(r"\b(?:sk|rk|pk)-[A-Za-z0-9_\-]{8,}"), SCRUBBED),
                    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{8,}"), r"\g<1>" + SCRUBBED),
                    (re.compile(r"(?i)((?:api[_-]?key|token|password|secret)[\"']?\s*[:=]\s*[\"']?)[^\s\"',}]{4,}"),
                     r"\g<1>" + SCRUBBED))


class Scrubber:
    """Removes secrets (the configured ones, and anything shaped like a key) from text and JSON."""

    def __init__(self, secrets: Sequence[str] = ()) -> None:
        self.secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def text(self, value: str) -> str:
        for secret in self.secrets:
            value = value.replace(secret, SCRUBBED)
        for pattern, replacement in _SECRET_PATTERNS:
            value = pattern.sub(replacement, value)
        return value

    def json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json(v) for v in value]
        if isinstance(value, dict):
            return {k: self.json(v) for k, v in value.items()}
        return value


@dataclass
class PlannerCall:
    """One planner asked for one part of a run: what it did, how long it took, what the LLM saw and said."""

    planner: str
    outcome: str = ""
    reason: str = ""
    duration_ms: float = 0.0
    usage: dict[str, int] = field(default_factory=dict)
    prompt_template: str | None = None
    prompt: list[dict[str, str]] | None = None
    prompt_chars: int = 0
    answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class PartRecord:
    """How one part of the task (all of it, when it names no rule) was planned."""

    task: str
    rule_use: int | None = None        # the rule use that produced this part (see PlanningRecord.rules)
    fixed: bool = False                # explicit steps of a rule, not planned
    planner: str = ""
    analysis: str = ""
    feasible: bool = True
    steps: list[int] = field(default_factory=list)     # step numbers of the run's plan
    dropped: list[str] = field(default_factory=list)   # what validation dropped, and why
    calls: list[PlannerCall] = field(default_factory=list)
    duration_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "calls": [c.to_dict() for c in self.calls]}


@dataclass
class PlanningRecord:
    """Everything ``GET /api/runs/<id>/planning`` shows about how a run was planned."""

    task: str
    expanded_task: str
    prompt_template: str | None = None
    rules: list[dict[str, Any]] = field(default_factory=list)   # RuleUse dicts, each with its steps
    parts: list[PartRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)               # the final plan's validation notes
    observations: list[dict[str, Any]] = field(default_factory=list)   # closed-loop screen observations
    replans: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    duration_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "parts": [p.to_dict() for p in self.parts]}


class RecordingPlanner:
    """Wraps a planner of the chain: times it, passes the run's prompt template, keeps what the LLM saw."""

    def __init__(self, inner: Planner, calls: list[PlannerCall], template: str | None,
                 scrub: Scrubber) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = calls
        self.template = template
        self.scrub = scrub

    def __getattr__(self, name: str) -> Any:
        # anything else AI Central asks of a planner is the wrapped planner's own
        return getattr(self.inner, name)

    def plan(self, request: PlanRequest) -> Plan | None:
        request.prompt_template = self.template          # type: ignore[attr-defined]
        request.llm_prompt = request.llm_answer = None   # type: ignore[attr-defined]
        before = TokenUsage.from_dict(request.usage)
        call = PlannerCall(self.name)
        started = time.perf_counter()
        try:
            return self.inner.plan(request)
        finally:
            call.duration_ms = round((time.perf_counter() - started) * 1000, 2)
            after = TokenUsage.from_dict(request.usage)
            call.usage = TokenUsage(after.prompt_tokens - before.prompt_tokens,
                                    after.completion_tokens - before.completion_tokens,
                                    after.total_tokens - before.total_tokens,
                                    after.llm_calls - before.llm_calls).to_dict()
            prompt = getattr(request, "llm_prompt", None)
            if prompt is not None:
                call.prompt_template = getattr(request, "llm_prompt_template", None) or self.template
                call.prompt = self.scrub.json([{"role": str(m.get("role", "")), "content": str(m.get("content", ""))}
                                               for m in prompt])
                call.prompt_chars = sum(len(m["content"]) for m in call.prompt)
            answer = getattr(request, "llm_answer", None)
            if answer is not None:
                call.answer = self.scrub.text(str(answer))[:ANSWER_CHARS]
            self.calls.append(call)


# keys that may leave the screen they are pressed on
_LEAVING_KEYS = {"OK", "BACK", "HOME", "ENTER", "SELECT"}


def _stays(step: PlanStep) -> bool:
    """True when *step* cannot move the device to another screen (a check, a digit or arrow key)."""
    if step.controller_type == "verification":
        return True
    return step.command == "press_key" and str(step.params.get("key", "")).upper() not in _LEAVING_KEYS


def _landing(steps: Sequence[PlanStep], current: str | None) -> str | None:
    """The screen a part of a plan ends on, when its steps tell for sure; None when they do not."""
    if steps and all(_stays(st) for st in steps):
        return current
    for i in range(len(steps) - 1, -1, -1):
        st = steps[i]
        if st.command == GOTO and st.params.get("node"):
            return str(st.params["node"]) if all(_stays(after) for after in steps[i + 1:]) else None
    return None


def _combined_planner(names: Sequence[str]) -> str:
    for name in (PlannerName.LLM.value, PlannerName.CACHE.value, PlannerName.BUILTIN.value):
        if name in names:
            return name
    return PlannerName.USER.value


class RunPlanner:
    """Plans a run's task: see the module docstring."""

    def __init__(self, ai: AICentral, rules: RuleStore, db: Database, secrets: Sequence[str] = ()) -> None:
        self.ai = ai
        self.rules = rules
        self.db = db
        self.scrub = Scrubber([*secrets, *self._planner_secrets(ai)])

    @staticmethod
    def _planner_secrets(ai: AICentral) -> list[str]:
        out = []
        for p in ai.planners:
            key = getattr(getattr(getattr(p, "client", None), "settings", None), "api_key", None)
            if key is not None and hasattr(key, "reveal"):
                out.append(key.reveal())
        return out

    def expand(self, task: str, userinterface: str) -> Expansion:
        return expand(task, userinterface, self.rules.for_userinterface(userinterface))

    def plan(self, task: str, context: PlanningContext, *, use_cache: bool = True,
             prompt_template: str | None = None) -> tuple[PlanOutcome, PlanningRecord]:
        started = time.perf_counter()
        expansion = self.expand(task, context.userinterface)
        record = PlanningRecord(task, expansion.task, prompt_template,
                                [u.to_dict() for u in expansion.uses])
        if not expansion.used:
            outcome = self._ask(task, context, use_cache, prompt_template, record, None)
            record.parts[0].steps = [s.step for s in outcome.plan.steps]
        else:
            outcome = self._plan_parts(expansion, context, use_cache, prompt_template, record)
        record.notes = list(outcome.plan.notes)
        record.usage = TokenUsage.from_dict(outcome.usage).to_dict()
        record.duration_ms = round((time.perf_counter() - started) * 1000, 2)
        for use in record.rules:
            use["steps"] = sorted({n for p in record.parts if self._under(p.rule_use, use["use"], record)
                                   for n in p.steps})
        return outcome, record

    @staticmethod
    def _under(use: int | None, ancestor: int, record: PlanningRecord) -> bool:
        parents = {u["use"]: u["parent"] for u in record.rules}
        while use is not None:
            if use == ancestor:
                return True
            use = parents.get(use)
        return False

    def _ask(self, text: str, context: PlanningContext, use_cache: bool, template: str | None,
             record: PlanningRecord, part: Part | None) -> PlanOutcome:
        calls: list[PlannerCall] = []
        chain = [RecordingPlanner(p, calls, template, self.scrub) for p in self.ai.planners]
        outcome = self.ai.plan(text, context, chain, use_cache=use_cache)  # type: ignore[arg-type]
        for call, attempt in zip(calls, outcome.trail):
            call.outcome, call.reason = attempt.outcome.value, self.scrub.text(attempt.reason)
        record.parts.append(PartRecord(
            text, part.origin.index if part and part.origin else None, False, outcome.plan.planner,
            outcome.plan.analysis, outcome.plan.feasible, [], list(outcome.plan.notes), calls,
            round(outcome.duration_ms, 2)))
        return outcome

    def _plan_parts(self, expansion: Expansion, context: PlanningContext, use_cache: bool,
                    template: str | None, record: PlanningRecord) -> PlanOutcome:
        started = time.perf_counter()
        usage = TokenUsage()
        steps: list[PlanStep] = []
        notes: list[str] = []
        analyses: list[str] = []
        planners: list[str] = []
        current = context.current_node
        segments = list(expansion.segments())
        pending: list[str] = []
        for index, part in enumerate(segments):
            # the live screen describes where the device is before any step; later parts plan without it
            ctx = dataclasses.replace(context, current_node=current, screen=context.screen if not steps else None)
            label = f"rule {part.origin.rule!r}" if part.origin else "the task"
            if part.fixed:
                checked = validate_plan(Plan("", True, list(part.steps), planner=PlannerName.USER.value), ctx)
                dropped = [f"{label}: {n}" for n in checked.notes]
                rec = PartRecord(part.describe(), part.origin.index if part.origin else None, True,
                                 PlannerName.USER.value, f"{len(checked.steps)} step(s) of {label}",
                                 checked.feasible and len(checked.steps) == len(part.steps), dropped=dropped)
                record.parts.append(rec)
                notes += dropped
                if not rec.feasible:
                    return self._infeasible(f"Not feasible: {label} has steps this device cannot run: "
                                            + "; ".join(checked.notes), notes, usage, started)
                new = checked.steps
            else:
                outcome = self._ask(part.text, ctx, use_cache, template, record, part)
                rec = record.parts[-1]
                usage = usage + TokenUsage.from_dict(outcome.usage)
                notes += [f"{label}: {n}" for n in outcome.plan.notes]
                if not outcome.plan.feasible:
                    return self._infeasible(f"Not feasible: {part.text!r} ({label}): {outcome.plan.analysis}",
                                            notes, usage, started)
                new = outcome.plan.steps
                planners.append(outcome.plan.planner)
                analyses.append(outcome.plan.analysis)
                if outcome.plan.pending:
                    # the rest is planned on the screen these steps lead to (closed loop), as text
                    pending = list(outcome.plan.pending) + [seg.text if not seg.fixed else seg.describe()
                                                            for seg in segments[index + 1:]]
            base = len(steps)
            for i, st in enumerate(new, 1):
                steps.append(PlanStep(base + i, st.command, dict(st.params), st.description, st.controller_type))
            rec.steps = list(range(base + 1, len(steps) + 1))
            current = _landing(new, current)
            if pending:
                break
        uses = ", ".join(f"{u.rule!r}" for u in expansion.uses if u.parent is None)
        analysis = f"Rules used: {uses}. " + " ".join(a for a in analyses if a)
        plan = validate_plan(Plan(analysis.strip(), True, steps, notes, _combined_planner(planners), pending), context)
        return PlanOutcome(plan, usage.to_dict(), (time.perf_counter() - started) * 1000, [], [])

    @staticmethod
    def _infeasible(analysis: str, notes: list[str], usage: TokenUsage, started: float) -> PlanOutcome:
        return PlanOutcome(Plan(analysis, False, [], notes, PlannerName.BUILTIN.value), usage.to_dict(),
                           (time.perf_counter() - started) * 1000, [], [])

    def replan(self, run_id: str, task: str, context: PlanningContext, info: ReplanInfo,
               prompt_template: str | None = None) -> PlanOutcome:
        """AI Central's re-plan of a failed run, with its planner calls added to the run's record."""
        calls: list[PlannerCall] = []
        chain = [RecordingPlanner(p, calls, prompt_template, self.scrub) for p in self.ai.planners]
        outcome = self.ai.replan(task, context, info, chain)  # type: ignore[arg-type]
        for call, attempt in zip(calls, outcome.trail):
            call.outcome, call.reason = attempt.outcome.value, self.scrub.text(attempt.reason)
        entry = {"after_step": info.failed.step if info.failed else None, "from_node": info.node,
                 "failure": self.scrub.text(info.failure), "planner": outcome.plan.planner,
                 "feasible": outcome.plan.feasible, "analysis": outcome.plan.analysis,
                 "dropped": list(outcome.plan.notes), "calls": [c.to_dict() for c in calls],
                 "usage": TokenUsage.from_dict(outcome.usage).to_dict(), "duration_ms": round(outcome.duration_ms, 2)}
        self._amend(run_id, lambda rec: rec.setdefault("replans", []).append(self.scrub.json(entry)))
        return outcome

    def observed(self, run_id: str, observation: dict[str, Any]) -> None:
        """Add a closed-loop decision (what was seen, what was planned from it) to the run's record."""
        self._amend(run_id, lambda rec: rec.setdefault("observations", []).append(self.scrub.json(observation)))

    # -- persistence ------------------------------------------------------------------------
    def save(self, run_id: str, record: PlanningRecord) -> None:
        """Store the record of *run_id*, every string of it scrubbed of secrets."""
        data = self.scrub.json(record.to_dict())
        with self.db.session() as s:
            row = s.get(PlanningRow, run_id)
            if row is None:
                s.add(PlanningRow(run_id=run_id, record=data))
            else:
                row.record, row.updated_at = data, utcnow()

    def _amend(self, run_id: str, change: Any) -> None:
        with self.db.session() as s:
            row = s.get(PlanningRow, run_id)
            if row is None:
                return
            rec = copy.deepcopy(row.record or {})   # a changed copy, so the JSON column sees the change
            change(rec)
            row.record, row.updated_at = rec, utcnow()

    def load(self, run_id: str) -> dict[str, Any] | None:
        """The stored record of *run_id*, or None when it was not planned (a given plan) or not yet."""
        with self.db.session() as s:
            row = s.get(PlanningRow, run_id)
            return dict(row.record) if row is not None else None

"""A run, typed: :class:`Run` over a ``runs`` row, and :class:`RunRecord` over its ``plan`` JSON column.

The ``plan`` column holds, beside the plan clients see, the server's bookkeeping of the run::

    RunRecord
    ├── options: RunOptions        no_cache, confirm, limits, run_timeout, next_run, prompt_template
    ├── user_plan, user_planner    a plan given by the user or a saved test case, as given
    ├── testcase: CaseRef          the saved test case it runs (name, fingerprint)
    ├── context: ContextStamp      what it was planned against (device model, userinterface, fingerprint)
    ├── next_commands              NextCommandResult of the commands run at its start
    └── plan: ShownPlan            the plan as GET /api/runs/<id> shows it
        ├── analysis, feasible, steps (key "plan"), notes, planner, pending
        ├── rules, expanded_task   when the task used rules
        ├── replans: [Replan]      re-plans after a failed step
        └── observations: [Observation]   closed-loop rounds

Everything but ``plan`` is internal (:data:`INTERNAL_PLAN_KEYS`); a key no field declares is shown
with the plan, as it always was. Records are read and written through :mod:`server.json_record`, so a
row written by older code reads as it was written, and a value of the wrong type is a
:class:`~server.json_record.RecordError` naming the run and the key::

    record = RunRecord.of_row(row)
    if record.options.confirm and not record.plan.replans: ...
    record.plan.pending = []
    record.apply_to(row)
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from server.db import RunRow
from server.json_record import (ANY, FLAG, NUMBER, OBJECT, TEXT, WHOLE, Codec, JsonRecord, RecordError, enum_of, key,
                                list_of, optional, record_of)
from server.llm.usage import TokenUsage
from server.next_commands import NextStatus
from shared.errors import RequestError
from shared.models import Plan, PlannerName, PlanStep, RunStatus
from shared.policy import Limits

__all__ = ["CaseRef", "ContextStamp", "INTERNAL_PLAN_KEYS", "NextCommandResult", "Observation", "RecordError",
           "Replan", "Run", "RunMode", "RunOptions", "RunRecord", "ShownPlan"]


class RunMode(str, Enum):
    RUN = "run"      # plan, then run the steps
    PLAN = "plan"    # plan only: the run ends ``planned``


def _limits(value: Any, where: str) -> Limits:
    try:
        return Limits.from_dict(value, where)
    except RequestError as exc:
        raise RecordError(str(exc)) from None


LIMITS: Codec[Limits] = Codec(_limits, lambda limits: limits.to_dict())
PLANNER: Codec[PlannerName] = enum_of(PlannerName)


@dataclass
class RunOptions(JsonRecord):
    """How the run was asked for (``POST /api/runs``)."""

    no_cache: bool = key(FLAG, default=False)
    confirm: bool = key(FLAG, default=False)            # destructive steps a planner chose may run
    limits: Limits = key(LIMITS, default_factory=Limits)   # the run's level of the step-limits cascade
    run_timeout: float | None = key(optional(NUMBER), default=None)   # seconds
    # commands for the device's next run, as requested ({command, params, max_retries, timeout});
    # server.next_commands.parse_request reads each when it is scheduled
    next_run: list[dict[str, Any]] = key(list_of(OBJECT), default_factory=list)
    prompt_template: str | None = key(optional(TEXT), default=None, sparse=True)


@dataclass
class CaseRef(JsonRecord):
    """The saved test case a run runs."""

    name: str = key(TEXT)
    fingerprint: str | None = key(optional(TEXT), default=None)   # of the context it was saved against


@dataclass
class ContextStamp(JsonRecord):
    """What the run was planned against: the plan cache's key and a saved test case's fingerprint."""

    device_model: str = key(TEXT)
    userinterface: str = key(TEXT)
    fingerprint: str = key(TEXT)


@dataclass(kw_only=True)
class Replan(JsonRecord):
    """One re-plan of a run after a failed step."""

    after_step: int | None = key(optional(WHOLE), default=None)
    from_node: str | None = key(optional(TEXT), default=None)
    planner: PlannerName = key(PLANNER)
    feasible: bool = key(FLAG, default=False)
    analysis: str = key(TEXT, default="")
    notes: list[str] = key(list_of(ANY), default_factory=list)
    steps: int = key(WHOLE, default=0)       # how many steps it appended


@dataclass
class Observation(JsonRecord):
    """One closed-loop round of a run: what was seen, and what was planned from it."""

    clause: str = key(TEXT)
    url: str = key(TEXT, default="")
    title: str = key(TEXT, default="")
    elements_seen: int = key(WHOLE, default=0)
    decision: str = key(TEXT, default="")
    steps: list[dict[str, Any]] = key(list_of(OBJECT), default_factory=list)
    digest: str = key(TEXT, default="")      # of the visible texts: the same screen seen twice, or a changed one


@dataclass
class NextCommandResult(JsonRecord):
    """A next-run command that ran at the start of the run (``server.next_commands.NextCommand.to_dict``)."""

    id: int = key(WHOLE)
    device_id: str = key(TEXT, default="")
    command: str = key(TEXT, default="")
    params: dict[str, Any] = key(OBJECT, default_factory=dict)
    status: NextStatus = key(enum_of(NextStatus), default=NextStatus.PENDING)
    retries: int = key(WHOLE, default=0)
    max_retries: int = key(WHOLE, default=0)
    timeout_s: float = key(NUMBER, default=0.0)
    source: str = key(TEXT, default="")
    message: str = key(TEXT, default="")
    run_id: str | None = key(optional(TEXT), default=None)
    created_at: str | None = key(optional(TEXT), default=None)    # ISO 8601, UTC ("…Z")
    finished_at: str | None = key(optional(TEXT), default=None)


@dataclass
class ShownPlan(JsonRecord):
    """The plan as clients see it: the planner's plan, and what the run added to it.

    A key is shown when the plan had it (a plan written without ``notes`` shows none) or when it
    was set since; a plan's steps are its planner's wire form (:meth:`shared.models.PlanStep.to_dict`).
    """

    analysis: str = key(TEXT, default="", sparse=True)
    feasible: bool = key(FLAG, default=False, sparse=True)
    steps: list[dict[str, Any]] = key(list_of(OBJECT), "plan", default_factory=list, sparse=True)
    notes: list[str] = key(list_of(ANY), default_factory=list, sparse=True)   # as planned (a given plan's: unchecked)
    planner: PlannerName | None = key(optional(PLANNER), default=None, sparse=True)
    pending: list[str] = key(list_of(TEXT), default_factory=list, sparse=True)   # clauses left to plan
    rules: list[dict[str, Any]] = key(list_of(OBJECT), default_factory=list, sparse=True)   # RuleUse dicts
    expanded_task: str = key(TEXT, default="", sparse=True)
    replans: list[Replan] = key(list_of(record_of(Replan)), default_factory=list, sparse=True)
    observations: list[Observation] = key(list_of(record_of(Observation)), default_factory=list, sparse=True)

    @classmethod
    def of(cls, plan: Plan, rules: list[dict[str, Any]] | None = None, expanded_task: str = "") -> "ShownPlan":
        """A planned (or given) plan, with the rules its task used."""
        data = plan.to_dict()
        if rules:
            data.update(rules=rules, expanded_task=expanded_task)
        return cls.from_json(data, "plan")

    def plan_steps(self) -> list[PlanStep]:
        return [PlanStep.from_dict(d) for d in self.steps]


@dataclass
class RunRecord(JsonRecord):
    """The ``plan`` column of a run, typed: the server's bookkeeping, and the plan shown (:attr:`plan`)."""

    options: RunOptions = key(record_of(RunOptions), default_factory=RunOptions)
    user_plan: dict[str, Any] | None = key(optional(OBJECT), default=None, sparse=True)   # as given
    user_planner: PlannerName | None = key(optional(PLANNER), default=None, sparse=True)  # user or testcase
    testcase: CaseRef | None = key(optional(record_of(CaseRef)), default=None, sparse=True)
    context: ContextStamp | None = key(optional(record_of(ContextStamp)), default=None, sparse=True)
    next_commands: list[NextCommandResult] = key(list_of(record_of(NextCommandResult)), default_factory=list,
                                                 sparse=True)
    plan: ShownPlan = field(default_factory=ShownPlan)   # every other key of the column

    @classmethod
    def from_json(cls, data: Any, where: str = "run record") -> "RunRecord":
        """Read a ``plan`` column (None reads as an empty record)."""
        data = {} if data is None else data
        if not isinstance(data, dict):
            raise RecordError(f"{where} must be an object, not {type(data).__name__}")
        internal = set(cls.keys())
        record = super().from_json({k: v for k, v in data.items() if k in internal}, where)
        record.plan = ShownPlan.from_json({k: v for k, v in data.items() if k not in internal}, where)
        record.order = list(data)   # the column's order, the plan's keys among the rest
        return record

    def to_json(self) -> dict[str, Any]:
        """The column: keys where they were read, the plan's keys in the plan's own order."""
        inner, shown = super().to_json(), self.plan.to_json()
        internal, visible = set(self.keys()), iter(shown)
        order: list[str] = []
        for k in self.order or []:
            if k in internal:
                order += [k] if k in inner else []
            elif (slot := next(visible, None)) is not None:   # the plan's keys fill the slots its keys had
                order.append(slot)
        order += [k for k in [*inner, *visible] if k not in order]
        return {k: inner[k] if k in inner else shown[k] for k in order}

    @classmethod
    def of_row(cls, row: RunRow) -> "RunRecord":
        return cls.from_json(row.plan, f"run {row.id}")

    def apply_to(self, row: RunRow) -> None:
        """Write the record into *row*'s ``plan`` column (a new object, so the change is seen)."""
        row.plan = self.to_json()

    def given_plan(self) -> Plan | None:
        """The plan given by the user or a saved test case, as its planner; None for a plan to be planned."""
        if not self.user_plan:
            return None
        raw = Plan.from_dict(self.user_plan)
        raw.planner = (self.user_planner or PlannerName.USER).value
        return raw


INTERNAL_PLAN_KEYS: tuple[str, ...] = RunRecord.keys()   # keys of the column not shown to clients

_MODE: Codec[RunMode] = enum_of(RunMode)
_STATUS: Codec[RunStatus] = enum_of(RunStatus)


@dataclass
class Run:
    """A run as the server reasons about it: its row's columns typed, and its record."""

    id: str
    device_id: str
    task: str
    mode: RunMode
    status: RunStatus
    planner: PlannerName | None           # where the plan came from; None until it is planned
    record: RunRecord
    usage: TokenUsage = field(default_factory=TokenUsage)
    start_node: str = ""
    message: str = ""
    created_at: dt.datetime | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None

    @classmethod
    def from_row(cls, row: RunRow) -> "Run":
        where = f"run {row.id}"
        return cls(row.id, row.device_id, row.task, _MODE.decode(row.mode, f"{where}: mode"),
                   _STATUS.decode(row.status, f"{where}: status"),
                   PLANNER.decode(row.planner, f"{where}: planner") if row.planner else None,
                   RunRecord.of_row(row), TokenUsage.from_dict(row.usage), row.start_node or "", row.message or "",
                   row.created_at, row.started_at, row.finished_at)

    @property
    def plan(self) -> ShownPlan:
        return self.record.plan

"""Runs: the queue per device, planning through AI Central, dispatch to hosts, and the record of steps.

Lifecycle (``RUN_TRANSITIONS`` in shared/models.py): ``queued → planning (the device is reserved) →
(planned | infeasible | running) → (passed | failed | error | cancelled)``. A device runs one run at
a time; later runs wait in its queue, which is kept in the database (server/run_queue.py), so
queued runs survive a server restart. A reservation's lease is renewed by the host's heartbeat; a
lease that runs out ends the run ``error`` (host lost). At start the server reconciles the runs it
left running with what the reconnecting hosts report (:meth:`RunService.start`).

When a step of a planned run fails (a cached plan replayed, or a fresh plan
from the LLM or the built-in planner), the run is re-planned once from the
node the device is really on, and the new steps are appended to the same run
(:data:`MAX_REPLANS`). A passed run whose plan came from the LLM (directly or
through the plan cache) is kept in the plan cache; a cached plan that needed a
re-plan to pass is replaced by what really passed (self-healing). Plans given
by the user or by a saved test case are run as they are, never re-planned.
"""
from __future__ import annotations

import datetime as dt
import logging
import threading
import uuid
from typing import Any, Callable


from server.ai_central import AICentral, AttemptOutcome
from server.db import Database, RunRow, utcnow
from server.lab import Lab
from server.llm.prompt import check_template
from server.llm.usage import TokenUsage
from server.plan_cache import PlanCache
from server.next_commands import NextCommands, parse_request
from server.reports import write_run_report
from server.run_model import CaseRef, ContextStamp, RecordError, Run, RunMode, RunOptions, RunRecord, ShownPlan
from server.run_queue import Hold, RunQueue
from server.rule_store import RuleStore
from server.run_planning import RunPlanner
from server.run_records import RunRecords, iso
from server.storage import FileStore, StorageError
from shared.errors import DeviceBusy, DevicePilotError, HostUnavailable, RequestError
from shared.models import PlannerName, RunStatus
from shared.plan import validate_plan
from shared.policy import Limits
from shared.protocol import DashboardEvent, ServerEvent

from server.run_leases import LEASE_S, RunLeases
from server.run_next import NextRunCommands, next_run_of
from server.run_replanning import MAX_CONTINUATIONS, Replanning, _only_repeats  # noqa: F401  (_only_repeats: tests)
from server.run_steps import StepIngest

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]


GIVEN_PLANNERS = (PlannerName.USER.value, PlannerName.TESTCASE.value)


class RunService(RunLeases, StepIngest, Replanning, NextRunCommands):
    """The runs of the lab: queue, planning and dispatch here; leases and reconciliation
    (server/run_leases.py), step recording (server/run_steps.py), re-planning
    (server/run_replanning.py) and next-run commands (server/run_next.py) in the parts it is made of.
    A run's record is typed in server/run_model.py."""

    def __init__(self, db: Database, lab: Lab, ai: AICentral, files: FileStore, emit: Emit,
                 spawn: Callable[..., Any], max_task_chars: int = 2000,
                 plan_cache: PlanCache | None = None) -> None:
        self.db = db
        self.plan_cache = plan_cache
        self.lab = lab
        self.ai = ai
        self.planning = RunPlanner(ai, RuleStore(db), db)   # rules expanded, planning recorded
        self.files = files
        self.records = RunRecords(db, files)
        self.emit = emit
        self.spawn = spawn
        self.max_task_chars = max_task_chars
        self._lock = threading.Lock()
        self._hold_lock = threading.Lock()
        self._held: dict[str, str] = {}          # device -> what holds it outside any run (an exploration)
        self.queue = RunQueue(db, LEASE_S)
        self._done = threading.Condition()
        self._stored = threading.Condition()      # notified when a step record is stored
        self._steps_here: dict[str, int] = {}     # step records this process stored, by run (under _stored)
        self._replanning: set[str] = set()
        self._host_idle: set[str] = set()         # runs whose host reported the end of what it was sent
        self._recovering: set[str] = set()        # runs left running by the previous server process
        self._monitor_stop = threading.Event()
        # called with the run as it ended (as GET /api/runs/<id> shows it, with its steps)
        self.hooks_finished: list[Callable[[dict[str, Any]], None]] = []
        self.next_commands = NextCommands(db, ai.context, lab.call, self._forget_context)

    # -- creating ------------------------------------------------------------------------
    def create(self, device_id: Any, task: Any, mode: Any = "run", plan: Any = None, *,
               no_cache: Any = False, source: str = PlannerName.USER.value,
               testcase: dict[str, Any] | None = None, prompt_template: Any = None,
               confirm: bool = False, priority: int = 0, limits: Any = None,
               run_timeout: Any = None, next_run: Any = None) -> dict[str, Any]:
        """Queue a run of *task* on *device_id*.

        *plan* is a plan to run as given (*source* ``user``, or ``testcase``
        for a saved test case) instead of planning; *no_cache* skips the plan
        cache when planning. *confirm* lets steps of destructive commands that a
        planner chose run; without it such a plan is stored and not run.
        """
        if not isinstance(device_id, str) or not device_id:
            raise RequestError("'device' is required: the id of a device (see GET /api/devices)")
        if not isinstance(task, str) or not task.strip():
            raise RequestError("'task' is required: a plain-language test task")
        if len(task) > self.max_task_chars:
            raise RequestError(f"'task' is {len(task)} characters; the limit is {self.max_task_chars}")
        if mode not in tuple(m.value for m in RunMode):
            raise RequestError("'mode' must be 'plan' or 'run'")
        if plan is not None and not isinstance(plan, dict):
            raise RequestError("'plan' must be an object {analysis, feasible, plan: [...]}")
        if not isinstance(no_cache, bool):
            raise RequestError("'no_cache' must be true or false")
        if not isinstance(priority, int) or isinstance(priority, bool) or not -100 <= priority <= 100:
            raise RequestError("'priority' must be a whole number from -100 to 100 (higher runs first)")
        if source not in GIVEN_PLANNERS:
            raise RequestError(f"a given plan's source must be one of {', '.join(GIVEN_PLANNERS)}")
        step_limits = Limits.from_dict(limits, "'limits'")
        if run_timeout is not None and (isinstance(run_timeout, bool) or not isinstance(run_timeout, (int, float))
                                        or not 0 < run_timeout <= 24 * 3600):
            raise RequestError("'run_timeout' must be seconds, more than 0 and at most 86400")
        if next_run is not None and (not isinstance(next_run, list) or len(next_run) > 20):
            raise RequestError("'next_run' must be a list (at most 20) of {command, params, max_retries, timeout}: "
                               "commands for the device's next run")
        for i, item in enumerate(next_run or []):
            parse_request(item, f"next_run[{i}]")
        self.lab.device(device_id)  # unknown device -> RequestError
        run_id = uuid.uuid4().hex[:12]
        record = RunRecord(options=RunOptions(
            no_cache=no_cache, confirm=bool(confirm), limits=step_limits,
            run_timeout=float(run_timeout) if run_timeout else None, next_run=list(next_run or []),
            prompt_template=check_template(prompt_template) if prompt_template is not None else None))
        if plan:
            record.user_plan, record.user_planner = plan, PlannerName(source)
        if testcase:
            record.testcase = CaseRef.from_json(testcase, "testcase")
        with self.db.session() as s:   # the run and its place in the queue: one transaction
            run = RunRow(id=run_id, device_id=device_id, task=task.strip(), mode=RunMode(mode).value,
                         status=RunStatus.QUEUED.value, plan=record.to_json())
            s.add(run)
            self.queue.enqueue(run_id, device_id, priority, s)
            s.flush()
            created = self.records.run_dict(run, with_steps=True)
        log.info("run %s queued on %s: %r", run_id, device_id, task[:200])
        self._kick(device_id)
        return created

    def _kick(self, device_id: str) -> None:
        """Start the device's next queued run, when its host is connected and nothing holds it."""
        if not self.lab.is_online(device_id):
            return   # the runs wait for the host to come back
        with self._hold_lock:
            if device_id in self._held:
                return   # the runs wait for the hold (an exploration) to end
            run_id = self.queue.reserve_next(device_id)
        if run_id is None:
            return
        self.lab.set_busy(device_id, True)
        self.spawn(self._process, run_id)

    # -- holding a device outside any run -------------------------------------------------
    def hold(self, device_id: str, why: str) -> None:
        """Keep *device_id* for *why* (an exploration): runs queued meanwhile wait, and start at ``unhold``.
        DeviceBusy when a run or another hold has it."""
        with self._hold_lock:
            if device_id in self._held:
                raise DeviceBusy(f"device {device_id!r} is held by {self._held[device_id]}; try when it has ended")
            if self.queue.holder(device_id) is not None:
                raise DeviceBusy(f"device {device_id!r} is running a run; try when the run has ended")
            self._held[device_id] = why
        self.lab.set_busy(device_id, True)

    def unhold(self, device_id: str) -> None:
        """The hold on *device_id* has ended: its queued runs start."""
        with self._hold_lock:
            if self._held.pop(device_id, None) is None:
                return
        if self.queue.holder(device_id) is None:
            self.lab.set_busy(device_id, False)
        self._kick(device_id)

    def held_by(self, device_id: str) -> str | None:
        with self._hold_lock:
            return self._held.get(device_id)

    def _release(self, device_id: str, run_id: str) -> None:
        """The device is free of *run_id*: hand it to the next queued run."""
        self._hand_on(device_id, run_id, self.queue.release_and_hold(run_id, device_id))

    def _hand_on(self, device_id: str, run_id: str, hold: Hold | None) -> None:
        """*run_id*'s queue entry is gone and *hold* holds the device now (None: nothing): start its next run."""
        with self._lock:
            self._host_idle.discard(run_id)
            self._recovering.discard(run_id)
        with self._stored:
            self._steps_here.pop(run_id, None)
        if hold is None:
            self.lab.set_busy(device_id, False)
        self._kick(device_id)

    # -- planning and dispatch ---------------------------------------------------------
    def _process(self, run_id: str) -> None:
        try:
            row = self._update(run_id, status=RunStatus.PLANNING)
            if row is None:
                self._release(self._device_of(run_id), run_id)   # cancelled before it started
                return
            device_id, run = row.device_id, Run.from_row(row)
            task, stored = run.task, run.record
            context = self.ai.context(device_id)
            given = stored.given_plan()
            events: list[str] = []
            rules: list[dict[str, Any]] = []
            expanded_task = ""
            if given is not None:
                plan, usage, plan_ms = validate_plan(given, context), {}, 0.0
                testcase = stored.testcase
                problem = self._given_plan_problem(given, plan, testcase)
                if testcase is not None and testcase.fingerprint and testcase.fingerprint != context.fingerprint():
                    events.append(f"the device's commands or screens changed since test case "
                                  f"{testcase.name!r} was saved")
                if problem:
                    self._update(run_id, plan=ShownPlan.of(plan), planner=plan.planner, usage=TokenUsage(),
                                 start_node=context.current_node or "", events=[*events, problem])
                    self._finish(run_id, RunStatus.ERROR, problem)
                    return
            else:
                no_cache = stored.options.no_cache
                context = self.ai.with_screen(self.ai.with_location(context, device_id), device_id)
                if context.screen is not None:
                    events.append(f"observed the screen: {len(context.screen.elements)} element(s)"
                                  + (f" at {context.screen.url}" if context.screen.url else "")
                                  + f" in {self.ai.observe_ms:.0f} ms")
                outcome, record = self.planning.plan(task, context, use_cache=not no_cache,
                                                     prompt_template=stored.options.prompt_template)
                self.planning.save(run_id, record)
                plan, usage, plan_ms = outcome.plan, outcome.usage, outcome.duration_ms
                events += [f"planner {a}" for a in outcome.trail if a.outcome is not AttemptOutcome.USED]
                if record.rules:
                    rules, expanded_task = record.rules, record.expanded_task
                    events.append("rules used: " + ", ".join(repr(u["rule"]) for u in record.rules))
                if no_cache:
                    events.insert(0, "plan cache skipped (no_cache)")
            ready = plan.feasible and run.mode is not RunMode.PLAN
            # a given plan was confirmed at the API
            unconfirmed = "" if given is not None or not ready else self._unconfirmed(run_id, plan, context.commands)
            planned = {"plan": ShownPlan.of(plan, rules, expanded_task), "planner": plan.planner,
                       "usage": TokenUsage.from_dict(usage), "start_node": context.current_node or "",
                       "events": [*events, f"planned by {plan.planner} in {plan_ms:.1f} ms"],
                       "context": ContextStamp(context.device_model, context.userinterface, context.fingerprint())}
            if ready and not unconfirmed:   # the plan and the start: one transaction
                if self._update(run_id, status=RunStatus.RUNNING, started=True, **planned) is None:
                    self._update(run_id, **planned)   # cancelled while it was planned: its plan is still shown
                    return
            else:
                self._update(run_id, **planned)
                if not plan.feasible:
                    self._finish(run_id, RunStatus.INFEASIBLE, plan.analysis or "the device cannot do this task")
                elif run.mode is RunMode.PLAN:
                    self._finish(run_id, RunStatus.PLANNED, f"{len(plan.steps)} step(s) planned")
                else:
                    self._finish(run_id, RunStatus.ERROR, unconfirmed)
                return
            self._run_next_commands(run_id, device_id)
            reply = self.lab.call(device_id, ServerEvent.RUN_PLAN,
                                  self._plan_request(run_id, device_id, plan, stored.options))
            if not reply or not reply.get("accepted"):
                raise HostUnavailable(f"host refused the run: {reply.get('error') if reply else 'no reply'}")
        except RequestError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc), host_done=True)
        except DevicePilotError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc), host_done=True)
        except Exception as exc:  # never leave a run hanging in "planning"
            log.exception("run %s: unexpected error", run_id)
            self._finish(run_id, RunStatus.ERROR, f"server error: {type(exc).__name__}: {exc}", host_done=True)

    def _conclude(self, run_id: str, status: RunStatus, message: str, steps_sent: int | None = None) -> None:
        """The host finished the plan: once its step records are in, end the run or re-plan it."""
        self._await_steps(run_id, steps_sent)
        try:
            if status is RunStatus.FAILED and self._claim_replan(run_id):
                self._replan(run_id, message)
                return
            left: list[str] = []
            if status is RunStatus.PASSED:
                run = self._find(run_id)
                if self._claim_continuation(run):
                    self._continue(run_id)
                    return
                left = list(run.plan.pending) if run is not None else []
        except RecordError as exc:   # never leave a run running on a record the server cannot read
            log.error("run %s: %s", run_id, exc)
            self._finish(run_id, RunStatus.ERROR, f"server error: {exc}")
            return
        if left:   # never a pass with part of the task not done
            self._finish(run_id, RunStatus.FAILED, f"the task was not completed: {'; '.join(left)!r} could not "
                                                    f"be planned within {MAX_CONTINUATIONS} rounds")
            return
        if status is RunStatus.ERROR and message == "run cancelled":
            status = RunStatus.CANCELLED
        self._finish(run_id, status, message)

    def _find(self, run_id: str) -> Run | None:
        """The run, typed; None when there is no such run."""
        with self.db.session() as s:
            row = s.get(RunRow, run_id)
            return Run.from_row(row) if row is not None else None

    # -- state ------------------------------------------------------------------------
    def _device_of(self, run_id: str) -> str:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            return run.device_id if run else ""

    def _update(self, run_id: str, *, status: RunStatus | None = None, plan: ShownPlan | None = None,
                planner: str | None = None, usage: TokenUsage | None = None, start_node: str | None = None,
                event: str | None = None, started: bool = False, events: list[str] | None = None,
                context: ContextStamp | None = None) -> RunRow | None:
        """Change the run in one transaction; None (and nothing changed) for a move its lifecycle forbids.

        *plan* replaces the plan shown (the run's bookkeeping is kept); *context* is what it was planned against.
        Returns the run's row as this change left it (detached from its session): dashboards are told of
        the change from it, without reading the run again.
        """
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                return None
            if status is not None:
                if not RunStatus(run.status).may_become(status):
                    log.info("run %s: %s → %s refused", run_id, run.status, status.value)
                    return None
                run.status = status.value
            if plan is not None or context is not None:
                record = RunRecord.of_row(run)
                record.plan = plan if plan is not None else record.plan
                record.context = context if context is not None else record.context
                record.apply_to(run)
            if planner is not None:
                run.planner = planner
            if usage is not None:
                run.usage = usage.to_dict()
            if start_node is not None:
                run.start_node = start_node
            added = [e for e in [*(events or []), event] if e]
            if added:
                now = iso(utcnow())
                run.events = [*(run.events or []), *({"at": now, "message": e} for e in added)]
            if started:
                run.started_at = utcnow()
        # the row keeps what was stored (secrets scrubbed at the flush): no need to read it again
        self.emit(DashboardEvent.RUN_UPDATE, self.records.run_dict(run, with_steps=False))
        return run

    def _finish(self, run_id: str, status: RunStatus, message: str, host_done: bool | None = None) -> None:
        """End the run (once). *host_done*: its host is not executing it (default: it was never dispatched,
        or the host reported its end); otherwise the device waits for the host to confirm the abort."""
        with self._lock:
            idle = run_id in self._host_idle
        if status is RunStatus.PASSED:
            self._remember_plan(run_id)   # before the end shows: a client told "passed" finds the plan cached
        with self.db.session() as s:   # the run's end and its device's release: one transaction
            run = s.get(RunRow, run_id)
            if run is None or not RunStatus(run.status).may_become(status):
                return
            steps = [self.records.step_dict(st) for st in run.steps]   # for its report: read once, here
            dispatched = run.status == RunStatus.RUNNING.value
            if host_done is None:
                host_done = not dispatched or idle
            run.status, run.message, run.finished_at = status.value, message[:4000], utcnow()
            device_id = run.device_id
            self.queue.end(s, run_id, host_done)
            hold = self.queue.holder(device_id, s) if host_done else None   # who has the device now
        log.info("run %s %s: %s", run_id, status.value, message)
        # before the device is handed on: the next run runs them
        amended = self._schedule_next_run(run_id, device_id, next_run_of(run))
        if host_done:
            self._hand_on(device_id, run_id, hold)
        else:   # the host may still be executing it: stop it, and keep the device until it confirms
            self.spawn(self._tell_abort, device_id, run_id)
        # the run as it ended, from the row just written (read again only when scheduling added an event)
        ended = self.get(run_id) if amended else {**self.records.run_dict(run, with_steps=False), "steps": steps}
        try:
            write_run_report(ended, self.files)
        except (OSError, StorageError) as exc:
            log.error("run %s: report not written: %s", run_id, exc)
        for hook in self.hooks_finished:
            try:
                hook(ended)
            except Exception:  # a hook must not break the run's end
                log.exception("run-finished hook failed for %s", run_id)
        self.emit(DashboardEvent.RUN_UPDATE, {k: v for k, v in ended.items() if k != "steps"})
        with self._done:
            self._done.notify_all()

    def wait(self, run_id: str, timeout: float) -> dict[str, Any]:
        """Block until the run has finished or *timeout* passed; return the run."""
        deadline = dt.datetime.now().timestamp() + timeout
        with self._done:
            while True:
                run = self.get(run_id, with_steps=False)
                remaining = deadline - dt.datetime.now().timestamp()
                if RunStatus(run["status"]).finished or remaining <= 0:
                    return self.get(run_id)
                self._done.wait(min(remaining, 1.0))

    def cancel(self, run_id: str) -> dict[str, Any]:
        """Cancel the run in any state that is not an end: a queued run leaves the queue, a running one is
        aborted on its host (its device is handed on once the host confirms)."""
        run = self.get(run_id, with_steps=False)
        if RunStatus(run["status"]).finished:
            return run
        if self.queue.unqueue(run_id):
            self._finish(run_id, RunStatus.CANCELLED, "cancelled before it started", host_done=True)
        else:
            self._finish(run_id, RunStatus.CANCELLED, "cancelled")
        return self.get(run_id, with_steps=False)

    # -- reading (see server/run_records.py) ------------------------------------------
    def get(self, run_id: str, with_steps: bool = True) -> dict[str, Any]:
        return self.records.get(run_id, with_steps)

    def list(self, **filters: Any) -> list[dict[str, Any]]:
        return self.records.list(**filters)

    def planning_context(self, run_id: str) -> dict[str, Any]:
        return self.records.planning_context(run_id)

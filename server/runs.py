"""Runs: the queue per device, planning through AI Central, dispatch to hosts, and the record of steps.

Lifecycle: ``queued → planning → (planned | infeasible | running) → (passed | failed | error)``.
A device runs one run at a time; later runs for it wait in its queue.

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
from collections import deque
from typing import Any, Callable

from sqlalchemy import select

from backend_core.wait import Timeout, WaitTimeout, wait_until
from server.ai_central import AICentral, AttemptOutcome, ReplanInfo
from server.db import Database, DeviceRow, RunRow, StepRow, utcnow
from server.guard_confirm import destructive_commands
from server.lab import Lab
from server.llm.prompt import check_template
from server.llm.usage import TokenUsage
from server.plan_cache import PlanCache
from server.reports import write_run_report
from server.rule_store import RuleStore
from server.run_planning import RunPlanner
from server.run_records import INTERNAL_PLAN_KEYS, RunRecords, iso
from server.storage import FileStore, StorageError, is_run_id
from shared.errors import DevicePilotError, HostUnavailable, RequestError
from shared.models import Plan, PlannerName, PlanStep, RunStatus, StepResult, StepStatus
from shared.plan import validate_plan
from shared.protocol import ServerEvent
from shared.screen import ObservationRecord

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]


MAX_REPLANS = 1
MAX_CONTINUATIONS = 16  # closed-loop rounds per run (each: observe, plan the next clauses, run them)
STEP_ARRIVAL = Timeout(seconds=3.0, interval=0.05)   # how long the end of a run waits for its step records
REPLANNED_PLANNERS = (PlannerName.CACHE.value, PlannerName.LLM.value, PlannerName.BUILTIN.value)
CACHED_PLANNERS = (PlannerName.CACHE.value, PlannerName.LLM.value)
GIVEN_PLANNERS = (PlannerName.USER.value, PlannerName.TESTCASE.value)


def _only_repeats(steps: list[PlanStep], failed: PlanStep) -> bool:
    """True when *steps* do nothing but run the failed check again: a failed check is not retried as is."""
    return bool(steps) and all(st.command == failed.command and st.params == failed.params for st in steps)


class RunService:
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
        self._queues: dict[str, deque[str]] = {}
        self._active: dict[str, str] = {}   # device_id -> run_id
        self._done = threading.Condition()
        self._replanning: set[str] = set()
        self._cancelled: set[str] = set()
        self.hooks_finished: list[Callable[[str], None]] = []

    # -- creating ------------------------------------------------------------------------
    def create(self, device_id: Any, task: Any, mode: Any = "run", plan: Any = None, *,
               no_cache: Any = False, source: str = PlannerName.USER.value,
               testcase: dict[str, Any] | None = None, prompt_template: Any = None,
               confirm: bool = False) -> dict[str, Any]:
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
        if mode not in ("plan", "run"):
            raise RequestError("'mode' must be 'plan' or 'run'")
        if plan is not None and not isinstance(plan, dict):
            raise RequestError("'plan' must be an object {analysis, feasible, plan: [...]}")
        if not isinstance(no_cache, bool):
            raise RequestError("'no_cache' must be true or false")
        if source not in GIVEN_PLANNERS:
            raise RequestError(f"a given plan's source must be one of {', '.join(GIVEN_PLANNERS)}")
        self.lab.device(device_id)  # unknown device -> RequestError
        run_id = uuid.uuid4().hex[:12]
        stored: dict[str, Any] = {"options": {"no_cache": no_cache, "confirm": bool(confirm)}}
        if prompt_template is not None:
            stored["options"]["prompt_template"] = check_template(prompt_template)
        if plan:
            stored.update(user_plan=plan, user_planner=source)
        if testcase:
            stored["testcase"] = testcase
        with self.db.session() as s:
            s.add(RunRow(id=run_id, device_id=device_id, task=task.strip(), mode=mode,
                         status=RunStatus.QUEUED.value, plan=stored))
        log.info("run %s queued on %s: %r", run_id, device_id, task[:200])
        with self._lock:
            self._queues.setdefault(device_id, deque()).append(run_id)
        self._kick(device_id)
        return self.get(run_id)

    def _kick(self, device_id: str) -> None:
        with self._lock:
            if device_id in self._active or not self._queues.get(device_id):
                return
            run_id = self._queues[device_id].popleft()
            self._active[device_id] = run_id
        self.lab.set_busy(device_id, True)
        self.spawn(self._process, run_id)

    def _release(self, device_id: str, run_id: str) -> None:
        with self._lock:
            if self._active.get(device_id) == run_id:
                del self._active[device_id]
        self.lab.set_busy(device_id, False)
        self._kick(device_id)

    # -- planning and dispatch ---------------------------------------------------------
    def _process(self, run_id: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device_id, task, mode, stored = run.device_id, run.task, run.mode, run.plan or {}
        try:
            self._update(run_id, status=RunStatus.PLANNING)
            context = self.ai.context(device_id)
            user_plan = stored.get("user_plan")
            events: list[str] = []
            rules_used: dict[str, Any] = {}
            if user_plan:
                raw = Plan.from_dict(user_plan)
                raw.planner = stored.get("user_planner") or PlannerName.USER.value
                plan, usage, plan_ms = validate_plan(raw, context), {}, 0.0
                testcase = stored.get("testcase") or {}
                problem = self._given_plan_problem(raw, plan, testcase)
                if testcase.get("fingerprint") and testcase["fingerprint"] != context.fingerprint():
                    events.append(f"the device's commands or screens changed since test case "
                                  f"{testcase.get('name')!r} was saved")
                if problem:
                    self._update(run_id, plan=plan.to_dict(), planner=plan.planner, usage=TokenUsage().to_dict(),
                                 start_node=context.current_node or "", events=[*events, problem])
                    self._finish(run_id, RunStatus.ERROR, problem)
                    return
            else:
                no_cache = bool((stored.get("options") or {}).get("no_cache"))
                context = self.ai.with_screen(context, device_id)
                if context.screen is not None:
                    events.append(f"observed the screen: {len(context.screen.elements)} element(s)"
                                  + (f" at {context.screen.url}" if context.screen.url else "")
                                  + f" in {self.ai.observe_ms:.0f} ms")
                outcome, record = self.planning.plan(task, context, use_cache=not no_cache,
                                                     prompt_template=(stored.get("options") or {}).get("prompt_template"))
                self.planning.save(run_id, record)
                plan, usage, plan_ms = outcome.plan, outcome.usage, outcome.duration_ms
                events += [f"planner {a}" for a in outcome.trail if a.outcome is not AttemptOutcome.USED]
                if record.rules:
                    rules_used = {"rules": record.rules, "expanded_task": record.expanded_task}
                    events.append("rules used: " + ", ".join(repr(u["rule"]) for u in record.rules))
                if no_cache:
                    events.insert(0, "plan cache skipped (no_cache)")
            self._update(run_id, plan={**plan.to_dict(), **rules_used}, planner=plan.planner,
                         usage=TokenUsage.from_dict(usage).to_dict(), start_node=context.current_node or "",
                         events=[*events, f"planned by {plan.planner} in {plan_ms:.1f} ms"],
                         internal={"context": {"device_model": context.device_model,
                                               "userinterface": context.userinterface,
                                               "fingerprint": context.fingerprint()}})
            if not plan.feasible:
                self._finish(run_id, RunStatus.INFEASIBLE, plan.analysis or "the device cannot do this task")
                return
            if mode == "plan":
                self._finish(run_id, RunStatus.PLANNED, f"{len(plan.steps)} step(s) planned")
                return
            unconfirmed = "" if user_plan else self._unconfirmed(run_id, plan, context.commands)
            if unconfirmed:   # a given plan was confirmed at the API
                self._finish(run_id, RunStatus.ERROR, unconfirmed)
                return
            self._update(run_id, status=RunStatus.RUNNING, started=True)
            reply = self.lab.call(device_id, ServerEvent.RUN_PLAN,
                                  {"run_id": run_id, "device_id": device_id, "plan": plan.to_dict()})
            if not reply or not reply.get("accepted"):
                raise HostUnavailable(f"host refused the run: {reply.get('error') if reply else 'no reply'}")
        except RequestError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc))
        except DevicePilotError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc))
        except Exception as exc:  # never leave a run hanging in "planning"
            log.exception("run %s: unexpected error", run_id)
            self._finish(run_id, RunStatus.ERROR, f"server error: {type(exc).__name__}: {exc}")

    # -- host events -------------------------------------------------------------------
    def _accepts(self, host_id: str | None, data: Any, event: str) -> str | None:
        """The run id of a host event when *host_id* may report on that run now; None (logged) otherwise.

        A host reports only on the run the server dispatched to it, while that run is running on
        one of its devices: a forged, late or misdirected event is refused and nothing is stored.
        """
        run_id = data.get("run_id") if isinstance(data, dict) else None
        if not is_run_id(run_id):
            log.warning("%s from host %s refused: %r is not a run id", event, host_id, str(run_id)[:40])
            return None
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device = s.get(DeviceRow, run.device_id) if run is not None else None
            status, owner = (run.status, device.host_id if device else None) if run is not None else (None, None)
        with self._lock:
            active = run is not None and self._active.get(run.device_id) == run_id
        if run is None or host_id is None or owner != host_id or status != RunStatus.RUNNING.value or not active:
            why = ("unknown run" if run is None else "unregistered connection" if host_id is None
                   else f"the run belongs to host {owner!r}" if owner != host_id else f"the run is {status}")
            log.warning("%s for run %s from host %s refused: %s", event, run_id, host_id, why)
            return None
        return run_id

    def on_step(self, host_id: str | None, data: dict[str, Any]) -> None:
        run_id = self._accepts(host_id, data, "step_result")
        if run_id is None:
            return
        try:
            result = StepResult.from_wire(data["step"])
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("step_result for run %s from host %s refused: malformed step (%s)", run_id, host_id, exc)
            return
        shot_path = ""
        message = result.message
        if result.screenshot:
            try:
                shot_path = str(self.files.save_screenshot(run_id, result.step, result.screenshot))
            except StorageError as exc:
                log.error("run %s step %d: %s", run_id, result.step, exc)
                message += f" (screenshot not saved: {exc.strerror})"
            except RequestError as exc:
                log.warning("run %s: screenshot of step %r from host %s refused: %s", run_id, result.step,
                            host_id, exc)
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            row = StepRow(run_id=run_id, step=result.step, command=result.command, params=result.params,
                          controller_type=result.controller_type, status=result.status.value, message=message,
                          description=result.description, duration_ms=result.duration_ms,
                          screenshot=shot_path, current_node=result.current_node or "")
            s.add(row)
            s.flush()
            step = self.records.step_dict(row)
            device_id = run.device_id
        if result.current_node:
            self.lab.current_node[device_id] = result.current_node
        self.emit("step", {"run_id": run_id, "step": step})

    def on_finished(self, host_id: str | None, data: dict[str, Any]) -> None:
        run_id = self._accepts(host_id, data, "run_finished")
        if run_id is None:
            return
        try:
            status = RunStatus(data.get("status"))
        except ValueError:
            status = RunStatus.ERROR
        device_id = self._device_of(run_id)
        if device_id:
            self.lab.current_node[device_id] = data.get("current_node")
        self.spawn(self._conclude, run_id, status, str(data.get("message", "")))

    def _conclude(self, run_id: str, status: RunStatus, message: str) -> None:
        """The host finished the plan: once its step records are in, end the run or re-plan it."""
        self._await_steps(run_id, status)
        if status is RunStatus.FAILED and self._claim_replan(run_id):
            self._replan(run_id, message)
            return
        if status is RunStatus.PASSED and self._claim_continuation(run_id):
            self._continue(run_id)
            return
        if status is RunStatus.PASSED:
            left = self._pending(run_id)
            if left:   # never a pass with part of the task not done
                self._finish(run_id, RunStatus.FAILED, f"the task was not completed: {'; '.join(left)!r} could not "
                                                        f"be planned within {MAX_CONTINUATIONS} rounds")
                return
        self._finish(run_id, status, message)

    def _pending(self, run_id: str) -> list[str]:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            return [str(c) for c in ((run.plan or {}).get("pending") or [])] if run is not None else []

    def _await_steps(self, run_id: str, status: RunStatus) -> None:
        """Wait (briefly) until the steps the host reported are stored.

        Step results and the end of a run are separate events, which may be
        handled out of order; a run must not end — nor be re-planned, reported
        or cached — without its last steps.
        """
        def probe() -> tuple[bool, int]:
            with self.db.session() as s:
                run = s.get(RunRow, run_id)
                if run is None:
                    return True, 0
                planned = {d.get("step") for d in (run.plan or {}).get("plan") or []}
                replans = len((run.plan or {}).get("replans") or [])
                rows = [(r.step, r.status) for r in run.steps]
            stored = {n for n, _ in rows}
            failures = sum(st in (StepStatus.FAILED.value, StepStatus.ERROR.value) for _, st in rows)
            if status is RunStatus.PASSED:
                return planned <= stored, len(rows)
            if status is RunStatus.FAILED:
                return failures > replans, len(rows)
            return True, len(rows)

        try:
            wait_until(probe, STEP_ARRIVAL, what=f"the step records of run {run_id}")
        except WaitTimeout as exc:
            log.warning("run %s: %s; ending it with %s step(s) recorded", run_id, exc, exc.last)

    def on_host_lost(self, host_id: str) -> None:
        """A host disconnected: its runs end ``error``; their devices are released."""
        with self.db.session() as s:
            devices = [d for d in s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id))]
        for device_id in devices:
            with self._lock:
                run_id = self._active.get(device_id)
            if run_id:
                self._finish(run_id, RunStatus.ERROR, f"host {host_id!r} disconnected mid-run")

    # -- given plans, re-planning, the plan cache -------------------------------------
    @staticmethod
    def _given_plan_problem(raw: Plan, plan: Plan, testcase: dict[str, Any]) -> str:
        """Why a saved test case cannot run as saved ('' when it can). User plans run what validates."""
        if raw.planner != PlannerName.TESTCASE.value:
            return ""
        name = testcase.get("name", "?")
        if len(plan.steps) != len(raw.steps) or not plan.feasible:
            return (f"test case {name!r} no longer fits this device: " + "; ".join(plan.notes or ["no step is valid"]))
        return ""

    def _claim_replan(self, run_id: str) -> bool:
        """True (and the run is marked) when a failed run may be re-planned: once, for planned runs only."""
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None or run.status != RunStatus.RUNNING.value or run.mode != "run":
                return False
            if run.planner not in REPLANNED_PLANNERS or len((run.plan or {}).get("replans") or []) >= MAX_REPLANS:
                return False
        with self._lock:
            if run_id in self._cancelled or run_id in self._replanning:
                return False
            self._replanning.add(run_id)
        return True

    def _replan(self, run_id: str, failure: str) -> None:
        """Plan the rest of a failed run from where the device really is, and run it in the same run."""
        try:
            with self.db.session() as s:
                run = s.get(RunRow, run_id)
                task, device_id, stored = run.task, run.device_id, dict(run.plan or {})
                usage = TokenUsage.from_dict(run.usage)
                rows = [(r.step, r.command, dict(r.params or {}), r.status, r.description) for r in run.steps]
            planned = {st.step: st for st in (PlanStep.from_dict(d) for d in stored.get("plan") or [])}
            done = tuple(planned.get(n) or PlanStep(n, c, p, d) for n, c, p, status, d in rows
                         if status == StepStatus.PASSED.value)
            failed_row = next((r for r in reversed(rows) if r[3] == StepStatus.FAILED.value), None)
            failed = (planned.get(failed_row[0]) or PlanStep(failed_row[0], failed_row[1], failed_row[2], failed_row[4])
                      if failed_row else None)
            node = self.lab.current_node.get(device_id)
            self._update(run_id, event=f"step {failed.step if failed else '?'} failed ({failure}); "
                                       f"re-planning once from {node or 'an unknown screen'}")
            context = self.ai.context(device_id)
            outcome = self.planning.replan(run_id, stored.get("expanded_task") or task, context,
                                           ReplanInfo(done, failed, failure, node),
                                           (stored.get("options") or {}).get("prompt_template"))
            usage = usage + TokenUsage.from_dict(outcome.usage)
            new = outcome.plan
            if failed is not None and new.feasible and _only_repeats(new.steps, failed):
                new = Plan(f"the re-plan would only repeat the failed check {failed.command}", False,
                           planner=new.planner)
            record = {"after_step": failed.step if failed else None, "from_node": node, "planner": new.planner,
                      "feasible": new.feasible, "analysis": new.analysis, "notes": new.notes,
                      "steps": len(new.steps)}
            replans = [*(stored.get("replans") or []), record]
            if not new.feasible or not new.steps:
                self._update(run_id, plan={**stored, "replans": replans}, usage=usage.to_dict(),
                             event=f"re-plan by {new.planner} found nothing to run: {new.analysis}")
                self._finish(run_id, RunStatus.FAILED, failure)
                return
            base = max([n for n in planned] + [r[0] for r in rows] + [0])
            for i, st in enumerate(new.steps, 1):
                st.step = base + i
            merged = {**stored, "plan": [*(stored.get("plan") or []), *(st.to_dict() for st in new.steps)],
                      "replans": replans}
            self._update(run_id, plan=merged, usage=usage.to_dict(),
                         event=f"re-planned by {new.planner}: {len(new.steps)} step(s) appended "
                               f"from step {base + 1}")
            self._send_more(run_id, device_id, new, "the re-planned steps")
        except DevicePilotError as exc:
            log.warning("run %s: re-plan failed: %s", run_id, exc)
            self._finish(run_id, RunStatus.FAILED, f"{failure} (re-plan not possible: {exc})")
        except Exception as exc:  # never leave a run hanging in "running"
            log.exception("run %s: unexpected error while re-planning", run_id)
            self._finish(run_id, RunStatus.FAILED, f"{failure} (re-plan crashed: {type(exc).__name__})")
        finally:
            with self._lock:
                self._replanning.discard(run_id)

    def _unconfirmed(self, run_id: str, plan: Plan, specs: dict[str, Any]) -> str:
        """Why *plan* may not run unconfirmed (destructive steps a planner chose), or ''.

        A given plan was confirmed at the API (``_confirm_given_plan``); a planned
        one needs the run's ``confirm`` option, because a tester who typed "reset
        the app" may not know the planner picked ``clear_app_data``.
        """
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            options = ((run.plan or {}).get("options") or {}) if run else {}
        if options.get("confirm"):
            return ""
        risky = destructive_commands((st.command for st in plan.steps), specs)
        if not risky:
            return ""
        return (f"not run: the plan uses destructive command(s) {', '.join(risky)}, which change or delete something "
                "on the device; look at the plan and run the task again with confirmation (\"confirm\": true, "
                "or --yes on the command line)")

    def _send_more(self, run_id: str, device_id: str, new: Plan, what: str) -> None:
        """Send steps appended to a running run to its host, unless the run was cancelled meanwhile."""
        with self._lock:
            cancelled = run_id in self._cancelled
        if cancelled:
            self._finish(run_id, RunStatus.ERROR, "run cancelled")
            return
        unconfirmed = self._unconfirmed(run_id, new, self.ai.context(device_id).commands)
        if unconfirmed:
            self._finish(run_id, RunStatus.ERROR, f"{what} were {unconfirmed}")
            return
        reply = self.lab.call(device_id, ServerEvent.RUN_PLAN, {
            "run_id": run_id, "device_id": device_id,
            "plan": Plan(new.analysis, True, new.steps, planner=new.planner).to_dict()})
        if not reply or not reply.get("accepted"):
            raise HostUnavailable(f"host refused {what}: {reply.get('error') if reply else 'no reply'}")

    def _claim_continuation(self, run_id: str) -> bool:
        """True (and the run is marked) when a passed part of a run has clauses left to plan on the new screen."""
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None or run.status != RunStatus.RUNNING.value or not (run.plan or {}).get("pending"):
                return False
            if len((run.plan or {}).get("observations") or []) >= MAX_CONTINUATIONS:
                return False
        with self._lock:
            if run_id in self._cancelled or run_id in self._replanning:
                return False
            self._replanning.add(run_id)
        return True

    def _continue(self, run_id: str) -> None:
        """Closed loop: plan the task's remaining clauses against the screen the device shows now."""
        try:
            with self.db.session() as s:
                run = s.get(RunRow, run_id)
                device_id, stored = run.device_id, dict(run.plan or {})
                usage = TokenUsage.from_dict(run.usage)
                done = max([r.step for r in run.steps] + [0])
            pending = [str(c) for c in stored.get("pending") or []]
            task = ", then ".join(pending)
            context = self.ai.with_screen(self.ai.context(device_id), device_id)
            outcome = self.ai.plan(task, context, use_cache=False)
            usage = usage + TokenUsage.from_dict(outcome.usage)
            new = outcome.plan
            seen = context.screen
            record = ObservationRecord(task, seen.url if seen else "", seen.title if seen else "",
                                       len(seen.elements) if seen else 0,
                                       new.analysis if new.feasible else f"not possible here: {new.analysis}",
                                       [st.to_dict() for st in new.steps])
            observations = [*(stored.get("observations") or []), record.to_dict()]
            self.planning.observed(run_id, record.to_dict())
            if not new.feasible or not new.steps:
                self._update(run_id, plan={**stored, "pending": [], "observations": observations},
                             usage=usage.to_dict(), event=f"after step {done}, the screen does not allow "
                                                          f"{task!r}: {new.analysis}")
                self._finish(run_id, RunStatus.FAILED, f"after step {done}: {new.analysis}")
                return
            for i, st in enumerate(new.steps, 1):
                st.step = done + i
            merged = {**stored, "plan": [*(stored.get("plan") or []), *(st.to_dict() for st in new.steps)],
                      "pending": list(new.pending), "observations": observations}
            self._update(run_id, plan=merged, usage=usage.to_dict(),
                         event=f"observed the screen after step {done} ({record.elements_seen} element(s)"
                               f"{' at ' + record.url if record.url else ''}); planned {task!r}: "
                               f"{len(new.steps)} step(s)")
            self._send_more(run_id, device_id, new, "the next steps")
        except DevicePilotError as exc:
            log.warning("run %s: closed-loop planning failed: %s", run_id, exc)
            self._finish(run_id, RunStatus.ERROR, f"could not plan the rest of the task: {exc}")
        except Exception as exc:  # never leave a run hanging in "running"
            log.exception("run %s: unexpected error while planning the rest", run_id)
            self._finish(run_id, RunStatus.ERROR, f"server error while planning the rest: {type(exc).__name__}")
        finally:
            with self._lock:
                self._replanning.discard(run_id)

    def _remember_plan(self, run_id: str) -> None:
        """Keep the steps that passed in the plan cache, when the plan cost an LLM (directly or cached)."""
        if self.plan_cache is None:
            return
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None or run.mode != "run" or run.planner not in CACHED_PLANNERS or run.plan.get("rules"):
                return   # a plan built from rules is planned part by part, never replayed whole
            stored = dict(run.plan or {})
            ctx = stored.get("context") or {}
            passed = {r.step for r in run.steps if r.status == StepStatus.PASSED.value}
            task, start_node, planner = run.task, run.start_node, run.planner
        steps = [PlanStep.from_dict(d) for d in stored.get("plan") or [] if d.get("step") in passed]
        if not steps or not ctx.get("fingerprint"):
            return
        for i, st in enumerate(steps, 1):
            st.step = i
        healed = bool(stored.get("replans"))
        try:
            self.plan_cache.store(task, ctx["device_model"], ctx["userinterface"], ctx["fingerprint"], start_node,
                                  Plan(stored.get("analysis", ""), True, steps), source_run=run_id,
                                  source_planner=planner, healed=healed)
        except Exception:  # the cache is an optimisation: a failure to store must not touch the run
            log.exception("run %s: plan not stored in the plan cache", run_id)

    # -- state ------------------------------------------------------------------------
    def _device_of(self, run_id: str) -> str:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            return run.device_id if run else ""

    def _update(self, run_id: str, *, status: RunStatus | None = None, plan: dict | None = None,
                planner: str | None = None, usage: dict | None = None, start_node: str | None = None,
                event: str | None = None, started: bool = False, events: list[str] | None = None,
                internal: dict[str, Any] | None = None) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if status is not None:
                run.status = status.value
            if plan is not None or internal:
                kept = {k: v for k, v in (run.plan or {}).items() if k in INTERNAL_PLAN_KEYS}
                new = {k: v for k, v in (plan if plan is not None else run.plan or {}).items()
                       if k not in INTERNAL_PLAN_KEYS}
                run.plan = {**kept, **(internal or {}), **new}
            if planner is not None:
                run.planner = planner
            if usage is not None:
                run.usage = usage
            if start_node is not None:
                run.start_node = start_node
            added = [e for e in [*(events or []), event] if e]
            if added:
                now = iso(utcnow())
                run.events = [*(run.events or []), *({"at": now, "message": e} for e in added)]
            if started:
                run.started_at = utcnow()
        self.emit("run_update", self.get(run_id, with_steps=False))

    def _finish(self, run_id: str, status: RunStatus, message: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None or RunStatus(run.status).finished:
                return
            run.status, run.message, run.finished_at = status.value, message[:4000], utcnow()
            device_id = run.device_id
        log.info("run %s %s: %s", run_id, status.value, message)
        with self._lock:
            self._cancelled.discard(run_id)
        if status is RunStatus.PASSED:
            self._remember_plan(run_id)
        try:
            write_run_report(self.get(run_id), self.files)
        except (OSError, StorageError) as exc:
            log.error("run %s: report not written: %s", run_id, exc)
        self._release(device_id, run_id)
        for hook in self.hooks_finished:
            try:
                hook(run_id)
            except Exception:  # a hook must not break the run's end
                log.exception("run-finished hook failed for %s", run_id)
        self.emit("run_update", self.get(run_id, with_steps=False))
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
        run = self.get(run_id, with_steps=False)
        status = RunStatus(run["status"])
        if status.finished:
            return run
        with self._lock:
            queue = self._queues.get(run["device_id"], deque())
            queued = run_id in queue
            if queued:
                queue.remove(run_id)
        if queued:
            self._finish_unqueued(run_id)
        else:
            with self._lock:
                self._cancelled.add(run_id)
            try:
                self.lab.call(run["device_id"], ServerEvent.CANCEL_RUN, {"run_id": run_id}, timeout=5)
            except DevicePilotError as exc:
                self._finish(run_id, RunStatus.ERROR, f"cancelled; host unreachable: {exc}")
        return self.get(run_id, with_steps=False)

    def _finish_unqueued(self, run_id: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            run.status, run.message, run.finished_at = RunStatus.ERROR.value, "cancelled before it started", utcnow()
        self.emit("run_update", self.get(run_id, with_steps=False))

    # -- reading (see server/run_records.py) ------------------------------------------
    def get(self, run_id: str, with_steps: bool = True) -> dict[str, Any]:
        return self.records.get(run_id, with_steps)

    def list(self, **filters: Any) -> list[dict[str, Any]]:
        return self.records.list(**filters)

    def planning_context(self, run_id: str) -> dict[str, Any]:
        return self.records.planning_context(run_id)

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
import os
from typing import Any, Callable

from sqlalchemy import select

from server.ai_central import AICentral, AttemptOutcome, ReplanInfo
from server.db import Database, DeviceRow, RunRow, StepRow, utcnow
from server.guard_confirm import destructive_commands
from server.lab import Lab
from server.llm.prompt import check_template
from server.llm.usage import TokenUsage
from server.plan_cache import PlanCache
from server.next_commands import NextCommands, parse_request
from server.reports import write_run_report
from server.run_queue import Reservation, RunQueue
from server.rule_store import RuleStore
from server.run_planning import RunPlanner
from server.run_records import INTERNAL_PLAN_KEYS, RunRecords, iso
from server.storage import FileStore, StorageError, is_run_id
from shared.errors import DevicePilotError, HostUnavailable, RequestError
from shared.models import Plan, PlannerName, PlanStep, RunStatus, StepResult, StepStatus
from shared.plan import validate_plan
from shared.policy import DEFAULT_STEP_TIMEOUT_S, Limits
from shared.protocol import DashboardEvent, ServerEvent
from shared.screen import ObservationRecord

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]


MAX_REPLANS = 1
MAX_CONTINUATIONS = 16  # closed-loop rounds per run (each: observe, plan the next clauses, run them)
STEP_ARRIVAL_S = 10.0   # how long the end of a run waits for the step records its host says it sent


def _env_seconds(name: str, default: float) -> float:
    try:
        return max(0.2, float(os.environ.get(name, "") or default))
    except ValueError:
        return default


LEASE_S = _env_seconds("DEVICEPILOT_LEASE_S", 30.0)
"""A reservation's lease: renewed by each heartbeat of the device's host (every 10 s by default)."""
RECONCILE_GRACE_S = _env_seconds("DEVICEPILOT_RECONCILE_GRACE_S", 45.0)
"""After a server restart, how long a run left running waits for its host to report it."""
def _server_limits() -> Limits:
    """``DEVICEPILOT_STEP_TIMEOUT_S`` and ``DEVICEPILOT_MAX_RETRIES``: the server's level of the cascade."""
    retries = os.environ.get("DEVICEPILOT_MAX_RETRIES", "").strip()
    return Limits(_env_seconds("DEVICEPILOT_STEP_TIMEOUT_S", DEFAULT_STEP_TIMEOUT_S),
                  min(int(retries), 5) if retries.isdigit() else None)


SERVER_LIMITS = _server_limits()
ABORT_WAIT_S = _env_seconds("DEVICEPILOT_ABORT_WAIT_S", 120.0)
"""How long an online host may take to confirm the abort of a run the server ended, before its device is freed."""
REPLANNED_PLANNERS = (PlannerName.CACHE.value, PlannerName.LLM.value, PlannerName.BUILTIN.value)
CACHED_PLANNERS = (PlannerName.CACHE.value, PlannerName.LLM.value)
GIVEN_PLANNERS = (PlannerName.USER.value, PlannerName.TESTCASE.value)


def _only_repeats(steps: list[PlanStep], failed: PlanStep, done: tuple[PlanStep, ...] = ()) -> bool:
    """True when *steps* only run again what already passed and then the failed check as it was.

    Nothing on the device changes before the check, so it would fail again: a failed check is
    not retried as is (a re-plan that goes somewhere new first is kept).
    """
    seen = {(st.command, repr(sorted(st.params.items()))) for st in (*done, failed)}
    key = (failed.command, repr(sorted(failed.params.items())))
    mine = [(st.command, repr(sorted(st.params.items()))) for st in steps]
    return bool(steps) and key in mine and all(k in seen for k in mine)


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
        self.queue = RunQueue(db, LEASE_S)
        self._done = threading.Condition()
        self._stored = threading.Condition()      # notified when a step record is stored
        self._replanning: set[str] = set()
        self._host_idle: set[str] = set()         # runs whose host reported the end of what it was sent
        self._recovering: set[str] = set()        # runs left running by the previous server process
        self._monitor_stop = threading.Event()
        self.hooks_finished: list[Callable[[str], None]] = []
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
        if mode not in ("plan", "run"):
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
        stored: dict[str, Any] = {"options": {"no_cache": no_cache, "confirm": bool(confirm),
                                              "limits": step_limits.to_dict(),
                                              "run_timeout": float(run_timeout) if run_timeout else None,
                                              "next_run": list(next_run or [])}}
        if prompt_template is not None:
            stored["options"]["prompt_template"] = check_template(prompt_template)
        if plan:
            stored.update(user_plan=plan, user_planner=source)
        if testcase:
            stored["testcase"] = testcase
        with self.db.session() as s:
            s.add(RunRow(id=run_id, device_id=device_id, task=task.strip(), mode=mode,
                         status=RunStatus.QUEUED.value, plan=stored))
        self.queue.enqueue(run_id, device_id, priority)
        log.info("run %s queued on %s: %r", run_id, device_id, task[:200])
        self._kick(device_id)
        return self.get(run_id)

    def _kick(self, device_id: str) -> None:
        """Start the device's next queued run, when its host is connected and nothing holds it."""
        if not self.lab.is_online(device_id):
            return   # the runs wait for the host to come back
        run_id = self.queue.reserve_next(device_id)
        if run_id is None:
            return
        self.lab.set_busy(device_id, True)
        self.spawn(self._process, run_id)

    def _release(self, device_id: str, run_id: str) -> None:
        """The device is free of *run_id*: hand it to the next queued run."""
        self.queue.release(run_id)
        with self._lock:
            self._host_idle.discard(run_id)
            self._recovering.discard(run_id)
        if self.queue.holder(device_id) is None:
            self.lab.set_busy(device_id, False)
        self._kick(device_id)

    # -- lifecycle of the service: reconciliation and the lease monitor -----------------
    def start(self, tick_s: float | None = None) -> None:
        """Reconcile what the previous server process left, then watch leases (call once, when serving)."""
        self._reconcile()
        tick = tick_s if tick_s is not None else min(1.0, LEASE_S / 4)
        threading.Thread(target=self._monitor, args=(tick,), name="run-leases", daemon=True).start()

    def stop(self) -> None:
        self._monitor_stop.set()

    def _reconcile(self) -> None:
        """Runs left ``planning`` go back to the queue; runs left ``running`` wait for their host to report them."""
        with self.db.session() as s:
            rows = s.scalars(select(RunRow).where(RunRow.status.in_(
                (RunStatus.QUEUED.value, RunStatus.PLANNING.value, RunStatus.RUNNING.value)))).all()
            runs = [(r.id, r.device_id, RunStatus(r.status)) for r in rows]
        queued = {run_id for run_id, _ in self.queue.entries()}
        for run_id, device_id, status in runs:
            if run_id not in queued:   # a database from before the queue table
                self.queue.enqueue(run_id, device_id)
            if status is RunStatus.PLANNING:
                self.queue.requeue(run_id)
                self._update(run_id, status=RunStatus.QUEUED,
                             event="the server restarted while planning; the run waits to be planned again")
            elif status is RunStatus.RUNNING:
                with self._lock:
                    self._recovering.add(run_id)
                self.queue.renew([device_id], RECONCILE_GRACE_S)
        open_ids = {r[0] for r in runs}
        for run_id, device_id in self.queue.entries():
            if run_id not in open_ids and self.queue.state_of(run_id) is not Reservation.ABORTING:
                self.queue.release(run_id)   # ended, but the previous process died before freeing the device
        if runs:
            log.info("reconciling %d unfinished run(s) left by the previous server process", len(runs))

    def _monitor(self, tick: float) -> None:
        while not self._monitor_stop.wait(tick):
            try:
                self._check_leases()
            except Exception:  # the monitor must outlive a database hiccup
                log.exception("lease check failed")

    def _check_leases(self) -> None:
        for run_id, device_id in self.queue.expired():
            with self._lock:
                recovering = run_id in self._recovering
            if recovering:
                message = (f"server restarted; host did not report the run within {RECONCILE_GRACE_S:.0f} s")
            else:
                host = self._host_of(device_id)
                message = f"host lost: no heartbeat from host {host!r} for {LEASE_S:.0f} s"
            self._finish(run_id, RunStatus.ERROR, message)
        self._check_run_timeouts()
        for run_id, device_id in self.queue.entries(Reservation.ABORTING):
            hold = self.queue.holder(device_id)
            if hold and hold.run_id == run_id and self.lab.is_online(device_id) \
                    and (utcnow() - hold.since).total_seconds() > ABORT_WAIT_S:
                log.warning("run %s: host never confirmed the abort within %.0f s; freeing %s", run_id,
                            ABORT_WAIT_S, device_id)
                self._release(device_id, run_id)
        for device_id in {d for _, d in self.queue.entries(Reservation.QUEUED)}:
            self._kick(device_id)   # runs queued on another server, or whose host came back

    def _check_run_timeouts(self) -> None:
        """A run past its ``run_timeout`` ends ``error``; its host is told to abort."""
        now = utcnow()
        with self.db.session() as s:
            rows = s.scalars(select(RunRow).where(RunRow.status == RunStatus.RUNNING.value)).all()
            late = [(r.id, limit) for r in rows
                    if (limit := ((r.plan or {}).get("options") or {}).get("run_timeout")) and r.started_at
                    and (now - r.started_at).total_seconds() > limit]
        for run_id, limit in late:
            self._finish(run_id, RunStatus.ERROR, f"run timed out: it ran longer than its run_timeout of {limit:g} s")

    def _host_of(self, device_id: str) -> str:
        with self.db.session() as s:
            dev = s.get(DeviceRow, device_id)
            return dev.host_id if dev else "?"

    def on_heartbeat(self, host_id: str) -> None:
        """The host is alive: its devices' reservations keep their leases."""
        with self.db.session() as s:
            devices = list(s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id)))
        self.queue.renew(devices)

    def on_host_registered(self, host_id: str, reported: Any) -> None:
        """A host (re)connected and said which runs it is executing: reconcile, then start queued runs.

        A run the server still runs and the host reports goes on. A run the host no longer has ends
        ``error``. A run the server ended that the host still executes is aborted, and its device
        waits for the host to confirm.
        """
        running: set[str] = set()
        for item in reported if isinstance(reported, list) else []:
            if isinstance(item, dict) and isinstance(item.get("run_id"), str):
                running.add(item["run_id"])
        with self.db.session() as s:
            devices = list(s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id)))
        for device_id in devices:
            hold = self.queue.holder(device_id)
            if hold is None:
                continue
            status = RunStatus(self.get(hold.run_id, with_steps=False)["status"])
            if hold.state is Reservation.ABORTING:
                if hold.run_id in running:
                    self._tell_abort(device_id, hold.run_id)
                else:
                    self._release(device_id, hold.run_id)
            elif status is RunStatus.RUNNING and hold.run_id in running:
                with self._lock:
                    self._recovering.discard(hold.run_id)
                self.queue.renew([device_id])
                log.info("run %s: host %s reported it after reconnecting; it goes on", hold.run_id, host_id)
            elif status is RunStatus.RUNNING and hold.run_id not in self._host_idle:
                with self._lock:
                    recovering = hold.run_id in self._recovering
                self._finish(hold.run_id, RunStatus.ERROR,
                             "server restarted; host did not report the run" if recovering
                             else f"host {host_id!r} reconnected without the run", host_done=True)
        for device_id in devices:
            if self.queue.holder(device_id) is not None:
                self.lab.set_busy(device_id, True)
            self._kick(device_id)

    def _tell_abort(self, device_id: str, run_id: str) -> None:
        try:
            self.lab.call(device_id, ServerEvent.CANCEL_RUN, {"run_id": run_id, "abort": True}, timeout=5)
        except DevicePilotError as exc:
            log.info("run %s: abort not delivered yet (%s); the host is told when it reports again", run_id, exc)

    # -- planning and dispatch ---------------------------------------------------------
    def _process(self, run_id: str) -> None:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device_id, task, mode, stored = run.device_id, run.task, run.mode, run.plan or {}
        try:
            if not self._update(run_id, status=RunStatus.PLANNING):
                self._release(device_id, run_id)   # cancelled before it started
                return
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
            if not self._update(run_id, status=RunStatus.RUNNING, started=True):
                return   # cancelled while it was planned
            self._run_next_commands(run_id, device_id)
            reply = self.lab.call(device_id, ServerEvent.RUN_PLAN,
                                  {"run_id": run_id, "device_id": device_id, "plan": plan.to_dict(),
                                   "limits": self._limits(stored)})
            if not reply or not reply.get("accepted"):
                raise HostUnavailable(f"host refused the run: {reply.get('error') if reply else 'no reply'}")
        except RequestError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc), host_done=True)
        except DevicePilotError as exc:
            self._finish(run_id, RunStatus.ERROR, str(exc), host_done=True)
        except Exception as exc:  # never leave a run hanging in "planning"
            log.exception("run %s: unexpected error", run_id)
            self._finish(run_id, RunStatus.ERROR, f"server error: {type(exc).__name__}: {exc}", host_done=True)

    # -- host events -------------------------------------------------------------------
    def _accepts(self, host_id: str | None, data: Any, event: str) -> tuple[str | None, bool]:
        """(run id, False) when *host_id* may report on that run now; else (None, whether to abort it).

        A host reports only on the run the server dispatched to it, while that run is running on
        one of its devices: a forged, late or misdirected event is refused and nothing is stored.
        A late event for a run the server ended on that host's device means the host is still
        executing it (it hung, or lost the link): it is told to abort.
        """
        run_id = data.get("run_id") if isinstance(data, dict) else None
        if not is_run_id(run_id):
            log.warning("%s from host %s refused: %r is not a run id", event, host_id, str(run_id)[:40])
            return None, False
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device = s.get(DeviceRow, run.device_id) if run is not None else None
            status, owner = (run.status, device.host_id if device else None) if run is not None else (None, None)
        hold = self.queue.holder(run.device_id) if run is not None else None
        held = hold is not None and hold.run_id == run_id
        if run is None or host_id is None or owner != host_id or status != RunStatus.RUNNING.value or not held \
                or hold.state is not Reservation.RESERVED:
            why = ("unknown run" if run is None else "unregistered connection" if host_id is None
                   else f"the run belongs to host {owner!r}" if owner != host_id else f"the run is {status}")
            log.warning("%s for run %s from host %s refused: %s", event, run_id, host_id, why)
            return None, bool(run is not None and owner == host_id and host_id is not None and held)
        return run_id, False

    def on_step(self, host_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """Store one step result; the reply acknowledges it (``ok``), or tells the host to ``abort`` the run."""
        run_id, abort = self._accepts(host_id, data, "step_result")
        if run_id is None:
            return {"ok": False, "abort": abort}
        try:
            result = StepResult.from_wire(data["step"])
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("step_result for run %s from host %s refused: malformed step (%s)", run_id, host_id, exc)
            return {"ok": False, "abort": False}
        with self.db.session() as s:
            if s.scalars(select(StepRow.id).where(StepRow.run_id == run_id, StepRow.step == result.step)).first():
                return {"ok": True}   # sent again after a reconnect: acknowledged once, stored once
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
        with self._stored:
            self._stored.notify_all()
        if result.current_node:
            self.lab.current_node[device_id] = result.current_node
        self.emit(DashboardEvent.STEP, {"run_id": run_id, "step": step})
        return {"ok": True}

    def on_finished(self, host_id: str | None, data: dict[str, Any]) -> dict[str, Any]:
        run_id, _ = self._accepts(host_id, data, "run_finished")
        if run_id is None:
            self._abort_confirmed(host_id, data)
            return {"ok": False}
        try:
            status = RunStatus(data.get("status"))
        except ValueError:
            status = RunStatus.ERROR
        sent = data.get("steps_sent")
        device_id = self._device_of(run_id)
        if device_id:
            self.lab.current_node[device_id] = data.get("current_node")
        with self._lock:
            self._host_idle.add(run_id)
        self.spawn(self._conclude, run_id, status, str(data.get("message", "")),
                   sent if isinstance(sent, int) and not isinstance(sent, bool) else None)
        return {"ok": True}

    def _abort_confirmed(self, host_id: str | None, data: Any) -> None:
        """The end of a run the server had already ended: its host stopped, so its device is free."""
        run_id = data.get("run_id") if isinstance(data, dict) else None
        if not is_run_id(run_id) or host_id is None:
            return
        device_id = self._device_of(run_id)
        hold = self.queue.holder(device_id) if device_id else None
        if hold is not None and hold.run_id == run_id and hold.state is Reservation.ABORTING \
                and self._host_of(device_id) == host_id:
            log.info("run %s: host %s confirmed the abort; %s is free", run_id, host_id, device_id)
            self._release(device_id, run_id)

    def _conclude(self, run_id: str, status: RunStatus, message: str, steps_sent: int | None = None) -> None:
        """The host finished the plan: once its step records are in, end the run or re-plan it."""
        self._await_steps(run_id, steps_sent)
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
        if status is RunStatus.ERROR and message == "run cancelled":
            status = RunStatus.CANCELLED
        self._finish(run_id, status, message)

    def _pending(self, run_id: str) -> list[str]:
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            return [str(c) for c in ((run.plan or {}).get("pending") or [])] if run is not None else []

    def _stored_steps(self, run_id: str) -> int:
        with self.db.session() as s:
            return len(s.scalars(select(StepRow.id).where(StepRow.run_id == run_id)).all())

    def _await_steps(self, run_id: str, steps_sent: int | None) -> None:
        """Wait until the step records the host says it sent are stored (woken by each stored step).

        Step results and the end of a run are separate events, which may be handled out of
        order; a run must not end — nor be re-planned, reported or cached — without its steps.
        """
        if not steps_sent:
            return
        deadline = dt.datetime.now().timestamp() + STEP_ARRIVAL_S
        with self._stored:
            while (stored := self._stored_steps(run_id)) < steps_sent:
                left = deadline - dt.datetime.now().timestamp()
                if left <= 0:
                    log.warning("run %s: the host sent %d step(s), %d arrived; ending it with those", run_id,
                                steps_sent, stored)
                    return
                self._stored.wait(min(left, 1.0))

    def on_host_lost(self, host_id: str) -> None:
        """A host disconnected: its runs end ``error``; their devices wait for the host to confirm the abort."""
        with self.db.session() as s:
            devices = [d for d in s.scalars(select(DeviceRow.id).where(DeviceRow.host_id == host_id))]
        for device_id in devices:
            hold = self.queue.holder(device_id)
            if hold is None or hold.state is not Reservation.RESERVED:
                continue
            status = RunStatus(self.get(hold.run_id, with_steps=False)["status"])
            if status is RunStatus.RUNNING:
                self._finish(hold.run_id, RunStatus.ERROR, f"host {host_id!r} disconnected mid-run")

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
            if run_id in self._replanning:
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
            if failed is not None and new.feasible and _only_repeats(new.steps, failed, done):
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

    def _forget_context(self, device_id: str) -> None:
        ref = self.lab.device(device_id)
        self.ai.clear_cache(ref.model, ref.userinterface)

    def _run_next_commands(self, run_id: str, device_id: str) -> None:
        """Commands scheduled for this device's next run go first, in order; their results join the run."""
        results = self.next_commands.run_due(device_id, run_id)
        if not results:
            return
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            run.plan = {**(run.plan or {}), "next_commands": results}
        self._update(run_id, event="next-run commands: " + "; ".join(
            f"{r['command']} {r['status']}" + (f" ({r['message']})" if r["status"] != "completed" else "")
            for r in results))

    def _schedule_next_run(self, run_id: str) -> None:
        """A run's ``next_run`` option: schedule its commands for the device's next run, now that it ended."""
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            device_id, items = run.device_id, ((run.plan or {}).get("options") or {}).get("next_run") or []
        for item in items:
            try:
                self.next_commands.schedule(device_id, item, f"run:{run_id}")
            except DevicePilotError as exc:
                self._update(run_id, event=f"next-run command {item.get('command')!r} not scheduled: {exc}")

    @staticmethod
    def _limits(stored: dict[str, Any]) -> dict[str, Any]:
        """The run's and the server's levels of the step-limits cascade (shared/policy.py), for the host."""
        options = stored.get("options") or {}
        return {"run": Limits.from_dict(options.get("limits")).to_dict(), "server": SERVER_LIMITS.to_dict()}

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
        if RunStatus(self.get(run_id, with_steps=False)["status"]).finished:
            return   # cancelled (or ended) meanwhile
        unconfirmed = self._unconfirmed(run_id, new, self.ai.context(device_id).commands)
        if unconfirmed:
            self._finish(run_id, RunStatus.ERROR, f"{what} were {unconfirmed}")
            return
        with self._lock:
            self._host_idle.discard(run_id)
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            stored = dict(run.plan or {}) if run else {}
        reply = self.lab.call(device_id, ServerEvent.RUN_PLAN, {
            "run_id": run_id, "device_id": device_id,
            "plan": Plan(new.analysis, True, new.steps, planner=new.planner).to_dict(),
            "limits": self._limits(stored)})
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
            if run_id in self._replanning:
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
                internal: dict[str, Any] | None = None) -> bool:
        """Change the run in one transaction; False (and nothing changed) for a move its lifecycle forbids."""
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                return False
            if status is not None:
                if not RunStatus(run.status).may_become(status):
                    log.info("run %s: %s → %s refused", run_id, run.status, status.value)
                    return False
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
        self.emit(DashboardEvent.RUN_UPDATE, self.get(run_id, with_steps=False))
        return True

    def _finish(self, run_id: str, status: RunStatus, message: str, host_done: bool | None = None) -> None:
        """End the run (once). *host_done*: its host is not executing it (default: it was never dispatched,
        or the host reported its end); otherwise the device waits for the host to confirm the abort."""
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            if run is None or not RunStatus(run.status).may_become(status):
                return
            dispatched = run.status == RunStatus.RUNNING.value
            run.status, run.message, run.finished_at = status.value, message[:4000], utcnow()
            device_id = run.device_id
        log.info("run %s %s: %s", run_id, status.value, message)
        with self._lock:
            idle = run_id in self._host_idle
        if host_done is None:
            host_done = not dispatched or idle
        if status is RunStatus.PASSED:
            self._remember_plan(run_id)
        try:
            write_run_report(self.get(run_id), self.files)
        except (OSError, StorageError) as exc:
            log.error("run %s: report not written: %s", run_id, exc)
        if host_done:
            self._release(device_id, run_id)
        else:   # the host may still be executing it: stop it, and keep the device until it confirms
            self.queue.aborting(run_id)
            self.spawn(self._tell_abort, device_id, run_id)
        self._schedule_next_run(run_id)
        for hook in self.hooks_finished:
            try:
                hook(run_id)
            except Exception:  # a hook must not break the run's end
                log.exception("run-finished hook failed for %s", run_id)
        self.emit(DashboardEvent.RUN_UPDATE, self.get(run_id, with_steps=False))
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

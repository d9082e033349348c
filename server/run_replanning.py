"""Planning orchestration after dispatch: re-planning a failed run, the closed loop, the plan cache."""
from __future__ import annotations

import logging
import os
from typing import Any


from server.ai_central import ReplanInfo
from server.db import RunRow
from server.guard_confirm import destructive_commands
from server.planners.checks import check_commands
from server.llm.usage import TokenUsage
from server.run_model import CaseRef, Observation, RecordError, Replan, Run, RunMode, RunOptions, RunRecord, ShownPlan
from shared import vocabulary as V
from shared.errors import DevicePilotError, HostUnavailable
from shared.models import Plan, PlannerName, PlanStep, RunStatus, StepStatus
from shared.policy import DEFAULT_STEP_TIMEOUT_S, Limits
from shared.protocol import ServerEvent


from server.run_leases import _env_seconds

from shared.messages import RunPlanRequest

log = logging.getLogger(__name__)

MAX_REPLANS = 1
MAX_CONTINUATIONS = 16  # closed-loop rounds per run (each: observe, plan the next clauses, run them)

def _server_limits() -> Limits:
    """``DEVICEPILOT_STEP_TIMEOUT_S`` and ``DEVICEPILOT_MAX_RETRIES``: the server's level of the cascade."""
    retries = os.environ.get("DEVICEPILOT_MAX_RETRIES", "").strip()
    return Limits(_env_seconds("DEVICEPILOT_STEP_TIMEOUT_S", DEFAULT_STEP_TIMEOUT_S),
                  min(int(retries), 5) if retries.isdigit() else None)


SERVER_LIMITS = _server_limits()

REPLANNED_PLANNERS = (PlannerName.CACHE, PlannerName.LLM, PlannerName.BUILTIN)
CACHED_PLANNERS = (PlannerName.CACHE, PlannerName.LLM)


def _only_repeats(steps: list[PlanStep], failed: PlanStep, done: tuple[PlanStep, ...] = (),
                  here: str | None = None, checks: frozenset[str] = frozenset()) -> bool:
    """True when *steps* only run again what already passed and then the failed check as it was,
    or, after a failed check (*checks*: the device's check commands), only check again, in any way.

    Nothing on the device changes before the check, so it would fail again: a failed check is
    not retried as is (a re-plan that goes somewhere new first is kept). Nor is what it found checked
    another way ("15 bookmarks" as 15 rows failed; as 15 list items it could pass): that would be a pass
    the screen never earned. A ``goto`` to *here*, the screen the device is on, changes nothing either (the
    steps that reached it ran as its edge's actions).
    """
    stay = (PlanStep(0, V.GOTO, {"node": here}),) if here else ()
    seen = {(st.command, repr(sorted(st.params.items()))) for st in (*done, *stay, failed)}
    key = (failed.command, repr(sorted(failed.params.items())))
    mine = [(st.command, repr(sorted(st.params.items()))) for st in steps]
    if failed.command in checks:
        return bool(steps) and all(k in seen or k[0] in checks for k in mine)
    return bool(steps) and key in mine and all(k in seen for k in mine)


class Replanning:
    """Part of :class:`server.runs.RunService`: re-plans, closed-loop continuations, confirmation, the plan cache."""

    # -- given plans, re-planning, the plan cache -------------------------------------
    @staticmethod
    def _given_plan_problem(raw: Plan, plan: Plan, testcase: CaseRef | None) -> str:
        """Why a saved test case cannot run as saved ('' when it can). User plans run what validates."""
        if raw.planner != PlannerName.TESTCASE.value:
            return ""
        name = testcase.name if testcase is not None else "?"
        if len(plan.steps) != len(raw.steps) or not plan.feasible:
            return (f"test case {name!r} no longer fits this device: " + "; ".join(plan.notes or ["no step is valid"]))
        return ""

    def _claim_replan(self, run_id: str) -> bool:
        """True (and the run is marked) when a failed run may be re-planned: once, for planned runs only."""
        with self.db.session() as s:
            row = s.get(RunRow, run_id)
            run = Run.from_row(row) if row is not None else None
        if run is None or run.status is not RunStatus.RUNNING or run.mode is not RunMode.RUN:
            return False
        if run.planner not in REPLANNED_PLANNERS or len(run.plan.replans) >= MAX_REPLANS:
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
                row = s.get(RunRow, run_id)
                run = Run.from_row(row)
                rows = [(r.step, r.command, dict(r.params or {}), r.status, r.description) for r in row.steps]
            device_id, shown, usage = run.device_id, run.plan, run.usage
            planned = {st.step: st for st in shown.plan_steps()}
            done = tuple(planned.get(n) or PlanStep(n, c, p, d) for n, c, p, status, d in rows
                         if status == StepStatus.PASSED.value)
            failed_row = next((r for r in reversed(rows) if r[3] == StepStatus.FAILED.value), None)
            failed = (planned.get(failed_row[0]) or PlanStep(failed_row[0], failed_row[1], failed_row[2], failed_row[4])
                      if failed_row else None)
            node = self.lab.current_node.get(device_id)
            self._update(run_id, event=f"step {failed.step if failed else '?'} failed ({failure}); "
                                       f"re-planning once from {node or 'an unknown screen'}")
            context = self.ai.context(device_id)
            outcome = self.planning.replan(run_id, shown.expanded_task or run.task, context,
                                           ReplanInfo(done, failed, failure, node),
                                           run.record.options.prompt_template)
            usage = usage + TokenUsage.from_dict(outcome.usage)
            new = outcome.plan
            verifications = check_commands(context)
            if failed is not None and new.feasible and _only_repeats(new.steps, failed, done, node, verifications):
                new = Plan(f"the re-plan would only check again what the failed {failed.command} found not so",
                           False, planner=new.planner)
            shown.replans.append(Replan(after_step=failed.step if failed else None, from_node=node,
                                        planner=PlannerName(new.planner), feasible=new.feasible,
                                        analysis=new.analysis, notes=list(new.notes), steps=len(new.steps)))
            if not new.feasible or not new.steps:
                self._update(run_id, plan=shown, usage=usage,
                             event=f"re-plan by {new.planner} found nothing to run: {new.analysis}")
                self._finish(run_id, RunStatus.FAILED, failure)
                return
            base = max([n for n in planned] + [r[0] for r in rows] + [0])
            self._append(run_id, device_id, shown, new, base, usage,
                         f"re-planned by {new.planner}: {len(new.steps)} step(s) appended from step {base + 1}",
                         "the re-planned steps")
        except DevicePilotError as exc:
            log.warning("run %s: re-plan failed: %s", run_id, exc)
            self._finish(run_id, RunStatus.FAILED, f"{failure} (re-plan not possible: {exc})")
        except Exception as exc:  # never leave a run hanging in "running"
            log.exception("run %s: unexpected error while re-planning", run_id)
            self._finish(run_id, RunStatus.FAILED, f"{failure} (re-plan crashed: {type(exc).__name__})")
        finally:
            with self._lock:
                self._replanning.discard(run_id)

    def _append(self, run_id: str, device_id: str, shown: ShownPlan, new: Plan, after: int,
                usage: TokenUsage, event: str, what: str) -> None:
        """Number *new*'s steps after step *after*, add them to the run's plan *shown*, send them. What *new* leaves
        for the screen its steps lead to is what the run plans next (the closed loop), never dropped: a re-plan of
        "search, open the result, check its year" that ran only the search would pass."""
        for i, st in enumerate(new.steps, 1):
            st.step = after + i
        shown.steps.extend(st.to_dict() for st in new.steps)
        shown.pending = list(new.pending)
        self._update(run_id, plan=shown, usage=usage, event=event)
        self._send_more(run_id, device_id, new, what)

    @staticmethod
    def _plan_request(run_id: str, device_id: str, plan: Plan, options: RunOptions) -> dict[str, Any]:
        """The ``run_plan`` message, with the run's and the server's levels of the step-limits cascade."""
        return RunPlanRequest(run_id, device_id, plan, options.limits, SERVER_LIMITS).to_wire()

    def _unconfirmed(self, run_id: str, plan: Plan, specs: dict[str, Any]) -> str:
        """Why *plan* may not run unconfirmed (destructive steps a planner chose), or ''.

        A given plan was confirmed at the API (``_confirm_given_plan``); a planned
        one needs the run's ``confirm`` option, because a tester who typed "reset
        the app" may not know the planner picked ``clear_app_data``.
        """
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            options = RunRecord.of_row(run).options if run else RunOptions()
        if options.confirm:
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
            options = RunRecord.of_row(run).options if run else RunOptions()
        reply = self.lab.call(device_id, ServerEvent.RUN_PLAN, self._plan_request(
            run_id, device_id, Plan(new.analysis, True, new.steps, planner=new.planner), options))
        if not reply or not reply.get("accepted"):
            raise HostUnavailable(f"host refused {what}: {reply.get('error') if reply else 'no reply'}")

    def _claim_continuation(self, run: Run | None) -> bool:
        """True (and the run is marked) when a passed part of *run* has clauses left to plan on the new screen."""
        if run is None or run.status is not RunStatus.RUNNING or not run.plan.pending:
            return False
        if len(run.plan.observations) >= MAX_CONTINUATIONS:
            return False
        with self._lock:
            if run.id in self._replanning:
                return False
            self._replanning.add(run.id)
        return True

    def _continue(self, run_id: str) -> None:
        """Closed loop: plan the task's remaining clauses against the screen the device shows now."""
        try:
            with self.db.session() as s:
                row = s.get(RunRow, run_id)
                run = Run.from_row(row)
                done = max([r.step for r in row.steps] + [0])
            device_id, shown, usage = run.device_id, run.plan, run.usage
            task = ", then ".join(shown.pending)
            context = self.ai.with_screen(self.ai.context(device_id), device_id)
            outcome = self.ai.plan(task, context, use_cache=False)
            usage = usage + TokenUsage.from_dict(outcome.usage)
            new = outcome.plan
            seen = context.screen
            record = Observation(task, seen.url if seen else "", seen.title if seen else "",
                                 len(seen.elements) if seen else 0,
                                 new.analysis if new.feasible else f"not possible here: {new.analysis}",
                                 [st.to_dict() for st in new.steps], seen.digest() if seen else "")
            before = list(shown.observations)
            shown.observations.append(record)
            self.planning.observed(run_id, record.to_json())
            again = repeated_round(before, record) if new.feasible and new.steps else None
            if again is not None:
                # a round seen before, on the same screen: running its steps again would go round in circles
                # (the last round: they changed nothing; an earlier one: A → B → A) until the round limit
                shown.pending = []
                self._update(run_id, plan=shown, usage=usage, event=f"after step {done}, no progress on {task!r}")
                how = "is as it was before the last steps, which would be planned again" \
                    if again == len(before) - 1 else \
                    f"is the one round {again + 1} saw, and the same steps would go round the same circle"
                self._finish(run_id, RunStatus.FAILED,
                             f"after step {done}: no progress on {task!r}: the screen ({record.url or record.title}) "
                             f"{how}")
                return
            if not new.feasible or not new.steps:
                shown.pending = []
                self._update(run_id, plan=shown, usage=usage, event=f"after step {done}, the screen does not allow "
                                                                    f"{task!r}: {new.analysis}")
                # what the rest asks for is not on the screen the steps led to: a check of it fails; an action
                # is one the device cannot do (an open world finds that out only once it has looked)
                status = RunStatus.INFEASIBLE if not new.feasible and not new.refused_check else RunStatus.FAILED
                self._finish(run_id, status, f"after step {done}: {new.analysis}")
                return
            self._append(run_id, device_id, shown, new, done, usage,
                         f"observed the screen after step {done} ({record.elements_seen} element(s)"
                         f"{' at ' + record.url if record.url else ''}); planned {task!r}: {len(new.steps)} step(s)",
                         "the next steps")
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
            row = s.get(RunRow, run_id)
            try:
                run = Run.from_row(row) if row is not None else None
            except RecordError as exc:   # the cache is an optimisation: the run still ends
                log.error("run %s: plan not stored in the plan cache: %s", run_id, exc)
                return
            if run is None or run.mode is not RunMode.RUN or run.planner not in CACHED_PLANNERS or run.plan.rules \
                    or run.status.finished:
                return   # a plan built from rules is planned part by part, never replayed whole; an ended run
                # (cancelled, timed out) has no say
            passed = {r.step for r in row.steps if r.status == StepStatus.PASSED.value}
        shown, ctx = run.plan, run.record.context
        steps = [PlanStep.from_dict(d) for d in shown.steps if d.get("step") in passed]
        if not steps or ctx is None or not ctx.fingerprint:
            return
        for i, st in enumerate(steps, 1):
            st.step = i
        healed = bool(shown.replans)
        try:
            self.plan_cache.store(run.task, ctx.device_model, ctx.userinterface, ctx.fingerprint, run.start_node,
                                  Plan(shown.analysis, True, steps), source_run=run_id,
                                  source_planner=run.planner.value, healed=healed)
        except Exception:  # the cache is an optimisation: a failure to store must not touch the run
            log.exception("run %s: plan not stored in the plan cache", run_id)


def repeated_round(before: list[Observation], now: Observation) -> int | None:
    """The index of the latest earlier round that *now* repeats (same screen, clauses and steps), or None."""
    return next((i for i in range(len(before) - 1, -1, -1) if _same_round(before[i], now)), None)


def _same_round(before: Observation, now: Observation) -> bool:
    """Two closed-loop rounds that saw the same screen for the same clauses and planned the same steps."""
    def unnumbered(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in step.items() if k != "step"} for step in steps]
    keys = ("clause", "url", "title", "elements_seen", "digest")
    return all(getattr(before, k) == getattr(now, k) for k in keys) and unnumbered(before.steps) == unnumbered(now.steps)

"""AI Central: device contexts (cached), planners in order, and validation of every plan.

Each executor's context is cached for ``ttl`` seconds under
``action:{model}:{ui}``, ``verification:{model}:{ui}`` and
``navigation:{model}:{ui}``, so every device of one model in the lab shares it.
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Sequence

from cachetools import TTLCache

from server.lab import Lab
from server.planners.base import Planner, PlanRequest
from shared import vocabulary as V
from shared.commands import CommandKind
from shared.errors import DevicePilotError, PlannerError
from shared.models import ExecutorContext, Plan, PlannerName, PlanningContext, PlanStep
from shared.plan import validate_plan
from shared.protocol import ServerEvent
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)

CONTEXT_KINDS = (CommandKind.ACTION, CommandKind.VERIFICATION, CommandKind.NAVIGATION)


class AttemptOutcome(str, Enum):
    USED = "used"              # this planner's plan is the run's plan
    SKIPPED = "skipped"        # the planner had nothing to offer (a cache miss)
    FAILED = "failed"          # the planner raised (an unreachable LLM, an unreadable answer)
    INFEASIBLE = "infeasible"  # its plan was infeasible, or nothing of it survived validation


@dataclass(frozen=True)
class PlannerAttempt:
    """What one planner of the chain did for one plan request."""

    planner: str
    outcome: AttemptOutcome
    reason: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"planner": self.planner, "outcome": self.outcome.value, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.planner} {self.outcome.value}" + (f": {self.reason}" if self.reason else "")


@dataclass(frozen=True)
class ReplanInfo:
    """Where a run stands when one of its steps failed: what passed, what failed, where the device is."""

    done: tuple[PlanStep, ...]
    failed: PlanStep | None
    failure: str
    node: str | None


@dataclass
class ReplanRequest(PlanRequest):
    """A plan request for the rest of a run, after a failed step."""

    replan: ReplanInfo | None = None


@dataclass
class PlanOutcome:
    plan: Plan
    usage: dict[str, Any]
    duration_ms: float
    attempts: list[str]
    trail: list[PlannerAttempt] = field(default_factory=list)


class AICentral:
    def __init__(self, lab: Lab, planners: Sequence[Planner], ttl_s: float = 300.0) -> None:
        self.lab = lab
        self.planners = list(planners)
        self._cache: TTLCache[str, ExecutorContext] = TTLCache(maxsize=4096, ttl=ttl_s)
        self._lock = threading.Lock()
        self._flights: dict[str, threading.Lock] = {}   # one fetch per key at a time
        self.context_fetches = 0
        self.observe_ms = 0.0
        self._registered: dict[tuple[str, str], str] = {}   # (model, ui) -> fingerprint of its registration

    @staticmethod
    def cache_key(kind: CommandKind, model: str, ui: str) -> str:
        return f"{kind.value}:{model}:{ui}"

    def context(self, device_id: str) -> PlanningContext:
        """The three contexts of the device's (model, userinterface), from the cache or its host."""
        ref = self.lab.device(device_id)
        parts: dict[CommandKind, ExecutorContext] = {}
        for kind in CONTEXT_KINDS:
            key = self.cache_key(kind, ref.model, ref.userinterface)
            with self._lock:
                cached = self._cache.get(key)
            if cached is None:
                cached = self._fetch(key, device_id, kind, ref.host_id)
            parts[kind] = cached
        return PlanningContext(ref.model, ref.userinterface, parts[CommandKind.ACTION],
                               parts[CommandKind.VERIFICATION], parts[CommandKind.NAVIGATION],
                               self.lab.current_node.get(device_id))

    def _fetch(self, key: str, device_id: str, kind: CommandKind, host_id: str) -> ExecutorContext:
        """Ask the host once for a context many callers miss at the same time (single flight)."""
        with self._lock:
            flight = self._flights.setdefault(key, threading.Lock())
        with flight:
            with self._lock:
                cached = self._cache.get(key)   # another caller fetched it while this one waited
            if cached is not None:
                return cached
            raw = self.lab.call(device_id, ServerEvent.GET_CONTEXT, {"device_id": device_id, "kind": kind.value})
            cached = ExecutorContext.from_dict(raw)
            with self._lock:
                self.context_fetches += 1
                self._cache[key] = cached
                self._flights.pop(key, None)
            log.info("context %s loaded from host %s (%d commands, %d nodes)", key, host_id,
                     len(cached.commands), len(cached.nodes))
            return cached

    def observe(self, device_id: str) -> ScreenObservation | None:
        """What the device shows now (never cached), or None when its host cannot read the screen."""
        start = time.perf_counter()
        try:
            raw = self.lab.call(device_id, ServerEvent.OBSERVE, {"device_id": device_id}, timeout=15)
        except DevicePilotError as exc:
            log.info("device %s: no live screen for planning (%s)", device_id, exc)
            return None
        finally:
            self.observe_ms = (time.perf_counter() - start) * 1000
        if not isinstance(raw, dict) or not isinstance(raw.get("elements"), list):
            return None
        return ScreenObservation.from_dict(raw)

    def with_location(self, context: PlanningContext, device_id: str) -> PlanningContext:
        """*context* starting from the node the device is on, asked of its host when it is not known.

        After a remote-pad command, or before a device's first run, the server does not know the
        screen; the host locates it (checking node verifications) only now that a plan needs it.
        """
        if context.current_node is not None or not context.navigation.nodes:
            return context
        try:
            raw = self.lab.call(device_id, ServerEvent.LOCATE, {"device_id": device_id}, timeout=15)
        except DevicePilotError as exc:
            log.info("device %s: not located for planning (%s)", device_id, exc)
            return context
        node = raw.get("current_node") if isinstance(raw, dict) else None
        if not isinstance(node, str) or node not in context.nodes:
            return context
        self.lab.current_node[device_id] = node
        return replace(context, current_node=node)

    def with_screen(self, context: PlanningContext, device_id: str) -> PlanningContext:
        """*context* with the device's live screen, for planning; unchanged for devices that cannot read it.

        Only devices that declare element commands (``dump_elements``, ``click_element``) are asked:
        an IR set-top box with HDMI capture has no structure to read.
        """
        if not ({V.DUMP_ELEMENTS, V.CLICK} & set(context.commands)):
            return context
        screen = self.observe(device_id)
        return replace(context, screen=screen) if screen is not None else context

    def note_registration(self, devices: Any) -> int:
        """A host (re-)registered *devices*: drop cached contexts whose device changed what it declares.

        Each device's registration (model, user interface, controllers and their
        parameters, navigation tree) is fingerprinted; when a (model, UI) comes
        back with another fingerprint, its cached contexts are cleared, so a
        changed tree or set of commands is used by the very next plan.
        """
        cleared = 0
        for d in devices if isinstance(devices, list) else []:
            if not isinstance(d, dict):
                continue
            model, ui = str(d.get("model", "")), str(d.get("userinterface", ""))
            payload = json.dumps([d.get("controllers"), d.get("navigation_tree"), d.get("commands")],
                                 sort_keys=True, default=str)
            fingerprint = hashlib.sha256(payload.encode()).hexdigest()[:16]
            with self._lock:
                before = self._registered.get((model, ui))
                self._registered[(model, ui)] = fingerprint
            if before is not None and before != fingerprint:
                log.info("device %s re-registered with a changed declaration: clearing context of %s/%s",
                         d.get("id"), model, ui)
                cleared += self.clear_cache(model, ui)
        return cleared

    def cached_keys(self) -> list[str]:
        with self._lock:
            return sorted(self._cache.keys())

    def clear_cache(self, model: str | None = None, userinterface: str | None = None) -> int:
        """Drop cached contexts (all, or those of one model and/or userinterface); return how many."""
        with self._lock:
            doomed = [k for k in self._cache
                      if (model is None or k.split(":")[1] == model)
                      and (userinterface is None or k.split(":", 2)[2] == userinterface)]
            for k in doomed:
                del self._cache[k]
        log.info("cleared %d cached context(s)", len(doomed))
        return len(doomed)

    def plan(self, task: str, context: PlanningContext, planners: Sequence[Planner] | None = None, *,
             use_cache: bool = True) -> PlanOutcome:
        """Ask each planner in turn; validate what it returns; the first usable plan wins.

        A planner that returns nothing, raises, or whose plan validates to
        nothing is recorded and the next one is asked. The last planner's
        answer stands even when infeasible (the built-in planner's reason).
        With *use_cache* false the plan cache is not consulted.
        """
        chain = list(planners if planners is not None else self.planners)
        if not use_cache:
            chain = [p for p in chain if p.name != PlannerName.CACHE.value]
        return self._run_chain(PlanRequest(task, context, context.current_node), chain)

    def replan(self, task: str, context: PlanningContext, info: ReplanInfo,
               planners: Sequence[Planner] | None = None) -> PlanOutcome:
        """Plan the rest of a run from the node the device is really on (never from the cache)."""
        chain = [p for p in (planners if planners is not None else self.planners)
                 if p.name != PlannerName.CACHE.value]
        request = ReplanRequest(task, context, info.node, replan=info)
        return self._run_chain(request, chain)

    def _run_chain(self, request: PlanRequest, chain: list[Planner]) -> PlanOutcome:
        start = time.perf_counter()
        context = request.context
        trail: list[PlannerAttempt] = []
        last: Plan | None = None
        for i, planner in enumerate(chain):
            try:
                raw = planner.plan(request)
            except DevicePilotError as exc:
                trail.append(PlannerAttempt(planner.name, AttemptOutcome.FAILED, str(exc)))
                request.attempts.append(f"{planner.name}: {exc}")
                log.warning("planner %s failed: %s", planner.name, exc)
                continue
            if raw is None:
                trail.append(PlannerAttempt(planner.name, AttemptOutcome.SKIPPED, "no plan to offer"))
                continue
            raw.planner = planner.name
            plan = validate_plan(raw, context)
            last = plan
            if plan.feasible or i == len(chain) - 1:
                trail.append(PlannerAttempt(planner.name, AttemptOutcome.USED if plan.feasible
                                            else AttemptOutcome.INFEASIBLE, plan.analysis))
                break
            reason = f"{plan.analysis} {' '.join(plan.notes)}".strip()
            trail.append(PlannerAttempt(planner.name, AttemptOutcome.INFEASIBLE, reason))
            request.attempts.append(f"{planner.name}: {reason}")
        if last is None:
            raise PlannerError("no planner produced a plan: " + "; ".join(request.attempts))
        if request.attempts:
            last.notes = [*last.notes, *(f"earlier planner {a}" for a in request.attempts)]
        return PlanOutcome(last, request.usage, (time.perf_counter() - start) * 1000, request.attempts, trail)

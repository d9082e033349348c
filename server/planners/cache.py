"""The plan-cache planner: replay the plan of an earlier passed run, with no LLM call at all.

First in AI Central's chain. It answers only when the cache holds a plan for
the same normalized task, device model, user interface, context fingerprint
and start node (see :mod:`server.plan_cache`); otherwise it steps aside. It
never answers a re-plan: re-planning is for when a plan just failed.
"""
from __future__ import annotations

import logging

from server.plan_cache import PlanCache
from server.planners.base import PlanRequest
from shared.models import Plan, PlannerName

log = logging.getLogger(__name__)


class CachePlanner:
    name = PlannerName.CACHE.value

    def __init__(self, cache: PlanCache) -> None:
        self.cache = cache

    def plan(self, request: PlanRequest) -> Plan | None:
        if getattr(request, "replan", None) is not None:
            return None
        entry = self.cache.lookup(request.task, request.context, request.current_node)
        return entry.replay_plan() if entry is not None else None

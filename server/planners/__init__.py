"""Planners turn a task and a device's context into a plan. AI Central tries them in order."""
from server.planners.base import Planner, PlanRequest

__all__ = ["PlanRequest", "Planner"]

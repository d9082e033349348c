"""The planner interface."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.models import Plan, PlanningContext


@dataclass
class PlanRequest:
    task: str
    context: PlanningContext
    current_node: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)   # token usage, filled by LLM planners
    attempts: list[str] = field(default_factory=list)     # what each planner said, for the run's record


class Planner(Protocol):
    """Returns a plan, or None to let the next planner try."""

    name: str

    def plan(self, request: PlanRequest) -> Plan | None: ...

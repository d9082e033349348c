"""The planning record of a run: how its plan came about.

    GET /api/runs/<id>/planning

Answers ``{run_id, task, planner, status, record}`` where ``record`` (None for
a run whose plan was given — a user plan or a saved test case) holds the
planners tried with why each was or was not used, their time and token usage,
the prompt sent to the LLM and its raw answer (secrets scrubbed), what
validation dropped and why, the rules the task used, the re-plans, and the
closed-loop observations (``observations``; empty until closed-loop planning
records any). See :class:`server.run_planning.PlanningRecord`.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from server.api import server
from server.llm.prompt import TEMPLATES

api_planning = Blueprint("api_planning", __name__, url_prefix="/api")


@api_planning.get("/runs/<run_id>/planning")
def run_planning(run_id: str) -> Any:
    srv = server()
    run = srv.runs.get(run_id, with_steps=False)     # unknown run -> 404
    record = srv.runs.planning.load(run_id)
    return jsonify({"run_id": run_id, "task": run["task"], "status": run["status"], "planner": run["planner"],
                    "given_plan": record is None and run["planner"] in ("user", "testcase"),
                    "record": record})


@api_planning.get("/ai/prompt-templates")
def prompt_templates() -> Any:
    return jsonify([{"name": t.name, "description": t.describe} for t in TEMPLATES.values()])

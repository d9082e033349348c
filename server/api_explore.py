"""Exploring a device from the dashboard (the server runs ``devicepilot explore``'s explorer).

    POST /api/devices/<id>/explorations  {max_screens?, max_depth?, budget_s?, allow_destructive?}
                                          → 202 {id, status: running, progress: [], …}
    GET  /api/explorations/<id>           → {status: running|done|error, progress, message,
                                             review (when done: the draft for the review view)}
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from server.api import body, server
from server.explorations import Explorations, limits_from

api_explore = Blueprint("api_explore", __name__, url_prefix="/api")


def explorations() -> Explorations:
    srv = server()
    jobs = srv.extras.get("explorations")
    if jobs is None:
        jobs = srv.extras["explorations"] = Explorations(srv)
    return jobs


@api_explore.post("/devices/<device_id>/explorations")
def start_exploration(device_id: str) -> Any:
    job = explorations().start(device_id, limits_from(body()))
    return jsonify(job.to_dict()), 202


@api_explore.get("/explorations/<job_id>")
def get_exploration(job_id: str) -> Any:
    return jsonify(explorations().get(job_id).to_dict())

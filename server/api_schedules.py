"""``/api/schedules``: suites the server runs on a cron schedule (server/schedules.py)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request

from server.schedules import Schedules
from shared.errors import RequestError

api_schedules = Blueprint("api_schedules", __name__, url_prefix="/api")


def _schedules() -> Schedules:
    return current_app.extensions["devicepilot"].extras["schedules"]


@api_schedules.get("/schedules")
def list_schedules() -> Any:
    return jsonify(_schedules().list())


@api_schedules.post("/schedules")
def add_schedule() -> Any:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RequestError("send a JSON object {name, cron, suite, device?}")
    return jsonify(_schedules().add(data).to_dict()), 201


@api_schedules.get("/schedules/<name>")
def get_schedule(name: str) -> Any:
    return jsonify(_schedules().get(name).to_dict())


@api_schedules.delete("/schedules/<name>")
def delete_schedule(name: str) -> Any:
    _schedules().delete(name)
    return jsonify({"deleted": name})


@api_schedules.post("/schedules/<name>/run")
def run_schedule_now(name: str) -> Any:
    """Queue the scheduled suite's runs now, as when it fires."""
    _schedules().get(name)
    return jsonify({"runs": _schedules().queue_suite(name)}), 201

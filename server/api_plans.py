"""REST endpoints of the plan cache and of saved test cases.

Plan cache::

    GET    /api/plan-cache                  entries (?device_model, ?userinterface, ?task, ?limit, ?offset)
    GET    /api/plan-cache/<id>             one entry
    POST   /api/plan-cache/<id>/pin         {"pinned": true|false}
    DELETE /api/plan-cache/<id>             invalidate one entry
    DELETE /api/plan-cache                  clear (unpinned entries; ?include_pinned=true for all)

Test cases::

    POST   /api/runs/<id>/save-test         {"name"?: str, "overwrite"?: bool} → the YAML (JSON with
                                            Accept: application/json)
    GET    /api/testcases                   the saved test cases
    GET    /api/testcases/<name>            its YAML (JSON with Accept: application/json)
    DELETE /api/testcases/<name>
    POST   /api/testcases/<name>/run        {"device"?: id, "mode"?: "run"|"plan"} (?wait=SECONDS)
"""
from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, jsonify, request

from server.api import MAX_OFFSET, check_text, int_arg, server, wait_arg
from server.guard_confirm import require_confirmation
from server.plan_cache import PlanCache
from server.testcases import SavedTest, SavedTestStore
from shared.errors import RequestError
from shared.plan import GOTO

log = logging.getLogger(__name__)
api_plans = Blueprint("api_plans", __name__, url_prefix="/api")

YAML_MIMETYPE = "application/yaml"
ENTRY_ID = "<int(max=9007199254740991):entry_id>"   # a larger id is no entry (404), never an overflow in the database


def _plan_cache() -> PlanCache:
    cache = server().extras.get("plan_cache")
    if cache is None:
        raise RequestError("this server has no plan cache")
    return cache


def _testcases() -> SavedTestStore:
    srv = server()
    store = srv.extras.get("testcases")
    if store is None:
        store = srv.extras["testcases"] = SavedTestStore(srv.files)
    return store


def _optional_body() -> dict[str, Any]:
    if not request.data:
        return {}
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RequestError("send a JSON object body (Content-Type: application/json)")
    check_text(data)
    return data


def _flag(name: str) -> bool:
    return request.args.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _int_arg(name: str, default: int) -> int:
    return int_arg(name, default, 0, 1000 if name == "limit" else MAX_OFFSET)


def _wants_json() -> bool:
    """True when the client prefers JSON to YAML (``Accept: application/json``); ``*/*`` gets YAML."""
    accept = request.accept_mimetypes
    return accept.quality("application/json") > accept.quality(YAML_MIMETYPE)


def _case_response(case: SavedTest, text: str, status: int = 200) -> Any:
    path = str(_testcases().path(case.name))
    headers = {"X-Testcase-Name": case.name, "Location": f"/api/testcases/{case.name}"}
    if _wants_json():
        return jsonify({"name": case.name, "path": path, "yaml": text, "testcase": case.to_dict()}), status, headers
    return Response(text, status=status, mimetype=YAML_MIMETYPE, headers=headers)


# -- plan cache -----------------------------------------------------------------------------

@api_plans.get("/plan-cache")
def list_cached_plans() -> Any:
    args = request.args
    entries = _plan_cache().list(device_model=args.get("device_model"), userinterface=args.get("userinterface"),
                                 task=args.get("task"), limit=_int_arg("limit", 100), offset=_int_arg("offset", 0))
    return jsonify([e.to_dict() for e in entries])


@api_plans.get(f"/plan-cache/{ENTRY_ID}")
def get_cached_plan(entry_id: int) -> Any:
    return jsonify(_plan_cache().get(entry_id).to_dict())


@api_plans.post(f"/plan-cache/{ENTRY_ID}/pin")
def pin_cached_plan(entry_id: int) -> Any:
    pinned = _optional_body().get("pinned", True)
    if not isinstance(pinned, bool):
        raise RequestError("'pinned' must be true or false")
    return jsonify(_plan_cache().pin(entry_id, pinned).to_dict())


@api_plans.delete(f"/plan-cache/{ENTRY_ID}")
def delete_cached_plan(entry_id: int) -> Any:
    _plan_cache().get(entry_id)   # an unknown entry is a 404 before anything else
    require_confirmation(f"invalidating plan cache entry {entry_id} makes its task be planned again",
                         how="add ?confirm=true")
    _plan_cache().delete(entry_id)
    return jsonify({"deleted": entry_id})


@api_plans.delete("/plan-cache")
def clear_plan_cache() -> Any:
    args = request.args
    require_confirmation("clearing the plan cache makes every cached task be planned again", how="add ?confirm=true")
    n = _plan_cache().clear(include_pinned=_flag("include_pinned"), device_model=args.get("device_model"),
                            userinterface=args.get("userinterface"))
    return jsonify({"cleared": n})


# -- test cases -------------------------------------------------------------------------------

@api_plans.post("/runs/<run_id>/save-test")
def save_test(run_id: str) -> Any:
    data = _optional_body()
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise RequestError("'name' must be a string")
    srv = server()
    run = srv.runs.get(run_id)
    context = srv.runs.planning_context(run_id)
    store = _testcases()
    case = store.from_run(run, context, name, has_goto=_device_has_goto(run["device_id"]))
    case = store.save(case, overwrite=bool(data.get("overwrite", False)), unique=name is None)
    return _case_response(case, store.text(case.name), 201)


def _device_has_goto(device_id: str) -> bool:
    try:
        return GOTO in server().ai.context(device_id).commands
    except Exception as exc:  # an offline device: save the steps as they ran, without a leading goto
        log.info("context of %s unavailable while saving a test case: %s", device_id, exc)
        return False


@api_plans.get("/testcases")
def list_testcases() -> Any:
    return jsonify([{"name": c.name, "task": c.task, "device_model": c.device_model,
                     "userinterface": c.userinterface, "recorded_on": c.recorded_on, "source_run": c.source_run,
                     "created_at": c.created_at, "steps": len(c.steps)} for c in _testcases().list()])


@api_plans.get("/testcases/<name>")
def get_testcase(name: str) -> Any:
    store = _testcases()
    text = store.text(name)
    return _case_response(SavedTest.from_yaml(text, f"test case {name!r}"), text)


@api_plans.delete("/testcases/<name>")
def delete_testcase(name: str) -> Any:
    _testcases().get(name)   # an unknown test case is a 404 before anything else
    require_confirmation(f"deleting test case {name!r} cannot be undone", how="add ?confirm=true")
    _testcases().delete(name)
    return jsonify({"deleted": name})


@api_plans.post("/testcases/<name>/run")
def run_testcase(name: str) -> Any:
    data = _optional_body()
    wait = wait_arg()
    srv = server()
    case = _testcases().get(name)
    device_id = data.get("device") or case.recorded_on
    if not isinstance(device_id, str) or not device_id:
        raise RequestError("'device' is required: this test case does not say which device it was recorded on")
    ref = srv.lab.device(device_id)
    if case.userinterface and ref.userinterface != case.userinterface:
        raise RequestError(f"test case {name!r} is for user interface {case.userinterface!r}; "
                           f"device {device_id!r} runs {ref.userinterface!r}")
    run = srv.runs.create(device_id, case.task or f"test case {name}", data.get("mode", "run"), case.plan(),
                          source="testcase", testcase={"name": case.name, "fingerprint": case.fingerprint})
    if wait is not None:
        run = srv.runs.wait(run["id"], timeout=wait)
    return jsonify(run), 202 if run["status"] in ("queued", "planning", "running") else 201

"""The REST API used by the dashboard, the CLI and CI."""
from __future__ import annotations

import datetime as dt
import logging
import os
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file
from flask_login import current_user

from server.reports import render_html, render_json, render_junit
from server.lab import DeviceState
from server.guard import MAX_PLAN_STEPS
from server.guard_confirm import confirmed, destructive_commands, require_confirmation
from shared.errors import DeviceBusy, DevicePilotError, HostUnavailable, NotFound, RequestError
from shared.models import PlanStep
from shared.protocol import ServerEvent

log = logging.getLogger(__name__)
api = Blueprint("api", __name__, url_prefix="/api")


def server() -> Any:
    return current_app.extensions["devicepilot"]


DEFAULT_LLM_DAILY_TOKENS = 500_000
MAX_WAIT_S = 600.0


def body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RequestError("send a JSON object body (Content-Type: application/json)")
    check_text(data)
    return data


def check_text(value: Any, where: str = "the body", depth: int = 0) -> None:
    """Refuse strings that cannot be stored as UTF-8 (a lone surrogate such as ``"\\ud800"``) and absurd nesting."""
    if depth > 32:
        raise RequestError(f"{where} is nested more than 32 levels deep")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RequestError(f"{where} contains a character that is not valid Unicode text (a lone UTF-16 "
                               "surrogate); send UTF-8 text") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            check_text(k, where, depth + 1)
            check_text(v, f"{k!r}" if depth == 0 else where, depth + 1)
    elif isinstance(value, list):
        for v in value:
            check_text(v, where, depth + 1)


MAX_OFFSET = 2**53


def int_arg(name: str, default: int, lo: int = 0, hi: int = MAX_OFFSET) -> int:
    """An integer query argument between *lo* and *hi*, else a 400 that says so."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise RequestError(f"{name} must be an integer") from None
    if not lo <= value <= hi:
        raise RequestError(f"{name} must be between {lo} and {hi}")
    return value


def refuse_bad_json_text() -> None:
    """Before every request: a JSON body with text that is not valid Unicode is a 400 on any route."""
    if request.is_json and request.content_length:
        check_text(request.get_json(silent=True))


def wait_arg() -> float | None:
    """``?wait=SECONDS`` (0-600), checked before anything is created; None when absent."""
    raw = request.args.get("wait")
    if raw is None or raw == "":
        return None
    try:
        wait = float(raw)
    except ValueError:
        raise RequestError(f"wait must be a number of seconds (0-{MAX_WAIT_S:g}), not {raw[:40]!r}") from None
    if not 0 <= wait <= MAX_WAIT_S or wait != wait:
        raise RequestError(f"wait must be a number of seconds between 0 and {MAX_WAIT_S:g}")
    return wait


def check_given_plan(plan: Any) -> None:
    """A plan sent by a client: ``{analysis, feasible, plan: [{step, command, params}, ...]}``, at most MAX_PLAN_STEPS."""
    if plan is None:
        return
    if not isinstance(plan, dict):
        raise RequestError("'plan' must be an object {analysis, feasible, plan: [...]}")
    steps = plan.get("plan")
    if not isinstance(steps, list) or not all(isinstance(st, dict) for st in steps):
        raise RequestError("'plan.plan' must be a list of steps, each an object {step, command, params}")
    if len(steps) > MAX_PLAN_STEPS:
        raise RequestError(f"the plan has {len(steps)} steps; the limit is {MAX_PLAN_STEPS}")
    for i, st in enumerate(steps, 1):
        if not isinstance(st.get("command"), str):
            raise RequestError(f"step {i} of the plan needs a 'command' (a string)")
        if not isinstance(st.get("params", {}), dict):
            raise RequestError(f"step {i} of the plan: 'params' must be an object")


@api.get("/health")
def health() -> Any:
    srv = server()
    snap = srv.lab.snapshot()
    return jsonify({"status": "ok", "version": srv.version,
                    "hosts_online": sum(h["status"] == "online" for h in snap["hosts"]),
                    "devices": len(snap["devices"])})


@api.get("/hosts")
def hosts() -> Any:
    return jsonify(server().lab.snapshot()["hosts"])


@api.get("/devices")
def devices() -> Any:
    return jsonify(server().lab.snapshot()["devices"])


@api.get("/devices/<device_id>")
def device(device_id: str) -> Any:
    return jsonify(server().lab.device_dict(device_id))


@api.get("/devices/<device_id>/context")
def device_context(device_id: str) -> Any:
    ctx = server().ai.context(device_id)
    return jsonify({"device_model": ctx.device_model, "userinterface": ctx.userinterface,
                    "fingerprint": ctx.fingerprint(), "current_node": ctx.current_node,
                    "action": ctx.action.to_dict(), "verification": ctx.verification.to_dict(),
                    "navigation": ctx.navigation.to_dict()})


@api.get("/devices/<device_id>/screenshot")
def device_screenshot(device_id: str) -> Any:
    reply = server().lab.call(device_id, ServerEvent.SCREENSHOT, {"device_id": device_id}, timeout=15)
    if not reply or not reply.get("png"):
        raise RequestError(f"device {device_id!r} has no screen to capture")
    return Response(reply["png"], mimetype="image/png", headers={"Cache-Control": "no-store"})


@api.post("/devices/<device_id>/execute")
def device_execute(device_id: str) -> Any:
    """Run one command outside any run (the dashboard's remote pad)."""
    data = body()
    command, params = data.get("command"), data.get("params") or {}
    if not isinstance(command, str) or not command:
        raise RequestError("'command' is required: the name of one of the device's commands")
    if not isinstance(params, dict):
        raise RequestError("'params' must be an object of parameter names and values, e.g. {\"key\": \"OK\"}")
    srv = server()
    ref = srv.lab.device(device_id)
    if srv.lab.state(device_id, ref.host_id) == DeviceState.BUSY:
        held = srv.runs.held_by(device_id)
        raise DeviceBusy(f"device {device_id!r} is held by {held}; wait for it to end" if held else
                         f"device {device_id!r} is running a run; wait for it to end or cancel it first")
    ctx = srv.ai.context(device_id)
    from shared.plan import validate_step

    step, notes = validate_step(PlanStep(1, command, dict(params)), ctx)
    if step is None:
        raise RequestError("; ".join(notes))
    if destructive_commands([step.command], ctx.commands):
        require_confirmation(f"{step.command} is destructive ({ctx.commands[step.command].description})", data)
    # the host does not locate the screen after the command (a click of the remote pad would wait for
    # it); the node is unknown (None) until the next plan asks (AICentral.with_location)
    reply = srv.lab.call(device_id, ServerEvent.EXECUTE,
                         {"device_id": device_id, "command": step.command, "params": step.params, "locate": False})
    reply.pop("screenshot", None)
    # a manual command moves the device too: planners must start from where it really is
    srv.lab.current_node[device_id] = reply.get("current_node")
    srv.lab.on_change()
    return jsonify(reply)


@api.get("/devices/<device_id>/next-commands")
def list_next_commands(device_id: str) -> Any:
    """Commands waiting for the device's next run, and the ones that ran (kept for audit)."""
    server().lab.device(device_id)
    return jsonify(server().runs.next_commands.listing(device_id, int_arg("limit", 100, 1, 1000)))


@api.post("/devices/<device_id>/next-commands")
def schedule_next_command(device_id: str) -> Any:
    """Schedule ``{command, params, max_retries, timeout}`` for the start of the device's next run."""
    data = body()
    srv = server()
    srv.lab.device(device_id)
    try:
        specs = srv.ai.context(device_id).commands
    except DevicePilotError:
        specs = {}
    if destructive_commands([str(data.get("command"))], specs):
        require_confirmation(f"{data.get('command')} is destructive", data)
    user = getattr(current_user, "name", "") or "?"
    return jsonify(srv.runs.next_commands.schedule(device_id, data, f"user:{user}").to_dict()), 201


@api.delete("/devices/<device_id>/next-commands/<int:command_id>")
def cancel_next_command(device_id: str, command_id: int) -> Any:
    """Take a pending command off the device's next run (it is kept, as skipped)."""
    server().lab.device(device_id)
    return jsonify(server().runs.next_commands.cancel(device_id, command_id).to_dict())


@api.post("/runs")
def create_run() -> Any:
    data = body()
    wait = wait_arg()
    check_given_plan(data.get("plan"))
    _confirm_given_plan(data)
    if not data.get("plan"):
        _check_llm_budget()
    device = data.get("device")
    if wait is not None and isinstance(device, str) and not server().lab.is_online_anywhere(device):
        server().lab.device(device)   # an unknown device is a 404, not a 503
        raise HostUnavailable(f"device {device!r} is offline: its host is not connected; nothing was queued. "
                              "Start the host (devicepilot host ...), or submit without ?wait to queue the run "
                              "until the host is back")
    run = server().runs.create(device, data.get("task"), data.get("mode", "run"), data.get("plan"),
                               no_cache=data.get("no_cache", False), prompt_template=data.get("prompt_template"),
                               confirm=confirmed(data), priority=data.get("priority", 0),
                               limits=data.get("limits"), run_timeout=data.get("run_timeout"),
                               next_run=data.get("next_run"))
    if wait is not None:
        run = server().runs.wait(run["id"], timeout=wait)
    return jsonify(run), 202 if run["status"] in ("queued", "planning", "running") else 201


class BudgetSpent(RequestError):
    """The caller spent their LLM token budget for today."""

    status_code = 429


def llm_daily_budget() -> int:
    """``DEVICEPILOT_LLM_DAILY_TOKENS``: LLM tokens each user may spend per day (UTC); 0 means no limit."""
    raw = os.environ.get("DEVICEPILOT_LLM_DAILY_TOKENS", "").strip()
    return int(raw) if raw.isdigit() else DEFAULT_LLM_DAILY_TOKENS


def _check_llm_budget() -> None:
    """A task to plan may cost LLM tokens: refuse it once the caller's daily budget is spent."""
    srv = server()
    budget = llm_daily_budget()
    if not budget or not srv.settings.llm.configured or not getattr(current_user, "is_authenticated", False):
        return
    used = srv.extras["audit"].llm_tokens_today(current_user.name)
    used += sum(count(current_user.name) for count in srv.extras.get("llm_token_counters", ()))   # the assistant
    if used >= budget:
        raise BudgetSpent(f"{current_user.name} has used {used} of the {budget} LLM tokens a user may spend per day; "
                          "the budget renews at midnight UTC. Plans given with the run and saved test cases still "
                          "run, and tasks already in the plan cache cost nothing")


def _confirm_given_plan(data: dict[str, Any]) -> None:
    """A given plan with destructive steps runs only when confirmed (see server/guard_confirm.py)."""
    plan, device_id = data.get("plan"), data.get("device")
    if not plan or not isinstance(device_id, str) or data.get("mode", "run") != "run":
        return
    try:
        specs = server().ai.context(device_id).commands
    except DevicePilotError:   # an unknown or offline device: the run itself will say so
        return
    risky = destructive_commands((st.get("command") for st in plan["plan"]), specs)
    if risky:
        require_confirmation(f"the plan runs destructive command(s) {', '.join(risky)}", data)


def _date(name: str) -> dt.datetime | None:
    raw = request.args.get(name)
    if not raw:
        return None
    try:
        return dt.datetime.fromisoformat(raw.replace("Z", ""))
    except ValueError:
        raise RequestError(f"{name} must be an ISO date such as 2026-11-22 or 2026-11-22T10:00") from None


@api.get("/runs")
def list_runs() -> Any:
    args = request.args
    limit, offset = int_arg("limit", 50, 1, 1000), int_arg("offset", 0)
    return jsonify(server().runs.list(device=args.get("device"), status=args.get("status"),
                                      planner=args.get("planner"), since=_date("since"), until=_date("until"),
                                      limit=limit, offset=offset))


@api.get("/runs/<run_id>")
def get_run(run_id: str) -> Any:
    wait = wait_arg()
    if wait is not None:
        return jsonify(server().runs.wait(run_id, timeout=wait))
    return jsonify(server().runs.get(run_id))


@api.post("/runs/<run_id>/cancel")
def cancel_run(run_id: str) -> Any:
    return jsonify(server().runs.cancel(run_id))


@api.get("/runs/<run_id>/report.html")
def report_html(run_id: str) -> Any:
    run = server().runs.get(run_id)
    return Response(render_html([run], title=f"devicepilot run {run_id}"), mimetype="text/html")


@api.get("/runs/<run_id>/report.json")
def report_json(run_id: str) -> Any:
    return Response(render_json(server().runs.get(run_id)), mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=run-{run_id}.json"})


@api.get("/runs/<run_id>/report.xml")
def report_junit(run_id: str) -> Any:
    return Response(render_junit([server().runs.get(run_id)]), mimetype="application/xml",
                    headers={"Content-Disposition": f"attachment; filename=run-{run_id}.xml"})


@api.get("/files/<path:relative>")
def stored_file(relative: str) -> Any:
    path = server().files.resolve(relative)
    if path is None:
        raise NotFound(f"no stored file {relative!r}")
    return send_file(path, max_age=3600)


@api.get("/userinterfaces/<ui>/tree")
def get_tree(ui: str) -> Any:
    row = server().lab.latest_tree(ui)
    if row is None:
        raise NotFound(f"no navigation tree for user interface {ui!r}")
    return jsonify({"userinterface": ui, "version": row.version, "source": row.source, "tree": row.content})


@api.put("/userinterfaces/<ui>/tree")
def put_tree(ui: str) -> Any:
    from backend_core.navigation.tree import NavigationTree

    data = body()
    content = data.get("tree", data)
    if not isinstance(content, dict):
        raise RequestError("'tree' must be an object {userinterface, nodes: [...], edges: [...]}")
    for key in ("nodes", "edges"):
        if not isinstance(content.get(key, []), list):
            raise RequestError(f"the tree's {key!r} must be a list of objects, not {type(content[key]).__name__}")
    try:
        tree = NavigationTree.from_dict(content, where=f"tree of {ui}")  # ConfigError (400) when invalid
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise RequestError(f"the tree of {ui!r} is malformed: {type(exc).__name__}: {exc}") from exc
    if tree.userinterface != ui:
        raise RequestError(f"the tree is for {tree.userinterface!r}, not {ui!r}")
    srv = server()
    version = srv.lab.save_tree(ui, content)
    srv.ai.clear_cache(userinterface=ui)
    return jsonify({"userinterface": ui, "version": version})


@api.get("/ai/context-cache")
def context_cache() -> Any:
    return jsonify({"keys": server().ai.cached_keys()})


@api.delete("/ai/context-cache")
def clear_context_cache() -> Any:
    args = request.args
    return jsonify({"cleared": server().ai.clear_cache(args.get("model"), args.get("userinterface"))})

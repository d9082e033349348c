"""The tools themselves: each calls the same services the REST routes call, under the same access rule."""
from __future__ import annotations

import logging
from typing import Any

from server.assistant.references import device_kind
from server.assistant.tools import Param, ToolEnv, ToolOutput, ToolRefused, tool
from shared.errors import NotFound
from shared.models import RunStatus

log = logging.getLogger(__name__)

PLAN_WAIT_S = 30.0      # plan_task waits this long for the plan
RUN_ID = Param("run_id", "the run's 12-character id", max_length=32)
DEVICE = Param("device", "the device's id (see list_devices)", max_length=64)
TASK = Param("task", "the test task in plain language", max_length=2000)


def _devices(env: ToolEnv) -> list[dict[str, Any]]:
    devices = env.srv.lab.snapshot()["devices"]
    for d in devices:
        d["kind"] = device_kind(d) or None
    return devices


def _brief(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d.get(k) for k in ("id", "name", "model", "kind", "status", "userinterface", "current_node")}


def _run_brief(run: dict[str, Any]) -> dict[str, Any]:
    steps = run.get("steps")
    out = {k: run.get(k) for k in ("id", "device_id", "task", "status", "planner", "message", "created_at",
                                   "finished_at")}
    if steps is not None:
        out["steps"] = [{k: st.get(k) for k in ("step", "command", "params", "status", "message",
                                                "screenshot_url")} for st in steps]
    plan = (run.get("plan") or {}).get("plan")
    if plan:
        out["plan"] = [{"step": p.get("step"), "command": p.get("command"), "params": p.get("params")}
                       for p in plan if isinstance(p, dict)]
    return out


def _say_run(run: dict[str, Any]) -> str:
    text = f"run {run['id']} on {run['device_id']} ({run['task'][:80]!r}): {run['status']}"
    return text + (f" — {run['message'][:200]}" if run.get("message") else "")


@tool("list_devices", "The lab's devices with their state; status 'free' means online and not running anything",
      endpoint="api.devices",
      params=(Param("status", "only devices in this state", required=False, enum=("free", "online", "busy",
                                                                                    "offline")),
              Param("kind", "only devices of this kind", required=False, enum=("phone", "tv", "web"))))
def list_devices(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    devices = _devices(env)
    status = {"free": "online"}.get(args.get("status", ""), args.get("status"))
    if status:
        devices = [d for d in devices if d["status"] == status]
    if args.get("kind"):
        devices = [d for d in devices if d["kind"] == args["kind"]]
    what = " ".join(x for x in (args.get("status"), args.get("kind")) if x) or "known"
    if not devices:
        return ToolOutput(f"no {what} devices", [])
    listed = "; ".join(f"{d['id']} ({d['name']}, {d['status']})" for d in devices)
    return ToolOutput(f"{len(devices)} {what} device(s): {listed}", [_brief(d) for d in devices],
                      devices=[d["id"] for d in devices])


@tool("get_device", "One device with its state and current screen", endpoint="api.device", params=(DEVICE,))
def get_device(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    for d in _devices(env):
        if d["id"] == args["device"]:
            where = f", on screen {d['current_node']}" if d.get("current_node") else ""
            return ToolOutput(f"{d['id']} ({d['name']}, model {d['model']}) is {d['status']}{where}", _brief(d),
                              devices=[d["id"]])
    raise NotFound(f"unknown device {args['device']!r}")


def _create(env: ToolEnv, args: dict[str, Any], mode: str) -> dict[str, Any]:
    return env.srv.runs.create(args["device"], args["task"], mode)


@tool("plan_task", "Plan a task on a device without running it; answers with the plan", endpoint="api.create_run",
      params=(DEVICE, TASK), spends_llm=True)
def plan_task(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    run = env.srv.runs.wait(_create(env, args, "plan")["id"], timeout=PLAN_WAIT_S)
    steps = (run.get("plan") or {}).get("plan") or []
    listed = "; ".join(f"{p.get('step')}. {p.get('command')} {p.get('params') or ''}" for p in steps[:20])
    summary = _say_run(run) + (f" — plan: {listed}" if listed else "")
    return ToolOutput(summary, _run_brief(run), runs=[run["id"]], devices=[run["device_id"]])


@tool("run_task", "Plan and run a task on a device; answers once the run is queued", endpoint="api.create_run",
      params=(DEVICE, TASK), spends_llm=True)
def run_task(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    run = _create(env, args, "run")
    return ToolOutput(f"started run {run['id']} of {run['task'][:80]!r} on {run['device_id']} ({run['status']})",
                      _run_brief(run), runs=[run["id"]], devices=[run["device_id"]])


@tool("get_run", "A run with its status, plan and steps", endpoint="api.get_run", params=(RUN_ID,))
def get_run(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    run = env.srv.runs.get(args["run_id"])
    steps = run.get("steps") or []
    failed = [st for st in steps if st.get("status") == "failed"]
    summary = _say_run(run) + f" ({len(steps)} step(s) ran)"
    if failed:
        summary += f", step {failed[0]['step']} ({failed[0]['command']}) failed: {failed[0]['message'][:160]}"
    return ToolOutput(summary, _run_brief(run), runs=[run["id"]], devices=[run["device_id"]])


@tool("list_runs", "Recent runs, newest first", endpoint="api.list_runs",
      params=(Param("device", "only runs on this device", required=False, max_length=64),
              Param("status", "only runs in this state", required=False, enum=tuple(s.value for s in RunStatus)
                    + ("active",)),
              Param("limit", "how many (default 5)", type="integer", required=False, maximum=20)))
def list_runs(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    limit = args.get("limit", 5)
    status = args.get("status")
    if status == "active":
        runs = [r for r in env.srv.runs.list(device=args.get("device"), limit=200)
                if not RunStatus(r["status"]).finished][:limit]
    else:
        runs = env.srv.runs.list(device=args.get("device"), status=status, limit=limit)
    where = f" on {args['device']}" if args.get("device") else ""
    if not runs:
        return ToolOutput(f"no {status + ' ' if status else ''}runs{where}", [])
    listed = "; ".join(f"{i}. {r['id']} {r['status']} on {r['device_id']}: {r['task'][:60]!r}"
                       for i, r in enumerate(runs, 1))
    return ToolOutput(f"{len(runs)} {status + ' ' if status else ''}run(s){where}: {listed}",
                      [_run_brief(r) for r in runs],
                      runs=[r["id"] for r in runs], devices=sorted({r["device_id"] for r in runs}))


def _run_ended(env: ToolEnv, args: dict[str, Any]) -> bool:
    return RunStatus(env.srv.runs.get(args["run_id"], with_steps=False)["status"]).finished


@tool("cancel_run", "Cancel a queued or running run", endpoint="api.cancel_run", params=(RUN_ID,),
      destructive=True, harmless_when=_run_ended)
def cancel_run(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    before = env.srv.runs.get(args["run_id"], with_steps=False)
    if RunStatus(before["status"]).finished:
        return ToolOutput(f"run {before['id']} had already ended ({before['status']}); nothing to cancel",
                          _run_brief(before), runs=[before["id"]], devices=[before["device_id"]])
    run = env.srv.runs.cancel(args["run_id"])
    return ToolOutput(f"cancelled run {run['id']} on {run['device_id']} (now {run['status']})", _run_brief(run),
                      runs=[run["id"]], devices=[run["device_id"]])


@tool("get_failed_step", "The last failed step of a run (default: the latest failed run), with its screenshot",
      endpoint="api.get_run", params=(Param("run_id", "the run's id", required=False, max_length=32),))
def get_failed_step(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    run_id = args.get("run_id")
    if not run_id:
        failed = env.srv.runs.list(status=RunStatus.FAILED.value, limit=1)
        if not failed:
            return ToolOutput("no run has failed yet", None)
        run_id = failed[0]["id"]
    run = env.srv.runs.get(run_id)
    steps = [st for st in run.get("steps") or [] if st.get("status") == "failed"]
    if not steps:
        return ToolOutput(f"run {run['id']} has no failed step ({run['status']})", _run_brief(run),
                          runs=[run["id"]], devices=[run["device_id"]])
    st = steps[-1]
    shot = st.get("screenshot_url")
    summary = (f"step {st['step']} of run {run['id']} ({st['command']}) failed: {st['message'][:200]}"
               + (f"; screenshot: {shot}" if shot else "; it has no screenshot"))
    return ToolOutput(summary, {"run_id": run["id"], "step": st["step"], "command": st["command"],
                                "message": st["message"], "screenshot_url": shot},
                      runs=[run["id"]], devices=[run["device_id"]])


@tool("save_testcase", "Save a passed run as a deterministic test case", endpoint="api_plans.save_test",
      params=(RUN_ID, Param("name", "the test case's name", required=False, max_length=60)))
def save_testcase(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    from server.api_plans import _device_has_goto, _testcases

    run = env.srv.runs.get(args["run_id"])
    if run["status"] != RunStatus.PASSED.value:
        raise ToolRefused(f"run {run['id']} {run['status']}; only a passed run can be saved as a test case")
    store = _testcases()
    case = store.from_run(run, env.srv.runs.planning_context(run["id"]), args.get("name"),
                          has_goto=_device_has_goto(run["device_id"]))
    case = store.save(case, overwrite=False, unique=args.get("name") is None)
    return ToolOutput(f"saved run {run['id']} as test case {case.name!r} ({len(case.steps)} steps)",
                      {"name": case.name, "steps": len(case.steps)}, runs=[run["id"]], devices=[run["device_id"]])


@tool("delete_testcase", "Delete a saved test case", endpoint="api_plans.delete_testcase",
      params=(Param("name", "the test case's name", max_length=60),), destructive=True)
def delete_testcase(env: ToolEnv, args: dict[str, Any]) -> ToolOutput:
    from server.api_plans import _testcases

    _testcases().delete(args["name"])
    return ToolOutput(f"deleted test case {args['name']!r}", {"name": args["name"]})

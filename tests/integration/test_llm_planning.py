"""LLM planning end to end: real server and host processes, real Chromium, a scripted LLM on loopback.

The server is pointed at the scripted OpenAI-compatible server through
``DEVICEPILOT_LLM_BASE_URL``; every answer it gives is scripted here, and
every request it receives is checked.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from tests.fakes.llm_server import Reply, ScriptedLLM
from tests.stack import Stack

pytestmark = pytest.mark.integration

KEY = "sk-integration-SECRET-7f3a9c51"
GUIDE_TASK = "open the programme guide and check its title"
GUIDE_PLAN = {"analysis": "Open the guide, then check its title.", "feasible": True, "plan": [
    {"step": 1, "command": "goto", "params": {"node": "guide"}, "description": "Go to the guide"},
    {"step": 2, "command": "wait_for_element",
     "params": {"selector": "#screen-guide .screen-title", "text": "Guide"}, "description": "Check the title"},
]}


def plan(*steps: dict[str, Any], analysis: str = "scripted") -> Reply:
    return Reply.plan({"analysis": analysis, "feasible": True,
                       "plan": [{"step": i, **s} for i, s in enumerate(steps, 1)]})


def user_plan(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"analysis": "set-up", "feasible": True, "plan": [{"step": i, **s} for i, s in enumerate(steps, 1)]}


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(llm: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"DEVICEPILOT_LLM_BASE_URL": llm.url, "DEVICEPILOT_LLM_API_KEY": KEY,
           "DEVICEPILOT_LLM_MODEL": "scripted-planner", "DEVICEPILOT_LLM_TIMEOUT_S": "5"}
    s = Stack.start(tmp_path_factory.mktemp("llm-stack"), extra_env=env)
    try:
        yield s
    finally:
        s.stop()


def test_llm_plans_then_the_same_task_replays_from_the_cache(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(Reply.plan(GUIDE_PLAN))
    first = stack.run(GUIDE_TASK)
    assert first["status"] == "passed", first
    assert first["planner"] == "llm"
    assert first["usage"] == {"prompt_tokens": 420, "completion_tokens": 60, "total_tokens": 480, "llm_calls": 1}
    assert [s["command"] for s in first["steps"]] == ["goto", "wait_for_element"]
    assert llm.calls == 1
    request = llm.requests[-1]
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert request.body["model"] == "scripted-planner" and request.body["temperature"] == 0
    assert request.response_format == "json_schema" and f"Task: {GUIDE_TASK}" in request.prompt

    again = stack.run(GUIDE_TASK.capitalize() + ".")
    assert again["status"] == "passed", again
    assert again["planner"] == "cache"
    assert llm.calls == 1  # the scripted server saw no new call
    assert again["usage"]["llm_calls"] == 0 and again["usage"]["total_tokens"] == 0
    assert [s["command"] for s in again["steps"]] == ["goto", "wait_for_element"]

    entries = [e for e in stack.get("/api/plan-cache") if e["task"] == GUIDE_TASK]
    assert len(entries) == 1 and entries[0]["hits"] == 1 and entries[0]["start_node"] == "*"
    assert entries[0]["device_model"] == "streamtv-web" and entries[0]["userinterface"] == "streamtv"


def test_hallucinated_commands_and_nodes_never_run(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(plan({"command": "factory_reset", "params": {}},
                    {"command": "goto", "params": {"node": "weather"}},
                    {"command": "goto", "params": {"node": "settings"}},
                    {"command": "press_key", "params": {"key": "OK", "then": "navigate_to_url"},
                     "description": 'also run {"command": "navigate_to_url", "params": {"url": "http://evil"}}'},
                    {"command": "wait_for_element", "params": {"selector": "#screen-settings .screen-title",
                                                                      "text": "Settings"}}))
    run = stack.run("open the settings screen and confirm it")
    assert run["status"] == "passed", run
    assert run["planner"] == "llm"
    assert [s["command"] for s in run["steps"]] == ["goto", "press_key", "wait_for_element"]
    notes = " | ".join(run["plan"]["notes"])
    assert "unknown command 'factory_reset'" in notes and "unknown navigation node 'weather'" in notes
    assert "dropped unknown parameter 'then' of press_key" in notes


def test_a_failed_cached_step_is_replanned_once_and_the_cache_heals(stack: Stack, llm: ScriptedLLM) -> None:
    task = "check live tv shows channel 5"
    check_5 = {"command": "wait_for_element", "params": {"selector": "#current-channel", "text": "CH 5",
                                                                "timeout": 2}}
    setup = stack.run("tune channel 5", plan=user_plan({"command": "goto", "params": {"node": "live"}},
                                                       {"command": "press_key", "params": {"key": "DIGIT_5"}}))
    assert setup["status"] == "passed", setup
    llm.script(plan(check_5))
    fresh = stack.run(task)
    assert fresh["status"] == "passed" and fresh["planner"] == "llm", fresh
    cached = [e for e in stack.get("/api/plan-cache") if e["task"] == task]
    assert len(cached) == 1 and cached[0]["start_node"] == "live"  # no goto first: bound to where it started

    assert stack.run("tune channel 3", plan=user_plan({"command": "press_key", "params": {"key": "DIGIT_3"}}))[
        "status"] == "passed"
    calls = llm.calls
    llm.script(plan({"command": "press_key", "params": {"key": "DIGIT_5"}}, check_5, analysis="tune 5 first"))
    healed = stack.run(task)
    assert healed["status"] == "passed", healed
    assert healed["planner"] == "cache"
    assert [(s["step"], s["command"], s["status"]) for s in healed["steps"]] == [
        (1, "wait_for_element", "failed"), (2, "press_key", "passed"), (3, "wait_for_element", "passed")]
    assert llm.calls == calls + 1 and healed["usage"]["llm_calls"] == 1
    replans = healed["plan"]["replans"]
    assert len(replans) == 1 and replans[0]["planner"] == "llm" and replans[0]["from_node"] == "live"
    events = " | ".join(e["message"] for e in healed["events"])
    assert "re-planning once from live" in events and "re-planned by llm: 2 step(s) appended" in events

    entry = next(e for e in stack.get("/api/plan-cache") if e["task"] == task)
    assert entry["id"] == cached[0]["id"] and entry["heals"] == 1
    assert [s["command"] for s in entry["plan"]["plan"]] == ["press_key", "wait_for_element"]


def test_a_failed_fresh_plan_is_replanned_and_the_steps_appended(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(plan({"command": "goto", "params": {"node": "replay"}},
                    {"command": "wait_for_element", "params": {"selector": "#screen-movies.active",
                                                                      "timeout": 1}}),
               plan({"command": "goto", "params": {"node": "movies"}},
                    {"command": "wait_for_element", "params": {"selector": "#screen-movies.active"}}))
    run = stack.run("show the movies screen")
    assert run["status"] == "passed", run
    assert run["planner"] == "llm"
    assert [(s["step"], s["status"]) for s in run["steps"]] == [(1, "passed"), (2, "failed"), (3, "passed"),
                                                                 (4, "passed")]
    assert [s["command"] for s in run["plan"]["plan"]] == ["goto", "wait_for_element", "goto",
                                                          "wait_for_element"]
    assert run["plan"]["replans"][0]["after_step"] == 2 and run["plan"]["replans"][0]["from_node"] == "replay"


def test_a_passed_run_saved_as_a_test_case_runs_with_no_planner(stack: Stack, llm: ScriptedLLM) -> None:
    run = next(r for r in stack.get("/api/runs?planner=llm&status=passed") if r["task"] == GUIDE_TASK)
    resp = stack.post(f"/api/runs/{run['id']}/save-test", {"name": "guide-title"}, expect=201)
    case = yaml.safe_load(resp.text)
    assert case["name"] == "guide-title" and [s["command"] for s in case["steps"]] == ["goto",
                                                                                       "wait_for_element"]
    assert (stack.data_dir / "testcases" / "guide-title.yaml").is_file()
    calls = llm.calls
    resp = stack.post("/api/testcases/guide-title/run?wait=120", {}, expect=201)
    replay = resp.json()
    assert replay["status"] == "passed", replay
    assert replay["planner"] == "testcase" and llm.calls == calls
    assert [s["command"] for s in replay["steps"]] == ["goto", "wait_for_element"]


def devicepilot(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "devicepilot", *args, "--server", stack.url], env=stack.env,
                          capture_output=True, text=True, timeout=180, cwd=Path(__file__).resolve().parents[2])


def test_cli_json_reports_planner_and_usage_and_runs_test_cases(stack: Stack, llm: ScriptedLLM) -> None:
    calls = llm.calls
    done = devicepilot(stack, "run", GUIDE_TASK, "--device", "demo-web", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == "passed" and out["planner"] == "cache"
    assert out["usage"] == {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "llm_calls": 0}
    assert llm.calls == calls

    listed = devicepilot(stack, "testcase", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert "guide-title" in [c["name"] for c in json.loads(listed.stdout)]
    ran = devicepilot(stack, "testcase", "run", "guide-title", "--json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["planner"] == "testcase"
    saved = devicepilot(stack, "testcase", "save", out["run_id"], "--name", "guide-title-cli")
    assert saved.returncode == 0 and "saved test case guide-title-cli" in saved.stdout, saved.stderr


def test_unreachable_llm_falls_back_to_builtin_and_the_key_never_leaks(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(Reply.error(401, f"Incorrect API key provided: {KEY}. Find your key at your dashboard."))
    rejected = stack.run("go to the replay screen")
    assert rejected["status"] == "passed" and rejected["planner"] == "builtin", rejected
    assert any("rejected the request (401)" in n and "***" in n for n in rejected["plan"]["notes"])

    llm.stop()  # from here on the LLM endpoint refuses connections
    run = stack.run("go to the guide")
    assert run["status"] == "passed", run
    assert run["planner"] == "builtin"
    assert any(n.startswith("earlier planner llm:") and "unreachable" in n for n in run["plan"]["notes"])
    assert any("planner llm failed" in e["message"] for e in run["events"])

    leaks = []
    for log in stack.logs:
        if KEY in log.read_text(errors="replace"):
            leaks.append(log.name)
    for r in stack.get("/api/runs?limit=500"):
        full = stack.get(f"/api/runs/{r['id']}")
        for name, text in [("run json", json.dumps(full)),
                           *((f"report.{ext}", stack.http.get(f"{stack.url}/api/runs/{r['id']}/report.{ext}",
                                                            timeout=30).text) for ext in ("html", "json", "xml"))]:
            if KEY in text:
                leaks.append(f"run {r['id']} {name}")
        if full.get("report") and KEY in Path(full["report"]).read_text(errors="replace"):
            leaks.append(f"run {r['id']} report file")
    assert leaks == []
    assert KEY not in json.dumps(stack.get("/api/plan-cache"))

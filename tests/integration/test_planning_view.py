"""The window into the planner: GET /api/runs/<id>/planning for runs planned by a scripted LLM on loopback."""
from __future__ import annotations

import json
from typing import Any, Iterator

import pytest

from tests.fakes.llm_server import Reply, ScriptedLLM
from tests.stack import Stack

pytestmark = pytest.mark.integration

KEY = "sk-planning-view-SECRET-0d1e2f3a"


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(llm: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"DEVICEPILOT_LLM_BASE_URL": llm.url, "DEVICEPILOT_LLM_API_KEY": KEY,
           "DEVICEPILOT_LLM_MODEL": "scripted-planner", "DEVICEPILOT_LLM_TIMEOUT_S": "5"}
    s = Stack.start(tmp_path_factory.mktemp("planning-stack"), extra_env=env)
    try:
        yield s
    finally:
        s.stop()


def plan(*steps: dict[str, Any], analysis: str = "scripted") -> Reply:
    return Reply.plan({"analysis": analysis, "feasible": True,
                       "plan": [{"step": i, **s} for i, s in enumerate(steps, 1)]})


SETTINGS_PLAN = plan({"command": "factory_reset", "params": {}, "description": "Wipe the box"},
                     {"command": "goto", "params": {"node": "settings"}},
                     {"command": "waitForElementToAppear",
                      "params": {"selector": "#screen-settings .screen-title", "text": "Settings"}},
                     analysis=f"Open settings (my key is {KEY}).")


def test_the_planning_view_shows_prompt_raw_answer_and_what_validation_dropped(stack: Stack,
                                                                              llm: ScriptedLLM) -> None:
    llm.script(SETTINGS_PLAN)
    run = stack.run("open the settings screen and confirm it", no_cache=True)
    assert run["status"] == "passed" and run["planner"] == "llm", run
    view = stack.get(f"/api/runs/{run['id']}/planning")
    assert view["run_id"] == run["id"] and view["planner"] == "llm" and view["given_plan"] is False
    record = view["record"]
    assert record["task"] == "open the settings screen and confirm it" and record["rules"] == []
    part = record["parts"][0]
    calls = {c["planner"]: c for c in part["calls"]}
    assert list(calls) == ["llm"]     # no_cache: the plan cache was not asked
    llm_call = calls["llm"]
    assert llm_call["outcome"] == "used" and llm_call["duration_ms"] > 0
    assert llm_call["usage"] == {"prompt_tokens": 420, "completion_tokens": 60, "total_tokens": 480, "llm_calls": 1}
    assert llm_call["prompt_template"] == "detailed"
    assert [m["role"] for m in llm_call["prompt"]] == ["system", "user"]
    assert llm_call["prompt"][1]["content"] == llm.requests[-1].body["messages"][1]["content"]
    assert "Task: open the settings screen and confirm it" in llm_call["prompt"][1]["content"]
    assert llm_call["prompt_chars"] == sum(len(m["content"]) for m in llm_call["prompt"])
    answer = json.loads(llm_call["answer"])
    assert [s["command"] for s in answer["plan"]] == ["factory_reset", "goto", "waitForElementToAppear"]
    dropped = " | ".join(part["dropped"])
    assert "step 1: dropped unknown command 'factory_reset'" in dropped
    assert record["notes"] == part["dropped"]
    assert record["usage"]["llm_calls"] == 1 and record["duration_ms"] > 0
    assert record["observations"] == [] and record["replans"] == []
    whole = json.dumps(view)
    assert KEY not in whole and "my key is ***" in whole   # the API key never appears, even echoed back


def test_a_cache_miss_and_a_failing_llm_are_explained(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(Reply.error(500, "model overloaded"), Reply.error(500, "model overloaded"),
               Reply.error(500, "model overloaded"))
    run = stack.run("go to the guide")
    assert run["status"] == "passed" and run["planner"] == "builtin", run
    calls = stack.get(f"/api/runs/{run['id']}/planning")["record"]["parts"][0]["calls"]
    assert [(c["planner"], c["outcome"]) for c in calls] == [("cache", "skipped"), ("llm", "failed"),
                                                             ("builtin", "used")]
    assert calls[0]["reason"] == "no plan to offer"
    assert "500" in calls[1]["reason"] or "overloaded" in calls[1]["reason"]
    assert calls[1]["prompt"] and calls[1]["answer"] is None


def test_a_run_may_choose_the_compact_prompt(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(plan({"command": "goto", "params": {"node": "movies"}}))
    run = stack.run("show me the movies", no_cache=True, prompt_template="compact")
    assert run["status"] == "passed", run
    call = stack.get(f"/api/runs/{run['id']}/planning")["record"]["parts"][0]["calls"][0]
    assert call["prompt_template"] == "compact" and "Now on:" in call["prompt"][1]["content"]
    assert "Now on:" in llm.requests[-1].prompt
    bad = stack.post("/api/runs", {"device": "demo-web", "task": "go home", "prompt_template": "verbose"})
    assert bad.status_code == 400 and "compact" in bad.json()["error"]
    assert [t["name"] for t in stack.get("/api/ai/prompt-templates")] == ["detailed", "compact"]


def test_a_given_plan_has_no_planning_record(stack: Stack) -> None:
    run = stack.run("home", plan={"analysis": "x", "feasible": True,
                                  "plan": [{"step": 1, "command": "goto", "params": {"node": "home"}}]})
    view = stack.get(f"/api/runs/{run['id']}/planning")
    assert view["record"] is None and view["given_plan"] is True
    assert stack.post("/api/runs/nope/planning", {}).status_code == 405
    assert stack.http.get(stack.url + "/api/runs/nope/planning", timeout=10).status_code == 404


def test_a_replan_is_added_to_the_record_with_its_prompt(stack: Stack, llm: ScriptedLLM) -> None:
    llm.script(plan({"command": "goto", "params": {"node": "replay"}},
                    {"command": "waitForElementToAppear", "params": {"selector": "#screen-movies.active",
                                                                      "timeout": 1}}),
               plan({"command": "goto", "params": {"node": "movies"}},
                    {"command": "waitForElementToAppear", "params": {"selector": "#screen-movies.active"}}))
    run = stack.run("bring up the movies screen", no_cache=True)
    assert run["status"] == "passed" and run["plan"]["replans"], run
    replans = stack.get(f"/api/runs/{run['id']}/planning")["record"]["replans"]
    assert len(replans) == 1 and replans[0]["after_step"] == 2 and replans[0]["from_node"] == "replay"
    llm_call = next(c for c in replans[0]["calls"] if c["planner"] == "llm")
    assert llm_call["outcome"] == "used" and "Progress so far:" in llm_call["prompt"][1]["content"]
    assert json.loads(llm_call["answer"])["plan"][0]["params"] == {"node": "movies"}

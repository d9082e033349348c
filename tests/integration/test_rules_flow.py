"""Rules end to end: a rule with a parameter inside a compound task on StreamTV, through the REST API and the CLI."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Iterator

import pytest

from tests.stack import ROOT, Stack

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    s = Stack.start(tmp_path_factory.mktemp("rules-stack"))
    try:
        yield s
    finally:
        s.stop()


def cli(stack: Stack, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "devicepilot", "rule", *args, "--server", stack.url],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, env=stack.env)


def test_a_rule_with_a_parameter_inside_a_compound_task_passes(stack: Stack) -> None:
    stack.post("/api/rules", {"name": "tune to {n}", "scope": "streamtv", "tasks": "switch to channel {n}"},
               expect=201)
    run = stack.run("go to the guide, then tune to 5 and check the banner shows Melody TV")
    assert run["status"] == "passed", run
    assert run["planner"] == "builtin"
    # the rule's part ends by proving its own end state (channel 5 is on), then the task's check
    assert [s["command"] for s in run["steps"]] == ["goto", "goto", "press_key", "wait_for_element",
                                                    "wait_for_element"]
    assert all(s["status"] == "passed" for s in run["steps"])
    used = run["plan"]["rules"]
    assert [(u["rule"], u["version"], u["args"], u["steps"]) for u in used] == [("tune to {n}", 1, {"n": "5"}, [2, 3, 4])]
    assert run["plan"]["expanded_task"] == ("go to the guide, then switch to channel 5, then check the banner "
                                            "shows Melody TV")
    assert any("rules used: 'tune to {n}'" in e["message"] for e in run["events"])
    planning = stack.get(f"/api/runs/{run['id']}/planning")["record"]
    assert [p["task"] for p in planning["parts"]] == ["go to the guide", "switch to channel 5",
                                                       "check the banner shows Melody TV"]
    assert planning["parts"][1]["rule_use"] == 1 and planning["parts"][1]["steps"] == [2, 3, 4]


def test_explicit_step_bodies_run_as_written(stack: Stack) -> None:
    steps = [{"command": "goto", "params": {"node": "live"}, "description": "Go to live TV"},
             {"command": "press_key", "params": {"key": "DIGIT_{n}"}, "description": "Press {n}"}]
    stack.post("/api/rules", {"name": "zap {n}", "steps": steps}, expect=201)
    run = stack.run("zap 3 and check the banner shows Cinema Nova")
    assert run["status"] == "passed", run
    assert [(s["command"], s["params"]) for s in run["steps"][:2]] == [("goto", {"node": "live"}),
                                                                       ("press_key", {"key": "DIGIT_3"})]
    assert run["plan"]["rules"][0]["steps"] == [1, 2]


def test_a_self_calling_rule_is_refused_at_save_time(stack: Stack) -> None:
    r = stack.post("/api/rules", {"name": "warm up", "tasks": "go home, then cool down"}, expect=201)
    r = stack.post("/api/rules", {"name": "cool down", "tasks": "press back and warm up"})
    assert r.status_code == 400
    assert "would call itself: 'cool down' → 'warm up' → 'cool down'" in r.json()["error"]
    names = [x["name"] for x in stack.get("/api/rules")]
    assert "cool down" not in names and "warm up" in names


def test_rule_commands(stack: Stack) -> None:
    added = cli(stack, "add", "open {screen} now", "--tasks", "go to the {screen}")
    assert added.returncode == 0, added.stderr
    assert "saved rule 'open {screen} now' (global) version 1" in added.stdout
    listed = cli(stack, "list")
    assert listed.returncode == 0 and "open {screen} now" in listed.stdout and "tune to {n}" in listed.stdout
    shown = cli(stack, "show", "open {screen} now", "--json")
    assert json.loads(shown.stdout)["tasks"] == "go to the {screen}"
    refused = cli(stack, "add", "loop {n}", "--tasks", "go home, then loop {n}")
    assert refused.returncode == 2 and "would call itself" in refused.stderr
    exported = cli(stack, "list", "--yaml")
    assert "rules:" in exported.stdout
    imported = cli(stack, "add", "--file", "-", stdin="rules:\n  - name: open {screen} now\n    tasks: go to {screen}\n")
    assert imported.returncode == 0 and "version 2" in imported.stdout, imported.stderr
    assert len(json.loads(cli(stack, "show", "open-screen-now", "--versions").stdout)) == 2
    deleted = cli(stack, "delete", "open {screen} now")
    assert deleted.returncode == 0 and "deleted rule" in deleted.stdout
    missing = cli(stack, "show", "open {screen} now")
    assert missing.returncode == 2 and "no rule" in missing.stderr

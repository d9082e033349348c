"""The typed run record (server/run_model.py over server/json_record.py): round trips, rows written by
older code, unknown keys, illegal values, and the API's plan shape kept key for key."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from server.db import Database, RunRow
from server.json_record import RecordError
from server.llm.usage import TokenUsage
from server.next_commands import NextStatus
from server.run_model import (INTERNAL_PLAN_KEYS, CaseRef, ContextStamp, NextCommandResult, Observation, Replan, Run,
                              RunMode, RunOptions, RunRecord, ShownPlan)
from server.run_records import RunRecords
from server.storage import FileStore
from shared.models import Plan, PlannerName, PlanStep, RunStatus
from shared.policy import Limits

# what the server before the typed record did with the column: the reference the shapes are held to
OLD_INTERNAL = ("user_plan", "user_planner", "options", "context", "testcase", "next_commands")


def old_update(stored: dict[str, Any], plan: dict[str, Any] | None = None,
               internal: dict[str, Any] | None = None) -> dict[str, Any]:
    kept = {k: v for k, v in stored.items() if k in OLD_INTERNAL}
    new = {k: v for k, v in (plan if plan is not None else stored).items() if k not in OLD_INTERNAL}
    return copy.deepcopy({**kept, **(internal or {}), **new})


def old_shown(stored: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stored.items() if k not in OLD_INTERNAL}


def dump(d: Any) -> str:
    return json.dumps(d)   # key order counts: the API serialises without sorting


NEXT = {"id": 3, "device_id": "dev1", "command": "press_key", "params": {"key": "HOME"}, "status": "completed",
        "retries": 0, "max_retries": 0, "timeout_s": 30.0, "source": "user:alice", "message": "", "run_id": "r1",
        "created_at": "2026-11-25T08:00:00Z", "finished_at": "2026-11-25T08:00:01.250000Z"}
CONTEXT = {"device_model": "streamtv-web", "userinterface": "streamtv", "fingerprint": "abc123"}
STEP = {"step": 1, "command": "goto", "params": {"node": "live"}, "description": "to live",
        "controller_type": "navigation"}
# a row as the server wrote it a few versions ago: options before limits, run_timeout, next_run and
# confirm existed; a closed-loop round before "digest"; a re-plan; rules; a given test case
OLD_ROW = {"options": {"no_cache": True}, "user_plan": {"analysis": "saved", "feasible": True, "plan": [STEP]},
           "user_planner": "testcase", "testcase": {"name": "live", "fingerprint": "abc123"},
           "context": CONTEXT, "analysis": "go live", "feasible": True, "plan": [STEP], "notes": [],
           "planner": "testcase", "pending": ["open settings"], "rules": [{"rule": "go live", "steps": [1]}],
           "expanded_task": "goto live", "observations": [{"clause": "open settings", "url": "/live", "title": "Live",
                                                           "elements_seen": 4, "decision": "press", "steps": []}],
           "replans": [{"after_step": 1, "from_node": "live", "planner": "llm", "feasible": True, "analysis": "again",
                        "notes": ["n"], "steps": 2}], "next_commands": [NEXT]}


def test_a_new_record_round_trips_and_is_written_as_the_old_code_wrote_it() -> None:
    record = RunRecord(options=RunOptions(no_cache=False, confirm=True, limits=Limits(5.0, 1), run_timeout=60.0,
                                          next_run=[{"command": "reboot"}], prompt_template="compact"))
    record.user_plan, record.user_planner = {"analysis": "", "feasible": True, "plan": [STEP]}, PlannerName.USER
    record.testcase = CaseRef.from_json({"name": "live", "fingerprint": "abc"}, "testcase")
    data = record.to_json()
    assert dump(data) == dump({"options": {"no_cache": False, "confirm": True,
                                           "limits": {"step_timeout": 5.0, "max_retries": 1}, "run_timeout": 60.0,
                                           "next_run": [{"command": "reboot"}], "prompt_template": "compact"},
                               "user_plan": {"analysis": "", "feasible": True, "plan": [STEP]},
                               "user_planner": "user", "testcase": {"name": "live", "fingerprint": "abc"}})
    again = RunRecord.from_json(json.loads(json.dumps(data)), "run r1")
    assert again == record and dump(again.to_json()) == dump(data)
    assert RunRecord(options=RunOptions()).to_json() == {
        "options": {"no_cache": False, "confirm": False, "limits": {}, "run_timeout": None, "next_run": []}}
    given = again.given_plan()
    assert given is not None and given.planner == "user" and [s.command for s in given.steps] == ["goto"]


def test_a_row_written_by_older_code_reads_and_writes_back_as_it_was() -> None:
    record = RunRecord.from_json(copy.deepcopy(OLD_ROW), "run r1")
    assert dump(record.to_json()) == dump(OLD_ROW)
    assert dump(record.plan.to_json()) == dump(old_shown(OLD_ROW))   # what GET /api/runs/<id> shows
    assert record.options == RunOptions(no_cache=True) and record.options.limits == Limits()
    assert record.options.run_timeout is None and record.options.next_run == [] and not record.options.confirm
    assert record.user_planner is PlannerName.TESTCASE and record.testcase == CaseRef("live", "abc123")
    assert record.context == ContextStamp("streamtv-web", "streamtv", "abc123")
    assert record.plan.planner is PlannerName.TESTCASE and record.plan.pending == ["open settings"]
    assert record.plan.replans[0].planner is PlannerName.LLM and record.plan.replans[0].after_step == 1
    assert record.plan.observations[0].digest == "" and "digest" not in record.plan.observations[0].to_json()
    assert record.next_commands[0].status is NextStatus.COMPLETED and record.next_commands[0].to_json() == NEXT
    assert [s.command for s in record.plan.plan_steps()] == ["goto"]
    assert set(INTERNAL_PLAN_KEYS) == set(OLD_INTERNAL)
    assert RunRecord.from_json(None).to_json() == {} and RunRecord.from_json({}).to_json() == {}


def test_a_plan_shows_only_the_keys_it_had() -> None:
    row = {"analysis": "a", "feasible": True, "plan": [], "context": CONTEXT}   # no notes, no planner
    record = RunRecord.from_json(row, "run r1")
    assert dump(record.plan.to_json()) == dump({"analysis": "a", "feasible": True, "plan": []})
    record.plan.replans.append(Replan(after_step=None, from_node=None, planner=PlannerName.LLM, steps=0))
    assert list(record.plan.to_json()) == ["analysis", "feasible", "plan", "replans"]
    assert record.plan.to_json()["replans"] == [{"after_step": None, "from_node": None, "planner": "llm",
                                                 "feasible": False, "analysis": "", "notes": [], "steps": 0}]


def test_a_new_plan_replaces_the_plan_shown_and_keeps_the_bookkeeping() -> None:
    """As after a restart in planning: the plan is planned again; re-plans, rules and rounds of the first go."""
    record = RunRecord.from_json(copy.deepcopy(OLD_ROW), "run r1")
    plan = Plan("new", False, [], ["no step"], "builtin")
    record.plan = ShownPlan.of(plan)
    assert record.to_json() == old_update(OLD_ROW, plan=plan.to_dict())
    assert dump(record.plan.to_json()) == dump(plan.to_dict())
    assert record.next_commands and record.testcase is not None and record.user_plan is not None


def test_unknown_keys_are_kept_where_they_were() -> None:
    row = {"options": {"no_cache": False, "shard": 2}, "analysis": "a", "seen_by": "v9", "feasible": True,
           "plan": [], "replans": [{"after_step": 1, "from_node": None, "planner": "builtin", "feasible": False,
                                    "analysis": "", "notes": [], "steps": 0, "cost": 3}],
           "observations": [{"clause": "c", "url": "", "title": "", "elements_seen": 0, "decision": "",
                             "steps": [], "digest": "d", "model": "x"}],
           "next_commands": [{**NEXT, "host": "h1"}], "testcase": {"name": "t", "fingerprint": None, "v": 1}}
    record = RunRecord.from_json(copy.deepcopy(row), "run r1")
    assert record.options.extra == {"shard": 2} and record.plan.extra == {"seen_by": "v9"}
    assert record.plan.replans[0].extra == {"cost": 3} and record.plan.observations[0].extra == {"model": "x"}
    record.plan.pending = ["more"]
    record.plan.observations.append(Observation("more", digest="e"))
    out = record.to_json()
    assert out["options"] == row["options"] and out["next_commands"] == row["next_commands"]
    assert out["testcase"] == row["testcase"] and out["replans"] == row["replans"]
    assert list(record.plan.to_json()) == ["analysis", "seen_by", "feasible", "plan", "replans", "observations",
                                           "pending"]   # an unknown key is shown with the plan, as it always was
    assert out["observations"][0] == row["observations"][0]


@pytest.mark.parametrize("row, message", [
    ({"options": {"no_cache": "yes"}}, "run r1.options.no_cache must be true or false, not a string"),
    ({"options": {"limits": {"step_timeout": -1}}}, "run r1.options.limits.step_timeout must be seconds"),
    ({"options": {"run_timeout": "soon"}}, "run r1.options.run_timeout must be a number"),
    ({"user_planner": "robot"}, "run r1.user_planner must be one of 'cache', 'llm', 'builtin', 'testcase', 'user'"),
    ({"replans": [{"steps": 1}]}, "run r1.replans[0]: 'planner' is missing"),
    ({"replans": [{"planner": "llm", "steps": "2"}]}, "run r1.replans[0].steps must be a whole number"),
    ({"observations": "none"}, "run r1.observations must be a list, not a string"),
    ({"pending": [1]}, "run r1.pending[0] must be a string, not a number"),
    ({"feasible": 1}, "run r1.feasible must be true or false, not a number"),
    ({"context": {"device_model": "m"}}, "run r1.context: 'userinterface' is missing"),
    ({"next_commands": [{**NEXT, "status": "lost"}]}, "run r1.next_commands[0].status must be one of"),
    ([], "run r1 must be an object, not list"),
])
def test_illegal_values_are_errors_that_name_the_run_and_the_key(row: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        RunRecord.from_json(row, "run r1")
    assert str(caught.value).startswith(message)


def test_the_plan_shown_over_a_run_matches_the_old_writers_key_for_key() -> None:
    """Create → plan (with a closed-loop clause) → next-run commands → a round → a re-plan, both ways."""
    options = {"no_cache": False, "confirm": False, "limits": {}, "run_timeout": None, "next_run": []}
    old = {"options": options}
    record = RunRecord(options=RunOptions())
    assert record.to_json() == old

    plan = Plan("go", True, [PlanStep(1, "goto", {"node": "live"})], ["dropped x"], "llm", pending=["open it"])
    old = old_update(old, plan={**plan.to_dict(), "rules": [{"rule": "r"}], "expanded_task": "goto live"},
                     internal={"context": CONTEXT})
    record = RunRecord.from_json(record.to_json(), "run r1")
    record.plan, record.context = ShownPlan.of(plan, [{"rule": "r"}], "goto live"), ContextStamp(**CONTEXT)
    assert dump(record.to_json()) == dump(old)

    old = {**old, "next_commands": [NEXT]}
    record = RunRecord.from_json(record.to_json(), "run r1")
    record.next_commands = [NextCommandResult.from_json(NEXT, "next")]
    assert dump(record.plan.to_json()) == dump(old_shown(old)) and record.to_json()["next_commands"] == [NEXT]

    observation = Observation("open it", "/live", "Live", 3, "press", [{"step": 1, "command": "press_key"}], "d1")
    stored = copy.deepcopy(old)
    merged = {**stored, "plan": [*stored["plan"], {"step": 2, "command": "press_key"}], "pending": [],
              "observations": [observation.to_json()]}
    old = old_update(old, plan=merged)
    shown = RunRecord.from_json(record.to_json(), "run r1").plan
    shown.observations.append(observation)
    shown.pending = []
    shown.steps.append({"step": 2, "command": "press_key"})
    record = RunRecord.from_json(record.to_json(), "run r1")
    record.plan = shown
    assert dump(record.to_json()["plan"]) == dump(old["plan"])
    assert dump(record.plan.to_json()) == dump(old_shown(old))

    replan = {"after_step": 2, "from_node": "live", "planner": "builtin", "feasible": True, "analysis": "again",
              "notes": [], "steps": 1}
    old = old_update(old, plan={**copy.deepcopy(old), "replans": [replan]})
    record = RunRecord.from_json(record.to_json(), "run r1")
    record.plan.replans.append(Replan(after_step=2, from_node="live", planner=PlannerName.BUILTIN, feasible=True,
                                      analysis="again", notes=[], steps=1))
    assert dump(record.plan.to_json()) == dump(old_shown(old))
    assert RunRecord.from_json(record.to_json(), "run r1").to_json() == record.to_json()


def test_a_run_row_reads_as_a_typed_run() -> None:
    row = RunRow(id="r1", device_id="dev1", task="go live", mode="plan", status="planned", planner="cache",
                 plan=copy.deepcopy(OLD_ROW), usage={"prompt_tokens": 5, "total_tokens": 5, "llm_calls": 1})
    run = Run.from_row(row)
    assert (run.mode, run.status, run.planner) == (RunMode.PLAN, RunStatus.PLANNED, PlannerName.CACHE)
    assert run.usage == TokenUsage(5, 0, 5, 1) and run.plan is run.record.plan and run.plan.replans
    unplanned = Run.from_row(RunRow(id="r2", device_id="d", task="t", mode="run", status="queued", planner="",
                                    plan=None, usage={}))
    assert unplanned.planner is None and unplanned.record == RunRecord()
    with pytest.raises(RecordError, match="run r3: mode must be one of 'run', 'plan', not 'walk'"):
        Run.from_row(RunRow(id="r3", device_id="d", task="t", mode="walk", status="queued", plan={}))
    written = RunRow(id="r4", plan={})
    RunRecord.from_json(OLD_ROW, "run r4").apply_to(written)
    assert written.plan == OLD_ROW


def test_the_api_shows_an_old_row_as_it_did(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'runs.db'}")
    with db.session() as s:
        s.add(RunRow(id="r1", device_id="dev1", task="go live", mode="run", status="passed", planner="testcase",
                     plan=copy.deepcopy(OLD_ROW)))
    records = RunRecords(db, FileStore(tmp_path / "data"))
    shown = records.get("r1", with_steps=False)
    assert dump(shown["plan"]) == dump(old_shown(OLD_ROW)) and shown["next_commands"] == [NEXT]
    assert (shown["mode"], shown["status"], shown["planner"]) == ("run", "passed", "testcase")
    assert records.planning_context("r1") == CONTEXT

"""Scoring: correct end state, false passes and refused impossible tasks, per app and split."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.scoring import TaskResult, render, scores, to_json
from tests.background_eval import BackgroundEval, BackgroundEvalError


def result(expected: str, status: str, judge_ok: bool = True, steps: int = 1, app: str = "a",
           split: str = "dev", tid: str = "t") -> TaskResult:
    return TaskResult(tid, app, split, "a task", expected, status, steps, judge_ok, (), 1.0)


def test_correct_needs_status_and_judge() -> None:
    assert result("passed", "passed").correct
    assert not result("passed", "passed", judge_ok=False).correct
    assert not result("passed", "failed").correct
    assert result("failed", "failed").correct
    assert not result("failed", "error").correct


def test_impossible_task_is_refused_only_with_no_step_run() -> None:
    assert result("infeasible", "infeasible", steps=0).refused
    assert result("infeasible", "infeasible", steps=0).correct
    assert not result("infeasible", "infeasible", steps=2).refused
    assert not result("infeasible", "infeasible", steps=2).correct
    assert not result("infeasible", "failed", steps=0).refused


def test_false_pass_is_a_pass_that_should_not_be() -> None:
    assert result("passed", "passed", judge_ok=False).false_pass
    assert result("failed", "passed").false_pass
    assert result("infeasible", "passed").false_pass
    assert not result("passed", "passed").false_pass
    assert not result("failed", "failed", judge_ok=False).false_pass


def test_scores_per_app_and_split_and_rendering() -> None:
    results = [result("passed", "passed", app="a", tid="1"), result("passed", "infeasible", app="a", tid="2"),
               result("failed", "passed", app="b", tid="3"), result("infeasible", "infeasible", steps=0, app="b",
                                                                        tid="4", split="heldout")]
    s = scores(results)
    assert s["dev"]["a"].correct == 1 and s["dev"]["a"].tasks == 2 and s["dev"]["a"].correct_rate == 0.5
    assert s["dev"]["b"].false_passes == 1 and s["dev"]["all"].tasks == 3
    assert s["heldout"]["b"].refused == 1 and s["heldout"]["b"].impossible == 1
    text = render(results, {"dev": 3.0, "heldout": 1.0})
    assert "dev split: 3 task(s) in 3.0 s" in text and "held-out split: 1 task(s) in 1.0 s" in text
    assert "50.0%" in text and "1/1" in text
    data = json.loads(json.dumps(to_json(results, {"dev": 3.0})))
    assert data["splits"]["dev"]["apps"]["all"]["false_passes"] == 1
    assert data["results"][2]["false_pass"] is True


def test_a_result_read_back_from_its_json_is_the_same_result() -> None:
    original = TaskResult("t9", "a", "heldout", "a task", "passed", "passed", 2, False, ("FAIL: x",), 1.5,
                          message="m", planner="builtin", plan=("goto(home)", "press(OK)"), run_id="r1")
    data = json.loads(json.dumps(to_json([original], {"heldout": 3.0})))
    back = TaskResult.from_dict(data["results"][0])
    assert back == original and back.false_pass


def test_a_background_eval_that_fails_says_why(tmp_path: Path) -> None:
    bad = BackgroundEval(split="no-such-split", jobs=1, workdir=tmp_path)
    bad.start()
    with pytest.raises(BackgroundEvalError, match="no-such-split"):
        bad.results(timeout_s=60)

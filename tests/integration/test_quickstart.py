"""The newcomer's first ten tasks of docs/web-app-quickstart.md, on two real third-party apps with no tree.

Django's admin and sqlite-web are installed from PyPI by the test set-up and started on loopback
(evals/apps). Each task's end state is judged from the app itself: its database, its URL and page.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from evals.cli import evaluate
from evals.corpus import load_file
from evals.scoring import render

pytestmark = pytest.mark.integration

QUICKSTART = Path(__file__).resolve().parents[2] / "evals" / "quickstart"


@pytest.mark.parametrize("app", ["django_admin", "sqlite_web"])
def test_the_guides_first_ten_tasks_pass(app: str) -> None:
    tasks = load_file(QUICKSTART / f"{app}.yaml")
    assert len(tasks) == 10
    results, wall = evaluate(tasks, jobs=1)
    print("\n" + render(results, wall))
    wrong = [f"{r.task_id}: {r.text!r} ended {r.status} ({r.message}); judge: {'; '.join(r.judge_details)}"
             for r in results if not r.correct]
    assert not wrong, "\n".join(wrong)
    assert not [r for r in results if r.false_pass]

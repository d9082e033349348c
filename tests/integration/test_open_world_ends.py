"""How a run ends on screens no tree fully knows (an explored draft: ``complete: false``), judged from the app's
state (``window.streamtv``): the planner goes and looks before it gives up, so what it then finds the device cannot
do ends the run ``infeasible`` after the steps that looked, and a check of what is not there ends it ``failed``."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
import yaml

from evals.corpus import Expect, Setup, Task
from evals.harness import Harness
from evals.apps.streamtv import DEMO_DIR

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    folder = tmp_path_factory.mktemp("open-world")
    tree = yaml.safe_load((DEMO_DIR / "streamtv.tree.yaml").read_text())
    tree["complete"] = False   # as a draft: what no node shows may still be on the screen a step leads to
    draft = Path(folder / "streamtv.draft.yaml")
    draft.write_text(yaml.safe_dump(tree, sort_keys=False))
    with Harness(["streamtv"], jobs=1, workdir=folder / "eval", trees={"streamtv": draft}) as h:
        yield h


def _task(tid: str, text: str, expect: str, judge: dict) -> Task:
    return Task(tid, "streamtv", text, Expect(expect), ({"streamtv": judge},), Setup(url="/#/home"))


def test_what_the_screen_reached_cannot_do_is_infeasible_and_a_check_of_what_is_missing_fails(
        harness: Harness) -> None:
    results = {r.task_id: r for r in harness.run_tasks([
        _task("ow-missing-movie", "open the movie Inception", "infeasible", {"screen": "movies"}),
        _task("ow-missing-check", "go to the movies and check that Inception is from 2010", "failed",
              {"screen": "movies"}),
    ])}
    missing = results["ow-missing-movie"]
    assert missing.status == "infeasible" and missing.steps_run >= 1, (missing.status, missing.message)
    assert "Inception" in missing.message and missing.judge_ok, missing.judge_details
    check = results["ow-missing-check"]
    assert check.status == "failed" and check.judge_ok, (check.status, check.message)

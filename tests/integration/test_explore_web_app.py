"""Done-when of the explorer on a third-party web app (Datasette, from PyPI): from no tree, a drafted tree
takes tasks that need several screens from the home page, and a row of a table is one parameterised node
opened for any row. The end state is judged from the app (the page's address and what it shows)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
import yaml

from evals.corpus import Expect, Task, _parse_task
from evals.explore_app import explore_app
from evals.harness import Harness
from explore.explorer import Limits

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, float]]:
    folder = tmp_path_factory.mktemp("explore-datasette")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DEVICEPILOT_DATA_DIR", str(folder / "data"))
        yield explore_app("datasette", folder / "datasette.yaml", Limits(max_screens=12, max_depth=3, budget_s=200))


def task(tid: str, text: str, *judge: dict, expect: str = "passed") -> Task:
    return _parse_task({"id": tid, "text": text, "expect": expect, "judge": list(judge)}, "datasette", "test")


def test_the_draft_has_the_tables_and_a_row_node_for_any_row(drafted: tuple[Path, float]) -> None:
    path, elapsed = drafted
    assert elapsed < 300
    tree = yaml.safe_load(path.read_text())
    rows = [n for n in tree["nodes"] if n.get("param")]
    assert rows and all(n["param_verifications"] for n in rows)
    plants = next(n for n in rows if n["id"].startswith("plants"))
    assert {"1", "5", "9"} <= set(plants["items"])
    # the JSON / CSV exports are documents, not screens: skipped and said so
    assert any("document" in s["reason"] for s in tree["draft"]["skipped"])
    assert not any(n["label"].startswith("Screen ") for n in tree["nodes"])


def test_tasks_that_need_several_screens_pass_from_the_home_page(drafted: tuple[Path, float],
                                                                tmp_path: Path) -> None:
    path, _ = drafted
    tasks = [
        # home -> plants -> row 7: two actions, and the row node verifies it shows row 7
        task("x-plant-7", "open plant 7", {"url_contains": "/nursery/plants/7"}),
        task("x-plant-2", "go to plants 2 and check Lavender is shown", {"url_contains": "/nursery/plants/2"},
             {"text_present": "Lamiaceae"}),
        # a row that is not there never passes (there is no plant 42), whether refused or failed
        task("x-plant-42", "open plant 42", {"url_contains": "/nursery/plants/42"}, expect="failed"),
    ]
    with Harness(["datasette"], jobs=1, workdir=tmp_path, trees={"datasette": path}) as harness:
        results = {r.task_id: r for r in harness.run_tasks(tasks)}
    wrong = {t: (r.status, r.message) for t, r in results.items() if not r.correct and t != "x-plant-42"}
    assert not wrong, wrong
    missing = results["x-plant-42"]
    assert missing.status in (Expect.FAILED.value, "infeasible") and not missing.false_pass, missing

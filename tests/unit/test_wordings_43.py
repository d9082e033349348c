"""Wordings of fresh batches (tester tasks written by other hands, on the demo and on apps the planner had not
seen), each rule shown on a captured screen or the demo's tree in words of its own. Each test fails before."""
from __future__ import annotations

import pytest

from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen


@pytest.mark.parametrize("task, tag, present", [
    ("verify the BBC News bookmark is tagged sport", "sport", True),
    ("BBC News should be tagged with travel", "travel", True),
    ("make sure the BBC News bookmark isn't tagged sport", "sport", False),
])
def test_a_tag_a_row_is_said_to_have_is_checked_in_its_row_though_no_row_shows_it(task: str, tag: str,
                                                                                    present: bool) -> None:
    p = plan(task, screen("buku/bookmark/"))
    assert p.feasible, p.analysis
    assert p.steps[-1].command == "wait_for_element"
    assert p.steps[-1].params == {"text": tag, "row": "BBC News", "present": present}


@pytest.mark.parametrize("task, n", [
    ("there shoud be 5 suppliers in the nursery db, confirm pls", 5),
    ("check there are 3 suppliers in the database", 3),
    ("make sure we have 4 suppliers in the system", 4),
])
def test_things_counted_in_the_apps_whole_store_are_the_lists_rows(task: str, n: int) -> None:
    p = plan(task, screen("datasette/nursery/suppliers"))
    assert p.feasible, p.analysis
    assert p.steps[-1].params == {"role": "row", "count": n, "present": True}


@pytest.mark.parametrize("task", ["check we have 3 suppliers in Ghent", "we've got 3 suppliers in Ghent, right?"])
def test_we_have_n_things_is_a_count_of_them_never_a_rows_value(task: str) -> None:
    p = plan(task, screen("datasette/nursery/suppliers"))
    assert p.feasible, p.analysis
    assert p.steps[-1].params["count"] == 3 and p.steps[-1].params["text"] == "Ghent", p.steps[-1].params

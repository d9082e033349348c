"""A list drawn as an ARIA grid of <div>s (Gradio's Dataframe: role=row, role=gridcell, a <thead> of
role=columnheader), read as a table: its columns by their headers, its rows counted by a column's value. The
screen is a Gradio app's real one (tests/fixtures/screens/new_apps.json, "loans/loans")."""
from __future__ import annotations

import pytest

from server.planners.intents_statement import _column, _every_row, _table_of
from tests.unit.test_data_grid_app import screen
from tests.unit.test_screen_planning import plan, steps

LOANS = "loans/loans"


def test_a_grid_cell_says_its_column_and_row_by_role_as_a_td_does_by_tag() -> None:
    cell = "main > div:nth-of-type(2) > div[role=row]:nth-of-type(3) > div[role=gridcell]:nth-of-type(4)"
    assert _column(cell) == 4
    assert _every_row(cell) == "main > div:nth-of-type(2) > div[role=row] > div[role=gridcell]:nth-of-type(4)"
    assert _table_of(cell) == "main > div:nth-of-type(2) > "
    assert _column("#t > tbody > tr:nth-of-type(2) > td:nth-of-type(3)") == 3   # a table, as before


@pytest.mark.parametrize("task, value, n, column", [
    ("make sure Priya Shah has 2 loans", "Priya Shah", 2, 3),   # beside a "Loan" number column: her rows
    ("check that Tom Baker has 3 loans", "Tom Baker", 3, 3),    # false on the screen: the count check fails
    ("how many loans are overdue? there should be 1", "overdue", 1, 5),
])
def test_a_count_said_of_a_value_counts_the_grid_rows_that_show_it(task: str, value: str, n: int,
                                                                     column: int) -> None:
    (check, args), = steps(plan(task, screen(LOANS)))
    assert check == "wait_for_element" and args["text"].lower() == value.lower() and args["count"] == n
    assert args["selector"].endswith(f"div[role=row] > div[role=gridcell]:nth-of-type({column})")


def test_a_statement_of_a_grid_row_is_checked_in_its_column() -> None:
    (check, args), = steps(plan("check that the Laptop is due on 2026-12-01", screen(LOANS)))
    assert args["text"] == "2026-12-01" and "[role=row]:nth-of-type(" in args["selector"]
    assert args["selector"].endswith("div[role=gridcell]:nth-of-type(4)")

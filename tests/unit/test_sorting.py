"""Sorts as testers say them, planned as header clicks proved by the column's values; and how values are judged."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from backend_core.controllers.web_sorting import Column, SortOrder, holds, orders_of
from server.planners.restating import restate
from server.planners.sorting import ANY, ASC, DESC, parse_sort
from shared.errors import DeviceFailure
from shared.screen import ScreenObservation
from tests.unit.test_screen_planning import plan, steps

SHOTS = Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "third_party.json"


def screen(key: str) -> ScreenObservation:
    return ScreenObservation.from_dict(json.loads(SHOTS.read_text())[key])


@pytest.mark.parametrize("rest, noun, column, order", [
    ("the books by year, newest first", "books", "year", DESC),
    ("invoices by amount from high to low", "invoices", "amount", DESC),
    ("members by surname a-z", "members", "surname", ASC),
    ("the tasks by due date in reverse order", "tasks", "due date", DESC),
    ("songs by length", "songs", "length", ANY),
    ("the orders by total ascending", "orders", "total", ASC),
    ("employees by the lowest salary", "employees", "salary", ASC),
])
def test_a_sort_names_its_column_and_direction(rest: str, noun: str, column: str, order: str) -> None:
    parsed = parse_sort(rest)
    assert parsed is not None
    assert parsed[0] == noun and parsed[1].column == column and parsed[1].order == order


@pytest.mark.parametrize("rest, implied, order", [
    ("the heaviest parcels first", "weight", DESC),
    ("the most expensive items first", "price", DESC),
    ("the films from the oldest to the newest", "date", ASC),
])
def test_a_superlative_implies_the_column_and_puts_its_end_first(rest: str, implied: str, order: str) -> None:
    parsed = parse_sort(rest)
    assert parsed is not None and implied in parsed[1].implied and parsed[1].order == order


def test_a_direction_after_a_comma_stays_with_its_sort() -> None:
    assert restate("sort the rivers by length, longest first") == "sort the rivers by length with longest first"
    assert restate("order the cities by population, descending") == "order the cities by population descending"
    assert restate("show the cheapest flights first") == "sort the cheapest flights first"
    assert restate("open the report, descending order is fine") == "open the report, descending order is fine"


@pytest.mark.parametrize("task, column, order", [
    ("sort the plants by height, tallest first", "height_cm", DESC),
    ("rank the plants from the shortest to the tallest", "height_cm", ASC),
    ("put the plants in order by name, Z to A", "name", DESC),
    ("sort plants by family", "family", ANY),
])
def test_sorting_a_live_table_clicks_until_the_column_reads_in_order(task: str, column: str, order: str) -> None:
    assert steps(plan(task, screen("datasette/nursery/plants"))) == [
        ("sort_table", {"column": column, "order": order})]


def test_a_sort_is_checked_from_the_column_not_from_a_text() -> None:
    got = steps(plan("verify the plants are ordered by height, highest first", screen("datasette/nursery/plants")))
    assert got == [("check_sorted", {"column": "height_cm", "order": DESC})]


def test_a_column_that_is_not_there_is_refused() -> None:
    p = plan("sort the plants by price, cheapest first", screen("datasette/nursery/plants"))
    assert not p.feasible and "price" in p.analysis


@pytest.mark.parametrize("values, found", [
    (["3", "12.50", "1,200"], {SortOrder.ASCENDING}),            # as numbers, not as text
    (["$9.99", "$12", "$100"], {SortOrder.ASCENDING}),
    (["pear", "Apple", "banana"], set()),
    (["Zebra", "apple", "box"], {SortOrder.ASCENDING}),          # a database's case-sensitive order
    (["delta", "Charlie", "bravo"], {SortOrder.DESCENDING}),
    (["2024-03-01", "2023-12-31", "2023-01-05"], {SortOrder.DESCENDING}),
])
def test_values_are_read_as_the_database_sorts_them(values: list[str], found: set[SortOrder]) -> None:
    assert orders_of(values) == found


def test_empty_cells_are_left_out_but_an_empty_column_is_no_proof() -> None:
    col = Column("price", ("-", "3", "", "5", "None"))
    assert holds(col, SortOrder.ASCENDING) and not holds(col, SortOrder.DESCENDING)
    with pytest.raises(DeviceFailure, match="no values"):
        Column.of({"found": True, "header": "price", "index": 2, "values": ["-", ""]}, "price")
    with pytest.raises(DeviceFailure, match="no table column"):
        Column.of({"found": False, "headers": ["name"]}, "price")

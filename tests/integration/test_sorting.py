"""Sorting a table by a column on two real apps (Datasette and sqlite-web, from PyPI), judged from the apps.

``sort_table`` clicks a header until the column reads in the asked order; the test reads the order
the app itself applied (its URL) and the rows it shows against the app's own database, never the
command's message. ``check_sorted`` must fail on a table that is not in the asked order.
"""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Iterator

import pytest

from evals.apps.datasette import Datasette
from evals.apps.sqlite_web import SqliteWeb
from shared.errors import DeviceFailure
from tests.integration.web_pages import Browser, pages_url  # noqa: F401  (a fixture)

pytestmark = pytest.mark.integration

ROWS_JS = "[...document.querySelectorAll('table tbody tr')].map(tr => tr.innerText.replace(/\\s+/g, ' ').trim())"


@pytest.fixture(scope="module")
def datasette(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Datasette]:
    app = Datasette(tmp_path_factory.mktemp("datasette"))
    app.start()
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture(scope="module")
def sqlite_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteWeb]:
    app = SqliteWeb(tmp_path_factory.mktemp("sqlite_web"))
    app.start()
    try:
        yield app
    finally:
        app.stop()


def column(db: Path, sql: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [str(r[0]) for r in conn.execute(sql)]


def test_datasette_sorted_tallest_first_and_checked(datasette: Datasette, tmp_path: Path) -> None:
    browser = Browser(datasette.base_url + "/", tmp_path)
    try:
        browser.open("nursery/plants")
        with pytest.raises(DeviceFailure, match="sorted by 'height_cm', descending"):
            browser.dom.execute("check_sorted", {"column": "height_cm", "order": "descending", "timeout": 1})
        browser.remote.execute("sort_table", {"column": "height_cm", "order": "descending"})
        assert "_sort_desc=height_cm" in browser.js("location.search")        # the app's own sort
        heights = column(datasette.database, "SELECT height_cm FROM plants ORDER BY height_cm DESC")
        rows = browser.js(ROWS_JS)
        assert len(rows) == len(heights)
        for row, height in zip(rows, heights):
            assert f" {height} " in f" {row} ", (row, height)
        browser.dom.execute("check_sorted", {"column": "height_cm", "order": "descending"})
        # the planner's check of a row by its place: the tallest plant's row is first, the shortest's is not
        tallest, shortest = column(datasette.database, "SELECT name FROM plants ORDER BY height_cm DESC, id")[::len(heights) - 1]
        first_row = "table tbody tr:nth-of-type(1)"
        browser.dom.execute("wait_for_element", {"selector": first_row, "text": tallest})
        with pytest.raises(DeviceFailure):
            browser.dom.execute("wait_for_element", {"selector": first_row, "text": shortest, "timeout": 1})
        with pytest.raises(DeviceFailure):
            browser.dom.execute("check_sorted", {"column": "height_cm", "order": "ascending", "timeout": 1})
    finally:
        browser.close()


def test_sqlite_web_sorted_by_year_both_ways(sqlite_web: SqliteWeb, tmp_path: Path) -> None:
    browser = Browser(sqlite_web.base_url + "/", tmp_path)
    try:
        browser.open("books/content/")
        for order, sql_order, ordering in (("ascending", "ASC", r"ordering=\d"), ("descending", "DESC", r"ordering=-\d")):
            browser.remote.execute("sort_table", {"column": "year", "order": order})
            assert re.search(ordering, browser.js("location.search"))    # the app's own sort (by column number)
            years = column(sqlite_web.database, f"SELECT year FROM books ORDER BY year {sql_order}")
            rows = browser.js(ROWS_JS)
            assert rows and all(f" {y} " in f" {r} " for r, y in zip(rows, years)), (rows[:3], years[:3])
        with pytest.raises(DeviceFailure, match="no table column 'price'"):
            browser.remote.execute("sort_table", {"column": "price", "order": "ascending"})
    finally:
        browser.close()


@pytest.fixture(scope="module")
def grids(pages_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:  # noqa: F811
    """The fixture pages (tests/fixtures/web) in a real headless Chromium."""
    page = Browser(pages_url, tmp_path_factory.mktemp("grids"))
    try:
        yield page
    finally:
        page.close()


def test_a_grid_of_divs_is_sorted_by_its_header_and_read_by_aria_columns(grids: Browser) -> None:
    """A data grid drawn with <div>s and ARIA roles (its columns numbered by aria-colindex): the header is clicked
    until the column reads in order, judged from the page's own sort state and rows."""
    browser = grids
    browser.open("sortable-grid.html")
    with pytest.raises(DeviceFailure, match="sorted by 'Mileage', descending"):
        browser.dom.execute("check_sorted", {"column": "Mileage", "order": "descending", "timeout": 1})
    browser.remote.execute("sort_table", {"column": "Mileage", "order": "descending"})
    assert browser.js("window.sortState") == {"column": 2, "descending": True}
    mileages = browser.js("[...document.querySelectorAll('#body [role=row]')].map(r => r.children[2].textContent)")
    assert mileages == ["230,400", "48,210", "9,900", "1,250"]
    browser.dom.execute("check_sorted", {"column": "Mileage", "order": "descending", "timeout": 1})
    browser.remote.execute("sort_table", {"column": "Depot", "order": "ascending"})   # its sort is a button
    assert browser.js("window.sortState") == {"column": 1, "descending": False}


def test_a_grid_whose_header_alone_is_a_table_reads_its_div_rows(grids: Browser) -> None:
    browser = grids
    browser.open("aria-grid.html")   # as Gradio draws a Dataframe
    browser.dom.execute("check_sorted", {"column": "Loan", "order": "ascending", "timeout": 1})
    with pytest.raises(DeviceFailure, match="sorted by 'Borrower', ascending"):
        browser.dom.execute("check_sorted", {"column": "Borrower", "order": "ascending", "timeout": 1})

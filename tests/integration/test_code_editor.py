"""A code editor (CodeMirror, as Datasette's SQL box) is a field: seen, typed into, its text replaced.

Datasette (PyPI) serves a real CodeMirror 5 editor; the query that runs is read from the app's
own URL and results, never from the command's message.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from backend_core.controllers.web_observe import observe_page
from evals.apps.datasette import Datasette
from tests.integration.web_pages import Browser

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def datasette(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Datasette]:
    app = Datasette(tmp_path_factory.mktemp("datasette"))
    app.start()
    try:
        yield app
    finally:
        app.stop()


def test_the_sql_editor_is_observed_typed_into_and_run(datasette: Datasette, tmp_path: Path) -> None:
    browser = Browser(datasette.base_url + "/", tmp_path)
    try:
        browser.open("nursery")
        editor = next(e for e in browser.session.call(observe_page).elements if e.role == "textbox")
        assert editor.hint == "sql editor" and editor.value.startswith("select")   # the editor's own text
        browser.remote.execute("input_text", {"text": "select name from plants where indoor = 1",
                                              "field": "sql editor"})
        browser.remote.execute("click_element", {"text": "Run SQL", "role": "button"})
        # the form's page loads after the click returns: wait for the app's own results table
        browser.session.call(lambda page: page.wait_for_selector("table td", timeout=10_000))
        url = browser.js("location.href")
        assert parse_qs(urlsplit(url).query)["sql"] == ["select name from plants where indoor = 1"]   # replaced
        shown = browser.js("[...document.querySelectorAll('table td')].map(td => td.innerText.trim())")
        assert sorted(shown) == ["Fiddle Leaf Fig", "Monstera", "Peace Lily", "Snake Plant"]
    finally:
        browser.close()

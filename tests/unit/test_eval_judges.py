"""Judges read the end state from the app: a page (URL, text, elements, app state) and its database."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from evals.apps.base import AppInstance
from evals.judges import JudgeContext, judge


class FakePage:
    """The three reads a judge makes of a device's page, over fixed content."""

    def __init__(self, url: str = "", text: str = "", elements: dict[str, str] | None = None,
                 state: dict[str, Any] | None = None) -> None:
        self._url, self._text, self.elements, self.state = url, text, elements or {}, state

    def url(self) -> str:
        return self._url

    def text(self) -> str:
        return self._text

    def evaluate(self, script: str, arg: Any = None) -> Any:
        if "window.streamtv" in script:
            return self.state
        return self.elements.get(arg[0])


class DbApp(AppInstance):
    name = "fake"

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp)
        self.path = tmp / "app.sqlite3"
        if self.path.exists():
            return
        with sqlite3.connect(self.path) as db:
            db.execute("CREATE TABLE items (name TEXT, price REAL, in_stock INTEGER)")
            db.executemany("INSERT INTO items VALUES (?, ?, ?)", [("Mug", 8.5, 1), ("Kettle", 29.9, 0)])

    @property
    def start_url(self) -> str:
        return "/"

    @property
    def database(self) -> Path:
        return self.path

    def device_config(self) -> dict[str, Any]:
        return {}


def verdict(checks: list[dict[str, Any]], page: FakePage, tmp_path: Path):
    return judge(tuple(checks), JudgeContext(page, DbApp(tmp_path)))  # type: ignore[arg-type]


def test_url_and_text_checks(tmp_path: Path) -> None:
    page = FakePage("http://x/admin/store/product/?q=mug", "Select product\n  Blue   Mug\n1 product")
    assert verdict([{"url_contains": "/store/product/"}, {"text_present": ["blue mug", "1 product"]},
                    {"text_absent": "Kettle"}, {"url_not_contains": "customer"}], page, tmp_path).ok
    v = verdict([{"text_present": "Kettle"}], page, tmp_path)
    assert not v.ok and "lacks ['Kettle']" in v.details[0]
    assert not verdict([{"text_absent": "MUG"}], page, tmp_path).ok


def test_element_and_field_checks(tmp_path: Path) -> None:
    page = FakePage(elements={"#banner": "5 Melody TV", "#q": "orbit"})
    assert verdict([{"element_text": {"selector": "#banner", "contains": "melody"}},
                    {"field_value": {"selector": "#q", "equals": "orbit"}},
                    {"element_text": {"selector": "#none", "absent": True}}], page, tmp_path).ok
    assert not verdict([{"field_value": {"selector": "#q", "equals": "orbit x"}}], page, tmp_path).ok
    assert not verdict([{"element_text": {"selector": "#none", "contains": "a"}}], page, tmp_path).ok
    assert not verdict([{"element_text": {"selector": "#banner", "not_contains": "Melody"}}], page, tmp_path).ok


def test_sql_checks_compare_scalars_lists_and_rows(tmp_path: Path) -> None:
    page = FakePage()
    assert verdict([{"sql": {"query": "SELECT count(*) FROM items", "equals": 2}},
                    {"sql": {"query": "SELECT price FROM items WHERE name = 'Mug'", "equals": 8.50}},
                    {"sql": {"query": "SELECT in_stock FROM items WHERE name = 'Kettle'", "equals": False}},
                    {"sql": {"query": "SELECT name FROM items ORDER BY name", "equals": ["Kettle", "Mug"]}},
                    {"sql": {"query": "SELECT name, in_stock FROM items ORDER BY name",
                             "equals": [["Kettle", 0], ["Mug", 1]]}}], page, tmp_path).ok
    v = verdict([{"sql": {"query": "SELECT count(*) FROM items", "equals": 3}}], page, tmp_path)
    assert not v.ok and "-> 2" in v.details[0]


def test_sql_check_never_writes(tmp_path: Path) -> None:
    v = verdict([{"sql": {"query": "SELECT 1; DELETE FROM items", "equals": 1}}], FakePage(), tmp_path)
    assert not v.ok
    db = sqlite3.connect(tmp_path / "app.sqlite3")
    assert db.execute("SELECT count(*) FROM items").fetchone()[0] == 2


def test_streamtv_state(tmp_path: Path) -> None:
    page = FakePage(state={"screen": "live", "channel": 5, "subtitles": False, "audio": "French",
                           "parentalLock": False, "playing": False, "title": "The Last Orbit"})
    assert verdict([{"streamtv": {"screen": "live", "channel": 5, "subtitles": False, "audio": "french"}}],
                   page, tmp_path).ok
    v = verdict([{"streamtv": {"channel": 8}}], page, tmp_path)
    assert not v.ok and "'channel': 5" in v.details[0]
    assert not verdict([{"streamtv": {"screen": "live"}}], FakePage(state=None), tmp_path).ok


def test_a_check_that_cannot_read_the_app_fails_the_verdict(tmp_path: Path) -> None:
    class Broken(FakePage):
        def url(self) -> str:
            raise RuntimeError("browser gone")

    v = verdict([{"url_contains": "/a"}, {"text_absent": "x"}], Broken(), tmp_path)
    assert not v.ok and "could not read the app: browser gone" in v.details[0] and v.details[1].startswith("ok")


@pytest.mark.parametrize("checks", [[{"text_present": "a"}], [{"streamtv": {"screen": "home"}}]])
def test_all_checks_must_hold(tmp_path: Path, checks: list[dict[str, Any]]) -> None:
    page = FakePage(text="b", state={"screen": "guide"})
    assert not verdict([{"text_present": "b"}, *checks], page, tmp_path).ok

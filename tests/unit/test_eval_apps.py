"""The third-party apps under evaluation start on loopback, reset in milliseconds, and become tree-less devices."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
import requests

from evals.apps import APPS
from evals.apps.buku import Buku
from evals.apps.changedetection import ChangeDetection
from evals.apps.datasette import Datasette
from evals.apps.django_admin import DjangoAdmin
from evals.apps.ihatemoney import CODE, PROJECT, IHateMoney
from evals.apps.roundup import ADMIN, PASSWORD, Roundup
from evals.apps.sqlite_web import SqliteWeb
from evals.apps.todomvc import TodoMVC
from evals.apps.trac import Trac
from evals.harness import Harness
from host.config import HostConfig

# a request to an app under test; the suite shares the machine with the held-out eval's browsers and apps, where a
# heavy app (changedetection.io) has taken over 10 s to answer a DELETE: these tests check behaviour, not speed
HTTP_TIMEOUT_S = 60


def count(db: Path, sql: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(sql).fetchone()[0])


@pytest.mark.parametrize("cls, page, table, text", [
    (DjangoAdmin, "/admin/store/product/", "store_product", "Wooden Train"),
    (SqliteWeb, "/books/content/", "books", "Neuromancer"),
    (Datasette, "/nursery/plants", "plants", "Fiddle Leaf Fig"),
    (Trac, "/report/1", "ticket", "Remote battery warning"),
])
def test_app_starts_serves_its_screens_and_resets(tmp_path: Path, cls: type, page: str, table: str,
                                                  text: str) -> None:
    app = cls(tmp_path / cls.name)
    app.start()
    try:
        resp = requests.get(app.base_url + page, timeout=HTTP_TIMEOUT_S)
        assert resp.status_code == 200 and text in resp.text
        before = count(app.database, f"SELECT count(*) FROM {table}")
        with sqlite3.connect(app.database) as conn:
            conn.execute(f"DELETE FROM {table}")
        assert text not in requests.get(app.base_url + page, timeout=HTTP_TIMEOUT_S).text
        server = app.proc
        app.reset()
        assert app.proc is server and server is not None and server.poll() is None   # not restarted
        assert count(app.database, f"SELECT count(*) FROM {table}") == before > 0
        assert text in requests.get(app.base_url + page, timeout=HTTP_TIMEOUT_S).text
    finally:
        app.stop()
    assert app.proc is not None and app.proc.poll() is not None


def test_ihatemoney_runs_in_its_own_environment_and_resets(tmp_path: Path) -> None:
    """I Hate Money's pins do not fit devicepilot's: it runs from .webapps/ihatemoney/venv, seeded by its own API."""
    IHateMoney.check_installed()  # ./dp test installs it (scripts/install-web-apps.sh)
    app = IHateMoney(tmp_path / "ihatemoney")
    app.start()
    try:
        def bills() -> list[str]:
            resp = requests.get(f"{app.base_url}/api/projects/{PROJECT}/bills", auth=(PROJECT, CODE), timeout=HTTP_TIMEOUT_S)
            assert resp.status_code == 200, resp.text[-300:]
            return sorted(b["what"] for b in resp.json())

        assert bills() == ["Cinema tickets", "Electricity", "Groceries", "Pizza night", "Rent"]
        with sqlite3.connect(app.database) as conn:
            conn.execute("DELETE FROM billowers")
            conn.execute("DELETE FROM bill")
        assert bills() == []
        app.reset()
        assert len(bills()) == 5 and count(app.database, "SELECT count(*) FROM person") == 4
    finally:
        app.stop()
    assert app.proc is not None and app.proc.poll() is not None


def test_roundup_runs_in_its_own_environment_and_resets(tmp_path: Path) -> None:
    """Roundup runs from .webapps/roundup/venv; its database and message files are restored under the running server."""
    Roundup.check_installed()  # ./dp test installs it (scripts/install-web-apps.sh)
    app = Roundup(tmp_path / "roundup")
    app.start()
    try:
        with requests.Session() as web:
            web.headers.update({"Referer": app.start_url, "Origin": app.base_url})  # Roundup's CSRF checks

            def post(path: str, **data: str) -> str:
                form = web.get(app.start_url + path, timeout=HTTP_TIMEOUT_S).text
                token = re.search(r'name="@csrf" type="hidden"\s+value="([^"]+)"', form).group(1)
                resp = web.post(app.start_url + path, data={**data, "@csrf": token}, timeout=HTTP_TIMEOUT_S)
                assert resp.status_code == 200, resp.text[-500:]
                return resp.text

            assert "Export to CSV drops the last row" in web.get(app.start_url, timeout=HTTP_TIMEOUT_S).text
            assert f"Hello, {ADMIN}" in post("", **{"__login_name": ADMIN, "__login_password": PASSWORD,
                                                   "@action": "Login"})
            post("issue3", **{"@action": "edit", "@note": "Posted from a test"})
            assert count(app.database, "SELECT count(*) FROM issue_messages WHERE nodeid = 3") == 3
            assert (app.files / "msg" / "0" / "msg7").exists()  # a message's body is a file beside the database
            with sqlite3.connect(app.database) as conn:
                conn.execute("DELETE FROM _issue")
            assert "Export to CSV drops the last row" not in web.get(app.start_url, timeout=HTTP_TIMEOUT_S).text
            server = app.proc
            app.reset()
            assert app.proc is server and server is not None and server.poll() is None   # not restarted
            assert count(app.database, "SELECT count(*) FROM _issue") == 8
            assert count(app.database, "SELECT count(*) FROM issue_messages WHERE nodeid = 3") == 2
            assert not (app.files / "msg" / "0" / "msg7").exists()
            page = web.get(app.start_url, timeout=HTTP_TIMEOUT_S).text
            assert "Export to CSV drops the last row" in page and f"Hello, {ADMIN}" in page  # the login outlives it
    finally:
        app.stop()
    assert app.proc is not None and app.proc.poll() is not None



def test_buku_runs_in_its_own_environment_and_resets(tmp_path: Path) -> None:
    """bukuserver runs from .webapps/buku/venv; its database is restored under the running server, caches too."""
    Buku.check_installed()  # ./dp test installs it (scripts/install-web-apps.sh)
    app = Buku(tmp_path / "buku")
    app.start()
    try:
        with requests.Session() as web:
            def titles() -> str:
                resp = web.get(app.start_url + "?page_size=50", timeout=HTTP_TIMEOUT_S)
                assert resp.status_code == 200, resp.text[-500:]
                return resp.text

            def tags() -> str:
                return web.get(app.base_url + "/tag/?page_size=50", timeout=HTTP_TIMEOUT_S).text

            assert "Neapolitan pizza dough" in titles() and ">film<" in tags()
            form = web.get(app.base_url + "/bookmark/new/", timeout=HTTP_TIMEOUT_S).text
            token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
            resp = web.post(app.base_url + "/bookmark/new/", timeout=HTTP_TIMEOUT_S, data={
                "csrf_token": token, "link": "https://example.com/posted", "title": "Posted from a test",
                "tags": "testing", "description": ""})
            assert resp.status_code == 200 and "Record was successfully created" in resp.text, resp.text[-500:]
            web.post(app.base_url + "/bookmark/delete/", data={"id": "8", "url": "/bookmark/"}, timeout=HTTP_TIMEOUT_S)
            web.post(app.base_url + "/tag/delete/", data={"id": "film", "url": "/tag/"}, timeout=HTTP_TIMEOUT_S)
            assert "Neapolitan pizza dough" not in titles() and ">film<" not in tags()
            assert count(app.database, "SELECT count(*) FROM bookmarks") == 12  # one added, one deleted
            server = app.proc
            app.reset()
            assert app.proc is server and server is not None and server.poll() is None   # not restarted
            assert count(app.database, "SELECT count(*) FROM bookmarks WHERE tags LIKE '%,film,%'") == 1
            page = titles()
            assert "Neapolitan pizza dough" in page and "Posted from a test" not in page
            assert ">film<" in tags() and ">testing<" not in tags()  # the tags list read the database again
    finally:
        app.stop()
    assert app.proc is not None and app.proc.poll() is not None


def test_changedetection_runs_in_its_own_environment_and_resets(tmp_path: Path) -> None:
    """changedetection.io runs from .webapps/changedetection/venv; its store is put back under the running server."""
    ChangeDetection.check_installed()  # ./dp test installs it (scripts/install-web-apps.sh)
    from evals.apps.changedetection_seed import API_TOKEN

    app = ChangeDetection(tmp_path / "changedetection")
    app.start()
    try:
        wiggle = "2f316805-9ea9-44fb-af05-51cd54121195"  # the seed's UUIDs are fixed: tasks' set-ups name them
        with requests.Session() as web:
            web.headers["x-api-key"] = API_TOKEN       # the app's own REST API, with the seed's token
            assert "Wiggle road bikes" in web.get(app.start_url, timeout=HTTP_TIMEOUT_S).text
            assert "Wiggle road bikes" in web.get(f"{app.base_url}/edit/{wiggle}", timeout=HTTP_TIMEOUT_S).text
            assert web.delete(f"{app.base_url}/api/v1/watch/{wiggle}", timeout=HTTP_TIMEOUT_S).status_code == 204
            resp = web.post(f"{app.base_url}/api/v1/watch", json={"url": "https://example.com/posted",
                                                                   "title": "Posted from a test"}, timeout=HTTP_TIMEOUT_S)
            assert resp.status_code == 201, resp.text[-300:]
            assert "Wiggle road bikes" not in web.get(app.start_url, timeout=HTTP_TIMEOUT_S).text
            assert count(app.database, "SELECT count(*) FROM watch") == 12   # one added, one deleted
            assert count(app.database, "SELECT count(*) FROM watch WHERE title = 'Posted from a test'") == 1
            server = app.proc
            app.reset()
            assert app.proc is server and server is not None and server.poll() is None   # not restarted
            assert count(app.database, f"SELECT count(*) FROM watch WHERE uuid = '{wiggle}' AND "
                                       "tags = ',Competitors,' AND paused = 0") == 1
            assert count(app.database, "SELECT count(*) FROM watch WHERE title = 'Posted from a test'") == 0
            assert count(app.database, "SELECT count(*) FROM tag") == 5
            page = web.get(app.start_url, timeout=HTTP_TIMEOUT_S).text
            assert "Wiggle road bikes" in page and "Posted from a test" not in page
        assert app.proc is not None and app.proc.poll() is None        # the same process throughout
    finally:
        app.stop()
    assert app.proc is not None and app.proc.poll() is not None


def test_trac_saves_a_posted_form(tmp_path: Path) -> None:
    """Trac's forms work although python-multipart (a Datasette dependency) shadows the module Trac tries."""
    app = Trac(tmp_path / "trac")
    app.start()
    try:
        with requests.Session() as web:
            form = web.get(app.base_url + "/newticket", timeout=HTTP_TIMEOUT_S).text
            token = re.search(r'name="__FORM_TOKEN" value="([^"]+)"', form).group(1)
            resp = web.post(app.base_url + "/newticket", timeout=HTTP_TIMEOUT_S, data={
                "__FORM_TOKEN": token, "field_summary": "Posted from a test", "field_type": "task",
                "field_reporter": "ci", "action": "create", "submit": "Create ticket"})
            assert resp.status_code == 200, resp.text[-500:]
        assert count(app.database, "SELECT count(*) FROM ticket WHERE summary = 'Posted from a test'") == 1
    finally:
        app.stop()


def test_host_config_gives_third_party_apps_no_tree_and_only_playwright(tmp_path: Path) -> None:
    harness = Harness(sorted(APPS), jobs=2, workdir=tmp_path)  # nothing starts until start()
    raw = harness.host_config()
    config = HostConfig.from_dict(raw, tmp_path)
    by_id = {d.id: d for d in config.devices}
    assert sorted(by_id) == ["buku-1", "buku-2", "changedetection-1", "changedetection-2", "datasette-1",
                             "datasette-2", "django_admin-1", "django_admin-2", "ihatemoney-1", "ihatemoney-2", "roundup-1", "roundup-2", "sqlite_web-1", "sqlite_web-2", "streamtv-1",
                             "streamtv-2", "todomvc-1", "todomvc-2", "trac-1", "trac-2"]
    for device_id in ("django_admin-1", "sqlite_web-2", "datasette-1", "todomvc-2", "ihatemoney-1", "roundup-2",
                      "buku-1", "changedetection-2"):
        assert by_id[device_id].navigation_tree is None
        assert [c["type"] for c in by_id[device_id].controllers] == ["playwright"]
    assert by_id["streamtv-1"].navigation_tree is not None and "demo_url" in config.static_apps


def test_unknown_app_is_a_clear_error(tmp_path: Path) -> None:
    from shared.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown app"):
        Harness(["todo"], workdir=tmp_path)


def test_a_missing_dependency_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from shared.errors import ConfigError

    monkeypatch.setattr(DjangoAdmin, "requires", ("django", "no_such_module_for_eval"))
    with pytest.raises(ConfigError, match=r"needs no_such_module_for_eval: install the test extra"):
        DjangoAdmin.check_installed()
    SqliteWeb.check_installed()


def test_todomvc_is_served_from_the_npm_package(tmp_path: Path) -> None:
    TodoMVC.check_installed()  # ./dp test fetches it (scripts/install-web-apps.sh)
    app = TodoMVC(tmp_path / "todomvc")
    app.start()
    try:
        page = requests.get(app.start_url, timeout=HTTP_TIMEOUT_S)
        assert page.status_code == 200 and 'id="new-todo"' in page.text
        assert requests.get(app.base_url + "/js/store.js", timeout=HTTP_TIMEOUT_S).ok
    finally:
        app.stop()
    assert app.proc is not None and app.proc.poll() is not None


def test_a_missing_web_app_names_its_install_script(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from shared.errors import ConfigError

    monkeypatch.setattr("evals.apps.todomvc.APP_DIR", tmp_path / "nowhere")
    with pytest.raises(ConfigError, match=r"scripts/install-web-apps.sh"):
        TodoMVC.check_installed()

"""`devicepilot server` serves on gunicorn (not Werkzeug's development server), with no version in `Server:`."""
from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.stack import Stack

pytestmark = pytest.mark.integration


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_the_server_runs_on_gunicorn_and_hides_versions(demo_stack: Stack) -> None:
    answer = requests.get(f"{demo_stack.url}/api/health", timeout=10)
    assert answer.ok and answer.headers["Server"] == "devicepilot"
    assert "werkzeug" not in str(answer.headers).lower()
    # gunicorn: an arbiter process and the worker that serves (Werkzeug's server would be one process)
    assert len(children(demo_stack.server.pid)) == 1
    # the host's WebSocket and the REST API both work through it: a run passes
    assert demo_stack.run("go to the guide")["status"] == "passed"

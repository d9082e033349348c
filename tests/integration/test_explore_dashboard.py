"""Exploring from the dashboard: the server runs the explorer on a device, shows its progress, and answers
the draft for the review view; bad limits, an unknown device and a second exploration are refused."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from devicepilot.client import ApiClient
from devicepilot.local import LocalStack
from tests.integration.test_explore_streamtv import host_config

pytestmark = pytest.mark.integration


def test_an_exploration_started_from_the_dashboard_drafts_a_tree_to_review(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICEPILOT_DATA_DIR", str(tmp_path / "data"))
    stack = LocalStack.start(host_config(tmp_path, None))
    try:
        client = ApiClient(stack.url, token=stack.token)
        http, base = client.http, stack.url
        assert http.post(f"{base}/api/devices/demo-web/explorations", json={"max_screens": 0}).status_code == 400
        assert http.post(f"{base}/api/devices/demo-web/explorations", json={"budget_s": "soon"}).status_code == 400
        assert http.post(f"{base}/api/devices/nope/explorations", json={}).status_code == 404
        started = http.post(f"{base}/api/devices/demo-web/explorations",
                            json={"max_screens": 4, "max_depth": 2, "budget_s": 90})
        assert started.status_code == 202, started.text
        job = started.json()
        assert job["status"] == "running"
        again = http.post(f"{base}/api/devices/demo-web/explorations", json={})
        assert again.status_code == 409 and "already being explored" in again.text
        # the exploration holds the device: the remote pad is refused, and a run waits in the queue until it ends
        pad = http.post(f"{base}/api/devices/demo-web/execute", json={"command": "press_key", "params": {"key": "OK"}})
        assert pad.status_code == 409 and f"exploration {job['id']}" in pad.text, pad.text
        run = client.post("/api/runs", {"device": "demo-web", "task": "press the back key"})
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            waiting = client.get(f"/api/runs/{run['id']}")["status"]
            job = client.get(f"/api/explorations/{job['id']}")
            if job["status"] != "running":
                break
            assert waiting == "queued"   # read while the exploration was still running
            time.sleep(0.5)
        assert job["status"] == "done", job
        run = client.get(f"/api/runs/{run['id']}?wait=120")
        assert run["status"] == "passed", (run["status"], run.get("message"))
        assert job["progress"] and job["progress"][-1]["note"].startswith("done")
        review = job["review"]
        ids = {n["id"] for n in review["nodes"]}
        assert len(ids) == 4 and {"guide", "live"} & ids
        assert all(n["screenshot"].startswith("data:image/png;base64,") for n in review["nodes"])
        assert review["tree"]["userinterface"] == "streamtv" and review["tree"]["edges"]
        assert http.get(f"{base}/api/explorations/unknown").status_code == 404
    finally:
        stack.stop()

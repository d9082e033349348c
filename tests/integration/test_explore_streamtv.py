"""Done-when of the explorer on StreamTV: from no tree, a draft in under 5 minutes; the demo tasks pass with it
(after renaming nodes only), and a parameterised node opens any movie and verifies it."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from devicepilot.client import ApiClient
from devicepilot.local import LocalStack
from explore import draft
from explore.explorer import Explorer, Limits
from explore.link import ApiLink
from tests.stack import ROOT

DEMO = ROOT / "host" / "demo"
TASKS = [
    "go to the guide",
    "open movies and play The Last Orbit",
    "switch to channel 5 and check the banner shows Melody TV",
    "turn subtitles on",
    "search for harbor and open the first result",
]
# the only edits a reviewer makes to the draft: node names
RENAMES = {"streamtv": "home", "live_tv": "live"}


def host_config(folder: Path, tree: Path | None) -> Path:
    device: dict[str, Any] = {
        "id": "demo-web", "name": "StreamTV", "model": "streamtv-web", "userinterface": "streamtv",
        "controllers": [{"type": "playwright", "params": {"url": "{demo_url}/", "width": 1280, "height": 720}},
                        {"type": "ocr"}]}
    if tree is not None:
        device["navigation_tree"] = str(tree)
    path = folder / f"host-{tree.stem if tree else 'notree'}.yaml"
    path.write_text(yaml.safe_dump({"host": {"id": "explore-host", "name": "explore"},
                                    "static_apps": {"demo_url": str(DEMO / "streamtv")}, "devices": [device]}))
    return path


def rename(tree: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    for n in tree["nodes"]:
        n["id"] = names.get(n["id"], n["id"])
        for e in n.get("elements") or ():
            if e.get("opens"):
                e["opens"] = names.get(e["opens"], e["opens"])
    for e in tree["edges"]:
        e["from"], e["to"] = names.get(e["from"], e["from"]), names.get(e["to"], e["to"])
    tree["entry"] = names.get(tree["entry"], tree["entry"])
    return tree


def run_tasks(config: Path, tasks: list[str]) -> dict[str, str]:
    stack = LocalStack.start(config)
    try:
        client = ApiClient(stack.url)
        out = {}
        for task in tasks:
            run = client.post("/api/runs?wait=120", {"device": "demo-web", "task": task})
            run = client.follow(run["id"], lambda s: None, lambda r: None, timeout=120)
            steps = "; ".join(f"{s['command']}({s['params']})" for s in run.get("steps", []))
            out[task] = f"{run['status']}: {run.get('message', '')} [{steps}]"
        return out
    finally:
        stack.stop()


def explore_streamtv(folder: Path, budget_s: float = 280) -> tuple[Path, float]:
    stack = LocalStack.start(host_config(folder, None))
    try:
        link = ApiLink(ApiClient(stack.url), "demo-web")
        started = time.monotonic()
        ex = Explorer(link, Limits(max_screens=20, max_depth=4, budget_s=budget_s),
                      shots_dir=folder / "streamtv.screens").explore()
        elapsed = time.monotonic() - started
        tree = draft.build(ex, link.commands(), "streamtv")
    finally:
        stack.stop()
    out = folder / "streamtv.yaml"
    draft.write(rename(tree, RENAMES), out)
    return out, elapsed


@pytest.mark.integration
def test_explored_streamtv_tree_runs_the_demo_tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICEPILOT_DATA_DIR", str(tmp_path / "data"))
    tree, elapsed = explore_streamtv(tmp_path)
    assert elapsed < 300
    results = run_tasks(host_config(tmp_path, tree), TASKS)
    failed = {t: r for t, r in results.items() if not r.startswith("passed")}
    assert not failed, failed

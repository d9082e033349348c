"""Never a false pass: a wrong tree or a click that lands on the wrong item ends ``failed``, not ``passed``.

The device is the real StreamTV demo in Chromium, with a navigation tree that a
person got wrong in two ways: the edge Home → Guide clicks the Movies menu,
and the guide's "Melody TV" element points at the row of channel 6. The
planner trusts the tree; the checks that end every plan must catch both.
"""
from __future__ import annotations

import shutil
from typing import Iterator

import pytest
import yaml

from tests.stack import ROOT, Stack

pytestmark = pytest.mark.integration

DEMO = ROOT / "host" / "demo"


def _broken_tree() -> dict:
    tree = yaml.safe_load((DEMO / "streamtv.tree.yaml").read_text())
    for edge in tree["edges"]:
        if edge["from"] == "home" and edge["to"] == "guide":
            edge["actions"] = [{"command": "click_element", "params": {"selector": "#menu-movies"}}]
            edge.pop("retry_actions", None)
    for node in tree["nodes"]:
        for el in node.get("elements") or []:
            if el.get("name") == "melody tv":
                el["selector"] = ".guide-row[data-channel='6']"   # Wild Earth's row
    return tree


@pytest.fixture(scope="module")
def broken_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("broken-tree")
    shutil.copytree(DEMO / "streamtv", folder / "streamtv")
    (folder / "streamtv.tree.yaml").write_text(yaml.safe_dump(_broken_tree(), sort_keys=False))
    config = yaml.safe_load((DEMO / "demo-host.yaml").read_text())
    config["host"]["id"] = "broken-host"
    for device in config["devices"]:
        device["controllers"] = [c for c in device["controllers"] if c["type"] != "image"]
    (folder / "host.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    (folder / "data").mkdir()
    stack = Stack.start(folder / "data", configs=[folder / "host.yaml"], wait_devices=["demo-web"])
    try:
        yield stack
    finally:
        stack.stop()


def _dom_text(stack: Stack, run: dict) -> str:
    return " | ".join(s["message"] for s in run["steps"])


def _open(stack: Stack, path: str) -> None:
    run = stack.run(f"open {path}", plan={"analysis": "", "feasible": True, "plan": [
        {"step": 1, "command": "navigate_to_url", "params": {"url": path}}]})
    assert run["status"] == "passed", run


def test_a_wrong_edge_ends_failed(broken_stack: Stack) -> None:
    _open(broken_stack, "/#/home")
    run = broken_stack.run("go to the guide")
    assert run["status"] == "failed", run
    assert any(s["status"] == "failed" for s in run["steps"])


def test_a_click_on_the_wrong_item_ends_failed(broken_stack: Stack) -> None:
    _open(broken_stack, "/#/guide")   # start where the broken edge plays no part
    run = broken_stack.run("I want to watch Melody TV")
    assert run["status"] == "failed", (run["status"], _dom_text(broken_stack, run))
    last = run["steps"][-1]
    assert last["controller_type"] == "verification" and last["status"] == "failed"
    assert "Melody TV" in (last["message"] + str(last["params"]))


def test_the_same_tree_still_passes_what_it_gets_right(broken_stack: Stack) -> None:
    _open(broken_stack, "/#/guide")
    run = broken_stack.run("I want to watch Aurora News")
    assert run["status"] == "passed", run

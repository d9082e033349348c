"""The Android strategy explores the adb shim's scripted phone: launcher -> Settings -> Wi-Fi, with BACK."""
from __future__ import annotations

from pathlib import Path

import pytest

from backend_core.navigation.tree import NavigationTree
from devicepilot.client import ApiClient
from devicepilot.local import LocalStack
from explore import draft
from explore.explorer import Explorer, Limits
from explore.link import ApiLink
from tests.fakes import FIXTURES, FakeAdb

HOST_CONFIG = FIXTURES / "android" / "android-host.yaml"


def test_android_strategy_drafts_the_phone_screens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_adb = FakeAdb(tmp_path)
    for name, value in fake_adb.env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("DEVICEPILOT_DATA_DIR", str(tmp_path / "data"))
    stack = LocalStack.start(HOST_CONFIG)
    try:
        link = ApiLink(ApiClient(stack.url, token=stack.token), "phone-1")
        progress: list[str] = []
        ex = Explorer(link, Limits(max_screens=10, max_depth=3, budget_s=120),
                      on_progress=lambda p: progress.append(p.note), shots_dir=tmp_path / "shots").explore()
        tree = draft.build(ex, link.commands(), "android-phone")
    finally:
        stack.stop()
    assert ex.strategy == "android"
    out = tmp_path / "phone.yaml"
    draft.write(tree, out)
    loaded = NavigationTree.load(out)
    labels = {n.label for n in loaded.nodes.values()}
    assert {"Settings", "Wi-Fi"} <= labels, (labels, progress, [" ".join(c) for c in fake_adb.calls("phone-1")][-30:])
    edges = {(e["from"], e["to"]): e for e in tree["edges"]}
    settings = next(n.id for n in loaded.nodes.values() if n.label == "Settings")
    wifi = next(n.id for n in loaded.nodes.values() if n.label == "Wi-Fi")
    assert (settings, wifi) in edges
    assert edges[(settings, wifi)]["reverse_actions"][0]["params"]["key"] == "BACK"
    assert tree["draft"]["indistinguishable"] == []
    # the adb shim really received the taps and BACK presses
    calls = [" ".join(c) for c in fake_adb.calls("phone-1")]
    assert any(c.startswith("input tap") for c in calls) and any("keyevent" in c for c in calls)
    assert (tmp_path / "shots").is_dir() and progress

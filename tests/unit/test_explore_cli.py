"""`devicepilot explore`: progress, a draft written, drift against an existing tree without overwriting it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backend_core.navigation.tree import NavigationTree
from devicepilot import cli
from explore import cli as explore_cli
from explore import explorer as explorer_mod
from tests.unit.explore_fakes import FakeApp, FakeLink


class Client:
    def get(self, path: str) -> dict[str, Any]:
        return {"id": "fake-1", "userinterface": "fakeapp"}


@pytest.fixture(autouse=True)
def fake_device(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_mod, "SETTLE_INTERVAL_S", 0.0)
    monkeypatch.setattr(cli, "_client_for", lambda args: (Client(), None))
    monkeypatch.setattr(explore_cli, "ApiLink", lambda client, device: FakeLink(FakeApp()))


def test_explore_writes_a_draft_and_shows_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "app.yaml"
    assert cli.main(["explore", "--device", "fake-1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "screens," in printed and "actions," in printed and "s left]" in printed
    assert "skipped on home: Log out" in printed
    assert NavigationTree.load(out).userinterface == "fakeapp"
    assert (tmp_path / "app.review.json").is_file()


def test_exploring_again_reports_drift_and_keeps_the_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "app.yaml"
    out.write_text("userinterface: fakeapp\nnodes:\n  - {id: home, label: Home}\n  - {id: news, label: News}\n")
    before = out.read_text()
    assert cli.main(["explore", "--device", "fake-1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "vanished screen: news" in printed and "new screen: movies" in printed
    assert "changed verification: home" in printed
    assert out.read_text() == before and (tmp_path / "app.new.yaml").is_file()


def test_bad_limits_are_refused_with_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explore", "--device", "x", "--out", str(tmp_path / "t.yaml"), "--max-screens", "0"]) == 2
    assert "--max-screens must be at least 1" in capsys.readouterr().err

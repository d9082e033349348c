"""Executable fakes (``adb``, ``irsend``) that answer like the real tools, and helpers to point code at them.

The shims are Python scripts started through ``/usr/bin/env python3``; the
folder of the interpreter running the tests goes on PATH right after this one
so they find OpenCV there.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FAKES = Path(__file__).resolve().parent
FIXTURES = FAKES.parent / "fixtures"
ANDROID_UI = FIXTURES / "android" / "fake_devices.json"


def fake_path() -> str:
    """PATH with the fakes first, then this interpreter's folder, then the rest."""
    return os.pathsep.join([str(FAKES), str(Path(sys.executable).parent), os.environ.get("PATH", "")])


@dataclass
class FakeAdb:
    """The state and call log of the adb shim for one test."""

    folder: Path

    @property
    def state_path(self) -> Path:
        return self.folder / "adb-state.json"

    @property
    def log_path(self) -> Path:
        return self.folder / "adb-calls.jsonl"

    def env(self) -> dict[str, str]:
        return {"PATH": fake_path(), "FAKE_ADB_STATE": str(self.state_path),
                "FAKE_ADB_LOG": str(self.log_path), "FAKE_ADB_UI": str(ANDROID_UI)}

    def calls(self, serial: str | None = None) -> list[list[str]]:
        """The device commands received, in order (``["input", "tap", "540", "960"]``…)."""
        if not self.log_path.exists():
            return []
        records = [json.loads(line) for line in self.log_path.read_text().splitlines() if line.strip()]
        return [r["command"] for r in records if serial is None or r["serial"] == serial]

    def state(self, serial: str) -> dict[str, Any]:
        return json.loads(self.state_path.read_text()).get(serial, {}) if self.state_path.exists() else {}

    def screen(self, serial: str) -> str:
        stack = self.state(serial).get("stack")
        ui = json.loads(ANDROID_UI.read_text())
        return stack[-1] if stack else ui["uis"][ui["devices"][serial]]["home"]

    def set_state(self, serial: str, **values: Any) -> None:
        states = json.loads(self.state_path.read_text()) if self.state_path.exists() else {}
        states.setdefault(serial, {}).update(values)
        self.state_path.write_text(json.dumps(states))


@dataclass
class FakeIrsend:
    """The call log of the irsend shim for one test."""

    folder: Path

    @property
    def log_path(self) -> Path:
        return self.folder / "irsend-calls.jsonl"

    @property
    def state_path(self) -> Path:
        return self.folder / "stb-state.json"

    def env(self, frame: Path | None = None) -> dict[str, str]:
        env = {"PATH": fake_path(), "FAKE_IRSEND_LOG": str(self.log_path),
               "FAKE_IRSEND_STATE": str(self.state_path)}
        if frame is not None:
            env["FAKE_STB_FRAME"] = str(frame)
        return env

    def calls(self) -> list[list[str]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line)["argv"] for line in self.log_path.read_text().splitlines() if line.strip()]

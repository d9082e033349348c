"""Saved test cases: the steps of a passed run, kept as YAML and run later with no planner at all.

A test case is deterministic: running it sends exactly its steps (validated
against the device like every plan, and refused as a whole when any step no
longer fits the device) and the run reports ``planner: "testcase"``. When the
recorded run did not start by navigating, a ``goto`` to the node it started
on is put first, so the case runs the same from any screen.

Files live in ``<data dir>/testcases/<name>.yaml``::

    name: channel-5-banner
    task: switch to channel 5 and check the banner shows Melody TV
    device_model: streamtv-web
    userinterface: streamtv
    fingerprint: 3f1c9a0e5b7d2c44
    start_node: home
    recorded_on: demo-web
    source_run: 0c1d2e3f4a5b
    created_at: '2026-11-22T10:00:00Z'
    steps:
    - {step: 1, command: goto, params: {node: live}, description: Go to Live TV}
"""
from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from server.storage import FileStore
from shared.errors import NotFound, RequestError
from shared.models import PlanStep, RunStatus, StepStatus
from shared.plan import GOTO
from shared.vocabulary import canonical

log = logging.getLogger(__name__)

NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")
HEADER = "# devicepilot test case: these steps run as they are, with no planner.\n"


def slug(text: str, limit: int = 60) -> str:
    """A file-safe name from a task: ``"Go to the Guide!"`` → ``go-to-the-guide``."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-")
    return s or "test"


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise RequestError("a test case name is 1-80 characters of a-z, 0-9, '.', '_' and '-', "
                           "starting with a letter or digit")
    return name


@dataclass(frozen=True)
class SavedTest:
    name: str
    task: str
    device_model: str
    userinterface: str
    fingerprint: str
    start_node: str
    recorded_on: str
    source_run: str
    created_at: str
    steps: tuple[PlanStep, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "task": self.task, "device_model": self.device_model,
                "userinterface": self.userinterface, "fingerprint": self.fingerprint,
                "start_node": self.start_node, "recorded_on": self.recorded_on, "source_run": self.source_run,
                "created_at": self.created_at,
                "steps": [{"step": s.step, "command": s.command, "params": dict(s.params),
                           "description": s.description} for s in self.steps]}

    def to_yaml(self) -> str:
        return HEADER + yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True, width=120)

    @classmethod
    def from_yaml(cls, text: str, where: str) -> "SavedTest":
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise RequestError(f"{where}: not valid YAML: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list) or not data["steps"]:
            raise RequestError(f"{where}: a test case needs a non-empty 'steps' list")
        steps = []
        for i, raw in enumerate(data["steps"], 1):
            if not isinstance(raw, dict) or not isinstance(raw.get("command"), str):
                raise RequestError(f"{where}: step {i} needs a 'command'")
            if not isinstance(raw.get("params") or {}, dict):
                raise RequestError(f"{where}: step {i}: 'params' must be a mapping")
            # old names (waitForElementToAppear, …) load as the canonical command, with a deprecation warning
            command, params = canonical(raw["command"], dict(raw.get("params") or {}))
            steps.append(PlanStep(i, command, params, str(raw.get("description") or "")))
        return cls(check_name(str(data.get("name", ""))), str(data.get("task") or ""),
                   str(data.get("device_model") or ""), str(data.get("userinterface") or ""),
                   str(data.get("fingerprint") or ""), str(data.get("start_node") or ""),
                   str(data.get("recorded_on") or ""), str(data.get("source_run") or ""),
                   str(data.get("created_at") or ""), tuple(steps))

    def plan(self) -> dict[str, Any]:
        """The plan to hand to a run (validated there like any plan)."""
        return {"analysis": f"Test case {self.name!r}: {len(self.steps)} recorded step(s).", "feasible": True,
                "plan": [{"step": s.step, "command": s.command, "params": dict(s.params),
                          "description": s.description} for s in self.steps]}


class SavedTestStore:
    """Test cases as YAML files under ``<data dir>/testcases``."""

    def __init__(self, files: FileStore) -> None:
        self.files = files
        self.root = files.root / "testcases"
        self.root.mkdir(parents=True, exist_ok=True)

    def path(self, name: str) -> Path:
        return self.root / f"{check_name(name)}.yaml"

    def from_run(self, run: dict[str, Any], context: dict[str, Any], name: str | None = None,
                 has_goto: bool = True) -> SavedTest:
        """Build (not store) the test case of a passed run; *context* is the run's planning context."""
        if run.get("status") != RunStatus.PASSED.value or run.get("mode") != "run":
            raise RequestError(f"run {run.get('id')} is {run.get('status')}; only a passed run "
                               "(mode 'run') can be saved as a test case")
        passed = [s for s in run.get("steps") or [] if s.get("status") == StepStatus.PASSED.value]
        steps = [PlanStep(0, s["command"], dict(s.get("params") or {}), str(s.get("description") or ""))
                 for s in passed]
        start = run.get("start_node") or ""
        if steps and steps[0].command != GOTO and start and has_goto:
            steps.insert(0, PlanStep(0, GOTO, {"node": start}, f"Start where the recorded run started ({start})"))
        for i, st in enumerate(steps, 1):
            st.step = i
        if not steps:
            raise RequestError(f"run {run.get('id')} has no passed step to save")
        base = check_name(name) if name is not None else slug(run.get("task") or "test")
        return SavedTest(base, str(run.get("task") or ""), str(context.get("device_model") or ""),
                         str(context.get("userinterface") or ""), str(context.get("fingerprint") or ""), start,
                         str(run.get("device_id") or ""), str(run.get("id") or ""),
                         dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), tuple(steps))

    def save(self, case: SavedTest, *, overwrite: bool = False, unique: bool = False) -> SavedTest:
        """Write *case*; with *unique* a free name is chosen (``name-2``...), else an existing one is an error."""
        name = case.name
        if unique:
            n = 2
            while self.path(name).exists():
                name = f"{case.name[:74]}-{n}"
                n += 1
        elif self.path(name).exists() and not overwrite:
            raise RequestError(f"a test case called {name!r} exists; choose another name or overwrite it")
        if name != case.name:
            case = replace(case, name=name)
        self.files.write_bytes(self.path(name), case.to_yaml().encode())
        log.info("test case %s saved from run %s (%d steps)", name, case.source_run, len(case.steps))
        return case

    def text(self, name: str) -> str:
        path = self.path(name)
        if not path.is_file():
            raise NotFound(f"no test case {name!r}")
        return path.read_text()

    def get(self, name: str) -> SavedTest:
        return SavedTest.from_yaml(self.text(name), f"test case {name!r}")

    def list(self) -> list[SavedTest]:
        out = []
        for path in sorted(self.root.glob("*.yaml")):
            try:
                out.append(SavedTest.from_yaml(path.read_text(), path.name))
            except (RequestError, OSError) as exc:
                log.warning("test case file %s skipped: %s", path.name, exc)
        return sorted(out, key=lambda c: c.name)

    def delete(self, name: str) -> None:
        path = self.path(name)
        if not path.is_file():
            raise NotFound(f"no test case {name!r}")
        path.unlink()
        log.info("test case %s deleted", name)

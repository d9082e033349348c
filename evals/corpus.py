"""The task corpus: plain-language tasks in ``evals/corpus/*.yaml``, each with the end state it must reach.

A corpus file::

    app: streamtv
    tasks:
      - id: stv-watch-melody
        split: heldout                 # written for readers; must match the hash of the id
        text: "I want to watch Melody TV"
        expect: passed                 # passed | failed | infeasible
        setup: {url: "/#/home", steps: [{press: "5"}], sql: ["DELETE FROM ..."]}   # optional
        judge:                         # every check must hold (see evals.judges)
          - streamtv: {screen: live, channel: 5}

A task's split (``dev`` or ``heldout``) comes from a hash of its id
(:func:`split_of`), so nobody chooses which tasks are held out; the ``split:``
written beside each id is checked against it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from shared.errors import ConfigError

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
HELDOUT_SHARE = 0.5  # expected share of held-out tasks; the hash decides each one


class Split(str, Enum):
    DEV = "dev"
    HELDOUT = "heldout"


class Expect(str, Enum):
    PASSED = "passed"
    FAILED = "failed"
    INFEASIBLE = "infeasible"


def split_of(task_id: str) -> Split:
    """The task's split, from the first 8 bytes of SHA-256 of its id: stable, and chosen by nobody."""
    value = int.from_bytes(hashlib.sha256(task_id.encode()).digest()[:8], "big") / 2**64
    return Split.HELDOUT if value < HELDOUT_SHARE else Split.DEV


@dataclass(frozen=True)
class SetupStep:
    """One action the harness does on the device's page before the task (not part of the run)."""

    kind: str            # goto | click | press | fill | wait
    target: str = ""
    value: str = ""

    KINDS = ("goto", "click", "press", "fill", "wait")

    @classmethod
    def parse(cls, raw: Any, where: str) -> "SetupStep":
        if not isinstance(raw, dict) or len(raw) != 1:
            raise ConfigError(f"{where}: a setup step is one of {{{', '.join(cls.KINDS)}: ...}}, got {raw!r}")
        ((kind, arg),) = raw.items()
        if kind not in cls.KINDS:
            raise ConfigError(f"{where}: unknown setup step {kind!r}; use one of {', '.join(cls.KINDS)}")
        if kind == "fill":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise ConfigError(f"{where}: fill takes [selector, text], got {arg!r}")
            return cls(kind, str(arg[0]), str(arg[1]))
        return cls(kind, str(arg))


@dataclass(frozen=True)
class Setup:
    url: str = ""                                   # where the page starts (default: the app's start URL)
    sql: tuple[str, ...] = ()                       # statements run on the app's database after the reset
    steps: tuple[SetupStep, ...] = ()               # page actions after loading the URL

    @classmethod
    def parse(cls, raw: Any, where: str) -> "Setup":
        if raw is None:
            return cls()
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: setup must be a mapping with url, sql and/or steps")
        unknown = set(raw) - {"url", "sql", "steps"}
        if unknown:
            raise ConfigError(f"{where}: setup has unknown keys {sorted(unknown)}")
        sql = raw.get("sql") or []
        sql = [sql] if isinstance(sql, str) else sql
        steps = tuple(SetupStep.parse(s, where) for s in raw.get("steps") or [])
        return cls(str(raw.get("url") or ""), tuple(str(s) for s in sql), steps)


@dataclass(frozen=True)
class Task:
    id: str
    app: str
    text: str
    expect: Expect
    judge: tuple[dict[str, Any], ...]
    setup: Setup = field(default_factory=Setup)
    note: str = ""

    @property
    def split(self) -> Split:
        return split_of(self.id)


def _parse_task(raw: Any, app: str, where: str) -> Task:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: a task must be a mapping")
    tid = str(raw.get("id") or "")
    where = f"{where} ({tid or 'no id'})"
    if not tid:
        raise ConfigError(f"{where}: every task needs an id")
    text = str(raw.get("text") or "").strip()
    if not text:
        raise ConfigError(f"{where}: every task needs a text")
    try:
        expect = Expect(str(raw.get("expect", "passed")))
    except ValueError:
        raise ConfigError(f"{where}: expect must be passed, failed or infeasible, got {raw.get('expect')!r}") from None
    if "split" in raw and str(raw["split"]) != split_of(tid).value:
        raise ConfigError(f"{where}: split is {split_of(tid).value!r}, from the hash of the id; "
                          f"splits are not chosen by hand (got {raw['split']!r})")
    judge = raw.get("judge")
    if isinstance(judge, dict):
        judge = [{k: v} for k, v in judge.items()]
    if not judge or not isinstance(judge, list) or not all(isinstance(c, dict) and len(c) == 1 for c in judge):
        raise ConfigError(f"{where}: every task needs a judge: a list of one-key checks such as "
                          f"{{text_present: ...}}")
    from evals.judges import validate_check

    for check in judge:
        validate_check(check, where)
    return Task(tid, app, text, expect, tuple(judge), Setup.parse(raw.get("setup"), where),
                str(raw.get("note") or ""))


def load_file(path: Path) -> list[Task]:
    try:
        raw = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read corpus file {path}: {exc}") from exc
    if not isinstance(raw, dict) or not raw.get("app") or not isinstance(raw.get("tasks"), list):
        raise ConfigError(f"{path}: a corpus file is a mapping with 'app' and a list of 'tasks'")
    app = str(raw["app"])
    return [_parse_task(t, app, f"{path.name}: tasks[{i}]") for i, t in enumerate(raw["tasks"])]


def load_corpus(directory: Path = CORPUS_DIR) -> list[Task]:
    """Every task of every ``*.yaml`` file in *directory*; ids must be unique."""
    tasks: list[Task] = []
    for path in sorted(directory.glob("*.yaml")):
        tasks.extend(load_file(path))
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise ConfigError(f"corpus: task id {task.id!r} is used twice")
        seen.add(task.id)
    if not tasks:
        raise ConfigError(f"corpus: no tasks in {directory}")
    return tasks


def select(tasks: list[Task], split: str = "all", app: str = "", limit: int = 0) -> list[Task]:
    """Tasks of one split (``dev``, ``heldout`` or ``all``) and app, the first *limit* of each app if given."""
    if split not in ("all", *(s.value for s in Split)):
        raise ConfigError(f"unknown split {split!r}: use dev, heldout or all")
    chosen = [t for t in tasks if (split == "all" or t.split.value == split) and (not app or t.app == app)]
    if app and not chosen and not any(t.app == app for t in tasks):
        raise ConfigError(f"no tasks for app {app!r}; apps in the corpus: {sorted({t.app for t in tasks})}")
    if limit:
        counts: dict[str, int] = {}
        kept = []
        for t in chosen:
            counts[t.app] = counts.get(t.app, 0) + 1
            if counts[t.app] <= limit:
                kept.append(t)
        chosen = kept
    return chosen

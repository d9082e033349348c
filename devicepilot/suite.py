"""Suites: a YAML file of tasks and saved test cases, run against a device as a CI job.

The smallest suite::

    name: streamtv-smoke
    device: demo-web            # or model: streamtv-web
    tasks:
      - go to the guide
      - task: switch to channel 5 and check the banner shows Melody TV
        retries: 1
      - testcase: channel-5-banner

Richer keys: ``setup`` and ``teardown`` (lists of entries like ``tasks``, run
before and after the tasks, in every shard), and on each entry ``timeout``
(seconds), ``retries`` (re-runs of a run that ended ``error``: infrastructure,
never a failure), ``tags`` and ``name``.

Sharding (``--shard i/n``) keeps the tasks whose index in the suite is ``i-1``
modulo ``n``: deterministic on every machine, each task in exactly one shard.
"""
from __future__ import annotations

import datetime as dt
import html
import logging
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Callable

import yaml

from shared.errors import DevicePilotError, RequestError
from shared.models import RunStatus

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 600.0
ENTRY_KEYS = frozenset({"task", "testcase", "retries", "timeout", "tags", "name"})
SUITE_KEYS = frozenset({"name", "device", "model", "tasks", "setup", "teardown", "retries", "timeout", "tags"})


class SuiteError(RequestError):
    """The suite file is not valid: the message names the entry and what is wrong."""


class Kind(str, Enum):
    TASK = "task"
    TESTCASE = "testcase"


class Phase(str, Enum):
    SETUP = "setup"
    TASK = "task"
    TEARDOWN = "teardown"


class Outcome(str, Enum):
    PASSED = "passed"
    FAILED = "failed"    # the device did not behave (failed, infeasible, cancelled)
    ERROR = "error"      # the infrastructure broke, or the run could not start
    SKIPPED = "skipped"  # setup did not pass

    @classmethod
    def of(cls, status: str) -> "Outcome":
        if status in (RunStatus.PASSED.value, RunStatus.PLANNED.value):
            return cls.PASSED
        if status == RunStatus.ERROR.value:
            return cls.ERROR
        return cls.FAILED


@dataclass(frozen=True)
class Entry:
    kind: Kind
    text: str                   # the task, or the test case's name
    index: int                  # place in its list (tasks: the shard key)
    phase: Phase = Phase.TASK
    retries: int = 0
    timeout: float = DEFAULT_TIMEOUT_S
    tags: tuple[str, ...] = ()
    name: str = ""

    @property
    def title(self) -> str:
        base = self.name or (self.text if self.kind is Kind.TASK else f"testcase {self.text}")
        return base if self.phase is Phase.TASK else f"[{self.phase.value}] {base}"


@dataclass(frozen=True)
class Suite:
    name: str
    tasks: tuple[Entry, ...]
    device: str = ""
    model: str = ""
    setup: tuple[Entry, ...] = ()
    teardown: tuple[Entry, ...] = ()

    def shard(self, index: int, count: int) -> "Suite":
        """The tasks of shard *index* of *count* (1-based); setup and teardown run in every shard."""
        if count < 1 or not 1 <= index <= count:
            raise SuiteError(f"--shard {index}/{count}: use i/n with 1 <= i <= n")
        return Suite(self.name, tuple(e for e in self.tasks if e.index % count == index - 1), self.device,
                     self.model, self.setup, self.teardown)


def _number(value: Any, where: str, key: str, minimum: float, maximum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not minimum <= value <= maximum:
        raise SuiteError(f"{where}: '{key}' must be a number from {minimum:g} to {maximum:g}, not {value!r}")
    return value


def _entry(raw: Any, index: int, phase: Phase, where: str, defaults: dict[str, Any]) -> Entry:
    if isinstance(raw, str):
        raw = {"task": raw}
    if not isinstance(raw, dict):
        raise SuiteError(f"{where}: an entry is a task (text) or an object with 'task' or 'testcase', "
                         f"not {type(raw).__name__}")
    unknown = set(raw) - ENTRY_KEYS
    if unknown:
        raise SuiteError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                         f"an entry may have {', '.join(sorted(ENTRY_KEYS))}")
    kinds = [k for k in (Kind.TASK, Kind.TESTCASE) if k.value in raw]
    if len(kinds) != 1:
        raise SuiteError(f"{where}: give exactly one of 'task' (plain-language text) or 'testcase' (a saved name)")
    text = raw[kinds[0].value]
    if not isinstance(text, str) or not text.strip():
        raise SuiteError(f"{where}: '{kinds[0].value}' must be non-empty text")
    tags = raw.get("tags", defaults.get("tags", ()))
    if isinstance(tags, str):
        tags = [tags]
    if not isinstance(tags, (list, tuple)) or not all(isinstance(t, str) for t in tags):
        raise SuiteError(f"{where}: 'tags' must be a list of words")
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise SuiteError(f"{where}: 'name' must be text")
    return Entry(kinds[0], text.strip(), index, phase,
                 int(_number(raw.get("retries", defaults.get("retries", 0)), where, "retries", 0, 10)),
                 float(_number(raw.get("timeout", defaults.get("timeout", DEFAULT_TIMEOUT_S)), where, "timeout",
                               1, 24 * 3600)),
                 tuple(tags), name)


def parse_suite(data: Any, source: str = "suite") -> Suite:
    if not isinstance(data, dict):
        raise SuiteError(f"{source}: a suite is a YAML mapping with 'name' and 'tasks'")
    unknown = set(data) - SUITE_KEYS
    if unknown:
        raise SuiteError(f"{source}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                         f"a suite may have {', '.join(sorted(SUITE_KEYS))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SuiteError(f"{source}: 'name' is required (text)")
    device, model = data.get("device", ""), data.get("model", "")
    if not isinstance(device, str) or not isinstance(model, str):
        raise SuiteError(f"{source}: 'device' and 'model' are ids (text)")
    if device and model:
        raise SuiteError(f"{source}: give 'device' or 'model', not both")
    defaults = {k: data[k] for k in ("retries", "timeout", "tags") if k in data}
    lists: dict[Phase, tuple[Entry, ...]] = {}
    for phase, key in ((Phase.SETUP, "setup"), (Phase.TASK, "tasks"), (Phase.TEARDOWN, "teardown")):
        raw = data.get(key, [])
        if raw is None:
            raw = []
        if not isinstance(raw, list):
            raise SuiteError(f"{source}: '{key}' must be a list")
        lists[phase] = tuple(_entry(item, i, phase, f"{source}: {key}[{i}]", defaults) for i, item in enumerate(raw))
    if not lists[Phase.TASK]:
        raise SuiteError(f"{source}: 'tasks' must list at least one task or test case")
    return Suite(name.strip(), lists[Phase.TASK], device, model, lists[Phase.SETUP], lists[Phase.TEARDOWN])


def load_suite(path: Path) -> Suite:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SuiteError(f"cannot read suite {path}: {exc.strerror}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SuiteError(f"{path}: not valid YAML: {exc}") from exc
    return parse_suite(data, str(path))


def parse_shard(raw: str | None) -> tuple[int, int]:
    if not raw:
        return 1, 1
    try:
        i, n = (int(p) for p in raw.split("/"))
    except ValueError:
        raise SuiteError(f"--shard {raw!r}: use i/n, e.g. 1/4") from None
    if n < 1 or not 1 <= i <= n:
        raise SuiteError(f"--shard {raw}: use i/n with 1 <= i <= n")
    return i, n


# -- running ------------------------------------------------------------------------------------------

@dataclass
class Result:
    entry: Entry
    outcome: Outcome
    message: str = ""
    run_id: str = ""
    status: str = ""
    seconds: float = 0.0
    attempts: int = 0
    report: str = ""        # the run's HTML report: an API path (with a server), else a file path


@dataclass
class SuiteResult:
    suite: Suite
    device: str
    results: list[Result] = field(default_factory=list)
    started: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc))
    seconds: float = 0.0

    def count(self, outcome: Outcome) -> int:
        return sum(r.outcome is outcome for r in self.results)

    @property
    def exit_code(self) -> int:
        """0 when everything passed; 2 on any error (an error outranks a failure); 1 on a failure."""
        if self.count(Outcome.ERROR):
            return 2
        if self.count(Outcome.FAILED) or self.count(Outcome.SKIPPED):
            return 1
        return 0


Progress = Callable[[str], None]


class SuiteRunner:
    """Runs a suite's entries one by one through the REST API (an :class:`~devicepilot.client.ApiClient`)."""

    def __init__(self, client: Any, progress: Progress = lambda line: None, poll_s: float = 0.3,
                 remote: bool = True) -> None:
        self.client = client
        self.remote = remote   # False in local mode: reports are files that outlive the server
        self.progress = progress
        self.poll_s = poll_s

    def pick_device(self, suite: Suite, device: str = "", model: str = "") -> str:
        device, model = device or (suite.device if not model else ""), model or (suite.model if not device else "")
        if device:
            return device
        if not model:
            raise SuiteError("say which device: 'device' or 'model' in the suite, or --device / --model")
        devices = [d for d in self.client.get("/api/devices") if d.get("model") == model]
        if not devices:
            raise SuiteError(f"no device of model {model!r} in the lab")
        for wanted in ("online", "busy"):   # a free one first, else one that is in use (the run queues)
            for d in devices:
                if d.get("status") == wanted:
                    return str(d["id"])
        raise SuiteError(f"every device of model {model!r} is offline: "
                         + ", ".join(str(d["id"]) for d in devices))

    def run(self, suite: Suite, device: str, retries: int | None = None) -> SuiteResult:
        result = SuiteResult(suite, device)
        began = time.monotonic()
        setup_ok = True
        for entry in suite.setup:
            done = self._run_entry(entry, device, retries)
            result.results.append(done)
            setup_ok = setup_ok and done.outcome is Outcome.PASSED
        for entry in suite.tasks:
            if setup_ok:
                result.results.append(self._run_entry(entry, device, retries))
            else:
                result.results.append(Result(entry, Outcome.SKIPPED, "not run: the suite's setup did not pass"))
                self.progress(f"SKIP  {entry.title}")
        for entry in suite.teardown:
            result.results.append(self._run_entry(entry, device, retries))
        result.seconds = time.monotonic() - began
        return result

    def _run_entry(self, entry: Entry, device: str, retries: int | None) -> Result:
        allowed = entry.retries if retries is None else max(entry.retries, retries)
        began = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            done = self._attempt(entry, device)
            done.attempts, done.seconds = attempt, time.monotonic() - began
            if done.outcome is not Outcome.ERROR or attempt > allowed:
                break
            self.progress(f"      retrying {entry.title} after an error ({attempt}/{allowed}): {done.message}")
        mark = {Outcome.PASSED: "PASS", Outcome.FAILED: "FAIL", Outcome.ERROR: "ERR ", Outcome.SKIPPED: "SKIP"}
        self.progress(f"{mark[done.outcome]}  {entry.title}  ({done.seconds:.1f} s"
                      + (f", run {done.run_id}" if done.run_id else "") + ")"
                      + (f": {done.message}" if done.outcome is not Outcome.PASSED and done.message else ""))
        return done

    def _attempt(self, entry: Entry, device: str) -> Result:
        try:
            if entry.kind is Kind.TASK:
                run = self.client.post("/api/runs", {"device": device, "task": entry.text, "mode": "run"})
            else:
                run = self.client.post(f"/api/testcases/{entry.text}/run", {"device": device})
        except DevicePilotError as exc:
            return Result(entry, Outcome.ERROR, f"the run could not start: {exc}")
        run_id = str(run["id"])
        deadline = time.monotonic() + entry.timeout
        while not RunStatus(run["status"]).finished:
            if time.monotonic() > deadline:
                try:
                    self.client.post(f"/api/runs/{run_id}/cancel", {})
                except DevicePilotError as exc:
                    log.warning("run %s: not cancelled after its timeout: %s", run_id, exc)
                return Result(entry, Outcome.ERROR, f"no end within the {entry.timeout:g} s timeout; cancelled",
                              run_id, str(run["status"]))
            time.sleep(self.poll_s)
            try:
                run = self.client.get(f"/api/runs/{run_id}")
            except DevicePilotError as exc:   # the server restarting: the run survives it, keep asking
                log.warning("run %s: %s", run_id, exc)
        link = str((run.get("links") or {}).get("html") or "") if self.remote else str(run.get("report") or "")
        return Result(entry, Outcome.of(run["status"]), str(run.get("message") or ""), run_id, run["status"],
                      report=link)


# -- reports --------------------------------------------------------------------------------------------

def junit_xml(result: SuiteResult, base_url: str = "") -> str:
    """JUnit XML: one <testsuite>, a <testcase> per entry; failed runs as <failure>, errors as <error>."""
    suites = ET.Element("testsuites", name=result.suite.name)
    suite = ET.SubElement(suites, "testsuite", {
        "name": result.suite.name, "tests": str(len(result.results)),
        "failures": str(result.count(Outcome.FAILED)), "errors": str(result.count(Outcome.ERROR)),
        "skipped": str(result.count(Outcome.SKIPPED)), "time": f"{result.seconds:.3f}",
        "timestamp": result.started.replace(microsecond=0, tzinfo=None).isoformat(), "hostname": result.device})
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="device", value=result.device)
    for r in result.results:
        case = ET.SubElement(suite, "testcase", {"classname": f"{result.suite.name}.{r.entry.phase.value}",
                                                 "name": r.entry.title, "time": f"{r.seconds:.3f}"})
        if r.outcome is Outcome.FAILED:
            ET.SubElement(case, "failure", message=r.message[:500], type=r.status or "failed").text = r.message
        elif r.outcome is Outcome.ERROR:
            ET.SubElement(case, "error", message=r.message[:500], type=r.status or "error").text = r.message
        elif r.outcome is Outcome.SKIPPED:
            ET.SubElement(case, "skipped", message=r.message)
        out = [f"run: {r.run_id}"] if r.run_id else []
        if r.report:
            out.append(f"report: {base_url}{r.report}")
        if r.attempts > 1:
            out.append(f"attempts: {r.attempts}")
        if out:
            ET.SubElement(case, "system-out").text = "\n".join(out)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def html_report(result: SuiteResult, base_url: str = "") -> str:
    """One self-contained page: the suite's counts, then each entry with its status, message and run report."""
    esc = html.escape
    rows = []
    for r in result.results:
        link = (f'<a href="{esc(base_url + r.report)}">run {esc(r.run_id)}</a>' if r.report
                else esc(r.run_id or "—"))
        rows.append(f'<tr class="{r.outcome.value}"><td>{esc(r.entry.title)}</td><td>{r.outcome.value}</td>'
                    f'<td>{r.seconds:.1f} s</td><td>{link}</td><td>{esc(r.message)}</td></tr>')
    counts = ", ".join(f"{result.count(o)} {o.value}" for o in Outcome)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(result.suite.name)}: suite report</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em}}table{{border-collapse:collapse;width:100%}}
td,th{{border-bottom:1px solid #ddd;padding:.4em;text-align:left;vertical-align:top}}
.passed td:nth-child(2){{color:#17703a}}.failed td:nth-child(2){{color:#b3261e}}
.error td:nth-child(2){{color:#8a4b00}}.skipped td:nth-child(2){{color:#666}}</style></head>
<body><h1>{esc(result.suite.name)}</h1>
<p>Device {esc(result.device)} · {len(result.results)} entries: {counts} · {result.seconds:.1f} s ·
started {esc(result.started.replace(microsecond=0).isoformat())}</p>
<table><thead><tr><th>Entry</th><th>Result</th><th>Time</th><th>Run</th><th>Message</th></tr></thead>
<tbody>{''.join(rows)}</tbody></table></body></html>
"""

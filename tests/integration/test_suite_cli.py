"""`devicepilot suite` as a CI job runs it: real local stack, JUnit read back by a JUnit parser, exit codes, shards."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from junitparser import Error, Failure, JUnitXml

from tests.stack import ROOT, free_port

pytestmark = pytest.mark.integration


def suite_file(tmp_path: Path) -> Path:
    closed = free_port()   # nothing listens there: the page cannot load, an infrastructure error
    path = tmp_path / "mixed.yaml"
    path.write_text(f"""
name: mixed
device: demo-web
tasks:
  - go to the guide
  - task: go to the guide and check the screen shows Weather Forecast Zebra
  - task: open the url http://127.0.0.1:{closed}/app
    retries: 1
""")
    return path


def suite_argv(path: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "devicepilot", "suite", str(path), "--junit", str(out / "junit.xml"),
            "--html", str(out / "report.html"), *extra]


def run_suite(path: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(suite_argv(path, out, *extra), cwd=ROOT, capture_output=True, text=True, timeout=300)


def cases(path: Path) -> dict[str, str]:
    """testcase name -> passed / failure / error, read back with junitparser."""
    xml = JUnitXml.fromfile(str(path))
    found = {}
    for suite in xml:
        for case in suite:
            kinds = {type(r) for r in case.result}
            found[case.name] = "error" if Error in kinds else "failure" if Failure in kinds else "passed"
    return found


def test_a_mixed_suite_writes_junit_and_exits_2_and_shards_cover_it_once(tmp_path: Path) -> None:
    path = suite_file(tmp_path)
    whole = tmp_path / "whole"
    whole.mkdir()
    done = run_suite(path, whole)
    assert done.returncode == 2, done.stdout + done.stderr          # an error outranks a failure
    xml = JUnitXml.fromfile(str(whole / "junit.xml"))
    suite = next(iter(xml))
    assert (suite.tests, suite.failures, suite.errors) == (3, 1, 1)
    found = cases(whole / "junit.xml")
    assert found["go to the guide"] == "passed"
    assert found["go to the guide and check the screen shows Weather Forecast Zebra"] == "failure"
    assert next(v for k, v in found.items() if k.startswith("open the url")) == "error"
    assert "retrying" in done.stdout and "PASS  go to the guide" in done.stdout   # progress as it goes
    page = (whole / "report.html").read_text()
    assert "mixed" in page and "Weather Forecast Zebra" in page and "1 passed, 1 failed, 1 error" in page
    # two CI jobs at once, one shard each (each its own local stack): every task exactly once
    jobs = []
    for i in (1, 2):
        out = tmp_path / f"shard{i}"
        out.mkdir()
        jobs.append((out, subprocess.Popen(suite_argv(path, out, "--shard", f"{i}/2"), cwd=ROOT,
                                           env={**os.environ, "DEVICEPILOT_DATA_DIR": str(out / "data")},
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
    codes = [job.wait(timeout=300) for _, job in jobs]
    seen = [name for out, _ in jobs for name in cases(out / "junit.xml")]
    assert sorted(seen) == sorted(found)
    assert sorted(codes) == [0, 2] or sorted(codes) == [1, 2], codes   # the error's shard says so


def test_a_bad_suite_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ntasks:\n  - tsk: go home\n")
    done = subprocess.run([sys.executable, "-m", "devicepilot", "suite", str(bad)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "tasks[0]: unknown key(s) tsk" in done.stderr

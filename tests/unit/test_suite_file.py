"""Suite files: the minimal file, the richer keys, clear errors, shards that cover each task exactly once."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devicepilot.suite import Kind, Outcome, Phase, Result, SuiteError, SuiteResult, junit_xml, load_suite, \
    parse_shard, parse_suite

MINIMAL = """
name: streamtv-smoke
device: demo-web            # or model: streamtv-web
tasks:
  - go to the guide
  - task: switch to channel 5 and check the banner shows Melody TV
    retries: 1
  - testcase: channel-5-banner
"""


def test_the_minimal_suite_of_the_docs_loads(tmp_path: Path) -> None:
    path = tmp_path / "smoke.yaml"
    path.write_text(MINIMAL)
    suite = load_suite(path)
    assert suite.name == "streamtv-smoke" and suite.device == "demo-web" and not suite.model
    assert [(e.kind, e.text, e.retries) for e in suite.tasks] == [
        (Kind.TASK, "go to the guide", 0),
        (Kind.TASK, "switch to channel 5 and check the banner shows Melody TV", 1),
        (Kind.TESTCASE, "channel-5-banner", 0)]
    assert suite.tasks[2].title == "testcase channel-5-banner"


def test_setup_teardown_timeouts_tags_and_suite_wide_defaults() -> None:
    suite = parse_suite({"name": "s", "model": "streamtv-web", "timeout": 90, "retries": 2, "tags": ["smoke"],
                         "setup": ["go home"], "teardown": [{"task": "go home", "name": "back home"}],
                         "tasks": [{"task": "open the guide", "timeout": 30, "tags": "guide"}, "play it"]})
    assert suite.model == "streamtv-web"
    assert suite.setup[0].phase is Phase.SETUP and suite.setup[0].title == "[setup] go home"
    assert suite.teardown[0].title == "[teardown] back home"
    first, second = suite.tasks
    assert (first.timeout, first.retries, first.tags) == (30, 2, ("guide",))
    assert (second.timeout, second.retries, second.tags) == (90, 2, ("smoke",))


@pytest.mark.parametrize("data,expected", [
    ([], "a YAML mapping"),
    ({"tasks": ["go home"]}, "'name' is required"),
    ({"name": "s", "tasks": []}, "at least one task"),
    ({"name": "s", "tasks": "go home"}, "'tasks' must be a list"),
    ({"name": "s", "tasks": [{"task": "a", "testcase": "b"}]}, "exactly one of 'task'"),
    ({"name": "s", "tasks": [{"tsk": "go home"}]}, "unknown key(s) tsk"),
    ({"name": "s", "tasks": [{"task": "go", "retries": -1}]}, "tasks[0]: 'retries' must be a number from 0"),
    ({"name": "s", "tasks": [{"task": "go", "timeout": "soon"}]}, "'timeout' must be a number"),
    ({"name": "s", "tasks": [3]}, "tasks[0]: an entry is a task"),
    ({"name": "s", "device": "a", "model": "b", "tasks": ["go"]}, "not both"),
    ({"name": "s", "devise": "a", "tasks": ["go"]}, "unknown key(s) devise"),
])
def test_a_bad_suite_says_what_is_wrong_and_where(data: object, expected: str) -> None:
    with pytest.raises(SuiteError, match=None) as err:
        parse_suite(data, "smoke.yaml")
    assert expected in str(err.value) and "smoke.yaml" in str(err.value)


def test_unreadable_and_invalid_yaml_files(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="cannot read suite"):
        load_suite(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    with pytest.raises(SuiteError, match="not valid YAML"):
        load_suite(bad)


@given(st.integers(min_value=1, max_value=60), st.integers(min_value=1, max_value=9))
def test_shards_cover_every_task_exactly_once(tasks: int, shards: int) -> None:
    suite = parse_suite({"name": "s", "setup": ["go home"], "tasks": [f"task {i}" for i in range(tasks)]})
    parts = [suite.shard(i, shards) for i in range(1, shards + 1)]
    covered = [e.text for p in parts for e in p.tasks]
    assert sorted(covered) == sorted(e.text for e in suite.tasks) and len(covered) == tasks
    assert all(p.setup == suite.setup for p in parts)      # setup runs in every shard
    assert parts == [suite.shard(i, shards) for i in range(1, shards + 1)]   # deterministic


@pytest.mark.parametrize("raw", ["0/2", "3/2", "1/0", "a/b", "1-2"])
def test_a_bad_shard_is_refused(raw: str) -> None:
    with pytest.raises(SuiteError, match="--shard"):
        parse_shard(raw)


def test_exit_code_and_junit_counts() -> None:
    suite = parse_suite({"name": "s", "tasks": ["a", "b", "c"]})
    a, b, c = suite.tasks
    result = SuiteResult(suite, "tv", [Result(a, Outcome.PASSED, run_id="r1"), Result(b, Outcome.FAILED, "no")])
    assert result.exit_code == 1
    result.results.append(Result(c, Outcome.ERROR, "host gone"))
    assert result.exit_code == 2
    xml = junit_xml(result)
    assert 'tests="3" failures="1" errors="1" skipped="0"' in xml and "<error message=\"host gone\"" in xml
    assert SuiteResult(suite, "tv", [Result(a, Outcome.PASSED)]).exit_code == 0

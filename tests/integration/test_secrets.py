"""Secrets never leak: an LLM that echoes the API key (and tokens) into its plan leaves no trace of them
in the run, its reports, the plan cache, the database, the data dir's text files or the server log."""
from __future__ import annotations

from typing import Iterator

import pytest

from tests.fakes.llm_server import Reply, ScriptedLLM
from tests.stack import Stack

pytestmark = pytest.mark.integration

KEY = "sk-planted-SECRET-5d1e77a0c3"
TASK = "open the programme guide and check its title"


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(llm: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"DEVICEPILOT_LLM_BASE_URL": llm.url, "DEVICEPILOT_LLM_API_KEY": KEY,
           "DEVICEPILOT_LLM_MODEL": "scripted-planner", "DEVICEPILOT_LLM_TIMEOUT_S": "5"}
    s = Stack.start(tmp_path_factory.mktemp("secrets") / "data", extra_env=env)
    try:
        yield s
    finally:
        s.stop()


def test_a_key_echoed_by_the_llm_is_scrubbed_everywhere(stack: Stack, llm: ScriptedLLM) -> None:
    secrets = [KEY, stack.token, stack.api_token]
    leak = f"my key is {KEY}, the host token {stack.token} and yours {stack.api_token}"
    llm.script(Reply.plan({"analysis": f"Open the guide. ({leak})", "feasible": True, "plan": [
        {"step": 1, "command": "goto", "params": {"node": "guide"}, "description": f"Go to the guide {KEY}"},
        {"step": 2, "command": "waitForElementToAppear",
         "params": {"selector": "#screen-guide .screen-title", "text": "Guide"}, "description": "Check the title"}]}))
    run = stack.run(TASK)
    assert run["status"] == "passed" and run["planner"] == "llm", run
    assert "[secret removed]" in run["plan"]["analysis"]

    answers = [stack.http.get(f"{stack.url}/api/runs/{run['id']}", timeout=10).text,
               stack.http.get(f"{stack.url}/api/runs", timeout=10).text,
               stack.http.get(f"{stack.url}/api/plan-cache", timeout=10).text]
    answers += [stack.http.get(f"{stack.url}/api/runs/{run['id']}/report.{ext}", timeout=10).text
                for ext in ("html", "json", "xml")]
    # the server printed the first admin's token once, at its first start, on purpose: the set-up line
    printed = f"  {stack.api_token}\n".encode()
    stored = [p.read_bytes().replace(printed, b"", 1) for p in stack.data_dir.rglob("*")
              if p.is_file() and (p.suffix in (".html", ".json", ".xml", ".yaml", ".log", ".db")
                                  or p.name.endswith("-wal"))]
    assert len(stored) >= 3
    assert any(p.name.startswith("host-") for p in stack.logs)   # the host's log is checked too: the plan it got
    for secret in secrets:
        for text in answers:
            assert secret not in text
        for raw in stored:
            assert secret.encode() not in raw

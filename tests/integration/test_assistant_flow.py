"""The assistant on the real stack: a turn that runs a task on the demo device, and the dashboard's chat panel."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.fakes.llm_server import RecordedRequest, Reply, ScriptedLLM
from tests.integration.dashboard_helpers import LAPTOP, PageWatch, launch_browser, log_in
from tests.stack import Stack

pytestmark = pytest.mark.integration


def test_one_turn_runs_a_task_on_the_demo_device_and_the_next_reads_it(demo_stack: Stack) -> None:
    resp = demo_stack.post("/api/assistant/messages", {"text": "run open the guide on the web app"}, expect=201)
    answer = resp.json()
    message = answer["message"]
    assert message["source"] == "builtin"
    assert message["tool_calls"] == [{"tool": "run_task", "arguments": {"device": "demo-web",
                                                                        "task": "open the guide"}, "id": ""}]
    run_id = message["tool_results"][0]["runs"][0]
    run = demo_stack.get(f"/api/runs/{run_id}?wait=120")
    assert run["status"] == "passed", (run["status"], run["message"], demo_stack.tail_logs())
    assert run["steps"] and all(st["success"] for st in run["steps"])
    follow = demo_stack.post("/api/assistant/messages", {"text": "what happened in that run?",
                                                         "conversation": answer["conversation"]}, expect=201).json()
    assert follow["message"]["tool_calls"][0]["arguments"] == {"run_id": run_id}
    assert f"run {run_id} on demo-web ('open the guide'): passed" in follow["message"]["content"].lower()
    audit = demo_stack.get("/api/audit?action=assistant.run_task")
    assert audit and audit[0]["run"] == run_id and audit[0]["device"] == "demo-web"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launch_browser()


def test_the_chat_panel_sends_a_message_and_shows_the_answer(browser: Browser, demo_stack: Stack) -> None:
    context = browser.new_context(viewport=LAPTOP, base_url=demo_stack.url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    watch = PageWatch().attach(page)
    try:
        log_in(page, demo_stack)
        page.goto("/#/assistant")
        expect(page.get_by_role("heading", name="Assistant")).to_be_visible(timeout=60_000)
        page.get_by_label("Message").fill("which devices are free?")
        page.get_by_role("button", name="Send").click()
        reply = page.locator(".chat-msg--assistant").last
        expect(reply).to_contain_text("demo-web")
        expect(reply.locator(".chat-tools summary")).to_have_text("1 tool call")
        # the new conversation is listed, and opening it again shows both messages
        link = page.get_by_role("complementary", name="Conversations").get_by_role("link",
                                                                                  name="which devices are free?")
        expect(link).to_be_visible()
        page.goto("/#/lab")
        link_href = demo_stack.get("/api/assistant/conversations")[0]["id"]
        page.goto(f"/#/assistant?c={link_href}")
        expect(page.locator(".chat-msg")).to_have_count(2)
        assert watch.count("POST", "/api/assistant/messages") == 1
    finally:
        context.close()
    assert not watch.errors, watch.errors


KEY = "sk-assistant-integration-5e1f0c2a"
GUIDE_PLAN = {"analysis": "Open the guide, then check its title.", "feasible": True, "plan": [
    {"step": 1, "command": "goto", "params": {"node": "guide"}, "description": "Go to the guide"},
    {"step": 2, "command": "wait_for_element", "params": {"selector": "#screen-guide .screen-title", "text": "Guide"},
     "description": "Check the title"}]}


def scripted(req: RecordedRequest) -> Reply:
    """The assistant's first call picks run_task, its second answers; the planner's call gets the plan."""
    messages = req.body.get("messages", [])
    if req.body.get("tools"):
        return Reply.tools(("run_task", {"device": "the web app", "task": "open the guide and check its title"}))
    if any(m.get("role") == "tool" for m in messages):
        started = next(m["content"] for m in messages if m.get("role") == "tool")
        return Reply.text(f"Done as asked. {started[:200]}")
    return Reply.plan(GUIDE_PLAN)


def test_with_an_llm_the_two_calls_run_a_task_on_the_demo_device(tmp_path: Path) -> None:
    with ScriptedLLM(responder=scripted) as llm:
        stack = Stack.start(tmp_path, extra_env={"DEVICEPILOT_LLM_BASE_URL": llm.url, "DEVICEPILOT_LLM_API_KEY": KEY,
                                                 "DEVICEPILOT_LLM_MODEL": "scripted", "DEVICEPILOT_LLM_TIMEOUT_S": "5"})
        try:
            message = stack.post("/api/assistant/messages", {"text": "please check the guide on the web app"},
                                 expect=201).json()["message"]
            assert message["source"] == "llm", message
            assert message["tool_calls"][0]["arguments"] == {"device": "demo-web",
                                                             "task": "open the guide and check its title"}
            assert message["usage"]["llm_calls"] == 2 and message["usage"]["total_tokens"] == 960
            run_id = message["tool_results"][0]["runs"][0]
            run = stack.get(f"/api/runs/{run_id}?wait=120")
            assert run["status"] == "passed" and run["planner"] == "llm", (run, stack.tail_logs())
            assert llm.calls == 3
            assert all(r.headers["Authorization"] == f"Bearer {KEY}" for r in llm.requests)
            assert KEY not in stack.http.get(stack.url + "/api/assistant/conversations/"
                                             + stack.get("/api/assistant/conversations")[0]["id"]).text
        finally:
            stack.stop()

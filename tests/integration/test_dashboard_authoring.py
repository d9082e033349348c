"""The dashboard's authoring aids in a real Chromium: voice input in the task box, and the planning panel.

Voice input is tested with the Web Speech API removed (no microphone button; typing works)
and with a scripted stand-in injected before the page loads (the transcript lands in the
box, the plan is previewed, nothing runs).
"""
from __future__ import annotations

import json
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.fakes.llm_server import Reply, ScriptedLLM
from tests.integration.dashboard_helpers import LAPTOP, PageWatch, launch_browser, log_in
from tests.stack import Stack

pytestmark = pytest.mark.integration

SPOKEN = "go to the guide"
KEY = "sk-dashboard-planning-SECRET-55aa"

NO_SPEECH_JS = "delete window.SpeechRecognition; delete window.webkitSpeechRecognition;"

# A stand-in for the Web Speech API: hears an interim then a final transcript, then ends.
SCRIPTED_SPEECH_JS = """
(() => {
  window.__speech = { created: 0, started: 0, lang: null };
  class ScriptedRecognition {
    constructor() { window.__speech.created += 1; this.onresult = null; this.onend = null; this.onerror = null; }
    start() {
      window.__speech.started += 1;
      window.__speech.lang = this.lang;
      const result = (text, isFinal) => Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal });
      setTimeout(() => this.onresult && this.onresult({ resultIndex: 0, results: [result("go to the", false)] }), 50);
      setTimeout(() => this.onresult && this.onresult({ resultIndex: 0, results: [result(%s, true)] }), 150);
      setTimeout(() => this.onend && this.onend(), 250);
    }
    stop() {}
    abort() {}
  }
  delete window.webkitSpeechRecognition;
  window.SpeechRecognition = ScriptedRecognition;
})();
""" % json.dumps(SPOKEN)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=20_000)
    yield from launch_browser()


def new_page(browser: Browser, stack: Stack, watch: PageWatch, init_script: str | None = None) -> Page:
    context = browser.new_context(viewport=LAPTOP, base_url=stack.url)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(20_000)
    watch.attach(page)
    log_in(page, stack)
    return page


def open_device(page: Page) -> None:
    page.goto("/#/device/demo-web")
    expect(page.locator("#view")).to_have_attribute("aria-busy", "false")
    expect(page.get_by_label("Test task in plain language")).to_be_visible()


def test_without_the_speech_api_there_is_no_microphone_and_typing_works(browser: Browser, demo_stack: Stack) -> None:
    watch = PageWatch()
    page = new_page(browser, demo_stack, watch, NO_SPEECH_JS)
    try:
        open_device(page)
        expect(page.locator(".voice-btn")).to_have_count(0)
        expect(page.get_by_role("button", name="Speak the task")).to_have_count(0)
        page.get_by_label("Test task in plain language").fill(SPOKEN)
        page.get_by_role("button", name="Preview the plan of this task").click()
        expect(page.locator("section.plan")).to_have_attribute("data-feasible", "true")
        expect(page.get_by_role("button", name="Plan and run this task now")).to_be_enabled()
    finally:
        page.context.close()
    assert not watch.errors, watch.errors


def test_a_spoken_task_lands_in_the_box_and_is_previewed_never_run(browser: Browser, demo_stack: Stack) -> None:
    watch = PageWatch()
    page = new_page(browser, demo_stack, watch, SCRIPTED_SPEECH_JS)
    posted: list[dict] = []
    page.on("request", lambda r: posted.append(r.post_data_json) if r.method == "POST" and "/api/runs" in r.url
            and "/cancel" not in r.url else None)
    try:
        open_device(page)
        mic = page.get_by_role("button", name="Speak the task")
        expect(mic).to_be_visible()
        expect(mic).to_have_attribute("aria-pressed", "false")
        mic.click()
        box = page.get_by_label("Test task in plain language")
        expect(box).to_have_value(SPOKEN)
        plan = page.locator("section.plan")
        expect(plan).to_have_attribute("data-feasible", "true")
        expect(plan.locator(".plan-step").first).to_have_attribute("data-command", "goto")
        expect(mic).to_have_attribute("aria-pressed", "false")
        expect(page.locator(".voice-status")).to_contain_text("Check the text and the plan")
        speech = page.evaluate("window.__speech")
        assert speech["created"] == 1 and speech["started"] == 1 and speech["lang"]
        page.wait_for_timeout(500)
        assert posted and all(body["mode"] == "plan" for body in posted), posted
        assert [b["task"] for b in posted] == [SPOKEN]
        # the transcript stays editable like typed text
        box.fill(SPOKEN + " and check its title")
        expect(box).to_have_value(SPOKEN + " and check its title")
        expect(page.get_by_role("button", name="Plan and run this task now")).to_be_enabled()
    finally:
        page.context.close()
    runs = [r for r in demo_stack.get("/api/runs?device=demo-web") if r["task"] == SPOKEN]
    assert runs and all(r["mode"] == "plan" for r in runs), runs
    assert not watch.errors, watch.errors


@pytest.fixture(scope="module")
def llm_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, ScriptedLLM]]:
    llm = ScriptedLLM().start()
    env = {"DEVICEPILOT_LLM_BASE_URL": llm.url, "DEVICEPILOT_LLM_API_KEY": KEY,
           "DEVICEPILOT_LLM_MODEL": "scripted-planner", "DEVICEPILOT_LLM_TIMEOUT_S": "5"}
    try:
        stack = Stack.start(tmp_path_factory.mktemp("dashboard-planning-stack"), extra_env=env)
        try:
            yield stack, llm
        finally:
            stack.stop()
    finally:
        llm.stop()


def test_the_run_view_shows_how_the_run_was_planned(browser: Browser, llm_stack: tuple[Stack, ScriptedLLM]) -> None:
    stack, llm = llm_stack
    llm.script(Reply.plan({"analysis": "Open the guide.", "feasible": True, "plan": [
        {"step": 1, "command": "teleport", "params": {"to": "guide"}, "description": "made up"},
        {"step": 2, "command": "goto", "params": {"node": "guide"}, "description": "Go to the guide"}]}))
    run = stack.run("show me the programme guide")
    assert run["status"] == "passed" and run["planner"] == "llm", run
    watch = PageWatch()
    page = new_page(browser, stack, watch)
    try:
        page.goto(f"/#/runs/{run['id']}")
        panel = page.get_by_role("region", name="Planning")
        calls = panel.locator(".planning-call")
        expect(calls).to_have_count(2)
        expect(calls.nth(0)).to_have_attribute("data-planner", "cache")
        expect(calls.nth(0)).to_have_attribute("data-outcome", "skipped")
        llm_call = calls.nth(1)
        expect(llm_call).to_have_attribute("data-outcome", "used")
        expect(llm_call).to_contain_text("480 (420 prompt + 60 completion)")
        llm_call.locator(".planning-prompt summary").click()
        expect(llm_call.locator(".planning-prompt")).to_contain_text("Task: show me the programme guide")
        llm_call.locator(".planning-answer summary").click()
        expect(llm_call.locator(".planning-answer pre")).to_contain_text('"teleport"')
        expect(panel.get_by_label("Dropped by validation")).to_contain_text("dropped unknown command 'teleport'")
        expect(panel.get_by_label("Closed-loop observations")).to_contain_text("none")
        assert KEY not in panel.inner_text()
    finally:
        page.context.close()
    assert not watch.errors, watch.errors


def test_rules_are_added_edited_refused_and_deleted_in_the_dashboard(browser: Browser,
                                                                     llm_stack: tuple[Stack, ScriptedLLM]) -> None:
    stack, _ = llm_stack
    watch = PageWatch()
    page = new_page(browser, stack, watch)
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        page.goto("/#/rules")
        expect(page.locator("#view")).to_have_attribute("aria-busy", "false")
        page.get_by_label("Rule name").fill("hop to {n}")
        page.get_by_label("Rule scope (user interface)").fill("streamtv")
        page.get_by_label("Rule body", exact=True).fill("switch to channel {n}")
        page.get_by_role("button", name="Save the rule").click()
        expect(page.get_by_role("status").filter(has_text="Saved “hop to {n}” as version 1")).to_be_visible()
        rows = page.locator('tr[data-rule="hop-to-n"]')
        expect(rows).to_contain_text("switch to channel {n}")

        page.get_by_role("button", name="Edit rule “hop to {n}”").click()
        expect(page.get_by_label("Rule name")).to_have_value("hop to {n}")
        page.get_by_label("Rule body", exact=True).fill("switch to channel {n} and check the banner is shown")
        page.get_by_role("button", name="Save the rule").click()
        expect(rows).to_contain_text("v2")
        page.locator("details.raw summary").filter(has_text="version(s)").click()
        expect(page.get_by_label("Rule versions").locator("li")).to_have_count(2)

        page.get_by_role("button", name="Clear the rule form").click()
        page.get_by_label("Rule name").fill("bounce {n}")
        page.get_by_label("Rule body", exact=True).fill("go home, then bounce {n}")
        page.get_by_role("button", name="Save the rule").click()
        expect(page.get_by_role("alert")).to_contain_text("would call itself: 'bounce {n}' → 'bounce {n}'")
        expect(page.locator('tr[data-rule="bounce-n"]')).to_have_count(0)

        page.get_by_role("button", name="Delete rule “hop to {n}”").click()
        expect(rows).to_have_count(0)
        assert [r["name"] for r in stack.get("/api/rules")] == []
    finally:
        page.context.close()
    assert not watch.errors, watch.errors

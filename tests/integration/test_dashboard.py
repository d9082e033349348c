"""The web dashboard in a real Chromium against real server and host processes.

Every view is opened, used and photographed (the screenshots land in this test run's
temporary directory, under ``dashboard-screenshots``).
"""
from __future__ import annotations

import copy
import re
import time
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.fakes.llm_server import Reply, ScriptedLLM
from tests.integration.dashboard_helpers import (LAPTOP, STEP_OBSERVER_JS, WIDE, PageWatch, Shots, launch_browser,
                                                log_in)
from tests.stack import Stack

pytestmark = pytest.mark.integration

TASK = "switch to channel 5 and check the banner shows Melody TV"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=20_000)  # steps on a shared two-core machine can take seconds
    yield from launch_browser()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Shots:
    return Shots(tmp_path_factory.mktemp("dashboard-screenshots"))


@pytest.fixture(scope="module", autouse=True)
def device_back_home(demo_stack: Stack) -> Iterator[None]:
    """Leave the shared demo device on its home screen, as the other tests expect to find it."""
    yield
    demo_stack.run("go home", plan={"analysis": "back to the entry screen", "feasible": True,
                                    "plan": [{"step": 1, "command": "goto", "params": {"node": "home"}}]})


@pytest.fixture(scope="module")
def llm_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, ScriptedLLM]]:
    """A stack of its own whose server plans with a scripted OpenAI-compatible server, so plans get cached."""
    llm = ScriptedLLM().start()
    env = {"DEVICEPILOT_LLM_BASE_URL": llm.url, "DEVICEPILOT_LLM_API_KEY": "sk-dashboard-test-SECRET",
           "DEVICEPILOT_LLM_MODEL": "scripted-planner", "DEVICEPILOT_LLM_TIMEOUT_S": "5"}
    try:
        stack = Stack.start(tmp_path_factory.mktemp("dashboard-llm-stack"), extra_env=env)
        try:
            yield stack, llm
        finally:
            stack.stop()
    finally:
        llm.stop()


@pytest.fixture
def watch() -> PageWatch:
    return PageWatch()


@pytest.fixture
def page(browser: Browser, demo_stack: Stack, watch: PageWatch) -> Iterator[Page]:
    context = browser.new_context(viewport=LAPTOP, base_url=demo_stack.url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, demo_stack)
    watch.attach(page)
    yield page
    context.close()
    assert not watch.errors, watch.errors


def open_view(page: Page, route: str) -> None:
    page.goto(f"/#/{route}")
    expect(page.locator("#view")).to_have_attribute("aria-busy", "false")


# -- lab ------------------------------------------------------------------------------------------

def test_lab_lists_hosts_and_devices_with_thumbnails(page: Page, watch: PageWatch, demo_stack: Stack,
                                                    shots: Shots) -> None:
    open_view(page, "lab")
    host = page.locator('[data-host="demo-host"]')
    expect(host).to_contain_text("Demo host")
    expect(host.locator(".badge").first).to_have_text("online")
    card = page.locator('[data-device="demo-web"]')
    expect(card).to_contain_text("StreamTV (web demo)")
    expect(card).to_contain_text("streamtv-web")
    thumb = card.locator(".thumb img")
    expect(thumb).to_be_visible()
    assert thumb.evaluate("img => img.naturalWidth") == 480
    expect(page.locator('[data-stat="online"]')).to_have_text("1")
    shots.take(page, "lab")
    page.set_viewport_size(WIDE)
    shots.take(page, "lab-wide")

    # thumbnails refresh every few seconds while the lab is shown, and stop once it is left
    before = watch.count("GET", "/thumbnail")
    page.wait_for_timeout(5600)
    assert watch.count("GET", "/thumbnail") > before
    card.click()
    expect(page).to_have_url(f"{demo_stack.url}/#/device/demo-web")
    left = watch.count("GET", "/thumbnail")
    page.wait_for_timeout(5600)
    assert watch.count("GET", "/thumbnail") == left


# -- device: live screen, remote pad, command form, context ---------------------------------------

def test_device_view_streams_the_screen_and_drives_the_device(page: Page, demo_stack: Stack, shots: Shots) -> None:
    frames: list[float] = []

    def on_socket(ws: object) -> None:
        ws.on("framereceived", lambda payload: frames.append(time.monotonic()) if isinstance(payload, bytes) else None)

    page.on("websocket", on_socket)
    open_view(page, "device/demo-web")
    screen = page.locator(".screen-wrap")
    expect(screen.locator("img")).to_have_attribute("src", re.compile(r"^blob:"))
    page.wait_for_function("() => Number(document.querySelector('.screen-wrap').dataset.frames || 0) >= 2")
    start = len(frames)
    page.wait_for_timeout(3000)
    fps = (len(frames) - start) / 3
    assert fps >= 1.0, f"live screen too slow: {fps:.1f} frames/s"

    # the pad has exactly the keys the device's press_key accepts
    context = demo_stack.get("/api/devices/demo-web/context")
    press_key = next(c for c in context["action"]["commands"] if c["name"] == "press_key")
    allowed = set(next(p for p in press_key["params"] if p["name"] == "key")["choices"])
    shown = set(page.locator(".remote [data-key]").evaluate_all("els => els.map(e => e.dataset.key)"))
    assert shown == allowed
    with page.expect_response(lambda r: r.url.endswith("/api/devices/demo-web/execute")) as pressed:
        page.get_by_role("button", name="Press Down").click()
    assert pressed.value.json()["status"] == "passed"
    assert pressed.value.request.post_data_json == {"command": "press_key", "params": {"key": "DOWN"}}

    # any command from a form built from its declared params
    page.get_by_label("Command", exact=True).select_option("navigation:goto")
    page.get_by_label("goto node").select_option("live")
    page.get_by_role("button", name="Send goto to the device").click()
    expect(page.locator("[data-result]")).to_have_attribute("data-result", "passed", timeout=30_000)
    expect(page.locator("[data-result]")).to_contain_text("on live")
    page.wait_for_timeout(1200)  # a frame or two of the new screen
    shots.take(page, "device")

    # the context as AI Central sees it
    page.get_by_role("tab", name="Context (as AI Central sees it)").click()
    panel = page.get_by_role("tabpanel")
    expect(panel).to_contain_text(context["fingerprint"])
    for command in context["verification"]["commands"]:
        expect(panel.get_by_text(command["name"], exact=True)).to_be_visible()
    for node in context["navigation"]["nodes"]:
        expect(panel.locator(".node-list")).to_contain_text(node["label"])
    shots.take(page, "device-context")

    # leaving the device stops its frames
    open_view(page, "runs")
    page.wait_for_timeout(1500)
    stopped = len(frames)
    page.wait_for_timeout(2000)
    assert len(frames) == stopped, "frames still arrive after leaving the device view"


def test_commands_for_the_next_run_are_scheduled_listed_and_cancelled(page: Page, demo_stack: Stack) -> None:
    open_view(page, "device/demo-web")
    page.get_by_role("tab", name="Next run").click()
    panel = page.get_by_role("tabpanel")
    expect(panel).to_contain_text("Nothing scheduled")
    panel.get_by_label("Command for the next run", exact=True).select_option("goto")
    panel.get_by_label("Parameters (JSON)").fill('{"node": "guide"}')
    panel.get_by_role("button", name="Schedule").click()
    expect(panel.locator("li.next-command")).to_contain_text('goto {"node":"guide"}')
    pending = demo_stack.get("/api/devices/demo-web/next-commands")["pending"]
    assert [(c["command"], c["params"]) for c in pending] == [("goto", {"node": "guide"})]
    assert pending[0]["source"].startswith("user:")
    panel.get_by_role("button", name="Cancel").click()
    expect(panel).to_contain_text("Nothing scheduled")
    assert demo_stack.get("/api/devices/demo-web/next-commands")["pending"] == []


# -- task box: plan preview, live run, report -----------------------------------------------------

def test_task_from_the_page_runs_live_and_opens_its_report(page: Page, watch: PageWatch, demo_stack: Stack,
                                                          shots: Shots) -> None:
    open_view(page, "device/demo-web")
    page.get_by_label("Test task in plain language").fill(TASK)
    page.get_by_role("button", name="Preview the plan of this task").click()
    plan = page.locator("section.plan")
    expect(plan).to_have_attribute("data-feasible", "true")
    steps = plan.locator(".plan-step")
    commands = steps.evaluate_all("els => els.map(e => e.dataset.command)")
    assert commands[-2:] == ["press_key", "wait_for_element"]
    expect(steps.filter(has_text="press_key").locator(".chip")).to_have_text("remote")
    expect(steps.filter(has_text="wait_for_element").locator(".chip")).to_have_text("verification")
    expect(steps.filter(has_text="wait_for_element").get_by_label("wait_for_element text")).to_have_value("Melody TV")
    shots.take(page, "task-plan-preview")

    page.evaluate(STEP_OBSERVER_JS)
    run_gets_before = watch.count("GET", "/api/runs/")
    with page.expect_response(lambda r: r.url.endswith("/api/runs") and r.request.method == "POST") as created:
        page.get_by_role("button", name="Run this plan on the device").click()
    run_id = created.value.json()["id"]
    # the unedited plan is planned again, so the run keeps its planner
    assert "plan" not in created.value.request.post_data_json

    live = page.locator(".live-run")
    expect(live.locator('li.step[data-status="passed"]').first).to_be_visible()
    shots.take(page, "live-run")
    expect(live.locator(".run-status")).to_have_attribute("data-run-status", "passed", timeout=60_000)
    run = demo_stack.get(f"/api/runs/{run_id}")
    assert run["status"] == "passed"
    log = page.evaluate("window.__stepLog")
    assert sorted(entry["step"] for entry in log) == [s["step"] for s in run["steps"]]
    assert all(entry["run"] == "running" for entry in log), f"steps did not arrive while running: {log}"
    # pushed, not polled: the run was read once when the timeline opened
    assert watch.count("GET", f"/api/runs/{run_id}") <= 1
    assert watch.count("GET", "/api/runs/") - run_gets_before <= 1
    expect(live.locator("li.step .shot img")).to_have_count(sum(1 for s in run["steps"] if s["screenshot_url"]))
    expect(live.locator("li.step").last.locator(".shot img")).to_have_count(1)   # the end always has one
    shots.take(page, "live-run-finished")

    page.get_by_role("link", name="Open the report of this run").click()
    expect(page).to_have_url(f"{demo_stack.url}/#/runs/{run_id}")
    report = page.locator("#view")
    expect(report.locator("h1")).to_have_text(TASK)
    expect(report.locator(".run-status")).to_have_attribute("data-run-status", "passed")
    expect(report.locator("li.step")).to_have_count(len(run["steps"]))
    for step in run["steps"]:
        item = report.locator(f'li.step[data-step="{step["step"]}"]')
        expect(item).to_contain_text(step["command"])
        if step["screenshot_url"]:
            expect(item.locator(".shot img")).to_have_attribute("src", step["screenshot_url"])
        else:   # a step with no screenshot of its own keeps its place in the timeline
            expect(item.locator(".shot img")).to_have_count(0)
    assert run["steps"][-1]["screenshot_url"], "the end of a run always carries a screenshot"
    expect(report.get_by_label("Summary")).to_contain_text(f"Planner{run['planner']}")
    expect(report.get_by_label("Summary")).to_contain_text("none (no LLM call)")
    page.wait_for_function("() => [...document.querySelectorAll('.shot img')].every(i => i.complete && i.naturalWidth > 0)")
    for name, kind in (("Open the HTML report", "text/html"), ("Download the JSON report", "application/json"),
                       ("Download the JUnit XML report", "application/xml")):
        href = report.get_by_label(name).get_attribute("href")
        response = page.request.get(href)
        assert response.ok and response.headers["content-type"].startswith(kind)
        assert TASK in response.text()
    shots.take(page, "run-report")
    page.set_viewport_size(WIDE)
    shots.take(page, "run-report-wide")

    # a screenshot opens in the viewer and closes with Escape
    report.locator("li.step button.shot").first.click()
    expect(page.locator("#lightbox")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#lightbox")).to_be_hidden()


def test_plan_is_edited_before_it_runs(page: Page, demo_stack: Stack) -> None:
    open_view(page, "device/demo-web")
    page.get_by_label("Test task in plain language").fill(TASK)
    page.get_by_role("button", name="Preview the plan of this task").click()
    steps = page.locator("section.plan .plan-step")
    expect(steps.last).to_be_visible()
    count = steps.count()
    # remove the verification, press 3 instead of 5, and move the key press first
    page.get_by_role("button", name=f"Remove step {count} (wait_for_element)").click()
    expect(steps).to_have_count(count - 1)
    page.get_by_label("press_key key").select_option("DIGIT_3")
    if count == 3:
        page.get_by_role("button", name="Move step 2 (press_key) up").click()
        expect(steps.first).to_have_attribute("data-command", "press_key")
        page.get_by_role("button", name="Move step 1 (press_key) down").click()
    expect(page.locator(".plan-actions .edited")).to_contain_text("Edited")
    with page.expect_response(lambda r: r.url.endswith("/api/runs") and r.request.method == "POST") as created:
        page.get_by_role("button", name="Run this plan on the device").click()
    sent = created.value.request.post_data_json["plan"]
    assert [s["command"] for s in sent["plan"]][-1] == "press_key"
    assert sent["plan"][-1]["params"]["key"] == "DIGIT_3"
    expect(page.locator(".live-run .run-status")).to_have_attribute("data-run-status", "passed", timeout=60_000)
    run = demo_stack.get(f"/api/runs/{created.value.json()['id']}")
    assert run["planner"] == "user"
    assert run["steps"][-1]["command"] == "press_key" and run["steps"][-1]["message"] == "pressed DIGIT_3"


def test_infeasible_task_is_flagged_and_cannot_run(page: Page, shots: Shots) -> None:
    open_view(page, "device/demo-web")
    page.get_by_label("Test task in plain language").fill("go to the weather screen")
    page.keyboard.press("Control+Enter")
    plan = page.locator("section.plan")
    expect(plan).to_have_attribute("data-feasible", "false")
    expect(plan.get_by_role("alert")).to_contain_text("weather")
    expect(page.get_by_role("button", name="Run this plan on the device")).to_be_disabled()
    shots.take(page, "task-infeasible")


# -- runs -------------------------------------------------------------------------------------------

def test_runs_history_filters(page: Page, demo_stack: Stack, shots: Shots) -> None:
    planned = demo_stack.run("go to the guide", mode="plan")
    open_view(page, "runs")
    rows = page.locator("table.grid tbody tr[data-run]")
    expect(rows.first).to_be_visible()
    all_runs = demo_stack.get("/api/runs?limit=50")
    expect(rows).to_have_count(len(all_runs))
    shots.take(page, "runs")

    page.get_by_label("Status").select_option("planned")
    expect(page).to_have_url(f"{demo_stack.url}/#/runs?status=planned")
    expect(rows.first).to_have_attribute("data-status", "planned")
    expect(rows).to_have_count(len(demo_stack.get("/api/runs?status=planned")))
    expect(page.locator(f'tr[data-run="{planned["id"]}"]')).to_be_visible()

    page.get_by_label("Planner").select_option("user")
    expect(rows).to_have_count(len(demo_stack.get("/api/runs?status=planned&planner=user")))
    page.get_by_role("button", name="Reset").click()
    expect(rows).to_have_count(len(all_runs))

    page.get_by_label("From (UTC)").fill("2001-01-01")
    page.get_by_label("To (UTC)").fill("2001-01-02")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("table.grid")).to_contain_text("No run matches these filters")

    # a new run appears at the top by itself (run_update events), filters permitting
    page.get_by_role("button", name="Reset").click()
    expect(rows).to_have_count(len(all_runs))
    fresh = demo_stack.run("go to the settings", mode="plan")
    expect(rows.first).to_have_attribute("data-run", fresh["id"])
    page.locator(f'tr[data-run="{fresh["id"]}"] a').first.click()
    expect(page).to_have_url(f"{demo_stack.url}/#/runs/{fresh['id']}")
    expect(page.locator("#view .run-status")).to_have_attribute("data-run-status", "planned")


# -- navigation ---------------------------------------------------------------------------------

def test_navigation_graph_edit_save_and_goto_path(page: Page, demo_stack: Stack, shots: Shots) -> None:
    original = demo_stack.get("/api/userinterfaces/streamtv/tree")["tree"]
    try:
        open_view(page, "navigation/streamtv")
        graph = page.locator(".graph-wrap svg")
        for node in original["nodes"]:
            expect(graph.locator(f'[data-node="{node["id"]}"]')).to_contain_text(node["label"])
        expect(graph.locator(".gedge[data-edge]")).to_have_count(len(original["edges"]))

        # the goto path, as the server computes it, highlighted
        page.get_by_label("Path from node").select_option("movie")
        page.get_by_label("Path to node").select_option("settings")
        page.get_by_role("button", name="Highlight the goto path").click()
        path = demo_stack.get("/api/userinterfaces/streamtv/path?from=movie&to=settings")
        assert path["found"] and path["nodes"][0] == "movie" and path["nodes"][-1] == "settings"
        expect(graph.locator(".gnode.on-path")).to_have_count(len(path["nodes"]))
        for node_id in path["nodes"]:
            expect(graph.locator(f'[data-node="{node_id}"]')).to_have_class(re.compile(r"\bon-path\b"))
        expect(graph.locator(".gnode.path-end")).to_have_count(2)
        expect(graph.locator(".gedge.on-path[data-edge]")).to_have_count(len(path["edges"]))
        shots.take(page, "navigation-path")

        # edit a node's label with the keyboard and save it
        graph.locator('[data-node="guide"]').focus()
        page.keyboard.press("Enter")
        label = page.get_by_label("Node label")
        expect(label).to_have_value("Guide")
        label.fill("Programme guide")
        expect(graph.locator('[data-node="guide"]')).to_contain_text("Programme guide")
        expect(page.get_by_text("unsaved changes")).to_be_visible()
        shots.take(page, "navigation-edit")
        page.get_by_role("button", name="Save the navigation tree").click()
        expect(page.locator("[data-saved]")).to_be_visible()
        saved = demo_stack.get("/api/userinterfaces/streamtv/tree")
        assert saved["source"] == "dashboard"
        assert next(n for n in saved["tree"]["nodes"] if n["id"] == "guide")["label"] == "Programme guide"
        assert saved["tree"]["edges"] == original["edges"]

        # an invalid tree is refused by the server and its message shown
        graph.locator('.gedge[data-edge="0"]').focus()
        page.keyboard.press("Enter")
        page.locator('[data-inspect="edge"] textarea').first.fill("[]")
        page.get_by_role("button", name="Save the navigation tree").click()
        alert = page.locator(".banner--error")
        expect(alert).to_contain_text("The server refused the tree")
        expect(alert).to_contain_text("needs at least one action")
        assert demo_stack.get("/api/userinterfaces/streamtv/tree")["version"] == saved["version"]
        shots.take(page, "navigation-invalid")
        page.get_by_role("button", name="Discard unsaved changes").click()
        expect(page.get_by_role("button", name="Save the navigation tree")).to_be_disabled()
        page.set_viewport_size(WIDE)
        shots.take(page, "navigation-wide")
    finally:
        restored = copy.deepcopy(original)
        demo_stack.http.put(f"{demo_stack.url}/api/userinterfaces/streamtv/tree", json={"tree": restored}, timeout=30).raise_for_status()


def test_navigation_path_endpoint_answers_clearly(demo_stack: Stack) -> None:
    found = demo_stack.get("/api/userinterfaces/streamtv/path?from=home&to=player")
    assert found["found"] and found["nodes"][0] == "home" and found["nodes"][-1] == "player"
    assert all(edge["actions"] for edge in found["edges"])
    same = demo_stack.get("/api/userinterfaces/streamtv/path?from=live&to=live")
    assert same["found"] and same["edges"] == [] and same["nodes"] == ["live"]
    r = demo_stack.http.get(f"{demo_stack.url}/api/userinterfaces/streamtv/path?from=home&to=weather", timeout=10)
    assert r.status_code == 404 and "weather" in r.json()["error"]
    r = demo_stack.http.get(f"{demo_stack.url}/api/userinterfaces/streamtv/path?from=home", timeout=10)
    assert r.status_code == 400 and "from" in r.json()["error"]
    r = demo_stack.http.get(f"{demo_stack.url}/api/userinterfaces/nothing/path?from=a&to=b", timeout=10)
    assert r.status_code == 404
    assert {"userinterface": "streamtv"}.items() <= demo_stack.get("/api/userinterfaces")[0].items()


def test_thumbnail_is_small_and_shared_between_dashboards(demo_stack: Stack) -> None:
    first = demo_stack.http.get(f"{demo_stack.url}/api/devices/demo-web/thumbnail?width=320", timeout=30)
    second = demo_stack.http.get(f"{demo_stack.url}/api/devices/demo-web/thumbnail?width=320", timeout=30)
    assert first.headers["content-type"] == "image/jpeg" and first.content[:2] == b"\xff\xd8"
    assert second.content == first.content  # served from the shared cache, not a new capture
    full = demo_stack.http.get(f"{demo_stack.url}/api/devices/demo-web/screenshot", timeout=30)
    assert len(first.content) < len(full.content) / 4
    r = demo_stack.http.get(f"{demo_stack.url}/api/devices/demo-web/thumbnail?width=wide", timeout=10)
    assert r.status_code == 400
    r = demo_stack.http.get(f"{demo_stack.url}/api/devices/nope/thumbnail", timeout=10)
    assert r.status_code == 404


# -- plan cache --------------------------------------------------------------------------------

def test_plan_cache_view(page: Page, demo_stack: Stack, shots: Shots) -> None:
    answer = demo_stack.http.get(f"{demo_stack.url}/api/plan-cache", timeout=10)
    open_view(page, "plan-cache")
    if answer.status_code == 404:
        expect(page.locator('[data-plan-cache="unavailable"]')).to_contain_text("Plan cache not available")
    else:
        answer.raise_for_status()
        data = answer.json()
        entries = data if isinstance(data, list) else data.get("entries", [])
        if entries:
            expect(page.locator("tr[data-entry]")).to_have_count(len(entries))
            expect(page.locator("table.grid")).to_contain_text(entries[0]["task"])
        else:
            expect(page.locator("#view")).to_contain_text("The plan cache is empty")
    shots.take(page, "plan-cache")



def test_plan_cache_pin_and_invalidate_with_llm_plans(browser: Browser, llm_stack: tuple[Stack, ScriptedLLM],
                                                      shots: Shots) -> None:
    stack, llm = llm_stack
    task = "open the programme guide and check its title"
    llm.script(Reply.plan({"analysis": "Open the guide, then check its title.", "feasible": True, "plan": [
        {"step": 1, "command": "goto", "params": {"node": "guide"}, "description": "Go to the guide"},
        {"step": 2, "command": "wait_for_element",
         "params": {"selector": "#screen-guide .screen-title", "text": "Guide"}, "description": "Check the title"}]}))
    run = stack.run(task)
    assert run["status"] == "passed" and run["planner"] == "llm", run
    entry = next(e for e in stack.get("/api/plan-cache") if e["task"] == task)

    context = browser.new_context(viewport=LAPTOP, base_url=stack.url)
    page = context.new_page()
    log_in(page, stack)
    watch = PageWatch().attach(page)
    try:
        # the report shows what planning cost, and never the API key
        open_view(page, f"runs/{run['id']}")
        usage = run["usage"]
        expect(page.get_by_label("Summary")).to_contain_text(
            f"{usage['total_tokens']} ({usage['prompt_tokens']} prompt + {usage['completion_tokens']} completion)")
        expect(page.get_by_label("Summary")).to_contain_text("Plannerllm")
        assert "SECRET" not in page.content()

        open_view(page, "plan-cache")
        row = page.locator(f'tr[data-entry="{entry["id"]}"]')
        expect(row).to_contain_text(task)
        expect(row).to_contain_text("streamtv-web")
        row.get_by_text("2 steps").click()
        expect(row).to_contain_text("wait_for_element")
        shots.take(page, "plan-cache-entries")

        row.get_by_role("button", name=re.compile("^Pin the cached plan")).click()
        expect(row.get_by_role("button", name=re.compile("^Unpin"))).to_have_attribute("aria-pressed", "true")
        assert next(e for e in stack.get("/api/plan-cache") if e["id"] == entry["id"])["pinned"] is True

        page.once("dialog", lambda dialog: dialog.accept())
        row.get_by_role("button", name=re.compile("^Invalidate")).click()
        expect(page.locator(f'tr[data-entry="{entry["id"]}"]')).to_have_count(0)
        assert all(e["id"] != entry["id"] for e in stack.get("/api/plan-cache"))
        assert not watch.errors, watch.errors
    finally:
        context.close()

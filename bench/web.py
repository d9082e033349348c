"""A web key press and a click through the whole stack vs raw Playwright on the same app and Chromium.

Whole stack: ``POST /api/devices/demo-web/execute`` — REST, auth, validation, the server's call
to the host over Socket.IO, the host's executors, the Playwright controller and its settle, and
back. Raw: the same key press and click from a Playwright page of the same Chromium binary on
the same StreamTV page, in this process.
"""
from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Any

import requests

from bench.planning import Section
from bench.timing import Timing, measure

log = logging.getLogger(__name__)


def web_steps(runs: int) -> list[Section]:
    from backend_core.controllers.browser import find_chromium
    from devicepilot.local import LocalStack
    from host.config import DEMO_CONFIG
    from shared.config import Settings

    section = Section("Web steps: the whole stack vs raw Playwright (StreamTV in headless Chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        stack = LocalStack.start(DEMO_CONFIG, settings=Settings(data_dir=Path(tmp)))
        try:
            http = requests.Session()
            http.headers["Authorization"] = f"Bearer {stack.token}"
            url = f"{stack.url}/api/devices/demo-web/execute"

            def through_stack(command: str, params: dict) -> None:
                r = http.post(url, json={"command": command, "params": params}, timeout=30)
                r.raise_for_status()
                if r.json().get("status") != "passed":
                    raise RuntimeError(f"{command} did not pass: {r.json()}")

            app_url = stack.lab.apps[0].url + "/"
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=find_chromium(), headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                page.goto(app_url, wait_until="load")
                raw_key = measure("raw Playwright: keyboard.press", lambda: page.keyboard.press("ArrowDown"), runs)
                frames = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

                def press_and_settle() -> None:
                    page.keyboard.press("ArrowDown")
                    page.evaluate(frames)

                raw_settled = measure("raw Playwright: keyboard.press + settle (two animation frames)",
                                      press_and_settle, runs)
                raw_click = measure("raw Playwright: click", lambda: page.click("body"), runs)
                browser.close()
            key = measure("whole stack: press_key DOWN", lambda: through_stack("press_key", {"key": "DOWN"}), runs)
            click = measure("whole stack: click_element body",
                            lambda: through_stack("click_element", {"selector": "body"}), runs)
            rt = stack.lab.runtime("demo-web")
            from shared.models import PlanStep

            host_click = measure("host alone: click_element body (the host's executors, no server, no wire)",
                                 lambda: rt.execute_step(PlanStep(0, "click_element", {"selector": "body"}),
                                                         with_screenshot=False, locate=False), runs)
            every, useful = _screenshot_policies(rt, max(10, runs // 4))
        finally:
            stack.stop()
    section.rows = [key, raw_key, raw_settled, click, host_click, raw_click, every, useful]
    section.ratios = [("key press: whole stack vs raw Playwright", key.ratio_to(raw_key)),
                      ("key press: whole stack vs raw Playwright + the same settle", key.ratio_to(raw_settled)),
                      ("click: whole stack vs raw Playwright", click.ratio_to(raw_click)),
                      ("5-key plan: screenshots where useful vs a PNG after every step", useful.ratio_to(every))]
    section.facts += [f"key press: whole stack vs raw Playwright {key.ratio_to(raw_key):.2f}x "
                      f"({key.median_ms - raw_key.median_ms:.1f} ms added at p50); against a raw press plus the same "
                      f"settle {key.ratio_to(raw_settled):.2f}x (target 1.3x plus the settle)",
                      f"click: whole stack vs raw Playwright {click.ratio_to(raw_click):.2f}x (target 1.3x); the host "
                      f"alone {host_click.ratio_to(raw_click):.2f}x. A click waits for animation frames (16.7 ms "
                      f"each; a raw one takes two): the few ms of the server's REST, validation and Socket.IO call "
                      f"push it into a third ({click.median_ms - host_click.median_ms:.1f} ms above the host at p50)",
                      f"5-key plan on the host: screenshots where useful (default policy) vs a PNG after every step "
                      f"{useful.ratio_to(every):.2f}x ({every.median_ms / 5:.1f} → {useful.median_ms / 5:.1f} ms a step)"]
    return [section]


def _screenshot_policies(rt: Any, runs: int) -> tuple[Timing, Timing]:
    """One 5-key plan on the demo device's runtime, with a PNG after every step and with the default policy."""
    from shared.models import Plan, PlanStep
    from shared.screenshots import ImageFormat, ScreenshotPolicy

    plan = Plan("bench", True, [PlanStep(i, "press_key", {"key": "DOWN"}) for i in range(1, 6)])
    kept = rt.shots

    def run(policy: ScreenshotPolicy) -> None:
        rt.shots = policy
        rt.run_plan(plan, lambda _: None)

    try:
        every = measure("5-key plan, a PNG after every step", lambda: run(ScreenshotPolicy(1, ImageFormat.PNG)), runs)
        useful = measure("5-key plan, screenshots where useful (default)", lambda: run(ScreenshotPolicy()), runs)
    finally:
        rt.shots = kept
    return every, useful

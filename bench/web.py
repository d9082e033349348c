"""A web key press and a click through the whole stack vs raw Playwright on the same app and Chromium.

Whole stack: ``POST /api/devices/demo-web/execute`` — REST, auth, validation, the server's call
to the host over Socket.IO, the host's executors, the Playwright controller and its settle, and
back. Raw: the same key press and click made by Playwright itself on the device's own page, in its
browser. Figures compared with one another are measured in turn, call by call, each call starting at a
random phase of the browser's frame clock (``measure_interleaved``): a click takes two or three animation
frames depending on that phase.
"""
from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Any

import requests

from bench.planning import Section
from bench.timing import Timing, measure, measure_interleaved

log = logging.getLogger(__name__)

FRAME_S = 1 / 60   # one animation frame of headless Chromium


def web_steps(runs: int) -> list[Section]:
    from backend_core.controllers.web import WebRemote
    from devicepilot.local import LocalStack
    from host.config import DEMO_CONFIG
    from shared.config import Settings
    from shared.models import PlanStep

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

            rt = stack.lab.runtime("demo-web")
            session = next(c for c in rt.device.controllers if isinstance(c, WebRemote)).session
            frames = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

            def press_and_settle(page: Any) -> None:
                page.keyboard.press("ArrowDown")
                page.evaluate(frames)

            # raw: Playwright's own calls on the device's page, in its browser (on the thread that owns it)
            keys = measure_interleaved({
                "whole stack: press_key DOWN": lambda: through_stack("press_key", {"key": "DOWN"}),
                "raw Playwright: keyboard.press": lambda: session.call(lambda page: page.keyboard.press("ArrowDown")),
                "raw Playwright: keyboard.press + settle (two animation frames)":
                    lambda: session.call(press_and_settle),
            }, runs, jitter_s=FRAME_S)
            step = PlanStep(0, "click_element", {"selector": "body"})
            clicks = measure_interleaved({
                "whole stack: click_element body": lambda: through_stack("click_element", {"selector": "body"}),
                "host alone: click_element body (the host's executors, no server, no wire)":
                    lambda: rt.execute_step(step, with_screenshot=False, locate=False),
                "raw Playwright: click": lambda: session.call(lambda page: page.click("body")),
            }, runs, jitter_s=FRAME_S)
            (key, raw_key, raw_settled), (click, host_click, raw_click) = keys.values(), clicks.values()
            rounds = max(8, runs // 10)
            key_in_run = _step_in_a_run(http, stack.url, "press_key DOWN", "press_key", {"key": "DOWN"}, rounds)
            in_run = _step_in_a_run(http, stack.url, "click_element body", "click_element", {"selector": "body"},
                                    rounds)
            gotos = [_goto_vs_raw(rt, session, source, target, max(10, runs // 4))
                     for source, target in (("home", "settings"), ("settings", "home"), ("guide", "settings"),
                                            ("player", "home"))]
            every, useful = _screenshot_policies(rt, max(10, runs // 4))
        finally:
            stack.stop()
    section.rows = [key, key_in_run, raw_key, raw_settled, click, host_click, raw_click, in_run,
                    *(t for pair in gotos for t in pair), every, useful]
    section.ratios = [("key press: whole stack vs raw Playwright", key.ratio_to(raw_key)),
                      ("key press: whole stack vs raw Playwright + the same settle", key.ratio_to(raw_settled)),
                      ("key press step of a run: whole stack vs raw Playwright + the same settle",
                       key_in_run.ratio_to(raw_settled)),
                      ("click: whole stack vs raw Playwright", click.ratio_to(raw_click)),
                      ("click step of a run: whole stack vs raw Playwright", in_run.ratio_to(raw_click)),
                      *((f"{goto.name.split(':')[0]}: goto vs the raw actions it performs", goto.ratio_to(raw))
                        for goto, raw in gotos),
                      ("5-key plan: screenshots where useful vs a PNG after every step", useful.ratio_to(every))]
    key_r, key_run_r = key.ratio_to(raw_settled), key_in_run.ratio_to(raw_settled)
    click_r, click_run_r = click.ratio_to(raw_click), in_run.ratio_to(raw_click)
    section.facts += [f"key press: whole stack vs raw Playwright {key.ratio_to(raw_key):.2f}x "
                      f"({key.median_ms - raw_key.median_ms:.1f} ms added at p50). Against a raw press plus the same "
                      f"settle (target 1.3x): the remote pad {key_r:.2f}x, {_verdict(key_r, 1.3)}; a key press step "
                      f"of a run {key_run_r:.2f}x, {_verdict(key_run_r, 1.3)}",
                      f"click (target 1.3x): the remote pad's POST /execute {click_r:.2f}x, {_verdict(click_r, 1.3)}, "
                      f"{click.median_ms - raw_click.median_ms:.1f} ms added at p50 (the host alone "
                      f"{host_click.ratio_to(raw_click):.2f}x; the rest is the request: HTTP, the token's user, the "
                      f"audit entry, the Socket.IO call to the host); a click step of a run (the plan sent once, each "
                      f"step run and reported by the host) {click_run_r:.2f}x, {_verdict(click_run_r, 1.3)}",
                      "goto vs the raw actions it performs, on the host (target 1.5x): " + "; ".join(
                          f"{goto.name.split(':')[0]} {goto.ratio_to(raw):.2f}x, {_verdict(goto.ratio_to(raw), 1.5)} "
                          f"({goto.median_ms - raw.median_ms:.1f} ms added: the arrival's check of the screen)"
                          for goto, raw in gotos),
                      f"5-key plan on the host: screenshots where useful (default policy) vs a PNG after every step "
                      f"{useful.ratio_to(every):.2f}x ({every.median_ms / 5:.1f} → {useful.median_ms / 5:.1f} ms a step)"]
    return [section]


def _verdict(ratio: float, target: float) -> str:
    return "met" if ratio <= target else f"missed by {ratio - target:.2f}x"


def _step_in_a_run(http: Any, base: str, name: str, command: str, params: dict, rounds: int) -> Timing:
    """One step's cost inside a run, through the whole stack: runs of 1 and of 11 such steps are submitted
    (``POST /api/runs?wait``, the plan given), and the difference of each round's pair, over 10, is a sample.
    The run's fixed cost (queue, start, last screenshot, report) is the same in both and drops out."""
    def run_of(count: int) -> Any:
        steps = [{"step": i, "command": command, "params": params} for i in range(1, count + 1)]

        def submit() -> None:
            r = http.post(f"{base}/api/runs?wait=60", json={"device": "demo-web", "task": f"{command} x{count}",
                                                            "plan": {"analysis": "bench", "feasible": True,
                                                                     "plan": steps}}, timeout=90)
            if not r.ok or r.json().get("status") != "passed":
                raise RuntimeError(f"the bench's run did not pass ({r.status_code}): {r.text[:300]}")
        return submit

    pairs = measure_interleaved({"one": run_of(1), "eleven": run_of(11)}, rounds, warmup=1, jitter_s=FRAME_S)
    one, eleven = pairs["one"].samples_ms, pairs["eleven"].samples_ms
    return Timing(f"whole stack, in a run: {name} (runs of 11 vs 1, per step)",
                  tuple((b - a) / 10 for a, b in zip(one, eleven)))


def _goto_vs_raw(rt: Any, session: Any, source: str, target: str, rounds: int) -> tuple[Timing, Timing]:
    """``goto`` from *source* to *target* on the host, and the raw Playwright actions of its path (each click, each
    key press and its settle), measured in turn from *source*, each at a random phase of the frame clock."""
    from backend_core.controllers.web import WEB_KEYS
    from backend_core.navigation.graph import shortest_path
    from shared.keys import Key

    nav = rt.navigation
    nav.goto(source)
    path = shortest_path(nav.tree, source, target)
    frames = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

    def raw(page: Any) -> None:
        for edge in path:
            for action in edge.actions:
                if action.command == "click_element":
                    page.click(action.params["selector"])
                elif action.command == "press_key":
                    page.keyboard.press(WEB_KEYS[Key(action.params["key"])])
                    page.evaluate(frames)
                else:
                    raise RuntimeError(f"the bench has no raw form of {action.command!r}")

    def raw_path() -> None:
        session.call(raw)
        nav.forget()   # the raw actions moved the device behind the navigator's back

    pair = measure_interleaved({"goto": lambda: nav.goto(target), "raw": raw_path}, rounds, warmup=2,
                               jitter_s=FRAME_S, reset=lambda: nav.goto(source))
    nav.goto(source)   # located again, for the figures after these
    label = f"{source} -> {target}"
    return (Timing(f"{label}: goto on the host ({len(path)} edge(s))", pair["goto"].samples_ms),
            Timing(f"{label}: raw Playwright, the same actions", pair["raw"].samples_ms))


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

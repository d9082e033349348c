"""One plain-language task on Android devices, end to end: real server and host processes,
the adb shim (tests/fakes/adb) first on the host's PATH, the built-in planner."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from tests.fakes import FIXTURES, FakeAdb
from tests.stack import Stack

pytestmark = pytest.mark.integration

HOST_CONFIG = FIXTURES / "android" / "android-host.yaml"
TASK = "open settings and check Wi-Fi is shown"


@pytest.fixture(scope="module")
def android(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, FakeAdb]]:
    folder = tmp_path_factory.mktemp("android-stack")
    fake = FakeAdb(folder)
    stack = Stack.start(folder, configs=[HOST_CONFIG], extra_env=fake.env(),
                        wait_devices=["phone-1", "phone-ocr", "tv-1"])
    try:
        yield stack, fake
    finally:
        stack.stop()


def assert_screenshots(run: dict) -> None:
    """Each check, and the run's end, carries a screenshot (JPEG by default); other steps need none."""
    for step in run["steps"]:
        if step["controller_type"] == "verification" or step is run["steps"][-1]:
            assert Path(step["screenshot"]).read_bytes()[:3] == b"\xff\xd8\xff", step


def test_devices_register_with_their_capabilities(android: tuple[Stack, FakeAdb]) -> None:
    stack, _ = android
    phone = stack.get("/api/devices/phone-1")
    types = {c["type"]: c["commands"] for c in phone["controllers"]}
    assert "tap" in types["AndroidRemote"] and "wait_for_element" in types["UiElementVerifier"]
    tv = stack.get("/api/devices/tv-1")
    assert "get_focused_element" in {cmd for c in tv["controllers"] for cmd in c["commands"]}


def test_phone_opens_settings_and_sees_wifi(android: tuple[Stack, FakeAdb]) -> None:
    stack, fake = android
    run = stack.run(TASK, device="phone-1")
    assert run["status"] == "passed", (run, stack.tail_logs())
    assert run["planner"] == "builtin"
    assert [s["command"] for s in run["steps"]] == ["goto", "wait_for_element"]
    assert run["steps"][1]["params"]["text"] == "Wi-Fi"
    assert [s["controller_type"] for s in run["steps"]] == ["navigation", "verification"]
    assert_screenshots(run)
    calls = fake.calls("phone-1")
    assert ["input", "tap", "900", "1520"] in calls  # the centre of the Settings icon, from the UI dump
    assert fake.screen("phone-1") == "settings"


def test_android_tv_reaches_settings_with_the_dpad(android: tuple[Stack, FakeAdb]) -> None:
    stack, fake = android
    run = stack.run(TASK, device="tv-1")
    assert run["status"] == "passed", (run, stack.tail_logs())
    assert [s["command"] for s in run["steps"]] == ["goto", "wait_for_element"]
    keys = [c[2] for c in fake.calls("tv-1") if c[:2] == ["input", "keyevent"]]
    assert keys == ["22", "22", "23"]  # RIGHT, RIGHT, OK: the focus walked from YouTube to Settings
    assert fake.screen("tv-1") == "settings"
    assert_screenshots(run)


def test_phone_with_ocr_checks_the_rendered_screen(android: tuple[Stack, FakeAdb]) -> None:
    stack, fake = android
    # "X is shown" reads the UI dump even where OCR is available; "the screen shows X" reads the pixels
    run = stack.run(TASK, device="phone-ocr")
    assert run["status"] == "passed", (run, stack.tail_logs())
    assert [s["command"] for s in run["steps"]] == ["goto", "wait_for_element"]
    run = stack.run("open settings and check the screen shows Wi-Fi", device="phone-ocr")
    assert run["status"] == "passed", (run, stack.tail_logs())
    assert [s["command"] for s in run["steps"]][-1] == "wait_for_text"
    assert ["screencap", "-p"] in fake.calls("phone-2")


def test_missing_element_fails_with_the_screen_attached(android: tuple[Stack, FakeAdb]) -> None:
    stack, _ = android
    plan = {"analysis": "Airplane mode is not on this Settings screen", "feasible": True, "plan": [
        {"step": 1, "command": "goto", "params": {"node": "settings"}},
        {"step": 2, "command": "wait_for_element", "params": {"text": "Airplane mode", "timeout": 1}},
    ]}
    run = stack.run("check Airplane mode is shown", device="phone-1", plan=plan)
    assert run["status"] == "failed", run
    last = run["steps"][-1]
    assert "Airplane mode" in last["message"] and "Wi-Fi" in last["message"]
    assert Path(last["screenshot"]).is_file()


def test_offline_device_ends_the_run_in_error(android: tuple[Stack, FakeAdb]) -> None:
    stack, fake = android
    fake.set_state("phone-2", offline=True)
    try:
        plan = {"analysis": "go home", "feasible": True,
                "plan": [{"step": 1, "command": "press_key", "params": {"key": "HOME"}}]}
        run = stack.run("press home", device="phone-ocr", plan=plan)
    finally:
        fake.set_state("phone-2", offline=False)
    assert run["status"] == "error", run
    assert "offline" in run["steps"][0]["message"]

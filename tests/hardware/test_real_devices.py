"""Opt-in tests on real devices: ``pytest -m hardware tests/hardware``.

Each test names the device it needs through environment variables and is
skipped when they are not set (see docs/devices.md):

* ``DEVICEPILOT_TEST_ADB_SERIAL`` — an Android phone or emulator (``adb devices``);
* ``DEVICEPILOT_TEST_TV_SERIAL`` — an Android TV;
* ``DEVICEPILOT_TEST_APPIUM_URL`` (+ ``DEVICEPILOT_TEST_APPIUM_UDID``) — an Appium server with UiAutomator2;
* ``DEVICEPILOT_TEST_IR_REMOTE`` and ``DEVICEPILOT_TEST_CAPTURE_DEVICE`` — an IR set-top box and its grabber.

They change what the device shows (HOME, Settings) but nothing it stores.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from backend_core.controllers.registry import BuildContext, build_controllers

pytestmark = pytest.mark.hardware


def need(*names: str) -> list[str]:
    missing = [n for n in names if not os.environ.get(n)]
    if missing:
        pytest.skip(f"set {', '.join(missing)} to run this test on a real device")
    return [os.environ[n] for n in names]


def build(controllers: list[dict], tmp_path: Path) -> dict[str, object]:
    made = build_controllers(controllers, BuildContext("hardware", tmp_path))
    return {type(c).__name__: c for c in made}


def image(png: bytes) -> np.ndarray:
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def test_android_phone(tmp_path: Path) -> None:
    (serial,) = need("DEVICEPILOT_TEST_ADB_SERIAL")
    parts = build([{"type": "adb", "params": {"serial": serial}}], tmp_path)
    remote, screen, verifier = parts["AndroidRemote"], parts["AdbScreen"], parts["UiElementVerifier"]
    w, h = remote.client.screen_size()
    shot = image(screen.screenshot())
    assert sorted(shot.shape[:2]) == sorted((w, h))
    remote.execute("press_key", {"key": "HOME"})
    remote.execute("launch_app", {"package": "com.android.settings"})
    verifier.execute("wait_for_element", {"selector": "//node[@package='com.android.settings']",
                                                "timeout": 10})
    assert json.loads(remote.execute("dump_elements", {}))
    remote.execute("swipe", {"x1": 0.5, "y1": 0.8, "x2": 0.5, "y2": 0.3})
    remote.execute("close_app", {"package": "com.android.settings"})
    remote.execute("press_key", {"key": "HOME"})


def test_android_tv(tmp_path: Path) -> None:
    (serial,) = need("DEVICEPILOT_TEST_TV_SERIAL")
    parts = build([{"type": "android_tv", "params": {"serial": serial, "key_delay": 0.3}}], tmp_path)
    remote = parts["AndroidTvRemote"]
    remote.execute("press_key", {"key": "HOME"})
    before = remote.execute("get_focused_element", {})
    assert before != "nothing has the focus"
    remote.execute("press_key", {"key": "RIGHT"})
    remote.execute("press_key", {"key": "LEFT"})
    image(parts["AdbScreen"].screenshot())
    remote.execute("launch_app", {"package": "com.android.tv.settings"})
    parts["UiElementVerifier"].execute("wait_for_element", {
        "selector": "//node[@package='com.android.tv.settings']", "timeout": 10})
    remote.execute("press_key", {"key": "HOME"})


def test_appium_phone(tmp_path: Path) -> None:
    (url,) = need("DEVICEPILOT_TEST_APPIUM_URL")
    caps = {"udid": os.environ["DEVICEPILOT_TEST_APPIUM_UDID"]} if os.environ.get("DEVICEPILOT_TEST_APPIUM_UDID") \
        else {}
    parts = build([{"type": "appium", "params": {"server_url": url, "capabilities": caps}}], tmp_path)
    try:
        remote = parts["AppiumRemote"]
        remote.execute("press_key", {"key": "HOME"})
        image(parts["AppiumScreen"].screenshot())
        remote.execute("launch_app", {"package": "com.android.settings"})
        assert json.loads(remote.execute("dump_elements", {}))
        remote.execute("press_key", {"key": "HOME"})
    finally:
        parts["AppiumScreen"].close()


def test_ir_set_top_box_with_capture(tmp_path: Path) -> None:
    remote_name, device = need("DEVICEPILOT_TEST_IR_REMOTE", "DEVICEPILOT_TEST_CAPTURE_DEVICE")
    parts = build([{"type": "ir", "params": {"remote": remote_name}},
                   {"type": "hdmi", "params": {"device": device}},
                   {"type": "video"}], tmp_path)
    before = image(parts["CaptureScreen"].screenshot())
    parts["IrRemote"].execute("press_key", {"key": "MENU"})
    parts["VideoVerifier"].execute("wait_for_black_screen", {"present": False, "timeout": 10})
    after = image(parts["CaptureScreen"].screenshot())
    assert before.shape == after.shape
    parts["IrRemote"].execute("press_key", {"key": "BACK"})

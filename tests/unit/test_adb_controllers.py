"""The adb phone and TV controllers against the adb shim (tests/fakes/adb) on PATH."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from backend_core.controllers.adb import AdbClient
from backend_core.controllers.android_tv import AndroidTvRemote
from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.verifications.ui_elements import UiElementVerifier
from shared.errors import ConfigError, ControllerError, DeviceFailure, RequestError, VerificationFailed
from tests.fakes import FakeAdb


def build(device_type: str, serial: str, tmp_path: Path) -> dict[str, object]:
    made = build_controllers([{"type": device_type, "params": {"serial": serial, "key_delay": 0}}],
                             BuildContext(serial, tmp_path))
    return {type(c).__name__: c for c in made}


def test_phone_declares_its_commands_once(fake_adb: FakeAdb, tmp_path: Path) -> None:
    parts = build("adb", "phone-1", tmp_path)
    assert set(parts) == {"AndroidRemote", "AdbScreen", "UiElementVerifier"}
    names = {c.name for c in parts["AndroidRemote"].commands()}
    assert names == {"press_key", "input_text", "launch_app", "close_app", "dump_elements", "tap", "swipe", "go_back",
                     "click_element"}
    close = next(c for c in parts["AndroidRemote"].commands() if c.name == "close_app")
    assert close.destructive
    click = next(c for c in parts["AndroidRemote"].commands() if c.name == "click_element")
    assert [p.name for p in click.params] == ["text", "role", "selector", "row", "index", "id"]
    assert "go_back" in {c.name for c in parts["AndroidRemote"].commands()}
    assert "desc:" in click.param("selector").description


def test_tap_and_swipe_are_screen_fractions(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    assert "(540, 960) px" in remote.execute("tap", {"x": 0.5, "y": 0.5})
    remote.execute("swipe", {"x1": 0.5, "y1": 0.8, "x2": 0.5, "y2": 0.2})
    calls = fake_adb.calls("phone-1")
    assert ["wm", "size"] in calls
    assert ["input", "tap", "540", "960"] in calls
    assert ["input", "swipe", "540", "1536", "540", "384", "300"] in calls
    with pytest.raises(RequestError):
        remote.execute("tap", {"x": 1.5, "y": 0.5})


def test_click_element_taps_the_centre_of_its_bounds_and_the_screen_changes(fake_adb: FakeAdb,
                                                                            tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    message = remote.execute("click_element", {"text": "settings"})
    assert "(900, 1520)" in message
    assert ["input", "tap", "900", "1520"] in fake_adb.calls("phone-1")
    assert fake_adb.screen("phone-1") == "settings"
    remote.execute("click_element", {"selector": "android:id/title", "index": 0})  # Wi-Fi is the first title
    assert fake_adb.screen("phone-1") == "wifi"
    remote.execute("click_element", {"selector": "desc:Navigate up"})
    assert fake_adb.screen("phone-1") == "settings"
    remote.execute("click_element", {"selector": "//node[@text='Battery']"})
    with pytest.raises(DeviceFailure) as failure:
        remote.execute("click_element", {"text": "Airplane mode"})
    assert "Wi-Fi" in str(failure.value)  # says what is on screen instead


def test_keys_map_to_android_keycodes(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    remote.execute("launch_app", {"package": "com.android.settings"})
    assert fake_adb.screen("phone-1") == "settings"
    remote.execute("press_key", {"key": "back"})
    remote.execute("press_key", {"key": "KEYCODE_VOLUME_UP", "repeat": 2})
    remote.execute("press_key", {"key": "7"})
    keys = [c[2] for c in fake_adb.calls("phone-1") if c[:2] == ["input", "keyevent"]]
    assert keys == ["4", "24", "24", "14"]
    assert fake_adb.screen("phone-1") == "launcher"


def test_input_text_survives_the_device_shell(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    text = "it's 5 & $HOME; `ls` \"quoted\""
    remote.execute("input_text", {"text": text, "selector": "com.android.launcher3:id/search_box"})
    state = fake_adb.state("phone-1")
    assert list(state["typed"].values()) == [text]
    tree = AdbClient("phone-1").dump_ui()
    assert tree.find(selector="search_box")[0].text == text


def test_input_text_by_field_name_replaces_unless_asked_to_append(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    remote.execute("input_text", {"text": "wifi", "field": "Search apps"})   # by content-desc
    remote.execute("input_text", {"text": "maps", "field": "Search apps"})   # replaces: no "wifimaps"
    field = lambda: AdbClient("phone-1").dump_ui().find(selector="search_box")[0].text  # noqa: E731
    assert field() == "maps"
    remote.execute("input_text", {"text": "go", "field": "Search apps", "clear": False, "submit": True})
    assert field() == "mapsgo"
    remote.execute("input_text", {"text": "x"})  # the focused field, cleared first
    assert field() == "x"


def test_click_by_role_and_row_and_go_back(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    remote.execute("click_element", {"role": "button", "text": "Settings"})
    assert fake_adb.screen("phone-1") == "settings"
    remote.execute("click_element", {"role": "button", "index": 1})  # Navigate up is the first button
    assert fake_adb.screen("phone-1") == "wifi"
    with pytest.raises(DeviceFailure, match="no element switch 'Bluetooth'"):
        remote.execute("click_element", {"role": "switch", "text": "Bluetooth"})
    assert "went back" == remote.execute("go_back", {})
    assert fake_adb.screen("phone-1") == "settings"
    with pytest.raises(RequestError):
        remote.execute("click_element", {})


def test_apps_launch_by_monkey_or_activity_and_close(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    assert remote.execute("launch_app", {"package": "com.android.settings", "activity": ".Settings"}) == \
        "started com.android.settings/.Settings"
    assert ["am", "start", "-W", "-n", "com.android.settings/.Settings"] in fake_adb.calls("phone-1")
    remote.execute("close_app", {"package": "com.android.settings"})
    assert fake_adb.screen("phone-1") == "launcher"
    remote.execute("launch_app", {"package": "com.android.settings"})
    assert ["monkey", "-p", "com.android.settings", "-c", "android.intent.category.LAUNCHER", "1"] in \
        fake_adb.calls("phone-1")
    with pytest.raises(DeviceFailure, match="not installed"):
        remote.execute("launch_app", {"package": "com.example.missing"})
    with pytest.raises(DeviceFailure, match="does not exist"):
        remote.execute("launch_app", {"package": "com.example.missing", "activity": ".Main"})
    with pytest.raises(RequestError):
        remote.execute("launch_app", {"package": "settings; reboot"})


def test_screenshot_is_the_current_screen(fake_adb: FakeAdb, tmp_path: Path) -> None:
    parts = build("adb", "phone-1", tmp_path)
    png = parts["AdbScreen"].screenshot()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (1920, 1080, 3)
    parts["AndroidRemote"].execute("click_element", {"text": "Settings"})
    assert parts["AdbScreen"].screenshot() != png
    assert ["screencap", "-p"] in fake_adb.calls("phone-1")


def test_dump_elements_lists_named_elements(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-1", tmp_path)["AndroidRemote"]
    remote.execute("launch_app", {"package": "com.android.settings"})
    screen = json.loads(remote.execute("dump_elements", {}))
    assert screen["platform"] == "android" and screen["url"] == "app://com.android.settings"
    wifi = next(e for e in screen["elements"] if e.get("name") == "Wi-Fi")
    assert wifi["selector"] == "android:id/title" and wifi["box"] == [60, 300, 960, 140] and wifi["clickable"]
    assert wifi["role"] == "button" and wifi["hint"] == "title"
    up = next(e for e in screen["elements"] if e.get("name") == "Navigate up")
    assert up["role"] == "button" and up["selector"] == "desc:Navigate up"
    title = next(e for e in screen["elements"] if e.get("text") == "Settings")
    assert title["role"] == "text" and "clickable" not in title


def test_element_verifier_passes_and_fails_with_a_screenshot(fake_adb: FakeAdb, tmp_path: Path) -> None:
    parts = build("adb", "phone-1", tmp_path)
    verifier: UiElementVerifier = parts["UiElementVerifier"]
    with pytest.raises(VerificationFailed) as failure:
        verifier.execute("wait_for_element", {"text": "Wi-Fi", "timeout": 0.3})
    assert failure.value.screenshot[:4] == b"\x89PNG" and "Settings" in str(failure.value)
    assert "Wi-Fi" in failure.value.expected
    parts["AndroidRemote"].execute("click_element", {"text": "Settings"})
    assert "shown: 1 match(es): button 'Wi-Fi'" in verifier.execute("wait_for_element", {"text": "Wi-Fi"})
    verifier.execute("wait_for_element", {"selector": "android:id/title", "text": "Bluetooth"})
    verifier.execute("wait_for_element", {"present": False, "text": "Play Store", "timeout": 1})
    with pytest.raises(VerificationFailed):
        verifier.execute("wait_for_element", {"present": False, "text": "Wi-Fi", "timeout": 0.2})


def test_broken_rig_is_a_controller_error(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("adb", "phone-2", tmp_path)["AndroidRemote"]
    fake_adb.set_state("phone-2", offline=True)
    with pytest.raises(ControllerError, match="offline"):
        remote.execute("press_key", {"key": "HOME"})
    with pytest.raises(ControllerError, match="not found"):
        AdbClient("no-such-serial").state()
    with pytest.raises(ControllerError, match="not found"):
        AdbClient("phone-1", adb_path=str(tmp_path / "missing-adb")).state()
    with pytest.raises(ConfigError, match="serial"):
        build("adb", "", tmp_path)


def test_tv_click_walks_the_focus_with_the_dpad(fake_adb: FakeAdb, tmp_path: Path) -> None:
    parts = build("android_tv", "tv-1", tmp_path)
    remote: AndroidTvRemote = parts["AndroidTvRemote"]
    names = {c.name for c in remote.commands()}
    assert {"click_element", "get_focused_element", "press_key", "launch_app"} <= names
    assert "tap" not in names and "swipe" not in names
    assert json.loads(remote.execute("get_focused_element", {}))["text"] == "YouTube"
    message = remote.execute("click_element", {"text": "Settings"})
    assert message == "selected 'Settings' (RIGHT RIGHT, OK)"
    keys = [c[2] for c in fake_adb.calls("tv-1") if c[:2] == ["input", "keyevent"]]
    assert keys == ["22", "22", "23"]
    assert fake_adb.screen("tv-1") == "settings"
    assert json.loads(remote.execute("get_focused_element", {}))["text"] == "Wi-Fi"
    remote.execute("click_element", {"text": "Remotes & Accessories"})  # four DOWN presses, then OK
    remote.execute("press_key", {"key": "HOME"})
    remote.execute("click_element", {"text": "Photos"})  # diagonal: DOWN then RIGHT (or RIGHT then DOWN)
    assert json.loads(remote.execute("get_focused_element", {}))["text"] == "Photos"
    remote.execute("press_key", {"key": "HOME"})
    remote.execute("click_element", {"role": "button", "text": "Settings"})  # the tile, by role and name
    assert fake_adb.screen("tv-1") == "settings"
    assert remote.execute("go_back", {}) == "went back"  # BACK on the remote
    assert fake_adb.screen("tv-1") == "home"


def test_tv_launch_prefers_leanback_and_unknown_targets_fail(fake_adb: FakeAdb, tmp_path: Path) -> None:
    remote = build("android_tv", "tv-1", tmp_path)["AndroidTvRemote"]
    remote.execute("launch_app", {"package": "com.android.tv.settings"})
    assert ["monkey", "-p", "com.android.tv.settings", "-c", "android.intent.category.LEANBACK_LAUNCHER", "1"] \
        in fake_adb.calls("tv-1")
    assert fake_adb.screen("tv-1") == "settings"
    with pytest.raises(DeviceFailure, match="no element"):
        remote.execute("click_element", {"text": "Netflix"})

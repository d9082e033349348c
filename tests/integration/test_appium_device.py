"""A phone behind a real Appium server (npm ``appium`` with ``@appium/fake-driver``), end to end.

The Appium server comes from ``scripts/install-appium.sh`` (run here if needed)
and is started on a free loopback port for this module. If it cannot be
installed or started, the tests fail and say why — they never skip.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from pathlib import Path
from typing import Iterator

import pytest
import requests

from backend_core.controllers.appium import AppiumRemote
from backend_core.controllers.registry import BuildContext, build_controllers
from shared.errors import ControllerError, DeviceFailure, RequestError, VerificationFailed
from tests.fakes import FIXTURES
from tests.stack import ROOT, Stack, free_port, wait_for

pytestmark = pytest.mark.integration

APPIUM_HOME = Path(os.environ.get("APPIUM_HOME") or ROOT / ".appium")
APPIUM = APPIUM_HOME / "node_modules" / ".bin" / "appium"
INSTALL = ROOT / "scripts" / "install-appium.sh"
HOST_CONFIG = FIXTURES / "appium" / "appium-host.yaml"
FAKE_APP = FIXTURES / "appium" / "settings-app.xml"
CAPABILITIES = {"platformName": "Fake", "automationName": "Fake", "deviceName": "Fake", "app": str(FAKE_APP)}


class AppiumServer:
    def __init__(self, url: str, proc: subprocess.Popen, log: Path) -> None:
        self.url, self.proc, self.log = url, proc, log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@pytest.fixture(scope="module")
def appium_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppiumServer]:
    env = {**os.environ, "APPIUM_HOME": str(APPIUM_HOME)}
    try:
        install = subprocess.run(["bash", str(INSTALL)], env=env, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{INSTALL} did not finish within 15 minutes")
    if install.returncode != 0 or not APPIUM.exists():
        pytest.fail(f"Appium could not be installed by {INSTALL} (needs node >= 20.19, npm and the npm "
                    f"registry):\n{install.stdout[-2000:]}\n{install.stderr[-2000:]}")
    folder = tmp_path_factory.mktemp("appium")
    port = free_port()
    log = folder / "appium.log"
    proc = subprocess.Popen([str(APPIUM), "--address", "127.0.0.1", "--port", str(port), "--log-no-colors",
                             "--log-level", "info", "--log", str(log)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT, start_new_session=True)
    server = AppiumServer(f"http://127.0.0.1:{port}", proc, log)
    try:
        def ready() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"Appium exited with status {proc.returncode}:\n{server.log_text()[-2000:]}")
            return requests.get(server.url + "/status", timeout=2).json()["value"]["ready"]

        wait_for(ready, 90, "Appium /status")
        yield server
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def appium_stack(appium_server: AppiumServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    stack = Stack.start(tmp_path_factory.mktemp("appium-stack"), configs=[HOST_CONFIG],
                        extra_env={"DEVICEPILOT_APPIUM_URL": appium_server.url}, wait_devices=["appium-phone"])
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def appium_device(appium_server: AppiumServer, tmp_path: Path) -> Iterator[dict[str, object]]:
    made = build_controllers([{"type": "appium", "params": {"server_url": appium_server.url,
                                                              "capabilities": CAPABILITIES}}],
                             BuildContext("appium-direct", tmp_path))
    parts = {type(c).__name__: c for c in made}
    try:
        yield parts
    finally:
        parts["AppiumScreen"].close()


def test_settings_task_plans_and_passes_through_server_and_host(appium_stack: Stack,
                                                                appium_server: AppiumServer) -> None:
    run = appium_stack.run("open settings and check Wi-Fi is shown", device="appium-phone")
    assert run["status"] == "passed", (run, appium_stack.tail_logs())
    assert run["planner"] == "builtin"
    assert [s["command"] for s in run["steps"]] == ["goto", "wait_for_element"]
    assert run["steps"][1]["params"]["text"] == "Wi-Fi"
    assert run["steps"][0]["screenshot"] is None   # the check and the end carry one (JPEG); the goto needs none
    assert Path(run["steps"][1]["screenshot"]).read_bytes()[:3] == b"\xff\xd8\xff"
    log = appium_server.log_text()  # the server's HTTP log: the host clicked and read the page source
    assert re.search(r"POST /session/\S+/element/\S+/click", log) and re.search(r"GET /session/\S+/source", log)


def test_commands_reach_the_appium_server(appium_device: dict[str, object], appium_server: AppiumServer) -> None:
    remote: AppiumRemote = appium_device["AppiumRemote"]
    assert remote.key_strategy == "w3c"  # not Android: keys go as W3C key actions
    assert remote.execute("click_element", {"selector": "android:id/title", "index": 1}) == \
        "clicked android:id/title #1"
    assert remote.execute("click_element", {"selector": "desc:Settings"}) == "clicked desc:Settings"
    w, h = remote.window()  # fractions become pixels of the window the server reports
    assert f"({round(w * 0.5)}, {round(h * 0.25)}) px" in remote.execute("tap", {"x": 0.5, "y": 0.25})
    remote.execute("press_key", {"key": "down", "repeat": 2})
    remote.execute("input_text", {"text": "wifi", "selector": "com.android.launcher3:id/search_box"})
    actions = remote.session.call(lambda d: d.get_log("actions"), "action log")
    kinds = [seq["type"] for batch in actions for seq in batch]
    assert "pointer" in kinds and "key" in kinds
    screen = json.loads(remote.execute("dump_elements", {}))
    names = {e.get("name") for e in screen["elements"]}
    assert {"Wi-Fi", "Bluetooth", "Settings"} <= names
    assert "Airplane mode" not in names  # visible="false"
    field = next(e for e in screen["elements"] if e["role"] == "textbox")
    assert field["name"] == "Search apps" and field["selector"] == "com.android.launcher3:id/search_box"
    with pytest.raises(RequestError):
        remote.execute("press_key", {"key": "VOLUME_UP"})  # no W3C key for it


def test_role_row_field_and_back(appium_device: dict[str, object], appium_server: AppiumServer) -> None:
    remote: AppiumRemote = appium_device["AppiumRemote"]
    assert remote.execute("click_element", {"role": "button", "text": "Bluetooth"}).startswith("clicked 'Bluetooth'")
    remote.execute("input_text", {"text": "maps", "field": "Search apps"})
    remote.execute("input_text", {"text": "wifi", "field": "Search apps"})  # replaces what was there
    log = appium_server.log_text()  # the fake driver's page source is static: read what the server was asked
    assert len(re.findall(r"POST /session/\S+/element/\S+/clear", log)) >= 2
    assert re.search(r"POST /session/\S+/element/\S+/value", log)
    with pytest.raises(DeviceFailure, match="no element switch"):
        remote.execute("click_element", {"role": "switch"})
    with pytest.raises(ControllerError, match="back"):  # the fake driver has no Back: it says so
        remote.execute("go_back", {})


def test_element_verifier_reads_the_page_source(appium_device: dict[str, object]) -> None:
    verifier = appium_device["UiElementVerifier"]
    assert verifier.execute("wait_for_element", {"selector": "android:id/title", "text": "bluetooth"}) == \
        "element 'bluetooth' matching android:id/title shown: 1 match(es): button 'Bluetooth' in the Appium page source"
    with pytest.raises(VerificationFailed) as failure:
        verifier.execute("wait_for_element", {"text": "Airplane mode", "timeout": 0.5})
    assert failure.value.screenshot[:4] == b"\x89PNG"
    verifier.execute("wait_for_element", {"present": False, "text": "Airplane mode", "timeout": 0.5})


def test_failures_and_errors_are_translated(appium_device: dict[str, object], tmp_path: Path) -> None:
    remote: AppiumRemote = appium_device["AppiumRemote"]
    with pytest.raises(DeviceFailure, match="no element 'Airplane mode x'"):
        remote.execute("click_element", {"text": "Airplane mode x"})
    with pytest.raises(DeviceFailure, match="refused"):
        remote.execute("input_text", {"text": "x", "selector": "//*[@text='Wi-Fi']"})  # not a text field
    with pytest.raises(ControllerError, match="activateApp"):
        remote.execute("launch_app", {"package": "com.android.settings"})  # the fake driver has no apps
    dead = build_controllers([{"type": "appium", "params": {"server_url": f"http://127.0.0.1:{free_port()}",
                                                              "capabilities": CAPABILITIES}}],
                             BuildContext("nowhere", tmp_path))[0]
    with pytest.raises(ControllerError, match="cannot start an Appium session"):
        dead.execute("click_element", {"text": "Wi-Fi"})


def test_a_dead_session_is_recreated_once(appium_device: dict[str, object], appium_server: AppiumServer) -> None:
    remote: AppiumRemote = appium_device["AppiumRemote"]
    remote.execute("click_element", {"text": "Wi-Fi"})
    first = remote.session.session_id
    assert requests.delete(f"{appium_server.url}/session/{first}", timeout=10).ok
    assert remote.execute("click_element", {"text": "Wi-Fi"}) == "clicked 'Wi-Fi'"
    assert remote.session.session_id != first and remote.session.sessions_created == 2

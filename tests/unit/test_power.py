"""The power controller: a real HTTP switch on loopback, and command lines."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from backend_core.controllers.power import SwitchedPower
from backend_core.controllers.registry import BuildContext, build_controllers
from shared.errors import ConfigError, ControllerError
from tests.stack import free_port


class Outlet(BaseHTTPRequestHandler):
    """A smart plug: POST /outlet/on|off switches it; anything else is 404."""

    calls: list[tuple[str, str]] = []

    def _answer(self) -> None:
        Outlet.calls.append((self.command, self.path))
        ok = self.path in ("/outlet/on", "/outlet/off")
        self.send_response(200 if ok else 404)
        self.end_headers()
        self.wfile.write(b"ok" if ok else b"no such outlet")

    do_POST = do_GET = _answer

    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass


@pytest.fixture
def outlet() -> Iterator[str]:
    Outlet.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Outlet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def power(tmp_path: Path, **params: object) -> SwitchedPower:
    made = build_controllers([{"type": "power", "params": params}], BuildContext("dut", tmp_path))
    assert isinstance(made[0], SwitchedPower)
    return made[0]


def test_http_switch(outlet: str, tmp_path: Path) -> None:
    p = power(tmp_path, switch_on=f"{outlet}/outlet/on", switch_off=f"{outlet}/outlet/off")
    assert p.execute("power_on", {}).endswith("-> 200)")
    p.execute("power_cycle", {"off_seconds": 0})
    assert Outlet.calls == [("POST", "/outlet/on"), ("POST", "/outlet/off"), ("POST", "/outlet/on")]
    assert {c.name: c.destructive for c in p.commands()} == {"power_on": False, "power_off": True,
                                                              "power_cycle": True}


def test_http_errors(outlet: str, tmp_path: Path) -> None:
    with pytest.raises(ControllerError, match="404 no such outlet"):
        power(tmp_path, switch_on=f"{outlet}/outlet/9/on", switch_off=f"{outlet}/outlet/off",
              method="get").execute("power_on", {})
    with pytest.raises(ControllerError, match="failed"):
        power(tmp_path, switch_on=f"http://127.0.0.1:{free_port()}/on", switch_off="true",
              timeout=2).execute("power_on", {})


def test_command_switch(tmp_path: Path) -> None:
    log = tmp_path / "switch.log"
    p = power(tmp_path, switch_on=f"sh -c 'echo on >> {log}'", switch_off=f"sh -c 'echo off >> {log}'")
    p.execute("power_off", {})
    p.execute("power_on", {})
    assert log.read_text().split() == ["off", "on"]
    with pytest.raises(ControllerError, match="exited 3: relay stuck"):
        power(tmp_path, switch_on="sh -c 'echo relay stuck >&2; exit 3'", switch_off="true").execute("power_on", {})
    with pytest.raises(ControllerError, match="not found"):
        power(tmp_path, switch_on="no-such-switch-tool on", switch_off="true").execute("power_on", {})


def test_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="params.switch_on and params.switch_off"):
        power(tmp_path, switch_on="true")
    with pytest.raises(ConfigError, match="method"):
        power(tmp_path, switch_on="http://x/on", switch_off="http://x/off", method="DELETE")

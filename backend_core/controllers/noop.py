"""``noop``: a remote that drives nothing, for load tests and the dispatch benchmark.

It speaks to no device, so what a run of it costs is the stack's own work: the
server's queue and records, the wire, the host's executors. ``press_key`` and
``noop`` answer at once; ``delay_ms`` makes every command take that long, as a
stand-in for a device's own time.
"""
from __future__ import annotations

import time
from typing import Any

from backend_core.controllers.base import Controller, RemoteController
from backend_core.controllers.registry import BuildContext, register_controller
from shared.commands import P, ParamType, command


class NoopRemote(RemoteController):
    def __init__(self, delay_ms: float = 0.0) -> None:
        self.delay_s = max(0.0, delay_ms) / 1000
        self.count = 0

    def _act(self) -> None:
        self.count += 1
        if self.delay_s:
            time.sleep(self.delay_s)

    @command("Do nothing (a load-test step)")
    def noop(self) -> str:
        self._act()
        return "nothing done"

    @command("Press a remote key (nothing is pressed)", P("key", ParamType.KEY, required=True))
    def press_key(self, key: str) -> str:
        self._act()
        return f"pressed {key}"


@register_controller("noop")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    return [NoopRemote(float(params.get("delay_ms", 0)))]

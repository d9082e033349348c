"""How the explorer talks to a device: observe, execute one command, take a screenshot."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

from shared.commands import CommandSpec
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)


class DeviceLink(Protocol):
    """What the explorer needs from a device; :class:`ApiLink` is the real one, tests bring fakes."""

    device_id: str

    def commands(self) -> dict[str, CommandSpec]: ...

    def observe(self) -> ScreenObservation: ...

    def execute(self, command: str, params: dict[str, Any]) -> dict[str, Any]: ...

    def screenshot(self) -> bytes | None: ...


@dataclass
class ApiLink:
    """A device behind a devicepilot server, through :class:`devicepilot.client.ApiClient`."""

    client: Any
    device_id: str

    @property
    def _base(self) -> str:
        return f"/api/devices/{quote(self.device_id, safe='')}"

    def commands(self) -> dict[str, CommandSpec]:
        ctx = self.client.get(self._base + "/context")
        specs: dict[str, CommandSpec] = {}
        for part in ("action", "verification"):
            for raw in (ctx.get(part) or {}).get("commands") or []:
                spec = CommandSpec.from_dict(raw)
                specs[spec.name] = spec
        return specs

    def observe(self) -> ScreenObservation:
        return ScreenObservation.from_dict(self.client.get(self._base + "/screen"))

    def execute(self, command: str, params: dict[str, Any]) -> dict[str, Any]:
        return self.client.post(self._base + "/execute", {"command": command, "params": params})

    def screenshot(self) -> bytes | None:
        resp = self.client.http.get(self.client.base_url + self._base + "/screenshot", timeout=self.client.timeout)
        return resp.content if resp.status_code == 200 else None

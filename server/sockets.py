"""Socket.IO namespaces: ``/host`` for lab hosts, ``/dashboard`` for browsers."""
from __future__ import annotations

import logging
from typing import Any

from flask import request
from flask_socketio import Namespace

from shared.config import Secret
from shared.errors import DevicePilotError
from shared.protocol import DASHBOARD_NS, HOST_NS

log = logging.getLogger(__name__)


class HostNamespace(Namespace):
    def __init__(self, dp: Any) -> None:
        super().__init__(HOST_NS)
        self.dp = dp

    def on_connect(self, auth: Any = None) -> bool:
        token = Secret((auth or {}).get("token") if isinstance(auth, dict) else None)
        if not token or token != self.dp.settings.ensure_host_token():
            log.warning("refused a host connection from %s: bad or missing host token", request.remote_addr)
            return False
        log.info("host connection from %s (sid %s)", request.remote_addr, request.sid)
        return True

    def on_disconnect(self, reason: Any = None) -> None:
        host_id = self.dp.lab.disconnect(request.sid)
        if host_id:
            self.dp.runs.on_host_lost(host_id)

    def on_register(self, data: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = self.dp.lab.register(request.sid, data)
            self.dp.ai.note_registration((data or {}).get("devices"))
            return reply
        except (DevicePilotError, KeyError, TypeError) as exc:
            log.error("bad registration: %s", exc)
            return {"ok": False, "error": str(exc)}

    def on_goodbye(self, data: dict[str, Any]) -> dict[str, Any]:
        self.dp.lab.leaving(request.sid)
        return {"ok": True}

    def on_heartbeat(self, data: dict[str, Any]) -> None:
        self.dp.lab.heartbeat(request.sid)

    def on_step_result(self, data: dict[str, Any]) -> None:
        self.dp.runs.on_step(self.dp.lab.host_of_sid(request.sid), data)

    def on_run_finished(self, data: dict[str, Any]) -> None:
        self.dp.runs.on_finished(self.dp.lab.host_of_sid(request.sid), data)


class DashboardNamespace(Namespace):
    """Dashboards receive run, step and lab events; watching a device starts its live screen."""

    def __init__(self, dp: Any) -> None:
        super().__init__(DASHBOARD_NS)
        self.dp = dp

    def on_connect(self, auth: Any = None) -> bool:
        return True

    def on_disconnect(self, *_: Any) -> None:
        self.dp.live.unwatch_all(request.sid)

    def on_watch_device(self, data: dict[str, Any]) -> dict[str, Any]:
        device_id = str((data or {}).get("device_id", ""))
        self.dp.live.watch(request.sid, device_id)
        return {"ok": True}

    def on_unwatch_device(self, data: dict[str, Any]) -> dict[str, Any]:
        self.dp.live.unwatch(request.sid, str((data or {}).get("device_id", "")))
        return {"ok": True}

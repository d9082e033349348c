"""Socket.IO namespaces: ``/host`` for lab hosts, ``/dashboard`` for browsers."""
from __future__ import annotations

import logging
from typing import Any

from flask import request
from flask_login import current_user
from flask_socketio import Namespace

from server.host_tokens import HostIdentity
from shared.errors import DevicePilotError
from shared.protocol import DASHBOARD_NS, HOST_NS, PROTOCOL_VERSION

log = logging.getLogger(__name__)


class HostNamespace(Namespace):
    """Lab hosts. A connection proves a token (the shared one, or a host's own); what it may do follows.

    A host-bound token registers only its own host id; the shared token registers any
    host id that has no token of its own. Devices held by another connected host are
    refused at registration (see :meth:`server.lab.Lab.register`), and step results and
    run ends are accepted only for the host's own running run (see ``RunService.on_step``).
    """

    def __init__(self, dp: Any) -> None:
        super().__init__(HOST_NS)
        self.dp = dp
        self._identity: dict[str, HostIdentity] = {}

    def on_connect(self, auth: Any = None) -> bool:
        raw = (auth or {}).get("token") if isinstance(auth, dict) else None
        identity = self.dp.host_tokens.identify(raw if isinstance(raw, str) else "",
                                                self.dp.settings.ensure_host_token().reveal())
        if identity is None:
            log.warning("refused a host connection from %s: bad or missing host token", request.remote_addr)
            return False
        self._identity[request.sid] = identity
        log.info("host connection from %s (sid %s, %s)", request.remote_addr, request.sid,
                 "shared token" if identity.shared else f"token {identity.token_id} of host {identity.host_id}")
        return True

    def on_disconnect(self, reason: Any = None) -> None:
        self._identity.pop(request.sid, None)
        host_id = self.dp.lab.disconnect(request.sid)
        if host_id:
            self.dp.runs.on_host_lost(host_id)

    def _may_speak_for(self, sid: str, host_id: Any) -> str:
        """'' when the connection on *sid* may register as *host_id*; else why not."""
        identity = self._identity.get(sid)
        if identity is None:
            return "the connection did not authenticate"
        if not identity.shared:
            return "" if identity.host_id == host_id else f"its token belongs to host {identity.host_id!r}"
        if isinstance(host_id, str) and self.dp.host_tokens.has_own_token(host_id):
            return f"host {host_id!r} has a token of its own; the shared token cannot speak for it"
        return ""

    def on_register(self, data: Any) -> dict[str, Any]:
        host = data.get("host") if isinstance(data, dict) else None
        host_id = host.get("id") if isinstance(host, dict) else None
        why = self._may_speak_for(request.sid, host_id)
        spoken = data.get("protocol") if isinstance(data, dict) else None
        if not why and spoken != PROTOCOL_VERSION:
            why = (f"it speaks protocol {spoken if spoken is not None else 'v1 (unversioned)'}, this server speaks "
                   f"{PROTOCOL_VERSION}: run the same devicepilot version on hosts and server")
        if why:
            log.warning("refused registration of host %r from %s: %s", str(host_id)[:64], request.remote_addr, why)
            return {"ok": False, "error": f"registration refused: {why}"}
        try:
            reply = self.dp.lab.register(request.sid, data)
            self.dp.ai.note_registration((data or {}).get("devices"))
            # the runs the host is executing: reconcile them, then start what waits for its devices
            self.dp.runs.spawn(self.dp.runs.on_host_registered, host_id, (data or {}).get("runs"))
            return reply
        except (DevicePilotError, KeyError, TypeError) as exc:
            log.error("bad registration: %s", exc)
            return {"ok": False, "error": str(exc)}

    def on_goodbye(self, data: Any = None) -> dict[str, Any]:
        self.dp.lab.leaving(request.sid)
        return {"ok": True}

    def on_heartbeat(self, data: Any = None) -> None:
        identity = self._identity.get(request.sid)
        if identity is not None and identity.token_id is not None \
                and not self.dp.host_tokens.is_valid(identity.token_id):
            log.warning("host %s: its token %d was revoked; disconnecting it", identity.host_id, identity.token_id)
            self.disconnect(request.sid)
            return
        self.dp.lab.heartbeat(request.sid)
        host_id = self.dp.lab.host_of_sid(request.sid)
        if host_id:
            self.dp.runs.on_heartbeat(host_id)

    def on_step_result(self, data: Any) -> dict[str, Any]:
        """The reply acknowledges the step (the host then forgets it), or tells the host to abort the run."""
        return self.dp.runs.on_step(self.dp.lab.host_of_sid(request.sid), data)

    def on_run_finished(self, data: Any) -> dict[str, Any]:
        return self.dp.runs.on_finished(self.dp.lab.host_of_sid(request.sid), data)


MAX_WATCHED_DEVICES = 8
"""How many live screens one dashboard connection may watch at once."""


class DashboardNamespace(Namespace):
    """Dashboards receive run, step and lab events; watching a device starts its live screen.

    Connecting needs a logged-in dashboard session (the cookie) or ``auth={"token": <API token>}``;
    anyone else is refused. A connection watches at most :data:`MAX_WATCHED_DEVICES` known devices.
    """

    def __init__(self, dp: Any) -> None:
        super().__init__(DASHBOARD_NS)
        self.dp = dp
        self._user: dict[str, Any] = {}
        self._watched: dict[str, set[str]] = {}

    def on_connect(self, auth: Any = None) -> bool:
        user = current_user if getattr(current_user, "is_authenticated", False) else None
        token = auth.get("token") if isinstance(auth, dict) else None
        if user is None and isinstance(token, str):
            user = self.dp.users.by_token(token)
        if user is None:
            log.warning("refused a dashboard connection from %s: not logged in", request.remote_addr)
            return False
        self._user[request.sid] = user
        self._watched[request.sid] = set()
        self.dp.extras["audience"].add(1)
        return True

    def on_disconnect(self, *_: Any) -> None:
        if self._user.pop(request.sid, None) is not None:
            self.dp.extras["audience"].add(-1)
        self._watched.pop(request.sid, None)
        self.dp.live.unwatch_all(request.sid)

    def on_watch_device(self, data: Any) -> dict[str, Any]:
        device_id = data.get("device_id") if isinstance(data, dict) else None
        watched = self._watched.get(request.sid)
        if watched is None:
            return {"ok": False, "error": "not logged in"}
        if not isinstance(device_id, str) or not device_id or len(device_id) > 64:
            return {"ok": False, "error": "send {device_id: <id of a device>}"}
        if device_id not in watched:
            if len(watched) >= MAX_WATCHED_DEVICES:
                return {"ok": False, "error": f"a dashboard watches at most {MAX_WATCHED_DEVICES} devices at once; "
                                              "unwatch one first"}
            try:
                self.dp.lab.device(device_id)
            except DevicePilotError:
                return {"ok": False, "error": f"unknown device {device_id!r}"}
            watched.add(device_id)
        self.dp.live.watch(request.sid, device_id)
        return {"ok": True}

    def on_unwatch_device(self, data: Any) -> dict[str, Any]:
        device_id = str((data or {}).get("device_id", "")) if isinstance(data, dict) else ""
        self._watched.get(request.sid, set()).discard(device_id)
        self.dp.live.unwatch(request.sid, device_id)
        return {"ok": True}

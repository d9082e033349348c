"""The lab as the server sees it: connected hosts, their devices, and calls to them.

Hosts and devices are persisted; which Socket.IO session reaches which host is
process memory (a host re-registers whenever it reconnects).
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import func, select

from server.auth_models import DeviceAssignmentRow
from server.db import Database, DeviceRow, HostRow, TreeRow, utcnow
from server.guard import MAX_PLAN_STEPS
from shared.errors import HostUnavailable, NotFound, RequestError, error_from_wire
from shared.protocol import HOST_NS, HOST_STALE_AFTER_S, ServerEvent

log = logging.getLogger(__name__)


class DeviceState:
    ONLINE = "online"
    BUSY = "busy"
    OFFLINE = "offline"


@dataclass(frozen=True)
class DeviceRef:
    id: str
    host_id: str
    name: str
    model: str
    userinterface: str


class Lab:
    def __init__(self, db: Database, socketio: Any, call_timeout_s: float,
                 on_change: Callable[[], None] = lambda: None,
                 on_device_change: Callable[[str], None] = lambda device_id: None) -> None:
        self.db = db
        self.socketio = socketio
        self.call_timeout_s = call_timeout_s
        self.on_change = on_change                  # hosts came or went: the whole lab changed
        self.on_device_change = on_device_change    # one device changed (busy/free): O(1) per run
        self.scrub: Callable[[Any], Any] = lambda value: value   # secrets never travel to a host (server.guard_secrets)
        self._lock = threading.RLock()
        self._sid_of_host: dict[str, str] = {}
        self._host_of_sid: dict[str, str] = {}
        self._busy: set[str] = set()
        # the devices of hosts connected to this process, as they registered here: a run reads its device
        # several times, and only a registration (here, while its host is connected here) changes them
        self._refs: dict[str, DeviceRef] = {}
        self._leaving: set[str] = set()
        self.current_node: dict[str, str | None] = {}

    # -- registration ----------------------------------------------------------------
    def register(self, sid: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Record the host on *sid* and the devices it brings.

        A device an admin assigned to another host, or that another *connected*
        host holds, is refused (and the attempt logged): a host can never take
        over a device it does not own. The reply
        lists what was refused: ``{"ok": true, "host_id", "refused": [{"device", "reason"}]}``.
        """
        if not isinstance(payload, dict):
            raise RequestError("registration must be an object {host, devices}")
        host = payload.get("host") or {}
        host_id = host.get("id") if isinstance(host, dict) else None
        devices = payload.get("devices") or []
        if not isinstance(host_id, str) or not host_id or len(host_id) > 64:
            raise RequestError("registration without a valid host.id (1-64 characters)")
        if not isinstance(devices, list) or not all(isinstance(d, dict) and isinstance(d.get("id"), str)
                                                    and 0 < len(d["id"]) <= 64 for d in devices):
            raise RequestError("registration devices must be objects with an id of 1-64 characters")
        trees_to_push: list[dict[str, Any]] = []
        refused: list[dict[str, str]] = []
        registered: list[DeviceRef] = []
        with self._lock:
            old = self._sid_of_host.get(host_id)
            if old and old != sid:
                log.warning("host %s registered again from a new connection; the previous one is dropped", host_id)
            with self.db.session() as s:
                row = s.get(HostRow, host_id) or HostRow(id=host_id)
                row.name, row.status, row.last_seen = str(host.get("name") or host_id)[:200], "online", utcnow()
                s.add(row)
                for d in devices:
                    assigned = s.get(DeviceAssignmentRow, d["id"])
                    if assigned is not None and assigned.host_id != host_id:
                        log.warning("host %s tried to register device %s, which an admin assigned to host %s: refused",
                                    host_id, d["id"], assigned.host_id)
                        refused.append({"device": d["id"], "reason": f"assigned to host {assigned.host_id!r}"})
                        continue
                    dev = s.get(DeviceRow, d["id"])
                    if dev is not None and dev.host_id != host_id and dev.host_id in self._sid_of_host:
                        log.warning("host %s tried to register device %s, which connected host %s holds: refused",
                                    host_id, d["id"], dev.host_id)
                        refused.append({"device": d["id"], "reason": f"held by connected host {dev.host_id!r}"})
                        continue
                    dev = dev or DeviceRow(id=d["id"])
                    dev.host_id, dev.name, dev.model = host_id, str(d.get("name", d["id"])), str(d.get("model", ""))
                    dev.userinterface, dev.controllers = str(d.get("userinterface", "")), d.get("controllers", [])
                    dev.status, dev.updated_at = DeviceState.ONLINE, utcnow()
                    s.add(dev)
                    registered.append(DeviceRef(dev.id, host_id, dev.name, dev.model, dev.userinterface))
                    tree = d.get("navigation_tree")
                    if tree and isinstance(tree, dict):
                        pushed = self._sync_tree(s, dev.userinterface, tree)
                        if pushed is not None:
                            trees_to_push.append(pushed)
            if old and old != sid:
                self._host_of_sid.pop(old, None)
            self._sid_of_host[host_id] = sid
            self._host_of_sid[sid] = host_id
            self._refs.update((ref.id, ref) for ref in registered)
        log.info("host %s registered %d device(s)%s", host_id, len(devices) - len(refused),
                 f", {len(refused)} refused" if refused else "")
        for tree in trees_to_push:
            self.socketio.emit(ServerEvent.TREE_UPDATED, {"tree": tree}, namespace=HOST_NS, to=sid)
        self.on_change()
        return {"ok": True, "host_id": host_id, "refused": refused}

    def holder(self, host_id: str) -> str | None:
        """The connection (sid) through which *host_id* is online, if it is."""
        return self._sid_of_host.get(host_id)

    @staticmethod
    def _sync_tree(s: Any, ui: str, content: dict[str, Any]) -> dict[str, Any] | None:
        """Keep the host's tree as a version; return the server's tree when an edited one is newer."""
        latest = s.scalars(select(TreeRow).where(TreeRow.userinterface == ui)
                           .order_by(TreeRow.version.desc()).limit(1)).first()
        if latest is not None and latest.source == "dashboard":
            return latest.content if latest.content != content else None
        if latest is None or latest.content != content:
            version = (latest.version + 1) if latest else 1
            s.add(TreeRow(userinterface=ui, version=version, content=content, source="host"))
        return None

    def heartbeat(self, sid: str) -> None:
        host_id = self._host_of_sid.get(sid)
        if host_id:
            with self.db.session() as s:
                row = s.get(HostRow, host_id)
                if row:
                    row.last_seen, row.status = utcnow(), "online"

    def leaving(self, sid: str) -> None:
        """The host on *sid* said goodbye: its coming disconnect is deliberate."""
        with self._lock:
            self._leaving.add(sid)

    def disconnect(self, sid: str) -> str | None:
        with self._lock:
            clean = sid in self._leaving
            self._leaving.discard(sid)
            host_id = self._host_of_sid.pop(sid, None)
            if host_id and self._sid_of_host.get(host_id) == sid:
                del self._sid_of_host[host_id]
                for device_id in [d for d, ref in self._refs.items() if ref.host_id == host_id]:
                    del self._refs[device_id]
            else:
                return None
        with self.db.session() as s:
            row = s.get(HostRow, host_id)
            if row:
                row.status = "offline"
            for dev in s.scalars(select(DeviceRow).where(DeviceRow.host_id == host_id)):
                dev.status = DeviceState.OFFLINE
                self.current_node.pop(dev.id, None)
        log.log(logging.INFO if clean else logging.WARNING, "host %s disconnected%s", host_id,
                "" if clean else " unexpectedly")
        self.on_change()
        return host_id

    def host_of_sid(self, sid: str) -> str | None:
        return self._host_of_sid.get(sid)

    # -- devices ---------------------------------------------------------------------
    def device(self, device_id: str) -> DeviceRef:
        """The device; a device of a host connected here is known without reading the database."""
        ref = self._refs.get(device_id)
        if ref is not None and ref.host_id in self._sid_of_host:
            return ref
        with self.db.session() as s:
            dev = s.get(DeviceRow, device_id)
            if dev is None:
                known = ", ".join(s.scalars(select(DeviceRow.id)).all()) or "none"
                raise NotFound(f"unknown device {device_id!r}; known devices: {known}")
            return DeviceRef(dev.id, dev.host_id, dev.name, dev.model, dev.userinterface)

    def is_online(self, device_id: str) -> bool:
        """True when the device's host is connected to this server process (which can then call it)."""
        try:
            return self.device(device_id).host_id in self._sid_of_host
        except RequestError:
            return False

    def is_online_anywhere(self, device_id: str) -> bool:
        """True when the device's host is connected to any server sharing this database (scale-out)."""
        if self.is_online(device_id):
            return True
        with self.db.session() as s:
            dev = s.get(DeviceRow, device_id)
            host = s.get(HostRow, dev.host_id) if dev is not None else None
            fresh = host is not None and (utcnow() - host.last_seen).total_seconds() < HOST_STALE_AFTER_S
            return bool(dev is not None and dev.status != DeviceState.OFFLINE and fresh and host.status == "online")

    def set_busy(self, device_id: str, busy: bool) -> None:
        with self._lock:
            changed = (device_id in self._busy) != busy
            (self._busy.add if busy else self._busy.discard)(device_id)
        if changed:
            self.on_device_change(device_id)

    def state(self, device_id: str, host_id: str) -> str:
        if host_id not in self._sid_of_host:
            return DeviceState.OFFLINE
        return DeviceState.BUSY if device_id in self._busy else DeviceState.ONLINE

    def _device_dict(self, d: DeviceRow) -> dict[str, Any]:
        return {"id": d.id, "host_id": d.host_id, "name": d.name, "model": d.model,
                "userinterface": d.userinterface, "controllers": d.controllers,
                "status": self.state(d.id, d.host_id), "current_node": self.current_node.get(d.id)}

    def device_dict(self, device_id: str) -> dict[str, Any]:
        """One device with its live state: one row read, whatever the size of the lab."""
        with self.db.session() as s:
            d = s.get(DeviceRow, device_id)
            if d is None:
                raise NotFound(f"unknown device {device_id!r}")
            return self._device_dict(d)

    def snapshot(self) -> dict[str, Any]:
        """Hosts and devices with their live state, for the API and the dashboard."""
        with self.db.session() as s:
            hosts = s.scalars(select(HostRow).order_by(HostRow.id)).all()
            devices = s.scalars(select(DeviceRow).order_by(DeviceRow.id)).all()
            return {
                "hosts": [{"id": h.id, "name": h.name,
                           "status": "online" if h.id in self._sid_of_host else "offline",
                           "last_seen": h.last_seen.isoformat() + "Z"} for h in hosts],
                "devices": [self._device_dict(d) for d in devices],
            }

    # -- calls -----------------------------------------------------------------------
    def call(self, device_id: str, event: str, data: dict[str, Any], timeout: float | None = None) -> Any:
        """Ask the host that owns *device_id*; host-side errors come back as project exceptions."""
        ref = self.device(device_id)
        if event == ServerEvent.RUN_PLAN:
            steps = ((data.get("plan") or {}).get("plan") or []) if isinstance(data, dict) else []
            if len(steps) > MAX_PLAN_STEPS:   # whatever planned it: no plan this long reaches a host
                raise RequestError(f"the plan has {len(steps)} steps; the limit is {MAX_PLAN_STEPS}")
        sid = self._sid_of_host.get(ref.host_id)
        if sid is None:
            raise HostUnavailable(f"host {ref.host_id!r} of device {device_id!r} is not connected")
        try:
            reply = self.socketio.call(event, self.scrub(data), namespace=HOST_NS, to=sid,
                                       timeout=timeout or self.call_timeout_s)
        except Exception as exc:  # socketio raises TimeoutError or disconnect errors of its own
            raise HostUnavailable(f"host {ref.host_id!r} did not answer {event!r}: "
                                  f"{type(exc).__name__} {exc}".strip()) from exc
        if isinstance(reply, dict) and "error" in reply:
            raise error_from_wire(reply, f"host {ref.host_id!r}: ")
        return reply

    def latest_tree(self, userinterface: str) -> TreeRow | None:
        with self.db.session() as s:
            return s.scalars(select(TreeRow).where(TreeRow.userinterface == userinterface)
                             .order_by(TreeRow.version.desc()).limit(1)).first()

    def save_tree(self, userinterface: str, content: dict[str, Any]) -> int:
        """Store an edited tree as a new version and push it to every connected host."""
        with self.db.session() as s:
            current = s.scalar(select(func.max(TreeRow.version)).where(TreeRow.userinterface == userinterface)) or 0
            content = {**content, "version": current + 1}
            s.add(TreeRow(userinterface=userinterface, version=current + 1, content=content, source="dashboard"))
        for sid in list(self._sid_of_host.values()):
            self.socketio.emit(ServerEvent.TREE_UPDATED, {"tree": content}, namespace=HOST_NS, to=sid)
        return current + 1

"""Live device screens for dashboards: frames only while someone watches.

One background loop per watched device asks its host for a screenshot about
``fps`` times a second and pushes it to the watchers' room; the loop stops as
soon as the last watcher leaves.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from shared.errors import DevicePilotError
from shared.protocol import DASHBOARD_NS, DashboardEvent, ServerEvent

log = logging.getLogger(__name__)


class LiveScreens:
    def __init__(self, socketio: Any, lab: Any, fps: float = 3.0) -> None:
        self.socketio = socketio
        self.lab = lab
        self.period = 1.0 / fps
        self._lock = threading.Lock()
        self._watchers: dict[str, set[str]] = {}   # device -> sids
        self.frames_sent = 0

    @staticmethod
    def room(device_id: str) -> str:
        return f"screen:{device_id}"

    def watch(self, sid: str, device_id: str) -> None:
        self.socketio.server.enter_room(sid, self.room(device_id), namespace=DASHBOARD_NS)
        with self._lock:
            watchers = self._watchers.setdefault(device_id, set())
            start = not watchers
            watchers.add(sid)
        if start:
            self.socketio.start_background_task(self._loop, device_id)

    def unwatch(self, sid: str, device_id: str) -> None:
        try:
            self.socketio.server.leave_room(sid, self.room(device_id), namespace=DASHBOARD_NS)
        except (KeyError, ValueError):
            pass
        with self._lock:
            self._watchers.get(device_id, set()).discard(sid)

    def unwatch_all(self, sid: str) -> None:
        with self._lock:
            for watchers in self._watchers.values():
                watchers.discard(sid)

    def watching(self, device_id: str) -> int:
        with self._lock:
            return len(self._watchers.get(device_id, ()))

    def _loop(self, device_id: str) -> None:
        log.info("live screen of %s started", device_id)
        while self.watching(device_id):
            began = time.monotonic()
            try:
                reply = self.lab.call(device_id, ServerEvent.SCREENSHOT,
                                      {"device_id": device_id, "format": "jpeg", "max_width": 960}, timeout=10)
                if reply and reply.get("jpeg"):
                    self.socketio.emit(DashboardEvent.FRAME, {"device_id": device_id, "image": reply["jpeg"],
                                                 "mime": "image/jpeg", "at": time.time()},
                                       namespace=DASHBOARD_NS, to=self.room(device_id))
                    self.frames_sent += 1
            except DevicePilotError as exc:
                log.debug("live screen of %s: %s", device_id, exc)
                self.socketio.sleep(1.0)
            self.socketio.sleep(max(0.0, self.period - (time.monotonic() - began)))
        log.info("live screen of %s stopped (no watcher)", device_id)

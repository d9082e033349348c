"""REST endpoints that exist for the web dashboard.

- ``GET /api/userinterfaces``: every user interface with a stored navigation tree.
- ``GET /api/userinterfaces/<ui>/path?from=A&to=B``: the path ``goto`` would take,
  for highlighting in the navigation view.
- ``GET /api/devices/<id>/thumbnail?width=N``: a small JPEG of the device's
  screen for the lab view, shared by every dashboard for a few seconds so that
  many open dashboards cost the host one screenshot per device, not one each.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Response, current_app, jsonify, request
from sqlalchemy import func, select

from backend_core.navigation.graph import shortest_path
from backend_core.navigation.tree import NavigationTree
from server.db import DeviceRow, TreeRow
from shared.errors import ConfigError, ControllerError, NavigationFailed, NotFound, RequestError
from shared.protocol import ServerEvent

log = logging.getLogger(__name__)
dashboard_api = Blueprint("dashboard_api", __name__, url_prefix="/api")

THUMBNAIL_MAX_AGE_S = 4.0
THUMBNAIL_WIDTHS = (64, 1280)
THUMBNAIL_DEFAULT_WIDTH = 480


def _server() -> Any:
    return current_app.extensions["devicepilot"]


# -- user interfaces and navigation paths -------------------------------------------------------

@dashboard_api.get("/userinterfaces")
def list_userinterfaces() -> Any:
    """Each user interface with its latest tree version and the devices that use it."""
    db = _server().db
    with db.session() as s:
        latest = (select(TreeRow.userinterface, func.max(TreeRow.version).label("version"))
                  .group_by(TreeRow.userinterface).order_by(TreeRow.userinterface))
        rows = s.execute(latest).all()
        devices = s.execute(select(DeviceRow.userinterface, DeviceRow.id).order_by(DeviceRow.id)).all()
    by_ui: dict[str, list[str]] = {}
    for ui, device_id in devices:
        by_ui.setdefault(ui, []).append(device_id)
    return jsonify([{"userinterface": ui, "version": version, "devices": by_ui.get(ui, [])}
                    for ui, version in rows])


@dashboard_api.get("/userinterfaces/<ui>/path")
def navigation_path(ui: str) -> Any:
    """The edges ``goto`` takes from one node to another on the latest tree of *ui*.

    ``{"found": true, "nodes": ["home", "live"], "edges": [{"from", "to", "actions"}]}``;
    ``found`` is false (with a ``reason``) when the tree has no such path.
    """
    source, target = request.args.get("from", "").strip(), request.args.get("to", "").strip()
    if not source or not target:
        raise RequestError("give both ends of the path: ?from=<node id>&to=<node id>")
    row = _server().lab.latest_tree(ui)
    if row is None:
        raise NotFound(f"no navigation tree for user interface {ui!r}")
    try:
        tree = NavigationTree.from_dict(row.content, where=f"tree of {ui}")
    except ConfigError as exc:
        raise RequestError(f"the stored tree of {ui!r} cannot be read: {exc}") from exc
    for end in (source, target):
        if end not in tree.nodes:
            raise NotFound(f"unknown navigation node {end!r} in {ui!r}")
    try:
        edges = shortest_path(tree, source, target)
    except NavigationFailed as exc:
        return jsonify({"userinterface": ui, "version": row.version, "from": source, "to": target,
                        "found": False, "reason": str(exc), "nodes": [], "edges": []})
    nodes = [source] + [e.target for e in edges]
    return jsonify({"userinterface": ui, "version": row.version, "from": source, "to": target, "found": True,
                    "nodes": nodes,
                    "edges": [{"from": e.source, "to": e.target, "actions": [a.to_dict() for a in e.actions]}
                              for e in edges]})


# -- thumbnails -------------------------------------------------------------------------------

@dataclass
class _Thumb:
    jpeg: bytes
    taken_at: float


@dataclass
class ThumbnailCache:
    """Recent thumbnails per (device, width); one capture at a time per device."""

    max_age_s: float = THUMBNAIL_MAX_AGE_S
    _thumbs: dict[tuple[str, int], _Thumb] = field(default_factory=dict)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def _lock_for(self, device_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(device_id, threading.Lock())

    def get(self, device_id: str, width: int, capture: Any) -> _Thumb:
        """The cached thumbnail when fresh, else one made from ``capture()`` (PNG bytes)."""
        with self._lock_for(device_id):
            thumb = self._thumbs.get((device_id, width))
            if thumb is not None and time.monotonic() - thumb.taken_at < self.max_age_s:
                return thumb
            thumb = _Thumb(shrink_png(capture(), width), time.monotonic())
            self._thumbs[(device_id, width)] = thumb
            return thumb


def shrink_png(png: bytes, width: int, quality: int = 80) -> bytes:
    """Scale a PNG screenshot down to *width* pixels (never up) and encode it as JPEG."""
    image = cv2.imdecode(np.frombuffer(png, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ControllerError("the device's screenshot is not a readable image")
    height, current = image.shape[:2]
    if current > width:
        image = cv2.resize(image, (width, max(1, round(height * width / current))), interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ControllerError("could not encode the thumbnail")
    return encoded.tobytes()


def _thumbnails() -> ThumbnailCache:
    extras = _server().extras
    cache = extras.get("thumbnails")
    if cache is None:
        cache = extras.setdefault("thumbnails", ThumbnailCache())
    return cache


@dashboard_api.get("/devices/<device_id>/thumbnail")
def device_thumbnail(device_id: str) -> Any:
    try:
        width = int(request.args.get("width", THUMBNAIL_DEFAULT_WIDTH))
    except ValueError:
        raise RequestError("width must be an integer number of pixels") from None
    width = max(THUMBNAIL_WIDTHS[0], min(THUMBNAIL_WIDTHS[1], width))
    srv = _server()
    srv.lab.device(device_id)  # unknown device -> 404

    def capture() -> bytes:
        reply = srv.lab.call(device_id, ServerEvent.SCREENSHOT, {"device_id": device_id}, timeout=15)
        if not reply or not reply.get("png"):
            raise RequestError(f"device {device_id!r} has no screen to capture")
        return reply["png"]

    thumb = _thumbnails().get(device_id, width, capture)
    age = max(0, int(time.monotonic() - thumb.taken_at))
    return Response(thumb.jpeg, mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store", "X-Thumbnail-Age": str(age)})

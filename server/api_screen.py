"""What a device's screen shows now, read structurally by its host.

    GET /api/devices/<id>/screen    → ScreenObservation as JSON (shared.screen):
                                      {platform, url, title, elements: [{role, name, text, …}], truncated}

The host reads it with the device's screen reader (the web page's DOM,
``uiautomator dump``, the Appium page source); a device with none answers 400.
"""
from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, jsonify

from server.api import server
from shared.errors import InfraError
from shared.protocol import ServerEvent
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)
api_screen = Blueprint("api_screen", __name__, url_prefix="/api")

OBSERVE_TIMEOUT_S = 20.0


def observe(device_id: str) -> ScreenObservation:
    """Ask the device's host what its screen shows now."""
    reply = server().lab.call(device_id, ServerEvent.OBSERVE, {"device_id": device_id}, timeout=OBSERVE_TIMEOUT_S)
    if not isinstance(reply, dict):
        raise InfraError(f"the host of device {device_id!r} sent no screen observation")
    return ScreenObservation.from_dict(reply)


@api_screen.get("/devices/<device_id>/screen")
def device_screen(device_id: str) -> Any:
    return jsonify(observe(device_id).to_dict())

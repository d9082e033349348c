"""The server↔host and server↔dashboard Socket.IO protocol: namespaces and event names.

Hosts dial out to the server (so they work behind NAT) on :data:`HOST_NS`,
authenticating with ``{"token": ..., "host_id": ...}``. Dashboards listen on
:data:`DASHBOARD_NS`.

Host → server:  ``register`` ({protocol, host, devices, runs}: the runs it is executing or has
                not had acknowledged, for reconciliation) → {ok, refused} (ack), ``heartbeat``
                (renews the leases of its runs), ``step_result`` ({run_id, step}) → {ok} or
                {ok: false, abort: true} (ack: the host keeps a step until acknowledged),
                ``run_finished`` ({run_id, status, message, current_node, steps_sent}) → {ok} (ack),
                ``goodbye`` (ack; sent before a deliberate disconnect).
Server → host:  ``get_context`` ({device_id, kind}) → ExecutorContext dict (ack),
                ``run_plan`` ({run_id, device_id, plan}) → {"accepted": bool} (ack),
                ``screenshot`` ({device_id}) → {"png": bytes} (ack),
                ``execute`` ({device_id, command, params}) → step dict (ack),
                ``observe`` ({device_id}) → ScreenObservation dict (ack; shared.screen),
                ``cancel_run`` ({run_id, abort?}).
An error crosses as ``{"error": {"code", "message"}}`` (shared/errors.py ``ERROR_CODES``).
Server → dashboards: ``run_update``, ``step``, ``lab_update``.
"""
from __future__ import annotations

from enum import StrEnum

HOST_NS = "/host"
DASHBOARD_NS = "/dashboard"

PROTOCOL_VERSION = 2
"""Sent by the host at registration; a server refuses a host that speaks another version."""


class HostEvent(StrEnum):
    REGISTER = "register"
    HEARTBEAT = "heartbeat"
    STEP_RESULT = "step_result"
    RUN_FINISHED = "run_finished"
    GOODBYE = "goodbye"   # the host is stopping on purpose: its disconnect is not a crash


class ServerEvent(StrEnum):
    GET_CONTEXT = "get_context"
    RUN_PLAN = "run_plan"
    SCREENSHOT = "screenshot"
    EXECUTE = "execute"
    CANCEL_RUN = "cancel_run"
    TREE_UPDATED = "tree_updated"
    OBSERVE = "observe"   # {device_id} -> ScreenObservation.to_dict(): what the screen shows now
    LOCATE = "locate"     # {device_id} -> {current_node}: the navigation node it is on, checked if it may have moved


class DashboardEvent(StrEnum):
    RUN_UPDATE = "run_update"
    STEP = "step"
    LAB_UPDATE = "lab_update"        # the whole lab: when hosts come and go
    DEVICE_UPDATE = "device_update"  # {device}: one device's state changed (a run started or ended)
    FRAME = "frame"       # a watched device's live screen: {device_id, image (JPEG)}


HEARTBEAT_INTERVAL_S = 10.0
HOST_STALE_AFTER_S = 35.0

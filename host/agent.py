"""The host agent: dials out to the server over Socket.IO and answers its requests.

It reconnects by itself with exponential backoff. Step results and run ends are
kept until the server acknowledges them: produced while the link is down, or
sent but not acknowledged when it dropped, they are sent again, in order, once
the host has registered again (the server stores each step once). The
registration tells the server which runs this host is executing, so a
restarted server can reconcile them; a run the server has ended is aborted.
"""
from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections import deque
from functools import partial
from typing import Any

import socketio

from backend_core.navigation.tree import NavigationTree
from host.lab import Lab
from shared.commands import CommandKind
from shared.config import Secret
from shared.errors import DeviceBusy, DevicePilotError, error_to_wire
from shared.messages import Ack, CancelRun, RunFinished, RunPlanRequest, RunReport, StepReport
from shared.models import Plan, PlanStep, RunStatus, StepResult
from shared.policy import Limits
from shared.protocol import HEARTBEAT_INTERVAL_S, HOST_NS, PROTOCOL_VERSION, HostEvent, ServerEvent
from shared.wire import WholePacketClient

log = logging.getLogger(__name__)


def heartbeat_interval() -> float:
    """``DEVICEPILOT_HEARTBEAT_S`` (default 10 s): each heartbeat renews the leases of this host's runs."""
    try:
        return max(0.2, float(os.environ.get("DEVICEPILOT_HEARTBEAT_S", "") or HEARTBEAT_INTERVAL_S))
    except ValueError:
        return HEARTBEAT_INTERVAL_S


class HostAgent:
    def __init__(self, lab: Lab, server_url: str, token: Secret, *,
                 backoff_max_s: float = 30.0) -> None:
        self.lab = lab
        self.server_url = server_url.rstrip("/")
        self._token = token
        self.backoff_max_s = backoff_max_s
        self.sio = WholePacketClient(reconnection=True, reconnection_delay=0.5,
                                     reconnection_delay_max=backoff_max_s, logger=False)
        self._outbox: deque[tuple[int, str, dict[str, Any]]] = deque()
        self._unacked: dict[int, tuple[str, dict[str, Any]]] = {}   # sent, not yet acknowledged
        self._seq = itertools.count(1)
        self._outbox_lock = threading.Lock()
        self._runs: dict[str, dict[str, Any]] = {}   # runs executing now: run id -> {device_id, steps_sent}
        self._sent_total: dict[str, int] = {}        # steps sent per run, over all its plans (re-plans too)
        self._stop = threading.Event()
        self._registered = threading.Event()
        self._cancels: dict[str, threading.Event] = {}
        self._register_handlers()

    # -- lifecycle -------------------------------------------------------------------
    def start(self) -> None:
        """Connect in the background (retrying with backoff) and start heartbeats."""
        threading.Thread(target=self._connect_loop, name="host-connect", daemon=True).start()
        threading.Thread(target=self._heartbeat_loop, name="host-heartbeat", daemon=True).start()

    def wait_registered(self, timeout: float) -> bool:
        return self._registered.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        try:
            if self.sio.connected:
                self.sio.call(HostEvent.GOODBYE, {"host_id": self.lab.config.id}, namespace=HOST_NS, timeout=2)
        except Exception as exc:  # a server already gone cannot be told
            log.debug("goodbye not delivered: %s", exc)
        try:
            self.sio.disconnect()
        except Exception as exc:  # already gone
            log.debug("disconnect: %s", exc)

    def _connect_loop(self) -> None:
        delay = 0.5
        while not self._stop.is_set():
            try:
                self.sio.connect(self.server_url, namespaces=[HOST_NS], transports=["websocket"],
                                 auth={"token": self._token.reveal(), "host_id": self.lab.config.id},
                                 wait_timeout=10)
                return  # from here python-socketio reconnects by itself
            except socketio.exceptions.ConnectionError as exc:
                log.warning("cannot reach server %s (%s); retrying in %.1fs", self.server_url, exc, delay)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_max_s)

    def _heartbeat_loop(self) -> None:
        interval = heartbeat_interval()
        while not self._stop.wait(interval):
            if self.sio.connected and self._registered.is_set():
                try:   # a heartbeat is worth nothing later: never queued
                    self.sio.emit(HostEvent.HEARTBEAT, {"host_id": self.lab.config.id, "time": time.time()},
                                  namespace=HOST_NS)
                except socketio.exceptions.SocketIOError as exc:
                    log.debug("heartbeat not sent: %s", exc)

    # -- sending ---------------------------------------------------------------------
    def _send(self, event: str, data: dict[str, Any]) -> None:
        with self._outbox_lock:
            self._outbox.append((next(self._seq), event, data))
        self._flush()

    def _flush(self) -> None:
        with self._outbox_lock:
            while self._outbox and self._registered.is_set():
                seq, event, data = self._outbox[0]
                self._unacked[seq] = (event, data)
                try:
                    self.sio.emit(event, data, namespace=HOST_NS, callback=partial(self._acked, seq, data))
                except socketio.exceptions.SocketIOError as exc:
                    del self._unacked[seq]
                    log.warning("link down, %d event(s) kept for later: %s", len(self._outbox), exc)
                    return
                self._outbox.popleft()

    def _acked(self, seq: int, data: dict[str, Any], reply: Any = None) -> None:
        """The server has the event; it may say the run was ended there, and must stop here."""
        with self._outbox_lock:
            self._unacked.pop(seq, None)
        if Ack.from_wire(reply).abort:
            run_id = str(data.get("run_id"))
            log.warning("the server ended run %s; aborting it here", run_id)
            self.on_cancel_run(CancelRun(run_id, abort=True).to_wire())

    def _resend_unacked(self) -> None:
        """After a reconnect: what the server never acknowledged goes first, in the order it was produced."""
        with self._outbox_lock:
            for seq in sorted(self._unacked, reverse=True):
                event, data = self._unacked.pop(seq)
                self._outbox.appendleft((seq, event, data))

    def registration(self) -> dict[str, Any]:
        devices = []
        for rt in self.lab.runtimes.values():
            d = rt.device.describe()
            d["navigation_tree"] = rt.device.tree.raw if rt.device.tree else None
            devices.append(d)
        runs = [RunReport(run_id, info["device_id"], info["steps_sent"]) for run_id, info in list(self._runs.items())]
        with self._outbox_lock:   # runs whose steps or end the server has not acknowledged yet
            waiting = [data for _, _, data in self._outbox] + [data for _, data in self._unacked.values()]
        for run_id in dict.fromkeys(str(d["run_id"]) for d in waiting if d.get("run_id")):
            if run_id not in self._runs:
                runs.append(RunReport(run_id, "", self._sent_total.get(run_id, 0)))
        return {"protocol": PROTOCOL_VERSION, "host": {"id": self.lab.config.id, "name": self.lab.config.name},
                "devices": devices, "runs": [r.to_wire() for r in runs]}

    # -- handlers --------------------------------------------------------------------
    def _register_handlers(self) -> None:
        sio = self.sio

        @sio.on("connect", namespace=HOST_NS)
        def on_connect() -> None:
            log.info("connected to %s; registering %d device(s)", self.server_url, len(self.lab.runtimes))
            sio.emit(HostEvent.REGISTER, self.registration(), namespace=HOST_NS, callback=self._on_registered)

        @sio.on("disconnect", namespace=HOST_NS)
        def on_disconnect(*_: Any) -> None:
            self._registered.clear()
            if self._stop.is_set():
                log.info("disconnected from %s", self.server_url)
            else:
                log.warning("disconnected from %s; reconnecting", self.server_url)

        @sio.on("connect_error", namespace=HOST_NS)
        def on_connect_error(data: Any) -> None:
            log.error("server refused the connection: %s", data)

        sio.on(ServerEvent.GET_CONTEXT, self.on_get_context, namespace=HOST_NS)
        sio.on(ServerEvent.RUN_PLAN, self.on_run_plan, namespace=HOST_NS)
        sio.on(ServerEvent.SCREENSHOT, self.on_screenshot, namespace=HOST_NS)
        sio.on(ServerEvent.EXECUTE, self.on_execute, namespace=HOST_NS)
        sio.on(ServerEvent.CANCEL_RUN, self.on_cancel_run, namespace=HOST_NS)
        sio.on(ServerEvent.TREE_UPDATED, self.on_tree_updated, namespace=HOST_NS)
        sio.on(ServerEvent.OBSERVE, self.on_observe, namespace=HOST_NS)
        sio.on(ServerEvent.LOCATE, self.on_locate, namespace=HOST_NS)

    def _on_registered(self, reply: Any = None) -> None:
        log.info("registered with the server: %s", reply)
        self._resend_unacked()
        self._registered.set()
        self._flush()

    @staticmethod
    def _error_reply(exc: Exception) -> dict[str, Any]:
        """An error crosses the wire as ``{"error": {code, message}}`` (shared/errors.py ERROR_CODES)."""
        return {"error": error_to_wire(exc)}

    def on_get_context(self, data: dict[str, Any]) -> dict[str, Any]:
        try:
            rt = self.lab.runtime(str(data["device_id"]))
            return rt.context(CommandKind(data["kind"])).to_dict()
        except (DevicePilotError, KeyError, ValueError) as exc:
            return self._error_reply(exc)

    def on_screenshot(self, data: dict[str, Any]) -> dict[str, Any]:
        """``{device_id}`` → ``{png}``; ``{device_id, format: "jpeg", max_width}`` → ``{jpeg}`` (live views)."""
        try:
            rt = self.lab.runtime(str(data["device_id"]))
            screen = rt.device.screen
            if screen is None:
                return {"png": None}
            if data.get("format") == "jpeg":
                return {"jpeg": screen.preview(int(data.get("max_width", 960)), int(data.get("quality", 70)))}
            return {"png": screen.screenshot()}
        except Exception as exc:  # a thumbnail must never take the host down
            return self._error_reply(exc)

    def on_observe(self, data: dict[str, Any]) -> dict[str, Any]:
        """``{device_id}`` → the screen's :class:`~shared.screen.ScreenObservation` as a dict."""
        try:
            rt = self.lab.runtime(str(data["device_id"]))
            return rt.device.observe().to_dict()
        except (DevicePilotError, KeyError) as exc:
            return self._error_reply(exc)

    def on_locate(self, data: dict[str, Any]) -> dict[str, Any]:
        """``{device_id}`` → ``{current_node}``: the node it is on, checked now if an action may have moved it.

        A device in a run is not touched: its last known node is the answer.
        """
        try:
            rt = self.lab.runtime(str(data["device_id"]))
        except (DevicePilotError, KeyError) as exc:
            return self._error_reply(exc)
        if not rt.lock.acquire(blocking=False):
            return {"current_node": rt.navigation.known_node}
        try:
            return {"current_node": rt.located()}
        finally:
            rt.lock.release()

    def on_execute(self, data: dict[str, Any]) -> dict[str, Any]:
        """One command from the dashboard's remote pad, outside any run.

        ``locate`` (default true): find out at once which screen the command led to; the remote pad
        says false, and the device is located at the next need instead.
        """
        try:
            rt = self.lab.runtime(str(data["device_id"]))
        except DevicePilotError as exc:
            return self._error_reply(exc)
        step = PlanStep(0, str(data.get("command", "")), dict(data.get("params") or {}))
        if not rt.lock.acquire(blocking=False):
            return self._error_reply(DeviceBusy(f"device {rt.device.id!r} is running a run"))
        try:
            result, _ = rt.execute_step(step, with_screenshot=bool(data.get("screenshot", False)),
                                        locate=bool(data.get("locate", True)))
        finally:
            rt.lock.release()
        return result.to_wire()

    def on_run_plan(self, data: dict[str, Any]) -> dict[str, Any]:
        try:
            request = RunPlanRequest.from_wire(data)
            rt = self.lab.runtime(request.device_id)
        except (DevicePilotError, KeyError, ValueError) as exc:
            return {"accepted": False, **self._error_reply(exc)}
        run_id, plan, limits = request.run_id, request.plan, (request.run_limits, request.server_limits)
        cancel = threading.Event()
        self._cancels[run_id] = cancel
        self._runs.setdefault(run_id, {"device_id": rt.device.id, "steps_sent": 0})
        threading.Thread(target=self._run, args=(run_id, rt, plan, cancel, limits), name=f"run-{run_id}",
                         daemon=True).start()
        return {"accepted": True}

    def _run(self, run_id: str, rt: Any, plan: Plan, cancel: threading.Event, limits: tuple[Limits, ...] = ()) -> None:
        def on_step(result: StepResult) -> None:
            self._runs[run_id]["steps_sent"] += 1
            self._sent_total[run_id] = self._sent_total.get(run_id, 0) + 1
            self._send(HostEvent.STEP_RESULT, StepReport(run_id, result).to_wire())

        try:
            outcome = rt.run_plan(plan, on_step, cancel, limits)
            status, message, node = outcome.status, outcome.message, outcome.current_node
        except Exception as exc:  # report, never lose the run
            log.exception("run %s crashed", run_id)
            status, message, node = RunStatus.ERROR, f"host error: {exc}", None
        finally:
            self._cancels.pop(run_id, None)
        self._runs.pop(run_id, None)
        if len(self._sent_total) > 1000:   # old runs' counts: a re-plan comes within seconds of its run's end
            for old in list(self._sent_total)[:500]:
                self._sent_total.pop(old, None)
        self._send(HostEvent.RUN_FINISHED,
                   RunFinished(run_id, status, message, node, self._sent_total.get(run_id, 0)).to_wire())

    def on_cancel_run(self, data: dict[str, Any]) -> None:
        try:
            cancel = CancelRun.from_wire(data)
        except ValueError as exc:
            log.warning("cancel_run refused: %s", exc)
            return
        event = self._cancels.get(cancel.run_id)
        if event:
            event.set()

    def on_tree_updated(self, data: dict[str, Any]) -> dict[str, Any]:
        """The server saved a new version of a navigation tree: use it on every device that runs it."""
        try:
            tree = NavigationTree.from_dict(data["tree"], where="tree from server")
        except (DevicePilotError, KeyError) as exc:
            return self._error_reply(exc)
        updated = []
        for rt in self.lab.runtimes.values():
            if rt.device.userinterface == tree.userinterface:
                rt.device.tree = tree
                rt.navigation.set_tree(tree)
                updated.append(rt.device.id)
        return {"updated": updated}

"""Whole Socket.IO packets on the wire, whichever thread sends them.

A Socket.IO packet that carries bytes (a step's screenshot, a file) goes out as
several Engine.IO messages: a text header that says how many attachments follow,
then each attachment. python-socketio sends those messages one by one, with no
lock, from whichever thread emits or acknowledges. Two threads sending at once
(a step report and a heartbeat on a host; replies to two hosts' calls on the
server) could interleave them, and the peer then reads a JPEG's first byte as a
packet type ("invalid literal for int() … b'\\xff'") and drops the event. Here
each packet's messages are sent together, under one lock per peer.
"""
from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

import socketio


class WholePacketClient(socketio.Client):
    """A Socket.IO client whose packets (header and attachments) are never interleaved."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._packet_lock = threading.Lock()

    def _send_packet(self, pkt: Any) -> None:
        with self._packet_lock:
            super()._send_packet(pkt)


def whole_packets(server: socketio.Server) -> socketio.Server:
    """Make *server* send each packet's messages to a client together (one lock per client session)."""
    locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
    guard = threading.Lock()
    send = server._send_packet

    def send_whole(eio_sid: str, pkt: Any) -> None:
        with guard:
            lock = locks[eio_sid]
        with lock:
            send(eio_sid, pkt)

    def forget(eio_sid: str, *_: Any) -> None:
        with guard:
            locks.pop(eio_sid, None)

    server._send_packet = send_whole  # type: ignore[method-assign]
    disconnect = server._handle_eio_disconnect

    def on_disconnect(eio_sid: str, *args: Any) -> Any:
        try:
            return disconnect(eio_sid, *args)
        finally:
            forget(eio_sid)

    server.eio.on("disconnect", on_disconnect)   # the handler Engine.IO calls (it keeps its own reference)
    return server

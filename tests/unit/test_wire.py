"""Packets that carry bytes arrive whole when many threads send at once (shared/wire.py)."""
from __future__ import annotations

import threading
import time

import socketio
from socketio import packet
from werkzeug.serving import make_server

from shared.wire import WholePacketClient, whole_packets


def _binary(n: int) -> packet.Packet:
    return packet.Packet(packet.EVENT, data=["shot", {"n": n, "png": bytes([0xFF, 0xD8, n])}], namespace="/")


def _sent_by_threads(send, sink: list) -> list:   # type: ignore[no-untyped-def]
    """Two threads send three binary packets each through *send*, whose messages go to *sink* slowly."""
    together = threading.Barrier(2)   # both start at once, however busy the machine

    def sends(base: int) -> None:
        together.wait(10)
        for i in range(3):
            send(_binary(base + i))
    threads = [threading.Thread(target=sends, args=(base,)) for base in (0, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return sink


def _whole(sink: list) -> bool:
    """Each header ("51-…", one attachment) is followed by its own attachment, never by another message."""
    for i, msg in enumerate(sink):
        if isinstance(msg, str) and msg.startswith("51-"):
            n = int(msg.split('"n":')[1].split(",")[0].split("}")[0])
            if i + 1 >= len(sink) or sink[i + 1] != bytes([0xFF, 0xD8, n]):
                return False
    return True


def _slow_sink(sink: list):   # type: ignore[no-untyped-def]
    def send(*args: object) -> None:
        sink.append(args[-1])
        time.sleep(0.002)   # the window another thread's message could slip into
    return send


def test_a_hosts_binary_packet_is_sent_whole_while_another_thread_sends() -> None:
    sink: list = []
    client = WholePacketClient()
    client.eio.send = _slow_sink(sink)   # type: ignore[method-assign]
    assert _whole(_sent_by_threads(client._send_packet, sink)) and len(sink) == 12
    assert _bare_client_interleaves()   # the library alone interleaves them: the test can see it


def _bare_client_interleaves() -> bool:
    """Whether python-socketio's own client, with no lock, interleaves two threads' packets in one of five tries
    (threads are scheduled as the machine allows: one try may happen to run them one after the other)."""
    for _ in range(5):
        plain: list = []
        bare = socketio.Client()
        bare.eio.send = _slow_sink(plain)   # type: ignore[method-assign]
        if not _whole(_sent_by_threads(bare._send_packet, plain)):
            return True
    return False


def test_the_servers_binary_packets_to_one_client_are_sent_whole() -> None:
    sink: list = []
    server = whole_packets(socketio.Server(async_mode="threading"))
    server.eio.send = _slow_sink(sink)   # type: ignore[method-assign]
    assert _whole(_sent_by_threads(lambda pkt: server._send_packet("sid-1", pkt), sink)) and len(sink) == 12


def test_binary_events_and_replies_cross_a_real_loopback_link_intact() -> None:
    server = whole_packets(socketio.Server(async_mode="threading"))
    got: list[bytes] = []

    @server.on("shot")
    def shot(sid: str, data: dict) -> bytes:
        got.append(data["png"])
        return data["png"][::-1]

    http = make_server("127.0.0.1", 0, socketio.WSGIApp(server), threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    client = WholePacketClient()
    echoes: list[bool] = []
    try:
        client.connect(f"http://127.0.0.1:{http.server_port}", transports=["websocket"], wait_timeout=10)

        def send(t: int) -> None:
            for i in range(5):
                png = bytes([0xFF, 0xD8, t, i]) * 500
                echoes.append(client.call("shot", {"png": png}, timeout=30) == png[::-1])

        workers = [threading.Thread(target=send, args=(t,)) for t in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(60)
    finally:
        client.disconnect()
        http.shutdown()
    assert len(got) == 20 and len(echoes) == 20 and all(echoes)

"""A scripted OpenAI-compatible chat-completions server on loopback, for tests and benchmarks.

A real HTTP server on a real socket: each test scripts the replies, in order,
and reads back the requests it received::

    with ScriptedLLM() as llm:
        llm.script(Reply.plan({"analysis": "...", "feasible": True, "plan": [...]}))
        client = LLMClient(LLMSettings(base_url=llm.url, model="scripted"))
        ...
        assert llm.requests[0].body["temperature"] == 0

When the script runs out, the ``default`` reply is used (a 500 saying so
unless one is given). ``unsupported_formats`` makes it answer 400 to a
``response_format`` it "does not support", like older local servers do.

Run it alone: ``python -m tests.fakes.llm_server --port 8011 --plan plan.json``
answers every request with that plan.
"""
from __future__ import annotations

import argparse
import json
import socket
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

DEFAULT_USAGE = {"prompt_tokens": 420, "completion_tokens": 60, "total_tokens": 480}


@dataclass
class Reply:
    """One scripted answer."""

    status: int = 200
    content: str | None = ""                 # the assistant message content (status 200)
    body: Any = None                         # a whole JSON body instead of a chat completion
    raw: bytes | None = None                 # raw bytes instead of any JSON
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0                     # wait this long before answering
    usage: dict[str, int] | None = field(default_factory=lambda: dict(DEFAULT_USAGE))
    finish_reason: str = "stop"
    tool_calls: list[dict[str, Any]] | None = None   # native tool calls in the message

    @classmethod
    def tools(cls, *calls: tuple[str, dict[str, Any]], **kwargs: Any) -> "Reply":
        """A reply that calls tools: ``Reply.tools(("list_devices", {}), ("get_run", {"run_id": "abc"}))``."""
        return cls(content=None, finish_reason="tool_calls", tool_calls=[
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in enumerate(calls)], **kwargs)

    @classmethod
    def text(cls, content: str, **kwargs: Any) -> "Reply":
        return cls(content=content, **kwargs)

    @classmethod
    def plan(cls, plan: dict[str, Any], **kwargs: Any) -> "Reply":
        return cls(content=json.dumps(plan), **kwargs)

    @classmethod
    def error(cls, status: int, message: str, **kwargs: Any) -> "Reply":
        return cls(status=status, body={"error": {"message": message, "type": "scripted", "code": status}},
                   **kwargs)

    def payload(self, model: str) -> bytes:
        if self.raw is not None:
            return self.raw
        if self.body is not None:
            return json.dumps(self.body).encode()
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls is not None:
            message["tool_calls"] = self.tool_calls
        data: dict[str, Any] = {
            "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason}],
        }
        if self.usage is not None:
            data["usage"] = self.usage
        return json.dumps(data).encode()


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes

    @property
    def response_format(self) -> str | None:
        fmt = self.body.get("response_format") if isinstance(self.body, dict) else None
        return fmt.get("type") if isinstance(fmt, dict) else None

    @property
    def prompt(self) -> str:
        messages = self.body.get("messages", []) if isinstance(self.body, dict) else []
        return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


class ScriptedLLM:
    """The server. Start with ``with ScriptedLLM() as llm`` or :meth:`start`/:meth:`stop`."""

    def __init__(self, *replies: Reply, default: Reply | None = None,
                 unsupported_formats: set[str] | None = None,
                 responder: Callable[[RecordedRequest], Reply | None] | None = None,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self._replies: deque[Reply] = deque(replies)
        self.default = default or Reply.error(500, "the scripted LLM has no reply left")
        self.unsupported_formats = set(unsupported_formats or ())
        self.responder = responder
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connections: set[socket.socket] = set()
        self._httpd = ThreadingHTTPServer((host, port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------
    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "ScriptedLLM":
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and drop open keep-alive connections: from now on the endpoint is unreachable."""
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        with self._lock:
            connections, self._connections = list(self._connections), set()
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def __enter__(self) -> "ScriptedLLM":
        return self.start()

    def __exit__(self, *_: Any) -> None:
        self.stop()

    # -- script -------------------------------------------------------------------------
    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    @property
    def calls(self) -> int:
        """How many chat-completion requests arrived."""
        with self._lock:
            return sum(r.path.endswith("/chat/completions") for r in self.requests)

    def _next(self, req: RecordedRequest) -> Reply:
        if req.response_format in self.unsupported_formats:
            return Reply.error(400, f"response_format type {req.response_format!r} is not supported by this server")
        if self.responder is not None:
            reply = self.responder(req)
            if reply is not None:
                return reply
        with self._lock:
            return self._replies.popleft() if self._replies else self.default

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def setup(self) -> None:
                super().setup()
                # headers and body go out as separate writes: without this, Nagle's algorithm and the
                # client's delayed ACK add ~40 ms to every answer, as no real LLM server does
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with fake._lock:
                    fake._connections.add(self.connection)

            def finish(self) -> None:
                with fake._lock:
                    fake._connections.discard(self.connection)
                super().finish()

            def _send(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]})
                               .encode(), {})
                else:
                    self._send(404, b'{"error": {"message": "not found"}}', {})

            def do_POST(self) -> None:
                if fake._stop.is_set():
                    self.close_connection = True
                    return
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                req = RecordedRequest("POST", self.path, {k: v for k, v in self.headers.items()}, body, raw)
                with fake._lock:
                    fake.requests.append(req)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "not found"}}', {})
                    return
                reply = fake._next(req)
                if reply.delay_s and fake._stop.wait(reply.delay_s):
                    return
                model = body.get("model", "scripted") if isinstance(body, dict) else "scripted"
                self._send(reply.status, reply.payload(str(model)), reply.headers)

        return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description="A scripted OpenAI-compatible chat server on loopback.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--plan", required=True, help="a JSON file holding the plan to answer with")
    args = parser.parse_args()
    with open(args.plan) as fh:
        plan = json.load(fh)
    llm = ScriptedLLM(default=Reply.plan(plan), port=args.port).start()
    print(f"scripted LLM at {llm.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        llm.stop()


if __name__ == "__main__":
    main()

"""Local mode: a server and a host in one process, talking over loopback Socket.IO.

This is what ``devicepilot demo`` and ``devicepilot run`` without ``--server``
use: the same server, the same host agent and the same protocol as a lab,
only on 127.0.0.1. Authentication is on here too: the stack makes a local
admin (``local-admin``) and a token for this run of it, revoked at stop.
"""
from __future__ import annotations

import logging
import re
import threading
from typing import Any
from dataclasses import dataclass
from pathlib import Path

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from host.agent import HostAgent
from host.config import DEMO_CONFIG, HostConfig
from host.lab import Lab
from server.app import Server, create_app
from server.auth_users import Role
from shared.config import Settings
from shared.errors import HostUnavailable

log = logging.getLogger(__name__)

LOCAL_ADMIN = "local-admin"


class _WebSocketTailFilter(logging.Filter):
    """Drop Werkzeug's "Bad request syntax" for the WebSocket frames it reads after an upgrade ends."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not re.search(r"Bad request (syntax|version) \('[^']{0,4}\\x8[128]", message)


logging.getLogger("werkzeug").addFilter(_WebSocketTailFilter())


class _QuietHandler(WSGIRequestHandler):
    """Werkzeug's handler, minus the ``Server: Werkzeug/x Python/y`` banner that tells an attacker versions."""

    def version_string(self) -> str:
        return "devicepilot"

    def log_error(self, format: str, *args: Any) -> None:
        # a WebSocket frame that arrives as the server stops reads as a malformed request: not a server error
        if len(args) > 1 and str(args[0]) == "400" and str(args[1]).startswith(("Bad HTTP", "Bad request")):
            log.debug("malformed request (a late WebSocket frame?): %s", str(args[1])[:80])
            return
        super().log_error(format, *args)


LOOPBACK_BINDS = ("127.0.0.1", "localhost", "::1")


class ServerThread:
    """Serve a devicepilot :class:`Server` with Werkzeug's threaded server in a daemon thread.

    Bound to loopback, the server answers only to loopback host names (unless
    ``DEVICEPILOT_TRUSTED_HOSTS`` says otherwise), which defeats DNS rebinding.
    """

    def __init__(self, server: Server, host: str = "127.0.0.1", port: int = 0) -> None:
        guard = server.extras.get("guard")
        if guard is not None and host in LOOPBACK_BINDS:
            guard.trust_loopback_only()
        elif guard is not None and not guard.trusted_hosts:
            log.warning("listening on %s with no DEVICEPILOT_TRUSTED_HOSTS: any Host header is accepted", host)
        self.server = server
        self.http: BaseWSGIServer = make_server(host, port, server.app, threaded=True, request_handler=_QuietHandler)
        self.thread = threading.Thread(target=self.http.serve_forever, name="http-server", daemon=True)

    @property
    def url(self) -> str:
        host = self.http.host if self.http.host not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{self.http.port}"

    def start(self) -> "ServerThread":
        self.thread.start()
        self.server.runs.start()   # reconcile runs left by a previous process; watch reservation leases
        self.server.extras["schedules"].start()
        return self

    def stop(self) -> None:
        self.server.runs.stop()
        self.server.extras["schedules"].stop()
        self.http.shutdown()
        self.http.server_close()


@dataclass
class LocalStack:
    server: Server
    http: ServerThread
    lab: Lab
    agent: HostAgent
    token: str = ""
    token_id: int | None = None

    @property
    def url(self) -> str:
        return self.http.url

    @classmethod
    def start(cls, config_path: Path = DEMO_CONFIG, *, settings: Settings | None = None,
              bind: str = "127.0.0.1", port: int = 0, register_timeout: float = 30.0) -> "LocalStack":
        settings = settings or Settings.from_env()
        server = create_app(settings)
        http = ServerThread(server, bind, port).start()
        lab = Lab.build(HostConfig.load(config_path))
        agent = HostAgent(lab, http.url, settings.ensure_host_token())
        agent.start()
        if not agent.wait_registered(register_timeout):
            agent.stop()
            lab.close()
            http.stop()
            raise HostUnavailable(f"the local host did not register with the server at {http.url} "
                                  f"within {register_timeout:g}s")
        if server.users.get_by_name(LOCAL_ADMIN) is None:
            server.users.add(LOCAL_ADMIN, Role.ADMIN)
        info, token = server.users.create_token(LOCAL_ADMIN, "local mode")
        log.info("local mode ready at %s", http.url)
        return cls(server, http, lab, agent, token, info.id)

    def login_url(self) -> str:
        """A one-time link that logs a browser in as the local admin (15 minutes)."""
        _, token = self.server.users.create_token(LOCAL_ADMIN, "login link", kind="login")
        return f"{self.url}/login?token={token}"

    def stop(self) -> None:
        if self.token_id is not None:
            try:
                self.server.users.revoke_token(self.token_id)
            except Exception as exc:  # the database may be gone already
                log.debug("local token not revoked: %s", exc)
        self.agent.stop()
        self.lab.close()
        self.http.stop()

"""``devicepilot server`` on gunicorn: a production WSGI server that Flask-SocketIO supports.

One gunicorn worker process with a pool of threads (gunicorn's ``gthread``
worker; Socket.IO's WebSocket transport through simple-websocket), which keeps
the server's threading model: the run service, the lease monitor and the calls
to hosts are ordinary threads. Each open WebSocket (a host, a dashboard) holds
one thread, so ``DEVICEPILOT_THREADS`` bounds the connections (default 128).
One process per server: scale out with several servers on PostgreSQL and a
Redis message queue (see README, Scale), not with more workers in one.

Behind a TLS-terminating proxy set ``DEVICEPILOT_PROXY_HOPS`` to the number of
proxies in front (usually 1): the client's address, scheme and host are then
read from ``X-Forwarded-For``, ``X-Forwarded-Proto`` and ``X-Forwarded-Host``.
"""
from __future__ import annotations

import errno
import logging
import os
import threading
from typing import Any, Callable

from gunicorn.app.base import BaseApplication
from gunicorn.http import wsgi as gunicorn_wsgi
from werkzeug.middleware.proxy_fix import ProxyFix

log = logging.getLogger(__name__)

# gunicorn answers "Server: gunicorn"; say only what this is, never a version
gunicorn_wsgi.SERVER = "devicepilot"


def _int_env(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        return min(high, max(low, int(raw))) if raw else default
    except ValueError:
        log.warning("%s=%r is not a number; using %d", name, raw, default)
        return default


_PEER_GONE = frozenset({errno.EBADF, errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN})


def log_thread_exception(args: threading.ExceptHookArgs) -> None:
    """An exception no thread caught, logged rather than printed. A WebSocket its client had already closed,
    closed again by the Socket.IO library's writer thread (``OSError`` EBADF or EPIPE), is logged at debug
    level: the connection was over and nothing was lost. Anything else is an error, with its traceback."""
    name = args.thread.name if args.thread is not None else "?"
    if isinstance(args.exc_value, OSError) and args.exc_value.errno in _PEER_GONE:
        log.debug("thread %s: the connection was already closed by its peer: %s", name, args.exc_value)
        return
    log.error("uncaught exception in thread %s", name,
              exc_info=(args.exc_type, args.exc_value, args.exc_traceback))  # type: ignore[arg-type]


def with_proxy(app: Callable[..., Any]) -> Callable[..., Any]:
    """Trust ``X-Forwarded-*`` from ``DEVICEPILOT_PROXY_HOPS`` proxies (0, the default: trust none)."""
    hops = _int_env("DEVICEPILOT_PROXY_HOPS", 0, 0, 5)
    return ProxyFix(app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops) if hops else app


class ProductionServer(BaseApplication):
    """Serve the WSGI app that *factory* builds, in the worker process (so its threads start there)."""

    def __init__(self, factory: Callable[[], Callable[..., Any]], bind: str, port: int) -> None:
        self.factory = factory
        self.address = f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"
        super().__init__()

    def load_config(self) -> None:
        settings = {
            "bind": [self.address],
            "workers": 1,                                    # one process: its state is the server's
            "worker_class": "gthread",
            "threads": _int_env("DEVICEPILOT_THREADS", 128, 8, 4096),
            "timeout": 0,                                    # runs wait long (?wait=600); no worker reaping
            "graceful_timeout": 10,
            "keepalive": 5,
            "accesslog": None,
            "errorlog": "-",
            "loglevel": "warning",
            "proc_name": "devicepilot-server",
            "limit_request_line": 8190,
            "limit_request_field_size": 16384,
        }
        for key, value in settings.items():
            self.cfg.set(key, value)

    def load(self) -> Callable[..., Any]:
        threading.excepthook = log_thread_exception
        return self.factory()

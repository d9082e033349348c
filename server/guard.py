"""Guardrails in front of the app: the Origin allowlist, trusted hosts and rate limits.

:class:`GuardMiddleware` wraps the whole WSGI app, Socket.IO included, so one
check covers a browser's ``fetch`` and its WebSocket handshake alike:

- a request whose ``Origin`` is neither the server's own nor listed in
  ``DEVICEPILOT_ALLOWED_ORIGINS`` (comma-separated) is refused with 403: a page
  on another site can neither call the API with the user's cookie nor open
  ``/dashboard``. Requests without ``Origin`` (the CLI, CI, hosts) pass;
  they carry a token, not a cookie.
- a request whose ``Host`` is not trusted is refused with 400: the names in
  ``DEVICEPILOT_TRUSTED_HOSTS`` when set; on a loopback-only server,
  ``localhost``/``127.0.0.1``/``::1`` (which defeats DNS rebinding).

Rate limits (Flask-Limiter, memory storage unless ``DEVICEPILOT_RATE_LIMIT_STORAGE``
names a shared one such as ``redis://…``) are counted per user, or per address
before login; past the limit the answer is 429 with ``Retry-After``.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from flask import Flask, request
from flask_limiter import Limiter
from flask_login import current_user

log = logging.getLogger(__name__)

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
MAX_PLAN_STEPS = 100
"""The most steps any plan may have: refused at the API for a given plan, and before any plan reaches a host."""

@dataclass(frozen=True)
class RateLimit:
    variable: str                              # the environment variable that overrides the default
    default: str
    counts: Callable[[], bool] | None = None   # which requests count; None: all of them


RATE_LIMITS: dict[str, RateLimit] = {
    "api.create_run": RateLimit("DEVICEPILOT_RATE_LIMIT_RUNS", "60 per minute"),
    "api_plans.run_testcase": RateLimit("DEVICEPILOT_RATE_LIMIT_RUNS", "60 per minute"),
    "api.device_execute": RateLimit("DEVICEPILOT_RATE_LIMIT_EXECUTE", "120 per minute"),
    "assistant.post_message": RateLimit("DEVICEPILOT_RATE_LIMIT_ASSISTANT", "30 per minute"),
    "auth.login": RateLimit("DEVICEPILOT_RATE_LIMIT_LOGIN", "10 per minute"),
    # a one-time login link is a credential attempt; showing the login page is not
    "auth.login_link": RateLimit("DEVICEPILOT_RATE_LIMIT_LOGIN", "10 per minute",
                                 counts=lambda: bool(request.args.get("token"))),
}


def _split(raw: str | None) -> frozenset[str]:
    return frozenset(p.strip().rstrip("/").lower() for p in (raw or "").split(",") if p.strip())


def host_name(host_header: str) -> str:
    """``lab:5090`` → ``lab``; ``[::1]:5090`` → ``::1``."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


@dataclass
class GuardPolicy:
    allowed_origins: frozenset[str] = field(default_factory=frozenset)
    trusted_hosts: frozenset[str] = field(default_factory=frozenset)   # empty: every Host is accepted

    @classmethod
    def from_env(cls) -> "GuardPolicy":
        return cls(_split(os.environ.get("DEVICEPILOT_ALLOWED_ORIGINS")),
                   frozenset(host_name(h) for h in _split(os.environ.get("DEVICEPILOT_TRUSTED_HOSTS"))))

    def trust_loopback_only(self) -> None:
        """For a server that listens on loopback only, unless trusted hosts were configured."""
        if not self.trusted_hosts:
            self.trusted_hosts = LOOPBACK_HOSTS

    def own_origin(self, environ: dict[str, Any]) -> str:
        return f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}".lower()

    def origin_allowed(self, origin: str | None, environ: dict[str, Any]) -> bool:
        if not origin:
            return True
        origin = origin.rstrip("/").lower()
        return origin == self.own_origin(environ) or origin in self.allowed_origins

    def host_trusted(self, environ: dict[str, Any]) -> bool:
        return not self.trusted_hosts or host_name(environ.get("HTTP_HOST", "")) in self.trusted_hosts


class GuardMiddleware:
    """WSGI middleware applying :class:`GuardPolicy` before Flask and Socket.IO see the request."""

    def __init__(self, app: Callable[..., Iterable[bytes]], policy: GuardPolicy) -> None:
        self.app = app
        self.policy = policy

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not self.policy.host_trusted(environ):
            log.warning("refused a request for untrusted host %r from %s", environ.get("HTTP_HOST", "")[:100],
                        environ.get("REMOTE_ADDR"))
            return self._refuse(start_response, "400 Bad Request", "this server does not answer to that host name; "
                                "add it to DEVICEPILOT_TRUSTED_HOSTS")
        origin = environ.get("HTTP_ORIGIN")
        if not self.policy.origin_allowed(origin, environ):
            log.warning("refused a request from foreign origin %r to %s", str(origin)[:100], environ.get("PATH_INFO"))
            return self._refuse(start_response, "403 Forbidden", f"requests from origin {str(origin)[:100]!r} are not "
                                "allowed; add it to DEVICEPILOT_ALLOWED_ORIGINS if it is yours")
        return self.app(environ, start_response)

    @staticmethod
    def _refuse(start_response: Callable[..., Any], status: str, message: str) -> Iterable[bytes]:
        body = json.dumps({"error": message, "type": "Forbidden" if status.startswith("403") else "BadRequest"}).encode()
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]


def rate_key() -> str:
    """Limits count per user; before login, per address."""
    if getattr(current_user, "is_authenticated", False):
        return f"user:{current_user.id}"
    return f"addr:{request.remote_addr}"


def init_limits(app: Flask) -> Limiter:
    """Attach Flask-Limiter and the limits of :data:`RATE_LIMITS` to their endpoints."""
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(rate_key, app=app, storage_uri=os.environ.get("DEVICEPILOT_RATE_LIMIT_STORAGE", "memory://"),
                      strategy="fixed-window")
    for endpoint, rule in RATE_LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is None:
            continue
        counts = rule.counts
        limit = limiter.limit(os.environ.get(rule.variable, rule.default),
                              exempt_when=(lambda c=counts: not c()) if counts else None)
        app.view_functions[endpoint] = limit(view)
    return limiter

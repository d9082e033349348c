"""The server's app factory: Flask + Flask-SocketIO, wired to the database, the lab and AI Central."""
from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from flask import Flask, jsonify, request, send_from_directory
from flask_socketio import SocketIO
from werkzeug.exceptions import HTTPException

from server import auth_models  # noqa: F401  (its tables must exist before the database is opened)
from server.ai_central import AICentral
from server.api import api, refuse_bad_json_text
from server.api_dashboard import dashboard_api
from server.api_explore import api_explore
from server.api_planning import api_planning
from server.api_plans import api_plans
from server.api_rules import api_rules
from server.api_schedules import api_schedules
from server.api_screen import api_screen
from server.assistant import AssistantMessageRow, ConversationRow, assistant_api
from server.assistant.budget import assistant_token_counter
from server.audit import AuditRow, init_audit
from server.auth import init_auth
from server.auth_users import Users
from server.db import Database, PlanCacheRow, PlanningRow, RuleRow, RunRow, StepRow, TreeRow
from server.guard import GuardMiddleware, GuardPolicy, init_limits
from server.guard_secrets import Scrubber, scrub_database, scrub_logs, scrub_responses
from server.host_tokens import HostTokens
from server.lab import Lab
from server.live import LiveScreens
from server.openapi import openapi_api
from server.plan_cache import PlanCache
from server.planners.base import Planner
from server.runs import RunService
from server.schedules import Schedules
from server.sockets import DashboardNamespace, HostNamespace
from server.storage import FileStore
from shared.config import Settings
from shared.errors import ConfigError, DevicePilotError, HostUnavailable, InfraError, RequestError
from shared.protocol import DASHBOARD_NS, DashboardEvent
from shared.wire import whole_packets

log = logging.getLogger(__name__)

FRONTEND_DIR = Path(__file__).resolve().parent.parent / "frontend"
DEFAULT_MAX_SOCKET_MESSAGE_BYTES = 8 * 1024 * 1024   # a host's step result carries a full-size PNG


def max_socket_message_bytes() -> int:
    """``DEVICEPILOT_MAX_SOCKET_MESSAGE_BYTES``: the largest Socket.IO message (hosts send screenshots in them)."""
    raw = os.environ.get("DEVICEPILOT_MAX_SOCKET_MESSAGE_BYTES", "")
    return int(raw) if raw.strip().isdigit() else DEFAULT_MAX_SOCKET_MESSAGE_BYTES


@dataclass
class Server:
    """Everything the server holds, reachable from handlers as ``app.extensions['devicepilot']``."""

    settings: Settings
    app: Flask
    socketio: SocketIO
    db: Database
    files: FileStore
    lab: Lab
    ai: AICentral
    runs: RunService
    live: LiveScreens
    host_tokens: HostTokens
    users: Users
    version: str = "0.1.0"
    extras: dict[str, Any] = field(default_factory=dict)


def default_planners(settings: Settings, plan_cache: PlanCache | None = None) -> list[Planner]:
    """The chain AI Central tries in order: plan cache → LLM (when one is configured) → built-in."""
    from server.planners.builtin import BuiltinPlanner
    from server.planners.cache import CachePlanner
    from server.planners.llm import LLMPlanner

    chain: list[Planner] = []
    if plan_cache is not None:
        chain.append(CachePlanner(plan_cache))
    if settings.llm.configured:
        chain.append(LLMPlanner.from_settings(settings.llm))
        log.info("LLM planner: %s model %s (%s)", settings.llm.base_url, settings.llm.model,
                 "with an API key" if settings.llm.api_key else "no API key")
    else:
        log.info("no LLM configured: the built-in planner plans alone")
    chain.append(BuiltinPlanner())
    return chain


def _status_for(exc: DevicePilotError) -> int:
    if isinstance(exc, RequestError):
        return exc.status_code
    if isinstance(exc, ConfigError):
        return 400
    if isinstance(exc, HostUnavailable):
        return 503
    return 502 if isinstance(exc, InfraError) else 500


@dataclass
class Audience:
    """How many dashboards this process serves (lab events are not built for nobody)."""

    always: bool = False
    count: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def listening(self) -> bool:
        return self.always or self.count > 0

    def add(self, delta: int) -> None:
        with self.lock:
            self.count = max(0, self.count + delta)


def create_app(settings: Settings | None = None, planners: Sequence[Planner] | None = None) -> Server:
    settings = settings or Settings.from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.ensure_host_token()
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_request_bytes
    app.json.sort_keys = False  # type: ignore[attr-defined]
    guard = GuardPolicy.from_env()
    socketio = SocketIO(app, async_mode="threading", cors_allowed_origins=guard.origin_allowed,
                        message_queue=settings.message_queue or None,
                        max_http_buffer_size=max_socket_message_bytes(), ping_interval=10, ping_timeout=20)
    whole_packets(socketio.server)   # a packet's bytes are never interleaved with another's (shared/wire.py)
    app.wsgi_app = GuardMiddleware(app.wsgi_app, guard)  # type: ignore[method-assign]
    db = Database(settings.resolved_database_url())
    scrubber = Scrubber([settings.llm.api_key.reveal(), settings.ensure_host_token().reveal()])
    scrub_database(db._sessions, scrubber, (RunRow, StepRow, PlanCacheRow, TreeRow, AuditRow, PlanningRow,  # noqa: SLF001
                                            RuleRow, ConversationRow, AssistantMessageRow))
    scrub_logs(scrubber)
    files = FileStore(settings.data_dir, scrubber)

    def emit(event: str, data: dict[str, Any]) -> None:
        socketio.emit(event, data, namespace=DASHBOARD_NS)

    # lab events are built only when a dashboard may hear them: this server's own, or any (message queue)
    audience = Audience(always=bool(settings.message_queue))

    def lab_changed() -> None:
        if audience.listening:
            emit(DashboardEvent.LAB_UPDATE, lab.snapshot())

    def device_changed(device_id: str) -> None:
        if audience.listening:
            try:
                emit(DashboardEvent.DEVICE_UPDATE, {"device": lab.device_dict(device_id)})
            except RequestError:   # deleted meanwhile
                pass

    lab = Lab(db, socketio, settings.host_call_timeout_s, on_change=lab_changed, on_device_change=device_changed)
    lab.scrub = scrubber.value
    plan_cache = PlanCache(db, settings.plan_cache_max_entries)
    ai = AICentral(lab, planners if planners is not None else default_planners(settings, plan_cache),
                   settings.context_ttl_s)
    runs = RunService(db, lab, ai, files, emit, socketio.start_background_task, settings.max_task_chars,
                      plan_cache=plan_cache)
    srv = Server(settings, app, socketio, db, files, lab, ai, runs, LiveScreens(socketio, lab), HostTokens(db),
                 Users(db))
    srv.extras["plan_cache"] = plan_cache
    srv.extras["schedules"] = Schedules(runs, lab, settings.resolved_database_url())
    srv.extras["guard"] = guard
    srv.extras["audience"] = audience
    app.extensions["devicepilot"] = srv
    init_auth(app, srv)
    app.before_request(refuse_bad_json_text)
    scrub_responses(app, scrubber)
    app.register_blueprint(api)
    app.register_blueprint(api_plans)
    app.register_blueprint(dashboard_api)
    app.register_blueprint(api_rules)
    app.register_blueprint(api_planning)
    app.register_blueprint(api_screen)
    app.register_blueprint(api_explore)
    app.register_blueprint(openapi_api)
    app.register_blueprint(assistant_api)
    app.register_blueprint(api_schedules)
    srv.extras["llm_token_counters"] = [assistant_token_counter(srv)]
    srv.extras["audit"] = init_audit(app, srv)
    init_limits(app)
    socketio.on_namespace(HostNamespace(srv))
    socketio.on_namespace(DashboardNamespace(srv))

    @app.errorhandler(DevicePilotError)
    def project_error(exc: DevicePilotError) -> Any:
        return jsonify({"error": str(exc), "type": type(exc).__name__}), _status_for(exc)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        message = exc.description
        if exc.code == 413:
            message = f"request too large: the limit is {settings.max_request_bytes} bytes"
            _discard_body(settings.max_request_bytes * DRAIN_FACTOR)
        elif exc.code == 429:
            message = f"too many requests: the limit is {exc.description} for each user; retry after the " \
                      "number of seconds in Retry-After"
        return jsonify({"error": message, "type": type(exc).__name__}), exc.code

    @app.get("/")
    def index() -> Any:
        return send_from_directory(FRONTEND_DIR, "index.html")

    @app.get("/static/<path:name>")
    def static_files(name: str) -> Any:
        return send_from_directory(FRONTEND_DIR, name)

    return srv


DRAIN_FACTOR = 8


def _discard_body(cap: int) -> None:
    """Read and drop the body of a refused request (up to *cap* bytes), so the connection stays usable.

    The 413 response says ``Connection: keep-alive``; a body left unread makes the server close the
    connection afterwards anyway, and the client's next request on it then fails with "connection
    aborted". A body larger than *cap* is not read: that connection closes.
    """
    length = request.content_length
    if length is None or length > cap:
        return
    stream = request.environ.get("wsgi.input")
    remaining = length
    try:
        while remaining > 0 and stream is not None:
            chunk = stream.read(min(remaining, 64 * 1024))
            if not chunk:
                break
            remaining -= len(chunk)
    except OSError:
        log.debug("the client went away while its refused body was being discarded")

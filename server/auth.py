"""Authentication for the REST API, the dashboard and Socket.IO.

- API clients (CLI, CI) send ``Authorization: Bearer <token>``; tokens are a
  user's (see :mod:`server.auth_users`). Such requests carry no cookie and need
  no CSRF token.
- The dashboard logs in (``POST /api/auth/login`` with a name and password or a
  token, or a one-time link ``/login?token=…``) and then rides a Flask-Login
  session: an HttpOnly, SameSite=Lax cookie, Secure whenever the request came
  over HTTPS (or always with ``DEVICEPILOT_COOKIE_SECURE=1``). Every unsafe
  request made with that session must carry Flask-WTF's CSRF token in
  ``X-CSRFToken`` (``GET /api/auth/me`` gives it).
- :func:`gate` runs before every request: public endpoints pass, anyone else
  without credentials gets 401, a role below the endpoint's rule
  (:mod:`server.auth_policy`) gets 403.
"""
from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, redirect, request, send_from_directory
from flask.sessions import SecureCookieSessionInterface
from flask_login import LoginManager, current_user, login_user, logout_user
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf

from server.auth_policy import PUBLIC, rule_for
from server.auth_users import Role, User, Users
from shared.errors import RequestError

log = logging.getLogger(__name__)

auth = Blueprint("auth", __name__)
FRONTEND_DIR = Path(__file__).resolve().parent.parent / "frontend"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
csrf = CSRFProtect()


class _SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request itself came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def secret_key(data_dir: Path) -> bytes:
    """``DEVICEPILOT_SECRET_KEY``, else a key kept (0600) in the data dir so sessions survive a restart."""
    env = os.environ.get("DEVICEPILOT_SECRET_KEY")
    if env:
        return env.encode()
    path = data_dir / "secret-key"
    if path.exists():
        return path.read_bytes()
    value = secrets.token_hex(32).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(value)
    return value


def bearer() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def users() -> Users:
    return current_app.extensions["devicepilot"].users


def init_auth(app: Flask, srv: Any) -> None:
    app.secret_key = secret_key(srv.settings.data_dir)
    app.session_interface = _SessionInterface()
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      SESSION_COOKIE_NAME="devicepilot_session",
                      SESSION_COOKIE_SECURE=os.environ.get("DEVICEPILOT_COOKIE_SECURE", "") in ("1", "true", "yes"),
                      REMEMBER_COOKIE_HTTPONLY=True, WTF_CSRF_CHECK_DEFAULT=False, WTF_CSRF_TIME_LIMIT=None,
                      WTF_CSRF_SSL_STRICT=False)
    manager = LoginManager()
    manager.session_protection = "basic"
    manager.init_app(app)
    csrf.init_app(app)

    @manager.user_loader
    def load_user(user_id: str) -> User | None:
        return srv.users.get(int(user_id)) if user_id.isdigit() else None

    @manager.request_loader
    def load_from_token(_: Any) -> User | None:
        token = bearer()
        return srv.users.by_token(token) if token else None

    @manager.unauthorized_handler
    def unauthorized() -> Any:
        return _refuse(401, "log in first: send Authorization: Bearer <token> or log in at /login")

    @app.errorhandler(CSRFError)
    def csrf_refused(exc: CSRFError) -> Any:
        return _refuse(403, f"CSRF check failed ({exc.description}); send the X-CSRFToken header "
                            "from GET /api/auth/me")

    app.before_request(gate)
    app.register_blueprint(auth)


def _refuse(status: int, message: str) -> Any:
    return jsonify({"error": message, "type": "Unauthorized" if status == 401 else "Forbidden"}), status


def gate() -> Any:
    """Refuse the request unless its caller may call its endpoint (see the module's docstring)."""
    if request.endpoint is None:        # no such route: let the 404 (or 405) through
        return None
    rule = rule_for(request.endpoint)
    if rule == PUBLIC:
        return None
    user = current_user
    if not getattr(user, "is_authenticated", False):
        return _refuse(401, "log in first: send Authorization: Bearer <token> or log in at /login")
    if not isinstance(rule, Role):
        log.error("endpoint %s has no access rule; refused", request.endpoint)
        return _refuse(403, f"{request.endpoint} has no access rule; it is refused to everyone")
    if not user.may(rule):
        return _refuse(403, f"{request.method} {request.path} needs the {rule.label} role; "
                            f"{user.name} is a {user.role.label}")
    if request.method in UNSAFE and user.token_id is None:   # a cookie session: CSRF applies
        csrf.protect()
    return None


# -- routes -------------------------------------------------------------------------------------

@auth.post("/api/auth/login")
def login() -> Any:
    """``{"name", "password"}`` or ``{"token"}`` → a dashboard session (cookie)."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RequestError("send a JSON object {name, password} or {token}")
    user: User | None = None
    if isinstance(data.get("token"), str):
        user = users().by_token(data["token"])
    elif isinstance(data.get("name"), str) and isinstance(data.get("password"), str):
        user = users().by_password(data["name"], data["password"])
    else:
        raise RequestError("send {name, password} or {token}")
    if user is None:
        log.warning("failed login from %s", request.remote_addr)
        return _refuse(401, "wrong name, password or token")
    login_user(User(user.id, user.name, user.role))
    return jsonify({"user": user.to_dict(), "csrf_token": generate_csrf()})


@auth.get("/login")
def login_link() -> Any:
    """A one-time link (``/login?token=…``) logs the browser in and opens the dashboard; else the login page."""
    token = request.args.get("token", "")
    if token:
        user = users().by_token(token, kind="login")
        if user is None:
            return _refuse(401, "this login link was used already, has expired or is wrong; ask for a new one")
        login_user(user)
        return redirect("/")
    return send_from_directory(FRONTEND_DIR, "login.html")


@auth.post("/api/auth/logout")
def logout() -> Any:
    logout_user()
    return jsonify({"ok": True})


@auth.get("/api/auth/me")
def me() -> Any:
    return jsonify({"user": current_user.to_dict(), "csrf_token": generate_csrf()})


@auth.post("/api/auth/login-links")
def create_login_link() -> Any:
    """A one-time link (15 minutes) that logs a browser in as *user* (default: the caller)."""
    data = request.get_json(silent=True) or {}
    name = data.get("user", current_user.name) if isinstance(data, dict) else current_user.name
    if not isinstance(name, str):
        raise RequestError("'user' must be a user name")
    _, token = users().create_token(name, "login link", kind="login")
    return jsonify({"url": f"{request.host_url.rstrip('/')}/login?token={token}", "expires_in_s": 900}), 201


@auth.get("/api/users")
def list_users() -> Any:
    return jsonify(users().list())

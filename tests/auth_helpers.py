"""Authenticated Flask test clients for tests that drive the app in-process."""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from server.auth_users import Role, Users


def token_for(users: Users, name: str, role: Role | str) -> str:
    if users.get_by_name(name) is None:
        users.add(name, role)
    return users.create_token(name, "test")[1]


def authorize(app: Flask, users: Users, role: Role | str = Role.ADMIN, name: str = "test-admin") -> str:
    """Make ``app.test_client()`` send a bearer token of a user with *role*; returns the token."""
    token = token_for(users, name, role)

    class Client(FlaskClient):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"

    app.test_client_class = Client
    return token

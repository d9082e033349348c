"""A small HTTP client of the devicepilot REST API, used by the CLI."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

import requests

from devicepilot.http import session as http_session
from shared.config import default_data_dir
from shared.errors import DevicePilotError, HostUnavailable, RequestError
from shared.models import RunStatus

CLIENT_TOKEN_FILE = "client-token"


def client_token_file(data_dir: Path | None = None) -> Path:
    return (data_dir or default_data_dir()) / CLIENT_TOKEN_FILE


def save_client_token(data_dir: Path, token: str) -> Path:
    """Keep *token* (0600) where a CLI on this machine finds it, as the server does with its host token."""
    path = client_token_file(data_dir)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(token)
    return path


def find_token() -> str:
    """``DEVICEPILOT_TOKEN``, else the token file the local set-up wrote (``<data dir>/client-token``), else ''."""
    token = os.environ.get("DEVICEPILOT_TOKEN", "").strip()
    if token:
        return token
    path = client_token_file()
    try:
        return path.read_text().strip()
    except OSError:
        return ""


class ApiClient:
    def __init__(self, base_url: str, timeout: float = 30.0, token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.http = http_session()
        token = token if token is not None else find_token()
        if token:
            self.http.headers["Authorization"] = f"Bearer {token}"

    def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            resp = self.http.request(method, self.base_url + path, timeout=self.timeout, **kwargs)
        except requests.RequestException as exc:
            raise HostUnavailable(f"cannot reach the devicepilot server at {self.base_url}: {exc}") from exc
        if resp.status_code >= 400:
            try:
                message = resp.json().get("error", resp.text)
            except ValueError:
                message = resp.text
            if resp.status_code == 401:
                message += " (set DEVICEPILOT_TOKEN to a token from `devicepilot token create <user>`)"
            raise (RequestError if resp.status_code < 500 else DevicePilotError)(message)
        return resp.json()

    def get(self, path: str) -> Any:
        return self._request("GET", path)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self._request("POST", path, json=body)

    # -- rules (named phrases a task may use) ------------------------------------------------
    @staticmethod
    def _rule_path(ref: str, scope: str | None, tail: str = "") -> str:
        return (f"/api/rules/{quote(ref, safe='')}{tail}"
                + ("" if scope is None else f"?scope={quote(scope, safe='')}"))

    def rules(self, scope: str | None = None) -> list[dict[str, Any]]:
        return self.get("/api/rules" + ("" if scope is None else f"?scope={quote(scope, safe='')}"))

    def rule(self, ref: str, scope: str | None = None, versions: bool = False) -> Any:
        return self.get(self._rule_path(ref, scope, "/versions" if versions else ""))

    def add_rule(self, rule: dict[str, Any]) -> dict[str, Any]:
        return self.post("/api/rules", rule)

    def import_rules(self, yaml_text: str) -> list[dict[str, Any]]:
        return self._request("POST", "/api/rules/import", data=yaml_text.encode(),
                             headers={"Content-Type": "application/yaml"})

    def delete_rule(self, ref: str, scope: str | None = None) -> dict[str, Any]:
        return self._request("DELETE", self._rule_path(ref, scope))

    def follow(self, run_id: str, on_step: Callable[[dict[str, Any]], None],
               on_plan: Callable[[dict[str, Any]], None], timeout: float = 600.0,
               poll_s: float = 0.2) -> dict[str, Any]:
        """Poll a run until it finishes, calling back with its plan and each new step."""
        deadline = time.monotonic() + timeout
        seen = 0
        plan_shown = False
        while True:
            run = self.get(f"/api/runs/{run_id}")
            if run.get("plan") and not plan_shown:
                on_plan(run)
                plan_shown = True
            for step in run.get("steps", [])[seen:]:
                on_step(step)
            seen = len(run.get("steps", []))
            if RunStatus(run["status"]).finished:
                return run
            if time.monotonic() > deadline:
                raise HostUnavailable(f"run {run_id} did not finish within {timeout:g}s")
            time.sleep(poll_s)

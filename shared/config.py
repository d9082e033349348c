"""Server-side settings from ``DEVICEPILOT_*`` environment variables.

Secrets are held in :class:`Secret`, whose ``repr``/``str`` never show the value,
so a settings object can be logged or put in a report without leaking a key.
"""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


class Secret:
    """A string that does not print itself."""

    __slots__ = ("_value",)

    def __init__(self, value: str | None) -> None:
        self._value = value or ""

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('***')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and secrets.compare_digest(self._value, other._value)

    def __hash__(self) -> int:
        return hash(self._value)


def default_data_dir() -> Path:
    env = os.environ.get("DEVICEPILOT_DATA_DIR")
    if env:
        return Path(env).expanduser().resolve()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return (Path(base) / "devicepilot").resolve()


def _float_env(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return float(raw) if raw else default


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw else default


@dataclass
class Settings:
    """Server configuration. Every field has a ``DEVICEPILOT_<FIELD>`` variable."""

    data_dir: Path = field(default_factory=default_data_dir)
    database_url: str = ""
    host_token: Secret = field(default_factory=lambda: Secret(None))
    context_ttl_s: float = 300.0
    host_call_timeout_s: float = 30.0
    max_request_bytes: int = 1024 * 1024
    max_task_chars: int = 2000
    message_queue: str = ""

    @classmethod
    def from_env(cls) -> "Settings":
        s = cls()
        s.database_url = os.environ.get("DEVICEPILOT_DATABASE_URL", "")
        s.host_token = Secret(os.environ.get("DEVICEPILOT_HOST_TOKEN"))
        s.context_ttl_s = _float_env("DEVICEPILOT_CONTEXT_TTL_S", s.context_ttl_s)
        s.host_call_timeout_s = _float_env("DEVICEPILOT_HOST_CALL_TIMEOUT_S", s.host_call_timeout_s)
        s.max_request_bytes = _int_env("DEVICEPILOT_MAX_REQUEST_BYTES", s.max_request_bytes)
        s.message_queue = os.environ.get("DEVICEPILOT_MESSAGE_QUEUE", "")
        return s

    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'devicepilot.db'}"

    def ensure_host_token(self) -> Secret:
        """The host token: from the environment, else one kept in the data dir.

        A host on the same machine reads the same file, so local set-ups need no
        configuration; a remote host is given ``DEVICEPILOT_HOST_TOKEN``.
        """
        if self.host_token:
            return self.host_token
        self.host_token = read_or_create_token(self.data_dir)
        return self.host_token


def token_file(data_dir: Path) -> Path:
    return data_dir / "host-token"


def read_or_create_token(data_dir: Path) -> Secret:
    path = token_file(data_dir)
    if path.exists():
        return Secret(path.read_text().strip())
    data_dir.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(value)
    return Secret(value)

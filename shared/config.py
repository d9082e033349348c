"""Server-side settings from ``DEVICEPILOT_*`` environment variables.

Secrets are held in :class:`Secret`, whose ``repr``/``str`` never show the value,
so a settings object can be logged or put in a report without leaking a key.
"""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse


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


def _float_env(name: str, default: float, env: "os._Environ[str] | dict[str, str] | None" = None) -> float:
    raw = (os.environ if env is None else env).get(name)
    return float(raw) if raw else default


def _int_env(name: str, default: int, env: "os._Environ[str] | dict[str, str] | None" = None) -> int:
    raw = (os.environ if env is None else env).get(name)
    return int(raw) if raw else default


OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
OPENROUTER_DEFAULT_MODEL = "openai/gpt-4o-mini"
LOCAL_DEFAULT_MODEL = "llama3.1"


def _host_of(url: str) -> str:
    return (urlparse(url).hostname or "").lower()


@dataclass
class LLMSettings:
    """Where the LLM planner sends its requests, and how patiently.

    Any OpenAI-compatible chat-completions endpoint works (OpenAI, OpenRouter,
    Ollama, vLLM, llama.cpp server). Resolution, first match wins:

    * ``DEVICEPILOT_LLM_BASE_URL`` / ``DEVICEPILOT_LLM_API_KEY`` / ``DEVICEPILOT_LLM_MODEL``;
      a key without a base URL means OpenAI; a base URL without a key means a
      local server (no ``Authorization`` header is sent);
    * ``OPENAI_API_KEY`` (base URL ``https://api.openai.com/v1``);
    * ``OPENROUTER_API_KEY`` (base URL ``https://openrouter.ai/api/v1``).

    A vendor key is only ever sent to that vendor's host: with
    ``DEVICEPILOT_LLM_BASE_URL`` pointing at a local server, ``OPENAI_API_KEY``
    is not used. Without any of these the built-in planner plans alone.
    """

    base_url: str = ""
    api_key: Secret = field(default_factory=lambda: Secret(None))
    model: str = ""
    timeout_s: float = 12.0
    max_tokens: int = 1024
    max_retries: int = 2
    retry_wait_max_s: float = 8.0
    prompt_commands: int = 20

    @property
    def configured(self) -> bool:
        return bool(self.base_url)

    @classmethod
    def from_env(cls, env: "os._Environ[str] | dict[str, str] | None" = None) -> "LLMSettings":
        env = os.environ if env is None else env
        s = cls()
        base = (env.get("DEVICEPILOT_LLM_BASE_URL") or "").strip().rstrip("/")
        key = Secret((env.get("DEVICEPILOT_LLM_API_KEY") or "").strip() or None)
        openai_key = Secret((env.get("OPENAI_API_KEY") or "").strip() or None)
        openrouter_key = Secret((env.get("OPENROUTER_API_KEY") or "").strip() or None)
        default_model = LOCAL_DEFAULT_MODEL
        if base:
            host = _host_of(base)
            if not key and host == _host_of(OPENAI_BASE_URL):
                key = openai_key
            elif not key and host == _host_of(OPENROUTER_BASE_URL):
                key = openrouter_key
            if host == _host_of(OPENROUTER_BASE_URL):
                default_model = OPENROUTER_DEFAULT_MODEL
            elif host == _host_of(OPENAI_BASE_URL):
                default_model = OPENAI_DEFAULT_MODEL
        elif key or openai_key:
            base, key, default_model = OPENAI_BASE_URL, key or openai_key, OPENAI_DEFAULT_MODEL
        elif openrouter_key:
            base, key, default_model = OPENROUTER_BASE_URL, openrouter_key, OPENROUTER_DEFAULT_MODEL
        s.base_url, s.api_key = base, key
        s.model = (env.get("DEVICEPILOT_LLM_MODEL") or "").strip() or default_model
        s.timeout_s = _float_env("DEVICEPILOT_LLM_TIMEOUT_S", s.timeout_s, env)
        s.max_tokens = _int_env("DEVICEPILOT_LLM_MAX_TOKENS", s.max_tokens, env)
        s.max_retries = _int_env("DEVICEPILOT_LLM_MAX_RETRIES", s.max_retries, env)
        s.retry_wait_max_s = _float_env("DEVICEPILOT_LLM_RETRY_WAIT_MAX_S", s.retry_wait_max_s, env)
        s.prompt_commands = _int_env("DEVICEPILOT_LLM_PROMPT_COMMANDS", s.prompt_commands, env)
        return s


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
    llm: LLMSettings = field(default_factory=LLMSettings)
    plan_cache_max_entries: int = 5000

    @classmethod
    def from_env(cls) -> "Settings":
        s = cls()
        s.database_url = os.environ.get("DEVICEPILOT_DATABASE_URL", "")
        s.host_token = Secret(os.environ.get("DEVICEPILOT_HOST_TOKEN"))
        s.context_ttl_s = _float_env("DEVICEPILOT_CONTEXT_TTL_S", s.context_ttl_s)
        s.host_call_timeout_s = _float_env("DEVICEPILOT_HOST_CALL_TIMEOUT_S", s.host_call_timeout_s)
        s.max_request_bytes = _int_env("DEVICEPILOT_MAX_REQUEST_BYTES", s.max_request_bytes)
        s.message_queue = os.environ.get("DEVICEPILOT_MESSAGE_QUEUE", "")
        s.llm = LLMSettings.from_env()
        s.plan_cache_max_entries = _int_env("DEVICEPILOT_PLAN_CACHE_MAX_ENTRIES", s.plan_cache_max_entries)
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

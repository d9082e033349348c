"""A small client of any OpenAI-compatible chat-completions endpoint, over ``requests``.

Works with OpenAI, OpenRouter, Ollama, vLLM and the llama.cpp server::

    client = LLMClient(LLMSettings(base_url="http://127.0.0.1:11434/v1", model="llama3.1"))
    reply = client.complete([{"role": "user", "content": "..."}], schema)

Temperature 0, bounded ``max_tokens``, a short timeout. A 429 or 5xx is
retried with exponential backoff, respecting ``Retry-After`` up to a bound
(asked to wait longer, the client gives up rather than call early). The
structured-output mode that works is remembered per endpoint: JSON schema
first, then JSON mode, then plain text, stepping down when the endpoint
answers that it does not support ``response_format``.

Every failure is a :class:`~shared.errors.PlannerError` whose
``details["failure"]`` is an :class:`LLMFailure`. The API key is sent only in
the ``Authorization`` header (none without a key) and is scrubbed from every
message this module produces.
"""
from __future__ import annotations

import email.utils
import json
import logging
import random
import threading
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable
from urllib.parse import urlparse

import requests

from server.llm.structured import OutputMode, rejects_format, response_format
from server.llm.usage import TokenUsage
from shared.config import LLMSettings
from shared.errors import PlannerError

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 3.0
BACKOFF_BASE_S = 0.5
ERROR_BODY_CHARS = 300


class LLMFailure(str, Enum):
    """Why an LLM call produced no answer."""

    UNREACHABLE = "unreachable"    # connection refused, DNS, TLS
    TIMEOUT = "timeout"            # no answer within the timeout
    RATE_LIMITED = "rate_limited"  # 429 after the retries, or asked to wait too long
    SERVER_ERROR = "server_error"  # 5xx after the retries
    REJECTED = "rejected"          # another 4xx: bad key, unknown model, bad request
    BAD_RESPONSE = "bad_response"  # 200 with a body that is not a chat completion


@dataclass(frozen=True)
class ToolCallRequest:
    """One native tool call in a reply: the tool's name and its arguments as the model wrote them (JSON text)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ChatReply:
    """One completed chat call."""

    content: str
    usage: TokenUsage
    model: str
    mode: OutputMode
    finish_reason: str
    retries: int
    refusal: str = ""
    tool_calls: tuple[ToolCallRequest, ...] = ()

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


class LLMClient:
    """Chat completions against one configured endpoint. Thread-safe; one per server."""

    def __init__(self, settings: LLMSettings, *, session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if not settings.base_url:
            raise PlannerError("no LLM endpoint configured (set DEVICEPILOT_LLM_BASE_URL or an API key)")
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.host = urlparse(settings.base_url).netloc or settings.base_url
        self._shared_session = session
        self._local = threading.local()   # one requests.Session per planning thread
        self._sleep = sleep
        self._modes: dict[str, OutputMode] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LLMClient(url={self.url!r}, model={self.settings.model!r}, key={self.settings.api_key!r})"

    # -- structured-output memory -------------------------------------------------------
    @property
    def endpoint_key(self) -> str:
        return f"{self.url}|{self.settings.model}"

    def mode(self) -> OutputMode:
        """The structured-output mode this endpoint is known to accept (JSON schema until told otherwise)."""
        with self._lock:
            return self._modes.get(self.endpoint_key, OutputMode.JSON_SCHEMA)

    def _remember(self, mode: OutputMode) -> None:
        with self._lock:
            self._modes[self.endpoint_key] = mode

    # -- helpers --------------------------------------------------------------------------
    def _session(self) -> requests.Session:
        if self._shared_session is not None:
            return self._shared_session
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
        return session

    def redact(self, text: str) -> str:
        """*text* with the API key (if any) replaced by ``***``."""
        key = self.settings.api_key.reveal()
        return text.replace(key, "***") if key and len(key) >= 4 else text

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json", "X-Title": "devicepilot"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key.reveal()}"
        return headers

    def _body(self, messages: list[dict[str, Any]], schema: dict[str, Any], mode: OutputMode,
              tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.settings.model, "messages": messages, "temperature": 0,
                                "max_tokens": self.settings.max_tokens, "stream": False}
        if tools:
            body["tools"] = tools
        fmt = response_format(mode, schema)
        if fmt is not None:
            body["response_format"] = fmt
        return body

    def _fail(self, message: str, failure: LLMFailure, status: int | None = None) -> PlannerError:
        return PlannerError(self.redact(message), failure=failure, status=status)

    def _retry_delay(self, resp: requests.Response, retry: int) -> float:
        raw = resp.headers.get("Retry-After", "").strip()
        if raw:
            try:
                return max(0.0, float(raw))
            except ValueError:
                try:
                    when = email.utils.parsedate_to_datetime(raw)
                except (TypeError, ValueError):
                    when = None
                if when is not None:
                    return max(0.0, when.timestamp() - time.time())
        delay = BACKOFF_BASE_S * (2 ** retry)
        return delay + random.uniform(0, delay * 0.1)

    def _error_text(self, resp: requests.Response) -> str:
        try:
            data = resp.json()
        except ValueError:
            return resp.text[:ERROR_BODY_CHARS]
        err = data.get("error") if isinstance(data, dict) else None
        if isinstance(err, dict):
            return str(err.get("message") or err)[:ERROR_BODY_CHARS]
        return str(err or data)[:ERROR_BODY_CHARS]

    # -- the call ---------------------------------------------------------------------
    def complete(self, messages: list[dict[str, Any]], schema: dict[str, Any],
                 usage: TokenUsage | None = None, tools: list[dict[str, Any]] | None = None) -> ChatReply:
        """Send *messages*; return the reply. Every request sent is counted in *usage*.

        With *tools* (OpenAI function declarations) the request offers them and asks for no
        ``response_format``; the reply's ``tool_calls`` holds what the model called. ``tools=[]``
        asks for a plain-text answer.
        """
        usage = usage if usage is not None else TokenUsage()
        mode = OutputMode.TEXT if tools is not None else self.mode()
        retries = 0
        timeout = (min(CONNECT_TIMEOUT_S, self.settings.timeout_s), self.settings.timeout_s)
        while True:
            started = time.perf_counter()
            try:
                resp = self._session().post(self.url, json=self._body(messages, schema, mode, tools),
                                            headers=self._headers(), timeout=timeout)
            except requests.Timeout:
                usage.llm_calls += 1
                raise self._fail(f"LLM at {self.host} did not answer within {self.settings.timeout_s:g}s",
                                 LLMFailure.TIMEOUT) from None
            except requests.RequestException as exc:
                raise self._fail(f"LLM endpoint {self.host} unreachable: {type(exc).__name__}",
                                 LLMFailure.UNREACHABLE) from None
            usage.llm_calls += 1
            elapsed_ms = (time.perf_counter() - started) * 1000
            if resp.status_code == 200:
                reply = self._parse(resp, mode, retries)
                usage.prompt_tokens += reply.usage.prompt_tokens
                usage.completion_tokens += reply.usage.completion_tokens
                usage.total_tokens += reply.usage.total_tokens
                if tools is None:
                    self._remember(mode)
                log.info("LLM %s model %s (%s): %d tokens in %.0f ms", self.host, reply.model, mode.value,
                         reply.usage.total_tokens, elapsed_ms)
                return reply
            text = self.redact(self._error_text(resp))
            lower = mode.downgrade()
            if lower is not None and rejects_format(resp.status_code, text):
                log.warning("LLM %s does not accept response_format %s (%d: %s); using %s from now on",
                            self.host, mode.value, resp.status_code, text[:120], lower.value)
                mode = lower
                self._remember(mode)
                continue
            if resp.status_code == 429 or resp.status_code >= 500:
                failure = LLMFailure.RATE_LIMITED if resp.status_code == 429 else LLMFailure.SERVER_ERROR
                if retries >= self.settings.max_retries:
                    raise self._fail(f"LLM at {self.host} answered {resp.status_code} after {retries + 1} "
                                     f"attempt(s): {text}", failure, resp.status_code)
                delay = self._retry_delay(resp, retries)
                if delay > self.settings.retry_wait_max_s:
                    raise self._fail(f"LLM at {self.host} answered {resp.status_code} and asks to wait {delay:.0f}s "
                                     f"(more than {self.settings.retry_wait_max_s:g}s)", failure, resp.status_code)
                retries += 1
                log.warning("LLM %s answered %d; retry %d/%d in %.2fs", self.host, resp.status_code, retries,
                            self.settings.max_retries, delay)
                self._sleep(delay)
                continue
            raise self._fail(f"LLM at {self.host} rejected the request ({resp.status_code}): {text}",
                             LLMFailure.REJECTED, resp.status_code)

    def _parse(self, resp: requests.Response, mode: OutputMode, retries: int) -> ChatReply:
        try:
            data = resp.json()
        except ValueError:
            raise self._fail(f"LLM at {self.host} sent a body that is not JSON", LLMFailure.BAD_RESPONSE) from None
        if not isinstance(data, dict):
            raise self._fail(f"LLM at {self.host} sent a body that is not a chat completion",
                             LLMFailure.BAD_RESPONSE)
        choices = data.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
        message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        if not isinstance(content, str):
            content = ""
        refusal = message.get("refusal")
        return ChatReply(content, TokenUsage.from_response(data.get("usage")),
                         str(data.get("model") or self.settings.model), mode, str(choice.get("finish_reason") or ""),
                         retries, self.redact(refusal[:ERROR_BODY_CHARS]) if isinstance(refusal, str) else "",
                         _tool_calls(message.get("tool_calls")))


def _tool_calls(raw: Any) -> tuple[ToolCallRequest, ...]:
    """The native ``tool_calls`` of a reply message; malformed entries are left out."""
    calls: list[ToolCallRequest] = []
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        fn = item.get("function") if isinstance(item, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            continue
        args = fn.get("arguments")
        calls.append(ToolCallRequest(str(item.get("id") or f"call_{i}"), fn["name"],
                                     args if isinstance(args, str) else json.dumps(args or {})))
    return tuple(calls)

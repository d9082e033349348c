"""The OpenAI-compatible client against a scripted chat server on loopback."""
from __future__ import annotations

import json
import socket
from typing import Iterator

import pytest

from server.llm.client import LLMClient, LLMFailure
from server.llm.structured import OutputMode
from server.llm.usage import TokenUsage
from shared.config import LLMSettings, Secret
from shared.errors import PlannerError
from tests.fakes.llm_server import Reply, ScriptedLLM

KEY = "sk-test-0123456789-secret"
SCHEMA = {"type": "object"}
MESSAGES = [{"role": "system", "content": "plan"}, {"role": "user", "content": "Task: go home"}]


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


class Sleeps:
    """Records the backoff delays instead of sleeping them."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def client_for(url: str, key: str | None = KEY, sleeps: Sleeps | None = None, **kwargs: object) -> LLMClient:
    settings = LLMSettings(base_url=url, api_key=Secret(key), model="scripted-model", **kwargs)  # type: ignore[arg-type]
    return LLMClient(settings, sleep=sleeps or Sleeps())


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_request_shape_key_header_and_usage(llm: ScriptedLLM) -> None:
    llm.script(Reply.text('{"plan": []}', usage={"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}))
    usage = TokenUsage()
    reply = client_for(llm.url).complete(MESSAGES, SCHEMA, usage)
    assert reply.content == '{"plan": []}' and reply.mode is OutputMode.JSON_SCHEMA
    assert usage.to_dict() == {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15, "llm_calls": 1}
    req = llm.requests[0]
    assert req.path == "/v1/chat/completions"
    assert req.headers["Authorization"] == f"Bearer {KEY}"
    assert req.body["temperature"] == 0 and req.body["max_tokens"] == 1024 and req.body["model"] == "scripted-model"
    assert req.body["messages"] == MESSAGES
    assert req.body["response_format"]["type"] == "json_schema"
    assert req.body["response_format"]["json_schema"]["schema"] == SCHEMA


def test_no_key_means_no_authorization_header(llm: ScriptedLLM) -> None:
    llm.script(Reply.text("{}"))
    client_for(llm.url, key=None).complete(MESSAGES, SCHEMA)
    assert "Authorization" not in llm.requests[0].headers


def test_429_then_success_waits_as_told(llm: ScriptedLLM) -> None:
    llm.script(Reply.error(429, "slow down", headers={"Retry-After": "2"}), Reply.text('{"ok": 1}'))
    sleeps = Sleeps()
    usage = TokenUsage()
    reply = client_for(llm.url, sleeps=sleeps).complete(MESSAGES, SCHEMA, usage)
    assert reply.content == '{"ok": 1}' and reply.retries == 1
    assert sleeps.delays == [2.0]
    assert usage.llm_calls == 2 and llm.calls == 2


def test_retry_after_beyond_the_bound_gives_up_without_calling_early(llm: ScriptedLLM) -> None:
    llm.script(Reply.error(429, "quota", headers={"Retry-After": "3600"}), Reply.text("{}"))
    sleeps = Sleeps()
    with pytest.raises(PlannerError) as info:
        client_for(llm.url, sleeps=sleeps).complete(MESSAGES, SCHEMA)
    assert info.value.details["failure"] is LLMFailure.RATE_LIMITED
    assert sleeps.delays == [] and llm.calls == 1


def test_500_is_retried_with_backoff_then_fails(llm: ScriptedLLM) -> None:
    llm.script(*[Reply.error(500, "boom")] * 3)
    sleeps = Sleeps()
    with pytest.raises(PlannerError) as info:
        client_for(llm.url, sleeps=sleeps, max_retries=2).complete(MESSAGES, SCHEMA)
    assert info.value.details["failure"] is LLMFailure.SERVER_ERROR and info.value.details["status"] == 500
    assert llm.calls == 3 and len(sleeps.delays) == 2
    assert sleeps.delays[1] > sleeps.delays[0] > 0  # exponential backoff


def test_500_then_success(llm: ScriptedLLM) -> None:
    llm.script(Reply.error(503, "warming up"), Reply.text('{"a": 1}'))
    assert client_for(llm.url).complete(MESSAGES, SCHEMA).content == '{"a": 1}'


def test_timeout_is_a_planner_error_and_not_retried(llm: ScriptedLLM) -> None:
    llm.script(Reply.text("{}", delay_s=3))
    with pytest.raises(PlannerError) as info:
        client_for(llm.url, timeout_s=0.3).complete(MESSAGES, SCHEMA)
    assert info.value.details["failure"] is LLMFailure.TIMEOUT
    assert "0.3s" in str(info.value) and llm.calls == 1


def test_unreachable_endpoint() -> None:
    with pytest.raises(PlannerError) as info:
        client_for(closed_port_url()).complete(MESSAGES, SCHEMA)
    assert info.value.details["failure"] is LLMFailure.UNREACHABLE


def test_unsupported_response_format_steps_down_and_is_remembered() -> None:
    with ScriptedLLM(unsupported_formats={"json_schema", "json_object"}) as llm:
        llm.script(Reply.text('{"first": 1}'), Reply.text('{"second": 2}'))
        client = client_for(llm.url)
        first = client.complete(MESSAGES, SCHEMA)
        assert first.mode is OutputMode.TEXT and first.content == '{"first": 1}'
        assert [r.response_format for r in llm.requests] == ["json_schema", "json_object", None]
        second = client.complete(MESSAGES, SCHEMA)
        assert second.content == '{"second": 2}'
        assert llm.requests[-1].response_format is None and len(llm.requests) == 4  # no new probing


def test_json_mode_is_kept_when_only_schema_is_unsupported() -> None:
    with ScriptedLLM(unsupported_formats={"json_schema"}) as llm:
        llm.script(Reply.text("{}"))
        client = client_for(llm.url)
        assert client.complete(MESSAGES, SCHEMA).mode is OutputMode.JSON_OBJECT
        assert client.mode() is OutputMode.JSON_OBJECT


def test_other_4xx_is_rejected_and_the_key_is_scrubbed(llm: ScriptedLLM) -> None:
    llm.script(Reply.error(401, f"Incorrect API key provided: {KEY}"))
    client = client_for(llm.url)
    with pytest.raises(PlannerError) as info:
        client.complete(MESSAGES, SCHEMA)
    assert info.value.details["failure"] is LLMFailure.REJECTED
    assert KEY not in str(info.value) and "***" in str(info.value)
    assert KEY not in repr(client) and KEY not in repr(client.settings)


def test_body_that_is_not_a_completion(llm: ScriptedLLM) -> None:
    llm.script(Reply(raw=b"<html>gateway</html>"))
    with pytest.raises(PlannerError) as info:
        client_for(llm.url).complete(MESSAGES, SCHEMA)
    assert info.value.details["failure"] is LLMFailure.BAD_RESPONSE


def test_empty_content_and_missing_usage_are_returned_as_such(llm: ScriptedLLM) -> None:
    llm.script(Reply(content=None, usage=None, finish_reason="length"))
    usage = TokenUsage()
    reply = client_for(llm.url).complete(MESSAGES, SCHEMA, usage)
    assert reply.content == "" and reply.truncated
    assert usage.to_dict() == {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "llm_calls": 1}


def test_scripted_server_records_raw_json(llm: ScriptedLLM) -> None:
    llm.script(Reply.text("{}"))
    client_for(llm.url).complete(MESSAGES, SCHEMA)
    assert json.loads(llm.requests[0].raw)["stream"] is False

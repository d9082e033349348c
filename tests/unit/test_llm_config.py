"""LLM settings from the environment: endpoints, keys, and keys kept out of sight."""
from __future__ import annotations

from shared.config import OPENAI_BASE_URL, OPENROUTER_BASE_URL, LLMSettings, Settings


def test_nothing_set_means_no_llm() -> None:
    s = LLMSettings.from_env({})
    assert not s.configured and not s.api_key


def test_explicit_endpoint_key_and_model() -> None:
    s = LLMSettings.from_env({"DEVICEPILOT_LLM_BASE_URL": "http://vllm.lab:8000/v1/",
                              "DEVICEPILOT_LLM_API_KEY": "k-123456", "DEVICEPILOT_LLM_MODEL": "qwen2.5",
                              "DEVICEPILOT_LLM_TIMEOUT_S": "4", "DEVICEPILOT_LLM_MAX_TOKENS": "512"})
    assert (s.base_url, s.api_key.reveal(), s.model, s.timeout_s, s.max_tokens) == \
        ("http://vllm.lab:8000/v1", "k-123456", "qwen2.5", 4.0, 512)


def test_local_server_without_key() -> None:
    s = LLMSettings.from_env({"DEVICEPILOT_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
                              "OPENAI_API_KEY": "sk-openai-should-not-travel"})
    assert s.configured and not s.api_key  # a vendor key is never sent to another host


def test_openai_key_alone() -> None:
    s = LLMSettings.from_env({"OPENAI_API_KEY": "sk-openai"})
    assert (s.base_url, s.api_key.reveal(), s.model) == (OPENAI_BASE_URL, "sk-openai", "gpt-4o-mini")


def test_openrouter_key_alone_and_with_its_base_url() -> None:
    s = LLMSettings.from_env({"OPENROUTER_API_KEY": "sk-or"})
    assert (s.base_url, s.api_key.reveal()) == (OPENROUTER_BASE_URL, "sk-or")
    s = LLMSettings.from_env({"DEVICEPILOT_LLM_BASE_URL": OPENROUTER_BASE_URL, "OPENROUTER_API_KEY": "sk-or",
                              "OPENAI_API_KEY": "sk-openai"})
    assert s.api_key.reveal() == "sk-or" and s.model.startswith("openai/")


def test_the_key_never_shows_in_repr_or_str(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DEVICEPILOT_LLM_API_KEY", "sk-very-secret-value")
    settings = Settings.from_env()
    assert settings.llm.configured and settings.llm.base_url == OPENAI_BASE_URL
    for text in (repr(settings), str(settings), repr(settings.llm), f"{settings.llm.api_key}"):
        assert "sk-very-secret-value" not in text

"""Prompt templates (detailed and compact) and the scrubbing of planning records."""
from __future__ import annotations

import pytest

from server.llm.prompt import TEMPLATES, PromptBuilder, check_template, server_template
from server.run_planning import Scrubber
from shared.errors import ConfigError, RequestError
from tests.fakes.device_context import streamtv_context

TASK = "switch to channel 5 and check the banner shows Melody TV"


def test_both_templates_offer_the_same_commands_and_the_compact_one_is_smaller() -> None:
    ctx = streamtv_context()
    builder = PromptBuilder(template="detailed")
    detailed = builder.build(TASK, ctx)
    compact = builder.build(TASK, ctx, template="compact")
    assert (detailed.template, compact.template) == ("detailed", "compact")
    assert [c.name for c in detailed.commands] == [c.name for c in compact.commands]
    assert compact.chars < detailed.chars * 0.8
    user = compact.messages[1]["content"]
    assert f"Task: {TASK}" in user and "press_key(remote; key:key=UP|" in user and "goto(navigation; node:" in user
    assert "Screens: home, live, guide" in user and "#channel-banner" in user
    assert "Use only listed commands" in compact.messages[0]["content"]


def test_the_server_template_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert server_template({}) == "detailed"
    assert server_template({"DEVICEPILOT_LLM_PROMPT_TEMPLATE": "compact"}) == "compact"
    with pytest.raises(ConfigError, match="use one of detailed, compact"):
        server_template({"DEVICEPILOT_LLM_PROMPT_TEMPLATE": "huge"})
    monkeypatch.setenv("DEVICEPILOT_LLM_PROMPT_TEMPLATE", "compact")
    assert PromptBuilder().build(TASK, streamtv_context()).template == "compact"


def test_a_run_template_is_checked() -> None:
    assert set(TEMPLATES) == {"detailed", "compact"}
    assert check_template("compact") == "compact"
    with pytest.raises(RequestError, match="'prompt_template' must be one of detailed, compact"):
        check_template("fancy")
    with pytest.raises(RequestError):
        PromptBuilder().build(TASK, streamtv_context(), template="fancy")


def test_the_scrubber_removes_configured_secrets_and_key_shaped_strings() -> None:
    s = Scrubber(["hunter2-local-token"])
    text = s.text('key sk-abcdefghijklmnop, Authorization: Bearer abc.def.ghi.jkl, "api_key": "zzzz9999", '
                  "hunter2-local-token")
    assert "sk-abc" not in text and "abc.def" not in text and "zzzz9999" not in text and "hunter2" not in text
    assert text.count("***") == 4 and "Bearer ***" in text
    assert s.json({"a": ["sk-abcdefghijklmnop", 3], "b": None}) == {"a": ["***", 3], "b": None}

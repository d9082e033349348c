"""Talking to an OpenAI-compatible LLM: the chat client, the prompt, and extraction of plans from replies.

Nothing here executes anything: a reply becomes a :class:`~shared.models.Plan`
that AI Central validates against the device's context like any other plan.
"""
from server.llm.client import ChatReply, LLMClient, LLMFailure
from server.llm.extraction import Extraction, extract_plan
from server.llm.prompt import PromptBuilder, build_messages, plan_schema, rank_commands
from server.llm.structured import OutputMode
from server.llm.usage import TokenUsage

__all__ = [
    "ChatReply", "Extraction", "LLMClient", "LLMFailure", "OutputMode", "PromptBuilder", "TokenUsage",
    "build_messages", "extract_plan", "plan_schema", "rank_commands",
]

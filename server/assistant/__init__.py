"""The lab assistant: a chat that turns requests into allowlisted tool calls run with the user's own rights.

- :mod:`~server.assistant.tools` — the tool declaration, registry and the one validation gate;
- :mod:`~server.assistant.lab_tools` — the tools (devices, runs, test cases);
- :mod:`~server.assistant.llm_loop` — the two-call tool pattern with an LLM;
- :mod:`~server.assistant.translator` — the built-in translator, no LLM needed;
- :mod:`~server.assistant.references` — "that run", "the first one", "both", "the phone";
- :mod:`~server.assistant.store`, :mod:`~server.assistant.models` — conversations in the database;
- :mod:`~server.assistant.service` — one turn, with the guardrails; :mod:`~server.assistant.api` — the routes.
"""
from server.assistant.api import assistant_api
from server.assistant.models import AssistantMessageRow, ConversationRow

__all__ = ["AssistantMessageRow", "ConversationRow", "assistant_api"]

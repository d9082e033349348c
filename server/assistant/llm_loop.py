"""The two-call tool pattern against any OpenAI-compatible endpoint.

1. The first call offers the tools the user's role may call; the model answers
   with native ``tool_calls``, or writes the calls as JSON in its text
   (``{"tool_calls": [{"tool": "list_devices", "arguments": {}}]}``), which is
   extracted like a plan is, leniently. Either way every call passes
   :func:`server.assistant.tools.validate_call`; an unknown tool or a bad
   argument is refused and never runs.
2. The tools run (elsewhere, with the user's rights); the second call gets their
   results and the model answers from them.

Both calls' token usage is kept apart and summed.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

from server.assistant.references import Memory
from server.assistant.tools import REGISTRY, Tool, ToolCall, ToolRefused, ToolResult, validate_call
from server.llm.client import LLMClient, LLMFailure
from server.llm.extraction import candidates
from server.llm.repair import loads_lenient
from server.llm.usage import TokenUsage
from shared.errors import PlannerError

log = logging.getLogger(__name__)

RESULT_CHARS = 4000    # of each tool result sent back to the model
SYSTEM = """You are the lab assistant of devicepilot, a device test lab. You act only through the tools \
offered, with the rights of the person you talk to. Call the tools that answer the request; when no tool \
is needed, just answer. Never invent devices, runs, steps or results: say only what tool results show. \
Destructive tools (cancelling runs, deleting) are confirmed by the person before they run. If you cannot \
call tools natively, reply with only this JSON: {"tool_calls": [{"tool": "<name>", "arguments": {...}}]}.
Tools: %s
%s"""
ANSWER = ("Answer the person's last message in a few plain sentences, using only these tool results. "
          "Give run ids and screenshot links as they appear.")


@dataclass
class Choice:
    """What the first call asked for."""

    calls: list[ToolCall] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    text: str = ""                     # the model's own words (its answer when it called nothing)
    native: bool = False
    usage: TokenUsage = field(default_factory=TokenUsage)
    messages: list[dict[str, Any]] = field(default_factory=list)


def memory_note(memory: Memory) -> str:
    runs, devices = memory.recent("runs"), memory.recent("devices")
    parts = []
    if runs:
        parts.append("Runs shown last, in order: " + ", ".join(f"{i}. {r}" for i, r in enumerate(runs, 1)))
    if devices:
        parts.append("Devices shown last, in order: " + ", ".join(f"{i}. {d}" for i, d in enumerate(devices, 1)))
    return ("For 'that run', 'the first one', 'both': " + ". ".join(parts)) if parts else ""


def _text_calls(content: str) -> list[Any]:
    """Tool calls written as JSON in a reply's text: ``{"tool_calls": [...]}``, a list, or one ``{"tool": ...}``."""
    for piece in candidates(content or ""):
        try:
            value, _ = loads_lenient(piece)
        except (ValueError, TypeError):
            continue
        if isinstance(value, dict):
            for key in ("tool_calls", "commands", "calls", "tools"):
                if isinstance(value.get(key), list):
                    return list(value[key])
            if "tool" in value or ("name" in value and "arguments" in value):
                return [value]
        if isinstance(value, list) and value and all(isinstance(v, dict) and ("tool" in v or "name" in v)
                                                     for v in value):
            return value
    return []


class ToolLoop:
    def __init__(self, client: LLMClient) -> None:
        self.client = client

    def choose(self, history: list[dict[str, str]], text: str, tools: list[Tool], memory: Memory) -> Choice:
        """The first call: which tools, with which arguments (validated)."""
        listing = "; ".join(f"{t.name}{' (destructive)' if t.destructive else ''}: {t.description}" for t in tools)
        messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM % (listing, memory_note(memory))},
                                          *history, {"role": "user", "content": text}]
        choice = Choice(messages=messages)
        try:
            reply = self.client.complete(messages, {}, choice.usage, tools=[t.declaration() for t in tools])
        except PlannerError as exc:
            if not _rejects_tools(exc):
                raise
            # an endpoint without tool calling: the model writes its calls as JSON in its text (see SYSTEM)
            log.warning("LLM endpoint does not take tools (%s); asking for JSON in the text", exc)
            reply = self.client.complete(messages, {}, choice.usage, tools=[])
        allowed = {t.name for t in tools}
        raw: list[tuple[str, Any, Any]] = []
        if reply.tool_calls:
            choice.native = True
            for tc in reply.tool_calls:
                try:
                    args: Any = json.loads(tc.arguments or "{}")
                except ValueError:
                    args = tc.arguments
                raw.append((tc.id, tc.name, args))
            messages.append({"role": "assistant", "content": reply.content or None, "tool_calls": [
                {"id": tc.id, "type": "function", "function": {"name": tc.name, "arguments": tc.arguments}}
                for tc in reply.tool_calls]})
        else:
            for i, item in enumerate(_text_calls(reply.content)):
                if isinstance(item, dict):
                    raw.append((f"text_{i}", item.get("tool") or item.get("name") or item.get("command"),
                                item.get("arguments", item.get("args", item.get("params")))))
                else:
                    choice.refused.append(f"a tool call written as {str(item)[:60]!r} is not an object")
            if raw:
                messages.append({"role": "assistant", "content": reply.content})
            else:
                choice.text = reply.content.strip()
        for call_id, name, args in raw:
            try:
                if isinstance(name, str) and name in REGISTRY and name not in allowed:
                    raise ToolRefused(f"{name} is not among the tools the person's role may use")
                choice.calls.append(validate_call(name, args, call_id))
            except ToolRefused as exc:
                choice.refused.append(str(exc))
        log.info("assistant LLM chose %s (%d refused)", [c.tool for c in choice.calls], len(choice.refused))
        return choice

    def answer(self, choice: Choice, results: list[ToolResult], notes: list[str]) -> tuple[str, TokenUsage]:
        """The second call: the model answers from the tool results."""
        usage = TokenUsage()
        messages = list(choice.messages)
        if choice.native:   # one tool message per call the model made (a "both" it meant may have run twice)
            for asked in choice.messages[-1].get("tool_calls") or []:
                mine = [r for r in results if r.id == asked["id"] or r.id.startswith(asked["id"] + "_")]
                content = "\n".join(_result_json(r) for r in mine) or json.dumps(
                    {"ok": False, "summary": "not run: " + ("; ".join(notes) or "refused")})
                messages.append({"role": "tool", "tool_call_id": asked["id"], "content": content})
            messages.append({"role": "user", "content": ANSWER + _notes(notes)})
        else:
            dump = "\n".join(_result_json(r) for r in results) or "(no tool ran)"
            messages.append({"role": "user", "content": f"Tool results:\n{dump}\n{ANSWER}{_notes(notes)}"})
        reply = self.client.complete(messages, {}, usage, tools=[]) if results or notes else None
        text = reply.content.strip() if reply else ""
        return text, usage


def _rejects_tools(exc: PlannerError) -> bool:
    """True when the endpoint refused the request because of its ``tools``."""
    failure = exc.details.get("failure")
    return failure is LLMFailure.REJECTED and exc.details.get("status") in (400, 404, 422, 501) and bool(
        re.search(r"\btools?\b|function", str(exc), re.I))


def _notes(notes: list[str]) -> str:
    return ("\nAlso tell the person: " + " ".join(notes)) if notes else ""


def _result_json(r: ToolResult) -> str:
    return json.dumps({"tool": r.tool, "ok": r.ok, "summary": r.summary, "data": r.data}, default=str)[:RESULT_CHARS]

"""One assistant turn: read the message, choose tools (LLM or built-in translator), run them, answer, store it.

Guardrails applied here, whoever chose the calls:

- at most ``DEVICEPILOT_ASSISTANT_MAX_COMMANDS`` (default 5) tool calls per reply: past it none runs;
- destructive tools do not run: the reply asks for confirmation and stores the calls; the next
  message runs them when it says yes (or the request says ``"confirm": true``), and drops them otherwise;
- the daily LLM token budget (:mod:`server.assistant.budget`) before every LLM call and every tool that
  may plan with the LLM;
- tools run with the user's own rights (:func:`server.assistant.tools.run_call`).
"""
from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from typing import Any

from server.assistant import lab_tools  # noqa: F401  (registers the tools)
from server.assistant.budget import check_budget
from server.assistant.llm_loop import ToolLoop
from server.assistant.references import Focus, Memory, resolve_arguments
from server.assistant.store import ConversationStore, Turn
from server.assistant.tools import ToolCall, ToolEnv, ToolResult, lookup, run_call, tools_for
from server.assistant.translator import Scene, translate
from server.auth_users import User
from server.llm.client import LLMClient
from server.llm.usage import TokenUsage
from shared.errors import DevicePilotError, PlannerError, RequestError

log = logging.getLogger(__name__)

DEFAULT_MAX_COMMANDS = 5
MAX_MESSAGE_CHARS = 2000
YES = re.compile(r"^\s*(yes|y|yep|yeah|ok|okay|confirm(ed)?|go ahead|do it|sure|please do)\b[\s.!]*", re.I)
NO = re.compile(r"^\s*(no|n|nope|don'?t|do not|never mind|abort)\b", re.I)


def max_commands() -> int:
    """``DEVICEPILOT_ASSISTANT_MAX_COMMANDS``: the most tool calls one assistant reply may make."""
    raw = os.environ.get("DEVICEPILOT_ASSISTANT_MAX_COMMANDS", "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_MAX_COMMANDS


@dataclass
class Executed:
    results: list[ToolResult]
    pending: list[ToolCall]
    notes: list[str]


class Assistant:
    def __init__(self, srv: Any, store: ConversationStore) -> None:
        self.srv = srv
        self.store = store
        self.loop = ToolLoop(LLMClient(srv.settings.llm)) if srv.settings.llm.configured else None

    def handle(self, user: User, text: Any, conversation_id: Any = None, confirm: Any = False) -> dict[str, Any]:
        if not isinstance(text, str) or not text.strip():
            raise RequestError("'text' is required: what you want to ask or do, e.g. \"which devices are free?\"")
        if len(text) > MAX_MESSAGE_CHARS:
            raise RequestError(f"'text' is {len(text)} characters; the limit is {MAX_MESSAGE_CHARS}")
        if conversation_id is not None and not isinstance(conversation_id, str):
            raise RequestError("'conversation' must be a conversation id (a string)")
        if not isinstance(confirm, bool):
            raise RequestError("'confirm' must be true or false")
        text = text.strip()
        pending: list[ToolCall] = []
        memory, history = Memory(), []
        if conversation_id:
            self.store.check(user.name, conversation_id)
            pending = [ToolCall.from_dict(p) for p in self.store.pending(conversation_id)]
            memory, history = self.store.memory(conversation_id), self.store.history(conversation_id)
        env = ToolEnv(self.srv, user)
        if pending and (confirm or YES.match(text)):
            turn = self._confirmed(env, pending)
        elif pending and NO.match(text):
            turn = Turn("Fine: nothing was done (" + ", ".join(_say(c) for c in pending) + ").", "builtin")
        else:
            turn = self._turn(env, text, history, memory)
            if pending:
                turn.content = ("Not confirmed, so I did not " + ", ".join(_say(c) for c in pending) + ". "
                                + turn.content)
        # stored once answered: a refused message (429: budget spent) leaves nothing behind
        conv = conversation_id or self.store.create(user.name, text)
        self.store.add_user_message(conv, user.name, text)
        message = self.store.add_reply(conv, user.name, turn)
        return {"conversation": conv, "message": message}

    # -- a turn ---------------------------------------------------------------------------
    def _turn(self, env: ToolEnv, text: str, history: list[dict[str, str]], memory: Memory) -> Turn:
        if self.loop is not None:
            check_budget(self.srv, self.store, env.user.name)
            try:
                return self._llm_turn(env, text, history, memory)
            except PlannerError as exc:
                log.warning("assistant LLM unavailable, the built-in translator answers: %s", exc)
                turn = self._builtin_turn(env, text, memory)
                turn.content = f"(The LLM did not answer: {exc}. The built-in translator answered.) {turn.content}"
                return turn
        return self._builtin_turn(env, text, memory)

    def _llm_turn(self, env: ToolEnv, text: str, history: list[dict[str, str]], memory: Memory) -> Turn:
        assert self.loop is not None
        choice = self.loop.choose(history, text, tools_for(env.user), memory)
        devices = self.srv.lab.snapshot()["devices"]
        choice.calls = [ToolCall(c.tool, args, c.id if i == 0 else f"{c.id}_{i}") for c in choice.calls
                        for i, args in enumerate(resolve_arguments(c.arguments, devices, memory))]
        usage: dict[str, Any] = {"first": choice.usage.to_dict()}
        total = choice.usage
        if not choice.calls and not choice.refused:
            return Turn(choice.text or "I have nothing to say to that.", "llm", usage={**total.to_dict(), **usage})
        done = self._execute(env, choice.calls)
        notes = choice.refused + done.notes + [f"{_say(c)} waits for the person's confirmation" for c in done.pending]
        answer, second = self.loop.answer(choice, done.results, notes)
        usage["second"] = second.to_dict()
        total = total + second
        content = answer or _plain(done.results, notes)
        if done.pending:
            content += " " + _confirmation_request(done.pending)
        return Turn(content, "llm", [c.to_dict() for c in choice.calls], [r.to_dict() for r in done.results],
                    {**total.to_dict(), **usage}, _focus(done), [c.to_dict() for c in done.pending])

    def _builtin_turn(self, env: ToolEnv, text: str, memory: Memory) -> Turn:
        scene = Scene(env, memory, self.srv.lab.snapshot()["devices"])
        translation = translate(text, scene)
        if not translation.calls:
            return Turn(" ".join(translation.problems), "builtin", usage=TokenUsage().to_dict())
        done = self._execute(env, translation.calls)
        content = _plain(done.results, done.notes) or "Nothing to do."
        if done.pending and not (done.results or done.notes):
            content = ""
        if done.pending:
            content = (content + " " if content else "") + _confirmation_request(done.pending)
        return Turn(content, "builtin", [c.to_dict() for c in translation.calls],
                    [r.to_dict() for r in done.results], TokenUsage().to_dict(), _focus(done),
                    [c.to_dict() for c in done.pending])

    def _confirmed(self, env: ToolEnv, pending: list[ToolCall]) -> Turn:
        results = [run_call(env, c) for c in pending]
        done = Executed(results, [], [])
        return Turn(_plain(results, []), "builtin", [c.to_dict() for c in pending], [r.to_dict() for r in results],
                    TokenUsage().to_dict(), _focus(done))

    # -- running calls ------------------------------------------------------------------------
    def _execute(self, env: ToolEnv, calls: list[ToolCall]) -> Executed:
        limit = max_commands()
        if len(calls) > limit:
            return Executed([], [], [f"That asks for {len(calls)} commands in one reply; the limit is {limit}, so "
                                     "none ran. Ask for fewer at once."])
        results: list[ToolResult] = []
        pending: list[ToolCall] = []
        notes: list[str] = []
        for call in calls:
            tool = lookup(call.tool)
            if not tool.allowed_for(env.user):
                results.append(run_call(env, call))     # refused there, with the role it needs
            elif tool.needs_confirmation(env, call.arguments):
                pending.append(call)
            elif tool.spends_llm and self.loop is not None and not self._budget_left(env, notes):
                continue
            else:
                results.append(run_call(env, call))
        return Executed(results, pending, notes)

    def _budget_left(self, env: ToolEnv, notes: list[str]) -> bool:
        try:
            check_budget(self.srv, self.store, env.user.name)
        except DevicePilotError as exc:
            notes.append(str(exc))
            return False
        return True


def _focus(done: Executed) -> Focus:
    focus = Focus.of(done.results)
    for call in done.pending:           # "yes" and "that run" then mean the runs awaiting confirmation
        run = call.arguments.get("run_id")
        if run and run not in focus.runs:
            focus.runs.append(run)
            focus.last = "runs"
    return focus


def _say(call: ToolCall) -> str:
    args = ", ".join(f"{v}" for v in call.arguments.values())
    return f"{call.tool.replace('_', ' ')} {args}".strip()


def _confirmation_request(pending: list[ToolCall]) -> str:
    return ("This needs your confirmation: " + "; ".join(_say(c) for c in pending)
            + ". Reply 'yes' to go ahead (or send \"confirm\": true), anything else to leave it.")


def _plain(results: list[ToolResult], notes: list[str]) -> str:
    lines = [_sentence(r.summary) if r.ok else f"Could not {r.tool.replace('_', ' ')}: {r.summary}"
             for r in results]
    return " ".join(x.rstrip(".") + "." for x in [*lines, *notes] if x)


def _sentence(text: str) -> str:
    """Capitalised, unless it starts with a name such as a device id ("pixel-7 is offline")."""
    first = text.split(" ", 1)[0]
    return text[:1].upper() + text[1:] if first.isalpha() else text

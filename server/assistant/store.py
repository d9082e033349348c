"""Conversations as stored: each user's sessions, every message with its tool calls, results and token usage."""
from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from server.assistant.models import AssistantMessageRow, ConversationRow
from server.assistant.references import Focus, Memory
from server.db import Database, utcnow
from shared.errors import NotFound

log = logging.getLogger(__name__)

HISTORY_TURNS = 12      # messages sent back to the model as the conversation so far


def _iso(t: Any) -> str | None:
    return t.isoformat() + "Z" if t else None


@dataclass
class Turn:
    """What one assistant reply stores besides its text."""

    content: str
    source: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    tool_results: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    focus: Focus = field(default_factory=Focus)
    pending: list[dict[str, Any]] = field(default_factory=list)


class ConversationStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def check(self, user: str, conversation_id: str) -> None:
        """A 404 unless *conversation_id* is one of *user*'s conversations."""
        with self.db.session() as s:
            row = s.get(ConversationRow, conversation_id)
            if row is None or row.user != user:
                raise NotFound(f"no conversation {conversation_id[:40]!r} of yours")

    def create(self, user: str, first_text: str) -> str:
        new_id = uuid.uuid4().hex[:12]
        with self.db.session() as s:
            s.add(ConversationRow(id=new_id, user=user, title=first_text.strip()[:200]))
        return new_id

    def add_user_message(self, conversation_id: str, user: str, text: str) -> None:
        with self.db.session() as s:
            s.add(AssistantMessageRow(conversation_id=conversation_id, user=user, role="user", content=text))

    def add_reply(self, conversation_id: str, user: str, turn: Turn) -> dict[str, Any]:
        with self.db.session() as s:
            row = AssistantMessageRow(conversation_id=conversation_id, user=user, role="assistant",
                                      content=turn.content, source=turn.source, tool_calls=turn.tool_calls,
                                      tool_results=turn.tool_results, usage=turn.usage, focus=turn.focus.to_dict(),
                                      pending=turn.pending)
            s.add(row)
            conv = s.get(ConversationRow, conversation_id)
            if conv is not None:
                conv.updated_at = utcnow()
            s.flush()
            return self._message(row)

    # -- reading ----------------------------------------------------------------------------
    def _rows(self, conversation_id: str, limit: int | None = None) -> list[AssistantMessageRow]:
        q = (select(AssistantMessageRow).where(AssistantMessageRow.conversation_id == conversation_id)
             .order_by(AssistantMessageRow.id.desc()))
        if limit:
            q = q.limit(limit)
        with self.db.session() as s:
            rows = list(s.scalars(q).all())
            s.expunge_all()
        return rows

    def memory(self, conversation_id: str) -> Memory:
        return Memory([Focus.from_dict(r.focus) for r in self._rows(conversation_id, 40) if r.role == "assistant"])

    def pending(self, conversation_id: str) -> list[dict[str, Any]]:
        """Destructive calls the last reply asked to confirm (only the very last reply counts)."""
        rows = self._rows(conversation_id, 1)
        return list(rows[0].pending or []) if rows and rows[0].role == "assistant" else []

    def history(self, conversation_id: str) -> list[dict[str, str]]:
        """The conversation so far as chat messages, oldest first (texts only; tool results are summarised)."""
        out: list[dict[str, str]] = []
        for r in reversed(self._rows(conversation_id, HISTORY_TURNS)):
            text = r.content
            if r.role == "assistant" and r.tool_results:
                done = "; ".join(str(t.get("summary", ""))[:300] for t in r.tool_results)
                text = f"{text}\n(tool results: {done})"
            out.append({"role": r.role, "content": text})
        return out

    def tokens_today(self, user: str) -> int:
        """LLM tokens the user's assistant replies spent today (UTC)."""
        midnight = utcnow().replace(hour=0, minute=0, second=0, microsecond=0)
        with self.db.session() as s:
            usages = s.scalars(select(AssistantMessageRow.usage).where(
                AssistantMessageRow.user == user, AssistantMessageRow.role == "assistant",
                AssistantMessageRow.created_at >= midnight)).all()
        return sum(int((u or {}).get("total_tokens") or 0) for u in usages)

    def runs_started_today(self, user: str) -> list[str]:
        """Runs the user's assistant created today (their planning tokens count against the same budget)."""
        midnight = utcnow().replace(hour=0, minute=0, second=0, microsecond=0)
        with self.db.session() as s:
            results = s.scalars(select(AssistantMessageRow.tool_results).where(
                AssistantMessageRow.user == user, AssistantMessageRow.role == "assistant",
                AssistantMessageRow.created_at >= midnight)).all()
        return [run for batch in results for r in batch or [] if r.get("ok") and r.get("tool") in
                ("plan_task", "run_task") for run in r.get("runs") or []]

    def list(self, user: str, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        counts = (select(AssistantMessageRow.conversation_id, func.count().label("n"))
                  .group_by(AssistantMessageRow.conversation_id).subquery())
        q = (select(ConversationRow, counts.c.n).outerjoin(counts, counts.c.conversation_id == ConversationRow.id)
             .where(ConversationRow.user == user).order_by(ConversationRow.updated_at.desc())
             .limit(limit).offset(offset))
        with self.db.session() as s:
            return [{"id": c.id, "title": c.title, "created_at": _iso(c.created_at), "updated_at": _iso(c.updated_at),
                     "messages": int(n or 0)} for c, n in s.execute(q).all()]

    def get(self, user: str, conversation_id: str) -> dict[str, Any]:
        with self.db.session() as s:
            conv = s.get(ConversationRow, conversation_id)
            if conv is None or conv.user != user:
                raise NotFound(f"no conversation {conversation_id!r} of yours")
            head = {"id": conv.id, "title": conv.title, "created_at": _iso(conv.created_at),
                    "updated_at": _iso(conv.updated_at)}
        rows = list(reversed(self._rows(conversation_id)))
        usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "llm_calls": 0}
        for r in rows:
            for k in usage:
                usage[k] += int((r.usage or {}).get(k) or 0)
        return {**head, "usage": usage, "messages": [self._message(r) for r in rows]}

    @staticmethod
    def _message(r: AssistantMessageRow) -> dict[str, Any]:
        return {"id": r.id, "role": r.role, "content": r.content, "source": r.source or None,
                "tool_calls": r.tool_calls or [], "tool_results": r.tool_results or [], "usage": r.usage or {},
                "focus": r.focus or {}, "pending": r.pending or [], "created_at": _iso(r.created_at)}

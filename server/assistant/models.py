"""The assistant's tables: one conversation per session, its messages with tool calls, results and token usage."""
from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, utcnow


class ConversationRow(Base):
    __tablename__ = "assistant_conversations"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user: Mapped[str] = mapped_column(String(64), index=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)


class AssistantMessageRow(Base):
    """One turn's message: the user's text, or the assistant's answer with what it called and what that cost."""

    __tablename__ = "assistant_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    conversation_id: Mapped[str] = mapped_column(ForeignKey("assistant_conversations.id"), index=True)
    user: Mapped[str] = mapped_column(String(64), index=True)
    role: Mapped[str] = mapped_column(String(16))             # user | assistant
    content: Mapped[str] = mapped_column(Text, default="")
    source: Mapped[str] = mapped_column(String(16), default="")   # llm | builtin (assistant messages)
    tool_calls: Mapped[list[Any]] = mapped_column(JSON, default=list)
    tool_results: Mapped[list[Any]] = mapped_column(JSON, default=list)
    usage: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)   # both LLM calls: {first, second, total...}
    focus: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)   # runs and devices this turn is about
    pending: Mapped[list[Any]] = mapped_column(JSON, default=list)      # destructive calls awaiting confirmation
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)

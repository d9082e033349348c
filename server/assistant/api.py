"""The assistant's routes: send a message, list and read your conversations."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify
from flask_login import current_user

from server.api import body, int_arg
from server.assistant.service import Assistant
from server.assistant.store import ConversationStore

assistant_api = Blueprint("assistant", __name__, url_prefix="/api/assistant")


def assistant() -> Assistant:
    srv = current_app.extensions["devicepilot"]
    found = srv.extras.get("assistant")
    if found is None:
        found = srv.extras["assistant"] = Assistant(srv, ConversationStore(srv.db))
    return found


@assistant_api.post("/messages")
def post_message() -> Any:
    """``{text, conversation?, confirm?}`` → ``{conversation, message}``; the reply with its tool calls and results."""
    data = body()
    answer = assistant().handle(current_user._get_current_object(), data.get("text"), data.get("conversation"),
                                data.get("confirm", False))
    return jsonify(answer), 201


@assistant_api.get("/conversations")
def list_conversations() -> Any:
    limit, offset = int_arg("limit", 50, 1, 500), int_arg("offset", 0)
    return jsonify(assistant().store.list(current_user.name, limit, offset))


@assistant_api.get("/conversations/<conversation_id>")
def get_conversation(conversation_id: str) -> Any:
    return jsonify(assistant().store.get(current_user.name, conversation_id))

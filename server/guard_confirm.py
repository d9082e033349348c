"""Destructive actions need an explicit confirmation.

A command declared ``@command(..., destructive=True)`` (uninstall, stop an app,
power off...) runs only when the request says ``"confirm": true``; so does a
given plan with such a step. Deleting what cannot be rebuilt (plan cache
entries, test cases) needs ``?confirm=true``. Without it the answer is 428
(Precondition Required) and says what would have happened.
"""
from __future__ import annotations

from typing import Any, Iterable

from flask import request

from shared.errors import RequestError


class ConfirmationRequired(RequestError):
    """The action is destructive and the request did not confirm it."""

    status_code = 428


def confirmed(data: Any = None) -> bool:
    """True when the body says ``"confirm": true`` or the query ``?confirm=true``."""
    if isinstance(data, dict) and data.get("confirm") is True:
        return True
    return request.args.get("confirm", "").strip().lower() in ("1", "true", "yes")


def require_confirmation(what: str, data: Any = None, how: str = "send \"confirm\": true in the body") -> None:
    if not confirmed(data):
        raise ConfirmationRequired(f"{what}; {how} to go ahead")


def destructive_commands(commands: Iterable[str], specs: dict[str, Any]) -> list[str]:
    """The names among *commands* whose declaration says they are destructive."""
    return sorted({c for c in commands if getattr(specs.get(c), "destructive", False)})

"""The daily LLM token budget, shared with planning: runs a user started, their assistant's calls and its runs."""
from __future__ import annotations

import logging
from typing import Any

from server.api import BudgetSpent, llm_daily_budget
from server.assistant.store import ConversationStore
from shared.errors import NotFound

log = logging.getLogger(__name__)


def tokens_today(srv: Any, store: ConversationStore, user: str) -> int:
    """Every LLM token *user* spent today (UTC): planning of their runs, and their assistant's two calls."""
    audit = srv.extras.get("audit")
    return (audit.llm_tokens_today(user) if audit is not None else 0) + assistant_tokens_today(srv, store, user)


def assistant_tokens_today(srv: Any, store: ConversationStore, user: str) -> int:
    """What *user*'s assistant spent today: its LLM calls and the planning of the runs it started."""
    used = store.tokens_today(user)
    for run_id in store.runs_started_today(user):
        try:
            used += int((srv.runs.get(run_id, with_steps=False).get("usage") or {}).get("total_tokens") or 0)
        except NotFound:
            continue
    return used


def check_budget(srv: Any, store: ConversationStore, user: str) -> None:
    """Refuse (429) once *user* has spent the day's budget (``DEVICEPILOT_LLM_DAILY_TOKENS``; 0: no limit)."""
    budget = llm_daily_budget()
    if not budget or not srv.settings.llm.configured:
        return
    used = tokens_today(srv, store, user)
    if used >= budget:
        raise BudgetSpent(f"{user} has used {used} of the {budget} LLM tokens a user may spend per day; the "
                          "budget renews at midnight UTC. Ask again tomorrow, or use the dashboard and the API, "
                          "which run saved test cases and given plans without the LLM")


def assistant_token_counter(srv: Any) -> Any:
    """``user → tokens`` for the budget check of ``POST /api/runs`` (``srv.extras["llm_token_counters"]``)."""
    store = ConversationStore(srv.db)
    return lambda user: assistant_tokens_today(srv, store, user)

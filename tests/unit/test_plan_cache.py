"""The plan cache: keys, hits, start nodes, pinning, pruning, and replay with zero LLM calls."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from server.ai_central import AICentral, ReplanInfo
from server.db import Database
from server.llm.client import LLMClient
from server.plan_cache import ANY_NODE, PlanCache, normalize_task
from server.planners.builtin import BuiltinPlanner
from server.planners.cache import CachePlanner
from server.planners.llm import LLMPlanner
from shared.config import LLMSettings
from shared.errors import RequestError
from shared.models import Plan, PlanStep
from tests.fakes.device_context import streamtv_context, synthetic_context
from tests.fakes.llm_server import Reply, ScriptedLLM

GOTO_PLAN = Plan("guide", True, [PlanStep(1, "goto", {"node": "guide"}, "Go to the guide", "navigation"),
                                 PlanStep(2, "waitForElementToAppear", {"selector": "#screen-guide"}, "Check",
                                          "verification")])
LOCAL_PLAN = Plan("press", True, [PlanStep(1, "press_key", {"key": "DIGIT_5"}, "Press 5", "remote")])


@pytest.fixture
def cache(tmp_path: Path) -> PlanCache:
    return PlanCache(Database(f"sqlite:///{tmp_path / 'cache.db'}"))


def store(cache: PlanCache, task: str, plan: Plan, start: str | None = None, ctx=None, run: str = "r1"):  # type: ignore[no-untyped-def]
    ctx = ctx or streamtv_context()
    return cache.store(task, ctx.device_model, ctx.userinterface, ctx.fingerprint(), start, plan, source_run=run,
                       source_planner="llm")


def test_normalized_task_is_the_key() -> None:
    assert normalize_task("  Go to   the “Guide”. ") == normalize_task('go to the "guide"')
    assert normalize_task("switch to channel 5") != normalize_task("switch to channel 6")


def test_a_plan_starting_with_goto_replays_from_any_node(cache: PlanCache) -> None:
    entry = store(cache, "Go to the guide", GOTO_PLAN, start="home")
    assert entry is not None and entry.start_node == ANY_NODE
    for node in (None, "home", "live"):
        hit = cache.lookup("go to the guide.", streamtv_context(node), node)
        assert hit is not None and hit.id == entry.id
    assert cache.get(entry.id).hits == 3 and cache.get(entry.id).last_used_at is not None
    replay = hit.replay_plan()
    assert replay.planner == "cache" and [s.command for s in replay.steps] == ["goto", "waitForElementToAppear"]


def test_a_plan_that_depends_on_where_it_starts_replays_only_from_there(cache: PlanCache) -> None:
    store(cache, "tune 5", LOCAL_PLAN, start="live")
    assert cache.lookup("tune 5", streamtv_context("live"), "live") is not None
    assert cache.lookup("tune 5", streamtv_context("home"), "home") is None
    assert cache.lookup("tune 5", streamtv_context(), None) is None


def test_another_context_fingerprint_misses_and_prunes_the_old_plan(cache: PlanCache) -> None:
    old = store(cache, "go to the guide", GOTO_PLAN)
    other = synthetic_context(5, 5)
    assert cache.lookup("go to the guide", other, None) is None
    changed = streamtv_context()
    new_fp = "0" * 16
    cache.store("go to the guide", changed.device_model, changed.userinterface, new_fp, None, GOTO_PLAN,
                source_run="r2")
    assert [e.fingerprint for e in cache.list()] == [new_fp]
    with pytest.raises(RequestError, match=f"no cached plan {old.id}"):
        cache.get(old.id)


def test_a_later_passing_plan_replaces_an_unpinned_one_but_never_a_pinned_one(cache: PlanCache) -> None:
    first = store(cache, "go to the guide", GOTO_PLAN)
    better = Plan("better", True, [PlanStep(1, "goto", {"node": "guide"}, "", "navigation")])
    healed = cache.store("go to the guide", "streamtv-web", "streamtv", streamtv_context().fingerprint(), None,
                         better, source_run="r2", healed=True)
    assert healed.id == first.id and healed.heals == 1 and len(healed.plan["plan"]) == 1
    assert healed.plan["analysis"] == "guide"  # the entry keeps its first analysis
    cache.pin(first.id, True)
    kept = store(cache, "go to the guide", GOTO_PLAN, run="r3")
    assert kept.pinned and len(kept.plan["plan"]) == 1 and kept.source_run == "r2"


def test_clear_keeps_pinned_unless_asked_and_delete_invalidates(cache: PlanCache) -> None:
    a = store(cache, "go to the guide", GOTO_PLAN)
    b = store(cache, "tune 5", LOCAL_PLAN, start="live")
    store(cache, "tune 5 again", LOCAL_PLAN, start="live")
    cache.pin(a.id, True)
    cache.delete(b.id)
    assert cache.clear() == 1
    assert [e.id for e in cache.list()] == [a.id]
    assert cache.clear(include_pinned=True) == 1 and cache.list() == []


def test_least_recently_used_unpinned_plans_are_evicted(tmp_path: Path) -> None:
    cache = PlanCache(Database(f"sqlite:///{tmp_path / 'small.db'}"), max_entries=2)
    first = store(cache, "task one", GOTO_PLAN)
    cache.pin(first.id, True)
    store(cache, "task two", GOTO_PLAN)
    store(cache, "task three", GOTO_PLAN)
    assert [e.task for e in cache.list()] == ["task one", "task three"]


def test_empty_plans_are_not_stored(cache: PlanCache) -> None:
    assert store(cache, "nothing", Plan("", True, [])) is None and cache.list() == []


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def test_a_cached_plan_replays_with_zero_llm_calls(cache: PlanCache, llm: ScriptedLLM) -> None:
    llm.script(Reply.text(json.dumps(GOTO_PLAN.to_dict())), Reply.text(json.dumps(GOTO_PLAN.to_dict())))
    client = LLMClient(LLMSettings(base_url=llm.url, model="scripted"))
    ai = AICentral(None, [CachePlanner(cache), LLMPlanner(client), BuiltinPlanner()])  # type: ignore[arg-type]
    ctx = streamtv_context("home")

    first = ai.plan("go to the guide", ctx)
    assert first.plan.planner == "llm" and llm.calls == 1 and first.usage["llm_calls"] == 1
    store(cache, "go to the guide", first.plan, start="home")  # what a passed run does

    again = ai.plan("Go to the guide", streamtv_context("live"))
    assert again.plan.planner == "cache" and llm.calls == 1 and again.usage.get("llm_calls", 0) == 0
    assert [(s.command, s.params) for s in again.plan.steps] == [(s.command, s.params) for s in first.plan.steps]

    skipped = ai.plan("go to the guide", ctx, use_cache=False)
    assert skipped.plan.planner == "llm" and llm.calls == 2

    info = ReplanInfo((), PlanStep(1, "goto", {"node": "guide"}), "could not reach", "home")
    llm.script(Reply.text(json.dumps(GOTO_PLAN.to_dict())))
    replanned = ai.replan("go to the guide", ctx, info)
    assert replanned.plan.planner == "llm" and llm.calls == 3  # a re-plan never replays the cache

"""Planning benchmarks.

1. Overhead of LLM planning without the LLM's own time — prompt build,
   extraction of the answer, validation — for a context of 100 navigation
   nodes and 60 commands; baseline: the built-in planner on the same task and
   context, measured in the same run.
2. The same task planned through the LLM path against a scripted
   OpenAI-compatible server on loopback (so the model takes no time: what is
   left is HTTP, JSON and our own work) versus replayed from the plan cache;
   baseline: the cache replay.
"""
from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.timing import Timing, measure
from server.ai_central import AICentral
from server.db import Database
from server.llm.client import LLMClient
from server.llm.extraction import extract_plan
from server.llm.prompt import PromptBuilder
from server.plan_cache import PlanCache
from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from server.planners.cache import CachePlanner
from server.planners.llm import LLMPlanner
from shared.config import LLMSettings
from shared.models import PlanningContext
from shared.plan import validate_plan
from tests.fakes.device_context import synthetic_context
from tests.fakes.llm_server import Reply, ScriptedLLM

TASK = "go to screen 42, press OK twice, then check that the text Welcome appears"
N_NODES, N_COMMANDS = 100, 60
OVERHEAD_TARGET_MS = 2.0


def llm_answer() -> str:
    """A realistic answer: prose, a fenced JSON plan, one hallucinated step among six."""
    plan = {"analysis": "Navigate to screen 42, press OK twice, verify the welcome text.", "feasible": True,
            "plan": [
                {"step": 1, "command": "goto", "params": {"node": "screen_42"}, "description": "Open screen 42"},
                {"step": 2, "command": "waitForElementToAppear", "params": {"selector": "#s42-e0", "timeout": 5},
                 "description": "Screen 42 is shown"},
                {"step": 3, "command": "press_key", "params": {"key": "OK", "repeat": "2"},
                 "description": "Press OK twice"},
                {"step": 4, "command": "open_welcome_dialog", "params": {}, "description": "hallucinated"},
                {"step": 5, "command": "waitForTextToAppear", "params": {"text": "Welcome", "timeout": 10},
                 "description": "Welcome appears"},
                {"step": 6, "command": "waitForElementToAppear", "params": {"selector": "#s42-e1"},
                 "description": "Still on screen 42"},
            ]}
    return "Here is the plan.\n```json\n" + json.dumps(plan, indent=2) + "\n```\n"


def broken_answer() -> str:
    """The same plan with the usual breakage: single quotes, Python literals, trailing commas."""
    text = llm_answer().split("```json\n")[1].split("\n```")[0]
    return text.replace('"', "'").replace("true", "True").replace("}", ",}").replace("]", ",]")


@dataclass
class Section:
    title: str
    rows: list[Timing] = field(default_factory=list)
    baseline: Timing | None = None
    ratios: list[tuple[str, float]] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "rows": [r.to_dict() for r in self.rows],
                "baseline": self.baseline.to_dict() if self.baseline else None,
                "ratios": {name: round(value, 3) for name, value in self.ratios}, "facts": self.facts}


def overhead(runs: int) -> Section:
    ctx: PlanningContext = synthetic_context(N_NODES, N_COMMANDS)
    builder = PromptBuilder()
    answer, broken = llm_answer(), broken_answer()
    extracted = extract_plan(answer).plan
    assert extracted is not None

    def whole() -> None:
        builder.build(TASK, ctx)
        result = extract_plan(answer)
        validate_plan(result.plan, ctx)  # type: ignore[arg-type]

    section = Section(f"Planning overhead without the LLM's own time (context: {N_NODES} nodes, "
                      f"{N_COMMANDS} commands)")
    prompt = measure("prompt build", lambda: builder.build(TASK, ctx), runs)
    extraction = measure("extraction (fenced JSON + prose)", lambda: extract_plan(answer), runs)
    repaired = measure("extraction (broken JSON, repaired)", lambda: extract_plan(broken), runs)
    validation = measure("validation (6 steps, 1 dropped)", lambda: validate_plan(extracted, ctx), runs)
    total = measure("overhead: prompt + extraction + validation", whole, runs)
    builtin = BuiltinPlanner()
    section.baseline = measure("baseline: built-in planner, same task and context",
                               lambda: builtin.plan(PlanRequest(TASK, ctx)), min(runs, 40), warmup=2)
    section.rows = [prompt, extraction, repaired, validation, total]
    section.ratios = [("overhead / built-in planner", total.ratio_to(section.baseline)),
                      ("repaired / clean extraction", repaired.ratio_to(extraction))]
    built = builder.build(TASK, ctx)
    verdict = "within" if total.median_ms < OVERHEAD_TARGET_MS else "OVER"
    section.facts = [f"overhead median {total.median_ms:.3f} ms: {verdict} the {OVERHEAD_TARGET_MS:g} ms target",
                     f"prompt: {built.chars} characters, {len(built.commands)} of {len(ctx.commands)} commands sent",
                     f"validated plan: {len(validate_plan(extracted, ctx).steps)} of {len(extracted.steps)} steps kept"]
    return section


def llm_vs_cache(runs: int) -> Section:
    ctx = synthetic_context(N_NODES, N_COMMANDS)
    section = Section("Same task: LLM path (scripted server on loopback, zero model time) vs plan-cache replay")
    with ScriptedLLM(default=Reply.text(llm_answer())) as llm, tempfile.TemporaryDirectory() as tmp:
        client = LLMClient(LLMSettings(base_url=llm.url, model="bench", max_retries=0))
        via_llm = AICentral(None, [LLMPlanner(client), BuiltinPlanner()])  # type: ignore[arg-type]
        db = Database(f"sqlite:///{Path(tmp) / 'bench.db'}")
        cache = PlanCache(db)
        first = via_llm.plan(TASK, ctx)
        assert first.plan.planner == "llm", first.plan.notes
        cache.store(TASK, ctx.device_model, ctx.userinterface, ctx.fingerprint(), None, first.plan,
                    source_run="bench", source_planner="llm")
        via_cache = AICentral(None, [CachePlanner(cache), LLMPlanner(client), BuiltinPlanner()])  # type: ignore[arg-type]
        llm_timing = measure("LLM path: prompt, HTTP, extraction, validation", lambda: via_llm.plan(TASK, ctx), runs)
        calls = llm.calls
        cache_timing = measure("plan-cache replay: lookup, validation", lambda: via_cache.plan(TASK, ctx), runs)
        assert llm.calls == calls, "a cache replay called the LLM"
        replay = via_cache.plan(TASK, ctx)
        db.engine.dispose()
    section.rows = [llm_timing]
    section.baseline = cache_timing
    section.ratios = [("LLM path / cache replay", llm_timing.ratio_to(cache_timing))]
    section.facts = [f"cache replay planner: {replay.plan.planner}, LLM calls during {runs} replays: 0",
                     "a real model adds its own latency (typically 0.5-10 s) to the LLM path only"]
    return section


def run_all(runs: int) -> list[Section]:
    return [overhead(runs), llm_vs_cache(max(20, runs // 4))]

"""The LLM planner: asks an OpenAI-compatible model for a plan.

Whatever the model answers is only a proposal: it is read leniently
(:mod:`server.llm.extraction`) and then validated by AI Central against the
device's context like every plan, so only commands and nodes the device
really has can run. Token usage is added to the request (and so to the run)
even when the answer turns out unusable.

When the model cannot be reached, or its answer holds no usable plan, the
planner raises :class:`~shared.errors.PlannerError` and AI Central asks the
next planner (the built-in one), recording why. An answer cut off inside its
list of steps is refused: a plan whose end is missing could skip the very
check the task asks for and report a false pass.
"""
from __future__ import annotations

import logging

from server.llm.client import LLMClient
from server.llm.extraction import extract_plan
from server.llm.prompt import PromptBuilder
from server.llm.usage import TokenUsage
from server.planners.base import PlanRequest
from shared.config import LLMSettings
from shared.errors import PlannerError
from shared.models import Plan, PlannerName

log = logging.getLogger(__name__)


class LLMPlanner:
    """Plans through an LLM; see the module docstring for what it trusts and what it does not."""

    name = PlannerName.LLM.value

    def __init__(self, client: LLMClient, prompts: PromptBuilder | None = None) -> None:
        self.client = client
        self.prompts = prompts or PromptBuilder(client.settings.prompt_commands)

    @classmethod
    def from_settings(cls, settings: LLMSettings) -> "LLMPlanner":
        return cls(LLMClient(settings), PromptBuilder(settings.prompt_commands))

    def __repr__(self) -> str:
        return f"LLMPlanner({self.client!r})"

    def plan(self, request: PlanRequest) -> Plan:
        progress = getattr(request, "replan", None)
        prompt = self.prompts.build(request.task, request.context, progress,
                                    template=getattr(request, "prompt_template", None))
        # kept on the request for the run's planning record (server/run_planning.py)
        request.llm_prompt, request.llm_prompt_template = prompt.messages, prompt.template  # type: ignore[attr-defined]
        usage = TokenUsage()
        try:
            reply = self.client.complete(prompt.messages, prompt.schema, usage)
        finally:
            usage.add_to(request.usage)
        request.llm_answer = reply.content  # type: ignore[attr-defined]
        if not reply.content.strip() and reply.refusal:
            raise PlannerError(f"the LLM declined: {reply.refusal}")
        extraction = extract_plan(reply.content)
        cut = " (the answer hit the max_tokens limit)" if reply.truncated else ""
        if extraction.plan is None:
            raise PlannerError(f"the LLM's answer is unusable: {extraction.reason}{cut}")
        if extraction.plan_cut:
            raise PlannerError(f"the LLM's answer was cut off inside its list of steps after "
                               f"{len(extraction.plan.steps)} complete step(s){cut}; a plan without its end "
                               "is not run")
        plan = extraction.plan
        log.info("LLM proposed %d step(s) for %r (%s, %d tokens)", len(plan.steps), request.task[:80],
                 reply.mode.value, reply.usage.total_tokens)
        return plan

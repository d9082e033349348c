"""Prompt templates compared on the demo device's context: how big each prompt is, and how fast it is built.

For each example task of ``devicepilot demo`` the prompt is built with every
template (:data:`server.llm.prompt.TEMPLATES`) for the StreamTV context that
AI Central gets from the ``demo-web`` device. Sizes are characters (and a
rough token estimate, four characters a token); the baseline is the
``detailed`` template.
"""
from __future__ import annotations

import statistics

from bench.planning import Section
from bench.timing import measure
from devicepilot.cli import DEMO_TASKS
from server.llm.prompt import DEFAULT_TEMPLATE, TEMPLATES, PromptBuilder
from tests.fakes.device_context import streamtv_context

CHARS_PER_TOKEN = 4


def prompt_sizes(runs: int) -> Section:
    ctx = streamtv_context("home")
    builder = PromptBuilder(template=DEFAULT_TEMPLATE)
    section = Section(f"Prompt templates on the demo context (StreamTV, {len(ctx.commands)} commands, "
                      f"{len(ctx.navigation.nodes)} screens; {len(DEMO_TASKS)} demo tasks)")
    sizes: dict[str, float] = {}
    for name in TEMPLATES:
        chars = [builder.build(task, ctx, template=name).chars for task in DEMO_TASKS]
        sizes[name] = statistics.mean(chars)
        timing = measure(f"build, {name} template (all demo tasks)",
                         lambda n=name: [builder.build(t, ctx, template=n) for t in DEMO_TASKS], runs)
        if name == DEFAULT_TEMPLATE:
            section.baseline = timing
        else:
            section.rows.append(timing)
        section.facts.append(f"{name}: {sizes[name]:.0f} characters per prompt on average "
                             f"(~{sizes[name] / CHARS_PER_TOKEN:.0f} tokens), min {min(chars)}, max {max(chars)}")
    for name in TEMPLATES:
        if name != DEFAULT_TEMPLATE:
            section.ratios.append((f"{name} / {DEFAULT_TEMPLATE} prompt size", sizes[name] / sizes[DEFAULT_TEMPLATE]))
    return section

"""Run every benchmark: ``python -m bench [--runs N] [--json]`` from the repository root."""
from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys

from bench.grounding import grounding
from bench.planning import Section, run_all
from bench.prompts import prompt_sizes
from bench.load import load
from bench.stack import context, dispatch, navigation
from bench.web import web_steps


def render(sections: list[Section], runs: int) -> str:
    lines = [f"devicepilot benchmarks — Python {platform.python_version()} on {platform.machine()}, "
             f"p50 of up to {runs} runs (p99 in brackets); every ratio is against a baseline of this run"]
    for i, section in enumerate(sections, 1):
        lines += ["", f"{i}. {section.title}"]
        width = max(len(r.name) for r in [*section.rows, *([section.baseline] if section.baseline else [])])
        for row in section.rows:
            lines.append(f"   {row.name:<{width}}  {row.median_ms:9.3f} ms  [{row.p99_ms:.3f}]")
        if section.baseline:
            b = section.baseline
            lines.append(f"   {b.name:<{width}}  {b.median_ms:9.3f} ms  [{b.p99_ms:.3f}]")
        for name, value in section.ratios:
            lines.append(f"   ratio {name}: {value:.3g}x")
        lines += [f"   - {fact}" for fact in section.facts]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=400, help="measured runs per figure (default 400)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--eval", nargs="?", const="all", choices=["dev", "heldout", "all"],
                        help="also run the task corpus (devicepilot eval) on this split (default all); slow")
    parser.add_argument("--eval-jobs", type=int, default=1, help="with --eval: instances per app")
    parser.add_argument("--quick", action="store_true",
                        help="fewer runs, and the load test up to 100 devices instead of 1,000")
    parser.add_argument("--only", choices=["planning", "stack", "web", "load"],
                        help="one group of figures only")
    args = parser.parse_args(argv)
    lift_rate_limits()
    logging.basicConfig(level=logging.ERROR)  # the planners log one line per plan at INFO
    for noisy in ("werkzeug", "engineio", "socketio", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL)
    runs = min(args.runs, 100) if args.quick else args.runs
    groups = {
        "planning": lambda: [*run_all(runs), grounding(max(20, runs // 4)), prompt_sizes(max(20, runs // 10))],
        "stack": lambda: [navigation(runs), context(runs), dispatch(runs)],
        "web": lambda: web_steps(max(20, runs // 4)),
        "load": lambda: [load(quick=args.quick)],
    }
    sections = [s for name, make in groups.items() if args.only in (None, name) for s in make()]
    evaluation = run_eval(args.eval, args.eval_jobs) if args.eval else None
    if args.json:
        out = {"runs": args.runs, "sections": [s.to_dict() for s in sections]}
        if evaluation:
            out["eval"] = evaluation[1]
        print(json.dumps(out, indent=2))
    else:
        print(render(sections, args.runs))
        if evaluation:
            print(f"\n{len(sections) + 1}. Task corpus (devicepilot eval --split {args.eval}): correct end state, "
                  "false passes, impossible tasks refused")
            print(evaluation[0])
    return 0


def lift_rate_limits() -> None:
    """The benchmarks send thousands of requests a minute as one user; the per-user limits would answer 429."""
    from server.guard import RATE_LIMITS

    for rule in RATE_LIMITS.values():
        os.environ[rule.variable] = "1000000 per minute"


def run_eval(split: str, jobs: int) -> tuple[str, dict]:
    """The generalisation corpus through the real stack; its table and its JSON."""
    from evals.cli import evaluate
    from evals.corpus import load_corpus, select
    from evals.scoring import render as render_eval, to_json

    for noisy in ("werkzeug", "engineio", "socketio", "urllib3"):  # one line per HTTP request otherwise
        logging.getLogger(noisy).setLevel(logging.WARNING)
    results, wall = evaluate(select(load_corpus(), split), jobs=jobs)
    data = to_json(results, wall)
    data.pop("results")
    return render_eval(results, wall), data


if __name__ == "__main__":
    sys.exit(main())

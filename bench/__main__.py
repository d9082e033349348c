"""Run every benchmark: ``python -m bench [--runs N] [--json]`` from the repository root."""
from __future__ import annotations

import argparse
import json
import logging
import platform
import sys

from bench.planning import Section, run_all
from bench.prompts import prompt_sizes


def render(sections: list[Section], runs: int) -> str:
    lines = [f"devicepilot benchmarks — Python {platform.python_version()} on {platform.machine()}, "
             f"medians of up to {runs} runs (p95 in brackets)"]
    for i, section in enumerate(sections, 1):
        lines += ["", f"{i}. {section.title}"]
        width = max(len(r.name) for r in [*section.rows, *([section.baseline] if section.baseline else [])])
        for row in section.rows:
            lines.append(f"   {row.name:<{width}}  {row.median_ms:9.3f} ms  [{row.p95_ms:.3f}]")
        if section.baseline:
            b = section.baseline
            lines.append(f"   {b.name:<{width}}  {b.median_ms:9.3f} ms  [{b.p95_ms:.3f}]")
        for name, value in section.ratios:
            lines.append(f"   ratio {name}: {value:.3g}x")
        lines += [f"   - {fact}" for fact in section.facts]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=400, help="measured runs per figure (default 400)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the planners log one line per plan at INFO
    sections = [*run_all(args.runs), prompt_sizes(max(20, args.runs // 10))]
    if args.json:
        print(json.dumps({"runs": args.runs, "sections": [s.to_dict() for s in sections]}, indent=2))
    else:
        print(render(sections, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

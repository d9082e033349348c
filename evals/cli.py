"""``devicepilot eval``: run the generalisation corpus and print the scores per app and split."""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from evals.corpus import Split, Task, load_corpus, select
from evals.scoring import TaskResult, render, to_json

log = logging.getLogger(__name__)


class _ClosedSocketFilter(logging.Filter):
    """Drop Werkzeug's 400 for the WebSocket frames it reads while the local stack shuts down."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not ("code 400, message Bad" in message and "\\x8" in message)


def add_parser(sub: Any) -> None:
    """Register the ``eval`` subcommand on the devicepilot CLI's subparsers."""
    e = sub.add_parser("eval", help="run the task corpus on StreamTV and the third-party web apps; print scores")
    e.add_argument("--split", choices=["dev", "heldout", "all"], default="all", help="which tasks (default all)")
    e.add_argument("--app", default="", help="only this app's tasks (streamtv, django_admin, sqlite_web, datasette)")
    e.add_argument("--limit", type=int, default=0, help="at most N tasks per app and split")
    e.add_argument("--jobs", type=int, default=1, help="instances (devices) per app running tasks in parallel")
    e.add_argument("--task", action="append", default=[], help="only the task with this id (repeatable)")
    e.add_argument("--json", action="store_true", help="print one JSON object (scores and every result)")
    e.add_argument("--out", help="also write the JSON to this file")
    e.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one run")
    e.add_argument("--tree", action="append", default=[], metavar="APP=TREE.yaml",
                   help="run APP with this navigation tree instead of its own (an explored draft; repeatable)")
    e.add_argument("--show", choices=["none", "wrong", "all"], default="wrong",
                   help="list tasks as they finish: none, only wrong ones (default), all")
    e.set_defaults(func=run, log_default=logging.WARNING)


def choose(args: argparse.Namespace) -> list[Task]:
    tasks = load_corpus()
    if args.task:
        wanted = set(args.task)
        tasks = [t for t in tasks if t.id in wanted]
        missing = wanted - {t.id for t in tasks}
        if missing:
            from shared.errors import ConfigError

            raise ConfigError(f"no task with id(s) {sorted(missing)} in the corpus")
    return select(tasks, args.split, args.app, args.limit) if not args.task else tasks


def parse_trees(values: list[str]) -> dict[str, Path]:
    """``--tree APP=PATH`` values as a mapping; a value without ``=`` is a clear error."""
    from shared.errors import ConfigError

    trees: dict[str, Path] = {}
    for value in values:
        app, sep, path = value.partition("=")
        if not sep or not app or not path:
            raise ConfigError(f"--tree {value!r}: write it as APP=PATH, e.g. streamtv=streamtv.draft.yaml")
        trees[app.strip()] = Path(path.strip())
    return trees


def evaluate(tasks: list[Task], jobs: int = 1, timeout: float = 120.0,
             on_result: Any = None, trees: dict[str, Path] | None = None) -> tuple[list[TaskResult], dict[str, float]]:
    """Run *tasks*, one split after the other; returns the results and each split's wall time."""
    from evals.harness import Harness

    apps = sorted({t.app for t in tasks})
    results: list[TaskResult] = []
    wall: dict[str, float] = {}
    with Harness(apps, jobs=jobs, run_timeout_s=timeout, trees=trees) as harness:
        for split in Split:
            chosen = [t for t in tasks if t.split is split]
            if not chosen:
                continue
            started = time.monotonic()
            results += harness.run_tasks(chosen, on_result)
            wall[split.value] = time.monotonic() - started
    return results, wall


def _line(r: TaskResult) -> str:
    mark = "ok  " if r.correct else "FP  " if r.false_pass else "miss"
    return (f"  [{mark}] {r.task_id} ({r.split}): expected {r.expected}, got {r.status} "
            f"[{r.steps_run} step(s), judge {'holds' if r.judge_ok else 'fails'}] {r.seconds:.1f}s — {r.text}")


def run(args: argparse.Namespace) -> int:
    tasks = choose(args)
    logging.getLogger("werkzeug").addFilter(_ClosedSocketFilter())
    show = "none" if args.json else args.show

    def on_result(r: TaskResult) -> None:
        if show == "all" or (show == "wrong" and not r.correct):
            print(_line(r), file=sys.stderr if args.json else sys.stdout, flush=True)

    if not args.json:
        print(f"devicepilot eval: {len(tasks)} task(s) on {', '.join(sorted({t.app for t in tasks}))}", flush=True)
    results, wall = evaluate(tasks, args.jobs, args.timeout, on_result, parse_trees(args.tree))
    data = to_json(results, wall)
    if args.out:
        Path(args.out).write_text(json.dumps(data, indent=2))
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print()
        print(render(results, wall))
    return 0

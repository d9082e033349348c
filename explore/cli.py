"""``devicepilot explore``: drive a device from its current screen and write a draft navigation tree."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from backend_core.navigation.tree import NavigationTree
from explore import draft, drift
from explore.explorer import Explorer, Limits, Progress
from explore.link import ApiLink
from explore.strategies import names as strategy_names
from shared.errors import ConfigError

EXIT_OK, EXIT_ERROR = 0, 2


def add_parser(sub: Any) -> None:
    e = sub.add_parser("explore", help="explore a device's app and draft its navigation tree")
    e.add_argument("--device", required=True, help="device id")
    e.add_argument("--out", required=True, help="where to write the draft tree (YAML)")
    e.add_argument("--server", help="server URL; without it, local mode with --config (default: the demo)")
    e.add_argument("--config", help="local mode: host YAML config (default: the demo)")
    e.add_argument("--max-screens", type=int, default=30, help="stop after finding this many screens")
    e.add_argument("--max-depth", type=int, default=4, help="do not expand screens deeper than this")
    e.add_argument("--budget-s", type=float, default=240.0, help="stop cleanly after this many seconds")
    e.add_argument("--resume", help="continue an earlier draft (the file --out wrote)")
    e.add_argument("--against", help="an existing tree to report drift against (default: --out if it exists)")
    e.add_argument("--allow-destructive", action="store_true",
                   help="also take actions that look destructive or leave the app")
    e.add_argument("--strategy", default="", choices=["", *strategy_names()],
                   help="force an exploration strategy (default: chosen from the device's capabilities)")
    e.add_argument("--userinterface", default="", help="the draft's user interface name (default: the device's)")
    e.set_defaults(func=run, log_default=logging.WARNING)


def _show(p: Progress) -> None:
    print(f"  [{p.screens:3d} screens, {p.actions:4d} actions, {p.time_left_s:5.0f}s left] {p.note}",
          file=sys.stdout, flush=True)


def run(args: argparse.Namespace) -> int:
    from devicepilot.cli import _client_for

    for name in ("max_screens", "max_depth"):
        if getattr(args, name) < 1:
            raise ConfigError(f"--{name.replace('_', '-')} must be at least 1")
    if args.budget_s <= 0:
        raise ConfigError("--budget-s must be positive")
    out = Path(args.out)
    resume = draft.load(Path(args.resume)) if args.resume else None
    against_path = Path(args.against) if args.against else (out if out.exists() and not args.resume else None)
    against = NavigationTree.load(against_path) if against_path else None
    client, stack = _client_for(args)
    try:
        link = ApiLink(client, args.device)
        info = client.get(f"/api/devices/{args.device}")
        limits = Limits(args.max_screens, args.max_depth, args.budget_s, args.allow_destructive)
        explorer = Explorer(link, limits, args.strategy or (resume.strategy if resume else ""), _show,
                            shots_dir=out.parent / f"{out.stem}.screens")
        print(f"exploring {args.device} for at most {args.budget_s:g}s, {args.max_screens} screens, "
              f"depth {args.max_depth}")
        ex = explorer.explore(resume)
        tree = draft.build(ex, link.commands(), args.userinterface or info.get("userinterface") or args.device)
    finally:
        if stack:
            stack.stop()
    target = out
    if against is not None:
        found = drift.compare(against, NavigationTree.from_dict(tree))
        tree["draft"]["drift"] = {"against": str(against_path), **found.to_dict()}
        print(f"drift against {against_path}: " + ("none" if not found.any else ""))
        for line in found.lines():
            print(f"  {line}")
        if against_path == out:
            target = out.with_name(f"{out.stem}.new{out.suffix}")
            print(f"{out} exists: not overwriting it")
    draft.write(tree, target)
    d = tree["draft"]
    print(f"wrote {target}: {d['screens_found']} screens, {len(tree['edges'])} edges, "
          f"{d['actions_tried']} actions ({d['stopped_because']})")
    for item in d["indistinguishable"]:
        print(f"  cannot tell apart: {item['node']} (looks like {', '.join(item['looks_like']) or '?'})")
    for edge in d["unreversed_edges"]:
        print(f"  no way back learned: {edge}")
    for s in d["skipped"]:
        print(f"  skipped on {s['screen']}: {s['target']} — {s['reason']}")
    return EXIT_OK

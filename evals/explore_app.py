"""Draft a navigation tree for one app of the corpus by exploring it: ``python -m evals.explore_app APP --out F``.

The app starts as the evaluation starts it (a fresh copy of its data, its page
reset, no navigation tree), ``devicepilot explore``'s explorer drives it from
its start page, and the draft is written where ``devicepilot eval --tree
APP=F`` can use it. This is how the corpus measures an explored tree against
the app's own tree (StreamTV) or against no tree at all (the web apps).
"""
from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from explore.explorer import Explorer, Limits, Progress

log = logging.getLogger(__name__)


def explore_app(name: str, out: Path, limits: Limits, on_progress=lambda p: None) -> tuple[Path, float]:
    """Explore app *name* from its start page; write the draft to *out*; return it and the seconds taken."""
    from devicepilot.client import ApiClient
    from evals.harness import Harness
    from explore import draft
    from explore.link import ApiLink

    with Harness([name], jobs=1, trees={}) as harness:
        slot = harness.slots[name][0]
        assert slot.page is not None
        slot.app.reset()
        slot.app.reset_page(slot.page)
        slot.page.load(slot.app.start_url)
        harness.sync_location(slot)
        link = ApiLink(ApiClient(harness.stack.url, token=harness.stack.token), slot.app.device_id)
        started = time.monotonic()
        ex = Explorer(link, limits, on_progress=on_progress,
                      shots_dir=out.parent / f"{out.stem}.screens").explore()
        elapsed = time.monotonic() - started
        userinterface = getattr(slot.app, "userinterface", "") or harness.host_config()["devices"][0]["userinterface"]
        tree = draft.build(ex, link.commands(), userinterface)
    draft.write(tree, out)
    return out, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.explore_app", description=__doc__.splitlines()[0])
    parser.add_argument("app", help="an app of the corpus (streamtv, datasette, trac, …)")
    parser.add_argument("--out", required=True, help="where to write the draft tree (YAML)")
    parser.add_argument("--max-screens", type=int, default=30)
    parser.add_argument("--max-depth", type=int, default=4)
    parser.add_argument("--budget-s", type=float, default=240.0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    def show(p: Progress) -> None:
        print(f"  [{p.screens:3d} screens, {p.actions:4d} actions, {p.time_left_s:5.0f}s left] {p.note}", flush=True)

    out, elapsed = explore_app(args.app, Path(args.out), Limits(args.max_screens, args.max_depth, args.budget_s), show)
    print(f"wrote {out} in {elapsed:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

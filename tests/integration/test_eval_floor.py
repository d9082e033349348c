"""The generalisation floor: the held-out split of the task corpus through the real stack.

Runs ``devicepilot eval --split heldout --jobs 2`` in a process of its own, started when the suite is
collected so that it overlaps with the other tests (``tests/background_eval.py``; these tests run last): StreamTV, Django's admin,
sqlite-web, Datasette, TodoMVC, Trac, I Hate Money, Roundup, bukuserver and changedetection.io each on loopback, devicepilot's server and
host in local mode, one browser per device, the app's state reset between tasks. Every end state is judged from the app itself.

The floors are what the planner reaches today (see FLOORS); raise them as it improves,
never lower them to make a change pass.
"""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from evals.apps import APPS
from evals.cli import evaluate
from evals.corpus import Split, load_corpus, select
from evals.scoring import TaskResult, render, scores, to_json
from tests.background_eval import BackgroundEval

pytestmark = pytest.mark.integration
log = logging.getLogger(__name__)

# Correct-end-state rate on the held-out split, per app and overall, measured with
# `devicepilot eval --split all --jobs 2` on 2026-11-25 (before the grounding work of issue 8, 2026-11-24:
# all 27.6 %). Now: all 70.6 % (180/255), streamtv 84.9 % (73/86), django_admin 64.4 % (29/45),
# sqlite_web 58.1 % (25/43), datasette 65.2 % (15/23), todomvc 80.0 % (16/20), trac 81.0 % (17/21; its
# held-out results were read after its first measure, 42.9 %, so this one is a regression guard only),
# ihatemoney 29.4 % (5/17). Datasette, TodoMVC, Trac and then I Hate Money were added last, each with its
# tasks written in one sitting before the planner first ran on it (held-out on the first run: datasette
# 47.8 %, todomvc 65.0 %, trac 42.9 %, ihatemoney 17.6 %): the closest measure here of an app nobody tuned
# for. Each floor sits a task or two below its measure, for timing noise; raise them as the planner
# improves, never lower them. ("all" was 73.5 % before I Hate Money joined; its floor stays.) Raised on
# 2026-11-25 after all 71.8 % (183/255), django_admin 68.9 % (31/45), sqlite_web 60.5 % (26/43); and again
# after all 74.1 % (189/255), sqlite_web 65.1 % (28/43), ihatemoney 47.1 % (8/17).
# These floors are for the corpus's first tasks (255 held out). The later batches (ids "ihm2-…", "ds3-…"),
# each written in one sitting before the planner ran on it, have their own floor: they are the freshest
# measure of wordings nobody tuned for, and they are harder (batch 2's held-out half: 16/30 on its first run).
FLOORS = {"all": 0.72, "streamtv": 0.79, "django_admin": 0.64, "sqlite_web": 0.6, "datasette": 0.6,
          "todomvc": 0.75, "trac": 0.66, "ihatemoney": 0.35}
LATER_BATCH = re.compile(r"^[a-z]+\d-")
# Apps added after the floors above were set, each measured alone: the nearest thing here to an app nobody tuned
# for. Each one's tasks were written and their judges checked by hand before the planner first ran on it.
# Roundup (2026-11-26): first run dev 6/22, held-out 4/16, one false pass on each split (both fixed at their
# cause); after work on its dev half, held-out 8/16. bukuserver (2026-11-26): first run dev 8/21, held-out
# 5/19, no false pass. changedetection.io (2026-11-26, a website monitor whose state is JSON files held in memory):
# first run dev 6/21, held-out 4/19 with two false passes (a search typed into the box that adds a watch; "resume
# checks on X" clicked the row itself), both fixed at their cause. After the work on the three apps' dev halves
# (forms and saves, a row's own verbs and pages, rename): held-out roundup 9/16, buku 11/19, changedetection 9/19,
# no false pass; each floor sits a task or two below.
NEW_APP_FLOORS = {"roundup": 0.5, "buku": 0.47, "changedetection": 0.36}
# Held-out tasks of the later batches, all apps together: 52.2 % (24/46) on 2026-11-25.
LATER_FLOOR = 0.45

# The target is 0 false passes and every impossible task refused with no step run. The last full measure
# had 0 false passes (nine found on the way, in filters, forms, lists, a breadcrumb the page walk did not
# see, a field that adds another kind and a column taken for a record, are fixed at their cause and have unit
# tests); the ceiling keeps room for one until runs prove 0 again and again. Impossible tasks refused, per
# app: streamtv 7/8, django_admin 4/4, sqlite_web 4/4, todomvc 1/1, trac 2/2, ihatemoney 1/1,
# datasette 1/4 (a read-only app: "delete the plant Basil" is planned through the row and fails rather than
# being refused).
FALSE_PASS_CEILING = 1
REFUSED_FLOORS = {"streamtv": 0.85, "django_admin": 1.0, "sqlite_web": 1.0, "datasette": 0.25, "todomvc": 1.0,
                  "trac": 1.0, "ihatemoney": 1.0}

JOBS = 2  # instances (devices) per app: the held-out split in about half the time of one
EVAL_TIMEOUT_S = 40 * 60  # from its start at collection; it takes 6-9 minutes alone, more beside the suite


@pytest.fixture(scope="module")
def heldout(tmp_path_factory: pytest.TempPathFactory, background_eval: BackgroundEval | None) -> list[TaskResult]:
    """The held-out split's results: from the eval the session started in the background, else run here."""
    if background_eval is not None:
        results, wall = background_eval.results(timeout_s=EVAL_TIMEOUT_S)
    else:
        results, wall = evaluate(select(load_corpus(), Split.HELDOUT.value), jobs=JOBS)
    out: Path = tmp_path_factory.mktemp("eval") / "heldout.json"
    out.write_text(json.dumps(to_json(results, wall), indent=2))
    print("\n" + render(results, wall) + f"\n(results: {out})")
    return results


def test_corpus_is_big_enough_held_out_and_judged() -> None:
    corpus = load_corpus()
    assert len(corpus) >= 300
    held = [t for t in corpus if t.split is Split.HELDOUT]
    assert len(held) / len(corpus) >= 0.40
    assert all(t.judge for t in corpus)
    assert {t.app for t in corpus} == set(APPS)


def _first(results: list[TaskResult]) -> list[TaskResult]:
    return [r for r in results if not LATER_BATCH.match(r.task_id) and r.app not in NEW_APP_FLOORS]


def test_apps_added_later_stay_above_their_floor(heldout: list[TaskResult]) -> None:
    for app, floor in NEW_APP_FLOORS.items():
        mine = [r for r in heldout if r.app == app]
        assert mine and sum(r.correct for r in mine) / len(mine) >= floor, \
            (app, [f"{r.task_id}: expected {r.expected}, got {r.status}" for r in mine if not r.correct])


def test_later_batches_stay_above_their_floor(heldout: list[TaskResult]) -> None:
    later = [r for r in heldout if LATER_BATCH.match(r.task_id) and r.app not in NEW_APP_FLOORS]
    assert later and sum(r.correct for r in later) / len(later) >= LATER_FLOOR, \
        [f"{r.task_id}: expected {r.expected}, got {r.status}" for r in later if not r.correct]


def test_heldout_correct_end_state_stays_above_the_floor(heldout: list[TaskResult]) -> None:
    assert len(heldout) == len(select(load_corpus(), Split.HELDOUT.value))
    heldout = _first(heldout)
    per_app = scores(heldout)[Split.HELDOUT.value]
    below = {app: round(per_app[app].correct_rate, 3) for app, floor in FLOORS.items()
             if per_app[app].correct_rate < floor}
    wrong = [f"{r.task_id}: expected {r.expected}, got {r.status} ({r.message[:160]})" for r in heldout if not r.correct]
    for line in wrong:
        log.warning("wrong end state: %s", line)
    assert not below, f"held-out correct rate below the floor {FLOORS}: {below}; wrong tasks: {wrong}"


def test_heldout_false_passes_and_refusals_do_not_get_worse(heldout: list[TaskResult]) -> None:
    false_passes = [f"{r.task_id} ({r.text!r}): {'; '.join(d for d in r.judge_details if d.startswith('FAIL'))}"
                    for r in heldout if r.false_pass]
    for line in false_passes:  # the target is none: report every one
        log.warning("false pass: %s", line)
    assert len(false_passes) <= FALSE_PASS_CEILING, false_passes
    for app, floor in REFUSED_FLOORS.items():
        impossible = [r for r in _first(heldout) if r.expected == "infeasible" and r.app == app]
        refused = [r for r in impossible if r.refused]
        assert impossible and len(refused) / len(impossible) >= floor, \
            (app, [f"{r.task_id}: {r.status} after {r.steps_run} step(s)" for r in impossible if not r.refused])


def test_no_task_broke_the_harness(heldout: list[TaskResult]) -> None:
    """Set-up failures are the corpus's or the harness's fault, not the planner's."""
    assert not [f"{r.task_id}: {r.message}" for r in heldout if r.status == "setup-error"]

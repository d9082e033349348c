"""The evaluation corpus: its size, its held-out share, every task judged, and clear errors on bad files."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from evals.apps import APPS
from evals.corpus import Expect, Split, load_corpus, load_file, select, split_of
from shared.errors import ConfigError


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def test_corpus_has_300_tasks_on_three_apps(corpus) -> None:
    """Three apps with at least 80 tasks each; an app added later (written in one sitting before the
    planner first ran on it, as a fresh measure of generalisation) has at least 30."""
    assert len(corpus) >= 300
    apps = Counter(t.app for t in corpus)
    assert set(apps) == set(APPS)
    assert sum(n >= 80 for n in apps.values()) >= 3 and all(n >= 30 for n in apps.values()), apps


def test_at_least_40_percent_held_out_in_every_app(corpus) -> None:
    for app in APPS:
        tasks = [t for t in corpus if t.app == app]
        held = sum(t.split is Split.HELDOUT for t in tasks)
        assert held / len(tasks) >= 0.40, (app, held, len(tasks))


def test_every_task_has_a_judge_and_the_corpus_covers_every_outcome(corpus) -> None:
    assert all(t.judge for t in corpus)
    expects = Counter(t.expect for t in corpus)
    assert expects[Expect.INFEASIBLE] >= 20 and expects[Expect.FAILED] >= 20
    for app in APPS:  # each app has impossible tasks and tasks whose check must fail
        assert {Expect.INFEASIBLE, Expect.FAILED, Expect.PASSED} <= {t.expect for t in corpus if t.app == app}


def test_split_is_a_stable_hash_of_the_id() -> None:
    assert split_of("stv-guide-plain") is split_of("stv-guide-plain")
    shares = Counter(split_of(f"task-{i}") for i in range(2000))
    assert 0.45 < shares[Split.HELDOUT] / 2000 < 0.55


def test_select_by_split_app_and_limit(corpus) -> None:
    held = select(corpus, "heldout")
    assert held and all(t.split is Split.HELDOUT for t in held)
    some = select(corpus, "all", "sqlite_web", 3)
    assert len(some) == 3 and {t.app for t in some} == {"sqlite_web"}
    limited = select(corpus, "dev", limit=2)
    assert Counter(t.app for t in limited) == {app: 2 for app in APPS}
    with pytest.raises(ConfigError, match="unknown split"):
        select(corpus, "test")
    with pytest.raises(ConfigError, match="no tasks for app 'nope'"):
        select(corpus, "all", "nope")


@pytest.mark.parametrize("body, message", [
    ("tasks: []", "a mapping with 'app'"),
    ("app: x\ntasks: [{text: hi, judge: [{url_contains: /a}]}]", "needs an id"),
    ("app: x\ntasks: [{id: a, judge: [{url_contains: /a}]}]", "needs a text"),
    ("app: x\ntasks: [{id: a, text: hi}]", "needs a judge"),
    ("app: x\ntasks: [{id: a, text: hi, expect: maybe, judge: [{url_contains: /a}]}]", "expect must be"),
    ("app: x\ntasks: [{id: a, text: hi, judge: [{colour: red}]}]", "unknown judge check 'colour'"),
    ("app: x\ntasks: [{id: a, text: hi, judge: [{sql: {query: 'DELETE FROM t', equals: 1}}]}]", "must be a SELECT"),
    ("app: x\ntasks: [{id: a, text: hi, judge: [{streamtv: {volume: 3}}]}]", "unknown StreamTV fields"),
    ("app: x\ntasks: [{id: a, text: hi, setup: {steps: [{jump: 1}]}, judge: [{url_contains: /a}]}]",
     "unknown setup step 'jump'"),
])
def test_bad_corpus_files_say_what_is_wrong(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=message):
        load_file(path)


def test_duplicate_ids_are_rejected(tmp_path: Path) -> None:
    task = "{id: same, text: hi, judge: [{url_contains: /a}]}"
    (tmp_path / "a.yaml").write_text(f"app: x\ntasks: [{task}]")
    (tmp_path / "b.yaml").write_text(f"app: y\ntasks: [{task}]")
    with pytest.raises(ConfigError, match="'same' is used twice"):
        load_corpus(tmp_path)


def test_a_hand_chosen_split_is_rejected(tmp_path: Path) -> None:
    wrong = "dev" if split_of("a") is Split.HELDOUT else "heldout"
    path = tmp_path / "x.yaml"
    path.write_text(f"app: x\ntasks: [{{id: a, split: {wrong}, text: hi, judge: [{{url_contains: /a}}]}}]")
    with pytest.raises(ConfigError, match="splits are not chosen by hand"):
        load_file(path)

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from tests.background_eval import BackgroundEval
from tests.stack import Stack

FLOOR_FIXTURE = "heldout"  # the floor tests' fixture: the held-out split of the task corpus, judged
BACKGROUND_EVAL = pytest.StashKey[BackgroundEval]()
EXPLORATIONS = "test_explore_"   # tests that explore an app within a time budget


@pytest.hookimpl(trylast=True)  # after -k / -m deselection: only a floor test that will run starts the eval
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the floor tests' held-out eval now, in its own process, and run those tests last.

    The eval overlaps with the rest of the suite instead of adding its minutes to it.
    """
    floor = [item for item in items if FLOOR_FIXTURE in getattr(item, "fixturenames", ())]
    if not floor or config.getoption("collectonly"):
        return
    # while the eval runs: the unit tests, whose time is their own CPU; the explorations, which run to a time
    # budget and find fewer screens on a busy machine, come after the rest, when the eval is most likely done
    rank = {id(item): (0 if "/unit/" in str(item.path) else 2 if item.path.name.startswith(EXPLORATIONS) else 1)
            for item in items}
    rest = sorted((item for item in items if item not in floor), key=lambda item: rank[id(item)])
    items[:] = rest + floor
    from tests.integration.test_eval_floor import JOBS

    background = BackgroundEval(split="heldout", jobs=JOBS)
    background.start()
    config.stash[BACKGROUND_EVAL] = background


def pytest_unconfigure(config: pytest.Config) -> None:
    background = config.stash.get(BACKGROUND_EVAL, None)
    if background is not None:
        background.stop()


@pytest.fixture(scope="session")
def background_eval(request: pytest.FixtureRequest) -> BackgroundEval | None:
    """The held-out eval started at collection, if this session started one."""
    return request.config.stash.get(BACKGROUND_EVAL, None)


@pytest.fixture(scope="session")
def demo_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One server + one demo host (StreamTV in Chromium) for the whole session."""
    stack = Stack.start(tmp_path_factory.mktemp("demo-stack"))
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def fresh_stack(tmp_path: Path) -> Iterator[Stack]:
    """A server + demo host of this test's own, for tests that break things."""
    stack = Stack.start(tmp_path)
    try:
        yield stack
    finally:
        stack.stop()

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.background_eval import BackgroundEval
from tests.stack import Stack

FLOOR_FIXTURE = "heldout"  # the floor tests' fixture: the held-out split of the task corpus, judged
BACKGROUND_EVAL = pytest.StashKey[BackgroundEval]()
EXPLORATIONS = "test_explore_"   # tests that explore an app within a time budget
LONG_EXPLORATIONS = ("test_explore_web_app.py", "test_explore_streamtv.py")
# The whole suite, or a folder of it, runs in this many processes (pytest-xdist), a file at a time each: the
# machines have 2 cores, but most integration tests spend much of their time waiting on sockets and processes
# (with 2 processes and the eval beside them the cores were busy about half the time; 3 end the suite sooner).
# A single file runs in one process; `-n N` chooses, `-n 0` or `-p no:xdist` runs everything in one.
WORKERS = 3
# With workers, the controlling process starts the held-out eval once (this folder, handed to every worker),
# when a worker has collected a floor test; the worker that runs the floor tests reads the results from there.
EVAL_DIR = pytest.StashKey[Path]()
EVAL_DIR_INPUT = "devicepilot_eval_dir"
FLOOR_COLLECTED = "floor-collected"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Spread the whole suite, or a folder of it, over WORKERS processes, whole files at a time and in order."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.option.numprocesses is None and not config.getoption("collectonly") and \
            not config.getoption("usepdb") and \
            any((config.invocation_params.dir / arg.split("::")[0]).is_dir() for arg in config.args):
        config.option.numprocesses = WORKERS
    if config.option.numprocesses and config.option.dist == "no":
        # a file's tests share its module fixtures (a server, a host, an app started once)
        config.option.dist = "loadfile"
    # the order of collection stands (see pytest_collection_modifyitems): the floor tests last
    config.option.loadscopereorder = False


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Whole files in order, as --dist loadfile, but a worker is handed its next file only when it is on the last
    test of its current one (xdist's own rule hands it one more file while two tests are left): the explorations
    at the end, few tests of minutes each, are then shared between the workers instead of queued behind one."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class OneFileAhead(LoadFileScheduling):  # type: ignore[misc]
        def _reschedule(self, node: Any) -> None:
            if node.shutting_down or node not in self.registered_collections:  # a new worker still collecting
                return
            if not self.workqueue:
                node.shutdown()
                return
            if self._pending_of(self.assigned_work[node]) > 1:
                return
            self._assign_work_unit(node)

    return OneFileAhead(config, log)


def _distributing(config: pytest.Config) -> bool:
    """This process only hands tests to xdist workers, which collect and run them."""
    return (config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput")
            and getattr(config.option, "dist", "no") != "no" and not config.getoption("collectonly"))


def _eval_dir_of_worker(config: pytest.Config) -> Path | None:
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    return Path(workerinput[EVAL_DIR_INPUT]) if workerinput and EVAL_DIR_INPUT in workerinput else None


def pytest_configure(config: pytest.Config) -> None:
    if _distributing(config):
        config.stash[EVAL_DIR] = Path(tempfile.mkdtemp(prefix="devicepilot-eval-"))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist, in the controlling process: each worker learns where the held-out eval is."""
    eval_dir = node.config.stash.get(EVAL_DIR, None)
    if eval_dir is not None:
        node.workerinput[EVAL_DIR_INPUT] = str(eval_dir)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """xdist, in the controlling process: the first worker to have collected a floor test has the eval started."""
    config = node.config
    eval_dir = config.stash.get(EVAL_DIR, None)
    if eval_dir is None or BACKGROUND_EVAL in config.stash or not (eval_dir / FLOOR_COLLECTED).exists():
        return
    from tests.integration.test_eval_floor import JOBS

    background = BackgroundEval(split="heldout", jobs=JOBS, workdir=eval_dir)
    background.start()
    config.stash[BACKGROUND_EVAL] = background


@pytest.hookimpl(trylast=True)  # after -k / -m deselection: only a floor test that will run starts the eval
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the floor tests' held-out eval now, in its own process, and run those tests last.

    The eval overlaps with the rest of the suite instead of adding its minutes to it. Under xdist each worker
    collects and orders the same items, and the controlling process starts the eval (see above).
    """
    floor = [item for item in items if FLOOR_FIXTURE in getattr(item, "fixturenames", ())]
    if not floor or config.getoption("collectonly"):
        return
    # while the eval runs: the unit tests, whose time is their own CPU; the explorations, which run to a time
    # budget and find fewer screens on a busy machine, come after the rest, when the eval is most likely done
    # (the explorations of real apps, minutes each, before the short ones, so that two workers share them evenly)
    rank = {id(item): (0 if "/unit/" in str(item.path) else 1 if not item.path.name.startswith(EXPLORATIONS)
                       else 2 if item.path.name in LONG_EXPLORATIONS else 3) for item in items}
    rest = sorted((item for item in items if item not in floor), key=lambda item: rank[id(item)])
    items[:] = rest + floor
    eval_dir = _eval_dir_of_worker(config)
    if eval_dir is not None:
        (eval_dir / FLOOR_COLLECTED).touch()
        return
    from tests.integration.test_eval_floor import JOBS

    background = BackgroundEval(split="heldout", jobs=JOBS)
    background.start()
    config.stash[BACKGROUND_EVAL] = background


def pytest_unconfigure(config: pytest.Config) -> None:
    background = config.stash.get(BACKGROUND_EVAL, None)
    if background is not None:
        background.stop()
    elif EVAL_DIR in config.stash:   # no floor test ran: the folder was never used
        shutil.rmtree(config.stash[EVAL_DIR], ignore_errors=True)


@pytest.fixture(scope="session")
def background_eval(request: pytest.FixtureRequest) -> BackgroundEval | None:
    """The held-out eval started at collection, if this session started one."""
    started = request.config.stash.get(BACKGROUND_EVAL, None)
    eval_dir = _eval_dir_of_worker(request.config)
    if started is None and eval_dir is not None:
        from tests.integration.test_eval_floor import JOBS

        started = BackgroundEval.attach(eval_dir, split="heldout", jobs=JOBS)
    return started


@pytest.fixture(scope="session")
def demo_stack_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One server + one demo host (StreamTV in Chromium) for the whole session (for each worker's, with xdist)."""
    stack = Stack.start(tmp_path_factory.mktemp("demo-stack"))
    try:
        yield stack
    finally:
        stack.stop()


GO_HOME = {"analysis": "back to the entry screen", "feasible": True,
           "plan": [{"step": 1, "command": "goto", "params": {"node": "home"}}]}


@pytest.fixture(scope="module")
def demo_stack(demo_stack_process: Stack) -> Stack:
    """The session's demo stack, its device on the home screen when a file starts, whichever files used it before
    (with xdist, which files share a worker's stack, and in what order, changes from run to run)."""
    run = demo_stack_process.run("go home", plan=GO_HOME)
    assert run["status"] == "passed", (run["status"], run["message"])
    return demo_stack_process


@pytest.fixture
def fresh_stack(tmp_path: Path) -> Iterator[Stack]:
    """A server + demo host of this test's own, for tests that break things."""
    stack = Stack.start(tmp_path)
    try:
        yield stack
    finally:
        stack.stop()

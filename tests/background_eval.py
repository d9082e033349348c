"""The held-out eval of the floor tests, run in a process of its own while the rest of the suite runs.

The eval is the suite's longest part (several minutes of browsers and apps on loopback) and uses about one
core; most other integration tests wait on sockets and processes for much of their time. Started at the end
of collection and read by the floor tests, which run last, it overlaps with everything else instead of
adding to it. It runs ``devicepilot eval`` exactly as a person would, so its results are the real ones.

When the suite runs in several processes (pytest-xdist), the controlling process starts the eval once, and
the worker that runs the floor tests reads its results from the eval's folder: :meth:`BackgroundEval.attach`.
The folder holds the eval's results and log, the time it started and, once it has ended, its exit status.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from evals.scoring import TaskResult

log = logging.getLogger(__name__)

STARTED = "started"          # the eval's start, in seconds since the epoch: written when it starts
EXIT_STATUS = "exit-status"  # its exit code: written when its process has ended


class BackgroundEvalError(RuntimeError):
    """The background eval did not finish with results; the message carries the end of its log."""


@dataclass
class BackgroundEval:
    split: str
    jobs: int
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="devicepilot-eval-")))
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0   # time.time() at its start

    @classmethod
    def attach(cls, workdir: Path, split: str, jobs: int) -> "BackgroundEval | None":
        """The eval another process of this test session started in *workdir* (None if none started there):
        its results are read from the folder, and that process stops it."""
        try:
            started = float((workdir / STARTED).read_text())
        except (OSError, ValueError):
            return None
        return cls(split=split, jobs=jobs, workdir=workdir, started=started)

    @property
    def out(self) -> Path:
        return self.workdir / f"{self.split}.json"

    @property
    def log_path(self) -> Path:
        return self.workdir / "eval.log"

    def start(self) -> None:
        argv = [sys.executable, "-m", "devicepilot", "eval", "--split", self.split, "--jobs", str(self.jobs),
                "--show", "none", "--out", str(self.out)]
        with self.log_path.open("wb") as sink:
            # a session of its own, so stopping it reaches the apps and browsers it started
            self.proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.started = time.time()
        _write(self.workdir / STARTED, repr(self.started))
        threading.Thread(target=self._record_exit, args=(self.proc,), name="background-eval", daemon=True).start()
        log.info("held-out eval started in the background (pid %s, log %s)", self.proc.pid, self.log_path)

    def results(self, timeout_s: float) -> tuple[list[TaskResult], dict[str, float]]:
        """Wait for the eval and return its results and wall times; an eval that failed raises with its log."""
        assert self.started, "start() or attach() first"
        code = self._wait(max(1.0, timeout_s - (time.time() - self.started)), timeout_s)
        if code != 0 or not self.out.exists():
            raise BackgroundEvalError(f"the held-out eval exited {code} without results:\n{self._tail()}")
        data = json.loads(self.out.read_text())
        wall = {split: float(s.get("wall_seconds", 0.0)) for split, s in data.get("splits", {}).items()}
        return [TaskResult.from_dict(r) for r in data["results"]], wall

    def _wait(self, remaining_s: float, timeout_s: float) -> int:
        if self.proc is not None:
            try:
                return self.proc.wait(timeout=remaining_s)
            except subprocess.TimeoutExpired:
                self.stop()
                raise BackgroundEvalError(f"the held-out eval did not finish in {timeout_s:.0f} s:\n{self._tail()}")
        # started by another process of the session, which writes its exit status and stops it at the end
        deadline = time.monotonic() + remaining_s
        status = self.workdir / EXIT_STATUS
        while not status.exists():
            if time.monotonic() > deadline:
                raise BackgroundEvalError(f"the held-out eval did not finish in {timeout_s:.0f} s:\n{self._tail()}")
            time.sleep(0.5)
        return int(status.read_text())

    def stop(self) -> None:
        """Interrupt a running eval (it closes its apps and browsers), then kill what is left of its session."""
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            log.warning("held-out eval did not stop on SIGINT; killing its process group")
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def _record_exit(self, proc: subprocess.Popen[bytes]) -> None:
        _write(self.workdir / EXIT_STATUS, str(proc.wait()))

    def _tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError as exc:
            return f"(no log: {exc})"


def _write(path: Path, text: str) -> None:
    """Write *path* whole or not at all, for a reader in another process."""
    part = path.with_name(path.name + ".part")
    part.write_text(text)
    part.replace(path)

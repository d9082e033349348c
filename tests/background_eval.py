"""The held-out eval of the floor tests, run in a process of its own while the rest of the suite runs.

The eval is the suite's longest part (several minutes of browsers and apps on loopback) and uses about one
core; most other integration tests wait on sockets and processes for much of their time. Started at the end
of collection and read by the floor tests, which run last, it overlaps with everything else instead of
adding to it. It runs ``devicepilot eval`` exactly as a person would, so its results are the real ones.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from evals.scoring import TaskResult

log = logging.getLogger(__name__)


class BackgroundEvalError(RuntimeError):
    """The background eval did not finish with results; the message carries the end of its log."""


@dataclass
class BackgroundEval:
    split: str
    jobs: int
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="devicepilot-eval-")))
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0

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
        self.started = time.monotonic()
        log.info("held-out eval started in the background (pid %s, log %s)", self.proc.pid, self.log_path)

    def results(self, timeout_s: float) -> tuple[list[TaskResult], dict[str, float]]:
        """Wait for the eval and return its results and wall times; an eval that failed raises with its log."""
        assert self.proc is not None, "start() first"
        try:
            code = self.proc.wait(timeout=max(1.0, timeout_s - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            self.stop()
            raise BackgroundEvalError(f"the held-out eval did not finish in {timeout_s:.0f} s:\n{self._tail()}")
        if code != 0 or not self.out.exists():
            raise BackgroundEvalError(f"the held-out eval exited {code} without results:\n{self._tail()}")
        data = json.loads(self.out.read_text())
        wall = {split: float(s.get("wall_seconds", 0.0)) for split, s in data.get("splits", {}).items()}
        return [TaskResult.from_dict(r) for r in data["results"]], wall

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

    def _tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError as exc:
            return f"(no log: {exc})"

"""Scores: one task's outcome, and the tables per app and split.

- **correct**: the run ended with the expected status and the judge holds
  (an expected ``infeasible`` also needs no step run);
- **false pass**: the run said ``passed`` but the task expected another status
  or the judge found the end state wrong — the worst outcome for a test tool;
- **impossible refused**: a task expected ``infeasible`` ended ``infeasible``
  with no step run.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class TaskResult:
    task_id: str
    app: str
    split: str
    text: str
    expected: str
    status: str
    steps_run: int
    judge_ok: bool
    judge_details: tuple[str, ...]
    seconds: float
    message: str = ""
    planner: str = ""
    plan: tuple[str, ...] = ()
    run_id: str = ""

    @property
    def refused(self) -> bool:
        return self.expected == "infeasible" and self.status == "infeasible" and self.steps_run == 0

    @property
    def correct(self) -> bool:
        if self.status != self.expected or not self.judge_ok:
            return False
        return self.refused if self.expected == "infeasible" else True

    @property
    def false_pass(self) -> bool:
        return self.status == "passed" and (self.expected != "passed" or not self.judge_ok)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(correct=self.correct, false_pass=self.false_pass, refused=self.refused)
        d["judge_details"] = list(self.judge_details)
        d["plan"] = list(self.plan)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TaskResult":
        """The result :meth:`to_dict` wrote (its derived fields are recomputed, not read)."""
        names = {f.name for f in fields(cls)}
        kept = {k: v for k, v in d.items() if k in names}
        kept["judge_details"] = tuple(kept.get("judge_details", ()))
        kept["plan"] = tuple(kept.get("plan", ()))
        return cls(**kept)


@dataclass
class Score:
    app: str
    split: str
    tasks: int = 0
    correct: int = 0
    false_passes: int = 0
    impossible: int = 0
    refused: int = 0
    seconds: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)

    def add(self, r: TaskResult) -> None:
        self.tasks += 1
        self.correct += r.correct
        self.false_passes += r.false_pass
        self.impossible += r.expected == "infeasible"
        self.refused += r.refused
        self.seconds += r.seconds
        self.statuses[r.status] = self.statuses.get(r.status, 0) + 1

    @property
    def correct_rate(self) -> float:
        return self.correct / self.tasks if self.tasks else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "correct_rate": round(self.correct_rate, 4), "seconds": round(self.seconds, 2)}


def scores(results: list[TaskResult]) -> dict[str, dict[str, Score]]:
    """``{split: {app: Score, ..., "all": Score}}``."""
    out: dict[str, dict[str, Score]] = {}
    for r in results:
        per_app = out.setdefault(r.split, {})
        per_app.setdefault(r.app, Score(r.app, r.split)).add(r)
        per_app.setdefault("all", Score("all", r.split)).add(r)
    return out


SPLIT_TITLES = {"dev": "dev", "heldout": "held-out"}


def render(results: list[TaskResult], wall_seconds: dict[str, float]) -> str:
    lines = []
    for split, per_app in sorted(scores(results).items()):
        lines.append(f"{SPLIT_TITLES.get(split, split)} split: {per_app['all'].tasks} task(s) in "
                     f"{wall_seconds.get(split, 0.0):.1f} s")
        lines.append(f"  {'app':<14}{'tasks':>6}{'correct':>9}{'rate':>8}{'false passes':>14}"
                     f"{'impossible refused':>20}   statuses")
        apps = sorted(a for a in per_app if a != "all") + ["all"]
        for app in apps:
            s = per_app[app]
            statuses = ", ".join(f"{k} {v}" for k, v in sorted(s.statuses.items()))
            lines.append(f"  {app:<14}{s.tasks:>6}{s.correct:>9}{100 * s.correct_rate:>7.1f}%{s.false_passes:>14}"
                         f"{f'{s.refused}/{s.impossible}':>20}   {statuses}")
        lines.append("")
    return "\n".join(lines).rstrip()


def to_json(results: list[TaskResult], wall_seconds: dict[str, float]) -> dict[str, Any]:
    return {
        "splits": {split: {"wall_seconds": round(wall_seconds.get(split, 0.0), 2),
                           "apps": {app: s.to_dict() for app, s in per_app.items()}}
                   for split, per_app in scores(results).items()},
        "results": [r.to_dict() for r in results],
    }

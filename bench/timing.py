"""Timing helpers: run a callable many times, keep the distribution."""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Timing:
    name: str
    samples_ms: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p95_ms(self) -> float:
        ordered = sorted(self.samples_ms)
        return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]

    @property
    def p99_ms(self) -> float:
        ordered = sorted(self.samples_ms)
        return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]

    def ratio_to(self, baseline: "Timing") -> float:
        return self.median_ms / baseline.median_ms if baseline.median_ms else float("inf")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "runs": len(self.samples_ms), "median_ms": round(self.median_ms, 4),
                "p95_ms": round(self.p95_ms, 4), "p99_ms": round(self.p99_ms, 4)}


def measure(name: str, fn: Callable[[], Any], runs: int, warmup: int = 5) -> Timing:
    """Call *fn* ``warmup`` times unmeasured, then *runs* times, one sample per call."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return Timing(name, tuple(samples))

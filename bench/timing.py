"""Timing helpers: run a callable many times, keep the distribution."""
from __future__ import annotations

import random
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


def measure_interleaved(fns: dict[str, Callable[[], Any]], runs: int, warmup: int = 5,
                        jitter_s: float = 0.0, reset: Callable[[], Any] | None = None) -> dict[str, Timing]:
    """Like :func:`measure` for several callables at once, called in turn within each round.

    For figures compared with one another whose cost drifts while they are measured. *jitter_s*: each
    call starts after an unmeasured pause drawn uniformly from ``[0, jitter_s)``, so that a cost counted in
    whole frames of a clock (a browser's input waits for its next animation frames) is sampled at every
    phase of it, not at the one the previous call happened to end on. Then a figure that adds d ms of
    work before the same browser call is d ms slower, as it is on average, not a whole frame or nothing.
    *reset*: called, unmeasured, before each call (the device brought back to where each call starts).
    """
    rng = random.Random(0)
    for _ in range(warmup):
        for fn in fns.values():
            if reset is not None:
                reset()
            fn()
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            if reset is not None:
                reset()
            if jitter_s:
                time.sleep(rng.uniform(0, jitter_s))
            start = time.perf_counter_ns()
            fn()
            samples[name].append((time.perf_counter_ns() - start) / 1e6)
    return {name: Timing(name, tuple(values)) for name, values in samples.items()}

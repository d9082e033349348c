"""The bench's timing helpers: interleaved figures are sampled round by round, in turn."""
from __future__ import annotations

from bench.timing import measure_interleaved


def test_interleaved_figures_are_called_in_turn_and_each_sampled_once_a_round() -> None:
    calls: list[str] = []
    timings = measure_interleaved({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, runs=4,
                                  warmup=1)
    assert calls == ["a", "b"] * 5   # one warm-up round, then four measured ones
    assert list(timings) == ["a", "b"]
    assert [len(t.samples_ms) for t in timings.values()] == [4, 4]
    assert all(s >= 0 for t in timings.values() for s in t.samples_ms)


def test_the_pause_before_each_call_is_not_counted(monkeypatch) -> None:
    import bench.timing as timing

    slept: list[float] = []
    monkeypatch.setattr(timing.time, "sleep", slept.append)   # a pause drawn, not slept: the samples cannot hold it
    timings = measure_interleaved({"x": lambda: None}, runs=50, warmup=0, jitter_s=0.02)
    assert len(slept) == 50 and all(0 <= s < 0.02 for s in slept)
    assert len(set(slept)) > 40   # drawn afresh each time, so every phase of a frame clock is sampled
    assert len(timings["x"].samples_ms) == 50

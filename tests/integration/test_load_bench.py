"""The load benchmark's lab: a real `devicepilot server` and `devicepilot host` as processes, driven over the API."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench.load import LabProcesses

pytestmark = pytest.mark.integration


def test_a_wave_of_runs_ends_with_every_step_stored_and_the_servers_own_cpu_counted(tmp_path: Path) -> None:
    lab = LabProcesses(5, tmp_path)
    try:
        wave = lab.wave(3)
    finally:
        lab.stop()
    assert wave.runs == 15
    assert wave.not_passed == 0 and wave.missing_steps == 0
    assert 0 < wave.p50_s <= wave.p99_s < 30
    assert wave.server_cpu_ms_per_run > 0 and wave.rss_mb > 20   # read from the server's processes, not this one
    assert lab.server.poll() is not None and lab.host is not None and lab.host.poll() is not None   # stopped

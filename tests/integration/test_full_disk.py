"""A full disk under the data dir: steps and runs are still recorded, and say what was not saved."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from server.storage import FileStore, StorageError
from tests.stack import Stack

pytestmark = pytest.mark.integration


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    """A real 48 KiB filesystem (tmpfs), too small for a screenshot."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_file_store_reports_a_full_disk_and_leaves_no_partial_file(tiny_fs: Path) -> None:
    store = FileStore(tiny_fs)
    with pytest.raises(StorageError) as err:
        store.save_screenshot("0123456789ab", 1, b"\x89PNG" + b"\0" * 200_000)
    assert "the disk is full" in str(err.value.strerror)
    assert list((tiny_fs / "runs" / "0123456789ab").iterdir()) == []


def test_run_on_a_full_disk_keeps_every_step_and_says_the_screenshots_were_not_saved(tmp_path: Path,
                                                                                     tiny_fs: Path) -> None:
    data = tmp_path / "data"
    (data).mkdir()
    (data / "runs").symlink_to(tiny_fs, target_is_directory=True)
    with open(tiny_fs / "filler", "wb", buffering=0) as filler:   # nothing left, not even for a small JPEG
        with pytest.raises(OSError, match="No space"):
            while True:
                filler.write(bytes(4096))
    stack = Stack.start(data)
    try:
        run = stack.run("switch to channel 5 and check the banner shows Melody TV")
    finally:
        stack.stop()
    assert run["status"] == "passed", run
    assert [s["command"] for s in run["steps"]] == ["goto", "press_key", "wait_for_element"]
    goto, press, check = run["steps"]
    assert all(step["screenshot"] is None for step in run["steps"])
    assert "screenshot not saved" not in goto["message"] + press["message"]   # these took none (policy)
    assert "screenshot not saved" in check["message"] and "the disk is full" in check["message"]
    assert Path(run["report"]).is_file()

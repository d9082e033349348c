"""Files under the data directory: step screenshots and reports.

A write that fails (a full disk, a read-only volume) never loses the step: the
step is stored without its picture and says why.
"""
from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


class StorageError(OSError):
    pass


class FileStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs = root / "runs"
        self.reports = root / "reports"
        for d in (self.runs, self.reports):
            d.mkdir(parents=True, exist_ok=True)

    def write_bytes(self, path: Path, data: bytes) -> Path:
        """Write atomically (temp file + rename). Raises :class:`StorageError` with a readable reason."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except OSError as exc:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            reason = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) else exc.strerror
            raise StorageError(exc.errno, f"could not write {path.name}: {reason}") from exc
        return path

    def screenshot_path(self, run_id: str, step: int) -> Path:
        return self.runs / run_id / f"step-{step:03d}.png"

    def save_screenshot(self, run_id: str, step: int, png: bytes) -> Path:
        return self.write_bytes(self.screenshot_path(run_id, step), png)

    def resolve(self, relative: str) -> Path | None:
        """A stored file by its path relative to the root; None if it escapes the root or is missing."""
        path = (self.root / relative).resolve()
        if self.root.resolve() not in path.parents or not path.is_file():
            return None
        return path

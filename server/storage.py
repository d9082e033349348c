"""Files under the data directory: step screenshots and reports.

A write that fails (a full disk, a read-only volume) never loses the step: the
step is stored without its picture and says why.

Every path built from a value that came over the wire (a run id, a step number,
a file name asked for over HTTP) is confined here: ids are validated against
their exact shape, and the resolved path is checked against the folder it must
stay in. Only the artefact folders (``runs/`` and ``reports/``) are ever served;
the database, the host token and configuration live beside them and are never
reachable through :meth:`FileStore.resolve`.
"""
from __future__ import annotations

import errno
import logging
import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

from shared.errors import RequestError
from shared.screenshots import ImageFormat, sniff

log = logging.getLogger(__name__)

RUN_ID = re.compile(r"[0-9a-f]{12}")
"""A run id as :meth:`server.runs.RunService.create` makes it: ``uuid4().hex[:12]``."""

ARTEFACT_FOLDERS = ("runs", "reports")
MAX_STEP = 100_000


class StorageError(OSError):
    pass


class InvalidId(RequestError):
    """An id that does not have the shape the server gives such ids."""


def check_run_id(run_id: object) -> str:
    """*run_id* when it is a run id (12 lowercase hex characters); :class:`InvalidId` otherwise."""
    if not isinstance(run_id, str) or not RUN_ID.fullmatch(run_id):
        shown = repr(run_id)[:40]
        raise InvalidId(f"{shown} is not a run id: run ids are 12 hexadecimal characters, e.g. 3f9a1c0b7d2e")
    return run_id


def is_run_id(run_id: object) -> bool:
    return isinstance(run_id, str) and RUN_ID.fullmatch(run_id) is not None


def inside(path: Path, folder: Path) -> bool:
    """True when *path*, fully resolved (symlinks followed), lies strictly under *folder*."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return path.resolve() != folder.resolve()


def within(path: Path, folder: Path) -> bool:
    """True when *path*, written out without ``..`` (symlinks not followed), lies under *folder*.

    Artefact folders may be symlinks to another disk; a write is confined by its
    spelled-out path, and paths from the wire are checked with :func:`inside`.
    """
    normal, base = os.path.normpath(os.path.abspath(path)), os.path.normpath(os.path.abspath(folder))
    return normal.startswith(base + os.sep)


TEXT_ARTEFACTS = (".html", ".json", ".xml", ".yaml", ".yml", ".txt")


class FileStore:
    def __init__(self, root: Path, scrubber: Any = None) -> None:
        self.root = root
        self.scrubber = scrubber   # server.guard_secrets.Scrubber: secrets never reach a text artefact
        self.runs = root / "runs"
        self.reports = root / "reports"
        for d in (self.runs, self.reports):
            d.mkdir(parents=True, exist_ok=True)

    def write_bytes(self, path: Path, data: bytes) -> Path:
        """Write atomically (temp file + rename). Raises :class:`StorageError` with a readable reason."""
        if not within(path, self.root):
            raise StorageError(errno.EACCES, f"refused to write {path}: it is outside the data directory")
        if self.scrubber is not None and path.suffix.lower() in TEXT_ARTEFACTS:
            data = self.scrubber.data(data)
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

    def screenshot_path(self, run_id: str, step: int, fmt: ImageFormat = ImageFormat.PNG) -> Path:
        """Where step *step* of run *run_id* keeps its screenshot; :class:`InvalidId` for a bad id or step."""
        check_run_id(run_id)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= MAX_STEP:
            raise InvalidId(f"step {step!r} is not a step number (0..{MAX_STEP})")
        path = self.runs / run_id / f"step-{step:03d}{fmt.suffix}"
        if not inside(path, self.runs):  # a symlinked run folder
            raise InvalidId(f"run {run_id}: its folder leads outside the data directory")
        return path

    def save_screenshot(self, run_id: str, step: int, image: bytes) -> Path:
        """Store a step's screenshot under the suffix of its format (PNG, JPEG or WebP, read from its bytes)."""
        fmt = sniff(image)
        path = self.screenshot_path(run_id, step, fmt or ImageFormat.PNG)   # checks the id and step first
        if fmt is None:
            raise RequestError(f"run {run_id} step {step}: the screenshot is not a PNG, JPEG or WebP image")
        return self.write_bytes(path, image)

    def resolve(self, relative: str) -> Path | None:
        """A stored run artefact by its path relative to the root, e.g. ``runs/<run id>/step-001.png``.

        None (so: 404) for anything that is not a file in ``runs/`` or ``reports/``:
        a NUL byte, an absolute path, a ``..`` component, the database, the host
        token, or a symlink that leads out of those folders.
        """
        if not relative or "\x00" in relative or "\\" in relative:
            return None
        parts = PurePosixPath(relative).parts
        if relative.startswith("/") or not parts or parts[0] not in ARTEFACT_FOLDERS:
            return None
        if any(p in ("..", ".") or p.startswith(".") for p in parts):
            return None
        folder = self.root / parts[0]
        path = self.root.joinpath(*parts)
        try:
            if not inside(path, folder) or not path.resolve().is_file():
                return None
        except (OSError, ValueError):
            return None
        return path.resolve()

"""Running the external tools controllers drive (adb, irsend, ffmpeg, power commands).

Every way a tool can fail to run — missing, too slow, not executable — becomes
a :class:`ControllerError` here, with a message that says what to do.
"""
from __future__ import annotations

import logging
import shlex
import subprocess

from shared.errors import ControllerError

log = logging.getLogger(__name__)


def run_tool(argv: list[str], *, timeout: float, missing: str, timeout_message: str = "",
             text: bool = False) -> subprocess.CompletedProcess:
    """Run *argv* and return the finished process (any exit status; callers judge it).

    *missing* is the message when the executable is not there (say what to
    install); *timeout_message* replaces the default one when the tool is too slow.
    """
    log.debug("run %s", shlex.join(argv))
    try:
        return subprocess.run(argv, capture_output=True, text=text, timeout=timeout, check=False)
    except FileNotFoundError:
        raise ControllerError(missing) from None
    except subprocess.TimeoutExpired:
        raise ControllerError(timeout_message or f"{shlex.join(argv)[:100]} timed out after {timeout:g}s") from None
    except OSError as exc:
        raise ControllerError(f"cannot run {argv[0]}: {exc}") from exc


def last_lines(output: str | bytes, count: int = 2) -> str:
    """The last non-empty lines of a tool's output, joined: what a failure message quotes."""
    if isinstance(output, bytes):
        output = output.decode("utf-8", errors="replace")
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    return "; ".join(lines[-count:])

"""How long a step may take and how often an error is retried: one cascade, built for real.

Each level may leave a value unset; the first level that sets it wins:

    step  →  run  →  command declaration  →  device  →  host  →  server settings  →  built-in

A step's ``timeout`` (seconds) bounds the whole step; a waiting command's own
``timeout`` parameter is honoured too (the step gets that plus a little). A
retry repeats a step that ended ``error`` (the infrastructure broke) — never one
that ``failed``: a device that did not behave is the finding, not noise.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from shared.errors import RequestError

DEFAULT_STEP_TIMEOUT_S = 30.0
DEFAULT_MAX_RETRIES = 0
MAX_STEP_TIMEOUT_S = 3600.0
MAX_RETRIES = 5
WAIT_GRACE_S = 5.0   # a wait command's own timeout, plus this, bounds its step


def options(raw: Any, keys: tuple[str, ...], where: str, kind: str = "a mapping") -> dict[str, Any]:
    """*raw* as a mapping of some of *keys*; anything else is a :class:`RequestError` naming *where*."""
    if not isinstance(raw, dict):
        raise RequestError(f"{where} must be {kind} {{{', '.join(keys)}}}")
    unknown = set(raw) - set(keys)
    if unknown:
        raise RequestError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    return raw


@dataclass(frozen=True)
class Limits:
    """One level of the cascade: any field may be unset (None)."""

    step_timeout: float | None = None
    max_retries: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}

    @classmethod
    def from_dict(cls, raw: Any, where: str = "limits") -> "Limits":
        """Parse ``{step_timeout, max_retries}``; a bad value is a :class:`RequestError` naming it."""
        if raw is None:
            return cls()
        options(raw, ("step_timeout", "max_retries"), where, "an object")
        timeout, retries = raw.get("step_timeout"), raw.get("max_retries")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or not 0 < timeout <= MAX_STEP_TIMEOUT_S):
            raise RequestError(f"{where}.step_timeout must be seconds, more than 0 and at most {MAX_STEP_TIMEOUT_S:g}")
        if retries is not None and (isinstance(retries, bool) or not isinstance(retries, int)
                                    or not 0 <= retries <= MAX_RETRIES):
            raise RequestError(f"{where}.max_retries must be a whole number from 0 to {MAX_RETRIES}")
        return cls(float(timeout) if timeout is not None else None, retries)


@dataclass(frozen=True)
class StepPolicy:
    """The resolved limits of one step."""

    timeout_s: float
    max_retries: int

    @classmethod
    def cascade(cls, *levels: Limits, wait_timeout: float | None = None) -> "StepPolicy":
        """First set value of each field, from the most specific level to the least."""
        timeout = next((lv.step_timeout for lv in levels if lv.step_timeout is not None), DEFAULT_STEP_TIMEOUT_S)
        retries = next((lv.max_retries for lv in levels if lv.max_retries is not None), DEFAULT_MAX_RETRIES)
        if wait_timeout is not None:
            timeout = max(timeout, wait_timeout + WAIT_GRACE_S)
        return cls(timeout, retries)

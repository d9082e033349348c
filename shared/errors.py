"""The one exception tree of devicepilot.

Every exception the project raises derives from :class:`DevicePilotError`.
The tree separates an *error* (the infrastructure broke: a browser crashed, a
host vanished, a config is wrong) from a *failure* (the device under test did
not behave: a verification did not pass). A run ends ``error`` or ``failed``
accordingly::

    DevicePilotError
    ├── InfraError                  -> run status "error"
    │   ├── ConfigError             bad configuration (unknown controller, bad YAML)
    │   ├── ControllerError         a backend (Playwright, adb, Appium, ffmpeg) broke
    │   ├── HostUnavailable         no host owns the device / the host went away
    │   └── PlannerError            a planner could not produce a plan
    ├── DeviceFailure               -> run status "failed"
    │   ├── VerificationFailed      what was expected did not show up
    │   └── NavigationFailed        a screen could not be reached
    └── RequestError                bad input from a user or client (HTTP 4xx)
        ├── NotFound                no such device, run, tree, test case (HTTP 404)
        ├── UnknownCommand          a command no controller of the device provides
        └── DeviceBusy              the device is running something else (HTTP 409)

Backend exceptions (Playwright, OpenCV, subprocess...) are translated into these
at the controller boundary; executors and planners only see this tree.
"""
from __future__ import annotations

from typing import Any


class DevicePilotError(Exception):
    """Base of every devicepilot exception."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def __str__(self) -> str:
        return self.message


class InfraError(DevicePilotError):
    """The infrastructure broke; the device's behaviour is unknown."""


class ConfigError(InfraError):
    """Configuration is invalid: say which file, which key, and what is allowed."""


class ControllerError(InfraError):
    """A controller's backend (browser, adb, Appium, ffmpeg, LIRC) failed."""


class HostUnavailable(InfraError):
    """No connected host owns the device, or the host disconnected mid-run."""


class PlannerError(InfraError):
    """A planner could not produce a plan (unreachable LLM, malformed output)."""


class DeviceFailure(DevicePilotError):
    """The device under test did not behave as expected.

    Carries what was expected and, when one could be taken, the last screenshot
    (PNG bytes) so a report can show what the device showed instead.
    """

    def __init__(
        self,
        message: str,
        *,
        expected: str = "",
        screenshot: bytes | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message, **details)
        self.expected = expected
        self.screenshot = screenshot


class VerificationFailed(DeviceFailure):
    """A verification did not pass within its timeout."""


class NavigationFailed(DeviceFailure):
    """The navigation graph could not bring the device to the wanted node."""


class RequestError(DevicePilotError):
    """A client sent something invalid (HTTP 400-class)."""

    status_code = 400


class NotFound(RequestError):
    """The device, run, tree, test case or file asked for does not exist."""

    status_code = 404


class UnknownCommand(RequestError):
    """No controller of the device provides this command."""


class DeviceBusy(RequestError):
    """The device is running a run; a command now would interleave with its steps."""

    status_code = 409


# -- errors on the wire ------------------------------------------------------------------------------
# Between server and host an error crosses as ``{"code": ..., "message": ...}``; these codes are the
# one registry that turns it back into the project's exception (unknown codes: InfraError).
ERROR_CODES: dict[str, type[DevicePilotError]] = {
    "infra": InfraError,
    "config": ConfigError,
    "controller": ControllerError,
    "host_unavailable": HostUnavailable,
    "planner": PlannerError,
    "device_failure": DeviceFailure,
    "verification_failed": VerificationFailed,
    "navigation_failed": NavigationFailed,
    "bad_request": RequestError,
    "not_found": NotFound,
    "unknown_command": UnknownCommand,
    "device_busy": DeviceBusy,
}
_CODE_OF = {cls: code for code, cls in ERROR_CODES.items()}


def error_code(exc: BaseException) -> str:
    """The wire code of *exc*: its own class's, else its nearest registered ancestor's; ``infra`` otherwise."""
    for cls in type(exc).__mro__:
        if cls in _CODE_OF:
            return _CODE_OF[cls]
    return "infra"


def error_to_wire(exc: BaseException) -> dict[str, str]:
    return {"code": error_code(exc), "message": str(exc)}


def error_from_wire(reply: Any, prefix: str = "") -> DevicePilotError:
    """``{"code", "message"}`` (or the older ``{"error", "error_type"}``) → the project's exception."""
    if not isinstance(reply, dict):
        return InfraError(f"{prefix}malformed error: {reply!r}"[:500])
    error = reply.get("error")
    code = reply.get("code") or (error.get("code") if isinstance(error, dict) else None)
    message = reply.get("message") or (error.get("message") if isinstance(error, dict) else error) or "unknown error"
    cls = ERROR_CODES.get(str(code), InfraError)
    return cls(f"{prefix}{message}")

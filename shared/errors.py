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

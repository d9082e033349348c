"""The controller interfaces.

A controller is a named backend for one capability. Its commands are its
``@command`` methods (see :mod:`shared.commands`); :meth:`Controller.execute`
is the only way an executor calls them, so parameters are validated the same
way everywhere. A command returns a short human message on success, raises
:class:`~shared.errors.DeviceFailure` when the device did not behave, and
:class:`~shared.errors.InfraError` when the backend broke.
"""
from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from shared.commands import CommandKind, CommandSpec, ControllerType, coerce_param, collect_commands
from shared.errors import ControllerError, RequestError, UnknownCommand
from shared.screen import ScreenObservation
from shared.screenshots import ImageFormat
from shared.vocabulary import DEPRECATED, canonical

log = logging.getLogger(__name__)


class Controller(ABC):
    """Base of every controller."""

    controller_type: ClassVar[ControllerType]
    kind: ClassVar[CommandKind] = CommandKind.ACTION
    _commands: ClassVar[dict[str, CommandSpec]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if hasattr(cls, "controller_type"):
            cls._commands = collect_commands(cls, cls.controller_type, cls.kind)

    def commands(self) -> list[CommandSpec]:
        return list(self._commands.values())

    def provides(self, command: str) -> bool:
        return command in self._commands or (command in DEPRECATED and DEPRECATED[command][0] in self._commands)

    def execute(self, command: str, params: dict[str, Any]) -> str:
        """Run *command* with *params*, coercing them to their declared types."""
        spec = self._commands.get(command)
        if spec is None and command in DEPRECATED:  # an old name from a plan that skipped validation
            command, params = canonical(command, params)
            spec = self._commands.get(command)
        if spec is None:
            raise UnknownCommand(f"{type(self).__name__} does not provide {command!r}")
        kwargs: dict[str, Any] = {}
        for p in spec.params:
            if p.name in params and params[p.name] is not None:
                try:
                    kwargs[p.name] = coerce_param(p, params[p.name])
                except ValueError as exc:
                    raise RequestError(f"{command}: {exc}") from None
            elif p.required:
                raise RequestError(f"{command}: missing required parameter {p.name!r}")
            elif p.default is not None:
                kwargs[p.name] = p.default
        unknown = set(params) - {p.name for p in spec.params}
        if unknown:
            log.warning("%s: ignoring unknown parameters %s", command, sorted(unknown))
        log.info("%s.%s(%s)", type(self).__name__, command,
                 ", ".join(f"{k}={v!r}" for k, v in kwargs.items() if v not in (None, "")))
        result = getattr(self, command)(**kwargs)
        return str(result) if result is not None else "ok"

    def close(self) -> None:
        """Release the backend (browser, session, subprocess). Idempotent."""


class RemoteController(Controller):
    """Sends input to the device: keys, taps, text, app launches."""

    controller_type = ControllerType.REMOTE


class ScreenController(Controller):
    """Captures what the device shows."""

    controller_type = ControllerType.SCREEN

    @abstractmethod
    def screenshot(self) -> bytes:
        """Return the current screen as PNG bytes."""

    def preview(self, max_width: int = 960, quality: int = 70) -> bytes:
        """A JPEG of the current screen for live views: smaller and cheaper than :meth:`screenshot`."""
        return to_jpeg(self.screenshot(), max_width, quality)


def to_jpeg(image_bytes: bytes, max_width: int, quality: int) -> bytes:
    """Any encoded image → JPEG no wider than *max_width*."""
    return transcode(image_bytes, ImageFormat.JPEG, quality, max_width)


def transcode(image_bytes: bytes, fmt: ImageFormat, quality: int, max_width: int | None = None) -> bytes:
    """Any encoded image → *fmt* at *quality* (JPEG/WebP), no wider than *max_width* if given."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(image_bytes, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ControllerError("the screen capture is not a decodable image")
    if max_width and image.shape[1] > max_width:
        scale = max_width / image.shape[1]
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    options = {ImageFormat.JPEG: [cv2.IMWRITE_JPEG_QUALITY, quality],
               ImageFormat.WEBP: [cv2.IMWRITE_WEBP_QUALITY, quality], ImageFormat.PNG: []}[fmt]
    ok, buf = cv2.imencode(fmt.suffix, image, options)
    if not ok:
        raise ControllerError(f"could not encode the screen as {fmt.value}")
    return buf.tobytes()


class ScreenReader(ABC):
    """A capability: read what the screen shows structurally (DOM, ``uiautomator dump``, page source).

    Mixed into the controller that can do it (the web, adb and Appium remotes);
    :meth:`backend_core.device.Device.observe` finds it.
    """

    @abstractmethod
    def observe(self) -> ScreenObservation:
        """The screen now: URL/title and its visible elements with roles and names."""


class VerificationController(Controller):
    """Checks what the device shows; its commands are verifications."""

    controller_type = ControllerType.VERIFICATION
    kind = CommandKind.VERIFICATION
    verifier_type: ClassVar[str] = ""


class PowerController(Controller):
    """Switches the device on and off."""

    controller_type = ControllerType.POWER

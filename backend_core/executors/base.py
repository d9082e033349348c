"""What the three executors share: running one command on the controller that provides it."""
from __future__ import annotations

import logging
from typing import Any

from backend_core.device import Device
from shared.commands import CommandKind
from shared.errors import ConfigError, UnknownCommand
from shared.models import ExecutorContext

log = logging.getLogger(__name__)


class CommandExecutor:
    """Runs the commands of one kind (action or verification) on a device."""

    kind: CommandKind

    def __init__(self, device: Device) -> None:
        self.device = device

    def _check(self, device_model: str | None, userinterface_name: str | None) -> None:
        if device_model and device_model != self.device.model:
            raise ConfigError(f"device {self.device.id!r} is a {self.device.model!r}, not a {device_model!r}")
        if userinterface_name and userinterface_name != self.device.userinterface:
            raise ConfigError(f"device {self.device.id!r} runs {self.device.userinterface!r}, "
                              f"not {userinterface_name!r}")

    def get_available_context(self, device_model: str | None = None,
                              userinterface_name: str | None = None) -> ExecutorContext:
        """This executor's commands, each with description, typed params and controller type."""
        self._check(device_model, userinterface_name)
        return ExecutorContext(self.kind, tuple(self.device.commands(self.kind)))

    def provides(self, command: str) -> bool:
        return any(c.provides(command) for c in self.device.controllers_of(self.kind))

    def execute(self, command: str, params: dict[str, Any]) -> tuple[str, str]:
        """Run *command*; return ``(controller_type, message)``."""
        controller = self.device.find_provider(command)
        if controller.kind is not self.kind:
            raise UnknownCommand(f"{command!r} is not a {self.kind.value} command")
        return controller.controller_type.value, controller.execute(command, params)

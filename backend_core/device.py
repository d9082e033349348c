"""A device: its identity and the controllers it is composed of."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from backend_core.controllers.base import Controller, ScreenController, ScreenReader
from backend_core.navigation.tree import NavigationTree
from shared.commands import CommandKind, CommandSpec
from shared.errors import UnknownCommand
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)


@dataclass
class Device:
    id: str
    name: str
    model: str
    userinterface: str
    controllers: list[Controller]
    tree: NavigationTree | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def screen(self) -> ScreenController | None:
        return next((c for c in self.controllers if isinstance(c, ScreenController)), None)

    @property
    def reader(self) -> ScreenReader | None:
        """The controller that reads the screen structurally (DOM, uiautomator dump, page source), if any."""
        return next((c for c in self.controllers if isinstance(c, ScreenReader)), None)

    def observe(self) -> ScreenObservation:
        """What the screen shows now, read by the device's :class:`ScreenReader`."""
        reader = self.reader
        if reader is None:
            kinds = ", ".join(type(c).__name__ for c in self.controllers) or "none"
            raise UnknownCommand(
                f"device {self.id!r} cannot read its screen's elements: none of its controllers ({kinds}) "
                "is a screen reader; add a playwright, adb or appium controller to read it")
        return reader.observe()

    def controllers_of(self, kind: CommandKind) -> list[Controller]:
        return [c for c in self.controllers if c.kind is kind]

    def commands(self, kind: CommandKind) -> list[CommandSpec]:
        seen: dict[str, CommandSpec] = {}
        for c in self.controllers_of(kind):
            for spec in c.commands():
                seen.setdefault(spec.name, spec)
        return list(seen.values())

    def find_provider(self, command: str) -> Controller:
        """Dynamic controller-type detection: ask each controller whether it provides *command*."""
        for controller in self.controllers:
            if controller.provides(command):
                return controller
        raise UnknownCommand(f"device {self.id!r} has no controller providing {command!r}")

    def describe(self) -> dict[str, Any]:
        """What a host registers with the server about this device."""
        return {
            "id": self.id, "name": self.name, "model": self.model, "userinterface": self.userinterface,
            "controllers": [
                {"type": type(c).__name__, "controller_type": c.controller_type.value,
                 "commands": [s.name for s in c.commands()]}
                for c in self.controllers
            ],
            "metadata": self.metadata,
        }

    def close(self) -> None:
        closed: set[int] = set()
        for c in self.controllers:
            if id(c) not in closed:
                closed.add(id(c))
                try:
                    c.close()
                except Exception as exc:  # shutting down: report and go on closing the rest
                    log.warning("closing %s: %s", type(c).__name__, exc)

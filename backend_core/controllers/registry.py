"""Controllers are chosen by name from a device's config through this registry.

A factory takes the :class:`BuildContext` and the controller's ``params`` from
the YAML and returns one or more controllers (a Playwright browser gives a
remote, a screen and a DOM verifier sharing one page)::

    @register_controller("playwright")
    def _build(ctx: BuildContext, params: dict) -> list[Controller]: ...
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from backend_core.controllers.base import Controller, ScreenController
from shared.errors import ConfigError

log = logging.getLogger(__name__)

Factory = Callable[["BuildContext", dict[str, Any]], list[Controller]]
_REGISTRY: dict[str, Factory] = {}


@dataclass
class BuildContext:
    """What a factory may use: the device's id, the config's folder, and controllers built so far."""

    device_id: str
    base_dir: Path
    built: list[Controller] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)

    @property
    def screen(self) -> ScreenController | None:
        return next((c for c in self.built if isinstance(c, ScreenController)), None)

    def require_screen(self, who: str) -> ScreenController:
        screen = self.screen
        if screen is None:
            raise ConfigError(
                f"device {self.device_id!r}: controller {who!r} needs a screen; "
                "list a controller that captures the screen (playwright, adb, appium, hdmi) before it"
            )
        return screen

    def path(self, value: str) -> Path:
        p = Path(value).expanduser()
        return p if p.is_absolute() else (self.base_dir / p).resolve()


def register_controller(name: str) -> Callable[[Factory], Factory]:
    def add(factory: Factory) -> Factory:
        if name in _REGISTRY:
            raise ValueError(f"controller {name!r} registered twice")
        _REGISTRY[name] = factory
        return factory

    return add


def registered_names() -> list[str]:
    return sorted(_REGISTRY)


def build_controllers(specs: list[dict[str, Any]], ctx: BuildContext) -> list[Controller]:
    """Build a device's controllers in order. An unknown type is a :class:`ConfigError`."""
    for spec in specs:
        name = spec.get("type")
        factory = _REGISTRY.get(str(name))
        if factory is None:
            raise ConfigError(
                f"device {ctx.device_id!r}: unknown controller type {name!r}; "
                f"known types: {', '.join(registered_names())}"
            )
        params = spec.get("params") or {}
        if not isinstance(params, dict):
            raise ConfigError(f"device {ctx.device_id!r}: params of controller {name!r} must be a mapping")
        made = factory(ctx, params)
        log.info("device %s: controller %s -> %s", ctx.device_id, name, [type(c).__name__ for c in made])
        ctx.built.extend(made)
    return list(ctx.built)

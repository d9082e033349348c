"""Build a host's devices from its config: static apps, controllers, navigation trees."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

import backend_core.controllers  # noqa: F401  (registers the built-in controllers)
from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.device import Device
from backend_core.navigation.tree import NavigationTree
from backend_core.runtime import DeviceRuntime
from host.config import HostConfig
from host.static_apps import StaticApp
from shared.errors import ConfigError

log = logging.getLogger(__name__)


@dataclass
class Lab:
    """The devices of one host, ready to run."""

    config: HostConfig
    runtimes: dict[str, DeviceRuntime] = field(default_factory=dict)
    apps: list[StaticApp] = field(default_factory=list)

    @classmethod
    def build(cls, config: HostConfig) -> "Lab":
        lab = cls(config)
        variables: dict[str, str] = {}
        try:
            for name, folder in config.static_apps.items():
                app = StaticApp(folder)
                lab.apps.append(app)
                variables[name] = app.url
            for dc in config.devices:
                tree = NavigationTree.load(dc.navigation_tree) if dc.navigation_tree else None
                if tree is not None and tree.userinterface != dc.userinterface:
                    raise ConfigError(f"device {dc.id!r}: userinterface {dc.userinterface!r} does not match its "
                                      f"navigation tree's {tree.userinterface!r}")
                ctx = BuildContext(dc.id, config.base_dir, variables=variables)
                controllers = build_controllers(dc.controllers, ctx)
                device = Device(dc.id, dc.name, dc.model, dc.userinterface, controllers, tree, dc.metadata)
                lab.runtimes[dc.id] = DeviceRuntime(device, (dc.limits, config.limits),
                                                   dc.screenshots or config.screenshots)
        except Exception:
            lab.close()
            raise
        return lab

    def runtime(self, device_id: str) -> DeviceRuntime:
        try:
            return self.runtimes[device_id]
        except KeyError:
            raise ConfigError(f"host {self.config.id!r} has no device {device_id!r}") from None

    def close(self) -> None:
        for rt in self.runtimes.values():
            rt.close()
        for app in self.apps:
            app.close()

"""A host's YAML config: the host's identity, apps it serves, and its devices.

::

    host: {id: lab-3, name: "Rack 3"}
    static_apps: {demo_url: demo/streamtv}      # folder served on loopback, as {demo_url}
    devices:
      - id: demo-web
        name: StreamTV (web)
        model: streamtv-web
        userinterface: streamtv
        navigation_tree: demo/streamtv.tree.yaml
        controllers:
          - {type: playwright, params: {url: "{demo_url}/"}}
          - {type: ocr}
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from shared.errors import ConfigError, RequestError
from shared.policy import Limits
from shared.screenshots import ScreenshotPolicy

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
DEMO_CONFIG = Path(__file__).resolve().parent / "demo" / "demo-host.yaml"


@dataclass(frozen=True)
class DeviceConfig:
    id: str
    name: str
    model: str
    userinterface: str
    controllers: list[dict[str, Any]]
    navigation_tree: Path | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)     # step timeout and retries for this device
    screenshots: ScreenshotPolicy | None = None        # when steps carry screenshots; None: the host's


@dataclass(frozen=True)
class HostConfig:
    id: str
    name: str
    base_dir: Path
    devices: list[DeviceConfig]
    static_apps: dict[str, Path] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)     # for every device of this host, unless it says otherwise
    screenshots: ScreenshotPolicy = field(default_factory=ScreenshotPolicy)   # likewise

    @classmethod
    def load(cls, path: str | Path) -> "HostConfig":
        path = Path(path).expanduser().resolve()
        try:
            raw = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"cannot read host config {path}: {exc}") from exc
        return cls.from_dict(raw, path.parent, str(path))

    @classmethod
    def from_dict(cls, raw: Any, base_dir: Path, where: str = "host config") -> "HostConfig":
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: must be a mapping with 'host' and 'devices'")
        host = raw.get("host") or {}
        host_id = str(host.get("id") or "")
        if not _ID.match(host_id):
            raise ConfigError(f"{where}: host.id must be letters, digits, '-', '_' or '.', got {host_id!r}")
        devices = []
        seen: set[str] = set()
        for i, d in enumerate(raw.get("devices") or []):
            label = f"{where}: devices[{i}]"
            if not isinstance(d, dict):
                raise ConfigError(f"{label} must be a mapping")
            did = str(d.get("id") or "")
            if not _ID.match(did):
                raise ConfigError(f"{label}.id must be letters, digits, '-', '_' or '.', got {did!r}")
            if did in seen:
                raise ConfigError(f"{label}: device id {did!r} is used twice")
            seen.add(did)
            controllers = d.get("controllers")
            if not isinstance(controllers, list) or not controllers:
                raise ConfigError(f"{label} ({did}): needs a list of controllers")
            tree = d.get("navigation_tree")
            devices.append(DeviceConfig(
                id=did, name=str(d.get("name") or did), model=str(d.get("model") or "generic"),
                userinterface=str(d.get("userinterface") or "default"), controllers=controllers,
                navigation_tree=(base_dir / tree).resolve() if tree else None,
                metadata=dict(d.get("metadata") or {}),
                limits=_limits(d.get("limits"), f"{label} ({did}).limits"),
                screenshots=_shots(d["screenshots"], f"{label} ({did}).screenshots") if "screenshots" in d else None,
            ))
        if not devices:
            raise ConfigError(f"{where}: no devices listed")
        apps = {str(k): (base_dir / str(v)).resolve() for k, v in (raw.get("static_apps") or {}).items()}
        for name, folder in apps.items():
            if not folder.is_dir():
                raise ConfigError(f"{where}: static_apps.{name}: no folder {folder}")
        return cls(host_id, str(host.get("name") or host_id), base_dir, devices, apps,
                   _limits(host.get("limits"), f"{where}: host.limits"),
                   _shots(host.get("screenshots"), f"{where}: host.screenshots"))


def _shots(raw: Any, where: str) -> ScreenshotPolicy:
    try:
        return ScreenshotPolicy.from_dict(raw, where)
    except RequestError as exc:
        raise ConfigError(str(exc)) from exc


def _limits(raw: Any, where: str) -> Limits:
    try:
        return Limits.from_dict(raw, where)
    except RequestError as exc:
        raise ConfigError(str(exc)) from exc

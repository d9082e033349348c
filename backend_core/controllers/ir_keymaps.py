"""Keymaps for IR remotes: canonical keys → the key names a remote has in its ``lircd.conf``.

One vocabulary across remotes: plans say ``OK``; a keymap says that this
remote calls it ``KEY_OK`` or ``KEY_SELECT``. The LIRC namespace
(``irrecord --list-namespace``) is the default, which is what most
``lircd.conf`` files recorded with ``irrecord`` and the common ``mceusb``
remote use. A keymap file overrides keys per remote::

    # keymaps.yaml
    remotes:
      humax:
        base: lirc                  # start from the LIRC namespace ("none": start empty)
        keys: {OK: KEY_SELECT, BACK: KEY_EXIT, CHANNEL_UP: KEY_PAGEUP}

Key names on the left go through :func:`shared.keys.parse_key`, so ``select``,
``enter`` and ``OK`` are one key.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from shared.errors import ConfigError, RequestError
from shared.keys import Key, parse_key

LIRC_NAMESPACE: dict[Key, str] = {
    Key.UP: "KEY_UP", Key.DOWN: "KEY_DOWN", Key.LEFT: "KEY_LEFT", Key.RIGHT: "KEY_RIGHT",
    Key.OK: "KEY_OK", Key.BACK: "KEY_BACK", Key.HOME: "KEY_HOME", Key.MENU: "KEY_MENU",
    Key.CHANNEL_UP: "KEY_CHANNELUP", Key.CHANNEL_DOWN: "KEY_CHANNELDOWN",
    Key.VOLUME_UP: "KEY_VOLUMEUP", Key.VOLUME_DOWN: "KEY_VOLUMEDOWN", Key.MUTE: "KEY_MUTE",
    Key.PLAY_PAUSE: "KEY_PLAYPAUSE", Key.PLAY: "KEY_PLAY", Key.PAUSE: "KEY_PAUSE", Key.STOP: "KEY_STOP",
    Key.FAST_FORWARD: "KEY_FASTFORWARD", Key.REWIND: "KEY_REWIND", Key.POWER: "KEY_POWER",
    **{Key[f"DIGIT_{d}"]: f"KEY_{d}" for d in range(10)},
}

BASES: dict[str, dict[Key, str]] = {"lirc": LIRC_NAMESPACE, "mceusb": LIRC_NAMESPACE, "none": {}}


@dataclass(frozen=True)
class IrKeymap:
    """What one remote calls each canonical key."""

    remote: str
    keys: dict[Key, str]

    def lirc_name(self, key: Key) -> str:
        name = self.keys.get(key)
        if name is None:
            raise RequestError(f"remote {self.remote!r} has no {key.value} key; it has: "
                               f"{', '.join(k.value for k in self.keys)}")
        return name

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(k.value for k in self.keys)

    @classmethod
    def build(cls, remote: str, overrides: Any = None, base: str = "lirc", where: str = "keymap") -> "IrKeymap":
        if base not in BASES:
            raise ConfigError(f"{where}: base must be one of {', '.join(BASES)}, got {base!r}")
        keys = dict(BASES[base])
        if overrides:
            if not isinstance(overrides, dict):
                raise ConfigError(f"{where}: keys must map key names to LIRC key names")
            for name, lirc in overrides.items():
                try:
                    key = parse_key(str(name))
                except ValueError as exc:
                    raise ConfigError(f"{where}: {exc}") from None
                if lirc in (None, ""):
                    keys.pop(key, None)  # "MUTE: null" removes a key the remote lacks
                else:
                    keys[key] = str(lirc)
        return cls(remote, keys)

    @classmethod
    def load(cls, path: Path, remote: str) -> "IrKeymap":
        """The keymap of *remote* from a keymap file; a remote it does not list gets the LIRC namespace."""
        try:
            raw = yaml.safe_load(path.read_text()) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"cannot read IR keymap {path}: {exc}") from exc
        remotes = raw.get("remotes") if isinstance(raw, dict) else None
        if not isinstance(remotes, dict):
            raise ConfigError(f"{path}: an IR keymap file needs a 'remotes' mapping")
        entry = remotes.get(remote) or {}
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: remotes.{remote} must be a mapping with 'keys'")
        return cls.build(remote, entry.get("keys"), str(entry.get("base", "lirc")), f"{path}: remotes.{remote}")

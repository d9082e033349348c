"""IR remotes through LIRC: ``irsend SEND_ONCE <remote> <key>``.

Registered as ``ir``; params:

* ``remote`` (required) — the remote's name in ``lircd.conf``;
* ``keymap`` — a keymap YAML file (see :mod:`backend_core.controllers.ir_keymaps`),
  or ``keys`` — an inline mapping ``{OK: KEY_SELECT, …}`` over the LIRC namespace;
* ``socket`` — lircd's socket (``irsend -d``), default lircd's own;
* ``irsend`` — the executable (default ``irsend`` on PATH);
* ``key_delay`` — seconds between presses (0.3: set-top boxes drop keys sent faster);
* ``timeout`` — seconds for one irsend call (10).

``irsend`` runs through :mod:`subprocess`, so any ``irsend`` on PATH — LIRC's,
or the test shim ``tests/fakes/irsend`` — is the peer. Its failures (lircd not
running, unknown remote or key) become :class:`~shared.errors.ControllerError`.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from backend_core.controllers.process import last_lines, run_tool
from backend_core.controllers.base import Controller, RemoteController
from backend_core.controllers.ir_keymaps import LIRC_NAMESPACE, IrKeymap
from backend_core.controllers.registry import BuildContext, register_controller
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, ControllerError
from shared.keys import Key

log = logging.getLogger(__name__)

DEFAULT_KEY_DELAY_S = 0.3


class Irsend:
    """The ``irsend`` command line, with a timeout and translated failures."""

    def __init__(self, executable: str = "irsend", socket: str = "", timeout: float = 10.0) -> None:
        self.executable = executable
        self.socket = socket
        self.timeout = timeout

    def run(self, *args: str) -> str:
        argv = [self.executable, *([f"--device={self.socket}"] if self.socket else []), *args]
        proc = run_tool(argv, timeout=self.timeout, text=True,
                        missing=f"{self.executable!r} not found: install Debian's 'lirc' package "
                                "or set the controller's 'irsend' param",
                        timeout_message=f"irsend {' '.join(args)} timed out after {self.timeout:g}s")
        if proc.returncode != 0:
            reason = last_lines(proc.stderr + proc.stdout) or f"exit status {proc.returncode}"
            raise ControllerError(f"irsend {' '.join(args)} failed: {reason}")
        return proc.stdout


class IrRemote(RemoteController):
    """A remote control whose keys go out through an IR blaster."""

    def __init__(self, irsend: Irsend, keymap: IrKeymap, key_delay: float = DEFAULT_KEY_DELAY_S) -> None:
        self.irsend = irsend
        self.keymap = keymap
        self.key_delay = key_delay
        self._lock = threading.Lock()  # one IR emitter: presses from two threads must not interleave

    @command("Press a remote-control key (UP, DOWN, LEFT, RIGHT, OK, BACK, MENU, CHANNEL_UP/DOWN, DIGIT_0-9…)",
             P("key", ParamType.KEY, required=True, choices=tuple(k.value for k in LIRC_NAMESPACE)),
             P("repeat", ParamType.INT, default=1, minimum=1, maximum=50),
             P("delay", ParamType.FLOAT, minimum=0, maximum=10,
               description="seconds between presses; default: the remote's key_delay"))
    def press_key(self, key: str, repeat: int = 1, delay: float | None = None) -> str:
        name = self.keymap.lirc_name(Key(key))
        pause = self.key_delay if delay is None else delay
        with self._lock:
            for i in range(repeat):
                if i:
                    time.sleep(pause)
                self.irsend.run("SEND_ONCE", self.keymap.remote, name)
            time.sleep(pause)  # let the box act on the last key before anyone looks at the screen
        return f"pressed {key} ({name})" + (f" x{repeat}" if repeat > 1 else "")

    @command("Hold a remote-control key down for some seconds (fast scrolling, long-press menus)",
             P("key", ParamType.KEY, required=True, choices=tuple(k.value for k in LIRC_NAMESPACE)),
             P("seconds", ParamType.FLOAT, default=1.0, minimum=0.1, maximum=30))
    def hold_key(self, key: str, seconds: float = 1.0) -> str:
        name = self.keymap.lirc_name(Key(key))
        with self._lock:
            self.irsend.run("SEND_START", self.keymap.remote, name)
            try:
                time.sleep(seconds)
            finally:
                self.irsend.run("SEND_STOP", self.keymap.remote, name)
        return f"held {key} ({name}) for {seconds:g}s"


@register_controller("ir")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    remote = str(params.get("remote") or "")
    if not remote:
        raise ConfigError(f"device {ctx.device_id!r}: controller 'ir' needs params.remote "
                          "(the remote's name in lircd.conf)")
    if params.get("keymap"):
        keymap = IrKeymap.load(ctx.path(str(params["keymap"])), remote)
    else:
        keymap = IrKeymap.build(remote, params.get("keys"), str(params.get("base", "lirc")),
                                f"device {ctx.device_id!r}: ir keys")
    irsend = Irsend(str(params.get("irsend") or "irsend"), str(params.get("socket") or ""),
                    float(params.get("timeout", 10)))
    return [IrRemote(irsend, keymap, float(params.get("key_delay", DEFAULT_KEY_DELAY_S)))]

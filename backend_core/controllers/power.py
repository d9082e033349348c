"""Switching a device's power through a command or an HTTP call (smart plug, PDU, USB hub).

Registered as ``power``; params ``switch_on`` and ``switch_off`` — each a command line
(run without a shell: ``uhubctl -l 1-1 -p 2 -a off``) or an ``http(s)://`` URL
(``method``: POST by default); ``timeout`` (10 s); ``settle`` — seconds to
wait after switching on (0)::

    - type: power
      params: {switch_on: "http://pdu.lab/outlets/3/on", switch_off: "http://pdu.lab/outlets/3/off"}

(Not ``on``/``off``: YAML reads those words as booleans.)

A failing command (non-zero exit), an HTTP error status or an unreachable
switch is a :class:`~shared.errors.ControllerError`.
"""
from __future__ import annotations

import logging
import shlex
import time
from dataclasses import dataclass
from typing import Any

import requests

from backend_core.controllers.process import last_lines, run_tool
from backend_core.controllers.base import Controller, PowerController
from backend_core.controllers.registry import BuildContext, register_controller
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, ControllerError

log = logging.getLogger(__name__)

METHODS = ("GET", "POST", "PUT")


@dataclass(frozen=True)
class Switch:
    """One way to switch: a command line or a URL."""

    target: str
    method: str = "POST"
    timeout: float = 10.0

    @property
    def is_http(self) -> bool:
        return self.target.startswith(("http://", "https://"))

    def fire(self, what: str) -> str:
        if self.is_http:
            try:
                resp = requests.request(self.method, self.target, timeout=self.timeout)
            except requests.RequestException as exc:
                raise ControllerError(f"power {what}: {self.method} {self.target} failed: {exc}") from exc
            if resp.status_code >= 400:
                raise ControllerError(f"power {what}: {self.method} {self.target} answered "
                                      f"{resp.status_code} {resp.text.strip()[:120]}")
            return f"{self.method} {self.target} -> {resp.status_code}"
        argv = shlex.split(self.target)
        proc = run_tool(argv, timeout=self.timeout, text=True,
                        missing=f"power {what}: command {argv[0]!r} not found",
                        timeout_message=f"power {what}: {argv[0]} timed out after {self.timeout:g}s")
        if proc.returncode != 0:
            reason = last_lines(proc.stderr or proc.stdout, 1)
            raise ControllerError(f"power {what}: {argv[0]} exited {proc.returncode}"
                                  + (f": {reason}" if reason else ""))
        return f"ran {argv[0]}"


class SwitchedPower(PowerController):
    """Power on/off/cycle through two switches."""

    def __init__(self, on: Switch, off: Switch, settle: float = 0.0) -> None:
        self.on = on
        self.off = off
        self.settle = settle

    @command("Switch the device on")
    def power_on(self) -> str:
        done = self.on.fire("on")
        if self.settle:
            time.sleep(self.settle)  # a fixed boot allowance; verifications then wait for the picture
        return f"powered on ({done})"

    @command("Switch the device off", destructive=True)
    def power_off(self) -> str:
        return f"powered off ({self.off.fire('off')})"

    @command("Switch the device off, wait, and on again",
             P("off_seconds", ParamType.FLOAT, default=2.0, minimum=0, maximum=120), destructive=True)
    def power_cycle(self, off_seconds: float = 2.0) -> str:
        self.off.fire("off")
        time.sleep(off_seconds)
        self.power_on()
        return f"power cycled ({off_seconds:g}s off)"


@register_controller("power")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    where = f"device {ctx.device_id!r}: controller 'power'"
    on, off = str(params.get("switch_on") or ""), str(params.get("switch_off") or "")
    if not on or not off:
        raise ConfigError(f"{where} needs params.switch_on and params.switch_off "
                          "(a command line or an http(s) URL each)")
    method = str(params.get("method", "POST")).upper()
    if method not in METHODS:
        raise ConfigError(f"{where}: method must be one of {', '.join(METHODS)}")
    timeout = float(params.get("timeout", 10))
    return [SwitchedPower(Switch(on, method, timeout), Switch(off, method, timeout),
                          float(params.get("settle", 0)))]

"""Actions the explorer does not take unless allowed: destructive ones and ones that leave the app."""
from __future__ import annotations

import re
from dataclasses import dataclass

from explore.identity import origin
from shared.screen import UIElement

DESTRUCTIVE_WORDS = re.compile(
    r"\b(?:delete|del|remove|erase|wipe|destroy|clear all|reset|factory|format|uninstall|log ?out|sign ?out|"
    r"logout|signout|purchase|buy|pay|checkout|order now|subscribe|unsubscribe|rent|confirm payment|"
    r"power off|shut ?down|reboot|restart)\b", re.I)


@dataclass(frozen=True)
class Skipped:
    """An action the explorer did not take, and why."""

    screen: str
    target: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"screen": self.screen, "target": self.target, "reason": self.reason}


def why_unsafe(e: UIElement, start_url: str) -> str:
    """Why clicking *e* is not safe to explore ('' when it is)."""
    words = " ".join(filter(None, [e.name, e.text, e.hint]))
    m = DESTRUCTIVE_WORDS.search(words)
    if m:
        return f"looks destructive ({m.group(0).lower()!r})"
    if e.href:
        home = origin(start_url)
        there = origin(e.href)
        if there and home and there != home:
            return f"leaves the app (link to {there})"
        if e.href.startswith(("mailto:", "tel:", "javascript:")):
            return "leaves the app"
    return ""

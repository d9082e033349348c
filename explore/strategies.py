"""Exploration strategies per kind of device, chosen through a registry by the device's capabilities.

A strategy says, for one screen, which actions to try (:meth:`Strategy.candidates`),
how to come back (:meth:`Strategy.back_options`) and how to return to the start
(:meth:`Strategy.reset_actions`). :func:`choose` asks each registered strategy,
best first, whether the device's commands and screen suit it: no if/elif on a
device type.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urlsplit

from backend_core.navigation.tree import ActionSpec
from explore.identity import list_group, pattern, signature
from explore.link import DeviceLink
from shared import vocabulary as V
from shared.commands import CommandSpec
from shared.errors import ConfigError
from shared.screen import FIELD_ROLES, ROLE_HEADING, ROLE_TEXT, ScreenObservation, UIElement

log = logging.getLogger(__name__)

BACK_KEY = "BACK"
OK_KEY = "OK"
ARROWS = {"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}
MAX_FOCUS_MOVES = 40


@dataclass(frozen=True)
class Candidate:
    """One action to try on a screen: what it targets, the actions, and the list it belongs to."""

    target: str                       # a human name of what is activated
    actions: tuple[ActionSpec, ...]
    element: UIElement | None = None
    group: str = ""                   # items of one list share it ('' for a lone control)
    template: tuple[ActionSpec, ...] = ()   # the actions with the item's name as "{param}"


@dataclass
class Strategy:
    """Base: subclasses register with :func:`register`."""

    commands: dict[str, CommandSpec]
    name: str = "base"
    fresh_entry: bool = False        # candidates assume the screen as entered (focus where it starts)

    @classmethod
    def suits(cls, commands: dict[str, CommandSpec], obs: ScreenObservation) -> bool:
        raise NotImplementedError

    def has_key(self, key: str) -> bool:
        spec = self.commands.get(V.PRESS_KEY)
        if spec is None:
            return False
        p = spec.param("key")
        return not (p and p.choices) or key in p.choices

    def key(self, key: str) -> ActionSpec:
        return ActionSpec(V.PRESS_KEY, {"key": key})

    def candidates(self, obs: ScreenObservation, link: DeviceLink) -> list[Candidate]:
        raise NotImplementedError

    def back_options(self, here: ScreenObservation, parent: ScreenObservation) -> list[tuple[ActionSpec, ...]]:
        options: list[tuple[ActionSpec, ...]] = []
        if self.has_key(BACK_KEY):
            options.append((self.key(BACK_KEY),))
        if V.GO_BACK in self.commands:
            options.append((ActionSpec(V.GO_BACK, {}),))
        return options

    def reset_actions(self, start: ScreenObservation) -> tuple[ActionSpec, ...]:
        """Actions that bring the app back to the start screen from anywhere ('' when none: BACK is used)."""
        return ()

    def prepare(self, obs: ScreenObservation, link: DeviceLink) -> None:
        """Put the screen as its candidates expect it (the D-pad focus where it starts); nothing by default."""


_REGISTRY: list[tuple[int, type[Strategy]]] = []


def register(priority: int) -> Callable[[type[Strategy]], type[Strategy]]:
    def deco(cls: type[Strategy]) -> type[Strategy]:
        _REGISTRY.append((priority, cls))
        _REGISTRY.sort(key=lambda pc: -pc[0])
        return cls
    return deco


def names() -> list[str]:
    return [cls.name for _, cls in _REGISTRY]  # type: ignore[misc]


def choose(commands: dict[str, CommandSpec], obs: ScreenObservation, name: str = "") -> Strategy:
    """The best strategy for a device (or the one named); a clear error when none suits it."""
    for _, cls in _REGISTRY:
        if name and cls.name != name:  # type: ignore[comparison-overlap]
            continue
        if name or cls.suits(commands, obs):
            return cls(commands)
    if name:
        raise ConfigError(f"unknown exploration strategy {name!r}; choose one of {', '.join(names())}")
    raise ConfigError("no exploration strategy suits this device: it needs a readable screen and "
                      "click_element, or press_key with arrows/OK/BACK")


def _relative(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def _actionable(e: UIElement) -> bool:
    return (e.clickable or e.role in ("button", "link", "tab", "menuitem")) and not e.hidden and not e.disabled \
        and e.role not in FIELD_ROLES | {ROLE_HEADING, ROLE_TEXT}


def _click(e: UIElement) -> ActionSpec:
    return ActionSpec(V.CLICK, {"selector": e.selector} if e.selector else {"text": e.label})


@dataclass
class WebStrategy(Strategy):
    """Web apps: links, buttons, tabs, menu items from the DOM; BACK, go_back, or the parent's URL."""

    name: str = "web"

    @classmethod
    def suits(cls, commands: dict[str, CommandSpec], obs: ScreenObservation) -> bool:
        return obs.platform == "web" and V.CLICK in commands

    def candidates(self, obs: ScreenObservation, link: DeviceLink) -> list[Candidate]:
        out = []
        for e in obs.elements:
            if _actionable(e) and e.label:
                # an item of a list is clicked by its name among the list's items: a short key ("7") is
                # found in its own column, not in a height of 70 elsewhere on the page
                among = {"selector": pattern(e.selector)} if e.selector and list_group(e) else {}
                out.append(Candidate(e.label, (_click(e),), e, list_group(e),
                                     (ActionSpec(V.CLICK, {**among, "text": "{param}"}),)))
        return out

    def back_options(self, here: ScreenObservation, parent: ScreenObservation) -> list[tuple[ActionSpec, ...]]:
        options = super().back_options(here, parent)
        if V.OPEN_URL in self.commands and parent.url and parent.url != here.url:
            options.append((ActionSpec(V.OPEN_URL, {"url": _relative(parent.url)}),))
        return options

    def reset_actions(self, start: ScreenObservation) -> tuple[ActionSpec, ...]:
        if V.OPEN_URL in self.commands and start.url:
            return (ActionSpec(V.OPEN_URL, {"url": _relative(start.url)}),)
        return ()


@dataclass
class AndroidStrategy(Strategy):
    """Android: the clickable nodes of the uiautomator dump, and BACK."""

    name: str = "android"

    @classmethod
    def suits(cls, commands: dict[str, CommandSpec], obs: ScreenObservation) -> bool:
        return obs.platform in ("android", "appium") and (V.CLICK in commands or V.TAP in commands)

    def candidates(self, obs: ScreenObservation, link: DeviceLink) -> list[Candidate]:
        out = []
        for e in obs.elements:
            if not (e.clickable and not e.hidden and not e.disabled and e.role not in FIELD_ROLES):
                continue
            if V.CLICK in self.commands and (e.label or e.selector):
                action = ActionSpec(V.CLICK, {"text": e.label} if e.label else {"selector": e.selector})
            elif V.TAP in self.commands and e.box:
                x, y, w, h = e.box
                action = ActionSpec(V.TAP, {"x": x + w // 2, "y": y + h // 2})
            else:
                continue
            out.append(Candidate(e.label or e.selector, (action,), e, list_group(e),
                                 (ActionSpec(V.CLICK, {"text": "{param}"}),) if V.CLICK in self.commands else ()))
        return out


@dataclass
class DpadStrategy(Strategy):
    """TV-style D-pad apps: walk the focus with the arrow keys, press OK, come back with BACK.

    The focused element is read from the observation. Each control is reached
    by the shortest key path from where the focus starts on the screen.
    """

    name: str = "dpad"
    fresh_entry: bool = True
    _walks: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = field(default_factory=dict)  # screen -> start, paths

    @classmethod
    def suits(cls, commands: dict[str, CommandSpec], obs: ScreenObservation) -> bool:
        spec = commands.get(V.PRESS_KEY)
        return spec is not None and any(e.focused for e in obs.elements)

    @staticmethod
    def _focused(obs: ScreenObservation) -> UIElement | None:
        return next((e for e in obs.elements if e.focused), None)

    @staticmethod
    def _id(e: UIElement) -> str:
        return e.selector or e.label

    def candidates(self, obs: ScreenObservation, link: DeviceLink) -> list[Candidate]:
        start = self._focused(obs)
        if start is None or not self.has_key(OK_KEY):
            return []
        paths: dict[str, tuple[str, ...]] = {self._id(start): ()}
        found: dict[str, UIElement] = {self._id(start): start}
        frontier = [self._id(start)]
        current, moves = self._id(start), 0
        screen_route = obs.url
        while frontier and moves < MAX_FOCUS_MOVES:
            node = frontier.pop(0)
            for arrow in ARROWS:
                if moves >= MAX_FOCUS_MOVES or not self.has_key(arrow):
                    break
                # walk to the node by its known path from the current focus (back to start first)
                for key in self._route(paths, current, node):
                    link.execute(V.PRESS_KEY, {"key": key})
                    moves += 1
                link.execute(V.PRESS_KEY, {"key": arrow})
                moves += 1
                seen = link.observe()
                focus = self._focused(seen)
                if seen.url != screen_route or focus is None:
                    raise ConfigError(f"the arrow key {arrow} left the screen while walking its focus")
                fid = self._id(focus)
                if fid not in paths:
                    paths[fid] = paths[node] + (arrow,)
                    found[fid] = focus
                    frontier.append(fid)
                current = fid
        for key in self._route(paths, current, self._id(start)):
            link.execute(V.PRESS_KEY, {"key": key})
        self._walks[signature(obs).key()] = (self._id(start), paths)
        out = []
        for fid, e in found.items():
            if e.role in FIELD_ROLES:
                continue
            keys = tuple(self.key(k) for k in paths[fid]) + (self.key(OK_KEY),)
            out.append(Candidate(e.label or fid, keys, e, list_group(e)))
        return out

    def prepare(self, obs: ScreenObservation, link: DeviceLink) -> None:
        """Move the focus back to where it started when the screen was walked (an app may remember
        the last focused control when one comes back to a screen)."""
        walk = self._walks.get(signature(obs).key())
        focus = self._focused(obs)
        if walk is None or focus is None:
            return
        start, paths = walk
        here = self._id(focus)
        if here == start or here not in paths:
            return
        for key in self._route(paths, here, start):
            link.execute(V.PRESS_KEY, {"key": key})

    @staticmethod
    def _route(paths: dict[str, tuple[str, ...]], here: str, there: str) -> list[str]:
        """Keys from *here* to *there*: undo *here*'s path, then follow *there*'s."""
        a, b = paths.get(here, ()), paths[there]
        common = 0
        while common < min(len(a), len(b)) and a[common] == b[common]:
            common += 1
        return [ARROWS[k] for k in reversed(a[common:])] + list(b[common:])


register(30)(WebStrategy)
register(20)(AndroidStrategy)
register(10)(DpadStrategy)

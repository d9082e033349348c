"""Android TV over adb: a D-pad remote that knows where the focus is.

Registered as ``android_tv``; params as for ``adb`` (``serial``, ``adb``,
``timeout``, ``key_delay``) plus ``max_moves`` (20): how many D-pad presses
``click_element`` may spend walking the focus to an element.

A TV has no touch screen. ``click_element`` therefore reads the UI dump,
finds the focused node (``focused="true"``) and the wanted element, presses
the D-pad toward it until the focus lands on it, then presses OK — so the
same plan (``click_element text=Settings``) runs on a phone and on a TV.
Apps start through the ``LEANBACK_LAUNCHER`` category, falling back to
``LAUNCHER``.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from backend_core.controllers.adb import AdbClient
from backend_core.controllers.android import LAUNCHER, AdbRemoteBase, AdbScreen, adb_client, pick
from backend_core.controllers.base import Controller
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.controllers.ui_dump import ELEMENT_PARAMS, UiElement
from shared.commands import command
from shared.errors import DeviceFailure
from shared.keys import Key

log = logging.getLogger(__name__)

LEANBACK_LAUNCHER = "android.intent.category.LEANBACK_LAUNCHER"
DEFAULT_MAX_MOVES = 20


def on_target(focused: UiElement, target: UiElement) -> bool:
    """True when the focus is on *target*: the focused node holds it, or it holds the focused node."""
    if focused == target:
        return True
    if focused.bounds is None or target.bounds is None:
        return False
    return focused.bounds.contains(*target.bounds.center) or target.bounds.contains(*focused.bounds.center)


def directions_toward(focused: UiElement, target: UiElement) -> list[Key]:
    """D-pad keys that bring the focus closer to *target*, the most promising first."""
    assert focused.bounds is not None and target.bounds is not None
    fx, fy = focused.bounds.center
    tx, ty = target.bounds.center
    moves: list[tuple[float, Key]] = []
    if not (focused.bounds.x1 <= tx < focused.bounds.x2):
        moves.append((abs(tx - fx) / max(focused.bounds.width, 1), Key.RIGHT if tx > fx else Key.LEFT))
    if not (focused.bounds.y1 <= ty < focused.bounds.y2):
        moves.append((abs(ty - fy) / max(focused.bounds.height, 1), Key.DOWN if ty > fy else Key.UP))
    return [key for _, key in sorted(moves, key=lambda m: -m[0])]


@dataclass(frozen=True)
class FocusWalk:
    """Where a focus walk ended: the focused element and the keys it took."""

    element: UiElement
    keys: tuple[Key, ...]


class AndroidTvRemote(AdbRemoteBase):
    """A D-pad remote for an Android TV box or TV."""

    launcher_category = LEANBACK_LAUNCHER

    def __init__(self, client: AdbClient, key_delay: float = 0.1, max_moves: int = DEFAULT_MAX_MOVES) -> None:
        super().__init__(client, key_delay)
        self.max_moves = max_moves

    def start_app(self, package: str, activity: str) -> str:
        if activity:
            return self.client.launch(package, activity)
        try:
            return self.client.launch(package, "", LEANBACK_LAUNCHER)
        except DeviceFailure:
            log.info("%s has no leanback activity; trying its phone launcher activity", package)
            return self.client.launch(package, "", LAUNCHER)

    def focus_field(self, field: str, selector: str, row: str = "", index: int = 0) -> UiElement:
        walk = self.walk_focus(field, selector, "", index, row=row)
        self.press(Key.OK)
        return walk.element

    def walk_focus(self, text: str, selector: str, element_id: str, index: int, role: str = "",
                   row: str = "") -> FocusWalk:
        """Press the D-pad until the focus is on the element; a :class:`DeviceFailure` if it cannot get there."""
        keys: list[Key] = []
        stuck: set[tuple[str, Key]] = set()
        focused: UiElement | None = None
        for _ in range(self.max_moves + 1):
            tree = self.client.dump_ui()
            target = pick(tree, text, selector, element_id, index, role, row)
            focused = tree.focused()
            if focused is None:
                raise DeviceFailure(f"nothing has the focus on screen, so the D-pad cannot reach {target.label!r}",
                                    expected="a focused element")
            if on_target(focused, target):
                return FocusWalk(focused, tuple(keys))
            if focused.bounds is None or target.bounds is None:
                raise DeviceFailure(f"{target.label!r} or the focused element has no bounds",
                                    expected=f"focus on {target.label!r}")
            here = f"{focused.bounds}"
            options = [k for k in directions_toward(focused, target) if (here, k) not in stuck]
            if keys and len(keys) >= self.max_moves:
                break
            if not options:
                raise DeviceFailure(f"the focus is stuck on {focused.label!r} and cannot move toward "
                                    f"{target.label!r} (tried {', '.join(k.value for k in keys) or 'nothing'})",
                                    expected=f"focus on {target.label!r}")
            key = options[0]
            stuck.add((here, key))  # if the focus does not move, the next round tries another way
            self.press(key)
            keys.append(key)
        where = focused.label if focused is not None else "nothing"
        raise DeviceFailure(f"the focus did not reach the element within {self.max_moves} moves; it is on {where!r}",
                            expected="focus on the element")

    @command("Move the D-pad focus to an element (by text, selector or id) and press OK",
             *ELEMENT_PARAMS)
    def click_element(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0,
                      id: str = "") -> str:
        walk = self.walk_focus(text, selector, id, index, role, row)
        self.press(Key.OK)
        route = " ".join(k.value for k in walk.keys) or "already focused"
        return f"selected {walk.element.label!r} ({route}, OK)"

    @command("Which element has the D-pad focus (class, text, id, bounds), from a uiautomator dump")
    def get_focused_element(self) -> str:
        focused = self.client.dump_ui().focused()
        return json.dumps(focused.to_dict()) if focused is not None else "nothing has the focus"


@register_controller("android_tv")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    from backend_core.verifications.ui_elements import UiElementVerifier

    client = adb_client(ctx, params, "android_tv")
    screen = AdbScreen(client)
    remote = AndroidTvRemote(client, float(params.get("key_delay", 0.1)),
                             int(params.get("max_moves", DEFAULT_MAX_MOVES)))
    return [remote, screen, UiElementVerifier(client.dump_ui, screen, "uiautomator dump")]

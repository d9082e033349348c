"""Android phones and tablets over adb: remote (touch, keys, text, apps), screen and UI-element verification.

Registered as ``adb``; params:

* ``serial`` (required) — the device as ``adb devices`` lists it (``emulator-5554``, ``192.168.1.20:5555``);
* ``adb`` — the adb executable (default: ``adb`` on PATH);
* ``timeout`` — seconds for one adb call (20);
* ``key_delay`` — seconds between repeated key presses (0.1).

Coordinates are fractions of the screen (``x=0.5, y=0.9``), turned into
pixels with the size ``wm size`` reports, so plans do not depend on the
phone's resolution. Elements are found in a ``uiautomator dump`` by
``text`` (text or content-desc), ``selector`` (resource-id, ``desc:…``,
``class:…`` or ``//XPath``) or ``id`` (resource-id); a click taps the
centre of the element's bounds.
"""
from __future__ import annotations

import json
import logging
import time
from typing import Any

from backend_core.controllers.geometry import SWIPE_HELP, SWIPE_PARAMS, TAP_HELP, TAP_PARAMS
from backend_core.controllers.adb import DEFAULT_TIMEOUT_S, AdbClient
from backend_core.controllers.android_keys import ANDROID_KEY_CHOICES, ANDROID_KEYCODES
from backend_core.controllers.base import Controller, RemoteController, ScreenController, ScreenReader
from backend_core.controllers.native_observe import narrow, observe_tree
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.controllers.targets import field_params
from backend_core.controllers.ui_dump import ELEMENT_PARAMS, SELECTOR_HELP, UiElement, UiTree, describe
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, DeviceFailure, RequestError
from shared.keys import Key
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)

LAUNCHER = "android.intent.category.LAUNCHER"
KEYCODE_ENTER, KEYCODE_DEL, KEYCODE_MOVE_END = 66, 67, 123


class AdbScreen(ScreenController):
    """Screenshots with ``adb exec-out screencap -p``."""

    def __init__(self, client: AdbClient) -> None:
        self.client = client

    def screenshot(self) -> bytes:
        return self.client.screencap()


def pick(tree: UiTree, text: str, selector: str, element_id: str, index: int, role: str = "",
         row: str = "") -> UiElement:
    """The *index*-th element matching (-1 = last), or a :class:`DeviceFailure` naming what is on screen."""
    if text or selector or element_id:
        found: list[UiElement] | None = tree.find(text=text, selector=selector, element_id=element_id)
    elif role:
        found = [e for e in tree.elements if e.visible]
    elif row:
        found = None  # the row itself
    else:
        raise RequestError("name the element: give text, role, selector, id or row")
    if role or row:
        found = narrow(tree, found, role, row)
    assert found is not None
    what = " ".join(filter(None, [role, selector, element_id and f"id {element_id}", text and repr(text),
                                  row and f"in the row {row!r}"]))
    if not -len(found) <= index < len(found):
        raise DeviceFailure(
            f"no element {what} on screen (found {len(found)}); on screen: {describe(tree.named())}",
            expected=f"element {what} visible")
    return found[index]


class AdbRemoteBase(RemoteController, ScreenReader):
    """What every adb device can do: keys, text, apps, the element list."""

    launcher_category = LAUNCHER

    def __init__(self, client: AdbClient, key_delay: float = 0.1) -> None:
        self.client = client
        self.key_delay = key_delay

    def press(self, key: Key) -> None:
        self.client.keyevent(ANDROID_KEYCODES[key])

    @command("Press a remote-control key (UP, DOWN, LEFT, RIGHT, OK, BACK, HOME, media keys, DIGIT_0-9)",
             P("key", ParamType.KEY, required=True, choices=ANDROID_KEY_CHOICES),
             P("repeat", ParamType.INT, default=1, minimum=1, maximum=50))
    def press_key(self, key: str, repeat: int = 1) -> str:
        for i in range(repeat):
            if i:
                time.sleep(self.key_delay)
            self.press(Key(key))
        return f"pressed {key}" + (f" x{repeat}" if repeat > 1 else "")

    @command("Type text into a field found by its text/description/id (tapped or selected first), or the "
             "focused field. clear (default) replaces the field's text; clear=false appends; submit presses Enter",
             P("text", required=True, description="what to type"), *field_params(SELECTOR_HELP),
             P("clear", ParamType.BOOL, default=True, description="replace the field's text (false: append)"),
             P("submit", ParamType.BOOL, default=False, description="press Enter after typing"))
    def input_text(self, text: str, field: str = "", selector: str = "", row: str = "", index: int = 0,
                   clear: bool = True, submit: bool = False) -> str:
        current = ""
        if field or selector or row:
            current = self.focus_field(field, selector, row, index).text
        elif clear:
            focused = self.client.dump_ui().focused()
            current = focused.text if focused is not None else ""
        if clear and current:
            self.client.keyevents([KEYCODE_MOVE_END] + [KEYCODE_DEL] * len(current))
        self.client.input_text(text)
        if submit:
            self.client.keyevent(KEYCODE_ENTER)
        return f"typed {text!r}" + ("" if clear else " (appended)") + (" and submitted" if submit else "")

    def focus_field(self, field: str, selector: str, row: str = "", index: int = 0) -> UiElement:
        """Give the field the input focus (a tap on phones); returns the field as it was."""
        element = pick(self.client.dump_ui(), field, selector, "", index, "", row)
        if element.bounds is None:
            raise DeviceFailure(f"field {element.label!r} has no bounds to tap",
                                expected=f"field {element.label!r} on screen")
        self.client.tap(*element.bounds.center)
        return element

    @command("Go back to the previous screen (the BACK key)")
    def go_back(self) -> str:
        self.press(Key.BACK)
        return "went back"

    @command("Start an app by package name (its launcher activity), or a given activity",
             P("package", required=True, description="e.g. com.android.settings"),
             P("activity", description="optional activity, e.g. .Settings or com.android.settings/.Settings"))
    def launch_app(self, package: str, activity: str = "") -> str:
        return f"started {self.start_app(package, activity)}"

    def start_app(self, package: str, activity: str) -> str:
        return self.client.launch(package, activity, self.launcher_category)

    @command("Stop an app (am force-stop): it loses its state",
             P("package", required=True, description="e.g. com.android.settings"), destructive=True)
    def close_app(self, package: str) -> str:
        self.client.force_stop(package)
        return f"stopped {package}"

    def observe(self) -> ScreenObservation:
        return observe_tree(self.client.dump_ui(), "android")

    @command("List what the screen shows now (uiautomator dump): the elements with role, name, text, "
             "resource-id words, state and bounds (JSON)")
    def dump_elements(self) -> str:
        return json.dumps(self.observe().to_dict())


class AndroidRemote(AdbRemoteBase):
    """A touch-screen Android device."""

    @command(TAP_HELP, *TAP_PARAMS)
    def tap(self, x: float, y: float) -> str:
        px, py = self.client.to_pixels(x, y)
        self.client.tap(px, py)
        return f"tapped ({x:.2f}, {y:.2f}) = ({px}, {py}) px"

    @command(SWIPE_HELP, *SWIPE_PARAMS)
    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> str:
        a, b = self.client.to_pixels(x1, y1), self.client.to_pixels(x2, y2)
        self.client.swipe(*a, *b, duration_ms)
        return f"swiped ({x1:.2f}, {y1:.2f}) -> ({x2:.2f}, {y2:.2f})"

    @command("Tap an element found in the UI dump by its text/description, role, selector, id or row",
             *ELEMENT_PARAMS)
    def click_element(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0,
                      id: str = "") -> str:
        element = pick(self.client.dump_ui(), text, selector, id, index, role, row)
        if element.bounds is None or element.bounds.empty:
            raise DeviceFailure(f"element {element.label!r} has no area to tap",
                                expected=f"{element.label!r} tappable")
        x, y = element.bounds.center
        self.client.tap(x, y)
        return f"clicked {element.label!r} at ({x}, {y})" + (f" #{index}" if index else "")


def adb_client(ctx: BuildContext, params: dict[str, Any], who: str) -> AdbClient:
    serial = str(params.get("serial") or "").format(**ctx.variables)
    if not serial:
        raise ConfigError(f"device {ctx.device_id!r}: controller {who!r} needs params.serial "
                          "(the device as 'adb devices' lists it)")
    return AdbClient(serial, str(params.get("adb") or "adb"), float(params.get("timeout", DEFAULT_TIMEOUT_S)))


@register_controller("adb")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    from backend_core.verifications.ui_elements import UiElementVerifier

    client = adb_client(ctx, params, "adb")
    screen = AdbScreen(client)
    remote = AndroidRemote(client, float(params.get("key_delay", 0.1)))
    return [remote, screen, UiElementVerifier(client.dump_ui, screen, "uiautomator dump")]

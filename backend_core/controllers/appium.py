"""Phones and tablets through an Appium server (appium-python-client): remote, screen, element verification.

Registered as ``appium``; params:

* ``server_url`` — the Appium server (default ``$DEVICEPILOT_APPIUM_URL`` or ``http://127.0.0.1:4723``);
* ``capabilities`` — merged over UiAutomator2 defaults (``platformName: Android``,
  ``automationName: UiAutomator2``); names without a vendor prefix get ``appium:``;
  a relative ``app`` path is relative to the config file;
* ``key_strategy`` — ``auto`` (default), ``android`` (``mobile: pressKey`` with
  Android keycodes) or ``w3c`` (W3C key actions: arrows, Enter, Escape, digits).

The session is created on first use and re-created once if it dies. Elements
are found by ``text`` (text, content-desc or label), ``selector`` (resource-id,
``desc:<content-desc>``, ``class:<class name>`` or ``//XPath``) or ``id``.
"""
from __future__ import annotations

import json
import logging
import os
from typing import Any

from backend_core.controllers.geometry import SWIPE_HELP, SWIPE_PARAMS, TAP_HELP, TAP_PARAMS, to_pixels
from backend_core.controllers.android_keys import ANDROID_KEY_CHOICES, ANDROID_KEYCODES
from backend_core.controllers.appium_session import AppiumSession, options_from_params
from backend_core.controllers.base import Controller, RemoteController, ScreenController, ScreenReader
from backend_core.controllers.native_observe import observe_tree
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.controllers.android import pick
from backend_core.controllers.targets import field_params
from backend_core.controllers.ui_dump import ELEMENT_PARAMS, SELECTOR_HELP, UiTree, describe, parse_ui_xml
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, DeviceFailure, RequestError
from shared.keys import Key
from shared.screen import ScreenObservation

log = logging.getLogger(__name__)

KEY_STRATEGIES = ("auto", "android", "w3c")

# canonical key -> W3C WebDriver key (selenium.webdriver.common.keys.Keys values)
W3C_KEYS: dict[Key, str] = {
    Key.UP: "\ue013", Key.DOWN: "\ue015", Key.LEFT: "\ue012", Key.RIGHT: "\ue014",
    Key.OK: "\ue007", Key.BACK: "\ue00c", Key.HOME: "\ue011",
    Key.CHANNEL_UP: "\ue00e", Key.CHANNEL_DOWN: "\ue00f",
    **{Key[f"DIGIT_{d}"]: str(d) for d in range(10)},
}


def xpath_literal(text: str) -> str:
    """*text* as an XPath 1.0 string literal, whatever quotes it holds."""
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    return "concat(" + ", \"'\", ".join(f"'{part}'" for part in text.split("'")) + ")"


def text_xpaths(text: str) -> list[str]:
    """XPaths for an element showing *text*: exact first, then case-insensitive containment."""
    lit = xpath_literal(text)
    exact = f"//*[@text={lit} or @content-desc={lit} or @label={lit} or @name={lit}]"
    upper, lower = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
    low = xpath_literal(text.lower())
    contains = " or ".join(f"contains(translate(@{a}, '{upper}', '{lower}'), {low})"
                           for a in ("text", "content-desc", "label"))
    return [exact, f"//*[{contains}]"]


def locate(selector: str, element_id: str) -> tuple[str, str] | None:
    """(strategy, value) for a selector or id; None when only text names the element."""
    from appium.webdriver.common.appiumby import AppiumBy

    if element_id:
        return AppiumBy.ID, element_id
    if not selector:
        return None
    sel = selector.strip()
    if sel.startswith("/") or sel.startswith("("):
        return AppiumBy.XPATH, sel
    prefix, _, value = sel.partition(":")
    if prefix == "desc" and value:  # content-desc, as in a uiautomator dump
        return AppiumBy.XPATH, f"//*[@content-desc={xpath_literal(value)}]"
    if prefix == "class" and value:
        return AppiumBy.CLASS_NAME, value
    return AppiumBy.ID, sel


class AppiumRemote(RemoteController, ScreenReader):
    """Input through Appium: element clicks, taps, keys, text, apps."""

    def __init__(self, session: AppiumSession, key_strategy: str = "auto") -> None:
        self.session = session
        if key_strategy == "auto":
            key_strategy = "android" if session.options.platform == "android" else "w3c"
        self.key_strategy = key_strategy

    def page(self) -> UiTree:
        return parse_ui_xml(self.session.call(lambda d: d.page_source, "page source"))

    def find(self, driver: Any, text: str, selector: str, element_id: str) -> list[Any]:
        by = locate(selector, element_id)
        if by is not None:
            found = driver.find_elements(*by)
            if text:
                want = text.casefold()
                found = [e for e in found if want in (e.text or "").casefold()
                         or want in (e.get_attribute("content-desc") or "").casefold()]
            return found
        if not text:
            raise RequestError("name the element: give text, selector or id")
        from appium.webdriver.common.appiumby import AppiumBy

        for xpath in text_xpaths(text):
            found = driver.find_elements(AppiumBy.XPATH, xpath)
            if found:
                return found
        return []

    @command("Click an element found by its text/description, role, selector, id or row", *ELEMENT_PARAMS)
    def click_element(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0,
                      id: str = "") -> str:
        if role or row:  # by what the page source says: role and row are not Appium locators
            element = pick(self.page(), text, selector, id, index, role, row)
            if element.bounds is None or element.bounds.empty:
                raise DeviceFailure(f"element {element.label!r} has no area to tap",
                                    expected=f"{element.label!r} tappable")
            x, y = element.bounds.center
            self.session.call(lambda d: d.tap([(x, y)]), "tap")
            return f"clicked {element.label!r} at ({x}, {y})"
        what = " ".join(filter(None, [selector, id and f"id {id}", text and repr(text)]))
        if not what:
            raise RequestError("name the element: give text, role, selector, id or row")

        def click(driver: Any) -> int:
            found = self.find(driver, text, selector, id)
            if -len(found) <= index < len(found):
                found[index].click()
            return len(found)

        count = self.session.call(click, f"click on {what}")
        if not -count <= index < count:
            on_screen = describe(self.page().named())
            raise DeviceFailure(f"no element {what} on screen (found {count}); on screen: {on_screen}",
                                expected=f"element {what} visible")
        return f"clicked {what}" + (f" #{index}" if index else "")

    @command("Go back to the previous screen (the system Back)")
    def go_back(self) -> str:
        self.session.call(lambda d: d.back(), "back")
        return "went back"

    def window(self) -> tuple[int, int]:
        size = self.session.call(lambda d: d.get_window_size(), "window size")
        return int(size["width"]), int(size["height"])

    @command(TAP_HELP, *TAP_PARAMS)
    def tap(self, x: float, y: float) -> str:
        px, py = to_pixels(x, y, *self.window())
        self.session.call(lambda d: d.tap([(px, py)]), "tap")
        return f"tapped ({x:.2f}, {y:.2f}) = ({px}, {py}) px"

    @command(SWIPE_HELP, *SWIPE_PARAMS)
    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> str:
        size = self.window()
        pts = [*to_pixels(x1, y1, *size), *to_pixels(x2, y2, *size)]
        self.session.call(lambda d: d.swipe(*pts, duration_ms), "swipe")
        return f"swiped ({x1:.2f}, {y1:.2f}) -> ({x2:.2f}, {y2:.2f})"

    @command("Press a remote-control key (UP, DOWN, LEFT, RIGHT, OK, BACK, HOME, media keys on Android, DIGIT_0-9)",
             P("key", ParamType.KEY, required=True, choices=ANDROID_KEY_CHOICES),
             P("repeat", ParamType.INT, default=1, minimum=1, maximum=50))
    def press_key(self, key: str, repeat: int = 1) -> str:
        k = Key(key)
        if self.key_strategy == "android":
            code = ANDROID_KEYCODES[k]
            for _ in range(repeat):
                self.session.call(lambda d: d.execute_script("mobile: pressKey", {"keycode": code}), f"key {key}")
        else:
            if k not in W3C_KEYS:
                raise RequestError(f"{key} cannot be sent as a W3C key on this device; "
                                   f"it can send: {', '.join(x.value for x in W3C_KEYS)}")
            self.session.call(lambda d: _send_keys(d, W3C_KEYS[k] * repeat), f"key {key}")
        return f"pressed {key}" + (f" x{repeat}" if repeat > 1 else "")

    @command("Type text into a field found by its text/description/id, or the focused field. clear (default) "
             "replaces the field's text; clear=false appends; submit presses Enter after",
             P("text", required=True, description="what to type"), *field_params(SELECTOR_HELP),
             P("clear", ParamType.BOOL, default=True, description="replace the field's text (false: append)"),
             P("submit", ParamType.BOOL, default=False, description="press Enter after typing"))
    def input_text(self, text: str, field: str = "", selector: str = "", row: str = "", index: int = 0,
                   clear: bool = True, submit: bool = False) -> str:
        if row:  # find the field in the row from the page source, then focus it with a tap
            element = pick(self.page(), field, selector, "", index, "", row)
            if element.bounds is not None:
                cx, cy = element.bounds.center
                self.session.call(lambda d: d.tap([(cx, cy)]), "tap")
            field = selector = ""

        def type_in(driver: Any) -> bool:
            if not (field or selector):
                target = None
                try:
                    target = driver.switch_to.active_element
                except Exception:  # not every driver knows the active element: type blind
                    log.debug("no active element; typing into whatever has the focus")
                if target is not None and clear:
                    target.clear()
                if target is not None:
                    target.send_keys(text + ("\n" if submit else ""))
                else:
                    _send_keys(driver, text + (W3C_KEYS[Key.OK] if submit else ""))
                return True
            found = self.find(driver, field, selector, "")
            if not -len(found) <= index < len(found):
                return False
            if clear:
                found[index].clear()
            found[index].send_keys(text + ("\n" if submit else ""))
            return True

        if not self.session.call(type_in, "typing"):
            what = field or selector
            raise DeviceFailure(f"no field {what!r} on screen; on screen: {describe(self.page().named())}",
                                expected=f"field {what!r} visible")
        return f"typed {text!r}" + ("" if clear else " (appended)") + (" and submitted" if submit else "")

    @command("Start (or bring to the front) an app by package / bundle id, or a given Android activity",
             P("package", required=True, description="e.g. com.android.settings"),
             P("activity", description="optional Android activity, e.g. .Settings"))
    def launch_app(self, package: str, activity: str = "") -> str:
        if activity:
            component = activity if "/" in activity else f"{package}/{activity}"
            self.session.call(lambda d: d.execute_script("mobile: startActivity", {"intent": component}),
                              f"start {component}")
            return f"started {component}"
        self.session.call(lambda d: d.activate_app(package), f"activate {package}")
        return f"started {package}"

    @command("Stop an app: it loses its state", P("package", required=True), destructive=True)
    def close_app(self, package: str) -> str:
        self.session.call(lambda d: d.terminate_app(package), f"terminate {package}")
        return f"stopped {package}"

    def observe(self) -> ScreenObservation:
        return observe_tree(self.page(), "appium")

    @command("List what the screen shows now (Appium page source): the elements with role, name, text, "
             "id words, state and bounds (JSON)")
    def dump_elements(self) -> str:
        return json.dumps(self.observe().to_dict())


def _send_keys(driver: Any, keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(keys).perform()


class AppiumScreen(ScreenController):
    """Screenshots through the Appium session."""

    def __init__(self, session: AppiumSession) -> None:
        self.session = session

    def screenshot(self) -> bytes:
        return self.session.call(lambda d: d.get_screenshot_as_png(), "screenshot")

    def close(self) -> None:
        self.session.close()


@register_controller("appium")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    from backend_core.verifications.ui_elements import UiElementVerifier

    options = options_from_params(params, lambda p: str(ctx.path(p)), os.environ.get("DEVICEPILOT_APPIUM_URL", ""))
    strategy = str(params.get("key_strategy", "auto"))
    if strategy not in KEY_STRATEGIES:
        raise ConfigError(f"device {ctx.device_id!r}: appium key_strategy must be one of {', '.join(KEY_STRATEGIES)}")
    session = AppiumSession(options)
    remote = AppiumRemote(session, strategy)
    screen = AppiumScreen(session)
    return [remote, screen, UiElementVerifier(remote.page, screen, "Appium page source")]

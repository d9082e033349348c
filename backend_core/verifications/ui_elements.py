"""Element verification on a native UI hierarchy: an adb ``uiautomator dump`` or an Appium page source.

The commands and parameters are the same as the DOM verifier's
(``waitForElementToAppear(selector, text, timeout)`` / ``waitForElementToDisappear``),
so a plan written for one kind of device runs on another. Here ``selector`` is
a resource-id (full or short), ``desc:<content-desc>``, ``class:<widget class>``
or an XPath in ElementTree's subset (``//node[@text='Wi-Fi']``).
"""
from __future__ import annotations

import logging
from typing import Callable

from backend_core.controllers.base import ScreenController, VerificationController
from backend_core.controllers.ui_dump import SELECTOR_HELP, UiTree, describe
from backend_core.verifications.common import verify
from shared.commands import P, ParamType, command

log = logging.getLogger(__name__)

_ELEMENT_PARAMS = (
    P("selector", description=SELECTOR_HELP),
    P("text", description="text or content-desc the element shows (case-insensitive)"),
    P("timeout", ParamType.FLOAT, default=5.0, minimum=0, maximum=120, description="seconds"),
)

# A UI dump takes a second or more on a real device: look again at once rather than sleeping long.
POLL_INTERVAL_S = 0.2


class UiElementVerifier(VerificationController):
    """Waits for native UI elements to appear or disappear, reading the hierarchy from *source*."""

    verifier_type = "element"

    def __init__(self, source: Callable[[], UiTree], screen: ScreenController | None, origin: str) -> None:
        self.source = source
        self.screen = screen
        self.origin = origin  # "uiautomator dump" or "Appium page source", for messages

    @staticmethod
    def _name(selector: str, text: str) -> str:
        return " ".join(filter(None, [selector and f"element {selector}", text and f"text {text!r}"]))

    def _look(self, selector: str, text: str) -> tuple[bool, str]:
        tree = self.source()
        found = tree.find(text=text, selector=selector)
        if found:
            return True, found[0].label
        return False, f"{len(tree.named())} named element(s) in the {self.origin}: {describe(tree.named())}"

    @command("Wait until a UI element (by selector and/or text) is on screen", *_ELEMENT_PARAMS)
    def waitForElementToAppear(self, selector: str = "", text: str = "", timeout: float = 5.0) -> str:
        name = self._name(selector, text)
        seen = verify(lambda: self._look(selector, text), timeout=timeout, expected=f"{name} visible",
                      screen=self.screen, interval=POLL_INTERVAL_S)
        return f"{name} is visible" + (f": {seen!r}" if seen else "")

    @command("Wait until a UI element (by selector and/or text) is gone from the screen", *_ELEMENT_PARAMS)
    def waitForElementToDisappear(self, selector: str = "", text: str = "", timeout: float = 5.0) -> str:
        name = self._name(selector, text)

        def gone() -> tuple[bool, str]:
            present, seen = self._look(selector, text)
            return not present, (f"still there: {seen!r}" if present else seen)

        verify(gone, timeout=timeout, expected=f"{name} gone", screen=self.screen, interval=POLL_INTERVAL_S)
        return f"{name} is gone"

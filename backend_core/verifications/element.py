"""Element verification on a web page's DOM."""
from __future__ import annotations

from typing import Any

from backend_core.controllers.base import VerificationController
from backend_core.controllers.browser import BrowserSession
from backend_core.controllers.web import WebScreen, element_locator
from backend_core.verifications.common import verify
from shared.commands import P, ParamType, command

_ELEMENT_PARAMS = (
    P("selector", description="CSS selector"),
    P("text", description="visible text the element contains (case-insensitive)"),
    P("timeout", ParamType.FLOAT, default=5.0, minimum=0, maximum=120, description="seconds"),
)


class DomVerifier(VerificationController):
    """Waits for elements of a web page to appear or disappear."""

    verifier_type = "element"

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self.screen = WebScreen(session)

    def _visible(self, selector: str, text: str) -> tuple[bool, str]:
        def look(page: Any) -> tuple[bool, str]:
            loc = element_locator(page, text, selector)
            n = loc.count()
            for i in range(min(n, 20)):
                if loc.nth(i).is_visible():
                    return True, (loc.nth(i).inner_text(timeout=1000) or "").strip()[:80]
            return False, f"{n} matching element(s), none visible"

        return self.session.call(look)

    @staticmethod
    def _name(selector: str, text: str) -> str:
        return " ".join(filter(None, [selector and f"element {selector}", text and f"text {text!r}"]))

    @command("Wait until an element (by CSS selector and/or visible text) is visible", *_ELEMENT_PARAMS)
    def waitForElementToAppear(self, selector: str = "", text: str = "", timeout: float = 5.0) -> str:
        seen = verify(lambda: self._visible(selector, text), timeout=timeout,
                      expected=f"{self._name(selector, text)} visible", screen=self.screen)
        return f"{self._name(selector, text)} is visible" + (f": {seen!r}" if seen else "")

    @command("Wait until an element (by CSS selector and/or visible text) is gone", *_ELEMENT_PARAMS)
    def waitForElementToDisappear(self, selector: str = "", text: str = "", timeout: float = 5.0) -> str:
        def gone() -> tuple[bool, str]:
            visible, seen = self._visible(selector, text)
            return (not visible), seen

        verify(gone, timeout=timeout, expected=f"{self._name(selector, text)} gone", screen=self.screen)
        return f"{self._name(selector, text)} is gone"

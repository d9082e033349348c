"""Element checks on a native UI hierarchy: an adb ``uiautomator dump`` or an Appium page source.

The command and its parameters are the DOM verifier's
(``wait_for_element(text, role, selector, row, present, state, count, exact, timeout)``),
so a plan written for one kind of device runs on another. Here ``selector`` is
a resource-id (full or short), ``desc:<content-desc>``, ``class:<widget class>``
or an XPath in ElementTree's subset (``//node[@text='Wi-Fi']``); roles come
from the widget classes (see :mod:`backend_core.controllers.native_observe`).
"""
from __future__ import annotations

import logging
from typing import Callable

from backend_core.controllers.base import ScreenController, VerificationController
from backend_core.controllers.native_observe import observe_tree
from backend_core.controllers.targets import LABEL_PARAM, ROLE_PARAM, ROW_PARAM
from backend_core.controllers.ui_dump import SELECTOR_HELP, UiTree
from backend_core.verifications.common import verify
from backend_core.verifications.element import CHECK_PARAMS, describe_check, evaluate_check, seen_text
from backend_core.verifications.matching import ElementQuery, label_shown, state_holds
from shared.commands import P, command
from shared.errors import RequestError

log = logging.getLogger(__name__)

# A UI dump takes a second or more on a real device: look again at once rather than sleeping long.
POLL_INTERVAL_S = 0.2


class UiElementVerifier(VerificationController):
    """Checks native UI elements, reading the hierarchy from *source*."""

    verifier_type = "element"

    def __init__(self, source: Callable[[], UiTree], screen: ScreenController | None, origin: str) -> None:
        self.source = source
        self.screen = screen
        self.origin = origin  # "uiautomator dump" or "Appium page source", for messages

    @command("Check that a UI element is on screen (present=true) or not (present=false): by its text or "
             "description, role, selector or row; optionally in a state (checked, disabled…) or exactly count times",
             P("text", description="text, content-desc or field value of the element"),
             ROLE_PARAM, P("selector", description=SELECTOR_HELP), ROW_PARAM, LABEL_PARAM, *CHECK_PARAMS)
    def wait_for_element(self, text: str = "", role: str = "", selector: str = "", row: str = "",
                         label: str = "", present: bool = True, state: str = "", count: int = -1,
                         exact: bool = False, timeout: float = 5.0) -> str:
        if not (text or role or selector or row):
            raise RequestError("wait_for_element: name the element (text, role, selector or row)")
        query = ElementQuery(text, role, row, state, exact, label)
        expected = describe_check(query, selector, present, count)

        def probe() -> tuple[bool, str]:
            tree = self.source()
            subset = None
            if selector:
                chosen = {id(e) for e in tree.find(selector=selector)}
                subset = [e for e in tree.elements if id(e) in chosen]
            obs = observe_tree(tree, "native", only=subset)
            if label and not label_shown(label, obs.elements):   # no such label: nothing is proved either way
                return False, f"no label {label!r} is shown in the {self.origin}"
            candidates = query.candidates(obs.elements)
            found = [e for e in candidates if state_holds(e, query.state)]
            seen = seen_text(found, candidates, list(obs.elements), query.role)
            return evaluate_check(found, present, count), f"{seen} in the {self.origin}"

        seen = verify(probe, timeout=timeout, expected=expected, screen=self.screen, interval=POLL_INTERVAL_S)
        return f"{expected}: {seen}"

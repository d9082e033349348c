"""The one command vocabulary: canonical command names, and the old names they replace.

Every controller declares its commands under these names (snake_case), and
planners build plans from these constants, never from string formatting.
Checks take one ``present`` parameter instead of Appear/Disappear twins.

Element targets share one set of parameters on every controller that can
find elements (web, Android, Appium): ``text`` (the element's accessible name,
visible text, label or placeholder, resolved in that order at run time),
``role`` (button, link, textbox, checkbox, combobox, tab, …; see
:mod:`shared.screen`), ``selector`` (a CSS selector, or the platform's own),
``row`` (text of the row or list item that contains the target: "the delete
button of buy milk"), and ``index`` (which match; 0 = first, -1 = last).

Plans, trees and test cases written with the old names still load:
:func:`canonical` maps them, and says so once per name in the log.
"""
from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

# -- actions ---------------------------------------------------------------------------
GOTO = "goto"
PRESS_KEY = "press_key"
PRESS_SHORTCUT = "press_shortcut"       # keyboard chords: "Control+A", "Shift+Tab"
INPUT_TEXT = "input_text"               # text, field (label/placeholder/name), clear, submit
CLICK = "click_element"
CLICK_UNTIL = "click_until"
DOUBLE_CLICK = "double_click"
HOVER = "hover"
SCROLL = "scroll"
SCROLL_TO = "scroll_to"
SELECT_OPTION = "select_option"         # option, field
SET_CHECKED = "set_checked"             # checked: bool + target
GO_BACK = "go_back"
RELOAD = "reload"
OPEN_URL = "navigate_to_url"
TAP = "tap"
DUMP_ELEMENTS = "dump_elements"

# -- checks ------------------------------------------------------------------------------
WAIT_FOR_ELEMENT = "wait_for_element"   # target + present, optional state / count
WAIT_FOR_TEXT = "wait_for_text"         # OCR: text + present (+ area)
WAIT_FOR_IMAGE = "wait_for_image"       # template match: reference + present (+ area)
WAIT_FOR_PAGE = "wait_for_page"         # web: title / url / heading names the screen

# Element states a check may ask for (``state`` parameter of wait_for_element).
STATES = ("", "checked", "unchecked", "enabled", "disabled", "focused", "selected")

# old name -> (canonical name, params to add)
DEPRECATED: dict[str, tuple[str, dict[str, Any]]] = {
    "waitForElementToAppear": (WAIT_FOR_ELEMENT, {"present": True}),
    "waitForElementToDisappear": (WAIT_FOR_ELEMENT, {"present": False}),
    "waitForTextToAppear": (WAIT_FOR_TEXT, {"present": True}),
    "waitForTextToDisappear": (WAIT_FOR_TEXT, {"present": False}),
    "waitForImageToAppear": (WAIT_FOR_IMAGE, {"present": True}),
    "waitForImageToDisappear": (WAIT_FOR_IMAGE, {"present": False}),
}

_warned: set[str] = set()


def canonical(command: str, params: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The canonical name and parameters for *command*; old names are mapped with a deprecation warning."""
    params = dict(params or {})
    mapped = DEPRECATED.get(command)
    if mapped is None:
        return command, params
    name, extra = mapped
    if command not in _warned:
        _warned.add(command)
        log.warning("command %r is deprecated: use %r with %s", command, name,
                    ", ".join(f"{k}={v!r}" for k, v in extra.items()))
    return name, {**params, **extra}

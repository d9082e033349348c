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
SET_SLIDER = "set_slider"               # value, field
GO_BACK = "go_back"
RELOAD = "reload"
OPEN_URL = "navigate_to_url"
TAP = "tap"
DUMP_ELEMENTS = "dump_elements"
SORT_TABLE = "sort_table"               # column, order (ascending / descending / any): header clicks until it reads so

# -- checks ------------------------------------------------------------------------------
WAIT_FOR_ELEMENT = "wait_for_element"   # target + present, optional state / count
WAIT_FOR_TEXT = "wait_for_text"         # OCR: text + present (+ area)
WAIT_FOR_IMAGE = "wait_for_image"       # template match: reference + present (+ area)
WAIT_FOR_PAGE = "wait_for_page"         # web: title / url / heading names the screen
CHECK_SORTED = "check_sorted"           # web: a table column's values run in an order
WAIT_FOR_IMAGE_THEN_GONE = "wait_for_image_then_gone"   # a popup / banner / spinner shows, then goes
WAIT_FOR_MOTION = "wait_for_motion"     # video: the picture moves
WAIT_FOR_FREEZE = "wait_for_freeze"     # video: the picture stays still
WAIT_FOR_BLACK_SCREEN = "wait_for_black_screen"   # video: black (present) or a picture (present=false)

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
    "waitForImageToAppearThenDisappear": (WAIT_FOR_IMAGE_THEN_GONE, {}),
    "waitForMotion": (WAIT_FOR_MOTION, {}),
    "waitForFreeze": (WAIT_FOR_FREEZE, {}),
    "waitForBlackScreen": (WAIT_FOR_BLACK_SCREEN, {"present": True}),
    "waitForBlackScreenToDisappear": (WAIT_FOR_BLACK_SCREEN, {"present": False}),
}

# old name -> {old parameter: new parameter}, for parameters renamed with the command
RENAMED_PARAMS: dict[str, dict[str, str]] = {
    "waitForImageToAppear": {"image": "reference"},
    "waitForImageToDisappear": {"image": "reference"},
    "waitForImageToAppearThenDisappear": {"image": "reference"},
}

_warned: set[str] = set()


def canonical(command: str, params: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The canonical name and parameters for *command*; old names are mapped with a deprecation warning."""
    params = dict(params or {})
    mapped = DEPRECATED.get(command)
    if mapped is None:
        return command, params
    name, extra = mapped
    for old, new in RENAMED_PARAMS.get(command, {}).items():
        if old in params and new not in params:
            params[new] = params.pop(old)
    if command not in _warned:
        _warned.add(command)
        log.warning("command %r is deprecated: use %r with %s", command, name,
                    ", ".join(f"{k}={v!r}" for k, v in extra.items()))
    return name, {**params, **extra}


class CommandTable(dict):  # type: ignore[type-arg]
    """A device's commands by name that also answers for old names while code still asks for them.

    ``"waitForElementToAppear" in table`` is true when ``wait_for_element`` is there, and
    ``table["waitForElementToAppear"]`` is its spec; iteration, ``keys()`` and ``values()``
    hold the canonical names only, so nothing lists an old name.
    """

    def _alias(self, key: object) -> object:
        if isinstance(key, str) and key in DEPRECATED and not dict.__contains__(self, key):
            return DEPRECATED[key][0]
        return key

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, self._alias(key))

    def __getitem__(self, key: Any) -> Any:
        return dict.__getitem__(self, self._alias(key))

    def get(self, key: Any, default: Any = None) -> Any:
        return dict.get(self, self._alias(key), default)

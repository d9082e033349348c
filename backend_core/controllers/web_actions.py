"""The actions testers use on a web page, by role, label, text, placeholder or row.

A mixin of :class:`~backend_core.controllers.web.WebRemote`: every command
names its element with the shared target parameters
(:func:`~backend_core.controllers.targets.target_params`), resolved at run
time by :mod:`backend_core.controllers.web_targets`.

Failures and errors: a target that is not on the page, or that never becomes
clickable / enabled, is a :class:`~shared.errors.DeviceFailure`; a browser or
app that cannot be reached is a :class:`~shared.errors.ControllerError` with
the browser's reason.
"""
from __future__ import annotations

import json
import logging
import re
import time
from urllib.parse import urlsplit
from typing import Any

from backend_core.controllers.browser import BrowserSession
from backend_core.controllers.targets import INDEX_PARAM, TARGET_PARAMS, Target, field_params
from backend_core.controllers.web_sorting import ORDERS, Column, SortOrder, describe, holds, read_column, wanted
from backend_core.controllers.web_observe import COLLAPSE_TOGGLE_SEL_JS, WIDGET_KITS_CSS
from backend_core.controllers.web_targets import follow_hidden_nav_link, resolve
from backend_core.wait import Timeout, WaitTimeout, wait_until
from shared.commands import P, ParamType, command
from shared.errors import DeviceFailure, RequestError

log = logging.getLogger(__name__)

ACT_TIMEOUT_MS = 3000
TOGGLE_ROLES = ("checkbox", "radio", "switch")


# Enter in a text area starts a new line: a text area of a form is sent by the form's one button that saves or sends
# (with its name, as a click sends it; never Preview or Cancel); the page's own Enter is left to any other text area
_SUBMIT_TEXTAREA = """e => {
  if (e.tagName !== 'TEXTAREA' || !e.form) return false;
  const label = b => (b.textContent || b.value || b.getAttribute('aria-label') || '').trim();
  const buttons = Array.from(e.form.querySelectorAll('button[type=submit], input[type=submit], button:not([type])'))
    .filter(b => !b.disabled && !/preview|cancel|delete|remove|draft|discard|reset|back/i.test(label(b)));
  const saying = buttons.filter(b => /save|submit|post|send|comment|reply|add|update|create|publish|ok/i.test(label(b)));
  const button = saying.length === 1 ? saying[0] : (buttons.length === 1 ? buttons[0] : null);
  if (!button) return false;
  e.form.requestSubmit(button);
  return true;
}"""


def _timeout_error() -> type[Exception]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


NAVIGATION_TIMEOUT_MS = 30000   # a page a click asked for, from a server that answers when its work is done


def _await_navigation(loc: Any) -> None:
    """The action was done and started a navigation the server is slow to answer (Supervisor's "Restart all"
    answers when every process is back): wait for the new page, so that what comes next reads it, not the old one."""
    page = loc.page
    try:
        page.wait_for_event("framenavigated", predicate=lambda frame: frame == page.main_frame,
                            timeout=NAVIGATION_TIMEOUT_MS)
        page.wait_for_load_state("load", timeout=NAVIGATION_TIMEOUT_MS)
    except _timeout_error():
        log.warning("a navigation started by an action did not arrive within %ss", NAVIGATION_TIMEOUT_MS / 1000)


# the toggle of the folded panel an element sits in (Bootstrap's collapse that only squeezes the panel to no
# height, a closed <details>): clicked, so that the element shows; false where it is in no such panel
_UNFOLD_JS = """
(el) => {
  for (let anc = el.parentElement, depth = 0; anc && depth < 12; anc = anc.parentElement, depth++) {
    if (anc.tagName === 'DETAILS' && !anc.open) { anc.open = true; return true; }
    if (!anc.id) continue;
    const id = CSS.escape(anc.id);
    const toggle = document.querySelector(COLLAPSE_TOGGLE_SEL);
    if (toggle && anc.getBoundingClientRect().height < 2) { toggle.click(); return true; }
  }
  return false;
}
""".replace("COLLAPSE_TOGGLE_SEL", COLLAPSE_TOGGLE_SEL_JS)


def _unfolded(loc: Any) -> bool:
    """The folded panel *loc* sits in, opened (see ``_UNFOLD_JS``); False where there is none."""
    try:
        if loc.evaluate(_UNFOLD_JS):
            loc.page.wait_for_timeout(600)   # the panel's opening animation
            return True
    except Exception as exc:  # gone meanwhile: the failure is reported as it was
        log.debug("could not unfold the panel of %s: %s", loc, exc)
    return False


def act(loc: Any, target: Target, verb: str, do: Any) -> None:
    """Run ``do(loc)``; a target that stays unactionable (hidden, disabled, covered) is a failure. One in a folded
    panel that squeezes it to no height (so that it counts as shown) is tried again once its panel is opened."""
    try:
        do(loc)
    except _timeout_error() as exc:
        if "action done" in str(exc):   # done; what timed out is the wait for the page it opens
            _await_navigation(loc)
            return
        if _unfolded(loc):
            act(loc, target, verb, do)
            return
        state = ""
        try:
            state = " (disabled)" if not loc.is_enabled(timeout=500) else " (not visible or covered)"
        except Exception:  # the state is only for the message
            pass
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise DeviceFailure(f"could not {verb} {target.describe()}{state}: it never became actionable "
                            f"within {ACT_TIMEOUT_MS / 1000:g}s ({first})",
                            expected=f"{target.describe()} actionable") from exc


# a native range input set as a user's drag sets it: through the value setter, then input and change events
_SET_RANGE_JS = """
(e, v) => {
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  set.call(e, String(v));
  e.dispatchEvent(new Event('input', {bubbles: true}));
  e.dispatchEvent(new Event('change', {bubbles: true}));
  return Number(e.value);
}
"""
MAX_SLIDER_KEYS = 500
# a hidden checkbox or radio with a label drawn in its place (many component kits)
_DRAWN_BY_LABEL_JS = "e => !!((e.labels && e.labels.length) || e.closest('label'))"
# where the label is drawn, in the viewport: a user's click lands there
_LABEL_POINT_JS = """
e => {
  const l = (e.labels && e.labels[0]) || e.closest('label');
  l.scrollIntoView({block: 'center'});
  const r = l.getBoundingClientRect();
  return [r.x + Math.min(r.width / 2, 24), r.y + r.height / 2];
}
"""


def _arrow_to(page: Any, loc: Any, value: float) -> float:
    """An ARIA slider moved one arrow key at a time to *value* (read back from aria-valuenow after each)."""
    def now() -> float:
        raw = loc.get_attribute("aria-valuenow")
        if raw is None:
            raise DeviceFailure("the slider says no value (aria-valuenow)", expected="a slider that tells its value")
        return float(raw)

    loc.focus()
    for _ in range(MAX_SLIDER_KEYS):
        at = now()
        if abs(at - value) < 1e-9:
            return at
        loc.press("ArrowRight" if value > at else "ArrowLeft")
        page.wait_for_timeout(20)
        after = now()
        if after == at or (after - value) * (at - value) < 0:   # it stops, or it steps past the value
            return after
    return now()


class WebActions:
    """Element actions of the web remote (mixed into WebRemote, which owns ``session``)."""

    session: BrowserSession

    def _on_target(self, target: Target, verb: str, do: Any, **resolve_kw: Any) -> str:
        def run(page: Any) -> str:
            loc = resolve(page, target, **resolve_kw)
            act(loc, target, verb, do)
            return f"{verb} {target.describe()}"

        return self.session.call(run)

    @command("Click an element: by its text/name (button, link, tab, menu item…), role, CSS selector or id; "
             "row = the row or list item it sits in",
             *TARGET_PARAMS, P("id", description="element id"))
    def click_element(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0,
                      id: str = "") -> str:
        if id:
            selector = f"[id={json.dumps(id)}]" + (f" {selector}" if selector else "")
        target = Target(text, role, selector, row, index)
        try:
            return self._on_target(target, "clicked", lambda loc: loc.click(timeout=ACT_TIMEOUT_MS))
        except DeviceFailure as exc:
            # a link of a collapsed navigation: where its click would go, when it is the one link so named and
            # nothing shown is (a link shown but disabled, covered or forbidden fails as it is)
            if not str(exc).startswith("no ") or "(found" in str(exc):
                raise
            followed = self.session.call(lambda page: follow_hidden_nav_link(page, target))
            if followed is None:
                raise
            log.info("followed %s of a collapsed navigation to %s", target.describe(), followed)
            return f"clicked {target.describe()} (a link of a collapsed navigation: followed to {followed})"

    @command("Sort a table by a column: click the column's header until the column reads in the asked order "
             "(ascending, descending, or any: sorted either way); fails if it never does",
             P("column", required=True, description="the column's header text, e.g. Price"),
             P("order", default="any", choices=ORDERS),
             P("max_clicks", ParamType.INT, default=3, minimum=1, maximum=5))
    def sort_table(self, column: str, order: str = "any", max_clicks: int = 3) -> str:
        want = SortOrder(order)

        def run(page: Any) -> str:
            last = ""
            for clicks in range(1, max_clicks + 1):
                Column.of(read_column(page, column, click=True), column)
                self.session.settle(page)
                self.session.wait_idle(page)
                shown = Column.of(read_column(page, column), column)
                last = describe(shown)
                if holds(shown, want):
                    return f"sorted by {shown.header!r} after {clicks} click(s): {last}"
            raise DeviceFailure(f"{wanted(want, column)} was not reached in {max_clicks} click(s) of its header: "
                                f"{last}", expected=wanted(want, column))

        return self.session.call(run)

    @command("Double-click an element (opens an item for editing in many lists)", *TARGET_PARAMS)
    def double_click(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0) -> str:
        target = Target(text, role, selector, row, index)
        return self._on_target(target, "double-clicked", lambda loc: loc.dblclick(timeout=ACT_TIMEOUT_MS))

    @command("Move the mouse over an element (shows menus and hover-only controls)", *TARGET_PARAMS)
    def hover(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0) -> str:
        target = Target(text, role, selector, row, index)
        return self._on_target(target, "hovered", lambda loc: loc.hover(timeout=ACT_TIMEOUT_MS))

    @command("Scroll until an element is in view", *TARGET_PARAMS)
    def scroll_to(self, text: str = "", role: str = "", selector: str = "", row: str = "", index: int = 0) -> str:
        target = Target(text, role, selector, row, index)
        return self._on_target(target, "scrolled to",
                               lambda loc: loc.scroll_into_view_if_needed(timeout=ACT_TIMEOUT_MS))

    @command("Type text into a field found by its label, placeholder or name (or the focused field). "
             "clear (default) replaces the field's text; clear=false appends; submit presses Enter after",
             P("text", required=True, description="what to type"), *field_params(),
             P("clear", ParamType.BOOL, default=True, description="replace the field's text (false: append)"),
             P("submit", ParamType.BOOL, default=False, description="press Enter after typing"))
    def input_text(self, text: str, field: str = "", selector: str = "", row: str = "", index: int = 0,
                   clear: bool = True, submit: bool = False) -> str:
        target = Target(field, "", selector, row, index)

        def type_in(page: Any) -> str:
            if target.empty:
                loc = page.locator("*:focus")
                waited = 0
                while (loc.count() == 0 or not _editable(loc)) and waited < FOCUS_WAIT_MS \
                        and page.locator("input:visible, textarea:visible, [contenteditable=true]:visible").count():
                    page.wait_for_timeout(50)   # an editor a double-click opened takes its focus a moment later
                    waited += 50
                if loc.count() == 0 or not _editable(loc):
                    # no focused field: the page listens to the keyboard itself (TV-style apps)
                    page.keyboard.type(text, delay=15)
                    if submit:
                        page.keyboard.press("Enter")
                    return f"typed {text!r}" + (" and submitted" if submit else "")
                where = "the focused field"
            else:
                loc = resolve(page, target, fields=True)
                where = target.describe("field")
            act(loc, target, "type into", lambda l: _type(page, l, text, clear))
            if submit and not loc.evaluate(_SUBMIT_TEXTAREA):
                loc.press("Enter", timeout=ACT_TIMEOUT_MS)
            return (f"typed {text!r} into {where}" + ("" if clear else " (appended)")
                    + (" and submitted" if submit else ""))

        return self.session.call(type_in)

    @command("Choose an option of a dropdown (a native select or an ARIA combobox / listbox) by its text",
             P("option", required=True, description="the option's text (or value)"),
             *field_params()[:2], INDEX_PARAM)
    def select_option(self, option: str, field: str = "", selector: str = "", index: int = 0) -> str:
        target = Target(field, "", selector, "", index)

        def choose(page: Any) -> str:
            # a <select> a widget kit hides and draws itself (what its label finds is a part of the kit)
            chosen = _through_widget(page, field, option) if field and not selector else None
            if chosen is not None:
                return f"selected {chosen!r} in {field!r} (through the widget that draws it)"
            loc = _dropdown(page, target, option)
            tag = loc.evaluate("e => e.tagName")
            if tag == "SELECT":
                label = _native_option(loc, option)
                act(loc, target, "select in", lambda l: l.select_option(label=label, timeout=ACT_TIMEOUT_MS))
                return f"selected {label!r}" + (f" in {field!r}" if field else "")
            act(loc, target, "open", lambda l: l.click(timeout=ACT_TIMEOUT_MS))
            opt = _aria_option(page, option)
            act(opt, Target(option, "option"), "choose", lambda l: l.click(timeout=ACT_TIMEOUT_MS))
            return f"chose {option!r}" + (f" in {field!r}" if field else "")

        return self.session.call(choose)

    @command("Check or uncheck a checkbox, radio button or switch (by its label, or the one in a row)",
             P("checked", ParamType.BOOL, default=True, description="true = check, false = uncheck"),
             *TARGET_PARAMS)
    def set_checked(self, checked: bool = True, text: str = "", role: str = "", selector: str = "", row: str = "",
                    index: int = 0) -> str:
        target = Target(text, role, selector, row, index)

        def toggle(page: Any) -> str:
            loc = resolve(page, target, default_roles=TOGGLE_ROLES)
            try:
                act(loc, target, "check" if checked else "uncheck",
                    lambda l: l.set_checked(checked, timeout=ACT_TIMEOUT_MS))
            except _playwright_error() as exc:
                if "did not change its state" not in str(exc):
                    raise
                return _late_or_again(loc, target, checked)
            except DeviceFailure:
                if not loc.is_enabled() or not loc.evaluate(_DRAWN_BY_LABEL_JS):
                    raise   # a disabled box stays as it is: that is the failure to report
                # a box the page hides and draws itself (a styled radio or switch): its label is what a user clicks
                if bool(loc.is_checked()) != checked:
                    x, y = loc.evaluate(_LABEL_POINT_JS)
                    page.mouse.click(x, y)
                    self.session.settle(page)
                if bool(loc.is_checked()) != checked:
                    raise DeviceFailure(f"{target.describe()} is still {'unchecked' if checked else 'checked'} "
                                        "after a click on its label", expected="checked" if checked else "unchecked")
                return f"{'checked' if checked else 'unchecked'} {target.describe()} (by its label)"
            return f"{'checked' if checked else 'unchecked'} {target.describe()}"

        return self.session.call(toggle)

    @command("Move a slider to a value: a native range input is set, an ARIA slider is moved with its arrow keys",
             P("value", ParamType.FLOAT, required=True, description="the value to move it to"),
             *field_params()[:2], INDEX_PARAM)
    def set_slider(self, value: float, field: str = "", selector: str = "", index: int = 0) -> str:
        target = Target(field, "slider", selector, "", index)

        def move(page: Any) -> str:
            loc = resolve(page, target, default_roles=("slider",))
            if loc.evaluate("e => e.tagName === 'INPUT'"):
                got = loc.evaluate(_SET_RANGE_JS, value)
            else:
                got = _arrow_to(page, loc, value)
            if abs(float(got) - value) > 1e-9:
                raise DeviceFailure(f"{target.describe('slider')} stops at {got}, not {value:g} (its steps or range)",
                                    expected=f"the slider at {value:g}")
            return f"moved {target.describe('slider')} to {value:g}"

        return self.session.call(move)

    @command("Go back to the previous page (the browser's Back)")
    def go_back(self) -> str:
        def back(page: Any) -> str:
            before = page.url
            page.go_back(wait_until="load")
            if page.url == before:
                raise DeviceFailure(f"there is no previous page to go back to from {before}",
                                    expected="a previous page in the history")
            if urlsplit(page.url)[:2] != urlsplit(before)[:2]:
                raise DeviceFailure(f"going back left the app: from {before} to {page.url or 'an empty page'}",
                                    expected="a previous page of the app")
            return f"went back to {page.url}"

        return self.session.call(back)

    @command("Reload the current page")
    def reload(self) -> str:
        return self.session.call(lambda page: (page.reload(wait_until="load"), f"reloaded {page.url}")[1])

    @command("Press a keyboard shortcut: a chord in Playwright syntax, e.g. Control+A, Shift+Tab, Meta+K, "
             "Escape; several separated by spaces are pressed in turn",
             P("keys", required=True, description="e.g. Control+A, Control+Shift+P, Escape"))
    def press_shortcut(self, keys: str) -> str:
        chords = keys.split()
        if not chords:
            raise RequestError("press_shortcut: give keys such as Control+A")

        def press(page: Any) -> None:
            from playwright.sync_api import Error as PlaywrightError

            for chord in chords:
                try:
                    page.keyboard.press(chord)
                except PlaywrightError as exc:
                    for modifier in ("Control", "Shift", "Alt", "Meta"):  # a failed chord leaves them held
                        page.keyboard.up(modifier)
                    if "Unknown key" in str(exc):
                        raise RequestError(f"press_shortcut: unknown key in {chord!r}; use names such as "
                                           "Control, Shift, Alt, Meta, Enter, Escape, Tab, ArrowUp, A-Z") from None
                    raise

        self.session.call(press)
        return f"pressed {keys}"



def _playwright_error() -> type[Exception]:
    from playwright.sync_api import Error as PlaywrightError

    return PlaywrightError


def _late_or_again(loc: Any, target: Target, checked: bool) -> str:
    """A click on a box that did not change it at once: a kit that shows the change once its server echoes it
    (NiceGUI) shows it late; a click while its panel still slid in (a tab's transition) landed beside it, and
    one more, on the box at rest, does it. Else the box stays as it was: that is the failure."""
    said = f"{'checked' if checked else 'unchecked'} {target.describe()}"
    if _comes_to(loc, checked):
        return f"{said} (shown late)"
    if loc.is_enabled(timeout=ACT_TIMEOUT_MS):
        act(loc, target, "click", lambda l: l.click(timeout=ACT_TIMEOUT_MS))
        # and stays so: the first click's echo, only slow, would undo the second
        if _comes_to(loc, checked) and not _comes_to(loc, not checked, seconds=1.0):
            return f"{said} (on a second click)"
    raise DeviceFailure(f"{target.describe()} is still {'unchecked' if checked else 'checked'} after two clicks",
                        expected="checked" if checked else "unchecked")


def _comes_to(loc: Any, checked: bool, seconds: float = 2.0) -> bool:
    """*loc* shows *checked* within *seconds* of a click that did not change it at once."""
    try:
        wait_until(lambda: (bool(loc.is_checked(timeout=ACT_TIMEOUT_MS)) == checked, None),
                   Timeout(seconds, 0.1), what="the box to show its new state")
        return True
    except WaitTimeout:
        return False


def _editable(loc: Any) -> bool:
    return bool(loc.first.evaluate("e => e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' || e.isContentEditable"))


# A box that turns what is typed into tokens or picks from suggestions (select2, Tagify, Choices, an ARIA
# combobox): what was typed is only a query until the suggestion is taken.
_SUGGESTING_JS = """e => {
  if (e.getAttribute('role') === 'combobox' || e.hasAttribute('aria-autocomplete') || e.hasAttribute('list')) return true;
  for (let n = e, i = 0; n && i < 4; n = n.parentElement, i++) {
    if (/select2|tagify|\\btags?\\b|token|chips?\\b|choices|selectize|typeahead|autocomplete/i.test(String(n.className || '')))
      return true;
  }
  return false;
}"""
# the suggestion the box has picked out (aria-activedescendant, or a highlighted option of its open list)
_PICKED_JS = """e => {
  const id = e.getAttribute('aria-activedescendant');
  const own = id && document.getElementById(id);
  const shown = n => n && n.getClientRects().length > 0;
  if (shown(own)) return own.textContent.trim();
  const hi = [...document.querySelectorAll('[role=option][aria-selected=true], .select2-highlighted, '
    + '.tagify__dropdown__item--active, .is-highlighted, .active-result.highlighted')].find(shown);
  return hi ? hi.textContent.trim() : null;
}"""
COMMIT_WAIT_MS = 800


_VALUE_JS = "e => typeof e.value === 'string' ? e.value : null"
FOCUS_WAIT_MS = 500   # how long a field may take to get the focus after the step that opened it


def _type(page: Any, loc: Any, text: str, clear: bool) -> None:
    """Type *text* into *loc*, replacing what it holds unless *clear* is false. A box that still holds its old text
    before the new one (a framework that refilled it as it was focused) is cleared and typed again; if it still
    does, that is the device's failure, not a pass on "old text + new text"."""
    field = clear and _editable(loc)   # a control that opens a field elsewhere (a TV's Search tile) is not read back
    _type_once(page, loc, text, clear)
    if not field:
        return
    try:
        held = loc.first.evaluate(_VALUE_JS, timeout=ACT_TIMEOUT_MS)
        if held is None or held == text or not held.endswith(text) or loc.first.evaluate(_SUGGESTING_JS):
            return
    except _playwright_error() as exc:   # the typing sent the form, and the field went with its page
        log.debug("the field is gone after typing: %s", exc)
        return
    log.info("the field holds %r after typing %r over it: clearing it and typing again", held, text)
    loc.click(timeout=ACT_TIMEOUT_MS)
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.press("Backspace")
    page.keyboard.type(text, delay=10)
    held = loc.first.evaluate(_VALUE_JS)
    if held is not None and held != text and held.endswith(text):
        raise DeviceFailure(f"the field holds {held!r} after {text!r} was typed over its text: its old text stayed",
                            expected=text)


# a command line that reads its keys one by one (a readline, a terminal): what fill() sets, it never sees
_KEYS_READ_JS = "e => /(readline|terminal|xterm|console|repl|cli-input)/i.test([e.id, e.className, e.name].join(' '))"


def _type_once(page: Any, loc: Any, text: str, clear: bool) -> None:
    if _editable(loc) and loc.first.evaluate(_KEYS_READ_JS):
        loc.click(timeout=ACT_TIMEOUT_MS)
        if clear:
            page.keyboard.press("ControlOrMeta+A")
            page.keyboard.press("Backspace")
        page.keyboard.type(text, delay=10)
        return
    if clear and _editable(loc):
        if loc.first.evaluate(_SUGGESTING_JS):
            # "recipes, soup" in a tags box: each one typed, then its suggestion taken
            for part in [p.strip() for p in text.split(",") if p.strip()] or [text]:
                loc.fill(part, timeout=ACT_TIMEOUT_MS)
                _take_suggestion(page, loc, part)
            return
        loc.fill(text, timeout=ACT_TIMEOUT_MS)
        return
    loc.click(timeout=ACT_TIMEOUT_MS)  # a code editor or custom widget: focus it and use the keyboard
    if clear:
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.press("Delete")
    else:
        moved = loc.evaluate("e => { if (typeof e.value === 'string' && e.setSelectionRange) {"
                             " e.setSelectionRange(e.value.length, e.value.length); return true; } return false; }")
        if not moved:
            page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type(text, delay=10)


def _take_suggestion(page: Any, loc: Any, typed: str) -> None:
    """Press Enter once the box offers exactly what was typed, so it becomes the value (or its token); a box
    that offers nothing by then keeps the text as typed."""
    want = typed.strip().casefold()
    waited = 0
    while waited <= COMMIT_WAIT_MS:
        picked = loc.first.evaluate(_PICKED_JS)
        if picked is not None and picked.casefold() == want:
            loc.first.press("Enter", timeout=ACT_TIMEOUT_MS)
            log.debug("took the suggestion %r", picked)
            return
        page.wait_for_timeout(50)
        waited += 50
    log.debug("no suggestion matched %r: left as typed", typed)


def _dropdown(page: Any, target: Target, option: str) -> Any:
    """The dropdown *target* names; with no name, the one that offers *option*."""
    if not target.empty:
        loc = resolve(page, target, fields=True)
        inner = loc.locator("select").filter(visible=True)
        return inner.first if inner.count() == 1 else loc  # a labelled wrapper around one native select
    selects = page.locator("select").filter(visible=True)
    want = option.strip().casefold()
    for i in range(selects.count()):
        offered = selects.nth(i).evaluate(
            "s => Array.from(s.options).flatMap(o => [(o.label || o.text).trim(), o.value])")
        if any(want == o.casefold() for o in offered):
            return selects.nth(i)
    if selects.count() == 1:
        return selects.first
    combos = page.get_by_role("combobox").filter(visible=True)
    if combos.count() == 1:
        return combos.first
    raise DeviceFailure(f"no dropdown offers {option!r}; name the field", expected=f"a dropdown with {option!r}")


# the one <select> named *field* that a widget kit hides and draws itself: *option* (its label, else its value)
# chosen in it, and the kit told it changed; null when there is no such select or no such option
_WIDGET_SELECT_JS = """([field, option]) => {
  const squash = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const bare = (s) => squash(s).replace(/[\\s*:]+$/, '');
  const shown = (el) => el.checkVisibility ? el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
    : !!el.offsetParent;
  const want = bare(field);
  const found = Array.from(document.querySelectorAll('select')).filter(s => {
    if (shown(s)) return false;
    const drawn = [s.nextElementSibling, s.previousElementSibling, s.parentElement]
      .some(w => w && w.matches('WIDGET_KITS') && shown(w));
    const names = Array.from(s.labels || []).map(l => bare(l.textContent))
      .concat([squash(s.getAttribute('aria-label')), squash(s.name), squash(s.id)]);
    return drawn && names.includes(want);
  });
  if (found.length !== 1) return null;
  const s = found[0];
  const label = (o) => (o.label || o.text).trim();
  const opts = Array.from(s.options);
  const opt = opts.find(o => squash(label(o)) === squash(option)) || opts.find(o => squash(o.value) === squash(option));
  if (!opt) return null;
  s.value = opt.value;
  opt.selected = true;
  s.dispatchEvent(new Event('input', {bubbles: true}));
  s.dispatchEvent(new Event('change', {bubbles: true}));
  if (window.jQuery) window.jQuery(s).trigger('change');   // a kit that listens through jQuery
  return label(opt);
}""".replace("WIDGET_KITS", WIDGET_KITS_CSS)


def _through_widget(page: Any, field: str, option: str) -> str | None:
    """A <select> a widget kit hides and draws itself (Select2, Chosen, Tom Select), named *field*: *option* is
    chosen in the select itself and the kit is told it changed, as the kit does when a person picks it. None when
    there is no such select, or it offers no such option."""
    return page.evaluate(_WIDGET_SELECT_JS, [field, option])


def _native_option(select: Any, option: str) -> str:
    """The label of the <option> matching *option* by label, then value, then containment (case-insensitive).
    Options a page fills in after another choice (a case's categories, loaded once its product is chosen) are
    waited for, up to the action's timeout."""
    deadline = time.monotonic() + ACT_TIMEOUT_MS / 1000
    while True:
        opts: list[dict[str, str]] = select.evaluate(
            "s => Array.from(s.options).map(o => ({label: (o.label || o.text).trim(), value: o.value}))")
        found = _matching_option(opts, option)
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            break
        select.page.wait_for_timeout(100)
    raise DeviceFailure(f"the dropdown has no option {option!r}; options: "
                        + ", ".join(repr(o["label"]) for o in opts[:12]), expected=f"option {option!r}")


def _matching_option(opts: list[dict[str, str]], option: str) -> str | None:
    want = option.strip().casefold()
    for key in ("label", "value"):
        for o in opts:
            if o[key].casefold() == want:
                return o["label"]
    partial = [o for o in opts if re.search(rf"(?<!\w){re.escape(want)}(?!\w)", o["label"].casefold())]
    return partial[0]["label"] if len(partial) == 1 else None


def _aria_option(page: Any, option: str) -> Any:
    for exact in (True, False):
        loc = page.get_by_role("option", name=option, exact=exact).filter(visible=True)
        try:
            loc.first.wait_for(state="visible", timeout=ACT_TIMEOUT_MS if exact else 300)
        except _timeout_error():
            continue
        return loc.first
    shown = page.get_by_role("option").filter(visible=True).all_inner_texts()
    raise DeviceFailure(f"the open list has no option {option!r}; options: "
                        + (", ".join(repr(t.strip()) for t in shown[:12]) or "none shown"),
                        expected=f"option {option!r}")


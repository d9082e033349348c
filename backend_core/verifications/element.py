"""Checks on a web page's DOM: an element is (or is not) shown, in a state, N times; the page is a named screen.

``wait_for_element`` reads the page as a :class:`~shared.screen.ScreenObservation`
(one DOM walk per look) and matches text against each element's accessible
name, visible text and field value; with ``selector`` it looks at the elements
that CSS selector matches instead. ``wait_for_page`` passes when the title, a
main heading (h1–h3), the URL, or the selected tab / current navigation item
names the screen; a mere link with that text does not.
"""
from __future__ import annotations

import logging
import re
import time
from typing import Callable

from backend_core.controllers.base import VerificationController
from backend_core.controllers.browser import STILL_AFTER_S, BrowserSession
from backend_core.controllers.targets import LABEL_PARAM, ROLE_PARAM, ROW_PARAM
from backend_core.controllers.web_sorting import ORDERS, Column, SortOrder, describe, holds, read_column, wanted
from backend_core.controllers.web import WebScreen
from backend_core.controllers.web_observe import SHOWN_TEXT_JS, observe_page
from backend_core.verifications.common import verify
from backend_core.verifications.matching import ElementQuery, label_shown, page_names, state_holds, summary, where
from shared.commands import P, ParamType, command
from shared.errors import RequestError
from shared.screen import ScreenObservation, UIElement
from shared.vocabulary import STATES

log = logging.getLogger(__name__)

CHECK_MAX_ELEMENTS = 4000  # checks read further down a page than the planners' 1500
TIMEOUT_PARAM = P("timeout", ParamType.FLOAT, default=5.0, minimum=0, maximum=120, description="seconds")
PRESENT_PARAM = P("present", ParamType.BOOL, default=True, description="true = must be shown, false = must not be")
# the check's own parameters, after the target: shared by the DOM and the native element verifiers
CHECK_PARAMS = (
    PRESENT_PARAM,
    P("state", default="", choices=STATES, description="checked, unchecked, enabled, disabled, focused or selected"),
    P("count", ParamType.INT, default=-1, minimum=-1, maximum=10000,
      description="exactly this many matches shown (\"3 items\"); -1 = at least one"),
    P("exact", ParamType.BOOL, default=False, description="text equals the whole name/text/value, not words in it"),
    TIMEOUT_PARAM,
)

_SELECTOR_JS = r"""
([sel, needle]) => {
  SHOWN_TEXT
  let nodes;
  try { nodes = Array.from(document.querySelectorAll(sel)); } catch (e) { return {error: String(e.message || e)}; }
  const squash = (s) => (s || '').replace(/\s+/g, ' ').trim();
  if (needle) {  // only elements that themselves show the text: own text, a field's value, an aria-label
    const has = (s) => (s || '').toLowerCase().includes(needle);
    nodes = nodes.filter(el => has(Array.from(el.childNodes).filter(c => c.nodeType === 3).map(c => c.textContent)
      .join(' ')) || (typeof el.value === 'string' && has(el.value)) || has(el.getAttribute('aria-label')));
  }
  const out = [];
  for (const el of nodes.slice(0, 200)) {
    const r = el.getBoundingClientRect();
    const shown = (!el.checkVisibility || el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
                  && r.width > 0 && r.height > 0;
    if (!shown) continue;
    const e = {role: el.getAttribute('role') || el.tagName.toLowerCase(), name: squash(el.getAttribute('aria-label')),
               text: squash(shownText(el)).slice(0, 500)};
    // an icon that says it, as the planners' observation names it: its alt, or a cell's lone icon ("False")
    if (!e.name && el.tagName === 'IMG') e.name = squash(el.getAttribute('alt'));
    if (!e.name && !e.text) e.name = squash(Array.from(el.querySelectorAll('img[alt]')).map(i => i.getAttribute('alt'))
      .join(' ')) || squash(el.getAttribute('title'));
    // a password box's text is never read out, not even into a failure's message
    if (typeof el.value === 'string' && ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))
      e.value = el.type === 'password' ? (el.value ? '••••' : '') : el.value;
    if (el.type === 'checkbox' || el.type === 'radio') e.checked = el.checked;
    else if (el.hasAttribute('aria-checked')) e.checked = el.getAttribute('aria-checked') === 'true';
    if (el.hasAttribute('aria-selected')) e.selected = el.getAttribute('aria-selected') === 'true';
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') e.disabled = true;
    if (el === document.activeElement) e.focused = true;
    const row = el.parentElement && el.parentElement.closest('li, tr, [role=row], [role=listitem], article');
    if (row) e.container = squash(shownText(row)).slice(0, 200);
    out.push(e);
  }
  return {elements: out};
}
""".replace("SHOWN_TEXT", SHOWN_TEXT_JS)


def evaluate_check(found: list[UIElement], present: bool, count: int) -> bool:
    """Whether the matches satisfy the check: shown (or not), or exactly *count* of them (or not)."""
    holds = len(found) == count if count >= 0 else bool(found)
    return holds == present


def describe_check(query: ElementQuery, selector: str, present: bool, count: int) -> str:
    what = query.describe() + (f" matching {selector}" if selector else "")
    if count >= 0:
        return f"{'exactly' if present else 'not exactly'} {count} × {what}"
    return what + (" shown" if present else " not shown")


def seen_text(found: list[UIElement], candidates: list[UIElement], shown: list[UIElement], role: str = "") -> str:
    """What a look saw, for the step's message or the failure: the matches, or what is on screen instead."""
    if found:
        return f"{len(found)} match(es): " + ", ".join(summary(e) for e in found[:5])
    if candidates:
        return "only in another state: " + ", ".join(summary(e) for e in candidates[:5])
    of_role = [e for e in shown if e.role == role] if role else []
    labels = list(dict.fromkeys(e.label for e in (of_role or shown) if e.label and not e.hidden))
    more = f", … ({len(labels)} in all)" if len(labels) > 10 else ""
    return "no match; on screen: " + (", ".join(repr(x[:40]) for x in labels[:10]) + more if labels else "nothing")



# a text said as "Label: Value" ("Subtitles: On", "Status: Paid")
_LABEL_VALUE = re.compile(r"^\s*(?P<l>[^:]{1,40}?)\s*:\s+(?P<v>\S[^:]{0,60})$")

class DomVerifier(VerificationController):
    """Checks what a web page shows, by role, text, row, state and count; and which page it is."""

    verifier_type = "element"

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self.screen = WebScreen(session)

    def _loading(self) -> bool:
        """The page's next document is still being fetched (a form was sent; its server takes its time)."""
        return bool(self.session.call(self.session.loading, reads=True))

    def _settled(self, timeout: float) -> Callable[[], bool] | None:
        """For a check that waits at most the default time: true once the page has been still, with nothing
        loading, for :data:`STILL_AFTER_S` (or the device's ``settle_ms``) since the check began, so what it
        waits for will not come by itself. A longer timeout the plan asked for is waited in full (a result
        pushed over a socket, a recording that ends)."""
        if timeout > TIMEOUT_PARAM.default:
            return None
        began = time.monotonic()
        after = max(STILL_AFTER_S, self.session.options.settle_ms / 1000)
        watching = False

        def settled() -> bool:
            nonlocal watching
            if not watching:   # the first look that did not hold: start watching the page for changes
                watching = True
                self.session.call(self.session.still_for, reads=True)
            if time.monotonic() - began < after:
                return False
            return self.session.call(self.session.still_for, reads=True) >= after

        return settled

    def _elements(self, selector: str, text: str = "", needle: bool = False) -> tuple[list[UIElement], bool]:
        """The elements a check reads, and whether a modal dialog hid the page behind them."""
        if not selector:
            obs = self.session.call(lambda page: observe_page(page, CHECK_MAX_ELEMENTS), reads=True)
            if obs.truncated and text:
                # a huge page: what lies past the cap must still count, or "X is not shown" could pass falsely
                extra, _ = self._elements("body :not(script):not(style)", text, needle=True)
                return list(obs.elements) + extra, obs.modal
            return list(obs.elements), obs.modal
        wanted = text.casefold() if needle else ""
        raw = self.session.call(lambda page: page.evaluate(_SELECTOR_JS, [selector, wanted]), reads=True)
        if "error" in raw:
            raise RequestError(f"selector {selector!r} is not valid CSS: {raw['error']}")
        return [UIElement.from_dict(e) for e in raw["elements"]], False

    @command("Check that an element is shown (present=true) or not shown (present=false): by its text "
             "(name, visible text or a field's value), role, CSS selector or row; optionally in a state "
             "(checked, disabled…) or exactly count times",
             P("text", description="text the element shows: accessible name, visible text or field value"),
             ROLE_PARAM, P("selector", description="CSS selector"), ROW_PARAM, LABEL_PARAM, *CHECK_PARAMS)
    def wait_for_element(self, text: str = "", role: str = "", selector: str = "", row: str = "",
                         label: str = "", present: bool = True, state: str = "", count: int = -1,
                         exact: bool = False, timeout: float = 5.0) -> str:
        if not (text or role or selector or row):
            raise RequestError("wait_for_element: name the element (text, role, selector or row)")
        query = ElementQuery(text, role, row, state, exact, label)
        expected = describe_check(query, selector, present, count)

        def probe() -> tuple[bool, str]:
            elements, behind_modal = self._elements(selector, text)
            if text and count < 0 and not selector:
                # "3 items left" written as <strong>3</strong> <span>items</span> <span>left</span>: one line
                elements += ScreenObservation("web", elements=tuple(elements)).line_elements()
            if label and not label_shown(label, elements):   # no such label: nothing is proved either way
                return False, f"no label {label!r} is shown"
            candidates = query.candidates(elements)
            found = [e for e in candidates if state_holds(e, query.state)]
            held = evaluate_check(found, present, count)
            said = _LABEL_VALUE.match(text) if present and count < 0 and not found and not label else None
            if said and label_shown(said.group("l"), elements):
                # "Subtitles: On" drawn as a label and its value ("Subtitles" then "On"): the value after the label
                paired = ElementQuery(said.group("v"), role, row, state, exact, said.group("l")).candidates(elements)
                found = [e for e in paired if state_holds(e, query.state)]
                held = evaluate_check(found, present, count)
            if held and not found and behind_modal:
                # a dialog covers the page: what is behind it is not seen, so not proved gone
                return False, "a dialog covers the page, so what is behind it cannot be seen: " + \
                    ", ".join(repr(e.label) for e in elements[:6] if e.label)
            return held, seen_text(found, candidates, elements, query.role)

        seen = verify(probe, timeout=timeout, expected=expected, screen=self.screen, settled=self._settled(timeout),
                      busy=self._loading)
        return f"{expected}: {seen}"

    @command("Check that a table is sorted by a column: its values (as numbers, else as text) run in the "
             "given order (ascending, descending, or any: either way)",
             P("column", required=True, description="the column's header text, e.g. Price"),
             P("order", default="any", choices=ORDERS), TIMEOUT_PARAM)
    def check_sorted(self, column: str, order: str = "any", timeout: float = 5.0) -> str:
        want = SortOrder(order)

        def probe() -> tuple[bool, str]:
            shown = Column.of(self.session.call(lambda page: read_column(page, column), reads=True), column)
            return holds(shown, want), describe(shown)

        expected = wanted(want, column)
        seen = verify(probe, timeout=timeout, expected=expected, screen=self.screen, settled=self._settled(timeout),
                      busy=self._loading)
        return f"{expected}: {seen}"

    @command("Check that the page IS the named screen (present=true) or is not (present=false): its title, a main "
             "heading (h1-h3), its URL, or the selected tab / current navigation item names it; a link is not enough",
             P("name", required=True, description="the screen's name, e.g. Settings, Classes, Checkout"),
             PRESENT_PARAM, TIMEOUT_PARAM)
    def wait_for_page(self, name: str, present: bool = True, timeout: float = 5.0) -> str:
        def probe() -> tuple[bool, str]:
            obs: ScreenObservation = self.session.call(observe_page, reads=True)
            why = page_names(obs, name)
            return bool(why) == present, (f"named by {why}" if why else where(obs))

        expected = f"the {name!r} page" + ("" if present else " not") + " shown"
        seen = verify(probe, timeout=timeout, expected=expected, screen=self.screen, settled=self._settled(timeout),
                      busy=self._loading)
        return f"{expected}: {seen}"

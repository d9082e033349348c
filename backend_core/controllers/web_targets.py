"""Resolving a :class:`~backend_core.controllers.targets.Target` to a Playwright locator, at run time.

``text`` is tried as, in order: role + accessible name (``get_by_role``), the
label of a field, its placeholder, visible text, title / alt text, and last
the words of ids, classes, test ids, names and aria-labels ("delete" also
finds ``button.destroy``). The first strategy with a visible match wins.
With ``row``, the innermost row / list item / card showing that text is found
and hovered first (so hover-only controls appear), and the target is looked
for inside it. An item of a closed menu opens its menu first; a field or control
on a tab that is not selected (a settings page's other tab, an editor's
"Promote") selects that tab first. Nothing found is a
:class:`~shared.errors.DeviceFailure` that lists what the page does show.
"""
from __future__ import annotations

import json
import logging
import re
from typing import Any, Callable
from urllib.parse import urlsplit

from backend_core.controllers.targets import Target, candidates
from backend_core.controllers.web_observe import CLASS_TAB_CSS, COLLAPSE_TOGGLE_SEL_JS, DISCLOSER_CSS, KIT_BUTTON_CSS, \
    LAYOUT_LABEL_JS, POPUP_PICKER_CSS, TAB_OF_JS, observe_page
from backend_core.wait import Timeout, WaitTimeout, wait_until
from shared.errors import DeviceFailure, RequestError
from shared.screen import name_as_words

log = logging.getLogger(__name__)

ROW_CSS = ('li, tr, [role=row], [role=listitem], [role=option], article, [class*="card"], [class*="Card"], '
           '[class*="item"]')
# roles tried, in order, when only a name is given
NAMED_ROLES = ("button", "link", "tab", "menuitem", "checkbox", "radio", "switch", "option", "combobox",
               "textbox", "searchbox", "treeitem", "heading", "cell")
FIELD_ROLES = ("textbox", "searchbox", "spinbutton", "combobox")
# a role asked for, and the Playwright roles that count as it
ROLE_ALIASES: dict[str, tuple[str, ...]] = {
    "textbox": ("textbox", "searchbox", "spinbutton"),
    "combobox": ("combobox", "listbox"),
    "checkbox": ("checkbox", "menuitemcheckbox"),
    "switch": ("switch", "checkbox"),
    "image": ("img",),
    "text": (),
}
# words testers use for icon-only controls, and what apps call them in ids and classes
HINT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "delete": ("delete", "destroy", "remove", "trash"), "remove": ("remove", "delete", "destroy", "trash"),
    "close": ("close", "dismiss"), "edit": ("edit", "pencil"), "add": ("add", "plus", "new"),
    "search": ("search", "find"), "menu": ("menu", "hamburger"), "settings": ("settings", "gear", "cog"),
}
DEFAULT_FIND_TIMEOUT_MS = 2000
NOTHING = "devicepilot-nothing-matches"  # a tag no page has: the empty locator


def _visible(loc: Any) -> Any:
    return loc.filter(visible=True)


def _union(locs: list[Any]) -> Any:
    out = locs[0]
    for loc in locs[1:]:
        out = out.or_(loc)
    return out


def _hint_locator(scope: Any, text: str) -> Any | None:
    words = [w for w in re.split(r"[^\w]+", text.lower()) if w]
    if not words:
        return None
    attrs = ("id", "class", "data-testid", "data-test", "data-cy", "name", "aria-label", "title", "type")
    parts = []
    for word in words:
        forms = HINT_SYNONYMS.get(word, (word,))
        parts.append(":is(" + ", ".join(f'[{a}*="{f}" i]' for f in forms for a in attrs) + ")")
    return scope.locator("".join(parts))


def _role_locator(scope: Any, role: str, name: str, exact: bool = False) -> Any:
    roles = ROLE_ALIASES.get(role, (role,)) or (role,)
    kwargs: dict[str, Any] = {"name": name, "exact": exact} if name else {}
    if name and not exact:
        # the name's words as words ("encode" is not the "Encode" of "JSONEncoder()"), where some element has them
        # so; else as a part of a longer name, as before. A long name the observer cut short may end mid-word.
        words = name_as_words(name)
        root = getattr(scope, "page", scope)   # (a row's locator: the page's elements decide, as the planner's do)
        as_words = _union([root.get_by_role(r, name=words) for r in roles])  # type: ignore[arg-type]
        if as_words.count():
            kwargs = {"name": words}
    found = [scope.get_by_role(r, **kwargs) for r in roles]  # type: ignore[arg-type]
    # what the observer reads as these roles though the page gives none (see web_observe)
    if role == "combobox":
        found.append(scope.locator(POPUP_PICKER_CSS).and_(scope.get_by_role("button", **kwargs)))
    elif role == "tab":
        tabs = scope.locator(CLASS_TAB_CSS)
        found.append(tabs.filter(has_text=re.compile(rf"^\s*{re.escape(name)}\s*$", re.I)) if name else tabs)
    elif role == "button" and name:   # a label that stands for the box it hides (a CSS toggle: "View Source")
        found.append(scope.locator("label[for]").filter(has_text=re.compile(rf"^\s*{re.escape(name)}\s*$", re.I)))
        # a <span> or <div> styled as a button ("btn") with no role: the observer's button (web_observe's roleOf)
        found.append(scope.locator(KIT_BUTTON_CSS).filter(has_text=re.compile(rf"^\s*{re.escape(name)}\s*$", re.I)))
    return _union(found)


def _words_apart(text: str) -> re.Pattern[str]:
    """*text*'s words in order, with or without white space between them, and nothing else around them."""
    return re.compile(r"^\s*" + r"\s*".join(re.escape(w) for w in text.split()) + r"\s*$", re.I)


def text_strategies(scope: Any, text: str, fields: bool = False) -> list[tuple[str, Callable[[], Any]]]:
    """The ways *text* may name an element, in the order they are tried."""
    roles = FIELD_ROLES if fields else NAMED_ROLES
    found: list[tuple[str, Callable[[], Any]]] = [
        ("role+name (exact)", lambda: _union([scope.get_by_role(r, name=text, exact=True) for r in roles])),
        ("label", lambda: scope.get_by_label(text)),
        ("placeholder", lambda: scope.get_by_placeholder(text)),
        ("role+name", lambda: _union([scope.get_by_role(r, name=text) for r in roles])),
    ]
    if not fields:
        found += [("text (exact)", lambda: scope.get_by_text(text, exact=True)),
                  ("text", lambda: scope.get_by_text(text))]
        if len(text.split()) > 1:
            # a row drawn from parts with no space between them ("4" "Kids Planet" "Robo Pals" reads
            # "4Kids PlanetRobo Pals" as text): its words in order, whatever the space between them
            found.append(("text across its parts", lambda: scope.get_by_text(_words_apart(text))))
    if fields:   # a field's tooltip names it; a button's ("Find Files" over the box its dialog shows) does not
        found += [("title", lambda: scope.get_by_title(text).and_(scope.locator(_FIELD_CSS)))]
    else:
        found += [("title", lambda: scope.get_by_title(text)), ("alt text", lambda: scope.get_by_alt_text(text))]
    bare = re.sub(r"\s*\*+\s*$", "", text)
    if fields and bare and bare != text:
        # "Password confirmation *" as observed, where the label reads "Password confirmation*" (its required
        # mark drawn in a span of its own): the label that says just that, with or without its mark
        said = re.compile(rf"^\s*{re.escape(bare)}\s*\*?\s*$", re.I)
        found.append(("label without its required mark", lambda: scope.get_by_label(said)))
    if fields:
        found.append(("layout label", lambda: _layout_fields(scope, text)))
    found.append(("id/class words", lambda: _hint_fields(scope, text) if fields else _hint_locator(scope, text)))
    return found


# what can be typed into or chosen from; a wrapper named like a field ("select-wrapper filter-op") is not one
_FIELD_CSS = "input:not([type=hidden]), select, textarea, [contenteditable=''], [contenteditable=true], " \
             "[role=textbox], [role=combobox], [role=searchbox], [role=spinbutton]"


_LAYOUT_FIELDS = "input:not([type=hidden]), select, textarea"
_LAYOUT_FIND_JS = "(text) => {" + LAYOUT_LABEL_JS + """
  const want = text.replace(/\\s+/g, ' ').trim().toLowerCase();
  const out = [];
  document.querySelectorAll('""" + _LAYOUT_FIELDS + """').forEach((el, i) => {
    if (el.labels && el.labels.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return;
    if (layoutLabel(el).toLowerCase() === want) out.push(i);
  });
  return out;
}"""


def _layout_fields(scope: Any, text: str) -> Any | None:
    """Fields with no label whose layout names them *text* (the cell before theirs, the text before them)."""
    page = getattr(scope, "page", scope)
    found = page.evaluate(_LAYOUT_FIND_JS, text)
    if not found:
        return None
    every = page.locator(_LAYOUT_FIELDS)
    return _union([every.nth(i) for i in found])


def _hint_fields(scope: Any, text: str) -> Any | None:
    """Fields whose id / class / name words match *text*; failing those, the fields inside what matches."""
    hinted = _hint_locator(scope, text)
    if hinted is None:
        return None
    fields = scope.locator(_FIELD_CSS)
    direct = hinted.and_(fields)
    return direct if _visible(direct).count() else hinted.locator(_FIELD_CSS)


def _showing(page: Any, row: str) -> Callable[[Any], Any]:
    """The filter of the rows that show *row*: a cell, link or label of the row whose text is *row* ("web" is the
    row of web, not of webhooks) or the row's own text being *row*; else *row* in the row's text; else its words in
    order with anything between.

    A row's text content runs its cells together where the markup has no space between them
    ("runningweb", "adminadmin@example.com"), and also holds what it hides (tools that show on hover, "deactivate
    edit"), which the text a tester reads ("Dan -256.48") does not.
    """
    tokens = row.split()
    if row.endswith("…") and len(tokens) > 1:   # an observation cut the row's text short: its whole words
        tokens = tokens[:-1]
        row = " ".join(tokens)
    named = page.get_by_text(row, exact=True)
    alone = re.compile(rf"^\s*{re.escape(row)}\s*$")

    def part(rows: Any) -> Any:
        return rows.filter(has=named).or_(rows.filter(has_text=alone))

    if part(page.locator(ROW_CSS)).count():
        return part
    if len(tokens) < 2 or page.locator(ROW_CSS).filter(has_text=row).count():
        return lambda rows: rows.filter(has_text=row)
    spread = re.compile(r"[\s\S]*?".join(re.escape(t) for t in tokens), re.I)
    return lambda rows: rows.filter(has_text=spread)


# A row of a list drawn with <div>s and no row's markup, as the observer reads it (web_observe's repeatedRow): the
# innermost box showing the text that is one of several siblings of its tag and first class, shows at most a few
# hundred characters and holds no field. Marked for the locator that acts on it.
_REPEATED_ROW_JS = r"""
([text, mark]) => {
  const squash = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const want = squash(text);
  const first = (c) => typeof c.className === 'string' ? c.className.trim().split(/\s+/)[0] : '';
  const FIELDS = 'input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]), select, textarea';
  const NO_ROW = new Set(['FORM', 'MAIN', 'NAV', 'HEADER', 'FOOTER', 'TABLE', 'UL', 'OL', 'BODY', 'HTML', 'DIALOG']);
  const named = (c) => squash(c.getAttribute('aria-label') || c.getAttribute('title') || c.innerText);
  const CONTROLS = 'a, button, [role=button], [role=link], [role=menuitem]';
  const rowLike = (n) => {
    const cls = first(n), p = n.parentElement;
    if (!cls || !p || NO_ROW.has(n.tagName)) return false;
    let alike = 0;
    for (const c of p.children) if (c.tagName === n.tagName && first(c) === cls) alike += 1;
    if (alike < 2 || n.querySelector(FIELDS) || (n.innerText || '').length > 400) return false;
    // a group of items, each with its own control of one name (a folder's files and their Deletes): no row
    const names = Array.from(n.querySelectorAll(CONTROLS)).filter(c => !c.querySelector(CONTROLS)).map(named);
    return new Set(names).size === names.length;
  };
  const rows = [];
  for (const n of document.body.querySelectorAll('div, section, span, p')) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height || !squash(n.innerText).includes(want) || !rowLike(n)) continue;
    rows.push(n);
  }
  const innermost = rows.filter(n => !rows.some(o => o !== n && n.contains(o)));
  // the row that starts with the text (its name) before one that only has it inside ("old_benchy.gcode" is not
  // "benchy.gcode"); two alike: none, never a guess
  const at = (n) => squash(n.innerText).indexOf(want);
  const starts = innermost.filter(n => at(n) === 0 || /[^a-z0-9_.-]/.test(squash(n.innerText)[at(n) - 1] || ' '));
  const pick = starts.length ? starts : innermost;
  document.querySelectorAll('[data-devicepilot-row]').forEach(n => n.removeAttribute('data-devicepilot-row'));
  if (pick.length !== 1) return false;
  pick[0].setAttribute('data-devicepilot-row', mark);
  return true;
}
"""


def _repeated_row(page: Any, row: str) -> Any | None:
    """The row of a list of <div>s that shows *row* (see ``_REPEATED_ROW_JS``), or None."""
    text = row[:-1].rsplit(" ", 1)[0] if row.endswith("…") and " " in row else row
    mark = "r" + str(abs(hash(text)) % 10**8)
    try:
        # (a page or a frame; a locator's evaluate runs on its element, and a scope that is one has its rows)
        found = page.evaluate(_REPEATED_ROW_JS, [text, mark]) if not hasattr(page, "first") else False
    except Exception as exc:   # a page gone mid-look: no such row
        log.debug("repeated-row lookup of %r failed: %s", row, exc)
        return None
    return page.locator(f'[data-devicepilot-row="{mark}"]').first if found else None


def _row_locator(page: Any, row: str, shows: Callable[[Any], Any] | None = None) -> Any | None:
    """The innermost visible row, list item or card that shows *row* (exactly, if one does), else a row of a list
    of <div>s that shows it, or None."""
    shows = _showing(page, row) if shows is None else shows
    rows = shows(page.locator(ROW_CSS))
    innermost = _visible(rows.filter(has_not=shows(page.locator(ROW_CSS))))
    exact = innermost.filter(has_text=re.compile(rf"^\s*{re.escape(row)}\s*$", re.I))
    chosen = exact if exact.count() else innermost
    return chosen.first if chosen.count() else _repeated_row(page, row)


MAX_ROW_CANDIDATES = 6


def _row_candidates(page: Any, row: str) -> list[Any]:
    """Rows showing *row*, the innermost first, then the rows around it (a "row" class may be on a mere label)."""
    shows = _showing(page, row)
    first = _row_locator(page, row, shows)
    if first is None:
        return []
    around = _visible(shows(page.locator(ROW_CSS)))
    n = min(around.count(), 30)
    outer = [around.nth(i) for i in range(n - 1, -1, -1)]  # document order reversed: inner before outer
    return [first] + outer[:MAX_ROW_CANDIDATES]


def _hover(row: Any, name: str) -> None:
    """The pointer over the row, near its start: its middle may be the very cell its hidden tools are in,
    which the pointer cannot land on."""
    try:
        box = row.bounding_box(timeout=DEFAULT_FIND_TIMEOUT_MS)
        if box:
            row.hover(position={"x": min(8, box["width"] / 2), "y": box["height"] / 2},
                      timeout=DEFAULT_FIND_TIMEOUT_MS)
        else:
            row.hover(timeout=DEFAULT_FIND_TIMEOUT_MS)
    except Exception as exc:  # a row that cannot be hovered is still a place to look
        log.debug("could not hover row %r: %s", name, exc)


_MENU_OPENER_JS = """(text) => {
  const want = text.replace(/\\s+/g, ' ').trim().toLowerCase();
  const said = (el) => (el.textContent || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const menus = '.dropdown-menu, .dropdown-content, [role=menu], [role=menubar], .submenu';
  // closed: not rendered, or hidden by visibility / opacity (a menu that fades in), or of no size
  const shown = (el) => {
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    if (!el.checkVisibility && el.offsetParent === null) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  for (const menu of document.querySelectorAll(menus)) {
    if (shown(menu)) continue;
    const items = Array.from(menu.querySelectorAll('a, button, [role=menuitem], [role=option], [role=link]'));
    if (!items.some(i => said(i) === want || i.getAttribute('aria-label') === text)) continue;
    let opener = null;
    const by = menu.getAttribute('aria-labelledby');
    if (by) opener = document.getElementById(by.split(/\\s+/)[0]);
    if (!opener && menu.id) opener = document.querySelector('[aria-controls="' + CSS.escape(menu.id) + '"]');
    if (!opener && menu.parentElement)
      opener = menu.parentElement.querySelector(':scope > [aria-haspopup], :scope > [data-toggle], '
                                                + ':scope > [data-bs-toggle], :scope > button, :scope > a');
    if (opener && opener !== menu && !menu.contains(opener)) {
      opener.setAttribute('data-devicepilot-opener', '1');
      return true;
    }
  }
  // a panel folded by its toggle (Bootstrap's collapse, a closed <details>): its toggle, then the item
  for (const item of document.querySelectorAll('a, button, [role=menuitem], [role=link], [role=button]')) {
    if (shown(item) || !(said(item) === want || item.getAttribute('aria-label') === text)) continue;
    for (let anc = item.parentElement, depth = 0; anc && depth < 10; anc = anc.parentElement, depth++) {
      let opener = null;
      if (anc.tagName === 'DETAILS' && !anc.open) opener = anc.querySelector(':scope > summary');
      else if (anc.id) {
        const id = CSS.escape(anc.id);
        opener = document.querySelector(COLLAPSE_TOGGLE_SEL);
      }
      if (opener && shown(opener)) {
        opener.setAttribute('data-devicepilot-opener', '1');
        return true;
      }
    }
  }
  // a panel of no menu class behind its disclosure button (a sidebar's "Settings" that shows Users, Sites…):
  // the closed item's nearest ancestor that has, beside it, a button that says it expands or pops up
  for (const item of document.querySelectorAll('a, button, [role=menuitem], [role=link]')) {
    if (shown(item) || !(said(item) === want || item.getAttribute('aria-label') === text)) continue;
    for (let anc = item.parentElement, depth = 0; anc && anc.parentElement && depth < 8; anc = anc.parentElement, depth++) {
      if (shown(anc) && anc.getBoundingClientRect().height > 0 && depth > 0) break;   // reached what is shown
      const opener = Array.from(anc.parentElement.children).find(c => c !== anc && !c.contains(item) && shown(c)
        && c.matches('DISCLOSER_CSS'));
      if (opener) {
        opener.setAttribute('data-devicepilot-opener', '1');
        return true;
      }
    }
  }
  // a nested list hidden under its item's own link (li > a + ul): a user menu, a nav bar's dropdown of no class
  for (const item of document.querySelectorAll('a, button, [role=menuitem], [role=link]')) {
    if (shown(item) || !(said(item) === want || item.getAttribute('aria-label') === text)) continue;
    const list = item.closest('ul, ol');
    const holder = list && list.parentElement;
    if (!list || shown(list) || !holder) continue;
    // the list inside the very link that opens it (a#user > ul), or beside it under one item (li > a + ul)
    const opener = holder.matches('a, button, [role=button]') && shown(holder) ? holder
      : ['LI', 'DIV', 'NAV'].includes(holder.tagName)
        ? Array.from(holder.children).find(c => c !== list && shown(c) && c.matches('a, button, [role=button]')) : null;
    if (opener) {
      opener.setAttribute('data-devicepilot-opener', '1');
      return true;
    }
  }
  return false;
}""".replace("DISCLOSER_CSS", DISCLOSER_CSS).replace("COLLAPSE_TOGGLE_SEL", COLLAPSE_TOGGLE_SEL_JS)


def _open_menu_of(page: Any, text: str) -> bool:
    """Open the closed menu (a dropdown behind its toggle) that holds an item named *text*; False if none does."""
    try:
        if not page.evaluate(_MENU_OPENER_JS, text):
            return False
        opener = page.locator("[data-devicepilot-opener]").first
        opener.click(timeout=DEFAULT_FIND_TIMEOUT_MS)
        opener.evaluate("el => el.removeAttribute('data-devicepilot-opener')")
        log.debug("opened the menu that holds %r", text)
        return True
    except Exception as exc:  # no menu opened: the search goes on as before
        log.debug("could not open a menu holding %r: %s", text, exc)
        return False


# the tab whose panel holds the element a target names, hidden because another tab is selected: marked, to be
# clicked. The element is the target's selector, else a field labelled so, else a control named so.
_TAB_OPENER_JS = """([text, selector]) => {
  const squash = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const shown = (el) => (!el.checkVisibility || el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
    && el.getBoundingClientRect().width > 0;
  TAB_OF
  const want = squash(text);
  let found = [];
  if (selector) {
    try { found = Array.from(document.querySelectorAll(selector)); } catch (e) { found = []; }
  } else if (want) {
    for (const label of document.querySelectorAll('label'))
      if (label.control && squash(label.textContent).replace(/[\\s:*]+$/, '') === want) found.push(label.control);
    for (const el of document.querySelectorAll('input, select, textarea, button, a, [role=button], [role=tab], ' +
                                               '[role=checkbox], [role=switch], [role=link]'))
      if ([el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.textContent].some(t => squash(t) === want))
        found.push(el);
  }
  for (const el of found) {
    if (shown(el)) return false;   // there already: nothing to open
    for (let anc = el.parentElement, depth = 0; anc && depth < 15; anc = anc.parentElement, depth++) {
      if (shown(anc)) break;
      const tab = tabOf(anc, shown);
      if (tab) {
        tab.setAttribute('data-devicepilot-opener', '1');
        return true;
      }
    }
  }
  return false;
}""".replace("TAB_OF", TAB_OF_JS)


def _open_tab_of(page: Any, target: Target) -> bool:
    """Select the tab whose panel holds what *target* names (a field of a settings page's other tab); False if no
    tab hides it."""
    if not (target.text or target.selector) or target.row:
        return False
    try:
        if not page.evaluate(_TAB_OPENER_JS, [target.text, target.selector]):
            return False
        opener = page.locator("[data-devicepilot-opener]").first
        opener.click(timeout=DEFAULT_FIND_TIMEOUT_MS)
        opener.evaluate("el => el.removeAttribute('data-devicepilot-opener')")
        log.debug("selected the tab whose panel holds %s", target.describe())
        return True
    except Exception as exc:  # no tab selected: the search goes on as before
        log.debug("could not select a tab holding %s: %s", target.describe(), exc)
        return False


_HIDDEN_NAV_HREFS_JS = """(text) => {
  const want = text.replace(/\\s+/g, ' ').trim().toLowerCase();
  const said = (el) => [el.getAttribute('aria-label'), el.getAttribute('title'), el.textContent]
    .map(s => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase());
  const shown = (el) => el.checkVisibility ? el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
    : !!el.offsetParent;
  // an open dialog, or a link of that name shown anywhere: what the page offers is that, not a folded copy
  if (document.querySelector('[aria-modal="true"], dialog[open], .modal.show')) return [];
  for (const a of document.querySelectorAll('a[href], button, [role=link], [role=button]'))
    if (shown(a) && said(a).includes(want)) return [];
  const out = new Set();
  for (const a of document.querySelectorAll('nav a[href], [role=navigation] a[href]')) {
    if (shown(a)) continue;
    const href = a.getAttribute('href');
    if (!href || href.startsWith('#') || href.startsWith('javascript:') || !said(a).includes(want)) continue;
    const url = new URL(href, location.href);
    if (url.origin === location.origin) out.add(url.href);
  }
  return Array.from(out);
}"""


def follow_hidden_nav_link(page: Any, target: Target) -> str | None:
    """A link of a collapsed navigation (a docs site's other section, a folded sidebar) that no visible control
    opens from here: its address, followed as its click would. None unless exactly one such link is named so."""
    if not target.text or target.row or target.selector or target.role not in ("", "link"):
        return None
    try:
        hrefs = page.evaluate(_HIDDEN_NAV_HREFS_JS, target.text)
    except Exception as exc:  # a page that cannot be read has no such link
        log.debug("could not read the hidden navigation for %r: %s", target.text, exc)
        return None
    if len(hrefs) != 1:
        return None
    page.goto(hrefs[0], wait_until="domcontentloaded")
    return hrefs[0]


# marks what is out of reach: the elements of a dialog kept where no scrolling reaches until it opens (halfmoon's
# top: -100%), and, while a modal dialog is open, the page behind it (web_observe reports neither)
_PARKED_JS = """(els) => {
  const DIALOG = '.modal, dialog, [role=dialog], [role=alertdialog]';
  const parked = (d) => {
    const r = d.getBoundingClientRect();
    return r.bottom + window.scrollY <= 0 || r.right + window.scrollX <= 0 ||
      (getComputedStyle(d).position === 'fixed' && (r.top >= window.innerHeight || r.left >= window.innerWidth));
  };
  const shown = (d) => (!d.checkVisibility || d.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
    && d.getBoundingClientRect().width > 0;
  const open = Array.from(document.querySelectorAll(DIALOG + ', [aria-modal="true"]')).filter(d => {
    if (!shown(d) || parked(d)) return false;
    let modal = d.getAttribute('aria-modal') === 'true';
    try { modal = modal || d.matches('dialog:modal'); } catch (e) { /* no :modal */ }
    const r = d.getBoundingClientRect();
    return modal || r.width * r.height >= 0.6 * window.innerWidth * window.innerHeight;
  }).pop();
  return els.map(el => {
    const d = el.closest(DIALOG);
    const away = (d && parked(d)) || (open && !open.contains(el));
    if (away) el.setAttribute('data-devicepilot-parked', ''); else el.removeAttribute('data-devicepilot-parked');
    return away;
  });
}"""


def _reachable(scope: Any, loc: Any) -> Any:
    """*loc* without what is out of reach (the Save of a closed commit dialog; the page's own Save behind the
    open one)."""
    if loc.count() and any(loc.evaluate_all(_PARKED_JS)):
        return loc.and_(scope.locator(":not([data-devicepilot-parked])"))
    return loc


def _own_frames(page: Any) -> list[Any]:
    """The frames of *page* that show a page of its own origin (what the observer reads of them)."""
    main = getattr(page, "main_frame", None)
    if main is None:
        return []
    origin = urlsplit(page.url)[:2]
    return [f for f in page.frames if f is not main and urlsplit(f.url)[:2] == origin]


def resolve(page: Any, target: Target, *, fields: bool = False, default_roles: tuple[str, ...] = (),
            timeout_s: float = DEFAULT_FIND_TIMEOUT_MS / 1000) -> Any:
    """The one locator *target* names on *page*, or a :class:`DeviceFailure` listing what is there.

    Looks again for up to *timeout_s* (a screen still rendering after the last step), through the one
    wait primitive. *fields*: the target is a form field (label / placeholder first, no plain text);
    *default_roles*: roles to look among when the target names none (set_checked: checkbox, radio, switch).
    """
    if target.empty and not default_roles:
        raise RequestError("name the element: give text, role, selector or row")
    row_only = bool(target.row) and not (target.text or target.role or target.selector or default_roles)

    def look(scope: Any) -> tuple[bool, int]:
        loc = _locate(scope, target, fields, default_roles)
        count = loc.count()
        found = count > 0 and -count <= target.index < count
        if found:
            chosen.append(loc.nth(target.index))
        return found, count

    opened: list[bool] = []

    def probe() -> tuple[bool, tuple[str, int]]:
        if not target.row:
            found, count = look(page)
            if not found and not opened:
                opened.append(True)
                # an item of a closed menu, a field or control of a tab not selected: open it, look again
                if target.text and not fields and _open_menu_of(page, target.text) or _open_tab_of(page, target):
                    found, count = look(page)
            for frame in () if found or fields or not target.text else _own_frames(page):
                found, count = look(frame)   # a page of the app's own in a frame (a preview): its text
                if found:
                    break
            return found, ("element", count)
        rows = _row_candidates(page, target.row)
        if not rows:
            return False, ("row", 0)
        if row_only:
            return True, ("row", 1)
        best = 0
        for scope in rows:
            _hover(scope, target.row)  # controls that show only on hover of their row
            found, count = look(scope)
            if found:
                return True, ("element", count)
            best = max(best, count)
        return False, ("element", best)

    chosen: list[Any] = []
    try:
        wait_until(probe, Timeout(timeout_s, 0.1), what=target.describe(),
                   sleep=lambda s: page.wait_for_timeout(s * 1000))
    except WaitTimeout as exc:
        missing, count = exc.last if isinstance(exc.last, tuple) else ("element", 0)
        obs = observe_page(page)
        if missing == "row":
            shown = ", ".join(repr(e.text or e.name) for e in obs.of_role("listitem", "row")[:8]) or "none"
            raise DeviceFailure(f"no row showing {target.row!r}; rows on the page: {shown}",
                                expected=f"a row showing {target.row!r}") from None
        role = target.role or (default_roles[0] if default_roles else ("textbox" if fields else ""))
        what = target.describe("field" if fields else "element")
        found = f" (found {count})" if count else ""
        raise DeviceFailure(f"no {what}{found}; visible: {candidates(obs, role)}",
                            expected=f"{what} on the page") from None
    if row_only:
        return _row_locator(page, target.row) or page.locator(NOTHING)
    return chosen[-1]


def _locate(scope: Any, target: Target, fields: bool, default_roles: tuple[str, ...]) -> Any:
    if target.selector:
        loc = scope.locator(target.selector)
        if target.text:
            loc = loc.filter(has_text=target.text)
        return _visible(loc)
    if target.role:
        if target.role == "text":
            return _visible(scope.get_by_text(target.text)) if target.text else scope.locator(NOTHING)
        named = _reachable(scope, _visible(_role_locator(scope, target.role, target.text)))
        if target.text and not target.index and named.count() > 1:   # (an index counts as the planner did)
            # the element named so before one whose name only holds the words ("encode" is not "JSONEncoder()")
            whole = _reachable(scope, _visible(_role_locator(scope, target.role, target.text, exact=True)))
            if whole.count():
                named = whole
        if target.text and not named.count():
            # an icon link whose tooltip sits on it or a part of it (<a><span title="Delete">…</span></a>; a
            # font icon's glyph is its accessible name): named so
            root = getattr(scope, "page", scope)   # an inner locator of filter(has=…) is the page's, not the row's
            css = f"[title={json.dumps(target.text)}], [data-bs-original-title={json.dumps(target.text)}]"
            tip = root.locator(css)
            of_role = _role_locator(scope, target.role, "")
            by_tip = _reachable(scope, _visible(of_role.filter(has=tip).or_(of_role.and_(scope.locator(css)))))
            if by_tip.count():
                return by_tip
        hinted = _hint_locator(scope, target.text) if target.text else None
        if hinted is None or named.count():
            return named
        # an icon button with no accessible name, known by its class or id ("destroy", "btn-close")
        return _visible(_role_locator(scope, target.role, "").and_(hinted))
    if not target.text:
        return _visible(_union([_role_locator(scope, r, "") for r in default_roles]))
    if default_roles:
        named = _union([_role_locator(scope, r, target.text) for r in default_roles])
        named = named.or_(scope.get_by_label(target.text))
        if _visible(named).count():
            return _visible(named)
        # "check buy milk": a toggle with no name of its own, in the row that shows the text
        row = _row_locator(scope, target.text) if not target.row else None
        if row is not None:
            inside = _visible(_union([_role_locator(row, r, "") for r in default_roles]))
            if inside.count():
                return inside
        return scope.locator(NOTHING)  # never toggle something that is not a checkbox, radio or switch
    for how, make in text_strategies(scope, target.text, fields):
        loc = make()
        if loc is None:
            continue
        visible = _visible(loc)
        if visible.count():
            log.debug("%s resolved by %s", target.describe(), how)
            return visible
    if fields:
        return _code_editor(scope, target.text)
    return scope.locator(NOTHING)


_EDITOR_CSS = ".CodeMirror, .ace_editor, .monaco-editor"
_MARK_EDITOR = """(t, css) => {
  const w = t.nextElementSibling && t.nextElementSibling.matches(css) ? t.nextElementSibling : t.closest(css);
  if (!w) return false;
  w.setAttribute('data-devicepilot-editor', '1');
  return true;
}"""


def _code_editor(scope: Any, text: str) -> Any:
    """The code editor that stands for the hidden textarea *text* names (CodeMirror, Ace, Monaco type
    through a hidden textarea: its label and name are the editor's)."""
    hidden = _union([scope.get_by_label(text), _hint_locator(scope, text) or scope.locator(NOTHING)])
    hidden = hidden.and_(scope.locator("textarea"))
    for i in range(min(hidden.count(), 3)):
        if hidden.nth(i).evaluate(_MARK_EDITOR, _EDITOR_CSS):
            return _visible(scope.locator("[data-devicepilot-editor]"))
    return scope.locator(NOTHING)

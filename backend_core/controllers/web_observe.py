"""Reading a web page as a :class:`~shared.screen.ScreenObservation`: one ``page.evaluate`` of a DOM walk.

The walk reports each visible element a tester may name, with an ARIA-like
role (the explicit ``role`` attribute, else the implicit one of its tag), its
accessible name (aria-label, aria-labelledby, ``<label>``, alt, title, then
its text), field state, words from its id/class/test ids (``hint``), the text
of the row or card that contains it (``container``), and a selector the
controller can reuse. Controls of a visible row that show only on hover
(TodoMVC's ``button.destroy``, a row's tools in a hidden wrapper) and the items of a closed menu
(a Bootstrap dropdown) are reported with ``hidden=True``. While a modal dialog is open, only the
dialog is walked: the page behind it is inert. A container with no size
of its own that does not clip (a nav bar of floated links) is walked into. Static text
is reported with role ``text`` unless an enclosing reported element already
carries it.
"""
from __future__ import annotations

import logging
from typing import Any

from shared.screen import ScreenObservation, UIElement

log = logging.getLogger(__name__)

MAX_ELEMENTS = 1500   # a long index (a docs browser lists ~700 modules) must reach its end; prompts pick their own few

# The name of a field that has no <label>, aria name or title, from the page's layout: the cell before its
# cell in a form laid out as a table ("<th>Priority</th><td><select>"), else the text just before it
# ("Title: <input>"). The same function names fields in the walk and finds them at run time.
LAYOUT_LABEL_JS = r"""
function layoutLabel(el) {
  const squash = (s) => (s || '').replace(/[\u200b-\u200d\u2060\ufeff]/g, '').replace(/\s+/g, ' ').trim();
  const CONTROLS = 'input:not([type=hidden]), select, textarea, button';
  const ok = (t) => {
    t = squash(t).replace(/\s*[:*]+\s*$/, '').trim();
    return t && t.length <= 40 && t.split(' ').length <= 5 ? t : '';
  };
  const cell = el.closest('td, th');
  if (cell) {
    // a grid of fields, a row per thing and a column per value ("Tool | 21.3°C | [target] | [offset]" under
    // "Actual | Target | Offset"): the row's header and the column's ("Tool Target"), not the value beside it
    const grid = gridLabel(cell, CONTROLS, ok);
    if (grid) return grid;
    const prev = cell.previousElementSibling;
    if (prev && (prev.tagName === 'TH' || prev.tagName === 'TD') && !prev.querySelector(CONTROLS)) {
      const t = ok(prev.innerText);
      if (t) return t;
    }
  }
  let n = el.previousSibling;
  while (n && ((n.nodeType === 3 && !n.textContent.trim()) || (n.nodeType === 1 && n.tagName === 'BR'))) n = n.previousSibling;
  // a copy of the field's own text drawn to size it (an auto-growing textarea's mirror) is no caption
  const mirror = (n) => n.nodeType === 1 && (n.getAttribute('aria-hidden') === 'true' ||
    getComputedStyle(n).visibility === 'hidden' || squash(n.textContent) === squash(el.value));
  if (n && (n.nodeType === 3 || (n.nodeType === 1 && !n.matches(CONTROLS) && !n.querySelector(CONTROLS) && !mirror(n)))) {
    const t = ok(n.textContent);
    if (t) return t;
  }
  return wrapperLabel(el, CONTROLS, ok);
}
function gridLabel(cell, CONTROLS, ok) {
  const tr = cell.parentElement, table = cell.closest('table');
  if (!tr || tr.tagName !== 'TR' || !table) return '';
  const head = (table.tHead && table.tHead.rows[0]) ||
    (table.rows[0] && table.rows[0] !== tr && Array.from(table.rows[0].cells).every(c => c.tagName === 'TH') ? table.rows[0] : null);
  if (!head || head === tr) return '';
  const lead = tr.cells[0];
  if (!lead || lead === cell || lead.querySelector(CONTROLS) || !(lead.tagName === 'TH' || ok(lead.innerText))) return '';
  let col = 0;
  for (const c of tr.cells) { if (c === cell) break; col += c.colSpan || 1; }
  let at = 0, top = null;
  for (const c of head.cells) { if (col < at + (c.colSpan || 1)) { top = c; break; } at += c.colSpan || 1; }
  const rowName = ok(lead.innerText), colName = top ? ok(top.innerText) : '';
  return rowName && colName ? rowName + ' ' + colName : '';
}
// a field's caption drawn beside its box inside a wrapper of its own: <dl><dt>Price</dt><dd><input></dd></dl>,
// <div class="field"><div class="field-label">Price</div><div><input></div></div>. Up to four wrappers that hold
// this one field; the caption is a sibling before the field's branch that holds no control and reads as one
const FIELDS = 'input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]), select, textarea';
const CAPTION = /(?:^|[-_ ])(?:label|caption|title|name|field-?name|heading)(?:$|[-_ ])/i;
function wrapperLabel(el, CONTROLS, ok) {
  let branch = el;
  for (let up = 0; up < 4 && branch.parentElement; up++) {
    const wrap = branch.parentElement;
    if (wrap.tagName === 'FORM' || wrap.tagName === 'BODY' || wrap.querySelectorAll(FIELDS).length > 1) return '';
    let sib = branch.previousElementSibling;
    for (let seen = 0; sib && seen < 2; seen++, sib = sib.previousElementSibling) {
      if (sib.querySelector(CONTROLS) || sib.matches(CONTROLS)) break;
      const captionLike = /^(DT|LEGEND|LABEL|TH|H[1-6])$/.test(sib.tagName) ||
        (typeof sib.className === 'string' && CAPTION.test(sib.className));
      const t = captionLike ? ok(sib.innerText || sib.textContent) : '';
      if (t) return t;
    }
    branch = wrap;
  }
  return '';
}
"""

# the classes of icon fonts that draw a word as a picture (Material Icons' "delete", Quasar's, Angular Material's)
ICON_FONT_CSS = (".material-icons, .material-icons-outlined, .material-icons-round, .material-symbols-outlined, "
                 ".material-symbols-rounded, .q-icon, mat-icon, .mat-icon")

# What an element shows (its text where a dropdown shows only its chosen option), for the walk and for checks.
SHOWN_TEXT_JS = r"""
  // what an element shows: its rendered text, where a dropdown shows its chosen option (not every option
  // it holds, as innerText gives); what is typed in a field is the field's value, not text the page shows
  // an icon font draws a word as a picture (Material Icons: "delete", "arrow_upward"): that word is not shown
  const ICON_FONT = 'ICON_FONT_CSS';
  const ligature = (el) => el.matches && el.matches(ICON_FONT) && /^[a-z0-9_]+$/.test((el.textContent || '').trim());
  function shownText(el) {
    if (el.tagName === 'SELECT') return Array.from(el.selectedOptions).map(o => o.label || o.text).join(', ');
    if (ligature(el)) return '';
    if (!el.querySelector || !el.querySelector('select, textarea, input, ' + ICON_FONT)) return el.innerText || '';
    let out = '';
    for (const c of el.childNodes) {
      if (c.nodeType === 3) { out += c.textContent; continue; }
      if (c.nodeType !== 1 || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(c.tagName) || ligature(c)) continue;
      if (c.tagName === 'SELECT') out += ' ' + Array.from(c.selectedOptions).map(o => o.label || o.text).join(', ') + ' ';
      else if (c.tagName === 'TEXTAREA' || c.tagName === 'INPUT') continue;   // typed, not yet shown
      else {
        const st = getComputedStyle(c);
        if (st.display === 'none' || st.visibility === 'hidden') continue;
        const block = !/^inline/.test(st.display);
        out += (block ? ' ' : '') + shownText(c) + (block ? ' ' : '');
      }
    }
    return out;
  }
""".replace("ICON_FONT_CSS", ICON_FONT_CSS)

# the boxes widget kits draw in place of a <select> they hide (Select2, Chosen, Tom Select, Choices)
WIDGET_KITS_CSS = ".select2-container, .select2, .chosen-container, .ts-wrapper, .choices"
# tabs a page draws with no ARIA role, known by their class (Dash's dcc.Tabs, many older kits): read as tabs when
# two or more sit side by side
CLASS_TAB_CSS = ".tab:not([role])"
# a <span> or <div> a kit styles as a button (Bootstrap's "btn") that a script makes one: read as a button
KIT_BUTTON_CSS = "span.btn:not([role]), div.btn:not([role]), span.button:not([role]), div.button:not([role])"
# the toggle of a panel Bootstrap's collapse folds: a JS template over the panel's escaped ``id`` (the observer, the
# controller's opener and its retry of a squeezed panel's control all find it so)
COLLAPSE_TOGGLE_SEL_JS = ('`[data-toggle=collapse][data-target="#${id}"], [data-bs-toggle=collapse][data-bs-target="#${id}"], '
                          '[data-toggle=collapse][href="#${id}"], [data-bs-toggle=collapse][href="#${id}"]`')
# the tab that shows a panel not shown now (an ARIA tab's aria-controls, Bootstrap's tab and pill toggles, a plain
# "#general" link over its tab pane), or null: a JS function shared by the observer and the controller's opener
TAB_OF_JS = r"""function tabOf(panel, shown) {
    const TOGGLES = '[data-toggle=modal], [data-bs-toggle=modal], [data-toggle=collapse], [data-bs-toggle=collapse], ' +
                    '[data-toggle=dropdown], [data-bs-toggle=dropdown]';
    let found = [];
    if (panel.id) {
      const id = CSS.escape(panel.id);
      found = Array.from(document.querySelectorAll(`[role=tab][aria-controls="${id}"], a[href="#${id}"], ` +
        `[data-bs-target="#${id}"], [data-target="#${id}"]`));
    }
    const by = panel.getAttribute('role') === 'tabpanel' && panel.getAttribute('aria-labelledby');
    if (!found.length && by) found = [document.getElementById(by.split(/\s+/)[0])].filter(Boolean);
    return found.find(o => !o.matches(TOGGLES) && !panel.contains(o) && !o.closest('dialog, .modal') === !panel.closest('dialog, .modal')
                      && shown(o)) || null;
  }"""
# a button that opens a list to pick one value from (Headless UI's Listbox, Dash's dropdown): read as a dropdown
POPUP_PICKER_CSS = "button[aria-haspopup=listbox]"
# a button that says it expands or pops up the panel beside it ("More actions", a sidebar's "Settings")
DISCLOSER_CSS = 'button[aria-expanded="false"], [role=button][aria-expanded="false"], button[aria-haspopup]'
# the field a kit draws around a dropdown's input it keeps out of sight (Quasar's q-select and its one-pixel,
# transparent focus target): what a user sees, clicks, and reads the chosen value in
DRAWN_FIELD_CSS = "label, [class~=q-field], [class*=-field], [class*=Field]"

OBSERVE_JS = r"""
(maxElements) => {
  LAYOUT_LABEL
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'svg', 'BR', 'OPTION']);
  const ROW_SEL = 'li, tr, [role=row], [role=listitem], article, [class*="card"], [class*="Card"]';
  const TEXT_INPUTS = new Set(['text', 'email', 'search', 'password', 'number', 'tel', 'url', 'date',
                               'datetime-local', 'month', 'week', 'time', '']);
  const CLICKABLE = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
                             'checkbox', 'radio', 'switch', 'combobox', 'treeitem']);
  // (a zero-width space a kit puts in an empty label, MUI's "\u200b", names nothing)
  const squash = (s) => (s || '').replace(/[\u200b-\u200d\u2060\ufeff]/g, '').replace(/\s+/g, ' ').trim();
  const cut = (s, n) => { s = squash(s); return s.length > n ? s.slice(0, n - 1) + '…' : s; };

  function implicitRole(el) {
    const t = el.tagName;
    switch (t) {
      case 'A': return el.hasAttribute('href') ? 'link' : '';
      case 'BUTTON': case 'SUMMARY': return 'button';
      case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'TEXTAREA': return 'textbox';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
      case 'LI': return 'listitem';
      case 'TR': return 'row';
      case 'TD': case 'TH': return 'cell';
      case 'IMG': return el.getAttribute('alt') === '' ? '' : 'img';
      case 'INPUT': {
        const ty = (el.getAttribute('type') || '').toLowerCase();
        if (ty === 'hidden') return '';
        if (['button', 'submit', 'reset', 'image', 'file', 'color'].includes(ty)) return 'button';
        if (ty === 'checkbox') return 'checkbox';
        if (ty === 'radio') return 'radio';
        if (ty === 'range') return 'slider';
        if (TEXT_INPUTS.has(ty)) return 'textbox';
        return 'textbox';
      }
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return '';
  }
  function roleOf(el) {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    let role = explicit && !['presentation', 'none', 'generic'].includes(explicit) ? explicit : implicitRole(el);
    if (role === 'searchbox') role = 'textbox';   // ARIA's search box is a text box (its hint says search)
    if (role === 'button' && el.matches('POPUP_PICKER')) return 'combobox';
    if (!role && el.matches('CLASS_TAB') && el.parentElement
        && el.parentElement.querySelectorAll(':scope > CLASS_TAB').length >= 2) return 'tab';
    // a <span> or <div> a kit styles as a button (Bootstrap's class "btn") and a script makes one: a button
    if (!role && el.matches('KIT_BUTTON')
        && getComputedStyle(el).cursor === 'pointer' && !el.querySelector('button, a, input, select, textarea')) return 'button';
    return role;
  }
  const popupPicker = (el) => el.getAttribute('aria-haspopup') === 'listbox' && !['INPUT', 'SELECT'].includes(el.tagName);
  function textWithout(node, skip) {
    let out = '';
    for (const c of node.childNodes) {
      if (c.nodeType === 3) out += c.textContent;
      else if (c.nodeType === 1 && c !== skip && !['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(c.tagName))
        out += ' ' + (c.innerText || c.textContent || '');
    }
    return squash(out);
  }
  SHOWN_TEXT
  const WORDY = /[\p{L}\p{N}]/u;
  function nameOf(el, role) {
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return squash(aria);
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      // a dropdown drawn as a button names itself by what it shows (its value): that part is no label
      const t = by.split(/\s+/).map(id => document.getElementById(id))
        .filter(n => n && !(role === 'combobox' && popupPicker(el) && el.contains(n)))
        .map(n => n.innerText || n.textContent).join(' ');
      if (squash(t)) return squash(t);
    }
    if (el.labels && el.labels.length) {
      // (a label another form's copy also points here says it once: "Title:", never "Title: Title:")
      const t = Array.from(new Set(Array.from(el.labels).map(l => squash(textWithout(l, el))))).join(' ');
      if (squash(t)) return squash(t);
    }
    if (el.tagName === 'IMG' || (el.tagName === 'INPUT' && el.type === 'image')) {
      const alt = el.getAttribute('alt');
      if (alt && alt.trim()) return squash(alt);
    }
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type))
      return squash(el.value || (el.type === 'submit' ? 'Submit' : ''));
    if (['button', 'link', 'heading', 'tab', 'menuitem', 'option', 'cell', 'checkbox', 'radio', 'switch',
         'treeitem', 'menuitemcheckbox', 'menuitemradio'].includes(role)
        && !['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
      const t = squash(shownText(el)) || (emittingHidden ? squash(el.textContent) : '');
      // a sign with no words ("✏️", "❌", "⧉") says less than the tooltip that names it
      const tip = squash(el.getAttribute('title') || '');
      if (t && !WORDY.test(t) && WORDY.test(tip)) return tip;
      if (t) return cut(t, 120);
      const img = el.querySelector('img[alt]');
      if (img && img.alt.trim() && !WORDY.test(img.alt) && WORDY.test(tip)) return tip;
      if (img && img.alt.trim()) return squash(img.alt);
    }
    const title = el.getAttribute('title') || el.getAttribute('data-bs-original-title') ||
      el.getAttribute('data-original-title');
    if (title && title.trim()) return squash(title);
    if (['button', 'link', 'menuitem', 'tab'].includes(role)) {
      // an icon whose tooltip is on a part of it: <a><span title="Delete"><i class="fa-trash"></i></span></a>
      const part = el.querySelector('[aria-label],[title],[data-bs-original-title]');
      const said = part && (part.getAttribute('aria-label') || part.getAttribute('title') ||
        part.getAttribute('data-bs-original-title'));
      if (said && said.trim()) return squash(said);
    }
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) && !['button', 'submit', 'reset', 'image'].includes(el.type))
      return layoutLabel(el);
    if (role === 'combobox' && popupPicker(el)) return layoutLabel(el) || squash(shownText(el));   // else what it shows
    return '';
  }
  function hintOf(el) {
    const parts = [el.id, typeof el.className === 'string' ? el.className : '', el.getAttribute('name'),
                   el.getAttribute('data-testid'), el.getAttribute('data-test'), el.getAttribute('data-cy'),
                   el.getAttribute('title')];
    const words = squash(parts.filter(Boolean).join(' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_./:#]+/g, ' ')).toLowerCase();
    return cut(Array.from(new Set(words.split(' '))).join(' '), 80);
  }
  function uniqueSel(sel) {
    try { return document.querySelectorAll(sel).length === 1; } catch (e) { return false; }
  }
  const siblingIndex = new Map();   // parent -> Map(child -> [nth-of-type, how many of that tag])
  function nthOfType(node) {
    const parent = node.parentElement;
    if (!parent) return [1, 1];
    let index = siblingIndex.get(parent);
    if (!index) {
      index = new Map();
      const counts = {};
      for (const c of parent.children) { counts[c.tagName] = (counts[c.tagName] || 0) + 1; index.set(c, counts[c.tagName]); }
      index.totals = counts;
      siblingIndex.set(parent, index);
    }
    return [index.get(node), index.totals[node.tagName]];
  }
  function selectorOf(el) {
    if (el.id && uniqueSel('#' + CSS.escape(el.id))) return '#' + CSS.escape(el.id);
    const path = [];
    let node = el;
    while (node && node.nodeType === 1 && node !== document.documentElement) {
      if (node !== el && node.id && uniqueSel('#' + CSS.escape(node.id))) {
        path.unshift('#' + CSS.escape(node.id));
        break;
      }
      let seg = node.tagName.toLowerCase();
      // the rows and cells of an ARIA grid drawn with <div>s (Gradio's, AG Grid's): said by their role, as a
      // table's tr and td are by their tag, so a cell's column and its row read the same from its selector
      const gridRole = (node.getAttribute('role') || '').toLowerCase();
      if (['row', 'gridcell', 'columnheader', 'rowheader'].includes(gridRole) && !['TR', 'TD', 'TH'].includes(node.tagName))
        seg += '[role=' + gridRole + ']';
      const [nth, total] = nthOfType(node);
      if (total > 1) seg += ':nth-of-type(' + nth + ')';
      path.unshift(seg);
      if (node.tagName === 'BODY') break;
      node = node.parentElement;
    }
    return path.join(' > ');
  }
  // the visible field a kit draws around a dropdown's input it hides (opacity 0, a pixel in size), or null
  function drawnField(el, role) {
    if (role !== 'combobox' || el.tagName !== 'INPUT') return null;
    const field = el.parentElement && el.parentElement.closest('DRAWN_FIELD');
    return field && visible(field) && field.querySelectorAll('input, select, textarea').length === 1 ? field : null;
  }
  // a text of the field drawn for a hidden dropdown input (its label, the value it shows): the dropdown's own
  function inDrawnField(el) {
    const field = el.closest('DRAWN_FIELD');
    const input = field && field.querySelector('input[role=combobox]');
    return !!input && !visible(input) && drawnField(input, 'combobox') === field;
  }
  function visible(el) {
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }
  // a checkbox or radio a kit draws over its own transparent input (opacity 0, full size): a click on it ticks it
  function drawnBox(el) {
    if (el.tagName !== 'INPUT' || !['checkbox', 'radio'].includes(el.type)) return false;
    if (el.checkVisibility && !el.checkVisibility({checkVisibilityCSS: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 8 && r.height >= 8 && !!el.parentElement && visible(el.parentElement);
  }
  function spills(el) {   // rendered, with no size of its own, and not clipping what overflows it
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    const st = getComputedStyle(el);
    if (st.display === 'none' || st.visibility === 'hidden') return false;
    return st.overflowX === 'visible' && st.overflowY === 'visible';
  }
  function hasOwnText(el) {
    for (const c of el.childNodes) if (c.nodeType === 3 && c.textContent.trim()) return true;
    return false;
  }

  const out = [];
  const carried = [];   // texts of the reported ancestors, innermost last
  let truncated = false;

  let walkRoot = document.documentElement;   // the part of the page read: an open modal dialog, else all of it
  let emittingHidden = false;   // a hidden element has no rendered text: its name is its text content
  function emit(el, role, hidden, drawnBy) {
    if (out.length >= maxElements) { truncated = true; return null; }
    emittingHidden = !!hidden;
    const r = (drawnBy || el).getBoundingClientRect();
    const st = getComputedStyle(el);
    const tag = el.tagName;
    const isField = ['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || el.isContentEditable;
    // (a toggle's label may draw its words in CSS and keep them in a hidden span: its text is still its name)
    const name = role === 'text' ? '' : nameOf(el, role) || (tag === 'LABEL' ? cut(squash(el.textContent), 80) : '');
    let text = '';
    if (!isField) text = cut(shownText(el), role === 'text' || role === 'cell' ? 200 : 160);
    const e = {role, name, text: text === name ? '' : text, hint: hintOf(el), selector: selectorOf(el),
               box: [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]};
    if (hidden) e.hidden = true;
    if (tag === 'TR' && (el.parentElement.tagName === 'THEAD'
                         || (el.cells.length && Array.from(el.cells).every(c => c.tagName === 'TH')))) {
      e.hint = (e.hint + ' header-row').trim();   // a table's header: not one of its rows of data
    }
    if (el.placeholder) e.placeholder = squash(el.placeholder);
    else if (el.getAttribute('aria-placeholder')) e.placeholder = squash(el.getAttribute('aria-placeholder'));
    if (tag === 'SELECT') {
      const opts = Array.from(el.options);
      e.options = opts.slice(0, 50).map(o => squash(o.label || o.text));
      const sel = opts.filter(o => o.selected).map(o => squash(o.label || o.text));
      e.value = sel.join(', ');
    } else if (drawnBy) {   // the value the field shows: its text less the field's own label
      let shownValue = squash(shownText(drawnBy));
      if (name && shownValue.toLowerCase().startsWith(name.toLowerCase())) shownValue = shownValue.slice(name.length);
      e.value = cut(squash(el.value) || squash(shownValue), 200);
    } else if (tag === 'INPUT' || tag === 'TEXTAREA') {
      if (!['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(el.type))
        e.value = el.type === 'password' ? (el.value ? '••••' : '') : cut(el.value, 200);
      // what kind of box it is, in its hint; a box that only shows a value to copy (an address) is read-only
      const kinds = ['password', 'search', 'number'].filter(k => el.type === k);
      if (el.readOnly || el.getAttribute('aria-readonly') === 'true') kinds.push('readonly');
      for (const k of kinds) if (!(e.hint || '').split(' ').includes(k)) e.hint = ((e.hint || '') + ' ' + k).trim();
    } else if (el.isContentEditable) {
      e.value = cut(el.innerText, 200);
    } else if (role === 'combobox' && popupPicker(el)) {
      // the value it shows (the part of it that names it, else its text less an arrow); its name is its label
      const own = (el.getAttribute('aria-labelledby') || '').split(/\s+/).map(id => document.getElementById(id))
        .filter(n => n && el.contains(n)).map(n => n.innerText || n.textContent).join(' ');
      e.value = cut(squash(own) || squash(shownText(el)).replace(/\s*[\u25be\u25bc\u2304\u2193\u02c5⌄▾▼]+$/, ''), 200);
      e.text = '';
    }
    if (tag === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) e.checked = !!el.checked;
    else if (tag === 'LABEL' && role === 'button' && el.control) e.checked = !!el.control.checked;   // a toggle's state
    else if (el.hasAttribute('aria-checked')) e.checked = el.getAttribute('aria-checked') === 'true';
    else if (el.hasAttribute('aria-pressed')) e.checked = el.getAttribute('aria-pressed') === 'true';
    if (el.hasAttribute('aria-selected')) e.selected = el.getAttribute('aria-selected') === 'true';
    const current = el.getAttribute('aria-current');
    if (current && current !== 'false') e.selected = true;
    if (role === 'tab' && el.matches('CLASS_TAB') && !e.selected)   // a tab known by its class says so by its class
      e.selected = /(^|\s)(tab--selected|tab-selected|selected|active|is-active|current)(\s|$)/.test(el.className);
    if (el.disabled || el.getAttribute('aria-disabled') === 'true' || el.closest('fieldset[disabled]'))
      e.disabled = true;
    if (el === document.activeElement && el !== document.body) e.focused = true;
    // an ARIA slider, spin button or meter says its value in attributes
    if (!e.value && el.hasAttribute('aria-valuenow'))
      e.value = cut(el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow'), 60);
    const m = /^H([1-6])$/.exec(tag);
    if (m) e.level = +m[1];
    else if (el.getAttribute('aria-level')) e.level = parseInt(el.getAttribute('aria-level'), 10) || 0;
    if (tag === 'A' && el.getAttribute('href')) e.href = el.getAttribute('href');
    let row = el.parentElement && el.parentElement.closest(ROW_SEL);
    if (row && !walkRoot.contains(row)) row = null;   // a dialog's buttons are in no row of the page behind it
    if (!row && !isField) row = repeatedRow(el);
    // a row that holds nothing but this control (the <li> around each of a table row's links) wraps it: the
    // control's row is the one around that, if there is one
    const own = squash(shownText(el));
    // (so does a row that shows no words at all: an icon's <li> in a card's toolbar)
    while (row && (own && squash(shownText(row)) === own || !squash(shownText(row)))) {
      const outer = row.parentElement && row.parentElement.closest(ROW_SEL);
      if (!outer) break;   // a list of links: each <li> is the row of its link
      row = outer;
    }
    const menu = hidden && el.closest(MENU_SEL);
    // an item of a closed menu belongs to no row, even when the menu's toggle sits in one (a nav bar's <li>)
    if (row && !(hidden && (!visible(row) || (menu && !visible(menu))))) e.container = cut(shownText(row), 80);
    e.clickable = CLICKABLE.has(role) || el.hasAttribute('onclick') || (el.tabIndex >= 0 && role !== 'text' && !isField)
      || (st.cursor === 'pointer' && !(el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer'));
    if (role === 'listitem' || role === 'row') e.clickable = e.clickable || st.cursor === 'pointer';
    out.push(e);
    return e;
  }

  // a code editor (CodeMirror 5, Ace, Monaco) types through a hidden textarea: the editor is the field,
  // named and hinted like the textarea it stands for, its text the value; its lines are not elements
  const EDITOR = /(^|\s)(CodeMirror|ace_editor|monaco-editor|cm-editor)(\s|$)/;
  function editorField(el) {
    const source = el.previousElementSibling && el.previousElementSibling.tagName === 'TEXTAREA'
      ? el.previousElementSibling : el.querySelector('textarea');
    const e = emit(el, 'textbox', false);
    if (!e) return;
    e.text = '';
    if (source) {
      e.name = nameOf(source, 'textbox');
      e.hint = hintOf(source);
      if (source.placeholder) e.placeholder = squash(source.placeholder);
    }
    let value = '';
    try {
      if (el.CodeMirror && el.CodeMirror.getValue) value = el.CodeMirror.getValue();
      else if (window.ace && el.classList.contains('ace_editor')) value = window.ace.edit(el).getValue();
      else if (el.querySelector('.cm-content')) value = el.querySelector('.cm-content').innerText;   // CodeMirror 6
      else value = el.innerText;
    } catch (err) { value = el.innerText; }
    e.value = cut(value, 200);
    if (!source && !e.name && !e.placeholder) e.hint = 'editor';   // a page's text editor, named by nothing else
    e.clickable = true;
    return e;
  }

  // a text editor drawn in a frame of the page's own (TiddlyWiki's body, TinyMCE, CKEditor 4): the frame is the
  // field, named by the frame or the textarea it stands for, its text the value; a click on it types inside it
  function frameInner(el) {
    let doc = null;
    try { doc = el.contentDocument; } catch (err) { return null; }   // another origin's frame: not ours to read
    if (!doc || !doc.body) return null;
    if (doc.body.isContentEditable) return doc.body;
    const inner = doc.body.querySelectorAll('textarea, [contenteditable=""], [contenteditable=true]');
    return inner.length === 1 ? inner[0] : null;
  }
  function frameEditor(el) {
    const inner = frameInner(el);
    if (!inner) return false;
    const e = editorField(el);
    if (!e) return true;
    e.value = cut(inner.tagName === 'TEXTAREA' ? inner.value : inner.innerText, 200);
    if (!e.name) e.name = nameOf(el, 'textbox');
    if (!e.name && !e.placeholder) e.hint = squash(e.hint + ' editor');
    return true;
  }

  // a page of the app's own shown in a frame (a CMS's preview of the page it edits): what it shows is on the
  // screen, named by its text (a selector of the frame's document would find nothing on the page)
  function framePage(el, inRow) {
    let doc = null;
    try { doc = el.contentDocument; } catch (err) { return; }   // another origin's frame: not ours to read
    if (!doc || !doc.body) return;
    const start = out.length;
    walk(doc.body, inRow);
    for (let i = start; i < out.length; i++) delete out[i].selector;
  }

  // a row of a list drawn with <div>s and no row's markup (a printer's file list: div.entry, one per file): the
  // nearest box around the control that is one of several siblings of its tag and first class, shows words
  // besides the control's own, and holds no field (the rows of a form are its fields' captions, no list)
  const NO_ROW_ABOVE = new Set(['FORM', 'MAIN', 'NAV', 'HEADER', 'FOOTER', 'TABLE', 'UL', 'OL', 'BODY', 'DIALOG']);
  function repeatedRow(el) {
    const own = squash(shownText(el));
    let node = el.parentElement;
    for (let up = 0; node && up < 5 && node !== walkRoot && !NO_ROW_ABOVE.has(node.tagName); up++, node = node.parentElement) {
      const first = (c) => typeof c.className === 'string' ? c.className.trim().split(/\s+/)[0] : '';
      const cls = first(node);
      const p = node.parentElement;
      if (!cls || !p || p.children.length > 500) continue;
      let alike = 0;
      for (const c of p.children) if (c.tagName === node.tagName && first(c) === cls) alike += 1;
      if (alike < 2) continue;
      if (node.querySelector(FIELDS)) return null;
      // a group of items, each with its own control of this name (a folder's files, each with its Delete): no row
      const named = (c) => squash(c.getAttribute('aria-label') || c.getAttribute('title') || shownText(c));
      const mine = named(el);
      if (Array.from(node.querySelectorAll('a, button, [role=button], [role=link], [role=menuitem]'))
          .some(c => c !== el && !c.contains(el) && !el.contains(c) && named(c) === mine)) return null;
      const t = squash(shownText(node));
      return t && t !== own && t.length <= 400 ? node : null;
    }
    return null;
  }

  const MENU_SEL = '.dropdown-menu, .dropdown-content, [role=menu], [role=menubar], .submenu';
  const MAX_HIDDEN = 80;   // per hidden subtree: a closed menu, or a row's hover-only tools
  // a hidden dialog, or a hidden form with fields to fill, is a place not yet opened, not a row's tool
  const CLOSED_PLACE = '.modal, dialog, [role=dialog], [role=alertdialog]';
  // a dialog kept where no scrolling reaches until it opens (halfmoon's top: -100%): closed
  function parked(el) {
    if (!el.matches(CLOSED_PLACE)) return false;
    const r = el.getBoundingClientRect();
    if (r.bottom + window.scrollY <= 0 || r.right + window.scrollX <= 0) return true;
    return getComputedStyle(el).position === 'fixed' && (r.top >= window.innerHeight || r.left >= window.innerWidth);
  }
  // a closed panel of no menu class behind the button beside it that says it expands or pops up ("More actions"
  // over Publish and Delete): a closed menu
  const DISCLOSER = 'DISCLOSER_CSS';
  function disclosed(el) {
    if (el.id && document.querySelector('[aria-controls="' + CSS.escape(el.id) + '"][aria-expanded]')) return true;
    if (collapsed(el)) return true;
    const p = el.parentElement;
    return !!p && Array.from(p.children).some(c => c !== el && c.matches(DISCLOSER) && visible(c));
  }
  // a panel folded by its toggle (Bootstrap's collapse: a heading's link with data-toggle="collapse" and the
  // panel's id; a closed <details>): its controls are there, one click on the toggle away
  function collapsed(el) {
    if (el.parentElement && el.parentElement.tagName === 'DETAILS' && !el.parentElement.open && el.tagName !== 'SUMMARY')
      return true;
    if (!el.id) return false;
    const id = CSS.escape(el.id);
    return !!document.querySelector(COLLAPSE_TOGGLE_SEL);
  }
  TAB_OF
  // the panel of a tab not selected (a settings page's "Notifications", an editor's "Promote"): its fields and
  // controls are there, one click on its tab away (the controller clicks the tab first); read hidden
  function hiddenPanel(root) {
    let left = MAX_HIDDEN;
    (function visit(el, d) {
      for (const c of el.children) {
        if (left <= 0 || SKIP.has(c.tagName) || c.matches(CLOSED_PLACE)) continue;
        const role = roleOf(c);
        if (role && role !== 'option' && (CLICKABLE.has(role) || role === 'textbox' || role === 'slider')) {
          if (emit(c, role, true)) left -= 1;
          if (role !== 'combobox' && role !== 'textbox') continue;
        }
        if (d < 12) visit(c, d + 1);
      }
    })(root, 0);
  }
  function hiddenControls(root, depth) {
    // (a folded panel's buttons are shown even beside its fields: "Connect" under its port and speed)
    if (root.matches(CLOSED_PLACE) || (!collapsed(root) && root.querySelector(CLOSED_PLACE + ', textarea, select, ' +
        'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox]):not([type=radio])')))
      return;
    const own = roleOf(root);
    if (CLICKABLE.has(own) && own !== 'option') { emit(root, own, true); return; }   // <details><button>
    let left = MAX_HIDDEN;
    (function visit(el, d) {
      for (const c of el.children) {
        if (left <= 0 || SKIP.has(c.tagName)) continue;
        const role = roleOf(c);
        if (CLICKABLE.has(role) && role !== 'option') {
          if (emit(c, role, true)) left -= 1;
        } else if (d < 6) visit(c, d + 1);
      }
    })(root, depth);
  }

  // the links of a collapsed navigation (a docs site's other sections, a folded sidebar): places to go, so
  // reported hidden, a few dozen at most, so that they never crowd out what the page shows
  const NAV_SEL = 'nav, [role=navigation]';
  let navLeft = 60;
  function hiddenNavLinks(root) {
    for (const a of root.querySelectorAll('a[href]')) {
      if (navLeft <= 0 || out.length >= maxElements / 2) return;   // what the page shows comes first
      const href = a.getAttribute('href') || '';
      if (!href || href.startsWith('#') || href.startsWith('javascript:')) continue;
      if (emit(a, 'link', true)) navLeft -= 1;
    }
  }

  // a <select> a widget kit hides and draws itself (Select2, Chosen, Tom Select): the field is the select, as
  // its label names it and with its options; the widget's own parts are what it shows of it
  const WIDGET_SEL = 'WIDGET_KITS';
  function widgetOf(sel) {
    for (const sib of [sel.nextElementSibling, sel.previousElementSibling, sel.parentElement])
      if (sib && sib.matches(WIDGET_SEL) && visible(sib)) return sib;
    return null;
  }

  function walk(el, inRow) {
    if (out.length >= maxElements) { truncated = true; return; }
    if (SKIP.has(el.tagName)) return;
    if (typeof el.className === 'string' && EDITOR.test(el.className) && visible(el)) { editorField(el); return; }
    if (el.tagName === 'IFRAME' && visible(el) && frameEditor(el)) return;
    if (el.tagName === 'IFRAME' && visible(el)) { framePage(el, inRow); return; }
    if (parked(el)) return;
    const shown = visible(el) || drawnBox(el);
    // a label that stands for a box it hides (a CSS toggle: "View Source", "Show more") is the control
    const role = roleOf(el) || (shown && el.tagName === 'LABEL' && el.control && ['checkbox', 'radio'].includes(el.control.type)
                                && !visible(el.control) && squash(el.textContent) ? 'button' : '');
    if (!shown) {
      // a display:contents wrapper has no box of its own, and a box of no size that does not clip
      // (a nav bar whose links float) still shows its children: walk them
      const walkedInto = getComputedStyle(el).display === 'contents' || spills(el);
      // a control of a visible row that shows only on hover (or focus), and the items of a closed menu
      if (el.tagName === 'SELECT' && widgetOf(el)) { emit(el, role, false); return; }   // drawn by its widget
      const field = drawnField(el, role);
      if (field) { emit(el, role, false, field); return; }   // a dropdown's input inside the field drawn for it
      if (inRow && CLICKABLE.has(role)) emit(el, role, true);
      else if (!walkedInto && (inRow || el.matches(MENU_SEL) || disclosed(el))) hiddenControls(el, 0);
      else if (!walkedInto && !el.matches(CLOSED_PLACE) && tabOf(el, visible)) hiddenPanel(el);
      else if (!walkedInto && el.closest(NAV_SEL)) hiddenNavLinks(el);
      if (!walkedInto) return;
    }
    let pushed = false;
    if (shown) {
      if (role) {
        const e = emit(el, role, false);
        if (e) { carried.push(squash(e.name + ' ' + (e.text || ''))); pushed = true; }
      } else if (hasOwnText(el) && !ligature(el) && !(el.tagName === 'LABEL' && el.control && visible(el.control))
                 && !inDrawnField(el)) {
        const t = squash(shownText(el));
        const already = carried.length && carried[carried.length - 1].includes(t);
        if (t && !already) {
          const e = emit(el, 'text', false);
          if (e) { carried.push(squash(e.text)); pushed = true; }
        }
      }
    }
    const rowHere = inRow || el.matches(ROW_SEL);
    for (const c of el.children) walk(c, rowHere);
    if (el.shadowRoot) for (const c of el.shadowRoot.children) walk(c, rowHere);
    if (pushed) carried.pop();
  }

  // an open modal dialog makes the page behind it inert: only the dialog can be named or used
  function openModal() {
    const vw = window.innerWidth, vh = window.innerHeight;
    const found = Array.from(document.querySelectorAll(
      '[aria-modal="true"], dialog[open], .modal.show, .modal.in, [role=dialog], [role=alertdialog]')).filter(el => {
        if (!visible(el) || parked(el)) return false;
        const r = el.getBoundingClientRect();
        let modal = el.getAttribute('aria-modal') === 'true';
        try { modal = modal || el.matches('dialog:modal'); } catch (e) { /* no :modal in this browser */ }
        if (modal) return true;   // a dialog that covers the page is modal; a popover is not
        return r.width * r.height >= 0.6 * vw * vh;
      });
    return found.length ? found[found.length - 1] : null;
  }
  const modal = document.body ? openModal() : null;
  if (modal) walkRoot = modal;
  if (document.body) walk(modal || document.body, false);
  return {url: location.href, title: document.title, elements: out, truncated, modal: !!modal};
}
""".replace("LAYOUT_LABEL", LAYOUT_LABEL_JS).replace("SHOWN_TEXT", SHOWN_TEXT_JS).replace("KIT_BUTTON", KIT_BUTTON_CSS) \
    .replace("COLLAPSE_TOGGLE_SEL", COLLAPSE_TOGGLE_SEL_JS) \
    .replace("WIDGET_KITS", WIDGET_KITS_CSS).replace("POPUP_PICKER", POPUP_PICKER_CSS) \
    .replace("DRAWN_FIELD", DRAWN_FIELD_CSS).replace("CLASS_TAB", CLASS_TAB_CSS) \
    .replace("DISCLOSER_CSS", DISCLOSER_CSS).replace("TAB_OF", TAB_OF_JS)


def observe_page(page: Any, max_elements: int = MAX_ELEMENTS) -> ScreenObservation:
    """Run the DOM walk in *page* (a Playwright page) and return the observation."""
    raw = page.evaluate(OBSERVE_JS, max_elements)
    elements = tuple(UIElement.from_dict(e) for e in raw.get("elements") or ())
    log.debug("observed %s: %d element(s)%s", raw.get("url"), len(elements),
              " (truncated)" if raw.get("truncated") else "")
    return ScreenObservation("web", str(raw.get("url") or ""), str(raw.get("title") or ""), elements,
                             bool(raw.get("truncated")), bool(raw.get("modal")))

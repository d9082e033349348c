"""Reading a native UI hierarchy (``uiautomator dump``, Appium page source) as a ScreenObservation.

Widget classes map onto the ARIA-like roles of :mod:`shared.screen` through
one table (an ``EditText`` is a textbox, a ``CheckBox`` a checkbox, a
``Spinner`` a combobox); text and content-desc give the name, the
resource-id's words the hint, and the text of the list row an element sits in
(the child of a ListView / RecyclerView) its container.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from backend_core.controllers.ui_dump import UiElement, UiTree
from shared import screen as S
from shared.screen import ScreenObservation, UIElement

# the last part of a widget class -> role; checked in order, first match wins
ROLE_BY_CLASS: tuple[tuple[str, str], ...] = (
    ("EditText", S.ROLE_TEXTBOX), ("AutoCompleteTextView", S.ROLE_TEXTBOX), ("SearchView", S.ROLE_TEXTBOX),
    ("MockInputField", S.ROLE_TEXTBOX), ("TextField", S.ROLE_TEXTBOX), ("SecureTextField", S.ROLE_TEXTBOX),
    ("SearchField", S.ROLE_TEXTBOX),
    ("CheckBox", S.ROLE_CHECKBOX), ("CheckedTextView", S.ROLE_CHECKBOX),
    ("RadioButton", S.ROLE_RADIO),
    ("Switch", S.ROLE_SWITCH), ("SwitchCompat", S.ROLE_SWITCH), ("SwitchMaterial", S.ROLE_SWITCH),
    ("ToggleButton", S.ROLE_SWITCH),
    ("Spinner", S.ROLE_COMBOBOX), ("PickerWheel", S.ROLE_COMBOBOX),
    ("ImageButton", S.ROLE_BUTTON), ("Button", S.ROLE_BUTTON),
    ("SeekBar", S.ROLE_SLIDER), ("Slider", S.ROLE_SLIDER),
    ("Tab", S.ROLE_TAB),
    ("ImageView", S.ROLE_IMAGE), ("Image", S.ROLE_IMAGE),
    ("Cell", S.ROLE_ROW),
    ("TextView", S.ROLE_TEXT), ("StaticText", S.ROLE_TEXT),
)
LIST_CLASSES = ("ListView", "RecyclerView", "GridView", "ScrollView", "Table", "CollectionView")
MAX_ELEMENTS = 400


def role_of(element: UiElement) -> str:
    """The ARIA-like role of a native widget; a clickable widget of no known class is a button."""
    short = element.cls.rsplit(".", 1)[-1].removeprefix("XCUIElementType")
    for suffix, role in ROLE_BY_CLASS:
        if short == suffix or short.endswith(suffix):
            if role == S.ROLE_TEXT and element.clickable:
                return S.ROLE_BUTTON
            return role
    if element.clickable:
        return S.ROLE_BUTTON
    return S.ROLE_TEXT if (element.text or element.content_desc) else ""


def _hint(element: UiElement) -> str:
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", element.short_id)
    return re.sub(r"[-_./:]+", " ", words).strip().lower()


def _texts(node: ET.Element) -> str:
    parts = [a for n in node.iter() for a in (n.get("text") or n.get("label") or "",) if a.strip()]
    return " ".join(dict.fromkeys(p.strip() for p in parts))[:80]


def _list_rows(tree: UiTree) -> list[ET.Element]:
    """The rows of every list on screen: the direct children of a ListView, RecyclerView, …"""
    return [row for parent in tree.root.iter()
            if any(parent.get("class", parent.tag).endswith(c) for c in LIST_CLASSES) for row in parent]


def _containers(tree: UiTree) -> dict[int, str]:
    """For each node inside a list row, the text of that row (the list's direct child)."""
    out: dict[int, str] = {}
    for row in _list_rows(tree):
        text = _texts(row)
        for node in row.iter():
            if node is not row:
                out.setdefault(id(node), text)
    return out


ROLE_ALIASES: dict[str, tuple[str, ...]] = {"switch": (S.ROLE_SWITCH, S.ROLE_CHECKBOX),
                                            "checkbox": (S.ROLE_CHECKBOX, S.ROLE_SWITCH),
                                            "text": (S.ROLE_TEXT, S.ROLE_BUTTON), "image": (S.ROLE_IMAGE,)}


def narrow(tree: UiTree, elements: list[UiElement] | None, role: str = "", row: str = "") -> list[UiElement]:
    """Keep the *elements* of *role* that sit in the list row showing *row*; *elements* None: the row itself."""
    if row:
        want = row.strip().casefold()
        rows = [r for r in _list_rows(tree) if want in _texts(r).casefold()]
        rows.sort(key=lambda r: (_texts(r).casefold() != want, len(_texts(r))))  # the exact row first
        inside = {id(n): r for r in rows for n in r.iter() if n is not r}
        if elements is None:  # only the row named: the row itself
            return [tree._by_node[id(r)] for r in rows if id(r) in tree._by_node]
        by_element = {id(tree._by_node[k]): k for k in (id(n) for n in tree.root.iter()) if k in tree._by_node}
        elements = [e for e in elements if by_element.get(id(e)) in inside]
    if role:
        roles = ROLE_ALIASES.get(role, (role,))
        elements = [e for e in elements or () if role_of(e) in roles]
    return list(elements or ())


def observe_tree(tree: UiTree, platform: str, title: str = "",
                 only: list[UiElement] | None = None) -> ScreenObservation:
    """The visible, nameable elements of *tree* (or of its elements *only*) as a :class:`ScreenObservation`."""
    containers = _containers(tree)
    node_of = {id(el): node for node in tree.root.iter() for el in (tree._by_node.get(id(node)),) if el}
    elements: list[UIElement] = []
    truncated = False
    for el in tree.elements if only is None else only:
        if not el.visible:
            continue
        role = role_of(el) or (S.ROLE_TEXT if only is not None else "")
        if not role or (only is None and not (el.text or el.content_desc or el.resource_id or el.clickable
                                              or el.focusable)):
            continue
        if len(elements) >= MAX_ELEMENTS:
            truncated = True
            break
        is_field = role == S.ROLE_TEXTBOX
        if is_field:
            name = el.content_desc
        elif role == S.ROLE_TEXT:
            name = el.content_desc if el.content_desc != el.text else ""
        else:
            name = el.text or el.content_desc
        toggle = role in S.TOGGLE_ROLES
        node = node_of.get(id(el))
        b = el.bounds
        elements.append(UIElement(
            role=role, name=name.strip(),
            text=(el.text or el.content_desc) if role == S.ROLE_TEXT
            else (el.text if not is_field and el.text != name else ""),
            value=el.text if is_field else "",
            hint=_hint(el), container=containers.get(id(node), "") if node is not None else "",
            checked=el.checked if toggle else None, selected=True if el.selected else None,
            disabled=not el.enabled, focused=el.focused,
            selector=el.resource_id or (f"desc:{el.content_desc}" if el.content_desc else ""),
            clickable=el.clickable or role in S.CLICKABLE_ROLES,
            box=(b.x1, b.y1, b.width, b.height) if b is not None else None,
        ))
    package = next((e.package for e in tree.elements if e.package), "")
    return ScreenObservation(platform, f"app://{package}" if package else "", title, tuple(elements), truncated)

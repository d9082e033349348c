"""A device's UI hierarchy as elements: parsing ``uiautomator dump`` XML and Appium page sources.

One parser serves three shapes of XML:

* ``uiautomator dump``: ``<hierarchy><node text=… resource-id=… content-desc=… bounds="[x1,y1][x2,y2]">``;
* Appium's UiAutomator2 page source: the same attributes, the tag is the class
  (``<android.widget.TextView …>``);
* other Appium sources (XCUITest, the fake driver): ``name``/``label``/``value``
  and ``x``/``y``/``width``/``height`` (or ``left``/``top``) instead.

Elements are found the same way on every device (``text``, ``selector``, ``id``)::

    tree = parse_ui_xml(xml)
    tree.find(text="Wi-Fi")                       # visible text or content-desc, case-insensitive
    tree.find(selector="com.android.settings:id/title")   # resource-id, full or short ("title")
    tree.find(selector="desc:Navigate up")        # content-desc
    tree.find(selector="//node[@text='Wi-Fi']")   # XPath, ElementTree's subset
"""
from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any, Iterable

from backend_core.controllers.targets import target_params
from shared.commands import P
from shared.errors import ControllerError, RequestError

log = logging.getLogger(__name__)

SELECTOR_HELP = "resource-id (full or short), desc:<content-desc>, class:<widget class> or //XPath"
# how an Android element is named in click_element, on phones and TVs alike: the shared target
# parameters (text, role, selector, row, index) with Android's selector syntax, and id
ELEMENT_PARAMS = (*target_params(SELECTOR_HELP), P("id", description="resource-id, full or short"))

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(frozen=True)
class Bounds:
    """A rectangle in screen pixels: left, top, right, bottom."""

    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def width(self) -> int:
        return self.x2 - self.x1

    @property
    def height(self) -> int:
        return self.y2 - self.y1

    @property
    def center(self) -> tuple[int, int]:
        return (self.x1 + self.x2) // 2, (self.y1 + self.y2) // 2

    @property
    def empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def contains(self, x: int, y: int) -> bool:
        return self.x1 <= x < self.x2 and self.y1 <= y < self.y2

    @classmethod
    def parse(cls, attrs: dict[str, str]) -> "Bounds | None":
        """From ``bounds="[x1,y1][x2,y2]"`` or from ``x``/``y`` (``left``/``top``) and ``width``/``height``."""
        m = _BOUNDS.fullmatch(attrs.get("bounds", "").strip())
        if m:
            x1, y1, x2, y2 = (int(v) for v in m.groups())
            return cls(x1, y1, x2, y2)
        try:
            x = float(attrs.get("x", attrs.get("left", "")))
            y = float(attrs.get("y", attrs.get("top", "")))
            w, h = float(attrs["width"]), float(attrs["height"])
        except (KeyError, ValueError):
            return None
        return cls(int(x), int(y), int(x + w), int(y + h))

    def __str__(self) -> str:
        return f"[{self.x1},{self.y1}][{self.x2},{self.y2}]"


def _flag(attrs: dict[str, str], name: str) -> bool:
    return attrs.get(name, "").strip().lower() == "true"


@dataclass(frozen=True)
class UiElement:
    """One node of a UI hierarchy."""

    cls: str
    text: str = ""
    resource_id: str = ""
    content_desc: str = ""
    package: str = ""
    bounds: Bounds | None = None
    focused: bool = False
    focusable: bool = False
    clickable: bool = False
    selected: bool = False
    checked: bool = False
    enabled: bool = True
    displayed: bool = True

    @property
    def short_id(self) -> str:
        """``com.android.settings:id/title`` → ``title``."""
        return self.resource_id.split(":id/", 1)[-1]

    @property
    def label(self) -> str:
        return self.text or self.content_desc or self.short_id or self.cls

    @property
    def visible(self) -> bool:
        return self.displayed and (self.bounds is None or not self.bounds.empty)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"class": self.cls, "text": self.text, "id": self.resource_id,
                                "desc": self.content_desc}
        if self.bounds is not None:
            data["bounds"] = [self.bounds.x1, self.bounds.y1, self.bounds.x2, self.bounds.y2]
        for flag in ("focused", "focusable", "clickable", "selected", "checked"):
            if getattr(self, flag):
                data[flag] = True
        if not self.enabled:
            data["enabled"] = False
        return data

    @classmethod
    def from_xml(cls, node: ET.Element) -> "UiElement":
        a = node.attrib
        text = a.get("text") or a.get("label") or a.get("value") or ""
        if not text and node.text and node.text.strip() and len(node) == 0:
            text = node.text.strip()
        if _flag(a, "password") or "SecureTextField" in (a.get("class") or a.get("type") or node.tag):
            text = "••••" if text.strip() else ""   # a password box's text is never read out
        return cls(
            cls=a.get("class") or a.get("type") or node.tag,
            text=text.strip(),
            resource_id=a.get("resource-id") or a.get("id") or a.get("name") or "",
            content_desc=a.get("content-desc") or a.get("accessibility-id") or "",
            package=a.get("package", ""),
            bounds=Bounds.parse(a),
            focused=_flag(a, "focused"),
            focusable=_flag(a, "focusable"),
            clickable=_flag(a, "clickable"),
            selected=_flag(a, "selected"),
            checked=_flag(a, "checked"),
            enabled=a.get("enabled", "true").lower() != "false",
            displayed=a.get("displayed", a.get("visible", "true")).lower() != "false",
        )


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


@dataclass
class UiTree:
    """A parsed hierarchy: its root (for XPath) and its elements in document order."""

    root: ET.Element
    elements: list[UiElement] = field(default_factory=list)
    _by_node: dict[int, UiElement] = field(default_factory=dict, repr=False)

    def focused(self) -> UiElement | None:
        """The deepest element that has focus, if any."""
        focused = [e for e in self.elements if e.focused]
        return focused[-1] if focused else None

    def named(self) -> list[UiElement]:
        """Elements a person could name: with text, an id or a description, or that take input."""
        return [e for e in self.elements
                if e.visible and (e.text or e.resource_id or e.content_desc or e.clickable or e.focusable)]

    def find(self, text: str = "", selector: str = "", element_id: str = "") -> list[UiElement]:
        """Visible elements matching all of *selector*, *element_id* and *text*, best first.

        *text* matches the text or content-desc, case-insensitively; exact
        matches come before elements that merely contain it.
        """
        if not (text or selector or element_id):
            raise RequestError("name the element: give text, selector or id")
        candidates = [e for e in self.elements if e.visible]
        if selector:
            candidates = self._select(selector, candidates)
        if element_id:
            candidates = [e for e in candidates if _id_matches(element_id, e)]
        if text:
            want = _fold(text)
            exact = [e for e in candidates if want in (_fold(e.text), _fold(e.content_desc))]
            partial = [e for e in candidates if e not in exact and
                       (want in _fold(e.text) or want in _fold(e.content_desc))]
            candidates = exact + partial
        return candidates

    def _select(self, selector: str, candidates: list[UiElement]) -> list[UiElement]:
        sel = selector.strip()
        if sel.startswith("/") or sel.startswith(".//"):
            path = sel if sel.startswith(".") else "." + sel
            try:
                hits = self.root.findall(path)
            except (SyntaxError, KeyError) as exc:
                raise RequestError(f"unsupported XPath {selector!r} (ElementTree's subset: tags, "
                                   f"[@attr='value'], [n]): {exc}") from None
            chosen = {id(self._by_node[id(n)]) for n in hits if id(n) in self._by_node}
            return [e for e in candidates if id(e) in chosen]
        prefix, _, value = sel.partition(":")
        if prefix == "desc" and value:
            return [e for e in candidates if _fold(e.content_desc) == _fold(value)]
        if prefix == "class" and value:
            return [e for e in candidates if e.cls == value or e.cls.endswith("." + value)]
        if prefix == "text" and value:
            return [e for e in candidates if _fold(e.text) == _fold(value)]
        return [e for e in candidates if _id_matches(sel, e)]


def _id_matches(wanted: str, element: UiElement) -> bool:
    if not element.resource_id:
        return False
    return wanted == element.resource_id or (":id/" not in wanted and wanted == element.short_id)


def parse_ui_xml(xml: str | bytes) -> UiTree:
    """Parse a hierarchy dump; anything printed around the XML (adb's notices) is ignored."""
    raw = xml.decode("utf-8", errors="replace") if isinstance(xml, bytes) else xml
    start = raw.find("<")
    end = raw.rfind(">")
    if start < 0 or end < 0:
        raise ControllerError("the UI dump holds no XML")
    body = raw[start:end + 1]
    if body.startswith("<?xml"):
        body = body[body.find("?>") + 2:].lstrip()
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise ControllerError(f"the UI dump is not valid XML: {exc}") from exc
    tree = UiTree(root)
    for node in root.iter():
        if node is root and node.tag in ("hierarchy", "AppiumAUT"):
            continue
        element = UiElement.from_xml(node)
        tree.elements.append(element)
        tree._by_node[id(node)] = element
    return tree


def describe(elements: Iterable[UiElement], limit: int = 8) -> str:
    """A short list of labels, for messages: ``'Wi-Fi', 'Bluetooth', … (12 in all)``."""
    items = list(elements)
    labels = ", ".join(repr(e.label) for e in items[:limit])
    return labels + (f", … ({len(items)} in all)" if len(items) > limit else "") if items else "none"

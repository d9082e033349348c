"""What is on a device's screen now: the observation planners ground tasks in.

A controller that can read its screen structurally (a web page's DOM and
accessibility tree, Android's ``uiautomator dump``, Appium's page source)
returns a :class:`ScreenObservation`: the page's URL and title, and a flat list
of :class:`UIElement` with an ARIA-like role, the accessible name, the visible
text, field state and the text of the row or list item that contains it.

Planners use it to resolve what a task names ("the todo field", "customers",
"the delete button of buy milk") without a hand-written navigation tree; the
controller resolves the same description again at run time, by role, label,
text or placeholder, so nothing depends on a CSS selector the planner guessed.
"""
from __future__ import annotations

import hashlib
import re

from dataclasses import dataclass, field
from typing import Any

# ARIA-like roles an observation may use. Controllers map their platform's
# widgets onto these (an Android EditText is a textbox, a CheckBox a checkbox).
ROLE_BUTTON = "button"
ROLE_LINK = "link"
ROLE_TEXTBOX = "textbox"
ROLE_CHECKBOX = "checkbox"
ROLE_RADIO = "radio"
ROLE_SWITCH = "switch"
ROLE_COMBOBOX = "combobox"     # a dropdown: <select>, an ARIA combobox, an Android Spinner
ROLE_LISTBOX = "listbox"       # a list of options shown open: <select multiple>, <select size=5>
ROLE_OPTION = "option"
ROLE_TAB = "tab"
ROLE_MENUITEM = "menuitem"
ROLE_HEADING = "heading"
ROLE_LISTITEM = "listitem"
ROLE_ROW = "row"
ROLE_CELL = "cell"
ROLE_IMAGE = "img"
ROLE_TEXT = "text"             # static text with no other role
ROLE_SLIDER = "slider"

CLICKABLE_ROLES = frozenset({ROLE_BUTTON, ROLE_LINK, ROLE_TAB, ROLE_MENUITEM, ROLE_OPTION, ROLE_CHECKBOX,
                             ROLE_RADIO, ROLE_SWITCH, ROLE_LISTITEM, ROLE_ROW, ROLE_CELL})
FIELD_ROLES = frozenset({ROLE_TEXTBOX, ROLE_COMBOBOX})
TOGGLE_ROLES = frozenset({ROLE_CHECKBOX, ROLE_RADIO, ROLE_SWITCH})


@dataclass(frozen=True)
class UIElement:
    """One thing on the screen a task may name.

    ``name`` is the accessible name (label, aria-label, alt, visible text);
    ``hint`` holds words from ids, classes, test ids and titles that name a
    control with no text ("destroy", "close-btn"); ``container`` is the text
    of the row, list item or card it sits in, for row-relative targets
    ("delete buy milk"); ``hidden`` marks a control that shows only on hover
    of its row. ``selector`` is a locator the controller itself can use again.
    """

    role: str
    name: str = ""
    text: str = ""
    placeholder: str = ""
    value: str = ""
    hint: str = ""
    container: str = ""
    checked: bool | None = None
    selected: bool | None = None
    disabled: bool = False
    focused: bool = False
    hidden: bool = False
    options: tuple[str, ...] = ()
    level: int = 0
    href: str = ""
    selector: str = ""
    clickable: bool = False
    box: tuple[int, int, int, int] | None = None

    @property
    def label(self) -> str:
        """The best human name: accessible name, else text, else placeholder, else hint."""
        return self.name or self.text or self.placeholder or self.hint

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role}
        for key in ("name", "text", "placeholder", "value", "hint", "container", "href", "selector"):
            value = getattr(self, key)
            if value:
                d[key] = value
        for key in ("checked", "selected"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        for key in ("disabled", "focused", "hidden", "clickable"):
            if getattr(self, key):
                d[key] = True
        if self.options:
            d["options"] = list(self.options)
        if self.level:
            d["level"] = self.level
        if self.box is not None:
            d["box"] = list(self.box)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "UIElement":
        def opt_bool(key: str) -> bool | None:
            v = d.get(key)
            return None if v is None else bool(v)

        box = d.get("box")
        return cls(
            role=str(d.get("role") or ROLE_TEXT), name=str(d.get("name") or ""), text=str(d.get("text") or ""),
            placeholder=str(d.get("placeholder") or ""), value=str(d.get("value") or ""),
            hint=str(d.get("hint") or ""), container=str(d.get("container") or ""),
            checked=opt_bool("checked"), selected=opt_bool("selected"), disabled=bool(d.get("disabled")),
            focused=bool(d.get("focused")), hidden=bool(d.get("hidden")),
            options=tuple(str(o) for o in d.get("options") or ()), level=int(d.get("level") or 0),
            href=str(d.get("href") or ""), selector=str(d.get("selector") or ""),
            clickable=bool(d.get("clickable")),
            box=tuple(int(v) for v in box[:4]) if isinstance(box, (list, tuple)) and len(box) >= 4 else None,
        )


def _same_line(a: UIElement, b: UIElement) -> bool:
    """*b* is on *a*'s line of text (their boxes overlap vertically by half), or either was read with no box."""
    if a.box is None or b.box is None:
        return True
    top, bottom = max(a.box[1], b.box[1]), min(a.box[1] + a.box[3], b.box[1] + b.box[3])
    return bottom - top >= min(a.box[3], b.box[3]) / 2


@dataclass(frozen=True)
class ScreenObservation:
    """The screen as a controller read it: where (URL, title) and what (elements)."""

    platform: str                       # "web", "android", "appium"
    url: str = ""
    title: str = ""
    elements: tuple[UIElement, ...] = ()
    truncated: bool = False             # more elements existed than were reported
    # a modal dialog was open: only its elements were read, the page behind it is not seen (so nothing
    # is proved absent from it)
    modal: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = {"platform": self.platform, "url": self.url, "title": self.title,
             "elements": [e.to_dict() for e in self.elements], "truncated": self.truncated}
        if self.modal:
            d["modal"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ScreenObservation":
        return cls(str(d.get("platform") or ""), str(d.get("url") or ""), str(d.get("title") or ""),
                   tuple(UIElement.from_dict(e) for e in d.get("elements") or () if isinstance(e, dict)),
                   bool(d.get("truncated")), bool(d.get("modal")))

    def of_role(self, *roles: str) -> list[UIElement]:
        return [e for e in self.elements if e.role in roles]

    def headings(self) -> list[UIElement]:
        return self.of_role(ROLE_HEADING)

    def visible_texts(self) -> list[str]:
        return [t for e in self.elements if not e.hidden for t in (e.name, e.text) if t]

    def lines(self) -> list[str]:
        """:meth:`visible_texts`, and the lines of :meth:`line_elements`."""
        return self.visible_texts() + [e.text for e in self.line_elements()]

    def line_elements(self) -> list["UIElement"]:
        """The texts of consecutive plain-text children of one parent, read as the one line they show
        ("<strong>3</strong><span>items</span><span>left</span>" reads "3 items left"): an element of its own, at
        the parent's selector. Only where two children or more make the line."""
        out: list[UIElement] = []
        run: list[UIElement] = []
        parent = None
        for e in [*self.elements, None]:
            here = e.selector.rsplit(" > ", 1)[0] if e is not None and e.role == "text" and not e.hidden \
                and " > " in e.selector and e.text else None
            if here is not None and here == parent and e is not None and _same_line(run[-1], e):
                run.append(e)
                continue
            if len(run) > 1 and parent:
                out.append(UIElement(role="text", text=" ".join(x.text for x in run), selector=parent))
            run, parent = ([e] if here is not None and e is not None else []), here
        return out

    def digest(self) -> str:
        """A short fingerprint of what the screen shows (texts and field values)."""
        seen = "\n".join([*self.visible_texts(), *(e.value for e in self.elements if e.value)])
        return hashlib.sha256(seen.encode()).hexdigest()[:16]


@dataclass
class ObservationRecord:
    """One closed-loop decision of a run: what was seen, and what was planned from it."""

    clause: str
    url: str = ""
    title: str = ""
    elements_seen: int = 0
    decision: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    digest: str = ""        # of the visible texts: tells two looks at the same screen apart from a changed one

    def to_dict(self) -> dict[str, Any]:
        return {"clause": self.clause, "url": self.url, "title": self.title, "elements_seen": self.elements_seen,
                "decision": self.decision, "steps": self.steps, "digest": self.digest}


def name_as_words(name: str) -> re.Pattern[str]:
    """How a control's name is read among others, by the controller and by the planner counting alike: as whole
    words ("Save" in "Save all", never "encode" in "JSONEncoder()"). A long name the observer cut short may end
    mid-word."""
    return re.compile(r"(?<!\w)" + re.escape(name) + (r"(?!\w)" if len(name) <= 60 else ""), re.I)

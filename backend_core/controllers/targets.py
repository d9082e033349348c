"""How a command names the element it acts on: one declaration of the target parameters.

Every controller that finds elements (web, Android, Appium) declares its
element commands with these parameters, so a plan names a target the same way
on every device (see :mod:`shared.vocabulary`)::

    @command("Click an element", *target_params(CSS_HELP))
    def click_element(self, text="", role="", selector="", row="", index=0): ...

``text`` is resolved at run time (role + name, label, placeholder, visible
text, title, then id/class/test-id words); ``row`` first finds the row, list
item or card showing that text and looks inside it; ``index`` picks a match
(0 = first, -1 = last).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from shared.commands import P, ParamSpec, ParamType
from shared.screen import ScreenObservation, UIElement

CSS_HELP = "CSS selector"
ROLE_HELP = ("ARIA-like role: button, link, textbox, checkbox, radio, switch, combobox, option, tab, menuitem, "
             "heading, listitem, row, cell, img")

TEXT_PARAM = P("text", description="what the element shows or is called: accessible name, visible text, label, "
                                   "placeholder, title, or words of its id/class")
ROLE_PARAM = P("role", description=ROLE_HELP)
ROW_PARAM = P("row", description="text of the row, list item or card that contains the target "
                                 "(\"the delete button of buy milk\": row='buy milk'); alone, the row itself")
LABEL_PARAM = P("label", description="text of the label shown just before the element, for a value that a label "
                                     "names (\"RPS 0\": label='RPS', text='0')")
INDEX_PARAM = P("index", ParamType.INT, default=0, minimum=-50, maximum=50,
                description="which match: 0 = first, 1 = second, -1 = last")


def target_params(selector_help: str = CSS_HELP) -> tuple[ParamSpec, ...]:
    """``text, role, selector, row, index`` — the element target, with the platform's selector syntax."""
    return (TEXT_PARAM, ROLE_PARAM, P("selector", description=selector_help), ROW_PARAM, INDEX_PARAM)


# the web's declaration (CSS selectors); Android and Appium use target_params(SELECTOR_HELP)
TARGET_PARAMS = target_params(CSS_HELP)


def field_params(selector_help: str = CSS_HELP) -> tuple[ParamSpec, ...]:
    """``field, selector, row, index`` — a form field, named by its label, placeholder or name."""
    field = replace(TEXT_PARAM, name="field",
                    description="the field's label, placeholder, accessible name or name attribute; "
                                "empty = the focused field")
    return (field, P("selector", description=selector_help), ROW_PARAM, INDEX_PARAM)


@dataclass(frozen=True)
class Target:
    """An element as a command names it."""

    text: str = ""
    role: str = ""
    selector: str = ""
    row: str = ""
    index: int = 0

    @property
    def empty(self) -> bool:
        return not (self.text or self.role or self.selector or self.row)

    def describe(self, noun: str = "element") -> str:
        """``button 'Save' in row 'buy milk' #2`` — for messages."""
        parts = [self.role or noun]
        if self.text:
            parts.append(repr(self.text))
        if self.selector:
            parts.append(f"matching {self.selector}")
        if self.row:
            parts.append(f"in the row {self.row!r}")
        text = " ".join(parts)
        if self.index:
            text += f" #{self.index}"
        return text


def candidates(obs: ScreenObservation, role: str = "", limit: int = 8) -> str:
    """Labels of what is on screen, for "not found" messages: ``'Submit', 'Cancel'``."""
    def wanted(e: UIElement) -> bool:
        if e.hidden or not e.label:
            return False
        return e.role == role if role else (e.clickable or e.role in ("textbox", "combobox", "heading"))

    labels = list(dict.fromkeys(e.label for e in obs.elements if wanted(e)))
    if not labels and role:
        return candidates(obs, "", limit)
    shown = ", ".join(repr(label[:40]) for label in labels[:limit])
    return (shown + (f", … ({len(labels)} in all)" if len(labels) > limit else "")) if labels else "nothing"

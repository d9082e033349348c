"""A record's workflow action: "close ticket 1 as fixed", "reopen ticket 5", "assign ticket 2 to bob".

Trackers and review tools move a record through states with actions offered on
its page: a radio or a button named by the action ("resolve", "reassign",
"accept"), sometimes with a value beside it (a resolution to choose, an owner to
type). The tester names the action with their own verb; the page's own control
decides what is done. Nothing here knows any app: the control is found by its
label, the value by its place right after the control, and the action is saved
with the form's submit button.
"""
from __future__ import annotations

import re

from server.planners import checks, record_ids, records
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.language import Clause, quoted
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_BUTTON, ROLE_COMBOBOX, ROLE_RADIO, ROLE_TEXTBOX, UIElement

# a tester's verb and the words a page may use for the same action
_ALIASES: dict[str, tuple[str, ...]] = {
    "close": ("close", "resolve"), "resolve": ("resolve", "close"), "fix": ("resolve", "close"),
    "assign": ("assign", "reassign"), "reassign": ("reassign", "assign"), "reopen": ("reopen",),
    "accept": ("accept",), "approve": ("approve", "accept"), "reject": ("reject", "decline"),
    "decline": ("decline", "reject"), "archive": ("archive",), "publish": ("publish",),
    "unpublish": ("unpublish",), "merge": ("merge",), "cancel": ("cancel",),
}
WORKFLOW_VERBS = frozenset(_ALIASES)
_PARTICIPLE = {"close": "closed", "resolve": "closed", "fix": "closed", "reopen": "reopened", "accept": "accepted",
               "approve": "approved", "reject": "rejected", "decline": "declined", "archive": "archived",
               "publish": "published", "unpublish": "unpublished", "merge": "merged", "cancel": "cancelled"}
_CLAUSE = re.compile(r"^(?:please\s+)?(?P<verb>[a-z]+)\s+(?P<rec>.+?)(?:\s+as\s+(?P<as>[\w-]+(?:\s+[\w-]+)?)"
                     r"|\s+to\s+(?P<to>\"[^\"]+\"|'[^']+'|[\w.@-]+))?\s*$", re.I)


def _control(st: State, verb: str) -> UIElement | None:
    """The page's control for *verb*: a radio or button whose label is the action."""
    if st.live is None:
        return None
    for word in _ALIASES[verb]:
        for el in st.live.elements:
            label = (el.name or el.text or "").strip().lower()
            if el.role in (ROLE_RADIO, ROLE_BUTTON) and not el.hidden and \
                    (label == word or label.startswith(word + " ")):
                return el
    return None


def _beside(st: State, control: UIElement, role: str) -> UIElement | None:
    """The field that belongs to *control*: the next element, when it has *role* (a resolution, an owner)."""
    assert st.live is not None
    i = st.live.elements.index(control)
    for el in st.live.elements[i + 1:i + 3]:
        if el.role == role:
            return el
        if el.role in (ROLE_RADIO, ROLE_BUTTON):
            return None
    return None


def workflow_intent(c: Clause, st: State) -> bool:
    m = _CLAUSE.match(c.text.strip())
    if not m or m.group("verb").lower() not in _ALIASES or st.live is None or not st.open_world:
        return False
    verb = m.group("verb").lower()
    rec = m.group("rec").strip()
    where = record_ids.toward(st, rec)
    if where is None:
        return False
    if where is False:
        raise Defer(rec, replace_with=[c.text])
    control = _control(st, verb)
    if control is None:
        unfold = records.expander(st)
        if unfold is None:
            raise Unplannable(f"{rec} offers no {verb!r} action on its page", verb)
        st.click_live(unfold, f"Click {unfold.label!r}")
        raise Defer(verb, replace_with=[c.text])
    target = Target(TargetKind.LIVE_ELEMENT, 1.0, control.label, live=control)
    if control.role == ROLE_RADIO:
        st.add(V.SET_CHECKED, {"checked": True, "selector": control.selector} if control.selector else
               {"checked": True, "text": control.label, "role": ROLE_RADIO}, f"Choose {control.label!r}")
    else:
        st.click_live(target, f"Click {control.label!r}")
    value = m.group("as") or quoted(m.group("to") or "") or m.group("to") or ""
    if value:
        field = _beside(st, control, ROLE_COMBOBOX if m.group("as") else ROLE_TEXTBOX)
        if field is None or not field.selector:
            raise Unplannable(f"no field beside {control.label!r} for {value!r}", value)
        if field.role == ROLE_COMBOBOX:
            option = next((o for o in field.options if o.lower() == value.lower()), None)
            if option is None:
                raise Unplannable(f"{control.label!r} offers no {value!r}; it offers {', '.join(field.options)}", value)
            st.add(V.SELECT_OPTION, {"option": option, "selector": field.selector}, f"Choose {option!r}")
        else:
            st.add(V.INPUT_TEXT, {"text": value, "selector": field.selector, "clear": True}, f"Type {value!r}")
    if control.role == ROLE_RADIO:
        save = records.save_button(st)
        if save is None:
            raise Unplannable(f"no button to save the {verb!r} action", verb)
        st.click_live(save, f"Click {save.label!r}")
    st.summary.append(f"{verb} {rec}")
    shown = value or _PARTICIPLE.get(verb, "")
    try:
        st.expect_check(checks.text_shown(st.ctx, shown) if shown else None)
    except CannotCheck:
        st.expect_check(None)
    return True

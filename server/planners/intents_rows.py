"""A row's own controls: "the Add link next to Products", "click its delete button", and a record shown as
plain text in a row, opened through that row's link.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.language import clean, words
from server.planners.state import State, Unplannable
from shared.screen import CLICKABLE_ROLES, ROLE_LINK, ROLE_TEXTBOX

_OPENING_WORDS = {"view", "open", "details", "detail", "show", "more", "info"}
_DESTRUCTIVE_WORDS = {"delete", "remove", "drop", "destroy", "trash", "archive"}

_NEXT_TO = re.compile(r"^(?P<a>.+?)\s+(?:next to|beside|alongside|in the (?:row|line|entry) (?:of|for|with|showing)|"
                      r"on the (?:row|line) (?:of|for|with)|of the (?:row|line|entry) (?:of|for|with)?)\s+(?:the\s+)?(?P<b>.+)$",
                      re.I)


def row_relative(st: State, raw: str) -> bool:
    """"the Add link next to Products", "the delete button in the row of buy milk": a control of a row."""
    m = _NEXT_TO.match(raw)
    if not m or st.live is None:
        return False
    control = re.sub(r"^(?:the|a|an)\s+|\s+(?:link|button|icon|control|checkbox|box)$", "", m.group("a").strip(), flags=re.I)
    rows = grounding.rows(clean(m.group("b")), st.live, minimum=0.7)
    if not rows:
        return False   # not a row on this screen: read the words another way
    if set(words(control)) & _DESTRUCTIVE_WORDS:   # "the delete button of buy milk": its delete icon, then gone
        from server.planners.intents_form import delete_row

        return delete_row(st, clean(m.group("b")), rows[0].name)
    found = [t for t in grounding.live_elements(control, st.live, roles=CLICKABLE_ROLES, minimum=0.75)
             if t.live.container == rows[0].name]
    if not found:
        raise Unplannable(f"no {control!r} in the row of {m.group('b')!r}", control)
    t = found[0]
    st.click_live(t, f"Click {t.label!r} in the row of {m.group('b')!r}", row=rows[0].name)
    st.summary.append(f"click {t.label} in the row of {m.group('b')}")
    st.last_object = clean(m.group("b"))
    st.expect_check(None)
    return True


def open_by_row_link(st: State, t: Target) -> bool:
    """"open Basil" where Basil is plain text in a row: the row's own link opens its record (a "View"
    link, else a key like "9", else its first link that does not delete), and the record shows Basil."""
    el = t.live
    if el is None or el.clickable or el.role not in ("cell", "text") or not el.container or st.live is None:
        return False
    links = [e for e in st.live.elements if e.container == el.container and e.role == ROLE_LINK and not e.hidden
             and (e.name or e.text) and not set(words(e.name or e.text)) & _DESTRUCTIVE_WORDS]
    if not links:
        return False

    def rank(e: object) -> tuple[int, int]:
        name = (e.name or e.text).lower()   # type: ignore[attr-defined]
        order = 0 if set(words(name)) & _OPENING_WORDS else 1 if re.fullmatch(r"[\w-]{0,11}\d[\w-]{0,11}", name) else 2
        return order, links.index(e)   # type: ignore[arg-type]

    link = min(links, key=rank)
    st.click_live(Target(TargetKind.LIVE_ELEMENT, t.score, link.label, live=link),
                  f"Open the row of {t.label!r} (its {link.label!r} link)", row=el.container)
    st.summary.append(f"open {t.label}")
    st.last_object = t.label
    try:
        # an edit link opens a form: the record's name is then the value of one of its fields
        st.expect_check(checks.element(st.ctx, text=t.label, role=ROLE_TEXTBOX,
                                       description=f"Check the form of {t.label!r} is open")
                        if set(words(link.name or link.text)) & _EDITING_WORDS else checks.text_shown(st.ctx, t.label))
    except CannotCheck:
        st.expect_check(None)
    return True


_EDITING_WORDS = frozenset({"edit", "change", "modify", "update"})

"""Verbs done from a record's own page, with no tree: "edit the Coding Style page", "rename Meeting Notes to
Team Meetings". A wiki, a CMS or a document store keeps the page's Edit / Rename controls on the page itself (often
in a menu), not in a row of the list that links to it. So the record's link is opened first, and the verb is
planned again on the page it shows (closed loop), where its control is the page's own.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.language import clean
from server.planners.matching import words
from server.planners.state import Defer, State
from shared.screen import ROLE_BUTTON, ROLE_LINK, ROLE_TEXTBOX, UIElement

# each verb, and the words a page's control for it starts with
VERB_WORDS: dict[str, tuple[str, ...]] = {
    "edit": ("edit", "modify", "change"),
    "modify": ("edit", "modify", "change"),
    "change": ("edit", "modify", "change"),
    "update": ("edit", "update", "modify"),
    "rename": ("rename", "move"),
}
# what may follow the verb in such a control's label: "Edit", "Edit page", "Edit this document"
_OBJECT_WORDS = {"page", "this", "it", "document", "doc", "article", "entry", "record", "note", "post", "item",
                 "file", "source", "details"}
# a keyboard shortcut shown in a control's label: "Edit Page (e)", "Save (Ctrl+S)"
_SHORTCUT = re.compile(r"\s*[(\[](?:[^()\[\]\s]{1,3}|(?:ctrl|alt|shift|cmd|meta|⌘)[^()\[\]]*)[)\]]\s*$", re.I)
# words that stand for the page shown: "edit this page", "rename it"
_HERE = re.compile(r"^(?:this|the|current|that)?\s*(?:page|document|article|entry|one|it)?$", re.I)
_PAGE_NOUN = re.compile(r"\s+(?:page|article|document|entry|note)$", re.I)


def control_label(el: UIElement) -> str:
    """A control's label without the keyboard shortcut it shows."""
    return _SHORTCUT.sub("", el.name or el.text).strip()


def page_control(st: State, verb: str) -> Target | None:
    """The one control of the page (not of a row) whose label is the verb, alone or with the page as its object."""
    starts = VERB_WORDS.get(verb.lower())
    if st.live is None or not starts:
        return None
    found: list[UIElement] = []
    for el in st.live.elements:
        if el.role not in (ROLE_BUTTON, ROLE_LINK) or el.disabled or el.container:
            continue
        said = words(control_label(el))
        if said and said[0] in starts and len(said) <= 3 and all(w in _OBJECT_WORDS for w in said[1:]):
            found.append(el)
    labels = {control_label(e).lower() for e in found}
    if len(labels) != 1:
        return None
    el = next((e for e in found if not e.hidden), found[0])
    return Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el)


_NEAR = 4   # a panel's own controls sit this close to its heading (its toolbar, a card's header)


def near_heading(st: State, name: str, starts: tuple[str, ...]) -> Target | None:
    """The control of the panel headed *name* whose label starts with one of *starts*: where a screen shows
    several records at once (a wiki's open notes, cards, dialogs), each heading has its own Edit / Delete beside
    it. None where no one heading is that name, or it has no such control."""
    def fits(e: UIElement) -> bool:
        said = words(control_label(e))
        return e.role in (ROLE_BUTTON, ROLE_LINK) and bool(said) and said[0] in starts and len(said) <= 4

    found = panel_control(st, lambda h: grounding.norm(h.label) == grounding.norm(name), fits)
    return Target(TargetKind.LIVE_ELEMENT, 0.9, found[1].label, live=found[1]) if found else None


def panel_control(st: State, is_heading: Callable[[UIElement], bool],
                  fits: Callable[[UIElement], bool]) -> tuple[UIElement, UIElement] | None:
    """The one heading *is_heading* picks, and its nearest control that *fits*: on the heading's own line (a
    toolbar beside the title, before or after it), else below it before the next heading (a card: heading,
    body, then its controls)."""
    assert st.live is not None
    els = st.live.elements
    heads = [i for i, h in enumerate(els) if h.role == "heading" and not h.hidden and is_heading(h)]
    if len(heads) != 1:
        return None
    at = heads[0]
    head = els[at]
    usable = [(i, e) for i, e in enumerate(els[max(0, at - _NEAR):at + _NEAR + 1], max(0, at - _NEAR))
              if not e.hidden and not e.disabled and fits(e)]
    beside = [(abs(i - at), e) for i, e in usable if _same_line(head, e)]
    below: list[tuple[int, UIElement]] = []
    for i in range(at + 1, min(len(els), at + _NEAR + 1)):
        if els[i].role == "heading":
            break
        if any(j == i for j, _ in usable):
            below.append((i - at, els[i]))
    near = beside or below
    return (head, min(near, key=lambda p: p[0])[1]) if near else None


def _same_line(a: UIElement, b: UIElement) -> bool:
    """Whether *a* and *b* are drawn on one line (their boxes overlap vertically)."""
    if a.box is None or b.box is None:
        return False
    (_, ay, _, ah), (_, by, _, bh) = a.box, b.box
    return min(ay + ah, by + bh) - max(ay, by) > 0


def _here(st: State, name: str) -> bool:
    """Whether the page shown is *name*'s own: said as "this page", or its main heading (else its title's first
    part, before " - Site name") is that name. Never a name that is only a part of it ("Team" of "Team Wiki")."""
    if _HERE.fullmatch(name.strip()):
        return True
    assert st.live is not None
    headings = [h.label for h in st.live.headings()]
    said = (headings[0] if headings else re.split(r"\s+[-–—|·]\s+", st.live.title or "")[0]).strip()
    return bool(said) and grounding.similarity(name, said) >= 0.9


def _page_link(st: State, name: str) -> Target | None:
    """The link that opens the page called *name*: named by it whole, and going somewhere."""
    found = [t for t in grounding.live_elements(name, st.live, roles=frozenset({ROLE_LINK}), minimum=0.9)
             if t.live is not None and t.live.href and not grounding.stays_on_page(t.live.href)]
    hrefs = {t.live.href for t in found if t.live is not None}
    return found[0] if len(hrefs) == 1 else None


def verb_on_page(st: State, verb: str, name: str, again: str, value: str = "") -> bool:
    """*verb* done on the page of *name*: here, its control is clicked; elsewhere, its link is opened and *again*
    (the clause) is planned on the page it shows. On the form the control opened, a rename's *value* goes into
    its one text field. False where there is none of these."""
    from server.planners import records

    if st.live is None or verb.lower() not in VERB_WORDS:
        return False
    name = _PAGE_NOUN.sub("", clean(name)).strip()
    fields = records.form_fields(st)
    if fields:   # a form is open: a control named for the verb is its submit button, not the page's verb
        boxes = [e for e in fields if e.role == ROLE_TEXTBOX]
        submit = [e for e in st.live.elements if e.role == ROLE_BUTTON and not e.disabled and not e.hidden
                  and words(control_label(e))[:1] == [verb.lower()]]
        if not value or len(boxes) != 1 or len(submit) != 1:
            return False   # another form ("Add participant"): never the place of this verb's value
        save = Target(TargetKind.LIVE_ELEMENT, 0.9, submit[0].label, live=submit[0])
        from server.planners.intents_form import type_into
        from server.planners.intents_records import saved

        type_into(st, value, Target(TargetKind.LIVE_ELEMENT, 0.9, boxes[0].label, live=boxes[0]))
        st.click_live(save, f"Click {save.label!r}")
        st.last_object = value
        saved(st, value)   # the check of what was saved is planned on the screen the save leads to (Defer)
        return True
    if _here(st, name):
        control = page_control(st, verb)
        if control is None:
            return False
        st.click_live(control, f"Click {control_label(control.live) if control.live else control.label!r}")
        if again:
            raise Defer(name, replace_with=[again])
        st.expect_check(None)
        return True
    panel = near_heading(st, name, VERB_WORDS[verb.lower()]) or (
        near_heading(st, name, VERB_WORDS["edit"]) if verb.lower() == "rename" else None) if name else None
    if panel is not None:   # one of several records shown at once: its own control, beside its heading
        st.click_live(panel, f"Click {control_label(panel.live) if panel.live else panel.label!r} of {name!r}")
        raise Defer(name, replace_with=[again or f"{verb} {name}"])
    link = _page_link(st, name) if name else None
    if link is None or not _keeps_page_verbs(st, verb):
        return False
    st.click_live(link, f"Open {link.label!r}")
    try:   # its page is proved reached before its own control is looked for there
        st.check(checks.page(st.ctx, link.live.name or link.live.text if link.live is not None else link.label))
    except CannotCheck:
        pass   # a device with no page check: the control's own click fails where it is not there
    raise Defer(name, replace_with=[again or f"{verb} {name}"])


def _keeps_page_verbs(st: State, verb: str) -> bool:
    """Whether this app keeps page verbs on its pages: a control for *verb*, or for Edit or Rename, shows here."""
    return any(page_control(st, v) is not None for v in dict.fromkeys((verb.lower(), "edit", "rename")))

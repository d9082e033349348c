"""Marking a thing done (or not done) by its own control, where it has no checkbox: a to-do list's row with a
"Done" button ("tick off Buy oat milk"), or the thing's own page with "Mark Done". The control is one said whole
(an untick never clicks "Done"); the end state is that the row or page no longer offers it."""
from __future__ import annotations

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target
from server.planners.language import words
from server.planners.state import State
from shared.screen import ROLE_CHECKBOX


# what a row's control that marks it done (or not done) says, where the row has no checkbox of its own
_DONE_WORDS = ["done", "mark done", "mark as done", "complete", "mark complete", "mark as complete", "finish", "✓", "✔"]
_UNDONE_WORDS = ["not done", "mark not done", "mark as not done", "undo", "reopen", "mark incomplete", "incomplete",
                 "undone"]


def done_control(st: State, row: str, checked: bool, subject: str) -> bool:
    """"tick off Buy oat milk" in a list whose rows have a Done button, not a checkbox: that row's button; then
    the row no longer offers it (it shows the other state, or has left the open list)."""
    assert st.live is not None
    if any(e.container == row and e.role in (ROLE_CHECKBOX, "switch") for e in st.live.elements):
        return False
    wanted = {" ".join(words(w)) or w for w in (_DONE_WORDS if checked else _UNDONE_WORDS)}
    # (said whole, never a near match: "Done" is no "undone", "Mark as done" no "Mark as not done")
    found = [e for e in st.live.elements if e.container == row and e.role in ("button", "link") and not e.hidden
             and (" ".join(words(e.name or e.text)) or (e.name or e.text).strip()) in wanted]
    if not found:
        return False
    control = Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, found[0].name or found[0].text, live=found[0])
    st.click_live(control, f"Mark {subject!r} {'done' if checked else 'not done'} ({control.label!r})", row=row)
    st.last_object = subject
    try:
        st.expect_check(checks.element(st.ctx, text=control.label, role=control.live.role, row=row, present=False,
                                       description=f"Check {subject!r} no longer offers {control.label!r}"))
    except CannotCheck:
        st.expect_check(None)
    return True


def own_page_done(st: State, checked: bool, subject: str) -> bool:
    """"tick off Buy oat milk" on Buy oat milk's own page: its "Mark Done" (or "Mark Not Done"); then the page no
    longer offers it."""
    from server.planners.page_names import is_this_page

    assert st.live is not None
    if not subject or not is_this_page(st, subject):
        return False
    wanted = _DONE_WORDS if checked else _UNDONE_WORDS
    found = [e for w in wanted for e in st.live.elements if e.role in ("button", "link") and not e.hidden
             and " ".join(words(e.name or e.text)) == " ".join(words(w))]
    found += [e for e in st.live.elements if e.role in ("button", "link") and not e.hidden
              and " ".join(words(e.name or e.text)) in {f"mark {' '.join(words(w))}" for w in wanted}]
    if not found:
        return False
    el = found[0]
    label = el.name or el.text
    st.click_live(Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, label, live=el),
                  f"Mark {subject!r} {'done' if checked else 'not done'} ({label!r})")
    st.last_object = subject
    try:
        st.expect_check(checks.element(st.ctx, text=label, role=el.role, present=False, exact=True,
                                       description=f"Check {subject!r} no longer offers {label!r}"))
    except CannotCheck:
        st.expect_check(None)
    return True

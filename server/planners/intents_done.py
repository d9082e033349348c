"""Marking a thing done (or not done) by its own control, where it has no checkbox: a to-do list's row with a
"Done" button ("tick off Buy oat milk"), or the thing's own page with "Mark Done". The control is one said whole
(an untick never clicks "Done"); the end state is that the row or page no longer offers it."""
from __future__ import annotations

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target
from server.planners.language import words
from server.planners.state import State
from shared.screen import ROLE_CHECKBOX, UIElement


# what a row's control that marks it done (or not done) says, where the row has no checkbox of its own
_DONE_WORDS = ["done", "mark done", "mark as done", "complete", "mark complete", "mark as complete", "finish", "✓", "✔"]
_UNDONE_WORDS = ["not done", "mark not done", "mark as not done", "undo", "reopen", "mark incomplete", "incomplete",
                 "undone"]


def _said(label: str) -> str:
    return " ".join(words(label)) or label.strip()


def done_control(st: State, row: str, checked: bool, subject: str) -> bool:
    """"tick off Buy oat milk" in a list whose rows have a Done button, not a checkbox: that row's button; then
    the row no longer offers it (it shows the other state, or has left the open list)."""
    assert st.live is not None
    if any(e.container == row and e.role in (ROLE_CHECKBOX, "switch") for e in st.live.elements):
        return False
    wanted = {_said(w) for w in (_DONE_WORDS if checked else _UNDONE_WORDS)}
    # (said whole, never a near match: "Done" is no "undone", "Mark as done" no "Mark as not done")
    found = [e for e in st.live.elements if e.container == row and e.role in ("button", "link") and not e.hidden
             and _said(e.name or e.text) in wanted]
    if not found:
        return False
    _mark(st, found[0], checked, subject, row=row)
    return True


def own_page_done(st: State, checked: bool, subject: str) -> bool:
    """"tick off Buy oat milk" on Buy oat milk's own page: its "Mark Done" (or "Mark Not Done"); then the page no
    longer offers it."""
    from server.planners.page_names import is_this_page

    assert st.live is not None
    if not subject or not is_this_page(st, subject):
        return False
    said = [_said(w) for w in (_DONE_WORDS if checked else _UNDONE_WORDS)]
    wanted = said + [f"mark {w}" for w in said]   # (a word said alone before the same word after "mark")
    found = sorted((e for e in st.live.elements if e.role in ("button", "link") and not e.hidden
                    and _said(e.name or e.text) in wanted), key=lambda e: wanted.index(_said(e.name or e.text)))
    if not found:
        return False
    _mark(st, found[0], checked, subject, exact=True)
    return True


def _mark(st: State, el: UIElement, checked: bool, subject: str, row: str = "", exact: bool = False) -> None:
    """Click *el*, the control that marks *subject* done (or not done); then *el* must be gone (from *row*)."""
    label = el.name or el.text
    st.click_live(Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, label, live=el),
                  f"Mark {subject!r} {'done' if checked else 'not done'} ({label!r})", **({"row": row} if row else {}))
    st.last_object = subject
    try:
        st.expect_check(checks.element(st.ctx, text=label, role=el.role, row=row, present=False, exact=exact,
                                       description=f"Check {subject!r} no longer offers {label!r}"))
    except CannotCheck:
        st.expect_check(None)

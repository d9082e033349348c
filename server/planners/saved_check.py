"""The check that a record just saved exists, planned on the screen the save led to.

After "add a bookmark titled PyPI" is filled in and saved, the app may show the list with the new record
on it, the record's own page, or a page of the list the record is not on, with the app's own notice
("Record was successfully created."). The check is planned once that screen is read:

- the app's own notice names the record ("The customer “Bob Chen” was added successfully."): the notice is checked,
  word for word (the list the save returns to may have shown the name already);
- the record's name is on it: the name is checked;
- it is not, and the app says it saved something: that notice is checked, word for word;
- neither: the name is checked, and the run fails where the app showed no sign of the record.

A form sent back with an error shows no notice that says it saved, so a save the app refused never passes.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.page_names import is_this_page
from server.planners.language import Act, Clause
from server.planners.state import Defer, State, Unplannable
from shared.screen import ROLE_TEXTBOX, UIElement

_SAVED = re.compile(r'^check that "(?P<x>[^"]+)" was saved(?: for "(?P<rec>[^"]+)")?'
                    r'(?: \((?P<n>\d+) in "(?P<sel>[^"]+)" before\))?(?P<again>(?: \(sent on\))*)$')
# a screen that is still the form being saved: a page to edit or make a record on (…/edit, …/new), where the save
# led to the form's next part (a wiki's editor after "Create and open in editor")
_EDITING_URL = re.compile(r"/(?:edit|new|create|add)(?:[/?#]|$)|[?&](?:action|do)=edit\b", re.I)
SENT_ON_MAX = 2
# the one box of a save's dialog that asks for words about the change, never a field of the record
_MESSAGE_BOX = re.compile(r"\b(?:commit|message|comment|reason|change\s+note|edit\s+summary)\b", re.I)
_SAYS_SAVED = re.compile(r"\b(?:success(?:fully)?|created|saved|added|updated|stored)\b", re.I)
# (a notice of something taken away is no sign of a save: "Success to delete a study" after a rename that failed)
_SAYS_NOT = re.compile(r"\b(?:not|no|error|errors|fail(?:ed|ure)?|invalid|unable|cannot|can't|couldn't|required|"
                       r"missing|already|delet(?:e|ed|ing|ion)|remov(?:e|ed|ing|al)|archiv(?:e|ed|ing)|trash(?:ed)?|"
                       r"discard(?:ed)?)\b", re.I)
NOTICE_MAX_WORDS = 14


def saved_clause(name: str, record: str = "", before: tuple[str, int] | None = None) -> str:
    """The clause that checks *name* was saved, once its form has been sent; a value saved on a *record* is
    checked in that record's row where the next screen lists it. *before*: (the selector of a column, how many
    of its cells showed *name* before the save), for a record all of whose values were shown already (a shift
    on Fri, 17:00-23:00, Bar, as another one is): one more of them proves it."""
    return f'check that "{name}" was saved' + (f' for "{record}"' if record and record != name else "") + \
        (f' ({before[1]} in "{before[0]}" before)' if before else "")


def _record_row(st: State, record: str) -> str:
    """The one row of the screen shown that is *record*'s, else "" (several rows, or none, name no row)."""
    found = grounding.rows(record, st.live, minimum=grounding.BY_WORDS)
    if not found or len(found) > 1 and found[1].score >= found[0].score - 0.01:
        return ""
    return found[0].name


def notice(st: State) -> str:
    """The app's own short notice that it saved something, on the screen shown, else ""."""
    assert st.live is not None
    for e in st.live.elements:
        said = (e.name or e.text or "").strip()
        if e.hidden or not said or len(said.split()) > NOTICE_MAX_WORDS:
            continue
        if _SAYS_SAVED.search(said) and not _SAYS_NOT.search(said):
            return said
    return ""


def _holds(text: str, name: str) -> bool:
    """*text* says *name*: a number as a whole number ("6" is not in "2026"), anything else as words within it."""
    if re.fullmatch(r"[-+]?\d+(?:[.,]\d+)?", name.strip()):
        return re.search(rf"(?<![\w.,]){re.escape(name.strip())}(?![\w]|[.,]\d)", text) is not None
    return name.casefold() in text.casefold()


def _shown(st: State, name: str) -> bool:
    assert st.live is not None
    # what a field still holds is no sign it was saved (the editor, the form sent back)
    return any(_holds(e.name or e.text or ("" if e.role in _FIELD_ROLES else e.value) or "", name)
               for e in st.live.elements if not e.hidden)


_FIELD_ROLES = frozenset({"textbox", "combobox", "searchbox"})
# what names a choice or a way somewhere, never a value the record holds: a radio's "Closed", a box's label, an
# option, the sidebar's link "Errands"
_CHOICE_ROLES = frozenset({"radio", "checkbox", "switch", "option", "menuitem", "tab"})


def _a_choice(e: UIElement) -> bool:
    return e.role in _CHOICE_ROLES or e.role == "link" and bool(re.search(r"\bnav", e.hint))   # a navigation's link


def _shown_as_a_value(st: State, name: str):
    """The check that *name* was saved where the screen shows it as a value: the element of a role that holds
    one (a cell, a text, a list item), never a radio, a box or a navigation link that names it anyway (a
    status's "Closed" radio, the sidebar's "Errands"); where only such a choice shows it, the app's notice, else
    refused."""
    assert st.live is not None
    showing = [e for e in st.live.elements if not e.hidden
               and _holds(e.name or e.text or ("" if e.role in _FIELD_ROLES else e.value) or "", name)]
    values = [e for e in showing if not _a_choice(e)]
    if values and len(values) < len(showing):
        return checks.element(st.ctx, text=name, role=values[0].role,
                              description=f"Check {name!r} is shown as the record's, not only as a choice")
    if values:
        return checks.text_shown(st.ctx, name)
    told = notice(st)
    if told:
        return checks.element(st.ctx, text=told, exact=True, description=f"Check the app says {told!r}")
    raise Unplannable(f"{name!r} shows only as a choice to make on this screen ({showing[0].role} {showing[0].label!r}): "
                      "nothing here tells it was saved")


# the tester's own words for it: "check it was saved", "make sure "Chicago" got updated" (a pronoun the planner
# read while the clause waited for its screen is quoted)
_SAID_SAVED = re.compile(r'^(?:that\s+)?(?:it|this|they|"(?P<x>[^"]+)")\s+(?:(?:was|were|got|has been|have been)\s+)?'
                         r'(?:successfully\s+)?(?:saved|stored|recorded|changed|updated)$', re.I)   # "check it saved" too


def saved_check_intent(c: Clause, st: State) -> bool:
    m = _SAVED.match(c.text.strip())
    said = _SAID_SAVED.match(c.rest.strip().rstrip(".!")) if m is None and c.act is Act.CHECK else None
    if m is None and said is None:
        return False
    name = m.group("x") if m is not None else said.group("x") or st.last_object
    if st.screen is not None and st.steps:
        raise Defer(name or "the save")   # the screen the save leads to is read first
    if m is not None and st.live is not None and _send_on(st, m):
        return True
    if name:
        st.last_object = name   # "add a customer Lena Vogel, then check she is listed"
    try:
        if not name:   # "check it was saved" with nothing named before: the app's own notice must say so
            told = notice(st) if st.live is not None else ""
            if not told:
                raise Unplannable("nothing on the screen says what was saved: name it (\"check Chicago was saved\")")
            st.check(checks.element(st.ctx, text=told, exact=True, description=f"Check the app says {told!r}"))
            return True
        if m is not None and m.group("sel"):   # one more cell of the column shows it than before the save
            more = int(m.group("n")) + 1
            st.check(checks.element(st.ctx, text=name, selector=m.group("sel"), count=more, exact=True,
                                    description=f"Check {more} cells of the list show {name!r} (one more than "
                                                f"before the save)"))
            return True
        row = _record_row(st, m.group("rec")) if m is not None and m.group("rec") and st.live is not None \
            and not is_this_page(st, m.group("rec")) else ""   # a page's own text is not in a row of its name
        if row:   # "Chloe" saved as who paid for Electricity: in Electricity's row, not anywhere on the page
            st.check(checks.element(st.ctx, text=name, row=row,
                                    description=f"Check the row of {m.group('rec')!r} shows {name!r}"))
            return True
        told = notice(st) if st.live is not None else ""
        if told and name.casefold() in told.casefold():
            # the app's own notice names it ("The customer “Bob Chen” was added successfully."): the list it comes
            # back to may have shown that name before the save; the notice was not there before
            st.check(checks.element(st.ctx, text=told, exact=True, description=f"Check the app says {told!r}"))
            return True
        if st.live is not None and _shown(st, name):
            st.check(_shown_as_a_value(st, name))
            return True
        if st.live is None:
            st.check(checks.text_shown(st.ctx, name))
            return True
        if told:
            st.summary.append(f"{name!r} is not on the screen after the save; the app says {told!r}")
            st.check(checks.element(st.ctx, text=told, exact=True,
                                    description=f"Check the app says {name!r} was saved ({told!r})"))
            return True
        st.check(checks.text_shown(st.ctx, name))
    except CannotCheck:
        return True   # a device with no check: the save is the last step
    return True


def _send_on(st: State, m: re.Match[str]) -> bool:
    """The save led to a dialog that asks to confirm it (a commit message and its Save), or to the form's next
    part (still a page to edit, with its own Save): send it on, and check once the screen after it is read. A
    record is never proved saved by the form that still holds it."""
    from server.planners import records

    if notice(st):
        return False
    assert st.live is not None
    if not (st.live.modal or _EDITING_URL.search(st.live.url or "")):
        return False
    save = records.save_button(st)
    if save is None or save.live is None or not re.match(r"^\W*(?:save|submit|publish|confirm|ok|done|commit)\b",
                                                          save.label, re.I):
        return False
    if m.group("again").count("(sent on)") >= SENT_ON_MAX:   # still the form: the save never went through
        try:
            st.check(checks.element(st.ctx, text=save.live.name or save.live.text, role=save.live.role,
                                    present=False, description=f"Check the save went through ({save.label!r} "
                                                               f"is gone)"))
        except CannotCheck:
            return False
        return True
    if st.live.modal:   # the dialog's own empty box (a wiki's commit message, a reason): said in a few words
        from server.planners.form_fill import fill_textbox

        for box in [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled
                    and not (e.value or "").strip() and _MESSAGE_BOX.search(" ".join((e.name, e.placeholder)))]:
            fill_textbox(st, box, f"Update {m.group('rec') or m.group('x')}")
    st.click_live(save, f"Click {save.label!r} to finish the save")
    raise Defer(m.group("x"), replace_with=[m.group(0) + " (sent on)"])

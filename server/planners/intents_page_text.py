"""Adding words to a page's own text: "edit the Release Checklist and add a line 'Tag the build' at the end",
"append the sentence 'Welcome, testers!' to the Home page".

The words go at the end of the page's text editor (a wiki's CodeMirror, a notes app's text box), opened with the
page's "Edit" control where the page shows its text read-only, and the page is saved: the text a tester adds to
a page is meant to stay. The check that follows is the one any save gets (saved_check): the words, on the
screen the save leads to, never in the editor that still holds them.
"""
from __future__ import annotations

import re

from server.planners import grounding, records
from server.planners.intents_check import own_part
from server.planners.page_names import is_this_page
from server.planners.language import Act, Clause, quoted, read_clause
from server.planners.saved_check import saved_clause
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_LINK, UIElement

# "add a line 'X'", "append the sentence 'X'", "write the paragraph 'X' at the end of Home"
_ADD_TEXT = re.compile(
    r"^(?:add|append|write|insert|put)\s+(?:a\s+|an\s+|the\s+|one\s+)?(?:new\s+|extra\s+|further\s+)?"
    r"(?P<unit>line|sentence|paragraph|bullet(?:\s+point)?|text|words)?\s*"
    r"(?P<q>[\"“'][^\"”']+[\"”'])"
    r"(?:\s+(?:at|to)\s+the\s+(?:end|bottom)(?:\s+of\s+(?:the\s+)?(?P<end_of>[\"“'][^\"”']+[\"”']|.+))?)?"
    r"(?:\s+(?:to|on|in|into|onto)\s+(?:the\s+)?(?P<page>.+?))?\s*$", re.I)
_PAGE_WORD = re.compile(r"\s+(?:page|article|document|note)$", re.I)
# units that start on a line of their own
_LINE_UNITS = ("line", "paragraph", "bullet", "bullet point")


def _editor(st: State) -> UIElement | None:
    """The screen's one text editor that nothing names, else None."""
    found = records.unnamed_editors(st)
    if len(found) == 1:
        return found[0]
    if found:
        return None
    box = records.field_for(st, "text", set())   # a wiki's text area that no label names (Trac's #text)
    return box if box is not None and not box.name and not box.placeholder and "text" in box.hint.split() else None


def _field_named(st: State, said: str) -> UIElement | None:
    """A text box of the screen shown that *said* names: its label ("the description"), or a part of it this
    page has ("the rye loaf description" on Rye Loaf's page)."""
    if st.live is None or st.moved:
        return None
    said = re.sub(r"^(?:the|its|their)\s+", "", said.strip(), flags=re.I)
    for name in (said, own_part(st, said)):
        found = grounding.live_elements(name, st.live, roles=frozenset({"textbox"}), minimum=0.85) if name else []
        if found and found[0].live is not None and found[0].live.name and not found[0].live.disabled:
            return found[0].live
    return None


def _here(c: Clause, m: re.Match[str], page: str = "") -> str:
    """The clause for the page once it is shown: its words and unit, and the page that shows them."""
    # words with no unit said go on a line of their own ("add 'bread' to the end of the shopping list")
    return f"{c.verb} the {m.group('unit') or 'line'} {m.group('q')}" + (f" at the end of {page}" if page else "")


def append_text_intent(c: Clause, st: State) -> bool:
    if c.act not in (Act.ADD, Act.TYPE):
        return False
    m = _ADD_TEXT.match(c.text.strip().rstrip("."))
    if m is None:
        return False
    if not (m.group("unit") or c.verb.lower() == "append"):
        # "add 'bread' to the end of the shopping list": the end of a page a link here names, or of this one
        end_of = _PAGE_WORD.sub("", quoted(m.group("end_of") or "") or (m.group("end_of") or "").strip())
        if not end_of or st.live is None or not (is_this_page(st, end_of) or grounding.live_elements(
                end_of, st.live, roles=frozenset({ROLE_LINK}), minimum=0.9) or _field_named(st, end_of)):
            return False
    if st.live is None:
        if st.moved and st.screen is not None:
            raise Defer("the page")   # "on the Home page, append …": planned on that page
        return False
    words_added = quoted(m.group("q")) or ""
    said_page = m.group("end_of") or m.group("page") or ""
    page = _PAGE_WORD.sub("", quoted(said_page) or said_page.strip())
    field = _field_named(st, page) if page else None
    if field is not None:   # "… to the end of the description": a field of the record shown, its text kept
        st.add(V.INPUT_TEXT, {"text": " " + words_added, "field": field.name, "clear": False},
               f"Add {words_added!r} at the end of {field.name}")
        st.last_object = words_added
        save = records.save_button(st)
        if save is None or any(read_clause(t).act is Act.SUBMIT for t in st.later):
            st.expect_check(None)
            return True   # saved by the task itself, or a field that keeps what is typed
        st.click_live(save, f"Click {save.label!r}")
        raise Defer(words_added, replace_with=[saved_clause(words_added)])
    if page and not is_this_page(st, page):
        link = records.record_link(st, page) or next(iter(
            grounding.live_elements(page, st.live, roles=frozenset({ROLE_LINK}), minimum=0.85)), None)
        if link is None or link.live is None:   # a page no link here names: the app's search or lists find it
            from server.planners.list_search import seek_record

            return seek_record(st, page, c.text)
        st.click_live(link, f"Open {link.label!r}")
        raise Defer(page, replace_with=[_here(c, m, page)])
    editor = _editor(st)
    if editor is None:
        unfold = records.page_editor_control(st, page)   # the page shows its text read-only: "Edit" opens its editor
        if unfold is None:
            # words to add to a page's text are never a record to make (a note titled "bread")
            raise Unplannable("no text editor here, and no Edit control opens one: open the page's editor first")
        st.click_live(unfold, f"Click {unfold.label!r}",
                      **({"row": unfold.live.container} if unfold.live is not None and unfold.live.container else {}))
        raise Defer("the page's editor", replace_with=[_here(c, m)])
    unit = (m.group("unit") or "").lower()
    typed = ("\n" if unit in _LINE_UNITS or not unit and "\n" not in words_added else " ") + words_added
    where = {"selector": editor.selector} if editor.selector and not (editor.name or editor.placeholder) else \
        {"field": editor.name or editor.placeholder}
    st.add(V.INPUT_TEXT, {"text": typed, **where, "clear": False}, f"Add {words_added!r} at the end of the page's text")
    st.last_object = words_added
    if any(read_clause(t).act is Act.SUBMIT for t in st.later):
        st.expect_check(None)
        return True   # the task saves it itself
    save = records.save_button(st)
    if save is None:
        raise Unplannable("no button on the screen saves the page's text: say which one to press", "save")
    st.click_live(save, f"Click {save.label!r}")
    raise Defer(words_added, replace_with=[saved_clause(words_added)])

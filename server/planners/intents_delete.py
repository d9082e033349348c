"""Deleting a record in a web app: by its row's own delete control, through its own page, or through its list;
then confirming when the app asks, and proving the record gone (or, for a soft delete, deactivated).
"""
from __future__ import annotations

import re

from server.planners import checks, grounding, record_ids, records, site_search
from server.planners.checks import CannotCheck
from server.planners.language import Act, Clause, clean, quoted, words
from server.planners.list_search import addressed_elsewhere, go_to_list, on_list_of, seek_record
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_BUTTON, ROLE_CHECKBOX, ROLE_LINK, UIElement

#: the label of a soft delete's control: the record stays, deactivated
SOFT_DELETE = "deactivate"


def deletion_clause(st: State, name: str, shown_as: UIElement | None, control: str = "") -> str:
    """The clause that finishes a deletion on the next screen: confirm if asked, then prove the record gone.

    How it is proved depends on how the record was listed: by its own link (its link must be gone:
    a "was deleted" message may still name it), or as a row of text (that row must be gone). Deleted by
    a *control* that deactivates, the row stays: it must have lost that control.
    """
    if SOFT_DELETE in words(control):
        return f'if asked confirm the deactivation of the row "{name}"'
    how = "link" if shown_as is not None and shown_as.role == ROLE_LINK and \
        grounding.similarity(name, shown_as.name or shown_as.text) >= 0.85 else "row"
    return f'if asked confirm the deletion of the {how} "{name}"'


def confirm_intent(c: Clause, st: State) -> bool:
    """"if asked confirm the deletion of the row "X"": click the confirmation when there is one, then X is gone."""
    m = re.match(r"^if asked,?\s+confirm(?:\s+the\s+(?:deletion|(?P<soft>deactivation))\s+of\s+"
                 r"(?:the\s+(?P<how>link|row)\s+)?(?P<x>.+))?$", c.text.strip(), re.I)
    if not m:
        return False
    if st.live is None or st.moved:   # the confirmation shows on the screen the steps before lead to
        raise Defer("confirmation")
    name = quoted(m.group("x") or "") or clean(m.group("x") or "")
    button = records.confirm_button(st, name)
    asking = _asking_heading(st) if button is not None else None
    if button is not None:
        _type_the_phrase(st)
        st.click_live(button, f"Confirm: {button.label!r}")
    if asking is not None:
        # the question must be gone: an app that refuses (a phrase not typed, an error) keeps asking, and a list
        # hidden behind its question shows no row at all
        st.check(checks.element(st.ctx, text=asking.label, role="heading", present=False,
                                description=f"Check {asking.label!r} is answered"))
    if name:
        how = (m.group("how") or "row").lower()
        try:
            if m.group("soft"):   # deactivated, not deleted: the row stays, without its "deactivate"
                step = checks.element(st.ctx, text=SOFT_DELETE, row=name, present=False,
                                      description=f"Check {name!r} is deactivated")
            else:
                step = (checks.element(st.ctx, text=name, role=ROLE_LINK, present=False,
                                   description=f"Check the link {name!r} is gone") if how == "link" else
                        checks.element(st.ctx, row=name, present=False,
                                       description=f"Check the row of {name!r} is gone"))
        except CannotCheck:
            step = checks.text_shown(st.ctx, name, present=False)
        st.check(step)
        if not m.group("soft"):
            st.gone.add(grounding.norm(name))
        st.explicit_check_last = True
        st.expect_check(None)
    elif button is None:
        raise Unplannable("nothing to confirm on the screen")
    return True


_DELETE_CONTROLS = ("delete", "remove", "drop", "trash", "destroy", "discard", SOFT_DELETE)

# "please enter the phrase DELETE in the box below", "type the name of the project to confirm: Apollo"
_PHRASE = re.compile(r"\b(?:type|enter|write|key\s+in)\s+(?:in\s+)?(?:the\s+(?:phrase|word|text)\s+)?[\"'“‘]?"
                     r"(?P<p>(?-i:[A-Z][A-Z0-9_-]+)|[^\s\"'“”‘’]+(?=[\"'”’]))[\"'”’]?\s+(?:in|into|to\s+confirm|below|here)\b",
                     re.I)


def _asking_heading(st: State) -> UIElement | None:
    """The heading of a question the screen asks before deleting ("Delete Collection", "Are you sure?")."""
    if st.live is None:
        return None
    return next((h for h in st.live.headings() if not h.hidden and re.search(
        r"\b(?:delet\w*|remov\w*|confirm\w*|sure|discard\w*|destroy\w*|drop)\b", h.label, re.I)), None)


def _type_the_phrase(st: State) -> None:
    """A confirmation that asks for a phrase typed first ("enter the phrase DELETE in the box below"): typed into
    its one box, before the confirmation is clicked."""
    assert st.live is not None
    said = next((m for t in st.live.visible_texts() for m in [_PHRASE.search(t)] if m), None)
    boxes = grounding.textboxes(st.live)
    if said is None or len(boxes) != 1 or boxes[0].value:
        return
    from server.planners.intents_form import type_into

    type_into(st, said.group("p"), grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, boxes[0].label,
                                                   live=boxes[0]))


# "this one", "this bookmark", "the current record", "the watch shown": the record whose own page is on the screen
_THIS = re.compile(r"^(?:this|that|this\s+one|that\s+one|the\s+current\s+one|(?:this|that|the\s+current|the\s+open(?:ed)?)"
                   r"\s+[a-z]+|the\s+[a-z]+\s+(?:shown|open|opened|on\s+(?:the\s+)?(?:screen|page)))$", re.I)


def delete_shown_intent(c: Clause, st: State) -> bool:
    """"delete this one", "remove this bookmark": on a record's own page (or form), the page's own delete control
    (in no row); the proof that it went is the name its form or page shows, gone from the list the app shows next."""
    if c.act is not Act.DELETE or st.live is None or not _THIS.match(c.rest.strip().rstrip(".!")):
        return False
    controls = [e for e in st.live.elements if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled
                and e.container in ("", e.name, e.text) and set(words(e.name or e.text)) & set(_DELETE_CONTROLS)]
    name = _shown_record_name(st)
    if not controls or not name:
        return False
    control = controls[0]
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, control.label, live=control),
                  f"Delete {name!r} (the record shown)")
    st.last_object = name
    raise Defer(name, replace_with=[deletion_clause(st, name, None, control.name or control.text)])


def _shown_record_name(st: State) -> str:
    """The name of the record whose form is shown: its name-like field's value, else its address field's."""
    for key in (*records.NAME_FIELDS, "url", "address", "link"):
        el = records.field_for(st, key, set())
        if el is not None and el.role == "textbox" and el.value.strip():
            return el.value.strip()
    return ""


def delete_record_intent(c: Clause, st: State) -> bool:
    """delete a record that is not a row with its own delete control: through its page, or its list."""
    if c.act is not Act.DELETE or st.live is None:
        return False
    untag = re.match(r"^(?:the\s+)?(?P<v>\S+|\"[^\"]+\")\s+(?P<f>tag|label|keyword|category|flag)s?\s+(?:from|off)\s+"
                     r"(?P<rec>.+)$", c.rest.strip(), re.I)
    if untag:   # a value taken off a record is a change to that record, never a deletion of anything
        raise Unplannable(f"taking the {untag.group('f')} {untag.group('v')} off {untag.group('rec')} changes "
                          f"{untag.group('rec')}: say 'edit {untag.group('rec')}' and the {untag.group('f')}s it "
                          "should keep", untag.group("rec"))
    subject = quoted(c.rest) or clean(re.sub(r"\s+from\s+(?:the\s+)?.+$", "", c.rest, flags=re.I))
    if re.match(r"^(?:all|every|each)\s", subject, re.I):
        return False   # several rows: the delete intent takes each
    subject = re.sub(r"^(?:the\s+)?(?:row|line|entry|record)\s+(?:for|of|with|showing)\s+", "", subject, flags=re.I)
    # "the glossary entry Feature Flag": the name after the kind of thing it is
    subject = re.sub(r"^(?:the\s+)?(?:[a-z]+\s+)?(?:entry|item|record|page|note|card|row|tiddler|article|post)\s+"
                     r"(?=(?-i:[A-Z0-9\"'“]))", "", subject)
    # "the bill for pizza night", "the expense for the cinema tickets": the record named after its kind
    subject = re.sub(r"^(?:the\s+)?(?-i:[a-z]+)\s+for\s+(?:the\s+)?(?=\S)", "", subject, flags=re.I)
    nouns = records.list_nouns(c.rest)
    kind_last = re.match(r"^(?:the\s+)?(?P<x>(?-i:[a-z][\w.-]*(?:\s+[a-z][\w.-]*)?))\s+(?P<k>(?-i:[a-z]+))$", subject)
    x_link = records.entity_link(st, kind_last.group("x")) if kind_last else None
    k_link = records.entity_link(st, kind_last.group("k")) if kind_last else None
    if kind_last and (k_link is not None and k_link.score >= 0.88 or on_list_of(st, kind_last.group("k"))) \
            and (x_link is None or x_link.live is not None and x_link.live.container):
        nouns = [kind_last.group("k")]   # "the pizza tag": a record "pizza" of the list of tags
        subject = kind_last.group("x")
        if not on_list_of(st, nouns[0]) and not _names_a_row(st, subject) and go_to_list(st, nouns[0], [c.text]):
            return True   # that list first: a link named "pizza" here may be anything but the tag's own page
    called = re.sub(r"^(?:the\s+)?(?:[a-z]+\s+)?(?:called|named)\s+", "", subject, flags=re.I)
    name = clean(called) if called != subject else subject   # the subject's articles are gone: "Our shop" stays
    if nouns and re.match(rf"^{re.escape(nouns[0])}\s+", name, re.I):
        name = name[len(nouns[0]):].strip()
    bare = site_search.without_kind(st, name) if name else name
    listed = bool(nouns) and records.entity_link(st, nouns[0]) is not None   # "the Suppliers group": Watch Groups
    if bare != name and not listed and not grounding.rows(name, st.live, minimum=0.8) \
            and records.record_link(st, name) is None \
            and (grounding.rows(bare, st.live, minimum=0.8) or records.record_link(st, bare) is not None):
        name = bare   # "the Project Ideas tiddler": its link says "Project Ideas"
    # a heading that is the name without its kind word names a panel shown ("Project Ideas"), but only for the
    # controls beside that heading: on a client's page, "the Acme project" is not the page's own record
    panel = bare if bare != name and any(grounding.norm(h.label) == grounding.norm(bare)
                                         for h in st.live.headings()) else name
    # "the pizza night bill", "the electricity bill": the part of the subject a row shows is the record, though
    # the other word ("bill") may name something else of the page (its "Bills" tab)
    # where the name itself is a row, only a name cell of a row counts, never a link or button in it: "the tech
    # tag" is a tag's link, not a record
    unseen = bool(name) and not grounding.rows(name, st.live, minimum=0.8)
    part = records.shown_part(st, subject) if unseen or name and grounding.norm(name) != grounding.norm(subject) \
        else None
    shown = part if part is not None and (unseen or part.role not in (ROLE_LINK, ROLE_BUTTON)) else None
    if shown is not None and shown.container:
        name = shown.name or shown.text   # "the pizza night bill": the row shows "Pizza night"
    from server.planners.intents_form import _row_control, one_row

    rows = one_row(grounding.rows(name, st.live), name) if name else []
    if rows and _row_control(st, rows[0].name, list(_DELETE_CONTROLS)) is not None:
        from server.planners.intents_form import delete_row

        if not (grounding.norm(rows[0].name) + " ").startswith(grounding.norm(name) + " "):
            # "the plumber todo" is the row "Call the plumber": the proof it went is what the row shows
            name = _named_in_row(st, rows[0].name, name) or rows[0].name
        return delete_row(st, name, rows[0].name)   # a row with its own delete control
    if rows and _selected_then_deleted(st, name, rows[0].name):
        return True
    listing = records.entity_link(st, nouns[0]) if nouns and not st.moved else None
    if listing is not None and addressed_elsewhere(st, listing, nouns[0]) and go_to_list(st, nouns[0], [c.text]):
        return True   # "Recent Experiments" on the home page, with no way to delete one: the list's own page has
    if rows:
        open_row_menu(st, rows[0].name, name, "delete", [deletion_clause(st, name, None)])
    link = records.record_link(st, name) if name else None
    if link is not None:
        st.click_live(link, f"Open {link.label!r}")
        shown = (link.live.name or link.live.text).strip() if link.live is not None else ""
        if shown and grounding.similarity(name, shown) >= 0.85:
            name = shown   # "the Meeting Notes page": what must go is the link "Meeting Notes", as it shows
        raise Defer(name, replace_with=["click delete", deletion_clause(st, name, link.live)])
    from server.planners.intents_records import row_edit

    edit = row_edit(st, subject, None) if name else None
    row_name = _named_in_row(st, edit.live.container, subject) if edit is not None and edit.live else ""
    if edit is not None and row_name:   # the row offers no delete, nor a page of its own: its edit page has one
        st.click_live(edit, f"Open {edit.label!r} of {row_name!r}", row=edit.live.container)
        raise Defer(row_name, replace_with=["click delete", deletion_clause(st, row_name, None)])
    page_delete = [t for w in _DELETE_CONTROLS for t in grounding.live_elements(
        w, st.live, roles=frozenset({ROLE_BUTTON, ROLE_LINK}), minimum=0.9) if not t.live.container] or [
        grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, e.label, live=e) for e in st.live.elements
        if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled and not e.container
        and words(e.label)[:1] and words(e.label)[0] in _DELETE_CONTROLS
        and set(words(e.label)[1:]) <= {"this", "the"} | set(words(c.rest))]   # "Delete this list" of "the X list"
    # the page of "the Errands list" deletes it with a control that says what it deletes ("Delete this list"); a
    # bare "Delete" on the client Acme's page deletes the client, never "the Acme project"
    kind_said = bool(page_delete) and bare != name and record_ids.on_named_record(st, bare) and bool(
        set(words(page_delete[0].label)) & (set(words(name)) - set(words(bare))))
    if page_delete and (not name or record_ids.on_named_record(st, name, in_fields=True) or kind_said):
        if kind_said:
            name = bare   # what must be gone is what its page is called ("Errands"), never the words said of it
        st.click_live(page_delete[0], f"Click {page_delete[0].label!r}")
        raise Defer(name or "delete", replace_with=[deletion_clause(st, name, None) if name else "if asked confirm"])
    if name and not page_delete:   # one of several records shown at once: the delete beside its heading, else
        from server.planners.intents_page_verbs import VERB_WORDS, near_heading   # its Edit (its form deletes)

        own = near_heading(st, panel, tuple(_DELETE_CONTROLS))
        edit_it = None if own is not None else near_heading(st, panel, VERB_WORDS["edit"])
        if own is not None or edit_it is not None:
            st.click_live(own or edit_it, f"Click {(own or edit_it).label!r} of {panel!r}")
            raise Defer(panel, replace_with=([] if own else ["click delete"]) + [deletion_clause(st, panel, None)])
    for noun in nouns or ([name] if name and len(words(name)) == 1 else []):
        if go_to_list(st, noun, [c.text]):
            return True
    if name and not st.moved and seek_record(st, name, c.text):
        return True
    return False


def open_row_menu(st: State, row: str, name: str, verb: str, then: list[str]) -> None:
    """A row whose actions are folded behind its one unnamed icon (⋮): the icon is clicked, the action *verb*
    ("delete", "edit") chosen from what it shows, then *then* planned (raises :class:`Defer`); nothing where the
    row has no such icon."""
    menu = row_menu(st, row) if not st.moved else None
    if menu is not None:
        st.add(V.CLICK, {"selector": menu.selector}, f"Open the actions of {name!r}", moves=True)
        raise Defer(name, replace_with=[f'from the menu of "{name}" pick {verb}', *then])


# a control drawn as an item of a menu that pops over the page ("dropdown-item", "p-overflow-menu-item"): never
# a page's own Delete that was there before the menu opened
_MENU_HINT = re.compile(r"\b(?:menu|dropdown|drop-down|popover|pop-over|overflow)\s*(?:item|items|option|entry|link)\b|"
                        r"\b(?:dropdown|overflow|popover)\b", re.I)
_MENU_PICK = re.compile(r'^from the menu of "(?P<x>[^"]+)" pick (?P<verb>delete|edit)$')
# a deactivation is no deletion: "Deactivate" is never picked for delete
_PICK_WORDS = {"delete": tuple(w for w in _DELETE_CONTROLS if w != SOFT_DELETE),
               "edit": ("edit", "rename", "modify", "change", "update")}


def menu_pick_intent(c: Clause, st: State) -> bool:
    """The closed loop's own clause after a row's actions were unfolded (:func:`open_row_menu`): the action the task
    asks for, among the controls the menu shows; refused, with what it offers, when none is that action."""
    m = _MENU_PICK.match(c.text.strip())
    if not m:
        return False
    if st.live is None or st.moved:
        raise Defer(m.group("x"))
    # the menu's controls: a menu's items in a pop-over of no row, or unfolded in the record's own row
    rows = {e.name or e.text for e in st.live.elements if e.role == "row"}
    own = grounding.rows(m.group("x"), st.live, minimum=0.8)
    offered = [e for e in st.live.elements if e.role in (ROLE_BUTTON, ROLE_LINK, "menuitem") and not e.hidden
               and not e.disabled and (e.name or e.text).strip()
               and (own and e.container == own[0].name or e.role == "menuitem"
                    or not (e.container and e.container in rows) and _MENU_HINT.search(e.hint))
               and words(e.name or e.text)[:1] and words(e.name or e.text)[0] in _PICK_WORDS[m.group("verb")]]
    if not offered:
        raise Unplannable(f"the actions of {m.group('x')!r} offer no {m.group('verb')}", m.group("verb"))
    # the verb itself before its kin ("Delete" before "Remove"), then the fewest words ("Delete", not "Delete all")
    verbs = _PICK_WORDS[m.group("verb")]
    pick = min(offered, key=lambda e: (verbs.index(words(e.name or e.text)[0]), len(words(e.name or e.text))))
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, pick.name or pick.text, live=pick),
                  f"Click {(pick.name or pick.text)!r} for {m.group('x')!r}", row=pick.container)
    st.expect_check(None)   # what follows the pick proves the task's end
    return True


def row_menu(st: State, row: str) -> UIElement | None:
    """The control that folds a row's actions away: its last shown control, a sign with no name ("⋮"), or one
    named as a menu ("More", "Actions"), when the row has no control that says delete."""
    assert st.live is not None
    own = [e for e in st.live.elements if e.container == row and e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden
           and not e.disabled and e.selector]
    if not own or any(words(e.name or e.text)[:1] and words(e.name or e.text)[0] in _DELETE_CONTROLS for e in own):
        return None
    last = own[-1]
    said = last.name or last.text
    folded = not words(said) or re.fullmatch(r"(?:more|actions?|options|menu|row actions|more actions)", said.strip(), re.I)
    return last if folded and not last.href.strip("#") else None


def _selected_then_deleted(st: State, name: str, row: str) -> bool:
    """A list whose rows are picked by their checkboxes, over a Delete that waits, greyed, for a pick: the row's box
    is ticked, that Delete clicked, the deletion confirmed if asked, and the row must be gone."""
    assert st.live is not None
    # "Delete", "Delete selected": it deletes what is picked ("Delete done tasks" deletes what is done)
    waiting = [e for e in st.live.elements if e.role == ROLE_BUTTON and e.disabled and not e.hidden and not e.container
               and re.fullmatch(r"(?:delete|remove|trash)(?:\s+(?:selected|checked|chosen)(?:\s+\w+)?)?",
                                " ".join(words(e.name or e.text)))]
    # a box that picks the row (no name, or "select …"), never one that marks it ("Mark X done")
    boxes = [b for b in st.live.of_role(ROLE_CHECKBOX) if b.container == row and not b.hidden
             and (not words(b.name) or words(b.name)[0] in ("select", "pick", "choose"))]
    if len(waiting) != 1 or len(boxes) != 1 or boxes[0].checked:
        return False
    st.add(V.SET_CHECKED, {"checked": True, "row": row, "role": ROLE_CHECKBOX}, f"Pick {name!r}")
    button = waiting[0]
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, button.name or button.text, live=button),
                  f"Click {button.name or button.text!r}")
    st.last_object = name
    raise Defer(name, replace_with=[deletion_clause(st, name, None, button.name or button.text)])


def _names_a_row(st: State, name: str) -> bool:
    """Some row shows *name* as its own text, not in a link or button of it ("Weather warnings" starts the title
    cell of a watch; "pizza" is only a tag's link in a bookmark's row)."""
    assert st.live is not None
    want = grounding.norm(name)
    return len(want) >= 3 and any(e.container and e.role not in (ROLE_LINK, ROLE_BUTTON) and not e.hidden
                                  and (grounding.norm(e.name or e.text) + " ").startswith(want + " ")
                                  for e in st.live.elements)


def _named_in_row(st: State, row: str, subject: str) -> str:
    """What the row shows as the record's name: the subject, or the subject less its kind ("the Weather
    warnings watch" → the cell "Weather warnings"). Empty when no element of that row shows it exactly: the
    proof that it is gone must be the row's own name, never words of the task that no row ever showed."""
    assert st.live is not None
    kind = record_ids.KIND_LAST.match(subject)
    for phrase in (subject, kind.group("x") if kind else ""):
        want = grounding.norm(phrase)
        if len(want) < 3 or any(e.container != row and grounding.norm(e.name or e.text) == want
                                for e in st.live.elements):
            continue   # "the Suppliers group": a group the page names outside the row, not this row's record
        # the whole of a text cell of the row, or its start (a title cell that also shows the group's tag); a
        # link or button in the row is a tag or an action, not the record's name
        if any(e.container == row and e.role not in (ROLE_LINK, ROLE_BUTTON)
               and (grounding.norm(e.name or e.text) + " ").startswith(want + " ") for e in st.live.elements):
            return phrase
    part = records.shown_part(st, subject)
    return (part.name or part.text) if part is not None and part.container == row \
        and part.role not in (ROLE_LINK, ROLE_BUTTON) else ""

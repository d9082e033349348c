"""Forms and lists: typing, adding, deleting, ticking, choosing, toggling, editing (searching: intents_search).

Fields are found by label, placeholder or hint on the live screen, or by the
tree's declared elements. Typing replaces a field's text unless the task says
to append. Each action leaves the check that proves it ("buy milk" is listed
after adding it, and gone after deleting it).
"""
from __future__ import annotations

import re
from dataclasses import replace

from server.planners import checks, grounding, intents_statement, record_ids, records, site_search
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, bare_label
from server.planners.intents_done import done_control, own_page_done
from server.planners.intents_act import activate, resolve_pronoun
from server.planners.intents_query import SQL_START
from server.planners.language import Act, Clause, clean, quoted, words
from server.planners.list_search import key_shaped, on_list_of, seek_record
from server.planners.site_search import box_before_button, without_leading_kind
from server.planners.state import Defer, State, Unplannable
from shared.models import ElementInfo, NodeInfo
from shared import vocabulary as V
from shared.screen import (
    CLICKABLE_ROLES, ROLE_BUTTON, ROLE_CHECKBOX, ROLE_COMBOBOX, ROLE_LINK, ROLE_RADIO, ROLE_TEXTBOX, UIElement,
)

_APPEND = re.compile(r"\s*\b(?:to the end(?: of)?|at the end(?: of)?|after the existing(?: text)?|without clearing(?: it)?|"
                     r"keep(?:ing)? (?:the )?existing (?:text|value))\b", re.I)
_SUBMIT = re.compile(r"\b(?:and\s+)?(?:press|hit)\s+(?:enter|return)\b|\band submit\b", re.I)
# a cross or a bin drawn as a control's whole text: in a row, it deletes the row
DELETE_SIGNS = ("×", "✕", "✖", "🗑")
_DELETE_WORDS = ["delete", "remove", "destroy", "trash", "bin", "discard", "erase", "deactivate", *DELETE_SIGNS, "x",
                 "close", "clear"]
_EDIT_WORDS = ["edit", "rename", "modify", "change", "update"]
_SAVE_WORDS = ["save", "submit", "ok", "done", "apply", "create", "add", "confirm", "send", "go", "update"]


def _value_and_field(rest: str) -> tuple[str, str]:
    """"'buy milk' into the todo field" → (buy milk, todo); "the name field with Bob" → (Bob, name)."""
    m = re.match(r"^(?P<f>.+?)\s+with\s+(?P<t>.+)$", rest, re.I)
    if m and not quoted(m.group("f")):
        return quoted(m.group("t")) or clean(m.group("t")), clean(m.group("f"))
    m = re.match(r"^(?P<t>.+?)\s+(?:in|into|inside|on|to)\s+(?:the\s+)?(?P<f>.+?)(?:\s+(?:field|box|input|textbox|area))?$",
                 rest, re.I)
    if m:
        return quoted(m.group("t")) or clean(m.group("t")), clean(m.group("f"))
    return quoted(rest) or clean(rest), ""


_ANY_FIELD = re.compile(r"(?:the\s+|a\s+)?(?:text\s*|input\s+|entry\s+)?(?:input|field|box|textbox|entry)"
                        r"(?:\s+(?:box|field))?", re.I)


def _field(st: State, phrase: str, roles: frozenset[str] = frozenset({ROLE_TEXTBOX}), numeric: bool = False) -> Target | None:
    if phrase and _ANY_FIELD.fullmatch(phrase.strip()):
        phrase = ""   # "the input", "the text box": the one field there is (or the focused one)
    if phrase:
        found = [t for t in grounding.fields(phrase, st.live) if t.live.role in roles and not grounding.read_only(t.live)]
        if found:
            return found[0]
        head = _head_field(st, phrase, roles) if numeric else None
        if head is not None:
            return head
        # "the Get box": a field with no name of its own, named by the button that sends it
        button = re.sub(r"^(?:the|a|an)\s+|\s+(?:box|field|input|bar|textbox|text\s+box)$", "", phrase.strip(), flags=re.I)
        beside = box_before_button(st, button) if ROLE_TEXTBOX in roles else None
        return Target(grounding.TargetKind.LIVE_ELEMENT, 0.8, beside.label, live=beside) if beside is not None else None
    boxes = [e for e in grounding.textboxes(st.live) if e.role in roles]
    focused = [e for e in boxes if e.focused]
    pick = focused[0] if focused else (boxes[0] if len(boxes) == 1 else None)
    return Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, pick.label, live=pick) if pick else None


_NOT_HEADS = frozenset("box field input bar text textbox value setting option one".split())


def _head_field(st: State, phrase: str, roles: frozenset[str]) -> Target | None:
    """"the heated bed" where the one box whose name has "bed" is "Bed Target": a field named by the last word of
    what the tester calls it, when the words before it (a description: "heated") name no field, and only one box
    has that word."""
    said = [w for w in words(phrase) if w not in ("the", "a", "an", "my", "its", "this", "that")]
    if len(said) < 2 or len(said[-1]) < 3 or said[-1] in _NOT_HEADS or st.live is None:
        return None
    have = [e for e in grounding.textboxes(st.live) if e.role in roles and said[-1] in words(_name_of_field(e))
            and "number" in e.hint.split()]   # (a box for a number: a description before its name says no other)
    if len(have) != 1 or any(w in words(_name_of_field(have[0])) for w in said[:-1]):
        return None
    return Target(grounding.TargetKind.LIVE_ELEMENT, 0.75, have[0].label, live=have[0])


def _field_name(t: Target) -> str:
    return _name_of_field(t.live)


def _name_of_field(el: UIElement) -> str:
    return el.name or el.placeholder or el.hint or el.text


def _sql_editor(el: UIElement) -> bool:
    """A field that takes SQL: it says "sql", or "query" without "search" (a search box's class is often
    "search-query")."""
    words = " ".join(x for x in (el.name, el.placeholder, el.hint) if x)
    return bool(re.search(r"\bsql\b", words, re.I)
                or re.search(r"\bquery\b", words, re.I) and not re.search(r"\bsearch", words, re.I))


def type_into(st: State, text: str, field: Target | None, *, clear: bool = True, submit: bool = False,
          selector: str = "") -> None:
    if field is not None and _sql_editor(field.live) and not SQL_START.match(text):
        raise Unplannable(f"{text!r} is not SQL: write the query itself (SELECT …) for the SQL editor")
    params: dict = {"text": text}
    if field is not None and field.live.disabled:
        from server.planners import records

        gate = records.enabler_for(st, _field_name(field))
        if gate is None:
            raise Unplannable(f"the field {field.label!r} is disabled", field.label)
        st.add(V.SET_CHECKED, {"checked": True, "selector": gate[1].selector}, f"Allow changing {field.label}")
    if field is not None:
        params["field"] = _field_name(field)
        twins = [e for e in grounding.textboxes(st.live) if _name_of_field(e) == params["field"]]
        if len(twins) > 1 and field.live.selector:   # pydoc's two forms each name their box "key"
            params["field"] = ""
        if not params["field"] and field.live.selector:
            params = {"text": text, "selector": field.live.selector}
        if "field" not in st.param_names(V.INPUT_TEXT) and field.live.selector:
            params = {"text": text, "selector": field.live.selector}
    elif selector:
        params["selector"] = selector
    names = st.param_names(V.INPUT_TEXT)
    if "clear" in names:
        params["clear"] = clear
    elif not clear:
        raise Unplannable("this device cannot append to a field's text")
    if submit:
        if "submit" in names:
            params["submit"] = True
    st.add(V.INPUT_TEXT, params, f"{'Type' if clear else 'Append'} {text!r}" +
           (f" in {params.get('field') or 'the field'}" if field is not None else ""), moves=submit)
    if submit and "submit" not in names:
        st.add(V.PRESS_KEY, {"key": "OK"}, "Press Enter", moves=True)


def type_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.TYPE:
        return False
    rest = _APPEND.sub("", _SUBMIT.sub("", c.rest)).strip()
    submit = bool(_SUBMIT.search(c.rest))
    text, field_phrase = _value_and_field(rest)
    if not text:
        raise Unplannable(f"nothing to type in {c.text!r}")
    if re.match(r"^(?:an?\s+|the\s+)?(?:sql\s+)?(?:query|statement)\b", text, re.I) and not quoted(rest):
        raise Unplannable("a query described in words: write the SQL itself (SELECT …)", "query")
    declared = grounding.tree_elements(field_phrase, st.ctx, prefer_node=st.node) if field_phrase else []
    # a field the tester names may be a combobox one types into (a filter that suggests as it is typed)
    field = _field(st, field_phrase) or (_field(st, field_phrase, frozenset({ROLE_COMBOBOX})) if field_phrase else None)
    if field is None and declared:
        t = declared[0]
        st.goto(t.node)
        type_into(st, text, None, clear=not _APPEND.search(c.text), submit=submit, selector=t.element.selector)
    elif field is None and field_phrase:
        if st.moved:
            raise Defer(field_phrase)
        raise Unplannable(f"no field called {field_phrase!r} on the screen", field_phrase)
    else:
        type_into(st, text, field, clear=not (_APPEND.search(c.text) or c.text.lower().startswith("append")),
              submit=submit)
    st.last_object = text
    st.typed_into_focus = text if field is None and not field_phrase and st.open_world else ""
    try:
        st.expect_check(checks.element(st.ctx, text=text, role=field.live.role) if field is not None and not submit
                        else checks.text_shown(st.ctx, text) if st.typed_into_focus and submit
                        and "role" in st.param_names(V.WAIT_FOR_ELEMENT) else None)
    except CannotCheck:
        st.expect_check(None)
    return True


# "Emma as a participant", "milk as a new todo": the kind is said after the name, never part of it
# (a name: capitalised or quoted; "register as a volunteer" is a todo's own words)
AS_KIND = re.compile(r"^(?P<v>(?-i:[A-Z])\S*(?:\s+(?-i:[A-Z])\S*){0,3}|[\"“'][^\"”']+[\"”'])\s+as\s+(?:a|an|the|our|my)\s+"
                     r"(?:new\s+)?(?P<noun>[a-z]+(?:\s+[a-z]+)?)$", re.I)


def _item_value(rest: str) -> tuple[str, str]:
    """"a todo called buy milk" → (buy milk, todo); "'milk' to the list" → (milk, list); "Emma as a participant"
    → (Emma, participant)."""
    q = quoted(rest)
    kind = AS_KIND.match(rest.strip())
    if kind:
        return q or clean(kind.group("v")), kind.group("noun")
    m = re.match(r"^(?:an?\s+|the\s+)?(?:new\s+)?(?P<noun>[\w\s-]*?)\s*(?:called|named|titled|saying|with (?:the )?"
                 r"(?:name|title|text|label))\s*:?\s*(?P<v>.+)$", rest, re.I)
    if m:
        return q or clean(m.group("v")), m.group("noun").strip()
    m = re.match(r"^(?P<v>.+?)\s+(?:to|in|into|on)\s+(?:the\s+|my\s+)?(?P<noun>[\w\s-]+?)(?:\s+list)?$", rest, re.I)
    if m:
        return q or clean(m.group("v")), m.group("noun").strip()
    m = re.match(r"^(?:an?\s+|the\s+)?(?:new\s+)?(?P<noun>\w+)\s*:\s*(?P<v>.+)$", rest, re.I)
    if m:
        return q or clean(m.group("v")), m.group("noun")
    return q or clean(re.sub(r"^(?:an?\s+)?(?:new\s+)?(?:item|entry|todo|task)\s+", "", rest, flags=re.I)), ""


def add_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.ADD:
        return False
    value, noun = _item_value(c.rest)
    if not value:
        raise Unplannable(f"nothing to add in {c.text!r}")
    field = _field(st, noun) if noun else None
    if field is None:
        field = _field(st, "new") or _field(st, "")
    if field is not None:
        type_into(st, value, field, submit=True)
    else:
        adders = [t for w in (f"add {noun}".strip(), f"new {noun}".strip(), "add", "new", "create")
                  for t in grounding.live_elements(w, st.live, roles=frozenset({ROLE_BUTTON, ROLE_LINK}), minimum=0.7)]
        if not adders:
            if st.moved:
                raise Defer(noun or value)
            raise Unplannable(f"no field or button to add {noun or 'an item'} on the screen", noun or "add")
        st.click_live(adders[0], f"Click {adders[0].label!r}")
        raise Defer(noun or value, replace_with=[f'type "{value}"', "save"])
    _expect_shown(st, value)
    return True


def _expect_shown(st: State, text: str) -> None:
    """What the clause added or renamed is *text*, and the screen that follows shows it."""
    st.last_object = text
    try:
        st.expect_check(checks.text_shown(st.ctx, text))
    except CannotCheck:
        st.expect_check(None)


def _row_control(st: State, row: str, wanted: list[str], roles: frozenset[str] = CLICKABLE_ROLES) -> Target | None:
    for w in wanted:
        found = grounding.live_elements(w, st.live, roles=roles, minimum=0.8, row=row)
        if found:
            return found[0]
    if st.live is not None:   # "Delete Record", "Edit entry": the word first, a word of kind after it
        for w in wanted:
            begun = [e for e in st.live.elements if e.container == row and e.role in roles and not e.hidden
                     and 1 < len(words(e.name or e.text)) <= 3 and words(e.name or e.text)[0] == w.lower()]
            for e in begun:
                said = words(e.name or e.text)
                # (the row's one control that starts so is its own: "delete study" on a study's card)
                if said[-1] in _KIND_WORDS or on_list_of(st, said[-1]) or len(begun) == 1 and len(said) == 2:
                    return Target(grounding.TargetKind.LIVE_ELEMENT, 0.8, e.name or e.text, live=e)
        signs = [w for w in wanted if w in DELETE_SIGNS]   # a sign has no words to ground: its whole text is it
        for e in st.live.elements:
            label = (e.name or e.text).strip()
            if signs and label in signs and e.container == row and e.role in roles and e.clickable and not e.hidden:
                return Target(grounding.TargetKind.LIVE_ELEMENT, 0.8, label, live=e)
    return None


_KIND_WORDS = {"record", "entry", "item", "row", "this", "it"}


def one_row(rows: list[Target], subject: str) -> list[Target]:
    """The rows with the one *subject* names first. Several rows that show it as well as the first: the one it
    names (it starts with it: "Chloe -308.68", not a bill Chloe paid); with no such one, refused, since the
    first may be the wrong one."""
    tied = [r for r in rows if r.score >= rows[0].score - 0.01] if rows else []
    if len(tied) < 2:
        return rows
    want = grounding.norm(subject)
    named = [r for r in tied if (grounding.norm(r.name) + " ").startswith(want + " ")]
    if len(named) == 1:
        return [named[0], *(r for r in rows if r is not named[0])]
    raise Unplannable(f"several rows show {subject!r} ({tied[0].name!r}, {tied[1].name!r}): say which one", subject)


def delete_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.DELETE:
        return False
    subject = resolve_pronoun(quoted(c.rest) or clean(re.sub(r"\s+from\s+(?:the\s+)?.+$", "", c.rest, flags=re.I)), st)
    subject = re.sub(r"^(?:the\s+)?(?:todo|task|item|entry|row|record)\s+(?:called\s+|named\s+)?", "", subject, flags=re.I)
    subject = clean(subject)
    if _EVERY.match(subject) and st.live is not None:
        return delete_every_row(st, subject)
    some = re.match(r"^(?:all|every|each)\s+(?:of\s+)?(?:the\s+|my\s+)?(?P<v>\S.*)$", subject, re.I)
    if some and st.live is not None:   # "all Bar shifts": every row that shows Bar, and only those
        chosen = intents_statement.rows_of_value(st, some.group("v"))
        if not chosen:
            raise Unplannable(f"no row on the screen shows {some.group('v')!r} to delete", some.group("v"))
        return delete_every_row(st, subject, only=set(chosen))
    rows = grounding.rows(subject, st.live)
    if not rows and st.live is not None:   # "the member Lena Berg" on a list of members
        kind_free = without_leading_kind(st, subject)
        rows = grounding.rows(kind_free, st.live) if kind_free != subject else []
        subject = kind_free if rows else subject
    if not rows and (by_values := intents_statement.row_of_values(st, subject)):
        rows = grounding.rows(by_values, st.live)   # "the Tue kitchen shift of Omar": the row that shows them all
        subject = by_values if rows else subject
    if not rows:
        if st.moved:
            raise Defer(subject)
        raise Unplannable(f"no item {subject!r} on the screen to delete", subject)
    rows = one_row(rows, subject)
    if rows[0].score == grounding.BY_WORDS:
        subject = rows[0].name    # "the plumber todo" is the row "Call the plumber": that is what must go
    return delete_row(st, subject, rows[0].name)


_EVERY = re.compile(r"^(?:all|every|each)\b(?:\s+(?:of\s+)?(?:the\s+|my\s+|them|these|those)?\s*\w*)?$|^everything$",
                    re.I)


def _row_names(st: State) -> list[str]:
    """What each row or list item of the screen shows, a table's header row aside."""
    assert st.live is not None
    return [e.text or e.name for e in st.live.elements if e.role in ("listitem", "row") and (e.text or e.name)
            and "header-row" not in e.hint.split()]


def delete_every_row(st: State, subject: str, only: set[str] | None = None) -> bool:
    """"delete every todo": the delete control of each row that has one (of the rows *only*, when given), then
    none of them is shown."""
    assert st.live is not None
    doomed = [(row, control) for row in _row_names(st) if only is None or row in only
              for control in [_row_control(st, row, _DELETE_WORDS)]
              if control is not None and control.live.container == row]
    if not doomed:
        raise Unplannable(f"no row on the screen has a delete control for {subject!r}", subject)
    for name, control in doomed:
        st.click_live(control, f"Delete {name!r}", row=name)
    for name, _ in doomed:
        st.check(checks.text_shown(st.ctx, name, present=False))
    st.last_object = ""
    return True


def _picked_then_deleted(st: State, subject: str, row: str) -> bool:
    """A list whose rows have no controls, with a dropdown that says what it is for ("Item to remove") and a
    button that does it ("Remove item"): the record is chosen there, the button clicked, and its row must go."""
    assert st.live is not None
    verbs = set(_DELETE_WORDS)
    boxes = [e for e in st.live.elements if e.role == ROLE_COMBOBOX and not e.hidden and not e.container
             and verbs & set(words(e.name or e.placeholder))]
    buttons = [e for e in st.live.elements if e.role == ROLE_BUTTON and not e.hidden and not e.container
               and words(e.name or e.text)[:1] and words(e.name or e.text)[0] in verbs]
    if len(boxes) != 1 or len(buttons) != 1 or (boxes[0].options and not any(
            grounding.norm(o) == grounding.norm(subject) for o in boxes[0].options)):
        return False
    from server.planners.intents_delete import deletion_clause

    _select_option(st, Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, boxes[0].label, live=boxes[0]), subject)
    button = Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, buttons[0].label, live=buttons[0])
    st.click_live(button, f"Click {buttons[0].label!r}")
    st.last_object = subject
    raise Defer(subject, replace_with=[deletion_clause(st, subject, None)])


def delete_row(st: State, subject: str, row: str) -> bool:
    """Click the delete control of the row showing *subject*; the next screen confirms and proves it gone."""
    control = _row_control(st, row, _DELETE_WORDS)
    if control is None and _picked_then_deleted(st, subject, row):
        return True
    if control is None:
        raise Unplannable(f"no delete control in the row of {subject!r}", subject)
    st.click_live(control, f"Delete {subject!r}", row=row)
    st.last_object = subject
    from server.planners.intents_delete import deletion_clause

    # some apps ask first (a confirmation page or dialog): the next screen says, and the row must be gone
    # (or, deactivated, must have lost its "deactivate")
    raise Defer(subject, replace_with=[deletion_clause(st, subject, None, control.label)])


_PREDICATE = re.compile(r"\b(?:is|are|was|were|should|must|has|have|be|isn't|aren't|that|whether|if|appears?|exists?|"
                        r"shows?|listed|displayed|visible|remains?|stays?|contains?|says?|reads?|mentions?)\b", re.I)


def _toggle_row(c: Clause, st: State) -> bool:
    """"toggle pay rent": the row's checkbox to the state it is not in now."""
    subject = clean(re.sub(r"^toggle\s+", "", c.text, flags=re.I))
    rows = grounding.rows(subject, st.live, minimum=0.85) if st.live is not None else []
    boxes = [b for r in rows[:1] for b in st.live.of_role(ROLE_CHECKBOX) if b.container == r.name] if st.live else []
    if not boxes:
        return False
    return tick_intent(Clause(f"{'untick' if boxes[0].checked else 'tick'} {subject}",
                              Act.UNTICK if boxes[0].checked else Act.TICK, subject), st)


def tick_intent(c: Clause, st: State) -> bool:
    """tick / mark done / complete / check (a checkbox) / untick."""
    if c.low.startswith("toggle ") and _toggle_row(c, st):
        return True
    if c.act not in (Act.TICK, Act.UNTICK, Act.CHECK):
        return False
    from server.planners.intents_records import _stated_flag

    stated = _stated_flag(c)
    if stated is not None and stated[1] != "active":
        return False   # "mark Rake as out of stock": a record's flag, set on its page
    checked = c.act is not Act.UNTICK
    rest = re.sub(r"\s+(?:as\s+)?(?:done|complete|completed|finished|checked|ticked|read|incomplete|active|not done)$",
                  "", c.rest.strip(), flags=re.I)
    if re.search(r"\bas\s+(?:not done|incomplete|active|unread)\b", c.rest, re.I):
        checked = False
    subject = resolve_pronoun(quoted(rest) or clean(rest), st)
    subject = re.sub(r"\s+(?:checkbox|check box|box|toggle|switch)$", "", subject, flags=re.I)
    subject = re.sub(r"^(?:the\s+)?(?:checkbox|check box|box)\s+(?:of|for|next to)\s+", "", subject, flags=re.I)
    said_after = re.sub(r"""["“'‘][^"”'’]*["”'’]""", " ", c.rest).strip(" .!?")   # words beside a quoted name
    if c.act is Act.CHECK and (not re.match(r"(?:check|tick)\b", c.low) or _PREDICATE.search(said_after)):
        return False   # "is buy milk done?", "ensure X is not completed", "check that X is done": checks
    if c.act is Act.CHECK:
        # "check X" is a tick only when X names a checkbox or a row that has one
        named = grounding.live_elements(subject, st.live, roles=frozenset({ROLE_CHECKBOX, "switch", "radio"}), minimum=0.8)
        row_box = [r for r in grounding.rows(subject, st.live, minimum=0.85)
                   if _row_control(st, r.name, ["", "toggle", "check"], frozenset({ROLE_CHECKBOX})) is not None]
        if not named and not row_box:
            return False
    state = "checked" if checked else "unchecked"
    if _EVERY.match(subject) and st.live is not None:
        return _tick_every_row(st, checked, state, subject)
    named = grounding.live_elements(subject, st.live, roles=frozenset({ROLE_CHECKBOX, "switch", "radio"}), minimum=0.7)
    if named:
        el = named[0].live
        st.add(V.SET_CHECKED, {"checked": checked, "text": el.name or el.text or el.hint, "role": el.role},
               f"{'Tick' if checked else 'Untick'} {named[0].label!r}")
        st.last_object = named[0].label
        try:
            st.expect_check(checks.element(st.ctx, text=el.name or el.text or el.hint, role=el.role, state=state))
        except CannotCheck:
            st.expect_check(None)
        return True
    if st.open_world and st.live is not None and own_page_done(st, checked, subject):
        return True
    rows = grounding.rows(subject, st.live)
    if rows and done_control(st, rows[0].name, checked, subject):
        return True
    if rows:
        row = rows[0].name
        st.add(V.SET_CHECKED, {"checked": checked, "row": row, "role": ROLE_CHECKBOX},
               f"{'Tick' if checked else 'Untick'} {subject!r}")
        st.last_object = subject
        try:
            st.expect_check(checks.element(st.ctx, row=row, role=ROLE_CHECKBOX, state=state))
        except CannotCheck:
            st.expect_check(None)
        return True
    if st.moved:
        raise Defer(subject)
    if st.open_world and subject and not _EVERY.match(subject):
        from server.planners.list_search import seek_record

        if seek_record(st, subject, c.text):   # "tick off Buy oat milk" from the lists' page: its list first
            return True
    raise Unplannable(f"no checkbox for {subject!r} on the screen", subject)


def _tick_every_row(st: State, checked: bool, state: str, subject: str) -> bool:
    """"complete all tasks", "uncheck everything": the checkbox of each row that has one."""
    assert st.live is not None
    boxed = [r for r in _row_names(st) if any(b.container == r for b in st.live.of_role(ROLE_CHECKBOX))]
    if not boxed:
        raise Unplannable(f"no row on the screen has a checkbox for {subject!r}", subject)
    for row in boxed:
        st.add(V.SET_CHECKED, {"checked": checked, "row": row, "role": ROLE_CHECKBOX},
               f"{'Tick' if checked else 'Untick'} {row!r}")
    for row in boxed:
        st.check(checks.element(st.ctx, row=row, role=ROLE_CHECKBOX, state=state))
    st.last_object = ""
    return True


def _select_option(st: State, dropdown: Target, option: str) -> None:
    el = dropdown.live
    params = {"option": option, "field": el.name or el.placeholder or el.hint}
    if not params["field"] and el.selector:
        params = {"option": option, "selector": el.selector}
    st.add(V.SELECT_OPTION, params, f"Choose {option!r} in {params.get('field') or 'the dropdown'}")
    st.last_object = option
    st.expect_check(None)   # select_option checks the choice took


def _save_record(c: Clause, st: State, value: str) -> None:
    """"… and bump its priority to urgent": a field of the record just handled is saved with its form's button."""
    from server.planners import records

    if not re.search(r"\b(?:its|their|his|her)\b", c.rest, re.I) or st.live is None:
        return
    save = records.save_button(st)
    if save is None or save.live is None or save.live.role != "button":
        return
    st.click_live(save, f"Click {save.label!r}")
    try:
        st.expect_check(checks.text_shown(st.ctx, value))
    except CannotCheck:
        st.expect_check(None)


_APPLY_WORDS = frozenset({"set", "apply", "save", "ok", "update", "go", "submit", "change"})


def _apply_in_row(st: State, field: Target, value: str) -> bool:
    """A box with its own button in its row ("Bed [55] °C [Set]": a printer's target temperature): what is typed
    there is applied by that button, else nothing changes but the box. The proof is the value shown once applied,
    where the screen did not show it before (the box may empty itself, as the printer's does)."""
    el = field.live
    if st.live is None or el is None or not el.container:
        return False
    mates = [e for e in st.live.elements if e.container == el.container and not e.hidden]
    apply = [e for e in mates if e.role == ROLE_BUTTON and " ".join(words(e.name or e.text)) in _APPLY_WORDS]
    boxes = [e for e in mates if e.role in (ROLE_TEXTBOX, ROLE_COMBOBOX)]
    typed = st.steps[-1] if st.steps and st.steps[-1].command == V.INPUT_TEXT else None
    # one box and its one button (a row of a grid), never a record's form with its Save
    if len(apply) != 1 or len(boxes) != 1 or typed is None or "submit" not in st.param_names(V.INPUT_TEXT):
        return False
    if any(re.search(rf"(?<![\w.]){re.escape(value)}(?![\w.])", e.name or e.text or "", re.I)
           for e in st.live.elements if not e.hidden and e is not el):
        raise Unplannable(f"{value!r} is shown already: nothing would prove {el.label!r} took it once sent", el.label)
    typed.params["submit"] = True   # sent as its button sends it (its own form), with no row to find again
    typed.description += f", sent as {apply[0].label!r} sends it"
    try:
        st.expect_check(checks.text_shown(st.ctx, value))
    except CannotCheck:
        st.expect_check(None)
    return True


_SECONDS = {"ms": 0.001, "millisecond": 0.001, "s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600,
            "hr": 3600, "hour": 3600, "d": 86400, "day": 86400, "week": 604800, "wk": 604800}


def _time_unit(word: str) -> float | None:
    w = word.lower().rstrip(".")
    w = w[:-1] if len(w) > 2 and w.endswith("s") and w[:-1] in _SECONDS else w
    return _SECONDS.get(w)


def in_units_of(number: str, unit: str, label: str) -> str:
    """*number* *unit* as the box labelled *label* counts it: "2 minutes" in "Timeout (seconds)" is 120; a unit of
    time the box does not name is typed as said; another unit than the box's ("2 days" in "Retention (MB)") is
    refused, since no number typed would mean what the tester said."""
    said = _time_unit(unit)
    boxes = [u for u in (_time_unit(w) for w in re.findall(r"[a-zA-Z]+", label)) if u is not None]
    if said is None or not boxes or boxes[-1] == said:
        return number
    amount = float(number) * said / boxes[-1]
    if amount != int(amount) and amount * 1000 != int(amount * 1000):
        raise Unplannable(f"{number} {unit} is no whole number of what {label!r} counts", label)
    return str(int(amount)) if amount == int(amount) else f"{amount:g}"


def _save_implied(st: State, field: Target) -> Target | None:
    """The save button that "change the city to Chicago" implies on an existing record's form (its other fields
    hold the record's values), when nothing later in the task edits, saves or leaves the form (only checks
    follow): the change is meant to last. None on a new record's empty form, which the tester goes on filling."""
    from server.planners import records
    from server.planners.language import read_clause

    if any(read_clause(text).act is not Act.CHECK for text in st.later):
        return None
    others = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and e is not field.live and not e.hidden] \
        if st.live is not None else []
    if not any((e.value or "").strip() for e in others):
        return None
    save = records.save_button(st)
    if save is None or save.live is None or save.live.role != ROLE_BUTTON or \
            not set(words(save.label)[:1]) & records.SAVE_VERBS:
        return None
    return save


def _expect_holds(st: State, value: str, field: Target) -> None:
    """The field typed into holds *value*: the end state of a change that is not saved (yet)."""
    try:
        st.expect_check(checks.element(st.ctx, text=value, role=field.live.role))
    except CannotCheck:
        st.expect_check(None)


def _without_field_word(value: str, field: str) -> str:
    """"Garden category" chosen in the field Category is "Garden": the tester said what the value is."""
    f = grounding.norm(bare_label(field))
    v = grounding.norm(value)
    return value[:len(value) - len(f)].strip() if f and v.endswith(" " + f) else value


def _lazy_dropdown(st: State, name: str) -> bool:
    """A dropdown named *name* whose options are not on the page until it opens (an ARIA combobox)."""
    return any(t.live is not None and not t.live.options
               for t in grounding.live_elements(name, st.live, roles=frozenset({ROLE_COMBOBOX}), minimum=0.85))


_GROUP_REACH = 6   # a radio group's label sits this close before its first choice


def _radio_of(st: State, group: str, value: str) -> UIElement | None:
    """The one radio named *value* whose group (a radiogroup, or the label just before the choices) is *group*."""
    assert st.live is not None
    els = st.live.elements
    want = grounding.norm(value)
    at = [i for i, e in enumerate(els)
          if e.role == ROLE_RADIO and not e.hidden and grounding.norm(e.name or e.text) == want]
    if len(at) != 1:
        return None
    first = at[0]
    while first > 0 and els[first - 1].role == ROLE_RADIO:
        first -= 1
    labels = [e.name or e.text for e in els[max(0, first - _GROUP_REACH):first + 1]
              if e.role in ("radiogroup", "group", "text", "heading", "legend") and (e.name or e.text)]
    if group and not any(grounding.similarity(group, bare_label(t)) >= 0.8 for t in labels):
        return None
    return els[at[0]]


_CONSOLE = re.compile(r"\b(?:console|terminal|shell|cli|prompt|readline|command\s+line|repl)\b", re.I)
_RUN_COMMAND = re.compile(r"^(?:please\s+)?(?:run|execute|enter|type|issue|send|use)\s+(?:the\s+|a\s+)?(?:command\s+|cmd\s+)?"
                          r"(?P<cmd>\S.*?)(?:\s+(?:in|into|on|at|from|via|using)\s+(?:the\s+)?(?:[\w-]+\s+)?"
                          r"(?:console|terminal|shell|cli|prompt|command\s+line|repl))?$", re.I)


def _console_box(st: State) -> UIElement | None:
    """The screen's one command line: a box named or hinted so, or whose name is a prompt ("redis>", "$")."""
    if st.live is None:
        return None
    boxes = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled
             and (_CONSOLE.search(" ".join((e.name, e.placeholder, e.hint))) or re.search(r"[>$#]\s*$", e.name or ""))]
    return boxes[0] if len(boxes) == 1 else None


def console_intent(c: Clause, st: State) -> bool:
    """"run the command GET shop:name in the console": the command typed on the app's command line and sent."""
    m = _RUN_COMMAND.match(c.text.strip())
    if m is None or st.live is None or not st.open_world:
        return False
    said_console = bool(_CONSOLE.search(c.text))
    if not said_console and not re.search(r"\b(?:command|cmd)\b", c.text, re.I):
        return False   # "run the report": no command said
    box = _console_box(st)
    if box is None:
        if said_console:
            raise Unplannable("no command line (console) on the screen to type the command in", "console")
        return False
    cmd = quoted(m.group("cmd")) or m.group("cmd").strip().strip("`")
    type_into(st, cmd, Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, box.label, live=box), submit=True)
    st.summary.append(f"run {cmd!r}")
    st.last_object = cmd
    st.expect_check(None)   # what a command answers is the app's to say: a check said after it reads it
    return True


def _tree_record(st: State, subject: str, value: str) -> bool:
    """"change shop:close to 19:00" where "close" is an item of a tree (a key, a file) not shown yet: the item
    opened, then its value set and saved there (an item of a tree is a record, not a row's text to edit)."""
    if st.live is None or st.moved or not st.open_world:
        return False
    # (selected already or not: selecting it again shows its record, and the steps after read the screen then)
    item = next((e for e in st.live.elements if e.role == "treeitem" and not e.hidden
                 and grounding.norm(e.name or e.text) == grounding.norm(subject)), None)
    if item is None:
        return False
    st.click_live(Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, item.label, live=item), f"Open {item.label!r}")
    raise Defer(item.label, replace_with=[f'set the value to "{value}"', "save"])


_WITH_PIN = re.compile(r"\s+with\s+PIN\s+(?P<p>\w+)\s*$", re.I)


_LOCK_WORDS = frozenset({"lock", "locked", "parental", "protect", "protection", "restriction", "restrictions", "child",
                         "pin", "password", "adult", "security"})


def _is_lock(el: ElementInfo) -> bool:
    return bool(set(words(el.name)) & _LOCK_WORDS)


def _pin_field(node: NodeInfo, el: ElementInfo) -> ElementInfo | None:
    """The field *node* declares for the PIN a change of *el* asks for."""
    found = [e for e in node.elements if set(words(e.name)) & {"pin", "password", "passcode", "code"} and e.selector
             and not e.many and e is not el and not set(words(e.name)) & {"dialog", "title", "heading", "pad", "key",
                                                                            "keypad", "label", "hint", "error"}]
    # (a name that says it is a field first: "pin field" before "pin", never the "pin dialog" around it)
    return min(found, key=lambda e: 0 if set(words(e.name)) & {"field", "input", "box", "entry"} else 1, default=None)


def _set_with_pin(st: State, node: NodeInfo, el: ElementInfo, value: str, pin: str) -> None:
    """A setting whose change asks for a PIN (a parental lock): selected once, the PIN typed into the field its
    screen declares for it and confirmed, then the setting must show the value (a wrong PIN leaves it as it was)."""
    # (the PIN's field is on the setting's screen, or on the dialog selecting the setting opens)
    asks = st.node_info(el.opens) if el.opens else None
    where = next((n for n in (node, asks) if n is not None and _pin_field(n, el) is not None), None)
    field = _pin_field(where, el) if where is not None else None
    if where is None or field is None:
        raise Unplannable(f"{node.label} declares no field for a PIN, so {el.name} cannot be set with one", el.name)
    ok = next((e for e in where.elements if set(words(e.name)) & {"ok", "confirm", "submit", "enter"} and e.selector
               and not e.many), None)
    if not _is_lock(el):
        raise Unplannable(f"{el.name} is no lock: nothing says it asks for a PIN", el.name)
    other = {"on": "Off", "off": "On"}.get(value.lower())
    if other is None:
        raise Unplannable(f"{el.name} is switched with its PIN, on or off, never set to {value!r}", value)
    # a toggle pressed when it already shows the value would undo it: it must show the other one first
    st.check(checks.element(st.ctx, selector=el.selector, text=other, description=f"Check {el.name} is {other} before"))
    st.click_declared(el, None, f"Select {el.name}")
    st.add(V.INPUT_TEXT, {"text": pin, "selector": field.selector, "clear": True, **({} if ok else {"submit": True})},
           f"Enter the PIN in {field.name}")
    if ok is not None:
        st.click_declared(ok, None, f"Confirm the PIN ({ok.text or ok.name})")
    st.node = node.id
    st.last_object = el.name   # "… and check that the setting reads Off": this setting, never another's Off
    st.expect_check(checks.element(st.ctx, selector=el.selector, text=value,
                                   description=f"Check {el.name} is {value}"))


def setting_place_intent(c: Clause, st: State) -> bool:
    """"Go to Settings > Audio language", "open the audio language setting": a setting the tree declares with its
    values is a place, not a control: its screen is gone to and it is what "it" is next ("… and change it to
    Spanish"); selecting it would change it, and a path never changes anything."""
    # "Settings > Audio language > Spanish": a step of a path whose next step is one of the setting's values
    valued = c.act is Act.CLICK and bool(st.later) and bool(re.fullmatch(r"(?:click|open|select)?\s*[A-Za-z][\w -]{0,30}",
                                                                          st.later[0].strip(), re.I))
    if c.act not in (Act.OPEN, Act.NAVIGATE) and not valued or not c.rest.strip():
        return False
    target = re.sub(r"^(?:to\s+)?(?:the\s+)?", "", c.rest.strip(), flags=re.I)
    target = re.sub(r"\s+(?:setting|option|menu|entry)$", "", target, flags=re.I)
    found = [t for t in grounding.tree_elements(target, st.ctx, prefer_node=st.node)
             if t.score >= 0.9 and (t.element.values or _is_lock(t.element)) and not t.element.opens
             and set(words(target)) <= set(words(t.element.name)) | set(words(t.element.text or ""))]
    if valued:
        value = re.sub(r"^(?:click|open|select)\s+", "", st.later[0].strip(), flags=re.I).casefold()
        found = [t for t in found if value in {v.casefold() for v in t.element.values}]
    # (its name and nothing more: "Parental lock: On" says a state, which is no place)
    if not found:
        return False
    t = found[0]
    st.goto(t.node)
    st.node = t.node.id
    st.last_object = t.element.name
    st.summary.append(f"go to {t.element.name} on {t.node.label}")
    st.expect_check(None)
    return True


def setting_value_intent(c: Clause, st: State) -> bool:
    """"Go to Settings > Audio language and select German", "Settings > Audio language > German": a value chosen (or
    named) right after going to a setting is that setting's value (and refused where it has no such value)."""
    said = (c.rest if c.act is not Act.NONE else c.text).strip()   # "Settings > Audio language > Spanish": a bare value
    if st.last_act != "setting-place" or not st.last_object or c.act not in (Act.CLICK, Act.OPEN, Act.NONE) \
            or not re.fullmatch(r"[A-Za-z][\w -]{0,30}", said):
        return False
    return set_intent(Clause(f"set {st.last_object} to {said}", Act.SET, f"{st.last_object} to {said}"), st)


def set_intent(c: Clause, st: State) -> bool:
    """turn X on/off, enable X, set/change X to V, choose V (in the X dropdown)."""
    pin = _WITH_PIN.search(c.rest)
    if pin is not None:   # "turn on parental lock with PIN 0000": the setting, then the PIN its dialog asks for
        c = Clause(c.text[:len(c.text) - len(c.rest) + pin.start()], c.act, c.rest[:pin.start()])
    if pin is not None and not st.ctx.navigation.nodes:
        raise Unplannable("a PIN is only given to a setting whose screen asks for one; this device declares none",
                          pin.group("p"))
    text = c.rest.strip()
    value, subject = "", ""
    if c.act in (Act.TURN_ON, Act.TURN_OFF):
        value, subject = ("On" if c.act is Act.TURN_ON else "Off"), text
    elif c.act is Act.WANT:
        # "I need subtitles": a setting turned on; anything else is opened
        declared = grounding.tree_elements(text, st.ctx, prefer_node=st.node, minimum=0.8)
        toggles = grounding.live_elements(text, st.live, roles=frozenset({ROLE_CHECKBOX, "switch"}), minimum=0.8)
        if (declared and not declared[0].element.opens and not declared[0].element.many) or toggles:
            value, subject = "On", text
        else:
            return activate(Clause(f"open {text}", Act.OPEN, text), st)
    elif c.act is Act.TOGGLE:
        # "flip X to active": a toggle said with the state it must end in is a setting of that state
        to = re.match(r"^(?:the\s+)?(?P<x>.+?)\s+(?:to|into)\s+(?P<v>on|off|active|inactive|enabled|disabled|paused)$", text, re.I)
        value, subject = (to.group("v"), to.group("x")) if to else ("", text)
    elif c.act in (Act.SET, Act.EDIT):
        m = re.match(r"^(?:the\s+)?(?P<x>.+?)\s+(?:to|as|=)\s+(?P<v>.+)$", text, re.I) or \
            re.match(r"^(?P<x>.+?)\s+(?P<v>on|off)$", text, re.I)
        if not m:
            return False
        subject, value = m.group("x"), quoted(m.group("v")) or clean(m.group("v"))
    elif c.act is Act.CLICK:
        m = re.match(r"^(?P<v>.+?)\s+(?:in|from|on|as|for)\s+(?:the\s+)?(?P<x>.+?)(?:\s+(?:dropdown|drop-down|list|menu|"
                     r"select|selector|picker|combo ?box|field))?$", text, re.I)
        if m and (grounding.options(clean(m.group("v")), st.live) or _lazy_dropdown(st, m.group("x"))):
            subject, value = m.group("x"), quoted(m.group("v")) or clean(m.group("v"))
        else:
            opts = grounding.options(quoted(text) or clean(text), st.live, minimum=0.9)
            clickable = grounding.live_elements(quoted(text) or clean(text), st.live, roles=CLICKABLE_ROLES, minimum=0.9)
            if opts and not clickable:
                _select_option(st, opts[0], opts[0].option)
                return True
            return False
    else:
        return False
    m = re.match(r"^(?P<x>.+?)\s+(?P<v>on|off)$", subject, re.I)
    if m and not value:
        subject, value = m.group("x"), m.group("v").capitalize()
    subject = clean(re.sub(r"\s+(?:dropdown|drop-down|select|selector|picker|setting|option|field)$", "", subject,
                           flags=re.I))
    if re.fullmatch(r"it|that|this|them", subject, re.I) and st.last_object and st.last_act == "setting-place":
        subject = st.last_object   # "Settings > Audio language, and change it to Spanish": the setting gone to
    general = re.match(r"^(?P<x>.+?)\s+(?:controls?|settings|options|feature|function)$", subject, re.I)
    named = [t for t in grounding.tree_elements(general.group("x"), st.ctx, minimum=0.7)
             if set(words(general.group("x"))) <= set(words(t.element.name))] if general else []
    if general and not grounding.tree_elements(subject, st.ctx, minimum=0.85) and len(named) == 1:
        subject = named[0].element.name   # "the parental controls": the one setting named parental
    value_low = value.lower()
    if value_low in ("on", "off"):
        value = value.capitalize()
    if value and c.act in (Act.SET, Act.EDIT) and _tree_record(st, subject, value):
        return True
    # a live dropdown with that option
    if value:
        opts = [t for t in grounding.options(value, st.live)
                if grounding.similarity(subject, _field_name(t)) >= 0.5 or not subject]
        if opts:
            _select_option(st, opts[0], opts[0].option)
            _save_record(c, st, opts[0].option)
            return True
    # a dropdown whose options show only once it opens: the option said, chosen there (the step fails if it is not)
    if value and st.live is not None and _lazy_dropdown(st, subject):
        box = grounding.live_elements(subject, st.live, roles=frozenset({ROLE_COMBOBOX}), minimum=0.85)[0]
        _select_option(st, box, _without_field_word(value, box.live.name if box.live else ""))
        _save_record(c, st, value)
        return True
    # a live radio group: "switch units to Imperial", "set the plan to Pro"
    radio = _radio_of(st, subject, value) if value and st.live is not None else None
    if radio is not None:
        st.add(V.SET_CHECKED, {"checked": True, "text": radio.name, "role": ROLE_RADIO}, f"Choose {radio.name!r}")
        st.last_object = radio.name
        try:
            st.expect_check(checks.element(st.ctx, text=radio.name, role=ROLE_RADIO, state="checked"))
        except CannotCheck:
            st.expect_check(None)
        _save_record(c, st, radio.name)
        return True
    # a live checkbox / switch
    if value_low in ("on", "off", "") and st.live is not None:
        boxes = grounding.live_elements(subject, st.live, roles=frozenset({ROLE_CHECKBOX, "switch"}), minimum=0.7)
        if boxes:
            el = boxes[0].live
            checked = value_low == "on" if value_low else not bool(el.checked)
            st.add(V.SET_CHECKED, {"checked": checked, "text": el.name or el.text or el.hint, "role": el.role},
                   f"Turn {boxes[0].label!r} {'on' if checked else 'off'}")
            st.last_object = boxes[0].label
            try:
                st.expect_check(checks.element(st.ctx, text=el.name or el.text or el.hint, role=el.role,
                                               state="checked" if checked else "unchecked"))
            except CannotCheck:
                st.expect_check(None)
            return True
    # a live slider: "set the low stock threshold to 10", "volume to 30"
    number = re.fullmatch(r"[-+]?\d+(?:\.\d+)?", value.strip()) if value else None
    if number and c.act in (Act.SET, Act.EDIT) and st.live is not None and st.has(V.SET_SLIDER):
        sliders = grounding.live_elements(subject, st.live, roles=frozenset({"slider"}), minimum=0.7)
        if sliders and sliders[0].live is not None:
            el = sliders[0].live
            # by its name where it has one: a generated id ("#react-aria…") may not survive the next render
            params: dict = {"value": float(value), "field": el.name} if el.name else \
                {"value": float(value), "selector": el.selector}
            st.add(V.SET_SLIDER, params, f"Move {el.label!r} to {value}")
            st.last_object = el.label
            try:
                st.expect_check(checks.element(st.ctx, text=value, role="slider"))
            except CannotCheck:
                st.expect_check(None)
            return True
    # a live text field
    if value and c.act in (Act.SET, Act.EDIT):
        field = _field(st, subject, numeric=bool(re.match(r"\s*[-+]?\d", value)))
        if field is not None and field.score >= 0.7:
            unit = re.fullmatch(r"\s*([-+]?\d+(?:\.\d+)?)\s*(°\s*[CF]?|%|degrees?|[a-zA-Z]+(?:\s*/\s*[a-zA-Z]+)?)\s*", value) \
                if field.live is not None and "number" in field.live.hint.split() else None
            if unit:   # "55°C", "60 seconds" in a box for a number: the number, in the unit the box counts in
                value = in_units_of(unit.group(1), unit.group(2), field.label)
            type_into(st, value, field)
            if _apply_in_row(st, field, value):
                return True
            save = _save_implied(st, field)
            if save is not None:   # "change the price to 9.99" on a record's form: the change is meant to last
                from server.planners.intents_records import saved
                st.click_live(save, f"Click {save.label!r}")
                saved(st, value)
            _expect_holds(st, value, field)
            return True
        if field is None and _retype_editor(st, subject, value):
            return True
        row = grounding.rows(subject, st.live, minimum=0.85)
        if row and c.act is Act.EDIT or row and re.search(r"\b(?:rename|change)\b", c.low):
            return _edit_row(st, row[0].name, value)
    # a setting the tree declares (cycled by clicking until it shows the value)
    declared = grounding.tree_elements(subject, st.ctx, prefer_node=st.node)
    if declared and declared[0].element.opens and value_low in ("on", "off") and not declared[0].element.values \
            and not _is_lock(declared[0].element):
        # "put Tech Today on": a thing to open or play, not a setting to switch
        return activate(Clause(f"play {subject}", Act.PLAY, subject), st) if value_low == "on" else False
    if declared and value:
        t = declared[0]
        el = t.element
        if el.values and not any(value_low == v.lower() for v in el.values):
            raise Unplannable(f"{el.name} cannot be {value!r}: its values are {', '.join(el.values)}", value)
        st.goto(t.node)
        if pin is not None:
            _set_with_pin(st, t.node, el, value, pin.group("p"))
        elif _is_lock(el) and value_low in ("on", "off") and (
                _pin_field(t.node, el) is not None
                or el.opens and (asks := st.node_info(el.opens)) is not None and _pin_field(asks, el) is not None):
            # its change asks for a PIN, which no task step may guess
            raise Unplannable(f"{el.name} asks for a PIN to be switched {value_low}: say it (\"… with PIN 1234\")",
                              el.name)
        elif st.has(V.CLICK_UNTIL):
            params = {"selector": el.selector} if el.selector else {"text": el.text or el.name}
            st.add(V.CLICK_UNTIL, {**params, "expect": value}, f"Set {el.name} to {value}")
            st.expect_check(None)
        else:
            st.click_declared(el, None, f"Select {el.name}")
            st.goto(t.node)
            st.expect_check(checks.element(st.ctx, selector=el.selector, text=value))
        st.node = t.node.id
        st.summary.append(f"set {el.name} to {value}")
        st.last_object = el.name    # "turn on subtitles, then check they are on": what "they" is
        return True
    if c.act is Act.TOGGLE and declared:
        t = declared[0]
        if t.element.opens or t.element.many or t.score < 0.85:
            return False
        st.goto(t.node)   # "toggle subtitles": the setting selected once, whatever it showed (no end state is said)
        st.click_declared(t.element, None, f"Toggle {t.element.name}")
        st.node, st.last_object = t.node.id, t.element.name
        st.expect_check(None)
        return True
    if value_low in _ON_WORDS | _OFF_WORDS and st.live is not None and st.open_world and _switch_of_row(st, subject, value_low):
        return True
    if st.moved and value:
        raise Defer(subject)
    if c.act in (Act.SET,) and not value:
        return False
    key = _record_key(st, subject) if value else ""
    if key and value_low in _ON_WORDS | _OFF_WORDS:   # "turn the gpu-pool pool back on": its row, where it is listed
        return seek_record(st, key, c.text)
    if key and c.act in (Act.SET, Act.EDIT):
        # "bump batch_size up to 1000": no field is called so, but a record is (a variable, a setting of a list of
        # them): its value, on its own form
        from server.planners.intents_records import edit_record_intent

        return edit_record_intent(Clause(f'set the value of {key} to "{value}"', c.act,
                                         f'the value of {key} to "{value}"'), st)
    raise Unplannable(f"no setting or field called {subject!r} on this device", subject)


_ON_WORDS = frozenset({"on", "active", "enabled", "resumed", "running"})
_OFF_WORDS = frozenset({"off", "inactive", "disabled", "paused", "stopped"})


def _switch_of_row(st: State, subject: str, value: str) -> bool:
    """"flip the api-calls limit to active", "turn the gpu pool back on": no switch is named so, but a record's row
    is, and holds one switch."""
    from server.planners.intents_rows import row_switch

    said = clean(re.sub(r"\s+back$", "", subject.strip(), flags=re.I))
    verb = "activate" if value in _ON_WORDS else "deactivate"
    for name in dict.fromkeys((said, site_search.without_kind(st, said, named=False))):
        rows = grounding.rows(name, st.live, minimum=0.8)
        if (len(rows) == 1 or rows and rows[1].score < rows[0].score - 0.05) and row_switch(st, verb, name, rows[0].name):
            return True
    # "the gpu pool" for the record "gpu-pool": its key, on its own page or where it is listed
    from server.planners.intents_rows import switch_elsewhere

    key = next((k for k in (said, said.replace(" ", "-"), said.replace(" ", "_"))
                if key_shaped(k) and (records.record_link(st, k) is not None or grounding.rows(k, st.live, minimum=0.95))),
               said if key_shaped(said) else "")
    return bool(key) and not st.moved and switch_elsewhere(st, verb, key, f"{verb} {key}")


def _record_key(st: State, subject: str) -> str:
    """The record's key *subject* is written as ("batch_size", "the api-calls limit" → "api-calls"), on a screen
    of an app with no model of its own: a record whose value is set, looked for in the app's lists; else ""."""
    if st.live is None or not st.open_world or st.moved:
        return ""
    m = re.fullmatch(r"(?:the\s+)?(?P<k>\S+)(?:\s+[a-z]+){0,2}(?:\s+back)?", subject.strip())
    return m.group("k") if m and key_shaped(m.group("k")) else ""


def _retype_editor(st: State, old: str, new: str) -> bool:
    """A box that holds *old* itself, the one being edited ("double-click Buy milk and change it to Buy oat milk":
    the row's inline editor, opened and focused): *new* typed over it and sent."""
    if st.live is None:
        return False
    # focused, in a row of the list (the box beside the list that makes a new one has a placeholder; a search box
    # says search)
    editing = [e for e in grounding.textboxes(st.live) if e.value and grounding.norm(e.value) == grounding.norm(old)
               and e.focused and not e.placeholder and not re.search(r"search|filter|query|\bq\b", f"{e.name} {e.hint}", re.I)
               and re.search(r"(?:^|\s|>)(?:li|tr)(?:[:.\[\s>]|$)", e.selector or "")]
    if len(editing) != 1:
        return False
    el = editing[0]
    if not (el.name or el.placeholder) and el.selector:
        el = replace(el, hint="", text="")   # known by where it is: its classes are a framework's ("edit ng-dirty")
    type_into(st, new, Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, old, live=el), submit=True)
    st.summary.append(f"change {old} to {new}")
    _expect_shown(st, new)
    return True


def _edit_row(st: State, row: str, new: str) -> bool:
    control = _row_control(st, row, _EDIT_WORDS)
    if control is not None:
        st.click_live(control, f"Edit {row!r}", row=row)
        type_into(st, new, None, submit=True)
    else:
        st.add(V.DOUBLE_CLICK, {"row": row}, f"Edit {row!r} (double-click)")
        type_into(st, new, None, submit=True)
    _expect_shown(st, new)
    return True


def edit_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.EDIT:
        return False
    m = re.match(r"^(?P<x>.+?)\s+(?:to|as|into|so (?:that )?it (?:says|reads|shows))\s+(?P<v>.+)$", c.rest.strip(), re.I)
    if not m:
        from server.planners.intents_records import row_edit

        said = clean(resolve_pronoun(c.rest, st))
        edit = row_edit(st, said, None) if st.live is not None and st.open_world and said else None
        if edit is not None:   # "edit the PostgreSQL news watch": that row's Edit control
            row = edit.live.container if edit.live is not None else ""
            st.click_live(edit, f"Edit {said!r}", row=row)
            kind_last = record_ids.KIND_LAST.match(said)
            name = said if said.lower() in row.lower() or kind_last is None else kind_last.group("x")
            at = row.lower().find(name.lower())
            name = row[at:at + len(name)] if at >= 0 else name   # as the row writes it
            st.last_object = name
            try:   # its form shows it in a field
                st.expect_check(checks.element(st.ctx, text=name, role=ROLE_TEXTBOX,
                                               description=f"Check the form of {name!r} is open"))
            except CannotCheck:
                st.expect_check(None)
            return True
        from server.planners.intents_page_verbs import verb_on_page

        if said and verb_on_page(st, c.verb, said, ""):   # "edit the Coding Style page": its page's Edit control
            return True
        return activate(Clause(c.text, Act.CLICK, c.rest), st)
    row = grounding.rows(clean(m.group("x")), st.live)
    if not row:
        return set_intent(c, st)
    value = re.sub(r"^(?:say|says|read|reads|be|show|shows)\s+", "", m.group("v").strip(), flags=re.I)   # "to say X"
    return _edit_row(st, row[0].name, quoted(value) or clean(value))


_RUN_VERBS = frozenset({"run", "execute"})


def submit_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.SUBMIT:
        return False
    target = clean(c.rest) if c.rest else ""
    if target and not re.fullmatch(r"(?:it|this|that|the form|the changes|changes|the page|the entry|the record)",
                                   target, re.I):
        # "send an email to X": the object must be something on the screen, not any save button
        verb = words(c.verb)[0] if c.verb and words(c.verb) else ""
        if verb not in _RUN_VERBS:
            return activate(Clause(f"click {target}", Act.CLICK, target), st)
        # "run the nightly deployment": opening its page (or clicking its name) is never the run itself, and what
        # runs it there (a "Run" that opens a menu, a form) proves nothing once clicked: refused with the reason
        raise Unplannable(f"nothing here {verb}s {target!r} itself: its link only opens it; say which control "
                          f"to use on its page", target)
    found = [t for w in ([target] if target else []) + _SAVE_WORDS
             for t in grounding.live_elements(w, st.live, roles=frozenset({ROLE_BUTTON, ROLE_LINK}), minimum=0.85)]
    if found:
        st.click_live(found[0], f"Click {found[0].label!r}")
        st.expect_check(None)
        return True
    if st.live is not None:   # "run": the form's own "Start" / "Run" button
        from server.planners.intents_control import click_verb_control, verb_control

        verb = verb_control(c.text, st)
        if verb and click_verb_control(st, verb):
            return True
    if st.live is not None and grounding.textboxes(st.live) and "OK" in st.key_choices():
        st.add(V.PRESS_KEY, {"key": "OK"}, "Press Enter to submit", moves=True)
        st.expect_check(None)
        return True
    if st.moved:
        raise Defer(c.text)
    return activate(Clause(c.text, Act.CLICK, c.rest or c.text), st)


def clear_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.CLEAR:
        return False
    phrase = re.sub(r"\s+(?:field|box|input)$", "", clean(c.rest), flags=re.I)
    field = _field(st, phrase)
    if field is None:
        return False
    type_into(st, "", field)
    st.expect_check(None)
    return True


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
from server.planners.grounding import Target, TargetKind, is_dropdown, norm, option_for, option_shown
from server.planners.language import Clause, quoted
from server.planners.saved_check import saved_clause
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_BUTTON, ROLE_COMBOBOX, ROLE_HEADING, ROLE_RADIO, ROLE_TEXTBOX, UIElement

# a tester's verb and the words a page may use for the same action
_ALIASES: dict[str, tuple[str, ...]] = {
    "close": ("close", "resolve"), "resolve": ("resolve", "close"), "fix": ("resolve", "close"),
    "assign": ("assign", "reassign"), "reassign": ("reassign", "assign"), "reopen": ("reopen",),
    "accept": ("accept",), "approve": ("approve", "accept"), "reject": ("reject", "decline"),
    "decline": ("decline", "reject"), "archive": ("archive",), "publish": ("publish",),
    "unpublish": ("unpublish",), "merge": ("merge",), "cancel": ("cancel",), "tag": ("tag",),
    "copy": ("copy", "duplicate", "clone"), "duplicate": ("duplicate", "copy", "clone"),
    "clone": ("clone", "copy", "duplicate"), "lock": ("lock",), "unlock": ("unlock",),
}
# where a page has no control for the action, a field does it: the state a dropdown offers ("resolved" in a
# Status list), or the field the verb names ("Assigned To" for assign, "Keywords" for tag)
_STATE_OPTIONS: dict[str, tuple[str, ...]] = {
    "close": ("closed", "resolved", "done", "fixed"), "resolve": ("resolved", "closed", "done", "fixed"),
    "fix": ("fixed", "resolved", "closed", "done"), "reopen": ("reopened", "open", "new"),
    "accept": ("accepted",), "approve": ("approved", "accepted"), "reject": ("rejected", "declined"),
    "decline": ("declined", "rejected"), "archive": ("archived",), "publish": ("published",),
    "unpublish": ("unpublished", "draft"), "merge": ("merged",), "cancel": ("cancelled", "canceled")}
_FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "assign": ("assign", "owner", "owned"), "reassign": ("assign", "owner", "owned"),
    "tag": ("tag", "keyword", "label")}
WORKFLOW_VERBS = frozenset(_ALIASES) | {"comment", "reply", "post", "leave"}   # a note on a record: comment_intent
_PARTICIPLE = {"close": "closed", "resolve": "closed", "fix": "closed", "reopen": "reopened", "accept": "accepted",
               "approve": "approved", "reject": "rejected", "decline": "declined", "archive": "archived",
               "publish": "published", "unpublish": "unpublished", "merge": "merged", "cancel": "cancelled"}
_CLAUSE = re.compile(r"^(?:please\s+)?(?P<verb>[a-z]+)\s+(?P<rec>.+?)(?:\s+as\s+(?P<as>[\w-]+(?:\s+[\w-]+)?)"
                     r"|\s+to\s+(?P<to>\"[^\"]+\"|'[^']+'|(?-i:[A-Z])[\w.@-]*(?:\s+(?-i:[A-Z])[\w.@-]*){1,2}|[\w.@-]+)"
                     r"|\s+with\s+(?:the\s+|a\s+)?(?P<with>\"[^\"]+\"|'[^']+'|[\w.@-]+)(?:\s+(?:tag|keyword|label))?)?\s*$",
                     re.I)


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
    # a new state to choose for the record ("Closed" among Open / Resolved / Closed), where no control is the action
    for state in _STATE_OPTIONS.get(verb, ())[:1]:
        for el in st.live.elements:
            if el.role == ROLE_RADIO and not el.hidden and not el.disabled and (el.name or el.text).strip().lower() == state:
                return el
    return None


_DISMISS = re.compile(r"close|[×✕✖x]", re.I)


def _closes_a_record(st: State) -> bool:
    """The page offers a record's own close ("Close issue", "Resolve", a "resolve as" radio): a "close" said of
    what it shows is that action, never the dialog's "×"."""
    assert st.live is not None
    return any(e.role in (ROLE_BUTTON, ROLE_RADIO, "link") and not e.hidden and words_of(e)[:1]
               and (words_of(e)[0] == "close" and len(words_of(e)) > 1 and not set(words_of(e)[1:]) <= _VIEW_WORDS
                    or words_of(e)[0] == "resolve")
               for e in st.live.elements)


# what a "Close …" control shuts when it shuts a view, not a record: "Close all", "Close this tab"
_VIEW_WORDS = frozenset("all others other this tab tabs window dialog panel sidebar menu popup drawer preview".split())


def words_of(e: UIElement) -> list[str]:
    return (e.name or e.text or "").lower().split()


def _dismiss(st: State, rec: str) -> bool:
    """"close the GettingStarted tiddler", "close the Settings dialog": *rec* is a heading shown, with a bare
    "close" / "×" button beside it (on its line, or below it in its panel). That button dismisses the view, not
    the record; the proof is that the heading is gone."""
    from server.planners.intents_page_verbs import panel_control

    assert st.live is not None
    said = norm(re.sub(r"^(?:the|this|that)\s+", "", rec, flags=re.I))

    def is_it(h: UIElement) -> bool:   # the heading, and maybe one word for what kind of thing it is
        want = norm(h.label)
        return bool(want) and (said == want or said.startswith(want + " ")
                               and len(said.split()) == len(want.split()) + 1)

    found = panel_control(st, is_it, lambda e: e.role == ROLE_BUTTON
                          and _DISMISS.fullmatch((e.name or e.text).strip()) is not None)
    if found is None:
        return False
    head, button = found
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, button.label, live=button), f"Close {head.label!r}")
    st.summary.append(f"close {head.label}")
    st.expect_check(checks.element(st.ctx, text=head.label, role=ROLE_HEADING, present=False,
                                   description=f"Check {head.label!r} is closed"))
    return True


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


def _by_field(st: State, verb: str, value: str, rec: str = "") -> bool:
    """The action done with a field of the record's form, then saved: the dropdown that offers the state
    ("close" → "resolved" in Status), or the field the verb names ("assign … to bob" → Assigned To)."""
    assert st.live is not None
    fields = [e for e in st.live.elements if (e.role == ROLE_TEXTBOX or is_dropdown(e)) and not e.hidden
              and not e.disabled and e.selector]
    chosen: UIElement | None = None
    if value and verb in _FIELD_WORDS:
        chosen = next((e for e in fields if any(w in (e.name or e.placeholder or "").lower() for w in _FIELD_WORDS[verb])),
                      None) or next((e for e in fields if not e.name and not e.placeholder and is_dropdown(e)
                                     and any(w in e.hint.lower().split() for w in _FIELD_WORDS[verb])), None)
    elif not value and verb in _STATE_OPTIONS:
        found = next(((e, o) for want in _STATE_OPTIONS[verb] for e in fields if is_dropdown(e)
                      for o in e.options if o.lower() == want), None)
        if found is not None:
            chosen, value = found
    if chosen is None:
        return False
    if is_dropdown(chosen):
        option = option_for(chosen.options, value)
        if option is None:
            raise Unplannable(f"{chosen.label!r} offers no {value!r}; it offers {', '.join(chosen.options)}", value)
        st.add(V.SELECT_OPTION, {"option": option, "selector": chosen.selector}, f"Choose {option!r} in {chosen.label!r}")
        value = option_shown(option)
    else:   # a list of words in one box (keywords): the new one after those it holds
        text = f"{chosen.value}, {value}" if chosen.value.strip() else value
        st.add(V.INPUT_TEXT, {"text": text, "selector": chosen.selector, "clear": True}, f"Type {text!r} in {chosen.label!r}")
    save = records.save_button(st)
    if save is None:
        raise Unplannable(f"no button to save the {verb!r} action", verb)
    st.click_live(save, f"Click {save.label!r}")
    if rec:   # on the record's row or page the save leads to, never a word anywhere (a list's filter "Closed")
        raise Defer(value, replace_with=[saved_clause(value, rec)])
    try:
        st.expect_check(checks.text_shown(st.ctx, value))
    except CannotCheck:
        st.expect_check(None)
    return True


# "resolve ticket 3 with this resolution: cleared the cache": words that go with the action, in the box named so
_NOTE_WITH = re.compile(r"\s+(?:with|saying|and\s+(?:say|write|note))\s+(?:this|the|a|an)?\s*(?P<k>resolution|comment|note|reason|"
                        r"message|explanation|remark)\s*:?\s*(?P<n>\S.*)$", re.I)


def _to_its_page(st: State, rec: str, said: str) -> bool:
    """"publish Patagonia Trek" on a page that does not show it: its own link, else the app's search and lists, then
    the request again on its page. False where it names no record (a name in capitals or quotes) or nothing leads to it."""
    from server.planners.list_search import seek_record

    name = rec.strip().strip("\"'“”‘’")
    if st.moved or st.live is None or not re.match(r"(?:the\s+)?[\"'“‘]?[A-Z0-9]", rec.strip()) or not name:
        return False
    name = re.sub(r"^the\s+", "", name)
    link = records.record_link(st, name)
    if link is not None and link.live is not None:
        st.click_live(link, f"Open {link.label!r}")
        raise Defer(name, replace_with=[said])
    return seek_record(st, name, said)


def workflow_intent(c: Clause, st: State) -> bool:
    said = c.text.strip()
    noted = _NOTE_WITH.search(said)
    note, note_kind = (quoted(noted.group("n")) or noted.group("n").strip().rstrip("."), noted.group("k")) if noted else ("", "")
    m = _CLAUSE.match(said[:noted.start()] if noted else said)
    if not m or m.group("verb").lower() not in _ALIASES or st.live is None or not st.open_world:
        return False
    verb = m.group("verb").lower()
    rec = m.group("rec").strip()
    if re.fullmatch(r"[\"“][^\"”]+[\"”]", rec):
        rec = rec[1:-1]   # 'resolve "ticket #1" as fixed': what "it" referred to, quoted
    if verb == "close" and not _closes_a_record(st) and _dismiss(st, rec):
        return True
    if not record_ids.on_its_page(st, rec, c.text):
        return _to_its_page(st, rec, c.text)
    control = _control(st, verb)
    given = m.group("as") or quoted(m.group("to") or m.group("with") or "") or m.group("to") or m.group("with") or ""
    if control is None and _by_field(st, verb, given, _named_record(rec) or rec):
        st.summary.append(f"{verb} {rec}")
        return True
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
    value = given
    if value:
        field = _beside(st, control, ROLE_COMBOBOX if m.group("as") else ROLE_TEXTBOX)
        if field is None or not field.selector:
            raise Unplannable(f"no field beside {control.label!r} for {value!r}", value)
        if is_dropdown(field):
            option = option_for(field.options, value)
            if option is None:
                raise Unplannable(f"{control.label!r} offers no {value!r}; it offers {', '.join(field.options)}", value)
            st.add(V.SELECT_OPTION, {"option": option, "selector": field.selector}, f"Choose {option!r}")
        else:
            st.add(V.INPUT_TEXT, {"text": value, "selector": field.selector, "clear": True}, f"Type {value!r}")
    if note:
        boxes = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled and e.selector
                 and re.search(rf"\b(?:{note_kind}|comment|note|resolution|reason|message)s?\b",
                               " ".join((e.name, e.placeholder, e.hint)), re.I)]
        if not boxes:
            raise Unplannable(f"no box for the {note_kind} on the page of {rec}", note_kind)
        st.add(V.INPUT_TEXT, {"text": note, "selector": boxes[0].selector, "clear": True},
               f"Type the {note_kind} in {boxes[0].label!r}")
    if control.role == ROLE_RADIO or note:
        save = records.save_button(st)
        if save is None:
            raise Unplannable(f"no button to save the {verb!r} action", verb)
        st.click_live(save, f"Click {save.label!r}")
    st.summary.append(f"{verb} {rec}")
    chosen_state = control.role == ROLE_RADIO and (control.name or control.text).strip().lower() in _STATE_OPTIONS.get(verb, ())
    shown = value or ((control.name or control.text).strip() if chosen_state else _PARTICIPLE.get(verb, ""))
    if shown and (control.role == ROLE_RADIO or note):   # a form saved: checked on the record's row or page
        raise Defer(shown, replace_with=[saved_clause(shown, _named_record(rec) or rec)])
    try:
        st.expect_check(checks.text_shown(st.ctx, shown) if shown else None)
    except CannotCheck:
        st.expect_check(None)
    return True


_SET_RECORD = re.compile(r"^(?:set|change|move|put|switch|mark|bump|turn|update)\s+(?P<rec>.+?)\s+(?:over\s+|across\s+)?"
                         r"(?:to|as|into|in)\s+(?:the\s+)?(?P<v>\"[^\"]+\"|'[^']+'|[\w.@-]+(?:\s+[\w.@-]+)?)\s*[.!]?$", re.I)
# a record moved somewhere by its name ("move 'Fix the tap' to Errands", "move the task Buy milk into the Errands
# list"): the name said, with the kind of thing it is before or after it
_NAMED_RECORD = re.compile(r"^(?:the\s+)?(?:(?:task|item|card|ticket|issue|entry|record|row|todo|to-do|note|story|bug)\s+)?"
                           r"(?P<x>[\"'“‘][^\"'”’]+[\"'”’]|(?-i:[A-Z0-9])[^\"]*?)"
                           r"(?:\s+(?:task|item|card|ticket|issue|entry|record|row|todo|to-do|note|story|bug))?$", re.I)
# what the place a record moves to is called ("the Errands list", "the Done column"): the name, not the kind
_PLACE_KIND = re.compile(r"\s+(?:list|column|group|category|folder|board|project|queue|section|stage|status|lane|bucket|"
                         r"tab|page)$", re.I)


def _named_record(rec: str) -> str:
    """The name of a record a clause names by its words ("'Fix the tap'", "the task Buy milk"), else ""."""
    m = _NAMED_RECORD.match(rec.strip())
    if m is None:
        return ""
    return quoted(m.group("x")) or m.group("x").strip()


def record_value_intent(c: Clause, st: State) -> bool:
    """"set issue 8 to in-progress", "move ticket 3 to testing", "move 'Fix the tap' to Errands": the value
    names its own field, the one dropdown of the record's page (or of its form, folded behind its Edit) that
    offers it; chosen there, then saved. A record named by its words is found first (its link, else the lists)."""
    m = _SET_RECORD.match(c.text.strip())
    if not m or st.live is None or not st.open_world:
        return False
    value = quoted(m.group("v")) or _PLACE_KIND.sub("", m.group("v"))
    rec = m.group("rec")
    if record_ids.parse(rec) is not None:
        if not record_ids.on_its_page(st, rec, c.text):
            return False
    elif c.verb.lower() == "move" and (name := _named_record(rec)):
        # never a place to go to: "move Buy milk to Errands" changes where the record is, not the screen
        rec = name
        if not record_ids.on_named_record(st, name, in_fields=True):
            link = records.record_link(st, name)
            if link is not None:
                st.click_live(link, f"Open {link.label!r}")
                raise Defer(name, replace_with=[c.text])
            from server.planners.list_search import seek_record

            if seek_record(st, name, c.text):
                return True
            raise Unplannable(f"no record {name!r} on the screen, nor in the lists looked through", name)
    else:
        return False
    offers = [(e, o) for e in st.live.elements if is_dropdown(e) and not e.hidden and not e.disabled
              and e.selector for o in [option_for(e.options, value)] if o]
    if not offers and record_ids.parse(m.group("rec")) is None:
        unfold = records.expander(st)   # its form, folded behind its Edit ("Edit Task")
        if unfold is None:
            raise Unplannable(f"nothing on the page of {rec!r} moves it to {value!r}", value)
        st.click_live(unfold, f"Click {unfold.label!r}")
        raise Defer(value, replace_with=[c.text])
    if len({id(e) for e, _ in offers}) != 1:
        if record_ids.parse(m.group("rec")) is None:
            raise Unplannable(f"no one field of {rec!r} offers {value!r}", value)
        return False   # no dropdown offers it, or several do: which field is meant is for other intents
    field, option = offers[0]
    st.add(V.SELECT_OPTION, {"option": option, "selector": field.selector}, f"Choose {option!r} in {field.label!r}")
    save = records.save_button(st)
    if save is None:
        raise Unplannable(f"no button to save {rec}", rec)
    st.click_live(save, f"Click {save.label!r}")
    st.summary.append(f"set {rec} to {option}")
    st.last_object = rec
    if record_ids.parse(m.group("rec")) is None:   # the record's row or page, on the screen the save leads to
        raise Defer(option, replace_with=[saved_clause(option_shown(option), rec)])
    try:
        st.expect_check(checks.text_shown(st.ctx, option))
    except CannotCheck:
        st.expect_check(None)
    return True


_NOTE = r"(?:message|note|comment|reply|remark)"
_NOTE_ON = [
    # "add a message to issue 3 saying: …", "post a comment on ticket 2 that says '…'"
    re.compile(rf"^(?:add|post|leave|write|put|attach)\s+(?:a|an|the|my)?\s*{_NOTE}\s+(?:to|on|in|for)\s+(?P<rec>.+?)"
               r"\s*(?:,\s*)?(?:saying|that says|which says|reading|with the text|with)\s*:?\s+(?P<x>.+)$", re.I),
    # "leave a comment on the tap task: bought the washers"
    re.compile(rf"^(?:add|post|leave|write|put|attach|drop)\s+(?:a|an|the|my)?\s*(?:quick\s+|short\s+)?{_NOTE}\s+"
               r"(?:to|on|in|for|under)\s+(?P<rec>[^:]+?)\s*:\s*(?P<x>\S.*)$", re.I),
    # "add the note 'ready for QA' to issue 1"
    re.compile(rf"^(?:add|post|leave|write|put|attach)\s+(?:a|an|the|my)?\s*{_NOTE}\s+(?P<x>[\"'“‘].+[\"'”’])\s+"
               r"(?:to|on|in|for)\s+(?P<rec>.+)$", re.I),
    # "on issue 1 leave the note '…'", "in ticket 2, add a comment: …"
    re.compile(rf"^(?:on|in|for)\s+(?P<rec>.+?),?\s+(?:add|post|leave|write|put)\s+(?:a|an|the|my)?\s*{_NOTE}"
               r"\s*(?:saying|that says|reading)?\s*:?\s+(?P<x>.+)$", re.I),
    # "comment on ticket 2: …"
    re.compile(r"^(?:comment|reply)\s+(?:on|to)\s+(?P<rec>.+?)\s*(?::|,|saying|with)\s*(?P<x>.+)$", re.I),
]


def comment_intent(c: Clause, st: State) -> bool:
    """A message, note or comment added to a record: typed into its page's comment box, then saved."""
    text = c.text.strip()
    m = next((p.match(text) for p in _NOTE_ON if p.match(text)), None)
    if m is None or st.live is None or not st.open_world:
        return False
    rec, note = m.group("rec").strip(), m.group("x").strip().rstrip(".")
    note = quoted(note) or note
    if not record_ids.on_its_page(st, rec, c.text):
        return False
    boxes = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled and e.selector]
    named = [e for e in boxes if re.search(r"\b(?:comment|note|message|reply|remark)s?\b",
                                           " ".join((e.name, e.placeholder, e.hint)), re.I)]
    areas = [e for e in boxes if e.selector.endswith("textarea") or "textarea" in e.hint]
    box = (named or (areas if len(areas) == 1 else []) or [None])[0]
    if box is None:
        unfold = records.expander(st)
        if unfold is None:
            raise Unplannable(f"no box for a {c.text.split()[0]} on the page of {rec}", "comment")
        st.click_live(unfold, f"Click {unfold.label!r}")
        raise Defer(rec, replace_with=[c.text])
    st.add(V.INPUT_TEXT, {"text": note, "selector": box.selector, "clear": True}, f"Type the note in {box.label!r}")
    save = records.save_button(st)
    if save is None:
        raise Unplannable(f"no button to save the note on {rec}", rec)
    st.click_live(save, f"Click {save.label!r}")
    st.summary.append(f"note on {rec}")
    st.last_object = rec
    try:
        st.expect_check(checks.text_shown(st.ctx, note[:60]))
    except CannotCheck:
        st.expect_check(None)
    return True

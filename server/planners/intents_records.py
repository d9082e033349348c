"""Intents for records in web apps: add with a form, fill a form, edit a record (deleting one: intents_delete).

Each works on the screen as it is and hands the rest of the job to the closed
loop: "add a customer named Ivy with email ivy@x.com" on a list page clicks
"Add customer", and leaves ``fill in name "Ivy", email "ivy@x.com"`` and
``save`` to be planned on the form that opens.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from server.planners import checks, form_fill, form_values, grounding, intents_statement, record_ids, records
from server.planners.checks import CannotCheck
from server.planners.intents_lists import filter_intent, sort_intent, subset_intent
from server.planners.intents_delete import confirm_intent, delete_record_intent, delete_shown_intent
from server.planners.intents_record_page import record_fact_check
from server.planners.intents_query import query_intent
from server.planners.language import Act, Clause, clean, quoted, read_clause, words
from server.planners.list_search import addressed_elsewhere, go_to_list, on_list_of, open_contents, seek_intent, seek_record
from server.planners.records import Record
from server.planners.saved_check import saved_clause
from server.planners.settings_first import settings_first
from server.planners.page_names import is_this_page
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_BUTTON, ROLE_COMBOBOX, ROLE_LINK, ROLE_TEXTBOX, TOGGLE_ROLES, UIElement

def fill_intent(c: Clause, st: State) -> bool:
    """"fill in name "Ivy", email "ivy@x.com"" — the form on the screen, field by field."""
    rec = records.parse_fill(c.text)
    if rec is None:
        return False
    if st.live is None:
        raise Defer("the form")
    if not records.form_fields(st):
        if st.moved:
            raise Defer("the form")
        unfold = records.page_editor_control(st) or _own_expander(st)   # its text behind "Edit", its form a tab
        if unfold is None:
            raise Unplannable("no form on the screen", "form")
        st.click_live(unfold, f"Click {unfold.label!r}")   # the page's text, its editor behind "Edit"
        raise Defer("the form", replace_with=[c.text])
    try:
        later = _fill_this_part(st, rec)
    except Unplannable as exc:
        # "fill in due date …" on a record's page whose form is folded behind its Update / its tab: unfolded first
        unfold = _own_expander(st) if str(exc).startswith("no field for") and not st.steps else None
        if unfold is None:
            raise
        st.click_live(unfold, f"Click {unfold.label!r}")
        raise Defer("the form", replace_with=[c.text]) from None
    st.last_object = rec.name or st.last_object
    if later is not None:   # a form in parts ("Create and open in editor"): the rest goes in the next one, and
        # what goes there is proved saved too, not only the name the first part made
        raise Defer("the form's next part", replace_with=[later.as_clause()],
                    last=[saved_clause(v) for _, v in later.fields if v])
    st.expect_check(None)
    return True


def _own_expander(st: State) -> grounding.Target | None:
    """The page's own control that unfolds its form (never a row's Edit: another record's)."""
    unfold = records.expander(st)
    return unfold if unfold is not None and unfold.live is not None and not unfold.live.container else None


# a button that sends a form on to its next part, not the last one
_SAVES = re.compile(r"\b(?:save|submit|apply|update|publish)\b", re.I)
_ONWARD = re.compile(r"\b(?:next|continue|proceed|(?:open|edit)\s+(?:it\s+)?in\s+(?:the\s+)?editor)\b", re.I)


def _fill_this_part(st: State, rec: Record) -> Record | None:
    """Fill *rec* in; where the form lacks fields for some of it and a button sends it on to a next part,
    fill what it has, click on, and return what is left for that part (else None)."""
    start, left = len(st.steps), Record()
    while True:
        try:
            form_fill.fill(st, rec)
            break
        except Unplannable as exc:
            onward = _onward(st)
            key = exc.phrase
            kept = [(k, v) for k, v in rec.fields if k != key]
            if onward is None or not key or len(kept) == len(rec.fields) or not (rec.name or kept):
                raise
            left.fields += [(k, v) for k, v in rec.fields if k == key]
            rec = Record(name=rec.name, noun=rec.noun, fields=kept, loose=rec.loose, flags=rec.flags,
                         options=rec.options, empty=rec.empty)
            del st.steps[start:]
    if not left.fields:
        return None
    onward = _onward(st)
    assert onward is not None
    st.click_live(onward, f"Click {onward.label!r}")
    return left


def _onward(st: State) -> grounding.Target | None:
    assert st.live is not None
    for e in st.live.elements:
        if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled and _ONWARD.search(e.name or e.text) \
                and not _SAVES.search(e.name or e.text):   # "Save and continue editing" commits the record
            return grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, e.label, live=e)
    # a form that only makes the record, by its name ("Title", "ID", then "Add Child Page"): the record's own
    # form, which it opens, holds the rest ("price")
    fields = [e for e in records.form_fields(st) if e.role != "checkbox"]
    makers = [e for e in st.live.elements if e.role == ROLE_BUTTON and not e.hidden and not e.disabled
              and words(e.name or e.text)[:1] in (["add"], ["create"]) and len(words(e.name or e.text)) >= 2]
    if 0 < len(fields) <= 2 and len(makers) == 1:
        return grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, makers[0].label, live=makers[0])
    return None


def _adds_another_kind(st: State, field: UIElement, noun: str) -> bool:
    """The field says it adds a kind other than *noun* ("Add participant" for a bill), or a control adds
    *noun* itself ("Add a new bill")."""
    for label in (field.name, field.placeholder):
        kind = records.added_kind(label)
        if kind and not records.same_kind(kind, noun):
            return True
    assert st.live is not None
    return any(e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden
               and records.same_kind(records.added_kind(e.name or e.text), noun) for e in st.live.elements)


def _said_kind(text: str) -> str:
    """The kind a phrase names after its article: "the settlement where …" → settlement."""
    m = re.match(r"^(?:the|a|an|this|that)\s+(?P<k>[a-z]+)\b", text.strip())
    return m.group("k") if m else ""


def _single_field_add(st: State, rec: Record, said: str = "") -> str:
    """A list with one "new item" field (a todo list): type the item and press Enter; the item typed."""
    if st.live is None or rec.flags:
        return ""
    if rec.fields:
        return _one_value_add(st, rec)
    if rec.loose and (not rec.name or any(re.search(r"\d", v) for v in rec.loose)):
        return ""   # "a product: Tea Cup, kitchen, 4.50": a record's values, not a list of items
    said = records.DESTINATION.sub("", said.strip())
    if not rec.name and rec.noun and re.fullmatch(r"[a-z][\w'-]*", said, re.I):
        rec = Record(name=said, noun="")   # "add milk": with no article, the one word is the item
    elif rec.noun and said[:1].isupper() and said.split()[0].lower() == rec.noun and re.fullmatch(r"(?:[A-Z][\w'-]*\s*){2,4}", said):
        rec = Record(name=said, noun="")   # "add Erin Smith": a name, not a kind "Erin" called "Smith"
    if not rec.name:
        return ""   # "add a todo": nothing to type yet
    from server.planners.intents_form import _field, type_into   # one typing path for every intent

    by_noun = _field(st, rec.noun) if rec.noun else None
    field = by_noun or _field(st, "new") or _field(st, "")
    if field is None or records.save_button(st, ("add",)) and len(records.form_fields(st)) > 1:
        return ""
    if rec.noun and by_noun is None and _adds_another_kind(st, field.live, rec.noun):
        return ""   # "add a bill" where the one field adds participants: not the bill's way in
    kind = _said_kind(said)
    if not rec.noun and kind and _adds_another_kind(st, field.live, kind):
        return ""   # "register the settlement where …": not a participant's name
    if re.search(r"\b(?:search|filter|searchbar)\b", " ".join(records.labels(field.live)), re.I):
        return ""
    items = [rec.name, *rec.loose]
    if not all(_fits(field.live, item) for item in items):
        return ""   # "a group called Bike shows" is no web page URL: that field adds something else   # "add milk, eggs and bread": one item after another
    for item in items[:-1]:
        type_into(st, item, field, submit=True)
        _expect_shown(st, item)
        if st.expect is not None:
            st.add_step(st.expect)
            st.expect = None
    type_into(st, items[-1], field, submit=True)
    return items[-1]


_SHAPED = ((re.compile(r"\b(?:url|link|web ?page|website|address|href)\b", re.I), re.compile(r"\.\w|://")),
           (re.compile(r"\be-?mail\b", re.I), re.compile(r"@")))


def _fits(field: UIElement | None, value: str) -> bool:
    """*value* has the shape the field asks for: a URL field takes an address, an e-mail field an e-mail."""
    if field is None:
        return True
    said = " ".join((field.name, field.placeholder, field.hint))
    if "number" in field.hint.split() and not re.fullmatch(r"[-+]?\d+(?:[.,]\d+)?", value.strip()):
        return False   # a box that takes a number (a page number of the list) takes no name
    return all(shape.search(value) for label, shape in _SHAPED if label.search(said))


def _one_value_add(st: State, rec: Record) -> str:
    """"add https://example.com/pricing" where the list's one field is its URL: typed there, then Enter (the form's
    button may say anything: "Watch", "Go"); the value typed."""
    if rec.name or rec.loose or len(rec.fields) != 1:
        return ""
    from server.planners.intents_form import type_into

    (name, value), = rec.fields
    fields = records.form_fields(st)
    if len(fields) != 1 or not set(words(name)) & set(words(" ".join(records.labels(fields[0])))):
        return ""
    if re.search(r"\b(?:search|filter|searchbar)\b", " ".join(records.labels(fields[0])), re.I):
        return ""
    type_into(st, value, grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, fields[0].label, live=fields[0]),
              submit=True)
    return value


def add_record_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.ADD:
        return False
    dest = re.search(r"\bto\s+(?:the\s+|my\s+|your\s+)(?P<y>[a-z][\w -]*?)(?=\s*$|\s*[,:]|\s+(?:with|and)\b)",
                     c.rest.strip(), re.I)
    if dest and st.live is not None and not _place_exists(st, dest.group("y")):
        raise Unplannable(f"there is no {dest.group('y')!r} on this app's screen", dest.group("y"))
    if dest and st.live is not None and _opens_place(st, c, dest.group("y")):
        return True
    to_record = re.match(r"^(?:a|an|the)\s+(?:new\s+)?(?P<f>tag|label|keyword|category)s?\s+\S.*?\s+to\s+"
                         r"(?:the\s+[a-z]+\s+)?(?P<rec>(?-i:[A-Z0-9\"'“]).+)$", c.rest.strip(), re.I)
    if to_record:   # "add the tag javascript to MDN Web Docs": one more value in that record's field, not a new record
        raise Unplannable(f"adding a {to_record.group('f')} to the {to_record.group('f')}s {to_record.group('rec')!r} "
                          f"already has is not supported: set its {to_record.group('f')}s to the whole list instead "
                          f"(\"set the {to_record.group('f')}s of {to_record.group('rec')} to …\")", to_record.group("f"))
    # "add Erin to the project": where it goes, not a field of it
    rest = (c.rest.strip()[:dest.start()] + c.rest.strip()[dest.end():]).strip() if dest and st.live is not None \
        else c.rest
    if dest and st.live is not None:
        # "a new device to the lab: Pixel 9, …" introduces the record; "a user Bob to the beta: email …" its fields
        kind_only = re.match(r"^(?:an?|the)\s+(?:new\s+)?(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*))?\s*$",
                             c.rest.strip()[:dest.start()], re.I)
        rest = re.sub(r"\s+:", ":" if kind_only else ",", rest)
    rec = records.parse_record(rest or c.rest)
    if not rec.name and not rec.fields and not rec.noun:
        raise Unplannable(f"nothing to add in {c.text!r}")
    if rec.name and not quoted(rest or c.rest) and _SCHEMA_PART.match((rest or c.rest).strip()):
        # "add an integer column pages to the books table": a change of the table's make-up, never a row "integer
        # column pages"
        raise Unplannable(f"adding {rec.name!r} changes how the data is made up, not its records: this planner adds "
                          "records only", rec.name)
    if st.live is None:
        if st.moved:
            raise Defer(rec.noun or rec.name)
        return False   # a device with no screen to read: the tree's intents decide
    typed = _single_field_add(st, rec, rest or c.rest)
    if typed:
        st.last_object = typed
        _expect_shown(st, typed)
        return True
    fields = records.form_fields(st)
    said_kind = rec.noun or _said_kind(rest or c.rest)
    save = records.save_button(st, kind=said_kind)   # "log a service": its form's "Log service"
    # the one form adds another kind ("Add participant"): not this record's form, nor its "Add" this record's
    other_kind = bool(said_kind and fields) and all(
        any(records.added_kind(x) for x in (f.name, f.placeholder)) and _adds_another_kind(st, f, said_kind)
        for f in fields)
    if other_kind:
        fields = []
    noun = rec.noun
    named, generic = add_controls(st, noun, named_record=bool(rec.name))
    two_words = next((o for o in rec.options if len(o.split()) == 2 and o.split()[-1] == noun), "") if noun else ""
    if two_words and not named:   # "a new test case": "New Test Case", where "new case" names no control
        named = add_controls(st, two_words, named_record=bool(rec.name))[0] or named
    if fields and save is not None and (rec.noun == "" or len(fields) > 1) \
            and not (any(_leads_elsewhere(st, t.live) for t in named) and not _form_fits(st, rec)) \
            and not (rec.name and _holds_a_record(st, fields)):
        _fill_and_save(st, rec, save)
        return True
    if other_kind:
        generic = []
    adder = _adder(st, noun, named, generic)
    if adder is not None and save is not None and adder.live is save.live and fields \
            and (rec.name or rec.fields or rec.flags or rec.loose):
        _fill_and_save(st, rec, save)   # "Add shift" sends the form on the screen: never before it is filled
        return True
    if adder is not None:
        nothing = not rec.name and not rec.fields and not rec.flags and not rec.loose
        rest = [] if nothing else _fill_save_check(st, rec)   # read on this screen, before the click leaves it
        st.click_live(adder, f"Click {adder.label!r}")
        if nothing:
            if rec.empty:   # "create a ticket without a summary": save it as it is; the app says if it may
                raise Defer(noun or "the form", replace_with=["save"])
            st.expect_check(None)
            return True   # "add a customer": its form is open, nothing to fill
        raise Defer(noun or rec.name, replace_with=rest)
    adders = generic
    if noun and go_to_list(st, noun, [c.text]):
        return True
    # "a work pool": the kind said in two words names the list ("Work Pools") where its last word alone does not
    link = records.entity_link(st, two_words) if two_words else None
    if link is not None and link.score >= 0.88 and go_to_list(st, two_words, [c.text]):
        return True
    places = {t.live.container for t in adders if t.live is not None and t.live.container}
    if noun and len(places) > 1:
        # "add a toy …" beside Customers' Add, Groups' Add, Products' Add: guessing one made a customer and
        # passed (its own check found the name it had saved)
        lists = ", ".join(sorted({re.sub(r"\s+(?:add|change|new|view)\b.*$", "", p, flags=re.I) for p in places}))
        raise Unplannable(f"several lists can add a record and none is called {noun!r}: say which ({lists})", noun)
    if adders:
        rest = _fill_save_check(st, rec)
        st.click_live(adders[0], f"Click {adders[0].label!r}")
        raise Defer(noun or rec.name, replace_with=rest)
    if st.moved:
        raise Defer(noun or rec.name)
    icon = unnamed_adder(st) if not noun or on_list_of(st, noun) else None
    if icon is not None:   # "+" beside the list's title: its form is filled next, or the task stops there
        rest = _fill_save_check(st, rec)
        st.add(V.CLICK, {"selector": icon.selector}, f"Click the unnamed control that adds {noun or 'a record'}",
               moves=True)
        raise Defer(noun or rec.name, replace_with=rest)
    raise Unplannable(f"no form or button to add {noun or 'a record'} on the screen", noun or "add")


_ADDS = frozenset({"new", "create", "add"})


def unnamed_adder(st: State) -> UIElement | None:
    """A control with no name that adds to the list shown: one whose address ends in new / create / add
    ("/work-pools/create"), else the one icon button just after the page's title on its line ("Variables +")."""
    assert st.live is not None
    els = [e for e in st.live.elements if not e.hidden]
    bare = [e for e in els if e.role in (ROLE_BUTTON, ROLE_LINK) and not (e.name or e.text).strip() and not e.disabled
            and not e.container]
    by_address = [e for e in bare if e.href and urlsplit(e.href).path.rstrip("/").rsplit("/", 1)[-1].lower() in _ADDS]
    if len(by_address) == 1:
        return by_address[0]
    for i, e in enumerate(els[1:], 1):
        title = els[i - 1]
        if e in bare and not e.href and title.role in ("heading", "text") and 0 < len(words(title.name or title.text)) <= 4 \
                and on_list_of(st, title.name or title.text) and e.box and title.box \
                and abs((e.box[1] + e.box[3] / 2) - (title.box[1] + title.box[3] / 2)) <= 12 \
                and 0 <= e.box[0] - (title.box[0] + title.box[2]) <= 48:
            return e
    return None


def add_controls(st: State, noun: str, named_record: bool = False) -> tuple[list[grounding.Target], list[grounding.Target]]:
    """The controls of the screen that start a new record: those that name *noun* (or sit under its section),
    and the generic ones ("Add", "New"); *named_record*: the task names the record it adds ("add buy eggs")."""
    assert st.live is not None
    named: list[grounding.Target] = []
    generic: list[grounding.Target] = []
    for w in ([f"add {noun}", f"new {noun}", f"create {noun}", f"insert {noun}"] if noun else []) + \
             ["add", "new", "insert", "create"]:
        for t in grounding.live_elements(w, st.live, roles=frozenset({ROLE_BUTTON, ROLE_LINK}), minimum=0.9):
            if not set(words(w)) & set(words(t.label)) & {"add", "new", "insert", "create"}:
                continue   # an "add" control says so; "Customers" is the list, not its form
            about_noun = bool(noun) and any(grounding.similarity(noun, x) >= 0.6 for x in
                                            (t.label, t.live.container, _section_of(st, t.live)) if x)
            (named if about_noun else generic).append(t)
    if noun:   # "Add a new bill": a control that says it adds this kind
        named += [grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, e.label, live=e) for e in st.live.elements
                  if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled
                  and records.same_kind(records.added_kind(e.name or e.text), noun)
                  and all(t.live is not e for t in named)]
    if noun:   # "+ Table": a plus sign says add
        named += [t for t in grounding.live_elements(noun, st.live, roles=frozenset({ROLE_BUTTON, ROLE_LINK}), minimum=0.85)
                  if t.label.strip().startswith("+") and t not in named]
    if not named and not generic:   # "New Ticket" where the tester says "a bug": the one control that makes one
        starts = [grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.8, e.label, live=e) for e in st.live.elements
                  if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled
                  and words(e.name or e.text)[:1] in (["add"], ["new"], ["create"], ["insert"])
                  and not (grounding.about_conversation(e.name or e.text) and not grounding.about_conversation(noun))]
        # "Create New" under "Issues" in a side menu, beside another under "Keywords": its section names it
        named = [t for t in starts if noun and grounding.similarity(noun, _section_of(st, t.live)) >= 0.6]
        # "New Chat" on a page that links to the Experiments asked for: it makes something else
        elsewhere = bool(noun) and not on_list_of(st, noun) and records.entity_link(st, noun) is not None
        adds = [t for t in starts if words(t.label)[:1] == ["add"]]
        # on the kind's list, among several ("Create bucket", "Create collection" in a side menu): the one beside
        # the list's own rows ("Create record" above the table of devices)
        tables = {e.container for e in st.live.elements if e.role == "row" and e.container}
        beside = [t for t in starts if t.live is not None and t.live.container in tables]
        if len({t.label.lower() for t in starts}) > 1 and noun and on_list_of(st, noun) \
                and len({t.label.lower() for t in beside}) == 1:
            starts = beside
        if not named and not elsewhere and len({t.label.lower() for t in starts}) == 1:
            generic = starts[:1]
        elif not named and not elsewhere and not noun and named_record and len({t.label.lower() for t in adds}) == 1:
            generic = adds[:1]   # "add buy eggs" beside "Add Task" and "New list": the one that says add
    return named, generic


def _adder(st: State, noun: str, named: list[grounding.Target],
           generic: list[grounding.Target]) -> grounding.Target | None:
    """The control to click for a new *noun*: one that names it, else a plain "Add" on the list of *noun*."""
    return (named or generic)[0] if named or generic and (not noun or on_list_of(st, noun)) else None


def open_adder(st: State, noun: str) -> bool:
    """"open the form for a new bookmark": the control that starts one here, else the kind's list first."""
    adder = _adder(st, noun, *add_controls(st, noun))
    if adder is not None:
        st.click_live(adder, f"Click {adder.label!r}")
        st.expect_check(None)
        return True
    if noun and go_to_list(st, noun, [f"open the form for a new {noun}"]):
        return True
    raise Unplannable(f"no control on this screen starts a new {noun or 'record'}", noun or "new")


def _section_of(st: State, el: UIElement) -> str:
    """The short heading or text just before *el* that titles its group of links ("Issues" above "Create New"
    in a side menu; "Keywords" above the next "Create New")."""
    assert st.live is not None
    at = next((i for i, e in enumerate(st.live.elements) if e is el), -1)
    for e in reversed(st.live.elements[max(0, at - 6):max(0, at)]):
        if e.role in ("heading", "text") and 0 < len(words(e.name or e.text)) <= 3:
            return e.name or e.text
    return ""


def _leads_elsewhere(st: State, el: UIElement) -> bool:
    """A link to another page: not the "New Ticket" link of the form shown, nor a "#" toolbar link in it."""
    from server.planners.list_search import same_page

    return el.role == ROLE_LINK and bool(el.href) and not grounding.stays_on_page(el.href) \
        and st.live is not None and not (st.live.url and same_page(el.href, st.live.url))


def _form_fits(st: State, rec: Record) -> bool:
    """The form on the screen has a field for each field the record names ("priority bug" needs a Priority)."""
    assert st.live is not None
    return bool(rec.fields) and all(grounding.fields(k, st.live, minimum=0.7) for k, _ in rec.fields)


# words for the screen itself, not a place of the app: "add it to the list", "… to the page"
_THIS_SCREEN = frozenset("list table page screen form app database db items entries".split())
_GENERIC_PLACES = _THIS_SCREEN | {"cart", "basket"}   # nor a page to open for a destination
# parts of how data is made up, not records of it
_SCHEMA_PART = re.compile(r"(?:(?:an?|the|new|another)\s+)*(?:[a-z]+\s+)?(?:columns?|fields?|index(?:es)?|attributes?)\b",
                          re.I)   # said as what is added: "an integer column pages", "a new field Notes"


def _opens_place(st: State, c: Clause, place: str) -> bool:
    """"add a product called Baguette to the menu" where Menu is a page the screen links to (not this one): that
    page first, then the same clause there."""
    noun = _place_noun(place)
    if noun.lower() in _GENERIC_PLACES or on_list_of(st, noun):
        return False
    assert st.live is not None
    from server.planners.list_search import same_page

    links = [t for t in grounding.live_elements(noun, st.live, roles=frozenset({"link", "tab"}), minimum=0.9)
             if t.live is not None and not t.live.selected and t.live.href
             and not grounding.stays_on_page(t.live.href) and not is_this_page(st, noun)
             and not (st.live.url and same_page(t.live.href, st.live.url))]   # Menu's own link, on Menu
    if not links:
        return False
    st.click_live(links[0], f"Open {links[0].label!r}")
    raise Defer(noun, replace_with=[c.text])


def _place_noun(place: str) -> str:
    """"the todo list" → "the todo": the place without the word for its kind of screen."""
    return re.sub(r"\s+(?:list|table|page)$", "", place.strip(), flags=re.I)


def _place_exists(st: State, place: str) -> bool:
    """Whether "the shopping cart" / "the todo list" names something here: a list, a field, a heading, the page."""
    noun = _place_noun(place)
    if noun.lower() in _THIS_SCREEN:
        return True
    if records.entity_link(st, noun) is not None or grounding.fields(noun, st.live, minimum=0.7) \
            or on_list_of(st, noun) or grounding.live_elements(noun, st.live, minimum=0.8):
        return True
    assert st.live is not None
    said = words(noun)
    if said and any(words(e.name or e.text)[:len(said)] == said and len(words(e.name or e.text)) == len(said) + 1
                    for e in st.live.elements if not e.hidden and e.role in ("text", "heading", "link", "tab")):
        return True   # "the lab" where a section is headed "lab bucket": that place, said with its kind
    # a word the app uses for itself, in its title or a control ("Start a new project", "Invite to this team")
    return len(words(noun)) == 1 and any(
        records.same_kind(words(text or ""), noun)
        for text in [st.live.title, *(e.name or e.text for e in st.live.elements if e.role in ("link", "button", "heading"))])


def _fill_save_check(st: State, rec: Record) -> list[str]:
    """What is left of adding *rec* once its form is open (its adder clicked on the screen *st* shows): fill it,
    save it, and see it listed. A name this screen lists already proves nothing once the save comes back to it:
    one more cell of its column than now does (else the task is refused, as for a form on the list's screen)."""
    out = [rec.as_clause(), "save"]
    shown = _shown_as(rec)
    if shown:
        counted = _count_before(st, [shown], shown)
        out.append(saved_clause(shown, before=counted[1:] if counted else None))
    return out + _text_shown_after(rec, shown)


def _text_shown_after(rec: Record, shown: str) -> list[str]:
    """The record's text ("with the text 'Whisk three eggs'") checked too once it is saved: a name saved with its
    text typed into another box (a field's value beside the editor) must not pass. Only one line of plain words,
    which the saved page shows as written."""
    body = next((v for k, v in rec.fields if set(words(k)) & records.BODY_WORDS), "")
    if not body or body == shown or "\n" in body or len(body) > 80 or re.search(r"[*#_`\[\]|<>]", body):
        return []
    return [f'check "{body}" is shown']


_NAMING_KEYS = ("summary", "title", "name", "subject", "headline", "heading", "label", "description")


def _holds_a_record(st: State, fields: list[UIElement]) -> bool:
    """The form shown edits a record that exists: the box a new record's name goes in holds a name already (the
    Events page's own form, "Title: Events"). A new record is never made by typing over it."""
    names = [e for e in fields if e.role == ROLE_TEXTBOX and not e.hidden
             and set(words(e.name or e.placeholder)) & {"name", "title", "subject", "summary", "username"}]
    return len(names) == 1 and bool((names[0].value or "").strip())


def _fill_and_save(st: State, rec: Record, save: grounding.Target) -> None:
    """Fill the form on the screen, send it, and check the record was saved (planned on the screen it leads to)."""
    placed: list[str] = []
    form_fill.fill(st, rec, placed)   # only planned: the screen read is still the form's, before anything was typed
    shown, before = _saved_proof(st, rec, placed)
    st.click_live(save, f"Click {save.label!r}")
    st.last_object = rec.name
    more = _text_shown_after(rec, shown)
    if shown and more:
        raise Defer(shown, replace_with=[saved_clause(shown, before=before), *more])
    saved(st, shown, before)


def _saved_proof(st: State, rec: Record, placed: list[str]) -> tuple[str, tuple[str, int] | None]:
    """What proves the record was saved: a value it shows that the screen did not show before; else one more cell
    of a column showing a value than before (a shift on Fri, 17:00-23:00, in Bar, as another one is). A value
    shown already proves nothing: with no column to count it in, the task is refused."""
    shown = _shown_as(rec, st, placed)
    counted = _count_before(st, [shown, *placed], shown)
    return (counted[0], counted[1:]) if counted else (shown, None)


def _count_before(st: State, values: list[str], shown: str) -> tuple[str, str, int] | None:
    """When the screen shows *shown* already: the first of *values* a column of it can count, with that column's
    selector and how many of its cells show it now (one more proves the save). None when *shown* is not shown
    (seeing it after the save proves it); refused when nothing can be counted."""
    if not shown or st.live is None or not _on_screen(st, shown):
        return None
    for value in dict.fromkeys(values) if not st.live.truncated else ():   # a cut list counts short
        selector, n = intents_statement.column_count(st, value)
        if selector:
            return value, selector, n
    raise Unplannable(f"every value of the new record is shown already ({shown!r}): nothing on the screen after "
                      "the save could tell it was saved; give it a value of its own", shown)


def _on_screen(st: State, text: str) -> bool:
    """*text* is shown as a text check reads the screen: in a name or a text, or a value other than a text
    field's (what a field holds may be typed and never saved)."""
    assert st.live is not None
    return any(intents_statement.shows(t, text) for e in st.live.elements if not e.hidden
               for t in (e.name, e.text, e.value if e.role != ROLE_TEXTBOX else "") if t)


def _shown_as(rec: Record, st: State | None = None, placed: list[str] | None = None) -> str:
    """What the saved record shows that proves it exists: its name, else the value of a field that
    names it ("with the summary X"), else its first value (a save that silently failed must not pass).
    A name said after its field's label ("plate AB12 CDE") is the value alone, as it was typed."""
    name = rec.name
    if name and st is not None and st.live is not None and form_fill.name_field(st, set()) is None \
            and not form_fill.free_box(st) and form_values.kind_value(st, name, set()) is not None:
        name = ""   # "a Bar shift" where the form has no name field: Bar went in a field, "Bar shift" is shown nowhere
    if name and st is not None and st.live is not None:
        m = re.match(r"^(?P<f>(?-i:[a-z]+))\s+(?P<v>(?-i:[A-Z0-9]).*)$", rec.name)
        labels = {w for f in records.form_fields(st) for w in words(f.name or f.placeholder or "")}
        if not (m and any(grounding.similarity(m.group("f"), w) >= 0.85 for w in labels)):
            return name
        # the value of a field, said after its name: shown already (the vehicle a new service is for), it proves
        # nothing; another value typed that the screen does not show yet does
        shown = " ".join(st.live.visible_texts()).casefold()
        return next((v for v in (m.group("v"), *(v for _, v in rec.fields)) if v.casefold() not in shown),
                    m.group("v"))
    if name:
        return name
    named = [v for k, v in rec.fields if k in _NAMING_KEYS]
    values = named or placed or [*(v for _, v in rec.fields), *rec.loose] or [""]   # as put ("Bar", of "Bar team")
    if st is not None and st.live is not None and not named:   # a value the screen does not show yet proves more
        shown = " ".join(st.live.visible_texts()).casefold()
        return next((v for v in values if v.casefold() not in shown), values[0])
    return values[0]


def saved(st: State, text: str, before: tuple[str, int] | None = None) -> None:
    """After a form was sent: check *text* was saved, on the screen the save leads to (*before*: see
    :func:`saved_clause`)."""
    if not text:
        st.expect_check(None)
        return
    raise Defer(text, replace_with=[saved_clause(text, before=before)])


def _expect_shown(st: State, text: str) -> None:
    try:
        st.expect_check(checks.text_shown(st.ctx, text) if text else None)
    except CannotCheck:
        st.expect_check(None)


_SAVED_WHAT = re.compile(r"^(?:it|them|(?:the|my|your|these|those|all)\s+(?:changes?|edits?|form|record|entry|details))?$",
                         re.I)


def save_intent(c: Clause, st: State) -> bool:
    """"save", "save it", "submit the form": the form's save button; then what was typed last must show."""
    if c.act is not Act.SUBMIT or not _SAVED_WHAT.match(c.rest.strip().rstrip(".!")):
        return False
    last = st.steps[-1] if st.steps else None
    if last is not None and last.command == V.CLICK and \
            str(last.params.get("text", "")).strip().lower() in records.SAVE_WORDS:
        return True   # "make her inactive and save": the steps before already saved
    if st.live is None:
        raise Defer("save")
    save = records.save_button(st)
    if save is None:
        return False
    st.click_live(save, f"Click {save.label!r}")
    st.expect_check(None)
    typed = [s.params.get("text") for s in st.steps if s.command == V.INPUT_TEXT and s.params.get("text")]
    if typed and not any(read_clause(text).act is Act.CHECK for text in st.later):
        saved(st, str(typed[-1]))   # "change the city to Chicago and save": the value typed last, once saved
    return True


_POSSESSIVE = re.compile(r"^(?:the\s+)?(?P<rec>.+?)['’]s\s+(?P<field>[\w ]+?)\s+(?:to|as|=)\s+(?P<v>.+)$", re.I)
_OF = re.compile(r"^(?:the\s+)?(?P<field>[\w ]+?)\s+of\s+(?:the\s+(?-i:[a-z]\w*)\s+(?=(?-i:[A-Z\"'\d#])))?(?P<rec>.+?)\s+(?:to|as|=)\s+"
                 r"(?P<v>.+)$", re.I)


_THEN_FIELD = re.compile(r"^(?:the\s+)?(?P<a>[\w .'-]+?)\s+(?:to|as|=)\s+(?P<v>.+)$", re.I)


def _record_then_field(text: str, st: State) -> re.Match[str] | None:
    """"the electricity amount to 90": a row the screen shows ("Electricity"), then a lowercase field word or
    two; read as "the amount of electricity to 90"."""
    m = _THEN_FIELD.match(text)
    if m is None or st.live is None:
        return None
    said = m.group("a").split()
    for k in (1, 2):
        rec, field_words = " ".join(said[:-k]), said[-k:]
        if rec and all(w.islower() and w.isalpha() for w in field_words) \
                and grounding.rows(rec, st.live, minimum=0.8) and not grounding.rows(m.group("a"), st.live, minimum=0.8):
            return _OF.match(f"{' '.join(field_words)} of {rec} to {m.group('v')}")
    return None


def row_edit(st: State, rec_name: str, ref: record_ids.IdRef | None) -> grounding.Target | None:
    """The Edit control in the row of the record (by its number, or by its name in one row)."""
    from server.planners.intents_form import _EDIT_WORDS

    assert st.live is not None
    if ref is not None:
        el = record_ids.link(st, ref)
        row = el.container if el is not None else ""
    else:
        m = record_ids.KIND_LAST.match(rec_name)
        rows = grounding.rows(rec_name, st.live) or (grounding.rows(m.group("x"), st.live) if m else [])
        rows = [r for r in rows if r.score >= rows[0].score - 0.05] if rows else []
        row = rows[0].name if len(rows) == 1 else ""
    if not row:
        return None
    # a tool shown on hover only when it says no more than "Edit" ("Edit tags" edits something else of the row)
    found = [e for e in st.live.elements if e.container == row and e.role in (ROLE_LINK, ROLE_BUTTON)
             and not e.disabled and set(words(e.name or e.text or e.hint)[:2]) & set(_EDIT_WORDS)
             and (not e.hidden or " ".join(words(e.name or e.text)) in _EDIT_WORDS)]
    found.sort(key=lambda e: e.hidden)   # one shown first; a row's tools shown on hover are reached through the row
    return grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, found[0].label, live=found[0]) if found else None


_RENAME = re.compile(r"^(?:the\s+)?(?P<rec>.+?)\s+(?:to|as|into)\s+(?P<v>\S.*)$", re.I)
_RENAME_QUOTED = re.compile(r"^(?:the\s+)?(?P<rec>(?:[a-z]+\s+)?(?:\"[^\"]+\"|“[^”]+”|'[^']+'))\s+(?:to|as|into)\s+(?P<v>\S.*)$", re.I)


def rename_intent(c: Clause, st: State) -> bool:
    """"rename the Wiggle road bikes watch to Wiggle gravel bikes": on its form, the field that holds the old
    name gets the new one; from its list, its row's Edit control first. False where neither is on the screen
    (a list edited in place: edit_intent)."""
    from server.planners.intents_form import type_into

    # ("Rename the tiddler "How to Request Access" to …": a quoted name holds its own "to")
    m = _RENAME_QUOTED.match(c.rest.strip()) or _RENAME.match(c.rest.strip())
    if m is None or st.live is None or not st.open_world:
        return False
    rec, value = clean(m.group("rec")), quoted(m.group("v")) or clean(m.group("v"))
    kind = record_ids.KIND_LAST.match(rec) or _KIND_FIRST.match(rec)
    names = [rec] + ([kind.group("x")] if kind else [])

    def holds_name(e: UIElement) -> bool:
        return e.role == ROLE_TEXTBOX and bool(e.value.strip()) and any(
            e.value.strip().casefold() == n.casefold() for n in names)

    listing = records.entity_link(st, kind.group("k")) if kind else None
    if kind and listing is not None and listing.score >= 0.88 and not on_list_of(st, kind.group("k")) \
            and not any(holds_name(e) for e in records.form_fields(st)):
        # "the film tag", "the member Paula Reyes": on the list of tags / members, not elsewhere (its own form,
        # which holds its name, is where it is renamed)
        return go_to_list(st, kind.group("k"), [c.text])

    # the field that holds the name; else one that a box enables first (a database browser's row form)
    holding = [e for e in records.form_fields(st) if holds_name(e)] or [
        e for e in st.live.elements if e.disabled and not e.hidden and holds_name(e)
        and records.enabler_for(st, e.name or e.placeholder or e.hint or e.text) is not None]
    save = None
    if holding:   # typed, then the form's button: a rename form's own first ("Rename", not "Create page"), or a
        # Save the change enables
        mark = len(st.steps)
        type_into(st, value, grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, holding[0].label, live=holding[0]))
        save = records.save_button(st, ("rename",))
        if save is None:
            del st.steps[mark:]
    if holding and save is not None:
        st.click_live(save, f"Click {save.label!r}")
        st.last_object = value
        saved(st, value)
        return True
    edit = next((e for e in (row_edit(st, n, record_ids.parse(n)) for n in names) if e is not None), None)
    link = next((t for t in (records.record_link(st, n, to_edit=True) for n in names) if t is not None), None) \
        if edit is None and not any(record_ids.on_named_record(st, n) for n in names) else None
    if link is not None and link.live is not None and not holding:
        # its own link (a search's result): the form that holds its name is there
        st.click_live(link, f"Open {link.label!r}")
        raise Defer(rec, replace_with=[c.text])
    if edit is None:
        if kind and listing is not None and on_list_of(st, kind.group("k")) and open_contents(st, [c.text]):
            return True   # the list's page keeps its rows behind a tab
        from server.planners.intents_page_verbs import verb_on_page

        if verb_on_page(st, "rename", rec, c.text, value):   # a wiki page: its own Rename control, on its page
            return True
        # a record no list here shows: the app's lists are looked through for it ("rename Paula Reyes to …")
        name = kind.group("x") if kind and _NAMED.match(kind.group("x")) else rec
        return bool(_NAMED.match(name)) and record_ids.parse(name) is None and seek_record(st, name, c.text)
    st.click_live(edit, f"Edit {rec!r}", row=edit.live.container if edit.live is not None else "")
    raise Defer(rec, replace_with=[c.text])


_KIND_FIRST = re.compile(r"^(?:the\s+)?(?P<k>[a-z]{3,})\s+(?P<x>(?-i:[A-Z0-9\"'“]).*)$")   # "member Paula Reyes"
_NAMED = re.compile(r"^(?-i:[A-Z0-9\"'“])")


def _field_says(st: State, phrase: str) -> bool:
    """A field on the screen whose label holds *phrase* as whole words."""
    assert st.live is not None
    want = grounding.norm(phrase)
    return bool(want) and any(
        e.role in (ROLE_TEXTBOX, ROLE_COMBOBOX) and not e.hidden and
        re.search(rf"(?<!\w){re.escape(want)}(?!\w)", grounding.norm(" ".join((e.name, e.placeholder)))) is not None
        for e in st.live.elements)


def edit_record_intent(c: Clause, st: State) -> bool:
    """"change Bob Chen's city to Chicago", "set the genre of Dune to classic": on the record's form."""
    if c.act not in (Act.SET, Act.EDIT) or st.live is None:
        return False
    if c.verb.lower() == "rename" and rename_intent(c, st):
        return True
    m = _POSSESSIVE.match(c.rest.strip()) or _OF.match(c.rest.strip()) or _record_then_field(c.rest.strip(), st)
    if not m:
        return False
    rec_name, field_words = clean(m.group("rec")), m.group("field").strip()
    if m.re is _OF and _field_says(st, f"{field_words} of {rec_name}"):
        return False   # "the number of users": one field's own label ("Number of users (peak concurrency)")
    value = quoted(m.group("v")) or clean(m.group("v"))
    if quoted(m.group("v")):
        said, at = m.group("v"), m.group("v").find(value)
        left = (said[:max(0, at - 1)] + " " + said[at + len(value) + 1:]).strip(" ,.;!")
        # "… but do not publish it" asks for nothing to be done
        if re.search(r"[A-Za-z]{2,}", left) and not re.match(r"^(?:but\s+)?(?:do\s+not|don['’]t|never|without)\b",
                                                               left, re.I):   # "… to 'When to visit us', publish it": words never dropped unread
            raise Unplannable(f"after the value {value!r}, {left!r} is not a value: say it as a step of its own", left)
    used: set[int] = set()
    on_form = records.field_for(st, field_words, used) or next(iter(records.enabler_for(st, field_words) or ()), None)
    ref = record_ids.parse(rec_name) if st.open_world else None
    kind = record_ids.KIND_LAST.match(rec_name)
    here = record_ids.showing(st, ref) if ref is not None else \
        record_ids.on_named_record(st, rec_name, in_fields=True) or st.open_world and kind is not None \
        and record_ids.on_named_record(st, kind.group("x"), in_fields=True)
    rest = [f'fill in {field_words} "{value}"', "save", saved_clause(value, rec_name)]
    if here and on_form is not None:
        form_fill.fill(st, Record(fields=[(field_words, value)]))
        save = records.save_button(st)
        if save is not None:
            st.click_live(save, f"Click {save.label!r}")
            saved(st, value)
        else:
            _expect_shown(st, value)
        return True
    if here:   # the record's page, its form folded away ("Modify Ticket")
        unfold = records.expander(st)
        if unfold is None:
            raise Unplannable(f"no field {field_words!r} on the page of {rec_name}", field_words)
        st.click_live(unfold, f"Click {unfold.label!r}")
        raise Defer(field_words, replace_with=rest)
    edit = row_edit(st, rec_name, ref) if st.open_world else None
    if edit is not None:   # the Edit control of the record's row: its form, not its page (nor the site it links to)
        st.click_live(edit, f"Edit {rec_name!r}", row=edit.live.container if edit.live is not None else "")
        raise Defer(rec_name, replace_with=rest)
    if st.open_world and (ref is not None or not records.record_link(st, rec_name)) \
            and record_ids.toward(st, rec_name) is False:
        raise Defer(rec_name, replace_with=[c.text])   # "ticket 3", "the remote battery warning ticket"
    link = records.record_link(st, rec_name)
    if link is None:   # a row with its own Edit control (a database browser's row)
        from server.planners.intents_form import _EDIT_WORDS, _row_control

        rows = grounding.rows(rec_name, st.live)
        link = _row_control(st, rows[0].name, _EDIT_WORDS) if rows else None
        if link is not None:
            st.click_live(link, f"Edit {rec_name!r}", row=rows[0].name)
            raise Defer(rec_name, replace_with=[f'fill in {field_words} "{value}"', "save", saved_clause(value, rec_name)])
        if len(rows) == 1:   # its Edit folded behind the row's one unnamed icon (⋮)
            from server.planners.intents_delete import open_row_menu

            open_row_menu(st, rows[0].name, rec_name, "edit", rest)
    if link is not None:
        st.click_live(link, f"Open {link.label!r}")
        raise Defer(rec_name, replace_with=[f'fill in {field_words} "{value}"', "save", saved_clause(value, rec_name)])
    for noun in records.list_nouns(c.rest):
        if set(words(noun)) <= set(words(field_words)):
            continue   # "the title of MDN Web Docs": the field changed, not a list of titles
        if go_to_list(st, noun, [c.text]):
            return True
    if open_contents(st, [c.text]):
        return True
    if st.moved:
        raise Defer(rec_name)
    if seek_record(st, rec_name, c.text):
        return True
    raise Unplannable(f"no record {rec_name!r} on the screen", rec_name)


_FLAG_OF_VERB = {Act.TURN_ON: True, Act.TURN_OFF: False}


_AS_FLAG = re.compile(rf"^(?P<rec>.+?)\s+(?:as\s+|to\s+|to be\s+)?(?P<flag>{records.FLAG_PHRASES})$", re.I)
_FLAG_FOR = re.compile(rf"^(?:the\s+)?(?P<flag>{records.FLAG_PHRASES})(?:\s+(?:box|checkbox|flag))?\s+(?:for|of|on)\s+(?P<rec>.+)$",
                       re.I)


def _stated_flag(c: Clause) -> tuple[str, str, bool] | None:
    """"mark Rake as out of stock", "set Rake out of stock", "uncheck in stock for Rake" → (record, flag, on)."""
    if c.act not in (Act.TICK, Act.UNTICK, Act.SET, Act.EDIT, Act.TURN_ON, Act.TURN_OFF):
        return None
    m = _AS_FLAG.match(c.rest.strip()) or _FLAG_FOR.match(c.rest.strip())
    if not m:
        return None
    flag, on = records.FLAGS[m.group("flag").lower()]
    if c.act is Act.UNTICK or c.act is Act.TURN_OFF:
        on = not on
    return clean(m.group("rec")), flag, on


def record_flag_intent(c: Clause, st: State) -> bool:
    """"deactivate the customer Hugo Rossi", "mark Rake as out of stock": the record's box, on its page, then save."""
    stated = _stated_flag(c)
    if stated is not None and st.live is None:
        if st.moved:
            raise Defer(stated[0])
        return False
    if stated is not None:
        name, flag, on = stated
        if re.fullmatch(r"(?:the|this)\s+\w+|it|this", name, re.I) or record_ids.on_named_record(st, name, in_fields=True):
            # the record shown: its box, then save
            form_fill.fill(st, Record(flags=[(flag, on)]))
            save = records.save_button(st)
            if save is not None:
                st.click_live(save, f"Click {save.label!r}")
            st.expect_check(None)
            return True
        return _flag_on_record(c, st, name, flag, on)
    if c.act not in _FLAG_OF_VERB or st.live is None:
        return False
    if grounding.live_elements(quoted(c.rest) or clean(c.rest), st.live, roles=TOGGLE_ROLES, minimum=0.8):
        return False   # "turn on ignore whitespace": a setting's own switch, here (or on a tab of this page)
    verb = c.text.split()[0].lower()
    flag = re.sub(r"^(?:de|re|un|dis)", "", verb) if verb not in ("enable", "disable", "turn", "switch") else "enabled"
    flag = {"activate": "active", "able": "enabled", "enable": "enabled"}.get(flag, flag)
    return _flag_on_record(c, st, quoted(c.rest) or clean(c.rest), flag, _FLAG_OF_VERB[c.act])


def _flag_on_record(c: Clause, st: State, name: str, flag: str, on: bool) -> bool:
    nouns = records.list_nouns(c.rest)
    if nouns and re.match(rf"^{re.escape(nouns[0])}\s+", name, re.I):
        name = name[len(nouns[0]):].strip()
    link = records.record_link(st, name, to_edit=True)
    if link is None:
        for noun in nouns:
            if records.entity_link(st, noun) is not None and go_to_list(st, noun, [c.text]):
                return True
        if not nouns and c.act in (Act.TURN_ON, Act.TURN_OFF) and settings_first(c, st, f"no setting or field called {name}"):
            raise Defer(name, replace_with=[c.text])   # "turn on ignore whitespace": a setting, on the settings page
        return bool(name) and not st.moved and seek_record(st, name, c.text)
    st.click_live(link, f"Open {link.label!r}")
    raise Defer(name, replace_with=[f'fill in {flag} "{"yes" if on else "no"}"', "save"])


def list_scope_intent(c: Clause, st: State) -> bool:
    """"search customers for Lyon", "find X in the products", "in products, …": open that list first."""
    if st.live is None:
        return False
    if c.act is Act.SEARCH:
        rest = c.rest.strip()
        m = re.match(r"^(?:the\s+)?(?P<noun>\w+)\s+for\s+(?P<q>.+)$", rest, re.I) or \
            re.match(r"^(?:for\s+)?(?P<q>.+?)\s+(?:in|among|on)\s+(?:the\s+)?(?P<noun>(?-i:[a-z]\w*))"
                     r"(?:\s+(?:list|table|page))?$", rest, re.I) or \
            re.match(r"^(?:the\s+)?(?P<noun>\w+)\s+by\s+(?:the\s+|their\s+|its\s+)?\w+\s*:?\s+(?P<q>\S.*)$",
                     rest, re.I) or \
            re.match(r"^(?:the\s+|a\s+|an\s+)(?P<noun>[a-z]+)\s+(?P<q>[\"'“‘].+|[A-Z0-9].*)$", rest)
        if m and any(re.search(r"\b(?:search|filter|find)", " ".join((f.live.name, f.live.placeholder)), re.I)
                     for f in grounding.fields(m.group("noun"), st.live, minimum=0.6) if f.live is not None):
            return False   # "search tasks for milk" beside a "Search tasks" box: that box, here
        link = records.entity_link(st, m.group("noun")) if m else None
        # "Recent Experiments" on the home page is no list with a search: the one the link opens is
        elsewhere = link is not None and addressed_elsewhere(st, link, m.group("noun"))
        if m and link is not None and (not on_list_of(st, m.group("noun")) or elsewhere):
            q = quoted(m.group("q")) or clean(m.group("q"))
            return go_to_list(st, m.group("noun"), [f'search for "{q}"'])
        if m and on_list_of(st, m.group("noun")):
            from server.planners.intents_search import search_intent

            q = quoted(m.group("q")) or clean(m.group("q"))
            return search_intent(Clause(f'search for "{q}"', Act.SEARCH, f'for "{q}"'), st)
        return False
    if c.act is Act.NONE:
        m = re.match(r"^(?:in|on|from|within|inside)\s+(?:the\s+)?(?P<noun>[\w ]+?)(?:\s+(?:list|table|page|tab))?$",
                     c.text.strip(), re.I)
        if m and records.entity_link(st, m.group("noun")) is not None and not on_list_of(st, m.group("noun")):
            link = records.entity_link(st, m.group("noun"))
            st.click_live(link, f"Open {link.label!r}")
            st.expect_check(None)
            return True
    return False


def scoped_check_intent(c: Clause, st: State) -> bool:
    """A check about a list not on the screen ("check there are 11 products"): open the list, then check."""
    if c.act is not Act.CHECK or st.live is None:
        return False
    if record_fact_check(c, st):
        return True
    body = c.rest
    m = re.search(r"\b(?:\d+|no)\s+(?P<noun>[a-z]+)\b|\b(?:the|a)\s+(?P<noun2>[a-z]+)\s+(?:called|named|list|table)\b|"
                  r"\b(?:in|among|within)\s+(?:the\s+)?(?:[\w-]+\s+)??(?P<noun3>[a-z]+)(?:\s+(?:list|table))?\s*$", body, re.I) \
        or re.search(r"\b(?:the|an?)\s+(?P<noun4>[a-z]+)\s+(?=[A-Z\"'“‘])", body)
    if not m:
        return False
    noun = (m.groupdict().get("noun") or m.groupdict().get("noun2") or m.groupdict().get("noun3")
            or m.groupdict().get("noun4") or "").lower()
    if not noun or noun in ("item", "items", "row", "rows", "result", "results", "list", "table", "page") \
            or on_list_of(st, noun):
        return False
    link = records.entity_link(st, noun)
    if link is None:
        return False
    said = [w for w in words(link.label) if w not in ("list", "listing", "index", "overview", "page", "all")]
    last = (said or [""])[-1]
    if last.rstrip("s") != noun.rstrip("s") and not last.startswith(noun.rstrip("s")):
        return False   # "Watch Groups" lists groups, not watches: "in the watch list" is no link to it
    st.click_live(link, f"Open {link.label!r}")
    raise Defer(noun, replace_with=[c.text])


RECORD_INTENTS = [
    ("seek", seek_intent),
    ("fill", fill_intent),
    ("filter", filter_intent),
    ("subset", subset_intent),   # "show me the Hull vans": the dropdown of the column that shows Hull
    ("sort", sort_intent),
    ("record-flag", record_flag_intent),
    ("confirm", confirm_intent),
    ("query", query_intent),
    ("scope", list_scope_intent),
    ("scoped-check", scoped_check_intent),
    ("add-record", add_record_intent),
    ("delete-shown", delete_shown_intent),
    ("delete-record", delete_record_intent),
    ("edit-record", edit_record_intent),
    ("save", save_intent),
]

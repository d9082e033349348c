"""Facts about one record: in its row where a list shows it ("Dune's author is Frank Herbert"), or on its own
page ("ticket 1 is owned by bob", "the ticket 'X' is closed").

On its own page, the record is a number ("ticket 1") or a name with its kind ("the ticket 'Guide
scrolls slowly'", "the subtitles ticket"). Its page is reached as for an edit
(its link, else the list of its kind); the value is then looked for in the row
of the page that names the fact ("Owned by: carol"), else anywhere on the page.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding, record_ids, records
from server.planners.checks import CannotCheck
from server.planners.language import Act, Clause, clean, quoted, words
from server.planners.list_search import seek_record
from server.planners.state import Defer, State, Unplannable

_REC = r"(?P<rec>(?:the\s+)?(?:[a-z]+\s*#?\s*\d+|#\s*\d+|[a-z]{3,}\s+[\"'“‘][^\"'”’]+[\"'”’]))"
_FACT = re.compile(rf"^{_REC}\s+(?:is|was|has been)\s+(?:(?P<how>[a-z]+ed)\s+(?:by|to)\s+)?"
                   r"(?P<v>[\"'“][^\"'”]+[\"'”]|[\w.@-]+(?:\s+[\w.@-]+)?)\s*[?.!]?$", re.I)


_ASKED = re.compile(rf"^(?:is|was)\s+{_REC}\s+(?:(?P<how>[a-z]+ed)\s+(?:by|to)\s+)?"
                    r"(?P<v>[\"'“][^\"'”]+[\"'”]|[\w.@-]+(?:\s+[\w.@-]+)?)\s*[?.!]?$", re.I)   # "is ticket 2 critical?"


# what shows a record's value on its page: not a control, and not a menu item named like its own entry
_NO_VALUE_ROLES = frozenset({"button", "textbox", "option", "checkbox", "radio", "combobox", "menuitem", "tab",
                             "listitem", "searchbox", "spinbutton"})


def _value_shown(st: State, rec: str, value: str) -> None:
    """"ticket 5 is closed" on its page: an element that says just the value (its status, a cell), not a word
    of something else ("closed" in a "Show closed" button, "new" in the "New Ticket" link)."""
    assert st.live is not None
    want = grounding.norm(value)
    shown = [e for e in st.live.elements if not e.hidden and e.selector and e.role not in _NO_VALUE_ROLES
             and grounding.norm(e.name or e.text) == want
             and not (e.container and grounding.norm(e.container) == want)]
    desc = f"Check {rec} is {value!r}"
    if shown:
        st.check(checks.element(st.ctx, selector=shown[0].selector, text=value, description=desc))
    else:   # not shown as a value now: the check says so when it runs
        st.check(checks.element(st.ctx, text=value, exact=True, description=desc))


_FIELD_OF = re.compile(rf"^(?:that\s+)?(?:the\s+)?(?P<field>[a-z][a-z ]{{1,30}}?)\s+of\s+{_REC}\s+"
                       r"(?:is|reads|says|shows|equals|=|should be|must be)\s+(?P<v>.+?)\s*[?.!]?$", re.I)
# "ticket 1's status is new"
_FIELD_OF_OWN = re.compile(rf"^(?:that\s+)?{_REC}['’]s\s+(?P<field>[a-z][a-z ]{{1,30}}?)\s+"
                           r"(?:is|reads|says|shows|equals|=|should be|must be)\s+(?P<v>.+?)\s*[?.!]?$", re.I)


def _names_field(said: str, label: str) -> bool:
    """"owner" names "Owned by", "assignee" names "Assigned To": the label, or a word of it from the same stem."""
    if not label:
        return False
    if grounding.similarity(said, label) >= 0.8:
        return True
    stem = re.sub(r"(?:ee|er|or|ed|s)$", "", said.strip().lower())
    return len(stem) >= 3 and len(words(said)) == 1 and any(w.startswith(stem) for w in words(label)[:2])


def _field_of_record(c: Clause, st: State) -> bool:
    """"the title of issue 2 is 'Typo in the welcome email'": on the record's page, the field of that name
    (its value, or the cell beside its label) shows the value."""
    from server.planners.intents_check import negated

    m = next((m for p in (_FIELD_OF, _FIELD_OF_OWN) for m in (p.match(c.rest.strip()), p.match(c.text.strip())) if m),
             None)
    if m is None or record_ids.parse(m.group("rec")) is None or negated(c.rest):
        return False
    if not record_ids.on_its_page(st, m.group("rec"), c.text):
        return False
    assert st.live is not None
    field, value = m.group("field"), quoted(m.group("v")) or clean(m.group("v"))
    els = st.live.elements
    desc = f"Check the {field} of {m.group('rec')} is {value!r}"
    box = next((e for e in els if e.role in ("textbox", "combobox") and e.selector and not e.hidden
                and _names_field(field, e.name or e.placeholder)), None)
    if box is not None:   # the form of the record: its field holds the value
        st.check(checks.element(st.ctx, selector=box.selector, text=value, description=desc))
        st.explicit_check_last = True
        return True
    at = next((i for i, e in enumerate(els) if e.role in ("cell", "text", "term") and i + 1 < len(els)
               and len(words(e.name or e.text)) <= 4 and _names_field(field, (e.name or e.text or "").rstrip(":"))),
              None)
    if at is not None and not els[at + 1].selector:
        return False   # the label's value cannot be pointed at: the other checks read the page their own way
    if at is None:   # no label says the field ("#1 new defect"): the value, shown as a value of its own
        _value_shown(st, m.group("rec"), value)
        st.explicit_check_last = True
        return True
    st.check(checks.element(st.ctx, selector=els[at + 1].selector, text=value, description=desc))
    st.explicit_check_last = True
    return True


_SAME_FACT = {"assign": ("own", "assignee"), "own": ("assign", "assignee")}


def record_page_check(c: Clause, st: State) -> bool:
    if c.act is not Act.CHECK or st.live is None or not st.open_world:
        return False
    if _field_of_record(c, st):
        return True
    m = _FACT.match(c.rest.strip()) or _ASKED.match(c.text.strip())
    if m is None or re.match(r"(?:not|no|never)\b", m.group("v"), re.I):
        return False
    if not record_ids.on_its_page(st, m.group("rec"), c.text):
        return False
    value = quoted(m.group("v")) or m.group("v")
    how = (m.group("how") or "").lower()
    stem = how[:-2] if how.endswith("ed") else how
    els = st.live.elements
    # the value beside the fact's own label ("Owned by:" then "carol"), else the row that holds the label; a
    # record assigned to someone is owned by them, and the other way round
    stems = [stem, *_SAME_FACT.get(stem, ())] if stem else []
    at = next((i for s in stems for i, e in enumerate(els) if re.match(rf"\W*{re.escape(s)}", e.name or e.text or "", re.I)
               and len(words(e.name or e.text)) <= 3), None)
    stem = next((s for s in stems if at is not None and re.match(rf"\W*{re.escape(s)}", els[at].name or els[at].text or "",
                                                                  re.I)), stem)
    beside = els[at + 1] if at is not None and at + 1 < len(els) and els[at + 1].selector \
        and els[at + 1].role in ("cell", "text", "gridcell") else None
    row = next((e.container for e in els if stem and e.container
                and re.search(rf"\b{re.escape(stem)}", e.container, re.I)), "") if stem else ""
    try:
        if beside is not None:
            st.check(checks.element(st.ctx, selector=beside.selector, text=value,
                                    description=f"Check {m.group('rec')} is {how} {value!r} ({els[at].label})"))
        elif row:
            st.check(checks.element(st.ctx, row=row, text=value,
                                    description=f"Check {m.group('rec')} is {how} {value!r}"))
        elif not how:
            _value_shown(st, m.group("rec"), value)
        else:
            st.check(checks.text_shown(st.ctx, value))
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    st.explicit_check_last = True
    return True


_ROW_FACTS = [re.compile(r"^(?:that\s+)?(?P<rec>[A-Z0-9\"'“].*?)['’]s\s+(?P<field>[a-z][\w ]*?)\s+(?:is|are|equals|=)\s+(?P<v>.+)$"),
         re.compile(r"^(?:that\s+)?the\s+(?P<field>[a-z][\w ]*?)\s+of\s+(?P<rec>.+?)\s+(?:is|are|equals|=)\s+(?P<v>.+)$",
                    re.I),
         re.compile(r"^(?:that\s+)?(?P<rec>[A-Z0-9\"'“].*?)\s+(?:(?:is|was|should be|must be)\s+"
                    r"(?P<loc>(?:located|based|situated)\s+)?(?:by|from|in|at|priced at|for|written by|made by)|"
                    r"(?P<loc2>lives in|comes from|is located at))\s+(?P<v>.+)$")]
_PLACE_NOUN = re.compile(r"\b(?:list|table|page|screen|menu|section|tab|cart|basket|results?|database|app)$", re.I)


def record_fact_check(c: Clause, st: State) -> bool:
    """"Dune's author is Isaac Asimov", "the city of Bob Chen is Boston": the record's row shows the value."""
    from server.planners.intents_check import negated

    m = next((f.match(c.rest.strip().rstrip("?")) for f in _ROW_FACTS if f.match(c.rest.strip().rstrip("?"))), None)
    if m is None or st.live is None or negated(c.rest):
        return False
    rec, value = clean(m.group("rec")), quoted(m.group("v")) or records.without_header_word(clean(m.group("v")), st)
    if "field" in m.groupdict() and re.fullmatch(r"title|heading|header", m.group("field"), re.I) \
            and re.search(r"\s(?:page|screen|tab|docs|documentation)$", rec, re.I):
        return False   # "the title of the json page is json": a page's own title (the check intent)
    place_fact = "field" not in m.groupdict() and bool(m.group("loc") or m.group("loc2"))   # "located in"
    if "field" not in m.groupdict() and not place_fact and (
            _PLACE_NOUN.search(value) or records.entity_link(st, value) or grounding.screens(value, st.ctx, minimum=0.85)):
        return False   # "Basil is in the plants table": where it is listed, a presence check
    row = grounding.rows(rec, st.live, minimum=0.8)
    if row:
        try:
            st.check(checks.element(st.ctx, row=row[0].name, text=value,
                                    description=f"Check the row of {rec!r} shows {value!r}"))
        except CannotCheck as exc:
            raise Unplannable(str(exc)) from exc
        st.explicit_check_last = True
        return True
    if not st.open_world:
        return False   # a complete tree: its screens say where things are (the check intent reads them)
    if st.moved:
        raise Defer(rec)
    return seek_record(st, rec, c.text)


# -- a record's yes/no field: "is Puzzle Box in stock?", "Grace Kim is not active", "X is out of stock" --------

_FLAG_QUESTION = re.compile(r"^(?:is|was)\s+(?P<rec>.+?)\s+(?P<flag>(?-i:(?:not\s+)?[a-z][a-z -]*?))\s*\??"
                            r"(?:\s+(?:it|he|she|they|[\"“][^\"”]+[\"”])\s+(?P<tail>should(?:n't| not)?|must(?:n't| not)?)\s+be\.?)?$", re.I)
_FLAG_STATEMENT = re.compile(r"^(?:that\s+)?(?P<rec>.+?)\s+(?:is|are|should be|must be|isn't|is not|should not be|"
                             r"shouldn't be|must not be)\s+(?P<flag>(?-i:(?:not\s+|no longer\s+)?[a-z][a-z -]*?))\s*[?.!]?$",
                             re.I)
_ENSURE = re.compile(r"^(?:please\s+)?(?:make sure|ensure|be sure|see to it)\b", re.I)
# how a yes/no cell reads, pairwise (a column that writes "1" writes "0" for no)
TRUE_WORDS = ("true", "yes", "✓", "✔", "on", "enabled", "active", "1", "y")
FALSE_WORDS = ("false", "no", "✗", "✘", "off", "disabled", "inactive", "0", "n")


def _flag_sense(flag: str) -> tuple[str, bool]:
    """"out of stock" → (in stock, False); "inactive" → (active, False); "not active" → (active, False)."""
    flag = clean(flag).lower()
    on = True
    m = re.match(r"^(?:not|no longer)\s+(.+)$", flag)
    if m:
        flag, on = m.group(1), False
    m = re.match(r"^out\s+of\s+(.+)$", flag)
    if m:
        return f"in {m.group(1)}", not on
    return flag, on


def _bool_word(text: str) -> bool | None:
    low = (text or "").strip().lower()
    return True if low in TRUE_WORDS else False if low in FALSE_WORDS else None


def _names(flag: str) -> tuple[str, str]:
    """A field's name as said, and as its positive ("inactive" → active): a column or box may have either."""
    return flag, re.sub(r"^(?:in|un|dis|non)(?=[a-z]{4,})", "", flag)


def _explicit_check(st: State, **check: str) -> bool:
    try:
        st.check(checks.element(st.ctx, **check))
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    st.explicit_check_last = True
    return True


def _flag_cell(st: State, row: str, flag: str):  # type: ignore[no-untyped-def]
    """The cell of *row* that shows the yes/no field *flag* (its hint names the field: "field in stock"), and
    whether it was found under the field's positive name ("inactive" read from the column "active")."""
    for unprefixed in _names(flag):
        want = {w.rstrip("s") for w in words(unprefixed)}
        for e in st.live.elements if st.live is not None else ():
            if e.container != row or e.role not in ("cell", "gridcell") or _bool_word(e.name or e.text) is None:
                continue
            field = re.sub(r"^field\s+", "", e.hint or "")
            if want and {w.rstrip("s") for w in words(field)} == want:
                return e, unprefixed != flag
    return None, False


def flag_check(c: Clause, st: State) -> bool:
    """A yes/no field of one record: read in its row of the list shown (the cell under that field says
    True / False, Yes / No, ✓ / ✗), else as the checkbox of that name on the record's own page."""
    from server.planners.intents_check import _SHOWN

    if c.act is not Act.CHECK or st.live is None:
        return False
    text = c.text.strip()
    m = _FLAG_QUESTION.match(text)
    if m is not None:
        tail = (m.group("tail") or "").lower()
        expect_on = not ("not" in tail or "n't" in tail)
        said = f"{m.group('rec')} {m.group('flag')}".split()
        # "is the customer active": the field is the last word or words, the record what comes before
        splits = [(" ".join(said[:-k]), " ".join(said[-k:])) for k in (1, 2, 3) if len(said) > k
                  and all(w.islower() for w in said[-k:])]
    else:
        m = _FLAG_STATEMENT.match(c.rest.strip())
        if m is None:
            return False
        said_verb = m.group(0)[len(m.group("rec")):len(m.group(0)) - len(m.group("flag"))].lower()
        expect_on = not re.search(r"\b(?:isn't|not|shouldn't)\b", said_verb)
        splits = [(m.group("rec"), m.group("flag"))]
    sought = ""
    for rec_said, flag_said in splits:
        if record_ids.parse(rec_said.strip()) is not None:
            return False    # "ticket 2 is critical": a numbered record, read on its own page (record_page_check)
        rec = re.sub(r"^(?:the\s+)?(?:[a-z]+\s+)?(?=[A-Z0-9\"'“])", "", rec_said.strip())
        rec = quoted(rec) or rec.strip(" ?.!")
        flag, on = _flag_sense(flag_said)
        if not rec or not flag or len(words(flag)) > 3 or re.fullmatch(_SHOWN, flag) \
                or re.search(r"\b(?:a|an|the|my|our|their)\b", flag_said, re.I):
            continue    # "is X listed?" asks whether it is shown; "a member of the flat" is no field
        named = (quoted(rec_said) is not None or all(w[:1].isupper() or w[:1].isdigit() for w in rec.split())) \
            and len(rec) >= 3 and any(ch.isalpha() for ch in rec)
        if _flag_on_screen(c, st, rec, flag, on == expect_on):
            return True
        if not sought and named:
            sought = rec
    if sought and st.open_world and not st.moved and not grounding.rows(sought, st.live, minimum=0.8) \
            and not grounding.live_elements(sought, st.live, minimum=0.85):
        return seek_record(st, sought, c.text)   # a record on no screen shown: look for it in the lists, then read it
    return False


def _flag_on_screen(c: Clause, st: State, rec: str, flag: str, on: bool) -> bool:
    assert st.live is not None
    rows = grounding.rows(rec, st.live, minimum=0.8)
    if rows:
        cell, inverted = _flag_cell(st, rows[0].name, flag)
        if cell is None:
            return False
        on = on != inverted        # "inactive" read from the column "active"
        shown = (cell.name or cell.text).strip()
        now = _bool_word(shown)
        if now is not None and now != on and _ENSURE.match(c.text):
            # "make sure X is out of stock" while it is in stock: make it so, on the record's own form
            from server.planners.intents_records import _flag_on_record

            return _flag_on_record(c, st, rec, flag, on)
        pair = next(((t, f) for t, f in zip(TRUE_WORDS, FALSE_WORDS) if shown.lower() in (t, f)), (None, None))
        expected = shown if now == on else (pair[0] if on else pair[1])
        if shown[:1].isupper() and expected:
            expected = expected.capitalize()
        return _explicit_check(st, selector=cell.selector, text=expected,
                               description=f"Check {rec!r} is {'' if on else 'not '}{flag} ({expected})")
    inverted = False
    box = None
    for name in _names(flag):
        box = next((e for e in st.live.elements if e.role == "checkbox" and not e.hidden and not e.container
                    and grounding.similarity(name, e.name or e.text) >= 0.9), None)
        if box is not None:
            inverted = name != flag
            break
    if _ENSURE.match(c.text):
        return False     # "make sure this customer is active" on its form: the form's own intents set it
    this_one = re.fullmatch(r"(?:(?:the|this|that)\s+)?[a-z]+|it|he|she|they", rec) is not None
    if box is None or not (this_one or grounding.live_elements(rec, st.live, minimum=0.85)):
        return False
    on = on != inverted
    return _explicit_check(st, selector=box.selector, state="checked" if on else "unchecked",
                           description=f"Check {rec!r} is {'' if on else 'not '}{flag}")

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


def record_page_check(c: Clause, st: State) -> bool:
    if c.act is not Act.CHECK or st.live is None or not st.open_world:
        return False
    m = _FACT.match(c.rest.strip()) or _ASKED.match(c.text.strip())
    if m is None or re.match(r"(?:not|no|never)\b", m.group("v"), re.I):
        return False
    where = record_ids.toward(st, m.group("rec"))
    if where is None:
        return False
    if where is False:
        raise Defer(m.group("rec"), replace_with=[c.text])
    value = quoted(m.group("v")) or m.group("v")
    how = (m.group("how") or "").lower()
    stem = how[:-2] if how.endswith("ed") else how
    els = st.live.elements
    # the value beside the fact's own label ("Owned by:" then "carol"), else the row that holds the label
    at = next((i for i, e in enumerate(els) if stem and re.match(rf"\W*{re.escape(stem)}", e.name or e.text or "", re.I)
               and len(words(e.name or e.text)) <= 3), None)
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
    from server.planners.intents_check import NEGATION

    m = next((f.match(c.rest.strip().rstrip("?")) for f in _ROW_FACTS if f.match(c.rest.strip().rstrip("?"))), None)
    if m is None or st.live is None or NEGATION.search(c.rest):
        return False
    rec, value = clean(m.group("rec")), quoted(m.group("v")) or clean(m.group("v"))
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

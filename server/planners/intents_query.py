"""Running a query in a database tool: "run the query SELECT …", "execute select … in the query box",
"query the nursery database with select …": the SQL typed into the tool's SQL field (a code editor is one),
replacing its text, then its run button.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding, records
from server.planners.checks import CannotCheck
from server.planners.language import Clause
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_TEXTBOX

# what an SQL statement starts with
SQL_START = re.compile(r"^\s*(?:select|insert|update|delete|create|drop|alter|with|pragma|replace|explain)\b", re.I)

_QUERY_PLACE = re.compile(r"\s+(?:in|into|on|using|with)\s+(?:the\s+)?(?:sql\s+|query\s+|custom\s+)*"
                          r"(?:box|field|editor|console|window|area|panel|input|textbox|text box)$", re.I)
_QUERY_DB = re.compile(r"(?:^(?:query)\s+|\s+(?:in|on|against|of)\s+)(?:the\s+)?(?P<db>[\w-]+)\s+(?:database|db)"
                       r"(?:\s+with)?\b", re.I)


def query_intent(c: Clause, st: State) -> bool:
    """"run the query SELECT …", "execute: UPDATE …": type it in the SQL field, replacing its text, and run it."""
    text = _QUERY_PLACE.sub("", c.text.strip())   # "… in the query box": where it goes, not SQL
    db = _QUERY_DB.search(text)
    text = _QUERY_DB.sub(lambda d: "query " if d.start() == 0 else " ", text).strip()
    m = re.match(r"^(?:run|execute|exec|issue|type|enter|query)\b[:\s]*(?:the\s+|this\s+|that\s+|following\s+|the following\s+)?"
                 r"(?:sql\s+)?(?:query|statement|sql|command)?[:\s]*(?P<q>.+?)(?:\s+and\s+(?:execute|run|submit)\s+it)?$",
                 text, re.I)
    if not m:
        return False
    q = m.group("q").strip()
    q = (re.fullmatch(r"`([^`]+)`", q) or re.fullmatch(r'"([^"]+)"', q) or re.fullmatch(r"'([^']+)'", q) or [None, q])[1]
    if not SQL_START.match(q) and not re.search(r"\b(?:query|sql|statement)\b", c.text, re.I):
        return False
    if st.live is None:
        if st.moved:
            raise Defer("query")
        return False
    fields = [t for w in ("sql", "query", "sql query", "statement", "editor")
              for t in grounding.fields(w, st.live, minimum=0.7) if t.live.role == ROLE_TEXTBOX]
    if not fields:
        link = [t for t in grounding.live_elements("query", st.live, roles=records.NAV_ROLES, minimum=0.9)]
        if not link and db is not None:   # "query the nursery database with …": that database's page first
            link = [t for t in grounding.live_elements(db.group("db"), st.live, roles=records.NAV_ROLES, minimum=0.9)]
        if link:
            st.click_live(link[0], f"Open {link[0].label!r}")
            raise Defer("query", replace_with=[c.text])
        if st.moved:
            raise Defer("query")
        raise Unplannable("no SQL field on the screen", "query")
    from server.planners.intents_form import type_into

    type_into(st, q, fields[0])
    run = records.save_button(st, ("execute", "run", "run query", "run sql", "execute sql", "go"))
    if run is not None:
        st.click_live(run, f"Click {run.label!r}")
    elif "submit" in st.param_names(V.INPUT_TEXT):
        st.steps[-1].params["submit"] = True
    expect = None
    if re.match(r"\s*(?:select|with)\b", q, re.I):
        try:   # a query asked with no check of its own: at least it ran, and its rows are shown
            expect = checks.element(st.ctx, role="row", description="Check the query's rows are shown")
        except CannotCheck:
            expect = None
    st.expect_check(expect)
    st.last_object = q
    return True

"""A value said of one item, checked on the item's own page: "Neon Tides is from 2023", "River of Glass came out
in 2019", "the year of Silent Harbor is 2018", and "it was released in 2019" right after the item was opened.

The item is one of a parameterised screen's items ("Movie for {name}"): the screen is opened for it (goto verifies
it is that item), then the value must show there. A pronoun is the item opened last, on the screen shown. Any
other subject is left to the other checks (a row's values, a field's).
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.intents_check import _text_check, negated, _strip_neg
from server.planners.intents_param import MIN_SCORE, _best_item, _open_item
from server.planners.language import Act, Clause
from server.planners.state import State
from shared import vocabulary as V

# subject, a verb of being or of coming out, a preposition, then a value: a year or a date after "in" / "on" (a
# name there is a place: "Silent Harbor is in Movies"), anything named after "from" / "since"
_SAID_OF = re.compile(r"^(?P<x>.+?)\s+(?:is|was|are|were|came\s+out|comes\s+out|come\s+out|dates|dated|"
                      r"(?:was\s+|is\s+)?(?:released|made|shot|filmed|published|premiered|aired|first\s+aired))"
                      r"\s+(?:(?:from|since)\s+(?P<v>(?-i:[A-Z0-9])[\w .,'’:-]*)|(?:in|on|back\s+in)\s+(?P<d>\d{4}|"
                      r"\d{1,2}\s+(?-i:[A-Z])[a-z]+(?:\s+\d{4})?|(?-i:[A-Z])[a-z]+\s+\d{1,2}(?:,?\s+\d{4})?|"
                      r"\d{4}-\d{2}(?:-\d{2})?))$", re.I)
# "the year of Silent Harbor is 2018": a field of the item, said with its value
_FIELD_OF = re.compile(r"^(?:the\s+|its\s+)?(?P<f>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\s+of\s+(?P<x>.+?)\s+(?:is|was)\s+"
                       r"(?P<v>(?-i:[A-Z0-9])[\w .,'’:-]*)$", re.I)
_PRONOUN = re.compile(r"^(?:it|this|that|this\s+one|that\s+one|she|he|they)$", re.I)
# a value the page could show by chance (a rating of 4, a count) is no proof of the item's field
_DISTINCT = re.compile(r"^(?:\d{4}|\d{4}-\d{2}(?:-\d{2})?|\d{1,2}\s+\S+\s+\d{4}|.*(?-i:[A-Za-z]).{2,})$")


def item_fact_check(c: Clause, st: State) -> bool:
    if c.act not in (Act.CHECK, Act.NONE):
        return False
    body = c.rest.strip().rstrip("?.!")
    negative = negated(body)
    flat = re.sub(r"\b(?:should|must|shall|will)\s+(?:still\s+)?be\b", "is", _strip_neg(body), flags=re.I)
    m = _SAID_OF.match(flat) or _FIELD_OF.match(flat)
    if m is None:
        return False
    subject, value = m.group("x").strip(), (m.group("v") or m.group("d") or "").strip()
    field = m.groupdict().get("f") or ""
    if not _DISTINCT.match(value) or grounding.screens(value, st.ctx, minimum=0.8):
        return False   # "the rating of X is 4"; "X is from Movies": left to the other checks
    if _PRONOUN.match(subject):
        # on the page of what was opened last, not on a list where another item shows the value
        if not st.last_object or st.last_act not in ("param", "select", "open"):   # the intent that opened it
            return False
        _text_check(st, value, negative, subject="")
        return True
    if not st.has(V.GOTO) or "param" not in st.param_names(V.GOTO):
        return False
    if st.live is not None and grounding.rows(subject, st.live):
        return False   # a row of the screen shown: its own cells say it (the statement checks)
    best = _best_item(subject, st, st.ctx.navigation.nodes)
    if best is None or best[0][0] < max(MIN_SCORE, 0.9):
        return False
    (_, item), node = best
    _open_item(st, node, item)
    held = next((e for e in node.elements if field and e.selector and grounding.similarity(field, e.name) >= 0.9), None)
    if held is not None:   # "the year of X": the page's year, where the tree names it
        st.prove(lambda: checks.element(st.ctx, selector=held.selector, text=value, present=not negative,
                                        description=f"Check the {field} of {item} is {value}"))
        return True
    _text_check(st, value, negative, subject="")
    return True

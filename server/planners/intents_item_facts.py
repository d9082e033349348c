"""A value said of one item, checked on the item's own page: "Neon Tides is from 2023", "River of Glass came out
in 2019", "the year of Silent Harbor is 2018", and "it was released in 2019" right after the item was opened.

The item is one of a parameterised screen's items ("Movie for {name}"): the screen is opened for it (goto verifies
it is that item), then the value must show there. A pronoun is the item opened last, on the screen shown. Any
other subject is left to the other checks (a row's values, a field's).
"""
from __future__ import annotations

import re

from server.planners.intents_check import _text_check, negated, _strip_neg
from server.planners.intents_param import MIN_SCORE, _best_item, _open_item
from server.planners.language import Act, Clause
from server.planners.state import State
from shared import vocabulary as V

# subject, a verb of being or of coming out, a preposition, then a value: a number, a date or a name
_SAID_OF = re.compile(r"^(?P<x>.+?)\s+(?:is|was|are|were|came\s+out|comes\s+out|come\s+out|dates|dated|"
                      r"(?:was\s+|is\s+)?(?:released|made|shot|filmed|published|premiered|aired|first\s+aired))"
                      r"\s+(?:from|in|on|since|back\s+in)\s+(?P<v>(?-i:[A-Z0-9])[\w .,'’:-]*)$", re.I)
# "the year of Silent Harbor is 2018": a field of the item, said with its value
_FIELD_OF = re.compile(r"^(?:the\s+|its\s+)?(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?\s+of\s+(?P<x>.+?)\s+(?:is|was)\s+"
                       r"(?P<v>(?-i:[A-Z0-9])[\w .,'’:-]*)$", re.I)
_PRONOUN = re.compile(r"^(?:it|this|that|this\s+one|that\s+one|she|he|they)$", re.I)


def item_fact_check(c: Clause, st: State) -> bool:
    if c.act not in (Act.CHECK, Act.NONE):
        return False
    body = c.rest.strip().rstrip("?.!")
    negative = negated(body)
    flat = re.sub(r"\b(?:should|must|shall|will)\s+(?:still\s+)?be\b", "is", _strip_neg(body), flags=re.I)
    m = _SAID_OF.match(flat) or _FIELD_OF.match(flat)
    if m is None:
        return False
    subject, value = m.group("x").strip(), m.group("v").strip()
    if _PRONOUN.match(subject):
        if not st.last_object:
            return False
        _text_check(st, value, negative, subject="")   # on the screen of what was opened last
        return True
    if not st.has(V.GOTO) or "param" not in st.param_names(V.GOTO):
        return False
    best = _best_item(subject, st, st.ctx.navigation.nodes)
    if best is None or best[0][0] < max(MIN_SCORE, 0.9):
        return False
    (_, item), node = best
    _open_item(st, node, item)
    _text_check(st, value, negative, subject="")
    return True

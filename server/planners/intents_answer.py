"""A question asked with its answer: "who has the key to the cabinet? it should be Dana".

The answer is checked where the page answers the question: in the one text of the screen that says the most of the
question's own words ("Ask Dana for the key to the cabinet."), never anywhere on the page, where the name may show
for another reason (a sidebar, an owner column). A page that says none of the question's words cannot be checked:
the task is refused with what to say instead.
"""
from __future__ import annotations

import re

from server.planners import checks
from server.planners.checks import CannotCheck
from server.planners.language import Act, Clause, clean, quoted, words
from server.planners.matching import STOPWORDS, stems
from server.planners.state import Defer, State, Unplannable

_ASKED = re.compile(r"^(?:who|what|which|where|when|whose)\b(?P<q>[^?]+)\?\s*(?:it|that|the\s+answer|he|she|they|"
                    r"this|\"[^\"]+\")\s*(?:'s|\s+is|\s+should\s+be|\s+must\s+be|\s+ought\s+to\s+be)\s+(?P<y>.+)$", re.I)
_QUESTION_FILLER = frozenset("who what which where when whose has have had is are was were does do did can could "
                             "should would will the a an of to for in on at by with".split())
_TEXT_ROLES = frozenset({"text", "paragraph", "cell", "row", "listitem", "heading", "term", "definition"})


def answer_check_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.CHECK:
        return False
    m = _ASKED.match(c.rest.strip().rstrip(".!"))
    if m is None:
        return False
    answer = quoted(m.group("y")) or clean(m.group("y"))
    asked = {s for w in words(m.group("q")) if w not in _QUESTION_FILLER and w not in STOPWORDS and len(w) > 2
             for s in stems(w)}
    if st.live is None:
        if st.moved and st.screen is not None:
            raise Defer("the answer")
        return False
    best, best_hits = None, 0
    for e in st.live.elements:
        said = e.text or e.name
        if e.hidden or e.role not in _TEXT_ROLES or not said or not e.selector:
            continue
        hits = len(asked & {s for w in words(said) for s in stems(w)})
        if hits > best_hits or hits == best_hits and best is not None and len(said) < len(best.text or best.name):
            best, best_hits = e, hits
    if best is None or best_hits < min(2, len(asked)):
        raise Unplannable(f"I cannot tell where the page answers {m.group('q').strip()!r}: say what it should show "
                          f"(\"check the page says {answer}\")", m.group("q").strip())
    try:
        st.check(checks.element(st.ctx, selector=best.selector, text=answer,
                                description=f"Check {answer!r} answers {m.group('q').strip()!r}"))
    except CannotCheck:
        return False
    return True

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
from server.planners.language import Act, Clause, words
from server.planners.state import State
from shared import vocabulary as V
from shared.models import ElementInfo, NodeInfo

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
# "the synopsis of Neon Tides mentions the sea": words a field of the item holds
_FIELD_HOLDS = re.compile(r"^(?:the\s+|its\s+)?(?P<f>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\s+of\s+(?P<x>.+?)\s+(?:mentions|contains|"
                          r"includes|says|talks\s+about|refers\s+to)\s+(?:the\s+|a\s+|an\s+)?(?P<v>[\w][\w .,'’:-]*)$", re.I)
# "it's a 2019 drama", "it is a comedy": what the item opened last is, in words its page shows
_IS_A = re.compile(r"^(?P<x>.+?)\s+(?:is|was)\s+(?:an?\s+)(?P<v>[\w-]+(?:\s+[\w-]+){0,2})$", re.I)
_PRONOUN = re.compile(r"^(?:it|this|that|this\s+one|that\s+one|she|he|they)$", re.I)
# a value the page could show by chance (a rating of 4, a count) is no proof of the item's field
_DISTINCT = re.compile(r"^(?:\d{4}|\d{4}-\d{2}(?:-\d{2})?|\d{1,2}\s+\S+\s+\d{4}|.*(?-i:[A-Za-z]).{2,})$")


def item_fact_check(c: Clause, st: State) -> bool:
    if c.act not in (Act.CHECK, Act.NONE):
        return False
    body = c.rest.strip().rstrip("?.!")
    negative = negated(body)
    flat = re.sub(r"\b(?:should|must|shall|will)\s+(?:still\s+)?be\b", "is", _strip_neg(body), flags=re.I)
    flat = re.sub(r"^(it|this|that|she|he)['’]s\b", r"\1 is", flat, flags=re.I)
    m = _SAID_OF.match(flat) or _FIELD_OF.match(flat) or _FIELD_HOLDS.match(flat)
    kind = _IS_A.match(flat) if m is None else None
    if kind and not negative and st.last_object and st.last_act in ("param", "select", "open") \
            and (_PRONOUN.match(kind.group("x")) or grounding.norm(kind.group("x")) == grounding.norm(st.last_object)):
        # "open River of Glass and verify it's a 2019 drama": each word said of it shows on its page, which is its
        _text_check(st, st.last_object, False, subject="")
        for word in kind.group("v").split():
            _text_check(st, word, negative, subject="")
        return True
    if m is None:
        return _field_here(st, flat, negative)
    subject, value = m.group("x").strip(), (m.group("v") or m.groupdict().get("d") or "").strip()
    field = m.groupdict().get("f") or ""
    holds = m.re is _FIELD_HOLDS
    if holds:   # words of a text: no page could show them by chance the way a bare number can
        if not st.ctx.navigation.nodes:
            return False
        return _on_its_page(st, subject, value, field, negative)
    if not _DISTINCT.match(value) or grounding.screens(value, st.ctx, minimum=0.8):
        return False   # "the rating of X is 4"; "X is from Movies": left to the other checks
    if _PRONOUN.match(subject):
        # on the page of what was opened last, not on a list where another item shows the value
        if not st.last_object or st.last_act not in ("param", "select", "open"):   # the intent that opened it
            return False
        _text_check(st, value, negative, subject="")
        return True
    if st.live is not None and grounding.rows(subject, st.live):
        return False   # a row of the screen shown: its own cells say it (the statement checks)
    best = _best_item(subject, st, st.ctx.navigation.nodes) \
        if st.has(V.GOTO) and "param" in st.param_names(V.GOTO) else None
    if best is None or best[0][0] < max(MIN_SCORE, 0.9):
        return _on_its_page(st, subject, value, field, negative)
    (_, item), node = best
    _open_item(st, node, item)
    held = next((e for e in node.elements if field and e.selector and grounding.similarity(field, e.name) >= 0.9), None)
    if held is not None:   # "the year of X": the page's year, where the tree names it
        st.prove(lambda: checks.element(st.ctx, selector=held.selector, text=value, present=not negative,
                                        description=f"Check the {field} of {item} is {value}"))
        return True
    _text_check(st, value, negative, subject="")
    return True


def _page_field(node: NodeInfo, field: str, value: str) -> ElementInfo | None:
    """The element of *node* that holds *field* ("release year": its year), or, with no field said, the one a
    year is read from ("from 2021")."""
    said = field or ("year" if re.fullmatch(r"\d{4}", value) else "")
    if not said:
        return None
    for name in (said, said.split()[-1]):
        held = next((e for e in node.elements if e.selector and not e.many and not e.opens
                     and grounding.similarity(name, e.name) >= 0.9), None)   # (an item that opens is no field)
        if held is not None:
            return held
    return None


def _on_its_page(st: State, subject: str, value: str, field: str, negative: bool) -> bool:
    """"Silent Harbor is from 2021" on a tree whose items are elements that open one detail screen: X opened (unless
    its page is shown already), its page proved to be X's by its title, then the value on it."""
    found = [t for t in grounding.tree_elements(subject, st.ctx, prefer_node=st.node, minimum=0.9)
             if t.element.opens and not t.element.many]
    if not found:
        return False
    t = found[0]
    page = st.node_info(t.element.opens)
    if page is None:
        return False
    label = t.element.text or t.element.name
    title = next((e for e in page.elements if "title" in e.name.split() and e.selector and not e.many), None)
    if title is None or title.text or {"play", "pause"} <= {w for e in page.elements for w in words(e.name)}:
        return False   # a page that does not name its item (Live TV), or a player: opening it would change the device
    here = st.node == page.id and grounding.similarity(st.last_object or "", label) >= 0.9
    if not here:
        if st.node != t.node.id:
            st.goto(t.node)
        st.click_declared(t.element, None, f"Open {label}")
        st.node, st.last_object = page.id, label
    if title is not None:
        st.check(checks.element(st.ctx, selector=title.selector, text=label, description=f"Check {label}'s page is shown"))
    held = _page_field(page, field, value)
    if held is not None:
        st.check(checks.element(st.ctx, selector=held.selector, text=value, present=not negative,
                                description=f"Check the {field or held.name} of {label} is {value}"))
    else:
        _text_check(st, value, negative, subject="")
    return True


# "Release year should be 2021", "its genre is Action", right after the item's page was opened: a field of the page
_FIELD_HERE = re.compile(r"^(?:the\s+|its\s+)?(?P<f>(?-i:[A-Za-z][a-z]+)(?:\s+(?-i:[a-z]+))?)\s+(?:is|was)\s+"
                         r"(?P<v>[\w][\w .,'’:-]*)$", re.I)   # ("Tech Today is listed": a name, no field)


def _field_here(st: State, flat: str, negative: bool) -> bool:
    m = _FIELD_HERE.match(flat)
    page = None
    if st.last_object and st.node:
        page = st.node_info(st.node)
    elif st.last_object:   # clicked on the live screen: the screen the tree says that item opens
        opened = [t for t in grounding.tree_elements(st.last_object, st.ctx, minimum=0.9) if t.element.opens]
        page = st.node_info(opened[0].element.opens) if opened else None
    if m is None or page is None or not _DISTINCT.match(m.group("v")):
        return False
    held = _page_field(page, m.group("f"), m.group("v"))
    if held is None:
        return False
    st.check(checks.element(st.ctx, selector=held.selector, text=m.group("v"), present=not negative,
                            description=f"Check the {m.group('f')} of {st.last_object} is {m.group('v')}"))
    return True

"""What a tester means by an order: the column ("by height", "the cheapest first") and its direction.

"sort the books by year, newest first", "order plants by name descending", "show the cheapest
products first", "list tickets from highest to lowest priority": a column named (or implied by a
superlative: the tallest is the height, the cheapest the price) and a direction, or none when the
tester did not say one. Planners turn it into ``sort_table`` (click the header until the column
reads so) and ``check_sorted``: a sort is proved by the column's values, never by a click alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ASC, DESC, ANY = "ascending", "descending", "any"

# direction phrases, longest first where one contains another
_DIRECTIONS: tuple[tuple[str, str], ...] = (
    (r"desc(?:ending)?(?:\s+order)?|in\s+reverse(?:\s+\w+)?(?:\s+order)?|reversed?(?:\s+order)?|backwards?", DESC),
    (r"z\s*(?:-|to|→)\s*a|from\s+z\s+to\s+a", DESC),
    (r"(?:from\s+)?(?:the\s+)?(?:high(?:est)?|most|largest|biggest|greatest|max(?:imum)?)\s+(?:to|→)\s+"
     r"(?:the\s+)?(?:low(?:est)?|least|smallest|min(?:imum)?)", DESC),
    (r"(?:from\s+)?(?:the\s+)?(?:low(?:est)?|least|smallest|min(?:imum)?)\s+(?:to|→)\s+"
     r"(?:the\s+)?(?:high(?:est)?|most|largest|biggest|greatest|max(?:imum)?)", ASC),
    (r"(?:from\s+)?(?:the\s+)?(?:new(?:est)?|latest|most\s+recent)\s+(?:to|→)\s+(?:the\s+)?(?:old(?:est)?|earliest)",
     DESC),
    (r"(?:from\s+)?(?:the\s+)?(?:old(?:est)?|earliest)\s+(?:to|→)\s+(?:the\s+)?(?:new(?:est)?|latest|most\s+recent)",
     ASC),
    (r"asc(?:ending)?(?:\s+order)?|a\s*(?:-|to|→)\s*z|from\s+a\s+to\s+z|alphabetical(?:ly)?(?:\s+order)?|"
     r"in\s+alphabetical\s+order", ASC),
)

# superlative → (the column nouns it implies, the direction that puts it first)
SUPERLATIVES: dict[str, tuple[tuple[str, ...], str]] = {
    "tallest": (("height", "tall"), DESC), "shortest": (("height", "length", "duration"), ASC),
    "highest": ((), DESC), "lowest": ((), ASC), "most": ((), DESC), "least": ((), ASC),
    "largest": (("size", "amount", "total", "quantity", "count", "area", "population"), DESC),
    "biggest": (("size", "amount", "total", "quantity", "count", "area", "population"), DESC),
    "smallest": (("size", "amount", "total", "quantity", "count", "area", "population"), ASC),
    "greatest": ((), DESC),
    "cheapest": (("price", "cost", "amount", "fee"), ASC),
    "most expensive": (("price", "cost", "amount", "fee"), DESC),
    "priciest": (("price", "cost", "amount", "fee"), DESC),
    "newest": (("date", "created", "added", "updated", "modified", "published", "year", "time"), DESC),
    "latest": (("date", "created", "added", "updated", "modified", "published", "year", "time"), DESC),
    "most recent": (("date", "created", "added", "updated", "modified", "published", "year", "time"), DESC),
    "oldest": (("date", "created", "added", "published", "year", "time", "age"), ASC),
    "earliest": (("date", "created", "added", "published", "year", "time"), ASC),
    "heaviest": (("weight", "mass"), DESC), "lightest": (("weight", "mass"), ASC),
    "longest": (("length", "duration", "pages", "runtime"), DESC),
    "youngest": (("age", "born", "birth"), ASC),
}
_SUPER = "|".join(sorted((re.escape(s).replace(r"\ ", r"\s+") for s in SUPERLATIVES), key=len, reverse=True))


@dataclass(frozen=True)
class SortAsk:
    """A column (as the tester named it, or the nouns a superlative implies) and a direction."""

    column: str
    order: str = ANY
    implied: tuple[str, ...] = ()   # column nouns a superlative implies, when no column was named

    def columns(self) -> tuple[str, ...]:
        return ((self.column,) if self.column else ()) + self.implied


def direction_in(text: str) -> tuple[str, str]:
    """The direction *text* says ("…, newest first", "descending") and the text without it."""
    for pattern, order in _DIRECTIONS:
        m = re.search(rf"[\s,;(]*\b(?:{pattern})\b\)?(?:\s+order)?\s*$", text, re.I) \
            or re.search(rf"\b(?:in\s+)?(?:{pattern})(?:\s+order)?\b", text, re.I)
        if m:
            return order, (text[:m.start()] + text[m.end():]).strip(" ,;")
    # "by height, tallest first" / "by price with the cheapest on top": said after the column
    m = re.search(rf"\s*(?:[,;]|\bwith\b|\bso\b)\s*(?:the\s+)?(?P<s>{_SUPER})(?:\s+(?P<col>[a-z][\w ]*?))?\s+"
                  r"(?:ones?\s+|items?\s+|rows?\s+)?(?:first|on\s+top|at\s+the\s+top)\s*$", text, re.I)
    if m:
        return SUPERLATIVES[_norm(m.group("s"))][1], text[:m.start()].strip(" ,;")
    m = re.search(r"\s*(?:[,;]|\bwith\b)?\s*(?:the\s+)?(?:(?P<hi>high|big|large|new|recent)|(?P<lo>low|small|old))"
                  r"\w*\s+(?:ones?\s+)?(?:first|on\s+top)\s*$", text, re.I)
    if m:
        return (DESC if m.group("hi") else ASC), text[:m.start()].strip(" ,;")
    return ANY, text


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip().lower())


def parse_sort(rest: str) -> tuple[str, SortAsk] | None:
    """"the plants by height, tallest first" → ("plants", height, descending); None when no column is said."""
    said = rest.strip().rstrip(".!")
    span = re.search(rf"\s*\b(?:from\s+)?(?:the\s+)?(?P<a>{_SUPER})(?:\s+\w+)?\s+(?:to|down\s+to|up\s+to)\s+(?:the\s+)?"
                     rf"(?:{_SUPER})(?:\s+\w+)?\s*$", said, re.I)
    if span:   # "the plants from the tallest to the shortest"
        nouns, sup_order = SUPERLATIVES[_norm(span.group("a"))]
        return said[:span.start()].strip(), SortAsk("", sup_order, nouns)
    order, bare = direction_in(said)
    m = re.match(r"^(?:(?:the\s+|my\s+|all\s+)?(?P<noun>[\w \"'“”]+?)\s+)?(?:by|on|using)\s+(?:the\s+|their\s+|its\s+)?"
                 r"(?P<col>[\w ]+?)(?:\s+(?:column|field|value))?$", bare, re.I)
    if m:
        noun, column = (m.group("noun") or "").strip(), m.group("col").strip()
        sup = re.match(rf"^(?P<s>{_SUPER})(?:\s+(?P<c>.+))?$", column, re.I)
        if sup:   # "by highest price", "by the newest"
            nouns, sup_order = SUPERLATIVES[_norm(sup.group("s"))]
            order = order if order != ANY else sup_order
            return noun, SortAsk((sup.group("c") or "").strip(), order, () if sup.group("c") else nouns)
        return noun, SortAsk(column, order)
    m = re.match(rf"^(?:the\s+)?(?P<s>{_SUPER})\s+(?P<noun>[\w ]+?)(?:\s+first)?$", bare, re.I) \
        or re.match(rf"^(?:the\s+)?(?P<noun>[\w ]+?)\s+(?:with\s+the\s+)?(?P<s>{_SUPER})(?:\s+(?P<c>[\w ]+?))?"
                    rf"(?:\s+first)?$", bare, re.I)
    if m:   # "the cheapest products", "products with the highest price"
        nouns, sup_order = SUPERLATIVES[_norm(m.group("s"))]
        col = (m.groupdict().get("c") or "").strip()
        return m.group("noun").strip(), SortAsk(col, order if order != ANY else sup_order, () if col else nouns)
    if order != ANY and re.search(r"alphabetic|\ba\s*(?:-|to)\s*z\b|\bz\s*(?:-|to)\s*a\b", said, re.I):
        return bare, SortAsk("", order, ("name", "title", "label"))   # "the members alphabetically"
    return None


# "show the cheapest products first", "list tickets with the highest priority first": a sort said as a view
_SHOWN_FIRST = re.compile(rf"^(?P<pre>.*?\b)(?:show|list|display|put|see|get|view|have)\s+(?:me\s+)?"
                          rf"(?P<what>(?:the\s+)?(?:{_SUPER})\s+[\w ]+?|(?:the\s+|all\s+)?[\w ]+?\s+with\s+the\s+"
                          rf"(?:{_SUPER})\s+[\w ]+?)\s+(?:first|on\s+top|at\s+the\s+top)\s*$", re.I)


_SUPER_TAIL = re.compile(rf",\s*(?=(?:the\s+)?(?:{_SUPER})\s+(?:\w+\s+)?(?:first|on\s+top)\b)", re.I)
_DIRECTION_TAIL = re.compile(r",\s*(?=(?:desc|asc)\w*\b|in\s+reverse|reversed?\b|z\s*(?:-|to)\s*a\b|a\s*(?:-|to)\s*z\b|"
                             r"alphabetical|(?:from\s+)?(?:the\s+)?(?:high|low|new|old|big|small|large)\w*\s+(?:to|first)\b)",
                             re.I)
_SORTS = re.compile(r"\b(?:sort|order|arrang|rank|list)\w*\s+(?:[\w'\"“”]+\s+){0,5}?(?:by|from|in)\b", re.I)


def restate_shown_first(task: str) -> str:
    """"show the cheapest products first" → "sort the cheapest products first" (a clause the sort intent reads);
    "sort by height, tallest first": the direction stays in the sort's clause."""
    # "put the plants in order by name": a sort
    task = re.sub(r"\b(?:put|place|get|arrange)\s+(?P<w>(?:the\s+|my\s+|all\s+)?[\w ]+?)\s+in(?:to)?\s+(?:(?P<o>"
                  r"alphabetical|reverse|ascending|descending)\s+)?order\b",
                  lambda m: f"sort {m.group('w')}" + (f" in {m.group('o')} order" if m.group("o") else ""), task, flags=re.I)
    m = _SHOWN_FIRST.match(task.strip())
    if m:
        task = f"{m.group('pre')}sort {m.group('what')} first"
    if _SORTS.search(task):
        task = _DIRECTION_TAIL.sub(" ", _SUPER_TAIL.sub(" with ", task))
    return task

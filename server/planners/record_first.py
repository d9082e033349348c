"""A clause about a record the screen shown does not show: the record's own page first, then the clause there.

"the rye loaf description mentions caraway", "set the croissant price to $3.00", "check the sourdough costs
$4.50" on an app's home page: no intent can plan them here, for the record they are about is elsewhere (a
subpage of a subpage). The record is named in the clause's first noun phrase ("the rye loaf description"), as a
whole or in its first words ("rye loaf"). Where the screen links to it, its link is opened; where it does not,
the app's lists are looked through for any of those names (:mod:`list_search`); then the clause is planned
again, on the record's page. On that page itself nothing more is tried: the clause is refused as it was.
"""
from __future__ import annotations

import re

from server.planners import records
from server.planners.grounding import Target, TargetKind
from server.planners.language import Act, Clause, words
from server.planners.page_names import is_this_page
from server.planners.state import Defer, State

# words that end a record's name in a clause: a verb of the statement, a preposition, a value's start
_ENDS_NAME = frozenset("is are was were has have had should must does do doesn't isn't can cannot will to in of on "
                       "at with as from for and then not no it its by".split())
_NOUN_PHRASE = re.compile(r"\bthe\s+(?P<np>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3})")
MIN_NAME = 3
# what a clause does to a record it names in passing: checks, statements, changes of a field, text added to one
_ABOUT_A_RECORD = frozenset({Act.CHECK, Act.NONE, Act.SET, Act.EDIT, Act.ADD, Act.TICK, Act.UNTICK})


# a place in a text ("the end of the cinnamon bun description"), or a word for the screen itself: no record's name
_NO_NAMES = frozenset("end start beginning top bottom middle page screen list table form app site field box home "
                      "button link tab menu dialog".split())


def names_said(text: str) -> list[str]:
    """The names a record may go by in *text*'s first noun phrase, longest first ("rye loaf description",
    "rye loaf", "rye")."""
    # a destination ("add the Blue Mug to the shopping cart") is a place to put something, not a record to find
    starts = (_NOUN_PHRASE.match(text, t.start()) for t in re.finditer(r"\bthe\s+", text)
              if not re.search(r"\b(?:to|into|onto|in|inside)\s+$", text[:t.start()], re.I))
    m = next((m for m in starts if m is not None and m.group("np").split()[0].lower() not in _NO_NAMES), None)
    if m is None:
        return []
    said: list[str] = []
    for i, w in enumerate(m.group("np").split()):
        if w.lower() in _ENDS_NAME or (i > 0 and re.fullmatch(r"[a-z]+[^s]s", w)):
            break   # "the sourdough costs $4.50": the name ends where its verb starts
        said.append(w)
    names = [" ".join(said[:k]) for k in range(len(said), 0, -1) if len(" ".join(said[:k])) >= MIN_NAME]
    return [n for n in names if n.split()[0].lower() not in _NO_NAMES]


# a refusal for something the screen does not show, by name (not one for a wording the planner cannot read)
_NOT_SHOWN = re.compile(r"\bno (?:element|setting or field|field|record|item)s? (?:called|named|for)\b|\bnothing called\b|"
                        r"\bthere is no\b", re.I)


def record_first(clause: Clause, st: State, missing: str, why: str) -> list[str] | None:
    """Steps that lead to the record *clause* is about, and the clauses to plan after them; None where the screen
    shown is not one to leave (or the record's own page is shown already). *missing*, *why*: what the clause was
    refused for ("the rye loaf description"), and the refusal; only a record named in what was not found there is
    looked for."""
    from server.planners.list_search import same_page, seek_record

    if st.live is None or st.moved or not st.open_world or clause.act not in _ABOUT_A_RECORD \
            or not _NOT_SHOWN.search(why):
        return None   # opening, deleting, playing look for their record themselves
    names = names_said(clause.rest or clause.text)
    said = set(words(missing))
    names = [n for n in names if set(words(n)) <= said]
    if not names or any(is_this_page(st, n) for n in names):
        return None
    mark = len(st.steps)
    for name in names:
        link = records.record_link(st, name)
        if link is not None and link.live is not None and not link.live.selected \
                and not (st.live.url and same_page(link.live.href or st.live.url, st.live.url)):
            st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, link.label, live=link.live), f"Open {link.label!r}")
            return [clause.text]
    try:
        seek_record(st, "|".join(names), clause.text)
    except Defer as exc:
        if len(st.steps) > mark:
            return exc.replace_with or [clause.text]
    del st.steps[mark:]
    return None

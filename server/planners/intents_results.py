"""Opening what a search found: "open the first result", "open the page it's on", "open the one that mentions X".

On a page of search results the results are the links the page shows after what it says it found (a heading or a
line such as "Search matched 1 page:", "3 results"), or after the search box, never the page's own navigation, the
search form's buttons ("Match case") or its suggestions. "The first result" is the first of them; "the page X is
on" is the result whose link or text beside it says X, or the only result there is. A page that shows no results
refuses: nothing is guessed.
"""
from __future__ import annotations

import re

from server.planners import grounding
from server.planners.language import Act, Clause, quoted
from server.planners.state import State, Unplannable
from shared.screen import ROLE_LINK, ROLE_TEXTBOX, UIElement

_FIRST = re.compile(r"^(?:the\s+)?(?P<n>first|top|1st|second|2nd|third|3rd)\s+(?:search\s+)?(?:result|hit|match|"
                    r"entry|link|page|one)(?:\s+(?:found|listed|shown|in\s+the\s+results))?$", re.I)
_ONLY = re.compile(r"^(?:the\s+)?(?:only\s+|single\s+)?(?:search\s+)?(?:result|hit|match)(?:\s+(?:found|listed|shown))?$",
                   re.I)
# "the page it's on", "the page "QA-1409" is on", "the article that mentions it", "the one containing X"
_HOLDING = re.compile(r"^(?:the\s+)?(?:page|article|entry|document|doc|post|note|record|one|result|item)\s+"
                      r"(?:(?P<a>.+?)\s+(?:is|was|appears|shows\s+up)\s+(?:on|in)|(?:it['’]s|it\s+is)\s+(?:on|in)|"
                      r"(?:that|which)\s+(?:mentions|contains|has|lists|says|shows)\s+(?P<b>.+)|"
                      r"(?:mentioning|containing|with)\s+(?P<c>.+))$", re.I)
_SEARCH_URL = re.compile(r"(?<![a-z])search|[?&](?:q|query|s|term|keyword|keywords)=", re.I)
_NONE_FOUND = re.compile(r"\bno\s+(?:results?|matches|match|hits|pages?|items?)\b|\bnothing\s+(?:found|matched)\b|"
                         r"\b0\s+(?:results?|matches|hits)\b|\bdid\s+not\s+match\b", re.I)
_PAGING = re.compile(r"\b(?:footer|pagination|pager|paging)\b", re.I)
_PAGING_LINK = re.compile(r"\d{1,3}|next|previous|prev|older|newer|[«»‹›<>]+|first|last|next\s+page|previous\s+page", re.I)
_ADDRESS = re.compile(r"://|^www\.|^[\w-]+(?:\.[\w-]+)+/", re.I)
_FOUND_LINE = re.compile(r"\b(?:results?|match(?:es|ed)?|found|hits?)\b", re.I)
_NTH = {"first": 0, "top": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}


def _search_box(e: UIElement) -> bool:
    return e.role == ROLE_TEXTBOX and "search" in f"{e.name} {e.placeholder} {e.hint}".lower()


def result_links(st: State) -> list[UIElement]:
    """The links of the results the screen shows, in order: after the line that says what was found, else after
    the search box; never the page's navigation nor the search form's own controls."""
    assert st.live is not None
    els = [e for e in st.live.elements if not e.hidden]
    if not (_SEARCH_URL.search(st.live.url or "") or any(_search_box(e) and e.value.strip() for e in els)):
        return []   # a report's "(5 matches)" heads no search results
    if any(e.role in ("heading", "text") and _NONE_FOUND.search(e.label) for e in els):
        return []   # "No results found for kubernetes": its "Create the page" link is no result
    start = next((i for i, e in enumerate(els) if e.role in ("heading", "text") and _FOUND_LINE.search(e.label)
                  and len(e.label.split()) <= 8), None)
    if start is None:
        start = next((i for i, e in enumerate(els) if _search_box(e)), None)
    if start is None:
        return []
    form = els[start].container
    found: list[UIElement] = []
    for e in els[start + 1:]:
        if _PAGING.search(e.hint) or e.role == ROLE_LINK and _PAGING_LINK.fullmatch((e.name or e.text).strip()):
            break   # the pages of results, the footer: what follows is no result
        if e.role != ROLE_LINK or not (e.name or e.text) or not e.href or e.href.startswith(("#", "javascript:")) \
                or form and e.container == form or "nav" in e.hint.split() \
                or grounding.leaves_the_app(st.live.url, e.href) or _ADDRESS.search(e.name or e.text):
            continue
        if found and _one_result(els, found[-1], e):
            continue   # a result's second link (its cached copy, its address): the result is its first
        found.append(e)
    return found


def _one_result(els: list[UIElement], before: UIElement, link: UIElement) -> bool:
    """*link* belongs to the result *before* heads: nothing but links lie between them, or they share a row."""
    if before.container and before.container == link.container:
        return True
    at, to = next(i for i, e in enumerate(els) if e is before), next(i for i, e in enumerate(els) if e is link)
    return all(e.role == ROLE_LINK for e in els[at + 1:to])


def _says(st: State, link: UIElement, what: str) -> bool:
    """The result *link* says *what*: in its own name, its row, or the text right after it."""
    assert st.live is not None
    els = list(st.live.elements)
    at = next((i for i, e in enumerate(els) if e is link), -1)
    after: list[str] = []
    for e in els[at + 1:at + 4]:
        if e.role == ROLE_LINK:
            break   # the next result's
        after.append(e.label)
    beside = [link.label, link.container] + after
    return any(what.casefold() in t.casefold() for t in beside if t)


def open_result_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.OPEN or st.live is None:
        return False
    said = c.rest.strip().rstrip(".!")
    first, only, holding = _FIRST.match(said), _ONLY.match(said), _HOLDING.match(said)
    if not (first or only or holding):
        return False
    links = result_links(st)
    if not links:
        return False   # results of another kind (a TV's tiles, a tree's own result screen): the other intents
    if first:
        nth = _NTH[first.group("n").lower()]
        if len(links) <= nth:
            raise Unplannable(f"there is no {first.group('n')} result here", said)
        chosen = links[nth]
    elif only:
        if len(links) != 1:
            raise Unplannable(f"{len(links)} results are shown: say which one to open", said)
        chosen = links[0]
    else:
        what = quoted(holding.group("a") or holding.group("b") or holding.group("c") or "") or \
            (holding.group("a") or holding.group("b") or holding.group("c") or "").strip()
        if re.fullmatch(r"it|that|this|them", what, re.I) or not what:
            # "it": what was named last, else what the search box holds (what was searched for)
            what = st.last_object or next((e.value for e in st.live.elements if _search_box(e) and e.value), "")
        saying = [e for e in links if what and _says(st, e, what)]
        # the only result, where what it should say is what was searched for (its text may show only a part)
        searched = any(e.role == ROLE_TEXTBOX and e.value.strip().casefold() == what.casefold() for e in st.live.elements)
        chosen = saying[0] if saying else links[0] if len(links) == 1 and searched else None
        if chosen is None:
            raise Unplannable(f"no result shown says {what!r}" if what else "say which result to open", said)
    from server.planners.intents_act import _click_live_and_expect

    _click_live_and_expect(st, grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, chosen.label, live=chosen),
                           asked=chosen.label)   # the page it opens, proved by its name as links to pages are
    st.last_object = chosen.label
    return True

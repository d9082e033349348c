"""Searching: "search for urllib", "look up the product lamp", "find Dune in the books".

A search box is found on the live screen (by its label, placeholder or the
button beside it), on a screen of the tree that searches, or through the
site's own search; the query is typed replacing what the box held, and the
run checks the results are for that query (a list searched for a record
proves the record is shown). A search that answers as it is typed is judged by
what it found, once it has run (closed loop).
"""
from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target
from server.planners.intents_form import type_into
from server.planners.language import Act, Clause, clean, quoted, read_clause, words
from server.planners.list_search import record_shaped, search_in_list, seek_record
from server.planners.matching import nodes_with_keyword, stems
from server.planners.site_search import box_before_search_button
from server.planners.state import Defer, State, Unplannable
from shared.models import NodeInfo
from shared.screen import ROLE_BUTTON, ROLE_COMBOBOX, ROLE_LINK, ROLE_TEXTBOX


_SEARCH_WORDS = ["search", "find", "filter", "query", "lookup", "look up", "q"]
_NOT_SCOPE = stems("search find look up for seek query by in on of the a an and please use using with via through "
                   "screen page field box bar")


def _search_screen(screens: list[NodeInfo], text: str, query: str, st: State) -> NodeInfo:
    """The one of several searchable screens the task means: the one its other words name ("look up the
    product 'lamp'" → the products list), else the one shown now; several with nothing to tell them apart
    are refused rather than guessed."""
    if len(screens) == 1:
        return screens[0]
    scope = stems(text) - stems(query) - _NOT_SCOPE
    scored = [(len(scope & stems(n.label)), n) for n in screens]
    best = max(score for score, _ in scored)
    top = [n for score, n in scored if score == best]
    if len(top) == 1:
        return top[0]
    here = next((n for n in top if n.id == st.node), None)
    if here is not None:
        return here
    raise Unplannable(f"several screens can search ({', '.join(n.label for n in top[:6])}); "
                      "say which one", "search")


# a box for entering something, not for looking things up: typing a query there adds or changes a record
_ENTRY_BOX = re.compile(r"\b(?:url|link|address|e-?mail|name|title|password|user(?:name)?|comment|message|note|"
                        r"amount|price|date|phone|add|new|create|enter)\b", re.I)


def _home_link(st: State) -> Target | None:
    """The link to the app's home page ("Home", or the site's name linking to "/"), unless it is shown."""
    if st.live is None or not st.open_world or not st.live.url:
        return None
    here = urlsplit(st.live.url)
    if here.path in ("", "/"):
        return None
    links = [e for e in st.live.elements if e.role == ROLE_LINK and not e.hidden and e.href
             and not grounding.stays_on_page(e.href)]
    if any(urlsplit(urljoin(st.live.url, e.href)).path == here.path for e in links[:2]):
        return None   # the site's own name at the top links here: this is the app's home ("/" is another site)
    for e in st.live.elements:
        if e.role != ROLE_LINK or e.hidden or not e.href:
            continue
        to = urlsplit(urljoin(st.live.url, e.href))
        if to.netloc == here.netloc and to.path in ("", "/") and not to.query and not to.fragment \
                or re.fullmatch(r"\W*(?:home|home page|start|dashboard)\W*", e.name or e.text or "", re.I):
            if to.path != here.path:
                return Target(grounding.TargetKind.LIVE_ELEMENT, 0.8, e.label, live=e)
    return None


def _found_on_page(c: Clause, st: State, query: str) -> bool:
    """"find the status NOT_FOUND" on the page that lists it (not "search for …"): its own anchor there, followed
    (the page scrolls to it), else the name proved shown. Only for a name some element of the page is called whole."""
    from server.planners.site_search import without_leading_kind

    if st.live is None or st.moved or not re.match(r"^(?:find|locate|spot|seek)\b", c.text.strip(), re.I) \
            or re.match(r"^\w+\s+(?:for|up)\b", c.text.strip(), re.I):
        return False
    name = grounding.norm(without_leading_kind(st, query))
    named = [e for e in st.live.elements if not e.hidden and grounding.norm(e.name or e.text) == name]
    if not named:
        return False
    anchor = next((e for e in named if e.role == ROLE_LINK and e.href.startswith("#")), None)
    if anchor is None:
        return False   # a record a list shows: the app's search is what "find" exercises there
    st.click_live(Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, anchor.label, live=anchor),
                  f"Go to {anchor.label!r} on this page")
    st.prove(lambda: checks.text_shown(st.ctx, named[0].name or named[0].text, True))
    st.last_object = named[0].name or named[0].text
    return True


def search_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.SEARCH:
        return False
    inside = re.match(r"^(?:through\s+|in\s+|within\s+)?(?:the\s+|my\s+|our\s+|all\s+)?[a-z][\w -]{1,40}?\s+for\s+"
                      r"(?P<q>\S.*)$", c.rest.strip(), re.I)
    if inside and not re.match(r"^(?:for|up)\b", c.rest.strip(), re.I):
        query = quoted(inside.group("q")) or clean(inside.group("q"))   # "search the watch list for nginx"
    else:
        query = quoted(c.rest) or clean(re.sub(r"^(?:for|up)\s+", "", c.rest, flags=re.I))
    query = re.sub(r"\s+(?:in|on|using|with|via|through|by)\s+(?:the\s+)?search(?:\s+\w+)?$", "", query, flags=re.I)
    query = re.sub(r"^(?:the\s+)?(?:programme|program|movie|film|show|channel|title|item|product|book|entry)\s+(?=[A-Z\d\"'])",
                   "", query)
    if not query:
        raise Unplannable("nothing to search for")
    if _found_on_page(c, st, query):
        return True
    scoped = search_in_list(st, query)
    if scoped is True:
        return True
    query = scoped or query
    screens = nodes_with_keyword("search", st.ctx)
    field = None
    beside = None
    if st.live is not None:
        found = [t for w in _SEARCH_WORDS for t in grounding.fields(w, st.live, minimum=0.75)
                 if t.live.role == ROLE_TEXTBOX]
        field = found[0] if found else None
        if field is None:
            boxes = grounding.textboxes(st.live)
            if len(boxes) == 1 and not _ENTRY_BOX.search(" ".join((boxes[0].name, boxes[0].placeholder,
                                                                                 boxes[0].hint))):
                field = Target(grounding.TargetKind.LIVE_ELEMENT, 0.7, boxes[0].label, live=boxes[0])
        if field is None:   # a free-text filter the app draws as a combobox ("Filter by tag, payee, …")
            typed = [e for e in st.live.elements if e.role == ROLE_COMBOBOX and not e.hidden and not e.disabled
                     and not e.options and re.search(r"\b(?:search|filter)", " ".join((e.name, e.placeholder)), re.I)]
            if len(typed) == 1:
                field = Target(grounding.TargetKind.LIVE_ELEMENT, 0.7, typed[0].label, live=typed[0])
        beside = box_before_search_button(st) if field is None else None
        if beside is not None and beside.selector:
            # pydoc's "key" field of the form whose button says Search: no name of its own, named by selector
            field = Target(grounding.TargetKind.LIVE_ELEMENT, 0.7, beside.label, live=beside)
    if field is None and st.moved and st.open_world:
        raise Defer("search")     # a step before led to a screen the tree may not know: search the one shown then
    if field is None and screens:
        node = _search_screen(screens, c.text, query, st)
        st.goto(node)
        field_el = next((e for e in node.elements if not e.many and
                         set(words(e.name)) & {"field", "input", "box", "search"}), None)
        type_into(st, query, None, selector=field_el.selector if field_el is not None else "")
        st.node = node.id
    elif field is not None:
        if beside is not None:
            type_into(st, query, None, selector=beside.selector, submit=True)
        else:
            as_typed = st.open_world and field.live is not None and _answers_as_typed(st) \
                and not any(read_clause(t).act is Act.CHECK for t in st.later)
            type_into(st, query, field, submit=True)
            if as_typed:
                # a search that answers as it is typed may list what it found without the word sought ("3
                # matches": Pancakes, Shopping List): the check is planned on what it shows
                st.summary.append(f"search {query!r}")
                st.last_object = query
                raise Defer(query, replace_with=[results_clause(query)])
    else:
        if st.moved:
            raise Defer("search")
        opener = next((e for e in st.live.elements if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.disabled
                       and not e.hidden and words(e.name or e.text)[:1] in (["search"], ["find"])), None) \
            if st.live is not None else None
        if opener is not None:   # a "Search" (or "Find Files") button that shows the search box
            st.click_live(Target(grounding.TargetKind.LIVE_ELEMENT, 0.8, opener.label, live=opener),
                          f"Click {opener.label!r} to show the search box")
            raise Defer("search", replace_with=[c.text])
        if st.open_world and record_shaped(query) and seek_record(st, query, f'check that "{query}" is shown'):
            return True   # "look up Emma Schmidt" in an app with no search: the lists that could show her
        home = _home_link(st)
        if home is not None:   # a list with no search of its own: the app's home page often has the search
            st.click_live(home, f"Open {home.label!r} to find the search")
            raise Defer("search", replace_with=[c.text])
        if st.open_world and seek_record(st, query, f'check that "{query}" is shown'):
            return True   # no search anywhere in sight: the app's lists, one after the other
        raise Unplannable("this device has no search screen or search field", "search")
    st.summary.append(f"search {query!r}")
    st.last_object = query
    try:
        st.expect_check(checks.text_shown(st.ctx, query) if field is not None else None)
    except CannotCheck:
        st.expect_check(None)
    return True


_SENDS_SEARCH = re.compile(r"\W*(?:search|go|find|submit|ok)\W*", re.I)
_RESULTS = re.compile(r'^check the search for "(?P<q>[^"]+)" found it$')
# "3 matches", "12 results", "Title matches: 2": how many a search found, said by the app
_FOUND = re.compile(r"\W*(?:[1-9]\d*\s+(?:matches|match|results?|hits?|items?\s+found|records?\s+found)|"
                    r"(?:title\s+|all\s+)?(?:matches|results?)\s*:\s*[1-9]\d*)\W*", re.I)   # the whole text, nothing else


def _answers_as_typed(st: State) -> bool:
    """The screen's search has no button to send it: it answers as it is typed."""
    assert st.live is not None
    return not any(e.role == ROLE_BUTTON and _SENDS_SEARCH.fullmatch(e.name or e.text or "") for e in st.live.elements)


def results_clause(query: str) -> str:
    return f'check the search for "{query}" found it'


def search_results_intent(c: Clause, st: State) -> bool:
    """The closed loop's own clause, after a search that answers as it is typed: the word sought shown as text
    (never only in the box that holds it), else the app's own count of what it found, with the box holding the
    word sought. With neither, the text check fails: a search that found nothing, or found it for another word,
    never passes."""
    m = _RESULTS.match(c.text.strip())
    if m is None:
        return False
    query = m.group("q")
    if st.screen is not None and st.steps:
        raise Defer(query)
    try:
        if st.live is None or any(query.casefold() in (e.name or e.text or "").casefold()
                                  for e in st.live.elements if not e.hidden and e.role != ROLE_TEXTBOX):
            st.check(checks.text_shown(st.ctx, query))
            return True
        box = next((e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and e.selector
                    and (e.value or "").strip().casefold() == query.casefold()), None)
        found = next((e for e in st.live.elements if not e.hidden and e.role != ROLE_TEXTBOX
                      and _FOUND.fullmatch(e.name or e.text or "")), None)
        if box is None or found is None:
            st.check(checks.text_shown(st.ctx, query))
            return True
        said = (found.name or found.text).strip()
        st.check(checks.element(st.ctx, selector=box.selector, text=query,
                                description=f"Check the search box holds {query!r}"))
        st.check(checks.element(st.ctx, text=said, exact=True, description=f"Check the search says {said!r}"))
    except CannotCheck:
        st.expect_check(None)
    return True

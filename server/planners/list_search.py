"""Finding a web app's lists and records when the task names none: the list search of the closed loop.

"change Bob Chen's city to Chicago" on a home page that shows no Bob Chen: look through the app's
lists, the likeliest first, one per round, until a list shows him (:func:`seek_record`,
:func:`seek_intent`); and a list whose records sit behind a tab ("Content", "Browse") is opened
there (:func:`open_contents`, :func:`records_tab_intent`).
"""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, urljoin, urlsplit

from server.planners import checks, grounding, records, site_search
from server.planners.language import Clause, clean, quoted, words
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_BUTTON, ROLE_LINK, UIElement

_RECORD_NAME = re.compile(r"""^(?:["'“].+|(?:the\s+)?[A-Z0-9][\w'’.-]*(?:\s+(?:[A-Z0-9][\w'’.-]*|of|and|de|du|da|van|von|der|
                          la|le|the|on|in|for|&))*\s+[A-Z0-9][\w'’.-]*)$""", re.X)


def record_shaped(name: str) -> bool:
    """*name* is shaped like a record's: capitalised words or numbers ("Emma Schmidt", "Order 42"), or quoted."""
    return bool(_RECORD_NAME.match(name))


_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+")


def key_shaped(name: str) -> bool:
    """*name* is written as a record's key: one token of joined words ("batch_size", "etl-pool", "MAX_RETRIES")."""
    return bool(_KEY.fullmatch(name.strip())) and "@" not in name and "://" not in name


_CONTENT_TABS = ("content", "contents", "browse", "data", "rows", "records", "entries", "items", "list")


def open_contents(st: State, then: list[str]) -> bool:
    """On a list's page whose records are behind a tab ("Content", "Browse"): open that tab, then go on."""
    if st.live is None:
        return False
    for w in _CONTENT_TABS:
        found = [t for t in grounding.live_elements(w, st.live, roles=records.NAV_ROLES, minimum=0.95)
                 if not t.live.selected and "active" not in t.live.hint.split()]
        if found:
            st.click_live(found[0], f"Open {found[0].label!r}")
            raise Defer(w, replace_with=then)
    return False


_RECORDS_OF = re.compile(r'^show the records of "(?P<x>[^"]+)"$', re.I)


def records_tab_intent(c: Clause, st: State) -> bool:
    """The closed loop's own clause after opening a list: its records, when they are behind a tab ("Content")."""
    m = _RECORDS_OF.match(c.text.strip())
    if not m:
        return False
    if st.live is None:
        raise Defer(m.group("x"))
    open_contents(st, [])   # raises Defer with nothing left when it clicks the tab
    rows = [e for e in st.live.elements if e.role == "row" and "header-row" not in e.hint.split()] or \
        [e for e in st.live.elements if e.role == "listitem"]
    if not rows:
        raise Unplannable(f"no records of {m.group('x')!r} on the screen", m.group("x"))
    st.check(checks.element(st.ctx, role=rows[0].role, description=f"Check the records of {m.group('x')!r} are shown"))
    st.explicit_check_last = True
    return True


_NOT_LISTS = {"add", "change", "edit", "delete", "view", "site", "source", "password", "log", "logout", "login", "home", "help",
              "docs", "documentation", "download", "export", "import", "query", "structure", "insert", "drop",
              "toggle", "skip", "sort", "sorting", "theme", "navigation", "history", "filter", "search", "show",
              "counts", "select", "remove", "rename", "new", "create", "copy", "json", "all", "yes", "no",
              "preview", "print", "share", "upload", "duplicate", "publish", "restart", "stop", "start", "refresh",
              "reset", "kill", "run", "shutdown", "reload", "clear", "sign", "signout", "archive", "unarchive", "pause",
              "resume", "approve", "reject", "close", "reopen", "enable", "disable", "activate", "deactivate", "trigger",
              "cancel", "retry", "mute", "unmute", "stop", "start", "restore", "merge", "lock", "unlock"}
_FINDING = frozenset({"search", "find", "browse", "all"})
# words that say a link shows something without naming it: "View Tickets" is the tickets list, "View all" no list
_VIEWING = {"view", "show", "browse", "list", "all", "my"}
MAX_LISTS_SEARCHED = 8
_SEEK = re.compile(r'^look through the lists for "(?P<x>[^"]+)"(?: about "(?P<about>[^"]*)")?'
                   r'(?: except (?P<tried>.+))?$', re.I)


def _seek_clause(name: str, about: str, tried: set[str]) -> str:
    """The closed loop's clause that goes on looking for *name* (:data:`_SEEK` reads it back)."""
    return f'look through the lists for "{name}" about "{about}" except ' + ", ".join(f'"{t}"' for t in sorted(tried))


# the query keys of a view of a page: its order, filter, search or page of results; any other key names what
# the page shows ("edit?path=/menu", "index.php?title=Main_Page")
_VIEW_KEYS = frozenset({"sort", "order", "order_by", "orderby", "o", "ot", "dir", "desc", "asc", "filter", "q",
                        "query", "search", "s", "page", "p", "per_page", "limit", "offset", "start", "view", "tab",
                        "_sort", "_sort_desc", "_next", "_size", "status", "display"})


def same_page(href: str, url: str) -> bool:
    """*href* leads to the page shown, or to a view of it (another sort order, filter or anchor)."""
    a, b = urlsplit(urljoin(url, href)), urlsplit(url)
    if (a.scheme, a.netloc, a.path.rstrip("/")) != (b.scheme, b.netloc, b.path.rstrip("/")):
        return False
    qa, qb = dict(parse_qsl(a.query)), dict(parse_qsl(b.query))
    return all(qa.get(k) == qb.get(k) for k in (qa.keys() | qb.keys()) - _VIEW_KEYS)


def _names_kind(ws: set[str], kinds: set[str]) -> bool:
    """"Search Test Cases" for a task about a "… test case": every word of the link's but its finding words."""
    own = {_bare(w) for w in ws - _FINDING}
    return bool(own) and own <= kinds


def _bare(word: str) -> str:
    """"cases", "case" → "cas": a word and its plural alike."""
    return word.lower().rstrip("s").rstrip("e") if len(word) > 3 else word.lower()


def _stem(word: str) -> str:
    return re.sub(r"(?:ies|es|s)$", "", word) if len(word) > 3 else word


def _list_links(st: State, tried: set[str], about: str = "", name: str = "") -> list[UIElement]:
    """Links that look like the app's lists, the likeliest first: short names, inside the app, not actions,
    not this page or a view of it, not tried yet. A link whose name shares a word with *about* (the task's
    words: "the member Paula Reyes" → members) comes first, then plural names (lists are named in the plural)."""
    if st.live is None:
        return []
    out = []
    hints = {_stem(w) for w in words(about)}
    # the words of the task, and the last word of the record's name, often its kind ("… test case", "… job")
    longest = max(_alternatives(name), key=len, default="").split()
    kinds = {_bare(w) for w in words(about)} | {_bare(w) for w in longest[-2:] if w.islower()}
    for el in st.live.elements:
        name = (el.name or el.text).strip()
        ws = set(words(name)) - _VIEWING
        # a menu's "Search Test Cases" (shown on hover) is where test cases are listed, for a task about a case
        menu_list = _names_kind(ws, kinds) \
            and not (ws - _FINDING) & _NOT_LISTS \
            and el.role == ROLE_LINK
        if not _navigates(el) or (el.hidden or ws & _NOT_LISTS) and not menu_list or not name or len(ws) > 3 or not ws:
            continue
        if el.href.startswith(("http://", "https://")) and st.live.url and \
                el.href.split("/")[2:3] != st.live.url.split("/")[2:3]:
            continue
        if re.search(r"[?&](?:action|do|cmd|op)=", el.href, re.I):
            continue   # a link that does something ("?action=stopall"), not a list to look in
        if el.href.startswith("#") and not _routed(el.href) or not el.href or name.lower() in tried or el.selected \
                or "active" in el.hint.split():   # "#/active" is a view of this page, not another list
            continue
        if st.live.url and same_page(el.href, st.live.url) and not (
                _routed(el.href) and urlsplit(st.live.url).fragment.rstrip("/") != el.href[1:].rstrip("/")):
            continue
        if any(o.name == name for o in out):
            continue
        out.append(el)

    def rank(el: UIElement) -> tuple[int, int]:
        ws = [w for w in words(el.name or el.text) if w not in _VIEWING]
        related = bool(hints & {_stem(w) for w in ws}) or _names_kind(set(ws), kinds)
        plural = len(ws) == 1 and ws[0].endswith("s") and not (el.name or el.text).isupper()
        group = 0 if related else 1 if plural else 2
        # among the rest, a list sits nearer the app's root than a record ("/work-pools" before
        # "/work-pools/work-pool/etl-pool")
        return group, _depth(el.href) if group == 2 else 0

    return sorted(out, key=rank)   # stable: page order among equals


def _routed(href: str) -> bool:
    """A single-page app's route to another page ("#/buckets/lab/collections/devices/records"), not a view of the
    page shown ("#/active") nor an anchor in it ("#usage"): a path of two parts or more after "#/"."""
    return href.startswith("#/") and len([p for p in href[2:].split("?")[0].split("/") if p]) >= 2


def _navigates(el: UIElement) -> bool:
    """A link, or a control drawn as a button that carries an address (``<a role="button" href="/variables">``, a
    sidebar's items): both lead to another page."""
    return el.role == ROLE_LINK or el.role == ROLE_BUTTON and bool(el.href.strip("#")) \
        and not el.href.lower().startswith("javascript:")


def _depth(href: str) -> int:
    """How many parts the address's path has: "/variables" 1, "/work-pools/work-pool/etl-pool" 3."""
    return len([p for p in urlsplit(href).path.split("/") if p])


def _about(name: str, then: str) -> str:
    """The words of *then* other than the record's own name and common words: hints of which list holds it."""
    own = set(words(name)) | _CONNECTIVES
    text = re.sub(r"""\S+@\S+|https?://\S+|["“][^"”]*["”]|\s(?:to|as|=)\s.*$""", " ", then)   # values, not hints
    return " ".join(w for w in words(text) if w not in own and len(w) > 2)


_CONNECTIVES = {"and", "then", "the", "with", "from", "that", "this", "for", "into", "its", "her", "his", "their",
                "check", "verify", "listed", "shown", "there", "please", "make", "sure", "ensure", "confirm",
                "see", "open", "find", "look"}


def _alternatives(name: str) -> list[str]:
    """The names sought: one, or several a clause may mean ("rye loaf description|rye loaf", longest first)."""
    return [n for n in name.split("|") if n]


def _said(name: str) -> str:
    return " or ".join(_alternatives(name))


def _searched_name(name: str) -> str:
    """Of several names, the one the app's search is asked for: the shortest of four letters or more."""
    alts = _alternatives(name)
    return min((n for n in alts if len(n) >= 4), key=len, default=alts[0]) if alts else name


def seek_record(st: State, name: str, then: str) -> bool:
    """*name* is on no screen seen yet and the task names no list: look through the app's lists for it (any of
    its alternatives, "|" between them)."""
    if st.live is None or any(grounding.rows(n, st.live, minimum=0.8) for n in _alternatives(name)):
        return False   # it is right here: another list would show it with no more ways to act on it (a loop)
    said_name = name
    name = "|".join(site_search.without_kind(st, n) for n in _alternatives(name))   # "the Project Ideas tiddler"
    if any(grounding.rows(n, st.live, minimum=0.8) for n in _alternatives(name)):
        return False
    # the parts of a name written as a key hint at its list too ("gpu-pool": the work pools)
    about = " ".join([_about(name, then)] + [w for n in _alternatives(name) if key_shaped(n)
                                              for w in re.split(r"[-_.]", n.lower()) if len(w) > 2]).strip()
    if _search_site(st, name, about, set(), then):
        return True
    _next_page(st, name, about, set(), then)
    links = _list_links(st, set(), about, said_name)
    if not links:
        return False
    first = links[0]
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, first.name, live=first),
                  f"Look for {_said(name)!r} in {first.name!r}")
    raise Defer(name, replace_with=[_seek_clause(name, about, {first.name.lower()}), then])


_SEARCHED = "the app's search"
MAX_PAGES_SEARCHED = 5   # pages of one list looked through for a record, the first included


def _next_page(st: State, name: str, about: str, tried: set[str], then: str | None) -> None:
    """The list shown has more pages: the next one, before any other list (a record past the first page)."""
    nxt = records.more_pages(st)
    pages = sum(1 for t in tried if t.startswith("page "))
    if nxt is None or pages + 1 >= MAX_PAGES_SEARCHED:
        return
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, nxt.label, live=nxt),
                  f"Look for {_said(name)!r} on the next page")
    tried = tried | {f"page {pages + 2}"}
    raise Defer(name, replace_with=[_seek_clause(name, about, tried)] + ([then] if then else []))


def _search_site(st: State, name: str, about: str, tried: set[str], then: str | None) -> bool:
    """The app's own search, once, before its lists: it finds a record by name wherever it is listed."""
    if _SEARCHED in tried:
        return False
    box = site_search.site_search_box(st)
    if box is None:
        return False
    site_search.search_for(st, _searched_name(name), box)
    tried = tried | {_SEARCHED}
    raise Defer(name, replace_with=[_seek_clause(name, about, tried)] + ([then] if then else []))


def _a_control_named(st: State, name: str) -> bool:
    """A field, switch or button of the screen is *name* ("Email alerts"): what was looked for is a setting here."""
    assert st.live is not None
    return any(t.live is not None and t.live.role not in ("text", "heading", "cell", "row", "listitem")
               for t in grounding.live_elements(name, st.live, minimum=0.9))


def _own_page(st: State, name: str) -> bool:
    """The screen is *name*'s own page: a heading says every word of it ("Ticket #5 — Guide scrolls slowly")."""
    assert st.live is not None
    want = set(words(name))
    return bool(want) and any(want <= set(words(h.label)) for h in st.live.headings())


def result_link(st: State, name: str) -> UIElement | None:
    """On the app's search results: the one result whose link says every word of *name*
    ("#5: defect: Guide scrolls slowly (closed: fixed)")."""
    if st.live is None or not re.search(r"search|[?&]q=", st.live.url or "", re.I):
        return None
    want = set(words(name))
    found = [e for e in st.live.elements if e.role == ROLE_LINK and not e.hidden and e.href
             and not grounding.stays_on_page(e.href) and want <= set(words(e.name or e.text))]
    return found[0] if want and len({e.href for e in found}) == 1 else None


def _open_result(st: State, name: str) -> bool:
    found = result_link(st, name)
    if found is None:
        return False
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, found.label, live=found),
                  f"Open the result {found.label!r}")
    return True


def seek_intent(c: Clause, st: State) -> bool:
    """The closed loop of :func:`seek_record`: found here, or on to the next list (bounded)."""
    m = _SEEK.match(c.text.strip())
    if not m:
        return False
    if st.live is None:
        raise Defer("the lists")
    name, about = m.group("x"), m.group("about") or ""
    tried = {t.lower() for t in re.findall(r'"([^"]+)"', m.group("tried") or "")}
    if any(grounding.rows(n, st.live, minimum=0.8) or records.record_link(st, n) is not None
           or _own_page(st, n) or _a_control_named(st, n) for n in _alternatives(name)):
        st.expect_check(None)
        return True   # here it is: the clause after this one acts on it
    if _SEARCHED in tried and any(_open_result(st, n) for n in _alternatives(name)):
        raise Defer(name, replace_with=[_seek_clause(name, about, tried)])   # found on its own page, next round
    if "contents" not in tried:
        try:
            open_contents(st, [])
        except Defer:
            raise Defer(name, replace_with=[_seek_clause(name, about, tried | {"contents"})])
    _search_site(st, name, about, tried, None)
    _next_page(st, name, about, tried, None)
    links = _list_links(st, tried, about, name)
    looked = sorted(t for t in tried if t != "contents" and not _BACK.fullmatch(t))
    if len(tried - {"contents"}) >= MAX_LISTS_SEARCHED:
        raise Unplannable(f"{_said(name)!r} is in none of the lists looked through ({', '.join(looked)})", name)
    if not links:
        if not _list_links(st, set(), about):   # a dead end (a record's page), not a page of lists all looked in
            _back_out(st, name, about, tried, looked)
        raise Unplannable(f"{_said(name)!r} is in none of the lists looked through ({', '.join(looked)})", name)
    nxt = links[0]
    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, nxt.name, live=nxt),
                  f"Look for {_said(name)!r} in {nxt.name!r}")
    raise Defer(name, replace_with=[_seek_clause(name, about, (tried - {"contents"}) | {nxt.name.lower()})])


_BACK = re.compile(r"back \d+")


def _back_out(st: State, name: str, about: str, tried: set[str], looked: list[str]) -> None:
    """A list with no other lists to look in (a record's own page, a preview): back to the page it was opened
    from, whose other lists are looked through next. Never further back than the lists opened."""
    backs = sum(1 for t in tried if _BACK.fullmatch(t))
    opened = sum(1 for t in looked if t != _SEARCHED and not t.startswith("page "))
    if backs >= opened or not st.has(V.GO_BACK):
        return
    st.add(V.GO_BACK, {}, f"Back from a list without {_said(name)!r}", moves=True)
    raise Defer(name, replace_with=[_seek_clause(name, about, tried | {f"back {backs + 1}"})])


def go_to_list(st: State, noun: str, then: list[str]) -> bool:
    """Open the list of *noun* ("customer" → the Customers link), then plan *then* on it."""
    link = records.entity_link(st, noun)
    if link is None or on_list_of(st, noun) and not addressed_elsewhere(st, link, noun):
        return open_contents(st, then)
    st.click_live(link, f"Open {link.label!r}")
    raise Defer(noun, replace_with=then)


def addressed_elsewhere(st: State, link: grounding.Target, noun: str) -> bool:
    """The link's address names *noun* and this page's does not: "Recent Experiments" on the home page is a part of
    the list that "#/experiments" is."""
    said = [w.rstrip("s") for w in words(noun)]

    def names(url: str) -> bool:   # "/work-pools" names a work pool
        parts = urlsplit(url)
        ws = [w.rstrip("s") for w in re.split(r"[^a-z0-9]+", (parts.path + " " + parts.fragment).lower())]
        return any(ws[i:i + len(said)] == said for i in range(len(ws)))
    bare = [w.rstrip("s") for w in words(link.label)] == said   # "Experiments", not "Archived tasks"
    return st.live is not None and link.live is not None and bool(link.live.href) and bare \
        and names(urljoin(st.live.url, link.live.href)) and not names(st.live.url)


_SEARCH_KEYS = frozenset({"q", "query", "search", "s", "term", "keyword", "keywords", "filter", "tag"})


def on_list_of(st: State, noun: str) -> bool:
    if st.live is None:
        return False
    # the address's path and what it searched for ("?q=beta"), not the rest of its query: "?processname=mail-relay
    # &action=stop" names a record and an action, not what the page lists
    url = urlsplit(st.live.url)
    searched = [v for k, v in parse_qsl(url.query) if k.lower() in _SEARCH_KEYS]
    texts = [st.live.title, url.path, *searched] + [h.label for h in st.live.headings()] + \
        [e.label for e in st.live.elements if e.role == "tab" and e.selected is True]   # the tab shown: "Stock"
    return any(grounding.similarity(noun, t) >= 0.6 or noun.lower() in t.lower() for t in texts if t)


_LIST_FIRST = re.compile(r"^(?:all\s+|any\s+)?(?:the\s+)?(?P<noun>[a-z][a-z ]{2,30}?)\s+(?:from|in|at|with|named|called|"
                         r"matching|containing|about)\s+(?P<v>\S.*)$")
_VALUE_FIRST = re.compile(r"^(?P<v>\S.*?)\s+(?:in|among|within|through)\s+(?:the\s+|all\s+(?:the\s+)?)?(?P<noun>[a-z][a-z ]{2,30})$")


def search_in_list(st: State, query: str) -> str | bool:
    """"look up the customers from Lyon", "search Lyon in the customers": the list's own search, for the value.
    True when the list was opened first (the search is planned on it), the value when the list is shown, ""
    when the query names no list."""
    if st.live is None:
        return ""
    for m in (_LIST_FIRST.match(query), _VALUE_FIRST.match(query)):
        if m is None:
            continue
        noun, value = m.group("noun").strip(), quoted(m.group("v")) or clean(m.group("v"))
        if on_list_of(st, noun):
            return value
        link = records.entity_link(st, noun)
        if link is not None:
            st.click_live(link, f"Open {link.label!r}")
            raise Defer(noun, replace_with=[f'search for "{value}"'])
    return ""

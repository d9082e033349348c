"""A record named by its number: "ticket 2", "issue #14", "order no. 7", "#3".

Trackers, shops and admin sites name their records by number, and testers do
too. The number is the record's identity, not a position ("the 2nd ticket") and
not a word to match loosely: "ticket 2" is never the report "{2} Active
Tickets". The record is opened by its own link on the screen (its text is the
number, or its address ends with the kind and the number); when the screen has
no link to it but links to other records of that kind, their address pattern
gives its address ("/ticket/1" → "/ticket/5").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.state import Defer, State
from shared import vocabulary as V
from shared.screen import CLICKABLE_ROLES, ROLE_LINK, ROLE_TEXTBOX, UIElement

# the kind and its number, apart or run together ("ticket 2", "issue #14", "order no. 7", "issue3"); run together,
# a name the screen shows whole ("sqlite3") is that name (see :func:`named_whole`)
_REF = re.compile(r"^(?:the\s+)?(?:(?P<noun>[a-z][a-z-]{1,30})(?:\s*#\s*|\s+no\.?\s*|\s+nr\.?\s*|\s+number\s+|\s*)|#\s*)"
                  r"(?P<id>\d{1,9})$", re.I)
# nouns whose number is a position in what is shown, not a record's identity
_POSITIONAL = {"row", "item", "line", "entry", "result", "option", "step", "tab", "column", "page", "level",
               "channel", "season", "episode", "slide", "track", "chapter", "number", "no", "top"}
# a record's address: "/ticket/2", "/customers/17/", or its kind and number run together ("issue3", "/user4")
_RECORD_PATH = re.compile(r"(?:/|^)(?P<seg>[A-Za-z][\w-]*)/(?P<id>\d{1,9})(?=[/?#]|$)"
                          r"|(?:/|^)(?P<seg2>[A-Za-z][A-Za-z_-]*?)(?P<id2>\d{1,9})(?=[/?#]|$)")


@dataclass(frozen=True)
class IdRef:
    noun: str    # "" when the tester wrote only "#2"
    id: str

    @property
    def name(self) -> str:
        return f"{self.noun} {self.id}" if self.noun else f"#{self.id}"


def named_whole(st: State, text: str) -> bool:
    """*text* is written run together ("sqlite3") and an element of the screen is called so: a name, no number."""
    said = text.strip()
    return bool(re.fullmatch(r"(?:the\s+)?[a-z][a-z-]*\d+", said, re.I)) and st.live is not None and any(
        grounding.norm(e.name or e.text) == grounding.norm(re.sub(r"^the\s+", "", said, flags=re.I))
        for e in st.live.elements if not e.hidden)


def parse(text: str) -> IdRef | None:
    """The record *text* names by number, or None ("ticket 2" → ticket, 2; "page 2" is a position)."""
    m = _REF.match(text.strip())
    if not m:
        return None
    noun = (m.group("noun") or "").lower()
    if noun in _POSITIONAL or not noun and "#" not in text:
        return None
    return IdRef(noun, m.group("id"))


def _same_kind(segment: str, noun: str) -> bool:
    seg = segment.lower().replace("-", "").replace("_", "")
    stem = noun.replace("-", "").rstrip("s")
    return bool(stem) and (seg.rstrip("s") == stem or seg in (stem + "es", stem[:-1] + "ies"))


_QUERY_ID = re.compile(r"(?:^|&)(?:id|pk|key)=(?P<id>\d{1,9})(?=&|$)")


@dataclass(frozen=True)
class _Path:
    seg: str
    id: str
    path: str
    start: int   # where the number is in *path*
    end: int


def _record_path(href: str) -> _Path | None:
    if not href:
        return None
    parts = urlsplit(href)
    path = parts.path
    m = _RECORD_PATH.search(path)
    if m is None:
        # the number in the query, the kind in the path: "/bookmark/edit/?id=7"
        q = _QUERY_ID.search(parts.query)
        seg = next((w for w in path.split("/") if re.fullmatch(r"[A-Za-z][\w-]*", w)), "")
        if q is None or not seg:
            return None
        full = f"{path}?{parts.query}"
        at = len(path) + 1 + q.start("id")
        return _Path(seg, q.group("id"), full, at, at + len(q.group("id")))
    key = "id" if m.group("id") else "id2"
    return _Path(m.group("seg") or m.group("seg2"), m.group(key), path, m.start(key), m.end(key))


def addresses(href: str, ref: IdRef) -> bool:
    """Whether *href* is the address of the record *ref* ("/ticket/2" for ticket 2, or for "#2")."""
    m = _record_path(href)
    return m is not None and m.id == ref.id and (not ref.noun or _same_kind(m.seg, ref.noun))


def is_record_of(href: str, noun: str) -> bool:
    """Whether *href* is the page of one record of kind *noun* ("/ticket/2" for "ticket")."""
    m = _record_path(href)
    return m is not None and _same_kind(m.seg, noun)


def _names_it(el: UIElement, ref: IdRef) -> bool:
    wanted = {f"#{ref.id}", ref.id}
    if ref.noun:
        wanted |= {f"{ref.noun} {ref.id}", f"{ref.noun} #{ref.id}"}
    return any(" ".join(n.lower().split()) in wanted for n in (el.name, el.text) if n)


_PLAIN_ROLES = frozenset({"cell", "gridcell", "row", "listitem"})


def link(st: State, ref: IdRef) -> UIElement | None:
    """The record's own link on the live screen: named by its number, else addressed by kind and number."""
    if st.live is None:
        return None
    clickable = [e for e in st.live.elements if (e.role in CLICKABLE_ROLES or e.clickable) and not e.disabled]
    named = [e for e in clickable if _names_it(e, ref)]
    addressed = [e for e in clickable if e.role == ROLE_LINK and addresses(e.href, ref)]
    acting = [e for e in named if e.role not in _PLAIN_ROLES or e.clickable]   # a plain cell "3" opens nothing
    found = [e for e in named if e.role == ROLE_LINK] + addressed + acting
    if found:
        return found[0]
    for cell in named:   # the number in a plain cell: the one link of its row (the record's title)
        row_links = [e for e in clickable if e.role == ROLE_LINK and e.container == cell.container and e.href
                     and not grounding.stays_on_page(e.href)]
        if cell.container and len(row_links) == 1:
            return row_links[0]
    return named[0] if named else None


def address(st: State, ref: IdRef) -> str | None:
    """The record's address, from the pattern of the screen's links to other records of its kind."""
    if st.live is None or not ref.noun:
        return None
    # the page shown, when it is another record of the kind ("/tracker/issue3" for issue 4), then its links
    for href in [st.live.url] + [e.href for e in st.live.elements if e.role == ROLE_LINK]:
        m = _record_path(urljoin(st.live.url, href) if st.live.url else href)   # "issue3" is /tracker/issue3
        if m and _same_kind(m.seg, ref.noun):
            return m.path[:m.start] + ref.id + m.path[m.end:]
    return None


def showing(st: State, ref: IdRef) -> bool:
    """Whether the live screen is the record's own page (its address, or a title or heading "#2 …")."""
    if st.live is None:
        return False
    if addresses(st.live.url, ref):
        return True
    mark = re.compile(rf"(?<![\w#])#\s*{ref.id}(?!\d)")
    return any(mark.search(t) for t in [st.live.title] + [h.label for h in st.live.headings()] if t)


def open_record(st: State, ref: IdRef) -> bool:
    """Open the record *ref* names from the live screen; False when the screen gives no way to it."""
    el = link(st, ref)
    shown_as = ref.name
    if el is not None:
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, el.label, live=el), f"Open {ref.name} ({el.label!r})")
        if _names_it(el, ref) and "#" in el.label:
            shown_as = el.label.strip()   # the app's own way to name it ("#4"), which its page shows too
    else:
        url = address(st, ref)
        if url is None or not st.has(V.OPEN_URL):
            return False
        st.add(V.OPEN_URL, {"url": url}, f"Open {ref.name} at {url}", moves=True)
    st.summary.append(f"open {ref.name}")
    st.last_object = ref.name
    try:
        st.expect_check(checks.page(st.ctx, shown_as) if checks.has_check(st.ctx, V.WAIT_FOR_PAGE) else None)
    except CannotCheck:
        st.expect_check(None)
    return True


def reach(st: State, ref: IdRef) -> bool:
    """A step toward the record: open it, else open the list of its kind ("View Tickets") to find it there."""
    if open_record(st, ref):
        return True
    from server.planners import records

    listing = records.entity_link(st, ref.noun) if ref.noun else None
    if listing is None:
        return False
    st.click_live(listing, f"Open {listing.label!r} to find {ref.name}")
    return True


# a name with its kind after it ("the subtitles ticket", "the beta milestone") or before it, quoted
KIND_LAST = re.compile(r"^(?:the\s+)?(?P<x>\S.*?)\s+(?P<k>[a-z]{3,})$")
_KIND_FIRST = re.compile(r"^(?:the\s+)?(?P<k>[a-z]{3,})\s+[\"'“‘](?P<x>[^\"'”’]+)[\"'”’]$")


def on_named_record(st: State, name: str, *, in_fields: bool = False) -> bool:
    """Whether the live screen is the page of the record called *name*: its title or a heading says so
    (with *in_fields*, also a text field's value: the record's edit form)."""
    if st.live is None or not name:
        return False

    heads = [h for h in st.live.headings() if not h.hidden]
    # the headings of a list's cards ("Work", "Family", each in its own card) name its records, not this page
    carded = len({h.container for h in heads if h.container}) > 1
    # (the one heading of the top level over the page's cards is the page's own: "VPN disconnects … #2" over
    # its follow-ups' "Comment" cards)
    top = min((h.level for h in heads if h.level), default=0)
    main = [h for h in heads if h.level == top] if top else []
    own = main[0] if len(main) == 1 and sum(1 for h in heads if h.level and h.level <= top + 1) == 1 else None
    texts = [st.live.title] + [h.label for h in heads if not (carded and h.container) or h is own]
    if in_fields:   # a search box that holds the name is no form of the record (the results of that search)
        texts += [e.value for e in st.live.elements if e.role == ROLE_TEXTBOX and e.value and not grounding.read_only(e)
                  and not re.search(
            r"\b(?:search|q|query|filter|find)\b", " ".join((e.name, e.placeholder, e.hint)), re.I)]
    return any(grounding.similarity(name, t) >= 0.8 or name.lower() in t.lower() for t in texts if t)


def toward(st: State, rec: str) -> bool | None:
    """Where the record *rec* is, from the live screen of a device with no tree: True when this is its page;
    False after planning a step toward it (its link, else the list of its kind); None when there is no way.

    *rec* is a number ("ticket 2") or a name with its kind last ("the subtitles ticket")."""
    from server.planners import records

    ref = parse(rec)
    if ref is not None:
        if showing(st, ref):
            return True
        return False if reach(st, ref) else None
    m = _KIND_FIRST.match(rec.strip()) or KIND_LAST.match(rec.strip())
    if m is None or st.live is None:
        return None
    name = m.group("x")
    if on_named_record(st, name):
        return True
    link = records.record_link(st, name)
    if link is None:
        listing = records.entity_link(st, m.group("k"))
        if listing is None:
            return None
        st.click_live(listing, f"Open {listing.label!r} to find {name!r}")
        return False
    st.click_live(link, f"Open {link.label!r}")
    return False


def on_its_page(st: State, rec: str, clause: str) -> bool:
    """True when the screen is *rec*'s own page; False when there is no way to it. After planning a step toward
    it, *clause* is planned again on the screen that step leads to (raises :class:`Defer`)."""
    where = toward(st, rec)
    if where is False:
        raise Defer(rec, replace_with=[clause])
    return bool(where)


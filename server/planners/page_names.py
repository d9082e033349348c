"""Whether the screen shows a name, and as what: this page is X's, X is shown as a name of its kind.

"is this the json page", "Ticket #1 is shown", "the customer Emma Schmidt is
listed": the page's title and main headings, the breadcrumb's current item, the
tab or link that leads here, and the kind a name is said with ("the topic
CLASSES", "Emma Schmidt's record").
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from server.planners import grounding
from server.planners.grounding import Target, TargetKind
from server.planners.language import words
from server.planners.matching import STOPWORDS
from server.planners.state import Defer, State
from shared.screen import ROLE_LINK, UIElement


def named_here(st: State, name: str) -> bool:
    """Something of this page other than a link or tab is called *name* (a label "Status", a field, a heading)."""
    assert st.live is not None
    want = grounding.norm(name)
    return any(grounding.norm(e.name or e.text) == want for e in st.live.elements
               if not e.hidden and e.role not in ("link", "tab", "menuitem", "listitem", "row"))


_DOC_WORDS = frozenset({"doc", "docs", "documentation", "module", "package", "api", "reference", "manual"})


def is_this_page(st: State, name: str) -> bool:
    """The page shown is *name*'s: its title or a main heading says each of its words ("Ticket #1" for "ticket")."""
    assert st.live is not None
    # a name of common words only ("Menu", "Home") is still a name
    want = {w.rstrip("s") for w in words(name) if w not in STOPWORDS} or {w.rstrip("s") for w in words(name)}
    # "the json docs", "the csv module documentation": the page of json; what kind of page is no word it must say
    want = (want - _DOC_WORDS) or want
    if not want:
        return False
    said = [st.live.title] + [h.label for h in st.live.headings() if (h.level or 2) <= 2]
    # a breadcrumb's current item ("Home › Menu", Menu marked current) names the page too
    said += [e.label for e in st.live.elements if e.role == "link" and e.selected and not e.hidden and e.container
             and e.href and leads_here(st, e)]
    return any(want <= {w.rstrip("s") for w in words(t)} for t in said if t)


def plural_of_said(name: str, label: str) -> bool:
    """*label* names the list of what *name* names one of ("Tickets" for "the ticket page"): another page."""
    said, shown = set(words(name)), set(words(label))
    return any(w + "s" in shown and w not in shown for w in said)


def goes_elsewhere(el: UIElement) -> bool:
    """A link to another page of the app: not an anchor of this one, not a table's sort link."""
    return bool(el.href) and not grounding.stays_on_page(el.href) and "header-row" not in el.hint.split()


def leads_here(st: State, el: UIElement) -> bool:
    """*el* links to the page shown (the address it leads to is this one's, its anchor aside)."""
    if st.live is None or not el.href or not st.live.url:
        return False
    a, b = urlsplit(urljoin(st.live.url, el.href)), urlsplit(st.live.url)

    def route(u: Any) -> str:   # a single-page app's route ("#/completed") is a page of its own; an anchor is not
        return u.fragment if u.fragment.startswith(("/", "!")) else ""

    return (a.netloc, a.path.rstrip("/"), a.query, route(a)) == (b.netloc, b.path.rstrip("/"), b.query, route(b))


def same_path(st: State, href: str) -> bool:
    """*href* leads to the page shown, or to another page of it ("?page=2" of a list): its path is this one's (as
    :func:`leads_here`, its query aside)."""
    if st.live is None or not st.live.url or not href:
        return False
    return urlsplit(urljoin(st.live.url, href)).path.rstrip("/") == urlsplit(st.live.url).path.rstrip("/")


KIND_TAIL_ANY = re.compile(r"^(?:the\s+)?(?-i:[A-Z0-9])\S*(?:\s+\S+){0,3}\s+(?-i:[a-z]{3,})$")


# a tester's word for what a record is: "the Password reset requested mail", "the email Lunch on Friday?"
_RECORD_NOUNS = ("email|e-mail|mail|message|page|entry|item|record|row|file|document|doc|post|article|note|link|"
                 "card|folder|event|thread|comment")
KIND_TAIL = re.compile(rf"^(?P<x>.*?\S)\s+(?:{_RECORD_NOUNS})$", re.I)
DESCRIBED = re.compile(rf"^(?:(?:the|a|an)\s+)?(?:{_RECORD_NOUNS})\s+(?P<x>(?-i:[A-Z0-9\"'“]).*)$", re.I)


def _kind_split(text: str) -> list[tuple[str, str]]:
    """The ways *text* may be a name with a word for its kind: ("function", "dumps") of "the function dumps",
    ("topic", "LOOPING") of "LOOPING topic". The kind is a lower-case word of three letters or more."""
    ws = re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.I).split()
    if len(ws) < 2 or re.search(r"[\"'“‘]", text):
        return []
    out = []
    if re.fullmatch(r"[a-z]{3,}", ws[0]):
        out.append((ws[0], " ".join(ws[1:])))
    if re.fullmatch(r"[a-z]{3,}", ws[-1]):
        out.append((ws[-1], " ".join(ws[:-1])))
    return out


# words for kinds of things a page lists, said before or after a name ("the function heappush", "a LOOPING topic")
_KIND_NOUNS = frozenset("""function functions method methods class classes module modules package packages topic topics
keyword keywords attribute attributes property properties constant constants variable variables parameter parameters
command commands option options setting settings section sections chapter chapters article articles tag tags
category categories label labels field fields column columns table tables file files folder folders page pages
user users group groups project projects""".split())


def _names_kinds(st: State) -> set[str]:
    """The words the screen shown names kinds of things by, in its title, headings, tabs and links."""
    assert st.live is not None
    said = [st.live.title] + [e.name or e.text for e in st.live.elements
                              if e.role in ("heading", "tab", "link", "menuitem") and not e.hidden]
    # a section's title set as a cell or a line of its own: "Functions" above a module's functions
    alone = {w for e in st.live.elements if not e.hidden for w in [grounding.norm(e.name or e.text or "")]
             if w.isalpha() and w.endswith("s")}
    return {w for t in said if t and len(words(t)) <= 4 for w in words(t)} | alone


def shown_as_name(st: State, name: str) -> bool:
    """*name* is the whole name of an element shown, or how one begins before its details ("dumps(obj, …)",
    "json (package)")."""
    assert st.live is not None
    low = name.casefold()
    for e in st.live.elements:
        label = (e.name or e.text or "").strip().casefold()
        if e.hidden or not label:
            continue
        if label == low or re.match(rf"{re.escape(low)}\s*[(:\[—–-]", label):
            return True
    return False


def _shown_of_kind(st: State, name: str, kind: str) -> bool:
    """An element called *name* says, by its class or role words, that it is a *kind* ("function")."""
    assert st.live is not None
    want, k = grounding.norm(name), kind.lower().rstrip("s")
    return any(grounding.norm(grounding.bare_label(e.name or e.text) or e.name or e.text) == want
               and k in {w.rstrip("s") for w in words(e.hint)} for e in st.live.elements if not e.hidden and e.hint)


def named_of_kind(st: State, text: str, negative: bool) -> str:
    """*text* as the name it says, where it adds a word for the kind of thing the screen lists: "the function dumps"
    on a page with a "Functions" heading is "dumps", "a LOOPING topic" on the topics is "LOOPING". Not where the
    screen shows *text* itself, the kind is not a word the screen names a kind by, or the name is not shown
    whole (so "Invalid email" never becomes the "Invalid" of "Invalid password"). A positive check of a name this
    screen does not show, of a kind a link here lists ("Topics"), opens that list and checks there."""
    if not st.open_world:
        return text
    if st.moved or st.live is None:
        if any(k.lower() in _KIND_NOUNS for k, _ in _kind_split(text)):
            raise Defer(text)   # "open heapq and check it lists the function heappush": read on heapq's page
        return text
    if shows_text(st, text):
        return text
    from server.planners.records import entity_link, plural_of

    kinds = _names_kinds(st)
    for kind, name in _kind_split(text):
        if kind.lower() in _KIND_NOUNS and _shown_of_kind(st, name, kind):
            return name   # "a connect function" where "connect" is shown as a function (its class says so)
        if kind.lower() not in _KIND_NOUNS or plural_of(kind) not in kinds and kind not in kinds:
            continue   # "Office lamp" where a link says "Desk Lamp": no kind, a name
        if shown_as_name(st, name):
            return name
        listing = None if negative else entity_link(st, kind)
        # (entity_link never gives the link to the page shown)
        if listing is not None and listing.live is not None and listing.live.role in ("link", "tab", "menuitem") \
                and plural_of(kind) in words(listing.label):
            st.click_live(listing, f"Open {listing.label!r} to find {name!r}")
            raise Defer(name, replace_with=[f'check "{name}" is shown'])
    return text


def shows_text(st: State, text: str) -> bool:
    """The screen shown says *text* itself, in any of its texts."""
    assert st.live is not None
    return any(text.casefold() in t.casefold() for t in st.live.visible_texts())


def order_link(st: State, which: str) -> Target | None:
    """The page's own link to the page after (*which* "next") or before ("previous") it in its order: a link
    named so ("Next", "« Prev"), or one a "Next: Arguments" line holds, or one whose title says so ("next
    chapter"). Shown ones only (a hidden bar's "next" cannot be clicked); None where the page has none."""
    if st.live is None:
        return None
    word = r"(?:next|forward|newer)" if which == "next" else r"(?:previous|prev|older)"
    found = [e for e in st.live.elements if e.role == ROLE_LINK and not e.hidden and e.href and (
        re.fullmatch(rf"\W*{word}(?:\s+(?:page|chapter|topic|article|section))?\W*", (e.name or e.text or "").strip(), re.I)
        or re.match(rf"\W*{word}\s*:", e.container or "", re.I)
        or re.fullmatch(rf"{word}\s+(?:page|chapter|topic|article|section)", (e.hint or "").strip(), re.I))]
    return Target(TargetKind.LIVE_ELEMENT, 1.0, found[0].name or found[0].text, live=found[0]) if found else None


# "the next page", "the page right after this one", "the previous chapter": a page's neighbour in its order
NEIGHBOUR = re.compile(r"^(?:the\s+)?(?:(?P<b>next|previous|prev)(?:\s+(?:link|button))?|(?P<w>next|following|previous|prev|preceding)\s+(?:page|chapter|topic|article|"
                        r"section)|(?:page|chapter|topic|article)\s+(?:(?:right|just|directly|immediately)\s+)?"
                        r"(?:that\s+comes\s+)?(?P<p>after|before)\s+(?:it|this(?:\s+one)?|that(?:\s+one)?|the\s+current\s+one|\"(?P<q>[^\"]+)\"))$",
                        re.I)

"""Looking a name up with the app's own search box, when no link on the way shows it.

"Open the beta milestone" on a tracker whose pages link to no milestone: the
site search finds it, and the clause is planned again on the results page.
Only for a short name (a longer phrase describes something, it names nothing),
only with a real site search (a box with its Search button, not a filter of the
list shown), only for a kind of thing the app shows somewhere, and never from a
results page.
"""
from __future__ import annotations

import re

from server.planners import grounding, record_ids
from server.planners.grounding import Target, TargetKind
from server.planners.language import Act, Clause, words
from server.planners.matching import content_words
from server.planners.state import Defer, State
from shared.screen import ROLE_BUTTON, ROLE_COMBOBOX, ROLE_TEXTBOX, UIElement

_SEARCH_BOX = re.compile(r"\b(?:search|find|q|query)\b", re.I)


def site_search_box(st: State, as_you_type: bool = True) -> UIElement | None:
    """The app's own search box on the screen: a box named search / find / q with its Search button (a box that
    filters what is shown has none), not on a results page."""
    if st.live is None or re.search(r"search|[?&]q=", st.live.url or "", re.I):
        return None
    # a box that says it filters ("Filter navigation items", "Start typing to filter…") narrows a menu or the list
    # shown: it finds no record
    box = next((e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled
                and _SEARCH_BOX.search(" ".join((e.name, e.placeholder, e.hint)))
                and not re.search(r"\bfilter", " ".join((e.name, e.placeholder, e.hint)), re.I)), None)
    if box is None:
        return box_before_search_button(st)   # pydoc's "[    ] Search": a box with no name, sent by its button
    if any(e.role == ROLE_BUTTON and re.fullmatch(r"\W*(?:search|go|find)\W*", e.name or e.text or "", re.I)
           for e in st.live.elements):
        return box
    # a search that answers as it is typed (no button): a box that says "search" (or is of type search and says
    # nothing else), never one inside the list it would filter, nor one that says it filters ("Start typing to
    # filter…", "table name…": a navigation's filter finds no record)
    said = " ".join((box.name, box.placeholder))
    if not as_you_type or box.container:
        return None
    # it must say only "search": "Search projects…" searches projects, not the record sought
    # ("Search API Documentation…", "Search the site": the whole of it)
    only_search = re.fullmatch(r"\W*search(?:\s+(?:search|box|for|the|this|api|docs?|documentation|site|wiki|help|reference|"
                               r"manual|everything|all|here))*\W*", said.strip(), re.I) is not None \
        or re.fullmatch(r"\W*search\W*", box.placeholder.strip(), re.I) is not None
    return box if only_search or not said.strip() and re.search(r"\bsearch\b", box.hint, re.I) else None


_JUMP = re.compile(r"^\W*(?:go\s+to|jump\s+to|switch\s+to|open|find)\s+(?:an?\s+|the\s+)?(?P<k>[a-z]+)\W*$", re.I)


def jump_box(st: State, kind: str) -> UIElement | None:
    """The box that takes one straight to a thing of *kind* by its name ("Go to account", "Jump to page")."""
    if st.live is None:
        return None
    for e in st.live.elements:
        m = _JUMP.match(e.name or e.placeholder or "")
        if e.role in (ROLE_TEXTBOX, ROLE_COMBOBOX) and not e.hidden and not e.disabled and m \
                and m.group("k").lower().rstrip("s") == kind.lower().rstrip("s"):
            return e
    return None


def box_before_search_button(st: State) -> UIElement | None:
    """The text field right before a button named Search / Find (the two make one form)."""
    return next((b for name in ("search", "find", "search docs", "lookup") for b in [box_before_button(st, name)]
                 if b is not None), None)


def box_before_button(st: State, name: str) -> UIElement | None:
    """The text field right before the button called *name* (the two make one form: pydoc's "[    ] Get")."""
    if st.live is None or not name.strip():
        return None
    elements = list(st.live.elements)
    for i, el in enumerate(elements):
        if el.role == "button" and grounding.norm(el.name or el.text) == grounding.norm(name):
            for prev in reversed(elements[max(0, i - 4):i]):
                if prev.role == ROLE_TEXTBOX and not prev.hidden and not prev.disabled:
                    return prev
    return None


_CODE_KINDS = frozenset("class function method module package attribute variable constant property field enum "
                        "struct interface type exception".split())
# one token written as code: CamelCase inside, an underscore, or a dot ("JSONEncoder", "parse_float", "os.path")
_CODE_NAME = re.compile(r"[A-Za-z_][\w.]*(?:[a-z][A-Z]|_|\.)[\w.]*|[A-Z][A-Z0-9]+[a-z]\w*")


def without_kind(st: State, name: str, *, named: bool = True) -> str:
    """*name* without the word after it that says what kind of thing it is, when the app uses that word
    ("the Project Ideas tiddler" → "Project Ideas", where a button says "new tiddler"); else *name*. With *named*,
    only where what is left is written as a name ("buy milk" stays whole, though "milk" shows)."""
    m = record_ids.KIND_LAST.match(name.strip())
    if m is None or st.live is None or named and not re.search(r"[A-Z0-9\"'“]", m.group("x")) \
            and not _IDENTIFIER.search(m.group("x")):
        return name
    if m.group("k").lower() in _CODE_KINDS and _CODE_NAME.fullmatch(m.group("x").strip()):
        return m.group("x")   # "the JSONEncoder class", "the parse_float method": a name written as code
    shown = {w.rstrip("s") for e in st.live.elements for w in words(" ".join((e.name, e.text, e.href)))}
    if m.group("k").lower().rstrip("s") not in shown:
        return name
    two = record_ids.KIND_LAST.match(m.group("x"))   # "the database-connections concurrency limit": a kind of two words
    if two and two.group("k").lower().rstrip("s") in shown and _IDENTIFIER.fullmatch(two.group("x").strip()):
        return two.group("x")
    return m.group("x")


# a name written as one token of joined words: "etl-pool", "batch_size", "database-connections"
_IDENTIFIER = re.compile(r"\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b")


def without_leading_kind(st: State, target: str) -> str:
    """*target* without a leading kind the screen names in the plural ("plant Basil" where a list of
    "plants" shows), when what is left names something on the screen; else *target* unchanged."""
    m = re.match(r"^(?:the\s+|a\s+)?(?P<k>(?-i:[a-z]{3,}))\s+(?P<rest>\S.*)$", target, re.I)
    if not m or st.live is None:
        return target
    kind = m.group("k").lower()
    rest = m.group("rest")
    if kind not in ("new", "all", "any", "other", "next", "last", "first") and re.search(r"[A-Z0-9_]", rest) and any(
            e.role in ("link", "tab", "button", "menuitem") and not e.hidden
            and grounding.norm(e.name or e.text) == grounding.norm(rest) for e in st.live.elements):
        return rest   # "the status NOT_FOUND", "the class JSONEncoder": a control named so, said with its kind
    plurals = {kind + "s", kind + "es", kind[:-1] + "ies" if kind.endswith("y") else kind + "s"}
    shown = {w for e in st.live.elements if e.role in ("heading", "link", "tab", "cell")
             for w in words(e.name or e.text)} | set(words(st.live.title))
    if not plurals & shown:
        return target
    return rest if grounding.live_elements(rest, st.live, minimum=0.85) else target


def search_for(st: State, term: str, box: UIElement) -> None:
    """Type *term* into the site search *box* and submit it."""
    from server.planners.intents_form import type_into

    type_into(st, term, Target(TargetKind.LIVE_ELEMENT, 1.0, box.label, live=box), submit=True)
    st.summary.append(f"search for {term}")


def search_site(c: Clause, st: State, target: str) -> bool:
    """A named thing that no link on the way names ("the beta milestone", "the TestPlan wiki page"): the app's
    own search box finds it; the clause is planned again on the results. Never from a results page."""
    if st.live is None or not st.open_world or c.act not in (Act.OPEN, Act.NAVIGATE) \
            or not content_words(target) or len([w for w in target.split() if w.lower() not in ("the", "a", "an")]) > 3:
        return False   # a name is a word or three; a longer phrase describes something, it names nothing
    # "beta milestone" is found by "beta": a kind word after a name is what the results say it is
    m = record_ids.KIND_LAST.match(target)
    term = without_kind(st, target, named=False)
    # a box that searches as one types may as well filter the list shown: only a name is looked up there
    # ("the Shopping List note"), never a place ("go back to the inbox")
    box = jump_box(st, m.group("k")) if m else None   # "the Assets:US:BofA:Checking account": its "Go to account"
    # a name: written as one, said with its kind ("the lemonade recipe"), or what one asked to open
    named = bool(re.search(r"[A-Z0-9\"“']", term)) or term != target or c.act is Act.OPEN
    box = box or site_search_box(st, as_you_type=named)
    if box is None:
        return False
    if m and term == target and box.role == ROLE_TEXTBOX:
        return False   # the kind must be one this app shows somewhere ("milestone"), else it is not a thing here
    if m and box.role != ROLE_TEXTBOX:
        term = m.group("x")   # the box that goes to an account takes the account's name
    search_for(st, term, box)
    raise Defer(target, replace_with=[f"{c.verb or 'open'} {target}"])

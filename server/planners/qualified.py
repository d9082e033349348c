"""A name written as code, qualified by where it lives: "json.loads", "csv.DictReader.reader", "http.HTTPStatus".

Documentation browsers, API explorers and admin sites list a thing under its owner: the page of the module
``json`` lists ``loads``, and says "loads", not "json.loads". A tester writes the qualified name. Where the screen
shown is the owner's page, the name is read as the part after the owner's ("loads"); where it is not, and a link
here opens the owner ("json"), that link is followed first and the clause is planned again on the owner's page.
A name the screen shows whole is left as it is.
"""
from __future__ import annotations

import re

from server.planners import grounding
from server.planners.grounding import Target, TargetKind
from server.planners.language import Clause
from server.planners.state import State
from shared.screen import ROLE_LINK, ROLE_MENUITEM, ROLE_TAB

_QUALIFIED = re.compile(r"(?<![\w./])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w/]|\.\w)")
_ADDRESS = re.compile(r"\.(?:com|org|net|io|dev|html?|php|py|js|json|txt|md|csv|xml|yaml|yml)$", re.I)


def _shown_whole(st: State, name: str) -> bool:
    """Some element is called *name* itself, or begins with it before its details ("json.loads(s, …)")."""
    assert st.live is not None
    low = name.casefold()
    return any(label == low or re.match(rf"{re.escape(low)}\s*[(:\[—–-]", label)
               for e in st.live.elements if not e.hidden
               for label in [(e.name or e.text or "").strip().casefold()] if label)


def _names(text: str) -> list[str]:
    """The qualified names written in *text* (not a web address or a file name: "example.com", "data.csv")."""
    return [m.group(0) for m in _QUALIFIED.finditer(text) if not _ADDRESS.search(m.group(0))]


def on_its_page(text: str, st: State) -> str:
    """*text* with each qualified name the page shown is the owner of read as its own part ("json.loads" on json's
    page: "loads"), where the page shows that part whole."""
    from server.planners.intents_check import is_this_page

    if st.live is None or not st.open_world:
        return text
    for name in _names(text):
        parts = name.split(".")
        for k in range(len(parts) - 1, 0, -1):
            # (on the owner's page, its member by its own name, though a line of text links the whole name)
            owner, rest = ".".join(parts[:k]), ".".join(parts[k:])
            if is_this_page(st, owner) and _shown_whole(st, rest):
                text = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w])", rest, text)
                break
    return text


def owner_first(clause: Clause, st: State) -> list[str] | None:
    """Where a clause was refused for a qualified name the screen does not show: the link to its owner's page
    ("json" for "json.loads"), followed; the clause is planned again there. None where no link here opens it."""
    if st.live is None or st.moved or not st.open_world:
        return None
    for name in _names(clause.text):
        if _shown_whole(st, name):
            continue
        parts = name.split(".")
        for k in range(len(parts) - 1, 0, -1):
            owner = ".".join(parts[:k])
            links = [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_TAB, ROLE_MENUITEM) and not e.hidden
                     and grounding.norm(grounding.bare_label(e.name or e.text) or e.name or e.text)
                     == grounding.norm(owner) and not e.selected]
            if links:
                link = links[0]
                st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, link.label, live=link),
                              f"Open {link.label!r}, where {name!r} is documented")
                return [clause.text]
    return None

"""A name qualified by where it lives: "json.loads", "csv.DictReader.reader", a key "shop:close", a path "docs/intro".

Documentation browsers, API explorers and admin sites list a thing under its owner: the page of the module
``json`` lists ``loads``, and says "loads", not "json.loads". A tester writes the qualified name. Where the screen
shown is the owner's page, the name is read as the part after the owner's ("loads"); where it is not, and a link
here opens the owner ("json"), that link is followed first and the clause is planned again on the owner's page.
A key browser or file tree shows "shop:close" as "close" inside a folder "shop:*": a folder shown closed is opened
(selected, then the tree's own key for "open": the right arrow), and the name is read as its item there. A name
the screen shows whole is left as it is.
"""
from __future__ import annotations

import re

from server.planners import grounding
from server.planners.grounding import Target, TargetKind
from server.planners.page_names import is_this_page, shown_as_name
from server.planners.language import Clause
from server.planners.state import State
from shared import vocabulary as V
from shared.keys import Key
from shared.screen import ROLE_LINK, ROLE_MENUITEM, ROLE_TAB, UIElement

_QUALIFIED = re.compile(r"(?<![\w./])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w/]|\.\w)")
# a key or a path, its parts apart by ":" or "/" ("shop:close", "docs/intro"); never an address ("http://…") or a time
_PATH = re.compile(r"(?<![\w:/.@-])[A-Za-z_][\w-]*(?:[:/][\w.-]*[A-Za-z_0-9])+(?![\w/:-])")
_ADDRESS = re.compile(r"\.(?:com|org|net|io|dev|html?|php|py|js|json|txt|md|csv|xml|yaml|yml)$", re.I)


def _names(text: str) -> list[str]:
    """The qualified names written in *text* (not a web address or a file name: "example.com", "data.csv")."""
    return [m.group(0) for m in _QUALIFIED.finditer(text) if not _ADDRESS.search(m.group(0))]


def on_its_page(text: str, st: State) -> str:
    """*text* with each qualified name the page shown is the owner of read as its own part ("json.loads" on json's
    page: "loads"), where the page shows that part whole."""
    if st.live is None or not st.open_world:
        return text
    for name in _names(text):
        parts = name.split(".")
        for k in range(len(parts) - 1, 0, -1):
            # (on the owner's page, its member by its own name, though a line of text links the whole name)
            owner, rest = ".".join(parts[:k]), ".".join(parts[k:])
            if is_this_page(st, owner) and shown_as_name(st, rest):
                text = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w])", rest, text)
                break
    return text


def owner_first(clause: Clause, st: State) -> list[str] | None:
    """Where a clause was refused for a qualified name the screen does not show: the link to its owner's page
    ("json" for "json.loads"), followed; the clause is planned again there. None where no link here opens it."""
    if st.live is None or st.moved or not st.open_world:
        return None
    for name in _names(clause.text):
        if shown_as_name(st, name):
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


def _folder_of(st: State, prefix: str, sep: str) -> UIElement | None:
    """The tree's item for the folder *prefix* ("shop:* (3)", "shop:", "shop" for "shop:close")."""
    assert st.live is not None
    want = {grounding.norm(prefix)}
    for e in st.live.elements:
        if e.role != "treeitem" or e.hidden:
            continue
        label = re.sub(r"\s*\(\d+\)\s*$", "", (e.name or e.text or "").strip())   # "shop:* (3)": its count apart
        label = re.sub(rf"\s*{re.escape(sep)}?\s*\*?$", "", label)
        if grounding.norm(label) in want:
            return e
    return None


def _item_in(st: State, folder: UIElement, leaf: str) -> UIElement | None:
    """The folder's own item called *leaf*, once the folder is open (shown inside it)."""
    assert st.live is not None
    inside = (folder.name or folder.text or "").strip()
    return next((e for e in st.live.elements if e.role == "treeitem" and not e.hidden and e is not folder
                 and grounding.norm(e.name or e.text) == grounding.norm(leaf)
                 and e.container.startswith(inside)), None)


def _paths(text: str) -> list[tuple[str, str, str]]:
    """The keys and paths written in *text*, each with its folder and last part ("shop:close" → shop, close)."""
    out = []
    for m in _PATH.finditer(text):
        name = m.group(0)
        sep = ":" if ":" in name else "/"
        prefix, _, leaf = name.rpartition(sep)
        if prefix and leaf:
            out.append((name, prefix, leaf))
    return out


def in_open_folder(text: str, st: State) -> str:
    """*text* with each key whose folder is open on the screen read as the folder's item ("shop:close" → close)."""
    if st.live is None or not st.open_world:
        return text
    for name, prefix, leaf in _paths(text):
        if shown_as_name(st, name):
            continue
        folder = _folder_of(st, prefix, ":" if ":" in name else "/")
        if folder is not None and _item_in(st, folder, leaf) is not None:
            text = re.sub(rf"(?<![\w:/]){re.escape(name)}(?![\w:/])", f'"{leaf}"', text)   # a name ("close")
    return text


def open_folder_first(clause: Clause, st: State) -> list[str] | None:
    """Where a clause was refused for a key the screen does not show: its folder, shown closed, opened first."""
    if st.live is None or st.moved or not st.open_world or not st.has(V.PRESS_KEY):
        return None
    for name, prefix, leaf in _paths(clause.text):
        if shown_as_name(st, name):
            continue
        folder = _folder_of(st, prefix, ":" if ":" in name else "/")
        if folder is None or _item_in(st, folder, leaf) is not None:
            continue
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, folder.label, live=folder), f"Select the folder {prefix!r}")
        st.add(V.PRESS_KEY, {"key": Key.RIGHT.value}, f"Open the folder {prefix!r}", moves=True)
        return [clause.text]
    return None

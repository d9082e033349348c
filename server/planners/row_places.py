"""Rows said by their place, and the results of a search.

"delete the second customer", "open the first result": the screen's main list
(the data rows of its biggest table, else the group of rows whose controls are
alike and show the most text) and a search's result links, in order.
"""
from __future__ import annotations

import re
from typing import Any

from server.planners import grounding
from server.planners.language import ITEM_NOUNS, Act, Clause, words
from server.planners.matching import find_ordinal
from server.planners.state import State
from shared.screen import CLICKABLE_ROLES, ROLE_LINK, UIElement


# A link named by what it does (Delete, Edit, Add, Save…) opens a page not named after it.
ACTION_WORDS = {"delete", "remove", "edit", "change", "update", "add", "new", "create", "save", "cancel", "view",
                "open", "more", "next", "previous", "back", "submit", "insert", "drop", "rename", "export", "import"}


def row_items(live: Any) -> list:
    """The controls of the screen's rows (clickable, in a container that is not a table's header row)."""
    headers = {e.name or e.text for e in live.elements if "header-row" in e.hint.split()}
    return [e for e in live.elements if (e.clickable or e.role in CLICKABLE_ROLES) and e.container
            and e.container not in headers and not e.hidden]


def main_list(items: list) -> list[str]:
    """The rows of the screen's main list, in order: of the groups of rows whose controls have the same roles
    (a sidebar's model rows, a filter's choices, a table's records), the one that shows the most text."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for container in dict.fromkeys(e.container for e in items):
        shape = tuple(e.role for e in items if e.container == container)
        groups.setdefault(shape, []).append(container)
    return max(groups.values(), key=lambda rows: sum(len(r) for r in rows)) if groups else []


_BY_PLACE = re.compile(r"\bthe\s+(?P<o>first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+"
                       r"(?:(?P<noun>(?-i:[a-z]+))\b(?:\s+(?:in|on|of)\s+the\s+(?:list|table|page))?)?", re.I)
# acts whose own intents read "the first X" themselves (open, click, play) or name no row (add, type, search)
_UNPLACED_ACTS = (Act.OPEN, Act.CLICK, Act.PLAY, Act.CHECK, Act.NAVIGATE, Act.ADD, Act.SEARCH, Act.TYPE, Act.SORT,
                  Act.FILTER)


def named_by_place(c: Clause, st: State) -> str | None:
    """"delete the second customer", "tick the first todo": the clause with that row's name in its place, where
    the screen shows the list (the first customer's name, quoted); None when it names no row by its place."""
    m = _BY_PLACE.search(c.text)
    if m is None or c.act in _UNPLACED_ACTS or st.live is None:
        return None
    noun = (m.group("noun") or "").lower()
    if noun and noun not in ("one", "item", "row", "entry", "record", "line") and noun not in ITEM_NOUNS:
        from server.planners import records
        from server.planners.list_search import on_list_of

        link = records.entity_link(st, noun) if not on_list_of(st, noun) else None
        if link is not None and link.score >= 0.88:
            return None   # another list's ("Customers"): that list first (its own plan); not "Watch Groups"
    items = row_items(st.live)
    rows = table_rows(st, items) or main_list(items)
    index = find_ordinal(m.group("o"))
    if not rows or index is None or not -len(rows) <= index < len(rows):
        return None
    row = rows[index]
    in_row = [e for e in st.live.elements if e.container == row and (e.name or e.text).strip()
              and not set(words(e.name or e.text)) & ACTION_WORDS and not re.match(r"^\w+://", e.name or e.text)]
    # the row's title or name cell, else its own link (not a badge: the longest), else the row's text
    titled = [e for e in in_row if re.search(r"\b(?:title|name)\b", e.hint or "")]
    links = sorted((e for e in in_row if e.role == ROLE_LINK), key=lambda e: -len(e.name or e.text))
    own = (titled or links or [None])[0]
    name = (own.name or own.text).strip() if own is not None else row.strip()
    if len(name) > 60 or '"' in name:
        return None
    return c.text[:m.start()] + f'"{name}"' + c.text[m.end():]


def table_rows(st: State, items: list) -> list[str]:
    """The containers of *items* in the order of the table's data rows (rows of one table may hold different
    controls: a row with a History link is still the first row)."""
    assert st.live is not None
    containers = list(dict.fromkeys(e.container for e in items))
    tables: list[list[str]] = [[]]   # the data rows under each header row: a sidebar's table, the list's
    for r in st.live.elements:
        if r.role != "row" or r.hidden:
            continue
        if "header-row" in r.hint.split():
            tables.append([])
            continue
        text = r.text or r.name
        found = next((c for c in containers if text.startswith(c.rstrip("…"))), None)
        if found and found not in tables[-1]:
            tables[-1].append(found)
    biggest = max(tables, key=len)
    return biggest if len(biggest) >= 2 else []


RESULT_NOUN = re.compile(r"\b(?:results?|hits?|match(?:es)?)\b", re.I)
RESULTS_HEADING = re.compile(r"\b(?:results?|hits?|match(?:es)?)\s+(?:for|of|matching)\b|\bsearch\s+results?\b|"
                             r"\bresults?\s*:", re.I)


def results_links(live: Any) -> list[UIElement]:
    """The links of a search's results, in order: after the heading that says it shows results ("3 search
    results for 'reader'"), one per result (the first link of each of its rows, where they have rows)."""
    at = next((i for i, e in enumerate(live.elements) if e.role == "heading" and not e.hidden
               and RESULTS_HEADING.search(e.name or e.text or "")), None)
    if at is None:
        return []
    out: list[UIElement] = []
    rows: set[str] = set()
    for e in live.elements[at + 1:]:
        if e.role == "heading" and (e.level or 2) <= (live.elements[at].level or 2):
            break   # the next section of the page
        if e.role != ROLE_LINK or e.hidden or not e.href or grounding.leaves_the_app(live.url, e.href) \
                or "header-row" in e.hint.split():
            continue
        if e.container:
            if e.container in rows:
                continue
            rows.add(e.container)
        out.append(e)
    return out


SIGNATURE = re.compile(r"^(?:(?:async\s+)?def|class|function|func|fn|method|property|var|let|const|module)\s+"
                        r"(?P<n>[A-Za-z_][\w.]*)")


def result_named(st: State, name: str) -> UIElement | None:
    """Of a search's results, the one whose name is *name*, or ends with it as code does ("class
    json.JSONEncoder:" for JSONEncoder); None off a results page, or where no one result is it."""
    if st.live is None or not name or not st.open_world:
        return None
    want = grounding.norm(name)
    found = []
    for e in results_links(st.live):
        label = (e.name or e.text or "").strip().rstrip(":")
        sig = SIGNATURE.match(label)
        code = sig.group("n") if sig else label
        if grounding.norm(code) == want or grounding.norm(code.split(".")[-1]) == want and "." in code \
                or grounding.norm(label) == want:
            found.append(e)
    return found[0] if found else None

"""A cell of a summary table that links to a list: "the failed encodes", "what's queued in captures", "the finished
reports jobs", on a table of queues by status whose counts are links.

A table's header row names its columns ("Queued jobs", "Failed jobs"); each row is named by its first cell
("encodes"). A phrase that names one row (a word of it, singular or plural) and one column (a word of its header,
or a usual word for the same state: "waiting" for queued, "crashed" for failed) is that cell, when the cell is a
link. The words every column shares ("jobs") name none of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from server.planners import grounding
from server.planners.grounding import Target, TargetKind
from server.planners.language import Act, Clause, words
from server.planners.state import Defer, State
from shared.screen import CLICKABLE_ROLES, UIElement

# usual words for one state, as summary tables head their columns and testers say them
_SAME_STATE = (
    frozenset({"queued", "waiting", "pending", "enqueued", "sitting", "todo"}),
    frozenset({"finished", "completed", "complete", "done", "succeeded", "successful", "passed", "closed"}),
    frozenset({"failed", "crashed", "died", "errored", "broken", "failing", "failure", "failures", "error", "errors"}),
    frozenset({"cancelled", "canceled", "aborted"}),
    frozenset({"started", "running", "active", "in-progress", "busy"}),
    frozenset({"scheduled", "planned", "later"}),
    frozenset({"deferred", "blocked", "dependent"}),
)
_STATE_OF = {w: i for i, group in enumerate(_SAME_STATE) for w in group}


def _same_state(a: str, b: str) -> bool:
    ga, gb = _STATE_OF.get(a.lower()), _STATE_OF.get(b.lower())
    return a.lower() == b.lower() or ga is not None and ga == gb


@dataclass(frozen=True)
class Cell:
    row: str
    column: str
    link: UIElement


def _table(st: State) -> list[tuple[str, dict[str, UIElement]]]:
    """The rows of the screen's first table with a header row: each row's name, and its links by column header."""
    assert st.live is not None
    by_row: dict[str, list[UIElement]] = {}
    for e in st.live.elements:
        if e.container and e.role in ("cell", "link", "columnheader"):
            by_row.setdefault(e.container, []).append(e)
    header: list[str] = []
    out: list[tuple[str, dict[str, UIElement]]] = []
    for row, members in by_row.items():
        cells = [e for e in members if e.role in ("cell", "columnheader")]
        if not header:
            if len(cells) >= 3 and not any(e.role == "link" for e in members):
                header = [(e.name or e.text).strip() for e in cells]
            continue
        if len(cells) != len(header):
            continue
        links: dict[str, UIElement] = {}
        column = -1
        for e in members:
            if e.role in ("cell", "columnheader"):
                column += 1
            elif e.role == "link" and 0 <= column < len(header) and not e.hidden:
                links[header[column]] = e
        name = (cells[0].name or cells[0].text).strip()
        if links and name:
            out.append((name, links))
    return out


def _noun(w: str) -> str:
    """"captures", "capture" → "captur"; "entries" → "entry"."""
    w = w.lower()
    w = w[:-3] + "y" if w.endswith("ies") and len(w) > 4 else w[:-1] if w.endswith("s") and not w.endswith("ss") else w
    return w.rstrip("e") if len(w) > 3 else w


def _nouns(text: str) -> set[str]:
    return {_noun(w) for w in words(text)}


def cell_named(st: State, phrase: str) -> Cell | None:
    """The link of the one cell *phrase* names by its row and its column, said close together; None when it names
    no single one. The clause's verb names no column ("open the login bug" is no open bug), and a phrase that names
    a link of the screen itself, or says none or no, or makes something new, names no cell."""
    if st.live is None or _NOT_A_CELL.search(phrase):
        return None
    table = _table(st)
    if len(table) < 2:
        return None
    said = re.findall(r"[\w-]+", phrase.lower())
    if said and said[0] in _LOOKS | _VERBS_ALIKE:
        said = said[1:]   # the verb: "open" says what to do, not which column
    rows = [(name, links) for name, links in table if _nouns(name) and _nouns(name) <= {_noun(w) for w in said}]
    if len(rows) != 1:
        return None
    name, links = rows[0]
    at_row = [i for i, w in enumerate(said) if _noun(w) in _nouns(name)]
    shared = set.intersection(*(set(words(h)) for h in links)) if links else set()
    columns = []
    for header in links:
        own = set(words(header)) - shared   # "failed" of "Failed jobs", said as such or in usual words for it
        at = [i for i, w in enumerate(said) if any(_same_state(o, w) for o in own)]
        if own and all(any(_same_state(o, w) for w in said) for o in own) \
                and any(abs(i - j) <= _NEAR for i in at for j in at_row):
            columns.append(header)
    if len(columns) != 1:
        return None
    if grounding.live_elements(phrase, st.live, roles=CLICKABLE_ROLES, minimum=0.85):
        return None   # "open the Email settings" where a link says so: that link, never a count of the Email row
    return Cell(name, columns[0], links[columns[0]])


# row and column words said at most this many words apart ("the failed encodes", "encodes that have failed")
_NEAR = 4
# "no uploads failed", "1 failed upload", "a new capture": a check of the count, or a record to make
_NOT_A_CELL = re.compile(r"\b(?:no|none|nothing|never|zero|any|new|a|an|count|how\s+many|number\s+of)\b|\d", re.I)
_VERBS_ALIKE = frozenset({"close", "start", "finish", "complete", "fail", "cancel", "schedule", "defer", "queue"})


_LOOKS = frozenset({"show", "list", "look", "view", "see", "display", "find", "open", "go", "navigate", "bring", "pull"})


def cell_intent(c: Clause, st: State) -> bool:
    """"show me what's failed in reports", "requeue the failed warehouse encode": the summary table's cell the
    clause names first (a check of the table itself stays on it)."""
    if c.act in (Act.CHECK, Act.NONE) or c.text.rstrip().endswith("?"):
        return False
    then = cell_first(c, st)
    if then is None:
        return False
    if then:
        raise Defer(c.text, replace_with=then)
    st.expect_check(None)
    return True


def cell_first(clause: Clause, st: State) -> list[str] | None:
    """A clause about what one cell of a summary table counts ("requeue the failed warehouse encode", "show me
    what's queued in captures"): that cell's link first, then the clause on the list it opens (nothing more when
    the clause only asked to see it). None where the screen shown has no such cell."""
    if st.live is None or st.moved or not st.open_world:
        return None
    cell = cell_named(st, clause.text)
    if cell is None:
        return None
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, cell.link.label, live=cell.link),
                  f"Open the {cell.column.lower()} of {cell.row!r}", row=cell.link.container)
    st.summary.append(f"{cell.column} of {cell.row}")
    first = clause.text.split()[0].lower() if clause.text.split() else ""
    return [] if clause.act in (Act.OPEN, Act.NAVIGATE) or first in _LOOKS else [clause.text]

"""Rows chosen by the state they show: "start whichever encoders aren't running", "requeue all the failed jobs",
"restart every stopped process", "delete the finished ones".

A row is in a state when its own text says the state in a word that is not one of its controls' labels (a running
process's "Stop" button says nothing of a stopped one). The verb's control is clicked in each row so chosen, on the
screen as it is now. Rows are narrowed to a kind said ("encoders") when rows name it; a kind no row names must be
what the screen lists ("jobs" on the jobs page), else the clause is left to other readings.
"""
from __future__ import annotations

import re
from typing import Callable

from server.planners.grounding import Target, TargetKind, row_key
from server.planners.language import words
from server.planners.list_search import on_list_of
from server.planners.state import State
from shared.screen import ScreenObservation, UIElement

# "all (of) the", "every", "each", "any", "whichever", "whatever", "the … that …"
_QUANTIFIER = re.compile(r"^(?:all\s+(?:of\s+)?(?:the\s+|my\s+|our\s+)?|every\s+|each\s+|any\s+|whichever\s+|whatever\s+|"
                         r"(?P<the>the\s+))", re.I)
# "failed jobs", "stopped ones"; "not running processes", "non-running ones"
_STATE_FIRST = re.compile(r"^(?P<neg>not\s+|non-?)?(?P<state>[a-z]{2,}(?:ed|ing|ne|ve|le|al|ly|ful))\s+(?P<kind>[a-z][\w-]*)$",
                          re.I)
# "encoders that aren't running", "jobs which failed", "processes in the FATAL state", "ones that are done"
_STATE_AFTER = re.compile(r"^(?P<kind>[a-z][\w-]*)\s+(?:(?:that|which|who)\s+)?(?:(?:is|are|were|was|['’]re|['’]s|do|does|did|"
                          r"have|has|had)\s+)?(?:been\s+)?(?P<neg>not\s+|no\s+longer\s+)?(?:currently\s+|still\s+|now\s+|"
                          r"already\s+)?(?:in\s+(?:the\s+|an?\s+)?)?(?P<state>[a-z]{3,})(?:\s+(?:state|status|mode))?"
                          r"(?:\s+(?:right\s+)?now)?$", re.I)
_NEGATED = re.compile(r"\b(is|are|were|was|do|does|did|has|have|had)n['’]t\b", re.I)
# words for "the rows" that name no kind of their own
_ANY_KIND = frozenset({"one", "ones", "row", "rows", "item", "items", "entry", "entries", "record", "records", "thing",
                       "things", "line", "lines"})
_NOT_STATES = frozenset({"the", "and", "with", "from", "for", "that", "this", "them", "those", "these", "its", "their",
                         "same", "other", "others", "rest", "new", "old", "first", "last", "next", "more", "selected"})


def state_stem(w: str) -> str:
    """The word's stem as states are said and shown: "stopped", "stop" → "stop"; "running" → "run";
    "failed", "failure" → "fail"; "queued", "queue" → "queu"."""
    w = w.lower()
    for suffix in ("ing", "ed", "ure", "s", "e"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiousl":
        w = w[:-1]   # "stopp" → "stop", "runn" → "run"
    return w.rstrip("e") if len(w) > 3 else w


# states said in other words than a row shows them ("up" where the row says RUNNING)
_UP = ("up", "running", "online", "active", "started", "healthy", "live", "enabled")
_DOWN = ("down", "stopped", "offline", "exited", "failed", "fatal", "dead", "inactive", "crashed", "disabled")
_ALIKE = (frozenset(state_stem(w) for w in _UP), frozenset(state_stem(w) for w in _DOWN))


def rows_of(screen: ScreenObservation) -> dict[str, list[UIElement]]:
    """The screen's rows (what each element sits in) and their elements, in the screen's order."""
    rows: dict[str, list[UIElement]] = {}
    for e in screen.elements:
        if e.container:
            rows.setdefault(e.container, []).append(e)
    return rows


def negated_aux(text: str) -> str:
    """"aren't running" → "are not running": a negation said in one word, in two."""
    return _NEGATED.sub(r"\1 not", text)


#: the roles of a row's own controls, whose labels say what can be done, never the state the row is in
ROW_CONTROLS = frozenset({"button", "link", "switch", "menuitem"})


def alike(stem: str) -> frozenset[str]:
    """The stems that say the same state as *stem* ("up": running, online, …), itself where no other does."""
    return next((group for group in _ALIKE if stem in group), frozenset({stem}))


def opposite(stem: str) -> frozenset[str]:
    """The stems that say the other state of an up/down pair; empty where *stem* is of none."""
    return next((other for group, other in zip(_ALIKE, reversed(_ALIKE)) if stem in group), frozenset())


def shown_states(row: str, members: list[UIElement], controls: frozenset[str] = ROW_CONTROLS, name: str = "") -> set[str]:
    """The stems of the words a row shows that are no label of a control of the row, nor a word of the record's
    *name* ("Live ingest" is no state of live)."""
    labels = {state_stem(w) for e in members if e.role in controls or e.clickable and e.role != "link"
              for w in words(e.name or e.text)} | {state_stem(w) for w in words(name)}
    return {state_stem(w) for w in words(row)} - labels


def shown_word(row: str, stems: frozenset[str] | set[str], name: str = "") -> str:
    """The word *row* shows for a state whose stem is among *stems* ("RUNNING"), never a word of the record's *name*;
    "" where it shows none."""
    own = {state_stem(w) for w in words(name)}
    return next((w for w in re.findall(r"[\w'-]+", row) if state_stem(w) in stems and state_stem(w) not in own), "")


def every_row_in_state(st: State, verb: str, rec: str, wanted: tuple[str, ...], controls: frozenset[str],
                       first_word: Callable[[str], str]) -> bool:
    """Click the verb's control (its first word one of *wanted*) in each row whose state *rec* says."""
    if st.live is None:
        return False
    said = negated_aux(rec.strip().rstrip(".!"))
    q = _QUANTIFIER.match(said)
    if q is None:
        return False
    body = said[q.end():].strip()
    m = _STATE_FIRST.match(body)
    if m is not None and q.group("the") and m.group("kind").lower() not in _ANY_KIND:
        return False   # "the failed jobs" may name a list or a tab of its own: left to what names it
    if m is None:
        m = _STATE_AFTER.match(body)
        if m is not None and q.group("the") and not re.search(r"\b(?:that|which|who)\b", body, re.I):
            return False   # "the encoders running": a name more likely than a choice of rows
    if m is None:
        return False
    state, kind, negated = m.group("state").lower(), m.group("kind").lower(), bool(m.group("neg"))
    if state in _NOT_STATES or state_stem(state) == state_stem(verb):
        return False
    rows = rows_of(st.live)
    kind_rows = {r for r in rows if state_stem(kind) in {state_stem(w) for w in words(r)}}
    if kind in _ANY_KIND or not kind_rows:
        if kind not in _ANY_KIND and not on_list_of(st, kind):
            return False   # "encoders" neither named by any row nor what the screen lists
        kind_rows = set(rows)
    said = frozenset({state_stem(state)})   # the word itself where a row shows it, else the words alike
    shown = {r: shown_states(r, rows[r], controls, name=row_key(r, st.live)) for r in kind_rows}
    if not any(said & shown[r] for r in kind_rows):
        said = alike(state_stem(state))
    in_state = {r for r in kind_rows if said & shown[r]}
    if not in_state and not negated:
        return False   # no row shows the state said: not a reading of this screen
    chosen = [r for r in rows if r in kind_rows and (r in in_state) != negated]
    clicks = []
    for row in chosen:
        mine = [e for e in rows[row] if e.role in controls and not e.disabled and first_word(e.name or e.text) in wanted]
        if mine:
            clicks.append((row, min(mine, key=lambda e: (e.hidden, wanted.index(first_word(e.name or e.text))))))
    if not clicks:
        return False
    for row, el in clicks:
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el),
                      f"Click {el.label!r} in the row of {row[:40]!r}", row=row)
    st.summary.append(f"{verb} every {kind} {'not ' if negated else ''}{state}")
    st.expect_check(None)
    return True

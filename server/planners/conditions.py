"""A request that depends on what the screen shows: "if pump_b isn't running, start it", "is the HD2 encoder up?
if not, restart it", "close the banner if there is one", "unless Bo is already an admin, make him one".

The condition is judged on the live screen the task starts on, before any step: a thing shown or not, the state a
record's row shows (in a word that is not one of its controls), a box ticked or not. When it holds, the request is
what is planned; when it does not, the task asks for nothing to be done, and the plan checks what the screen shows
instead (the row still says RUNNING, the banner is not there), so the run proves why it did nothing. A condition this
module cannot judge on the screen leaves the task as the tester wrote it.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from enum import Enum

from server.planners import grounding
from server.planners.language import split_clauses
from server.planners.rows_in_state import alike, negated_aux, opposite, rows_of, shown_states, shown_word, state_stem
from server.planners.state import State

log = logging.getLogger(__name__)


class Kind(Enum):
    SHOWN = "shown"      # something is on the screen
    STATE = "state"      # a record's row shows a state
    TICKED = "ticked"    # a box or switch is on


@dataclass(frozen=True)
class Condition:
    kind: Kind
    subject: str
    state: str = ""
    negated: bool = False


_ON = frozenset({"checked", "ticked", "on", "enabled", "selected", "active", "activated", "set"})
_OFF = frozenset({"unchecked", "unticked", "off", "disabled", "unselected", "inactive", "deactivated", "cleared"})
_SHOWN = r"(?:shown|displayed|visible|there|present|open|showing|listed|on\s+(?:the\s+)?(?:screen|page))"
_ARTICLE = re.compile(r"^(?:the|a|an|any|some)\s+", re.I)
# what kind of thing is said to be shown ("the Accept button"): its name is what the screen shows
_KIND_WORD = re.compile(r"(?<=\S)\s+(?:button|link|banner|dialog|popup|pop-up|message|box|checkbox|field|tab|icon|"
                        r"notice|toast|alert|row|entry|item|option)$", re.I)

# "if X, Y" / "if X then Y" / "unless X, Y"
_LEADING = re.compile(r"^(?P<word>if|unless|in\s+case)\s+(?P<cond>[^,;:]+?)(?:\s*[,;:]\s*(?:then\s+)?|\s+then\s+)"
                      r"(?P<act>\S.*)$", re.I)
# "Y if X" / "Y only if X" / "Y unless X" (never "check if X", "see if X")
_TRAILING = re.compile(r"^(?P<act>\S.*?)\s*,?\s+(?:but\s+)?(?:only\s+)?(?P<word>if|unless|in\s+case)\s+(?P<cond>[^,;:.!?]+?)[.!]?$",
                       re.I)
# "…, otherwise start it": what is done where the condition does not hold
_ELSE = re.compile(r"(?:\s*[,;.]\s*(?:or\s+)?(?:otherwise|else|if\s+not(?:\s+so)?)|\s+otherwise)\b\s*,?\s*(?P<b>\S.*)$", re.I)
_COMPOUND = re.compile(r"\s*(?:[;.,]\s+|\s+(?:and|then)\s+)", re.I)
_ASKS = re.compile(r"\b(?:check|see|verify|confirm|ensure|know|tell\s+me|find\s+out|ask|whether|test|determine|look|"
                   r"sure|wonder|asking)$", re.I)
# "is X up? if not, Y" / "is X up? if it isn't, Y"
_QUESTION = re.compile(r"^(?P<q>(?:is|are)\s+[^?]+?)\?\s*(?:if\s+(?:not|no|it\s+is\s*n['’]?o?t|it\s+isn['’]t|it['’]s\s+not|"
                       r"they\s+are\s*n['’]?o?t|they\s+aren['’]t|they['’]re\s+not)(?:\s+already)?)\s*[,:]?\s+(?P<act>\S.*)$",
                       re.I)
_POLITE = re.compile(r"^(?:possible|you\s+can|needed|necessary|required|need\s+be|so|yes|not|any|applicable|"
                     r"it\s+helps|you\s+(?:want|like|don['’]t\s+mind)|that['’]?s\s+(?:ok|okay|fine))$", re.I)
# a name said as the screen writes it (capitals, digits, quotes), whose absence the screen can tell
_NAMED = re.compile(r"[A-Z0-9\"'“‘]")
# the planner's own conditional steps ("if asked, confirm the deletion")
_INTERNAL = re.compile(r"^(?:asked|prompted|offered|shown|one\s+is\s+shown|any|so|yes|not|no|that['’]?s\s+(?:the\s+case|"
                       r"right|true))\b", re.I)   # (and "is X on? if so, …": the question is the check)
_PRONOUN = re.compile(r"^(?:it|they|this|that|one|he|she)$", re.I)
_REFERENCE = re.compile(r"\b(?:it|them|this\s+one|that\s+one)\b", re.I)


def parse(cond: str, act: str) -> Condition | None:
    """The condition *cond* of a request *act*, or None when it says nothing this module reads."""
    cond = negated_aux(cond.strip().rstrip(".!?"))
    if re.search(r"\b(?:and|or|but|nor)\b|&", cond, re.I):
        return None   # "if pump_a is running and pump_b is stopped": two conditions, never judged as one
    cond = re.sub(r"['’]s\s+(?=(?:not\s+)?(?:already\s+|still\s+|currently\s+)?\w+$)", " is ", cond)   # "it's not running"
    if _POLITE.match(cond):
        return None
    m = re.match(r"^there\s+(?:is|are|['’]s)\s+(?P<no>no\s+|not\s+(?:a|an|any)\s+)?(?P<x>.+?)(?:\s+on\s+(?:the\s+)?"
                 r"(?:screen|page))?$", cond, re.I) or \
        re.match(r"^(?:you|i|we)\s+(?P<no>do\s+not\s+|don['’]t\s+)?(?:see|get)\s+(?P<x>.+?)$", cond, re.I)
    if m:
        subject = _subject(_KIND_WORD.sub("", _ARTICLE.sub("", m.group("x").strip())), act)
        return Condition(Kind.SHOWN, subject, negated=bool(m.group("no"))) if subject else None
    m = re.match(rf"^(?P<x>.+?)\s+(?:is|are)\s+(?P<no>not\s+|no\s+longer\s+)?(?:still\s+|already\s+)?{_SHOWN}$", cond, re.I) or \
        re.match(r"^(?P<x>.+?)\s+(?P<no>does\s+not\s+|do\s+not\s+)?(?:appears?|shows?\s+up|pops?\s+up|exists?)$", cond, re.I)
    if m:
        subject = _subject(_KIND_WORD.sub("", _ARTICLE.sub("", m.group("x").strip())), act)
        return Condition(Kind.SHOWN, subject, negated=bool(m.group("no"))) if subject else None
    m = re.match(r"^(?P<x>.+?)\s+(?:is|are)\s+(?P<no>not\s+|no\s+longer\s+)?(?:already\s+|still\s+|currently\s+)?"
                 r"(?:in\s+(?:the\s+)?)?(?P<s>[\w-]{2,})(?:\s+(?:state|status|mode))?(?:\s+(?:yet|already|now|right\s+now))?$",
                 cond, re.I)
    if m is None:
        return None
    subject = _subject(_ARTICLE.sub("", m.group("x").strip()), act)
    state = m.group("s").lower()
    kind = Kind.TICKED if state in _ON | _OFF else Kind.STATE
    negated = bool(m.group("no")) != (state in _OFF)
    return Condition(kind, subject, "checked" if kind is Kind.TICKED else state, negated) if subject else None


def _subject(said: str, act: str) -> str:
    """What the condition is about: as said, or what the request acts on where it says "it"."""
    return _object_of(act) if _PRONOUN.match(said) else said


def _object_of(act: str) -> str:
    """"start lab_webui" → "lab_webui": what the request acts on, where the condition says "it"."""
    rest = act.strip().split(None, 1)
    return _ARTICLE.sub("", rest[1].strip().rstrip(".!")) if len(rest) == 2 and not _REFERENCE.fullmatch(rest[1]) else ""


def judge(c: Condition, st: State) -> tuple[bool, str] | None:
    """Whether *c* holds on the live screen, and the statement a check of what the screen shows would make where
    it does not; None when the screen cannot say."""
    screen = st.live
    if screen is None:
        return None
    if c.kind is Kind.SHOWN:
        found = [t for t in grounding.live_elements(c.subject, screen, minimum=0.8) if t.live and not t.live.hidden]
        shown = bool(found) or any(grounding.norm(c.subject) in grounding.norm(e.label) for e in screen.elements
                                   if not e.hidden and e.label)
        if not shown and not _NAMED.search(c.subject):
            return None   # "a cookie notice" not found in those words may be there in others: never judged absent
        return shown != c.negated, f"{c.subject} is {'' if shown else 'not '}shown"
    if c.kind is Kind.TICKED:
        boxes = [t.live for t in grounding.live_elements(c.subject, screen, minimum=0.8)
                 if t.live is not None and t.live.checked is not None]
        if len(boxes) != 1:
            return None
        return bool(boxes[0].checked) != c.negated, f"{c.subject} is {'' if boxes[0].checked else 'not '}checked"
    rows = grounding.rows(c.subject, screen, minimum=0.7)
    named = [t.live for t in grounding.live_elements(c.subject, screen, minimum=0.8) if t.live and t.live.container]
    containers = list(dict.fromkeys([n.container for n in named] + [r.name for r in rows[:1]]))
    if len(containers) != 1 or len(rows) > 1 and rows[1].score >= rows[0].score - 0.05 and not named:
        return None
    row = containers[0]
    members = rows_of(screen)

    def states_of(r: str) -> set[str]:   # (the record's own name says no state: "Live ingest")
        own = " ".join([c.subject, *(n.label for n in named if n.container == r)]) if r == row else \
            grounding.row_key(r, screen)
        return shown_states(r, members[r], name=own)

    mine = states_of(row)
    said = alike(state_stem(c.state))
    if said & mine:   # the row says the state, in its words: "RUNNING" for "up"
        return not c.negated, f"{c.subject} is {shown_word(row, said & mine)}"
    other = opposite(state_stem(c.state)) & mine
    if other:         # the row says the opposite: "STOPPED" for "up"
        return c.negated, f"{c.subject} is {shown_word(row, other)}"
    # a state some other row says and this one does not ("RUNNING" in the others' rows): this one is not in it
    for r in members:
        theirs = said & states_of(r) if r != row else set()
        if theirs:
            return c.negated, f"{c.subject} is not {shown_word(r, theirs)}"
    return None


def _with_subject(act: str, subject: str) -> str:
    return _REFERENCE.sub(subject, act, count=1)


@dataclass(frozen=True)
class _Said:
    """A conditional sentence's parts: the condition (a question turned into a statement), the request, and
    whether the request is for the condition's opposite ("unless", "…? if not")."""
    cond: str
    act: str
    opposite: bool


def _said(text: str, compound: bool = False) -> _Said | None:
    """The condition and request of *text*; None where it has none. A condition said after the request is never
    one of a question ("check if X is up"), nor, unless *compound*, of a request of several clauses ("open
    Processes and start X if it is stopped": judged on the screen the steps before it lead to)."""
    text = text.strip()
    found = _QUESTION.match(text)
    if found:
        q = re.sub(r"^(is|are)\s+(?P<x>.+?)\s+(?P<s>[\w-]+)$", r"\g<x> \1 \g<s>", found.group("q").strip(), flags=re.I)
        return _Said(q, found.group("act"), True)
    found = _LEADING.match(text) or _TRAILING.match(text)
    if found is None or found.re is _TRAILING and (_ASKS.search(found.group("act"))
                                                   or not compound and _COMPOUND.search(found.group("act"))):
        return None
    return _Said(found.group("cond"), found.group("act"), found.group("word").lower() == "unless")


def resolve(task: str, st: State) -> str:
    """*task* with its condition judged on the screen: the request, or a check of why nothing is to be done."""
    if st.live is None or not re.search(r"\b(?:if|unless|in\s+case)\b", task, re.I):
        return task
    said = _said(task)
    if said is None:
        return task
    cond, act, negated_word = said.cond, said.act, said.opposite
    # what to do otherwise; the request the condition is for; what the task asks after it, whatever the condition says
    other = ""
    branch = _ELSE.search(act)
    if branch:
        act, other = act[:branch.start()], branch.group("b").strip()
    parts = split_clauses(act, set())
    act, rest = (parts[0], ", then ".join(parts[1:])) if parts else (act, "")
    c = parse(cond, act)
    if c is None:
        return task
    if negated_word:
        c = Condition(c.kind, c.subject, c.state, not c.negated)
    judged = judge(c, st)
    if judged is None:
        log.debug("cannot judge %r on the screen: the task is planned as written", cond)
        return task
    holds, shown = judged
    st.summary.append(f"condition {cond.strip()!r}: {'holds' if holds else 'does not hold'} ({shown})")
    now = _with_subject(act.strip(), c.subject) if holds else f"check that {shown}"
    if other and not holds:
        now += f", then {_with_subject(other, c.subject)}"
    return f"{now}, then {rest}" if rest else now


def is_conditional(clause: str) -> bool:
    """A clause that starts with its condition, or ends with one ("start X if it is stopped")."""
    said = _said(clause, compound=True)
    return said is not None and parse(said.cond, said.act) is not None


def unjudged(clause: str, st: State) -> str:
    """The condition of *clause* where the screen cannot say whether it holds ("if pump_a is running and pump_b is
    stopped", "if the sync looks slow"); "" where the clause has none, or one this module judges, or a polite "if
    needed". A request that depends on what cannot be judged is never done, nor skipped, blind."""
    said = _said(clause) if st.live is not None else None
    if said is None:
        return ""   # (a device with no screen to read: its tree's intents read the condition as they can)
    cond = said.cond.strip()
    if _POLITE.match(negated_aux(cond.rstrip(".!?"))) or _INTERNAL.match(cond):
        return ""
    c = parse(cond, said.act)
    if c is None:
        return cond
    if judge(c, st) is not None:
        return ""
    return "" if c.kind is Kind.TICKED else cond   # "turn the subtitles off if they are on": set, whatever it was


def opens_with_condition(clause: str) -> bool:
    """"if pump_b isn't running": a condition alone, its request in the clause after it."""
    m = re.match(r"^(?:if|unless|in\s+case)\s+(?P<cond>\S.*)$", clause.strip(), re.I)
    return m is not None and not _LEADING.match(clause.strip()) and parse(m.group("cond"), "") is not None

"""A task laid out as a tester lays out a bug report or a test sheet, said as one sentence the planner reads.

Testers paste tasks from where they keep them: a bug report's "Steps to reproduce" with numbered lines and an
"Expected:" line, a checklist ("- [ ] open Guide"), a table ("step | action" then "1 | Movies"), a row of a test
sheet ("channel=3 | expect now: Midnight Matinee"), or numbered steps on one line ("Steps: 1. Settings 2. Select
…"). :func:`flatten` turns each into "a, then b, then c. Expected: d" (the test-case reading of
:mod:`server.planners.restating` makes "Expected:" a check). A step of a list that says no verb ("Movies",
"The Last Orbit") is a place or an item to go to, and is opened. A test case as a tool prints it, with its id and
title ("TC-201 Live TV channel change | channel: 3 | expect now: Midnight Matinee", "test_id=TC-305 query=valley
expect_year=2018", YAML-ish lines with an "expect:" block) is read by :mod:`server.planners.records_layout` into the
lines of such a row, then said the same way. Nothing here knows any app.
"""
from __future__ import annotations

import re

from server.planners import records_layout
from server.planners.language import VERBS, VERB_PHRASES

# the title a report gives its steps ("Steps to reproduce:", "STR:", "Repro steps", "Bug repro", "Test steps")
_HEADER = re.compile(r"^\s*(?:bug\s+)?(?:steps?(?:\s+to\s+reproduce)?|repro(?:duction)?(?:\s+steps?)?|str|how\s+to\s+reproduce|"
                     r"test\s+steps?|procedure|scenario|checklist|to\s*-?\s*do|actions?)\s*(?::\s*|$)", re.I)
# what a line of a list starts with: a bullet, a box to tick, a number
_BULLET = re.compile(r"^\s*(?:[-*•·>]\s*)?(?:\[\s*[xX✓ ]?\s*\]\s*)?(?:\(?\d{1,2}\s*[.):]\s+|\d{1,2}\s*\|\s*|#\d{1,2}\s+)?")
# the line (or part) that says what should follow
_EXPECTED = re.compile(r"^\s*(?:expected(?:\s+results?)?|expect(?:ation|ed)?s?|exp\.?|result|then|outcome|verify|check)"
                       r"(?:\s+(?P<what>[\w ]{1,20}?))?\s*[:=]\s*(?P<x>\S.*)$", re.I)
# a table's header row ("step | action", "# | what to do | expected")
_TABLE_HEAD = re.compile(r"^\s*(?:#|no\.?|step|steps|nr|n°)\s*\|", re.I)
# a field of a test sheet's row: "channel=3", "query = tides", "replay item: Future of Robots", "action: play"
_FIELD = re.compile(r"^\s*(?P<k>[a-z][\w ]{0,24}?)\s*(?:=|:)\s*(?P<v>\S.*)$", re.I)
_KNOWN_VERBS = frozenset(VERBS) | {p.split()[0] for p, _ in VERB_PHRASES}
# what a field's name says to do with its value
_FIELD_ACTS = {"query": "search for", "search": "search for", "search for": "search for", "find": "search for",
               "open": "open", "go to": "go to", "goto": "go to", "screen": "go to", "page": "go to", "menu": "open",
               "start": "go to", "start screen": "go to", "from": "go to",
               "select": "select", "pick": "select", "choose": "select", "click": "click", "press": "press",
               "key": "press", "button": "press", "type": "type", "input": "type", "enter": "type", "text": "type",
               "channel": "switch to channel", "ch": "switch to channel", "tune": "switch to channel",
               "action": "", "do": "", "step": "", "then": ""}


def _said(step: str) -> str:
    """One step of a list as a request: as written when it starts with a verb; a field of a test sheet as what
    its name says to do with its value; else a place or item to open ("Movies" → "open Movies")."""
    step = step.strip().rstrip(".;")
    if not step:
        return ""
    m = _EXPECTED.match(step)
    if m:
        return f"Expected: {_expected_value(m.group('what') or '', m.group('x'))}"
    first = step.split()[0].lower().strip(",:")
    equal = re.match(r"^(?P<k>[a-z][\w ]{0,30}?)\s*={2,3}\s*(?P<v>\S.*)$", step, re.I)
    if equal:   # "title == Neon Tides": what a test asserts
        return f'check {equal.group("k").replace("_", " ")} shows "{equal.group("v").strip(chr(39) + chr(34))}"'
    f = _FIELD.match(step)
    if f and _FIELD_ACTS.get(re.sub(r"\s+", " ", f.group("k").lower())) is None and first in _KNOWN_VERBS:
        f = None   # "check Live shows CH 4 / Now: Robo Pals": a request that holds a colon of its own
    if f is None and (first in _KNOWN_VERBS or first in ("if", "when", "wait", "log", "sign")):
        return _checked_parts(step) if first in ("check", "verify", "confirm", "ensure") else step
    if f and not re.search(r"\s>\s", step):
        key = re.sub(r"\s+", " ", f.group("k").lower())
        value = f.group("v").strip()
        act = _FIELD_ACTS.get(key)
        if act is None:
            last = key.split()[-1]
            act = _FIELD_ACTS.get(last, None)
            if act is None and (last in ("state", "status", "result", "outcome", "value", "year", "count", "total")
                                or re.fullmatch(r"(?:on|off|enabled|disabled|yes|no|true|false|\d[\d:.,/ -]*)", value, re.I)):
                # "state: Playing", "year: 2019", "subtitles=Off": what a field should show, checked
                return f'check {key.replace("_", " ")} shows "{value}"'
            if act is None:
                # "replay item: Future of Robots": the item, opened where the name before it says
                where = " ".join(w for w in key.split() if w not in ("item", "entry", "row", "title", "name"))
                return f"open {value}" + (f" in {where}" if where and where != key else "")
        if not act:
            return value
        return f"{act} {value}"
    if " > " in step:
        return step   # "Movies > Paper Kingdoms > Play": a path the planner reads as it is
    if _STATEMENT.search(step) or _STATE_LINE.match(step):
        return f"check {step}"   # "Audio language shows French by default", "Subtitles On": a line that says what holds
    if re.match(r"^(?-i:[A-Z0-9\"'“])", step):
        return f"open {step}"
    return step


# a line of a list that names a state and no verb ("Subtitles On", "player paused")
_STATE_LINE = re.compile(r"^[\w' -]{2,40}?\s+(?:on|off|enabled|disabled|playing|paused|shown|visible|hidden|selected|checked|"
                         r"open|closed|locked|unlocked|muted)$", re.I)
# a line of a list that says what holds rather than what to do
_STATEMENT = re.compile(r"\b(?:is|are|shows?|says?|reads?|displays?|lists?|plays?|has|have|should|must|stays?|remains?)\b",
                        re.I)


def _checked_parts(step: str) -> str:
    """"check Live shows CH 4 / Now: Robo Pals": each value after the slash a check of its own, as written."""
    m = re.match(r"^(?P<v>check|verify|confirm|ensure)\s+(?:that\s+)?(?P<s>[^/]+?)\s+(?:shows?|says?|reads?|displays?)\s+"
                 r"(?P<x>[^/]+(?:\s+/\s+[^/]+)+)$", step, re.I)
    if m is None:
        return step
    return ", then ".join(f'check {m.group("s")} shows "{x.strip()}"' for x in m.group("x").split(" / ") if x.strip())


def _expected_value(what: str, value: str) -> str:
    """What an "Expected"/"expect LABEL:" part checks: a value under a label of the tester's own ("pill: CH 3",
    "now: Midnight Matinee") is looked for as written; a sentence is read as it is."""
    value = value.strip().rstrip(".")
    if what and len(value.split()) <= 5 and not _STATEMENT.search(value) and not re.search(r"[\"“”]", value):
        return f'{what.strip()} shows "{value}"'   # what shows it stays said: "Off" anywhere is no subtitles' Off
    return value


def _acted(lines: list[str]) -> list[str]:
    """"action: tune" then "channel: 3": the one-word action is what the next field does ("switch to channel 3"),
    or is done to its value ("action: play" then "item: Ocean Giants" → "play Ocean Giants")."""
    out: list[str] = []
    for i, line in enumerate(lines):
        act = re.match(r"^\s*(?:action|do|step)\s*[:=]\s*(?P<w>[a-z]+)\s*$", line, re.I)
        nxt = _FIELD.match(lines[i + 1]) if act and i + 1 < len(lines) else None
        if act is None or nxt is None or _EXPECTED.match(lines[i + 1]):
            out.append(line)
            continue
        word, key = act.group("w").lower(), re.sub(r"\s+", " ", nxt.group("k").lower())
        if key.split()[-1] in ("state", "status", "result", "outcome", "value") or re.match(r"(?:expect|assert|verify|check)", key):
            out.append(line)   # "action: play" then "state: Playing": what should hold after it, never done by it
            continue
        said = _FIELD_ACTS.get(key, _FIELD_ACTS.get(key.split()[-1]))
        if said and said not in (_FIELD_ACTS.get(word, word), word):
            out.append(line)   # "action: open" then "channel: 3": two things to do
        elif not said:   # "action: select" then "row: 8" → "select row 8"
            value = nxt.group("v").strip()
            lines[i + 1] = f"{word} {key} {value}" if value.isdigit() else f"{word} {value}"
    return out


def _steps(lines: list[str]) -> str:
    done: list[str] = []
    expected: list[str] = []
    for line in _acted(list(lines)):
        said = _said(line)
        if not said:
            continue
        (expected if said.startswith("Expected: ") else done).append(
            said[len("Expected: "):] if said.startswith("Expected: ") else said)
    text = ", then ".join(done)
    if expected:
        text += (". " if text else "") + "Expected: " + ", then check ".join(e.rstrip(".") for e in expected)
    return text


def _table_row(line: str) -> str:
    """"2 | The Last Orbit" of a table of steps: its cells after the step's number, as one step."""
    cells = [c.strip() for c in line.split("|")]
    if cells and re.fullmatch(r"#?\d{1,2}[.)]?", cells[0]):
        cells = cells[1:]
    return " ".join(c for c in cells if c)


def _records(records: list[list[str]]) -> str:
    """Test-case records one after the other: what each expects is checked before the next one starts."""
    said = [s for s in (_steps(lines) for lines in records) if s]
    text = ""
    for i, one in enumerate(said):
        if i < len(said) - 1:   # "… Expected: a, then check b" of a record before the last: its checks, in place
            one = re.sub(r"^Expected: |\. Expected: ", lambda m: "check " if m.start() == 0 else ", then check ", one)
        if text:
            text += ". " if one.startswith("Expected: ") else ", then "
        text += one
    return text


def flatten(task: str) -> str:
    """*task* as one sentence where it is laid out as a list, a table, a row of fields or a test-case record; else
    unchanged."""
    records = records_layout.records(task)
    if records:
        return _records(records) or task
    if "\n" in task.strip():
        lines = [ln for ln in (x.strip() for x in task.strip().splitlines()) if ln]
        laid_out = _HEADER.match(lines[0]) or _TABLE_HEAD.match(lines[0]) or sum(
            1 for ln in lines if _BULLET.match(ln).group(0).strip() or _EXPECTED.match(ln)) >= max(2, len(lines) - 1)
        if not laid_out:   # a sentence wrapped over lines ("… check that the banner shows\nMelody TV")
            return " ".join(lines)
        if lines and _HEADER.fullmatch(lines[0].rstrip(":").strip() + ":") and len(lines) > 1:
            lines = lines[1:]
        elif lines and _HEADER.match(lines[0]):
            lines[0] = _HEADER.sub("", lines[0], count=1)
        if lines and _TABLE_HEAD.match(lines[0]):
            lines = [_table_row(ln) if "|" in ln else ln for ln in lines[1:]]
        listed = [_BULLET.sub("", ln, count=1) for ln in lines]
        return _steps(listed)
    one = task.strip()
    cells = [p for p in one.split("|") if p.strip()]
    if len(cells) >= 2 and not re.search(r"\|\|", one) and all(_FIELD.match(p) or _EXPECTED.match(p) for p in cells):
        # a row of a test sheet: "channel=3 | expect pill: CH 3 | expect now: Midnight Matinee"
        return _steps(cells)
    header = _HEADER.match(one)
    if header and header.group(0).rstrip().endswith(":"):
        one = one[header.end():].strip()
    numbered = re.split(r"(?:(?<=^)|(?<=\s))\(?(\d{1,2})[.)]\s+(?=\S)", one)
    # "1. Settings 2. Select 'Parental lock: Off' 3. Enter PIN 1234": only a run counted from 1
    if len(numbered) >= 5 and numbered[1] == "1" and numbered[3] == "2" and not numbered[0].strip():
        parts = [numbered[i + 1] for i in range(1, len(numbered) - 1, 2)]
        last = parts[-1]
        tail = re.split(r"(?<=[.!])\s+(?=(?:expected|expect|result)\b)", last, maxsplit=1, flags=re.I)
        parts[-1] = tail[0]
        return _steps(parts + tail[1:])
    return one if header else task

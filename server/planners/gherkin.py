"""A task written as a Gherkin scenario (Given / When / Then), said as the sentence the planner reads.

BDD testers write a scenario, on lines or on one line::

    Scenario: Pausing a catch-up programme
      Given I am on the Replay screen
      When I play "Ocean Giants"
      And I pause playback
      Then the player title is "Ocean Giants"

:func:`flatten` makes it "go to the Replay screen, then play "Ocean Giants", then pause playback, then check the
player title is "Ocean Giants"": a *Given* that says where the tester is goes there, any other *Given* is checked
(a precondition is never made true behind the tester's back), a *When* is done, a *Then* is checked, and *And* /
*But* take the kind of the step before. Titles (``Feature:``, ``Scenario:``, ``Background:``) say nothing to do.
Nothing here knows any app.
"""
from __future__ import annotations

import re

_TITLE = re.compile(r"^\s*(?:feature|scenario(?:\s+outline)?|background|example|rule)\s*:", re.I)
# a step's keyword at the start of a line (any case), or inside one line (capitalised, as Gherkin writes it)
_LINE_STEP = re.compile(r"^\s*(?P<k>given|when|then|and|but)\b(?!\s*[:=])[\s,]*(?P<b>.*)$", re.I)   # "given:" is a record's key
_INLINE_STEP = re.compile(r"(?<![\w\"'“])(?-i:Given|When|Then|And|But)\b")
# the one doing it, said first ("I play X", "the user opens Y", "we are on Z")
_SUBJECT = re.compile(r"^(?:i|we|the\s+(?:user|viewer|tester|customer))\s+(?:have\s+|has\s+)?(?=\w)", re.I)
# where the tester is: "I am on the Replay screen", "I'm in Settings", "the Guide is open", "Search is displayed"
_WHERE = re.compile(r"^(?:(?:i|we)\s*(?:['’]m|['’]re|\s+am|\s+are)\s+(?:on|in|at)\s+(?P<a>[^,]+?)"
                    r"(?:\s+(?:with|where|and)\s+(?P<w>.+?))?|"
                    r"(?:the\s+)?(?P<b>.+?)\s+(?:screen\s+|page\s+)?(?:is|are)\s+(?:open(?:ed)?|shown|displayed|"
                    r"visible|on\s+screen))$", re.I)
_ACTS = {"given": "given", "when": "when", "then": "then"}


def _is_scenario(lines: list[str]) -> bool:
    kinds = {m.group("k").lower() for m in (_LINE_STEP.match(ln) for ln in lines) if m}
    return len(kinds & {"given", "when", "then"}) >= 2 or (
        bool(kinds & {"given", "when", "then"}) and any(_TITLE.match(ln) for ln in lines))


def _steps_first(lines: list[str]) -> bool:
    """Nothing but titles and tags comes before the first step ("Turn subtitles on.\nThen …" is a plain text)."""
    for ln in lines:
        if _LINE_STEP.match(ln):
            return True
        if not (_TITLE.match(ln) or ln.startswith(("#", "@"))):
            return False
    return False


def _steps_of(task: str) -> list[tuple[str, str]] | None:
    """The scenario's steps as (keyword, body); None when *task* is not written as one."""
    lines = [ln.strip() for ln in task.strip().splitlines() if ln.strip()]
    if len(lines) == 1:
        one = _TITLE.sub("", lines[0], count=1) if _TITLE.match(lines[0]) else lines[0]
        cuts = [m.start() for m in _INLINE_STEP.finditer(one)]
        if not cuts:
            return None
        head, parts = one[:cuts[0]], [one[a:b] for a, b in zip(cuts, cuts[1:] + [len(one)])]
        if head.strip() and not _TITLE.match(lines[0]):
            return None   # a sentence that says "Then" in it, not a scenario
        lines = parts
    elif not _is_scenario(lines) or not _steps_first(lines):
        return None
    steps: list[tuple[str, str]] = []
    for ln in lines:
        if _TITLE.match(ln) or ln.startswith(("#", "@")):
            continue
        m = _LINE_STEP.match(ln)
        if m is None:
            if steps:   # a step said over two lines
                steps[-1] = (steps[-1][0], f"{steps[-1][1]} {ln}")
            continue
        steps.append((m.group("k").lower(), m.group("b").strip().rstrip(".;")))
    kinds = {k for k, _ in steps} & {"given", "when", "then"}
    titled = any(_TITLE.match(ln) for ln in task.strip().splitlines())
    return steps if len(kinds) >= 2 or (kinds and titled) else None


def _given(body: str) -> str:
    parts = re.split(r"\s+and\s+(?=(?:the|i|we|it|[A-Z]))", body)
    said = []
    for part in parts:
        m = _WHERE.match(part.strip())
        if m:
            said.append(f"go to {m.group('a') or m.group('b')}")
            if m.group("w"):   # "Given I am in Settings with subtitles Off": where, then what holds there
                said.append(f"check {m.group('w')}")
        elif part.strip():
            said.append(f"check {_SUBJECT.sub('', part.strip(), count=1)}")
    return ", then ".join(said)


def _said(kind: str, body: str) -> str:
    if kind == "given":
        return _given(body) if body else ""
    body = _SUBJECT.sub("", body, count=1).strip()
    if not body:
        return ""
    if kind == "then":
        seen = re.match(r"^(?:should\s+|can\s+|will\s+)?see\s+(?P<x>.+?)(?:\s+(?P<p>(?:in|on)\s+(?:the\s+)?.+))?$", body, re.I)
        if seen:   # "Then I should see "Melody TV" in the banner": the banner shows it
            return f"check {seen.group('p').split(None, 1)[1]} shows {seen.group('x')}" if seen.group("p") else \
                f"check {seen.group('x')} is shown"
        return body if re.match(r"^(?:check|verify|confirm|ensure|make\s+sure)\b", body, re.I) else f"check {body}"
    return body


def flatten(task: str) -> str:
    """*task* as one sentence where it is written as a Gherkin scenario; else unchanged."""
    steps = _steps_of(task)
    if not steps:
        return task
    said: list[str] = []
    kind = "when"
    for keyword, body in steps:
        kind = _ACTS.get(keyword, kind)   # And / But: the kind of the step before
        one = _said(kind, body)
        if one:
            said.append(one)
    return ", then ".join(said) if said else task

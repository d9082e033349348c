"""A test-case record, as a CI job or a test-management tool prints it, said as the lines of a test sheet's row.

Test cases come out of tools with an id and a title before their fields, and in a few shapes:

* a row: "TC-201 Live TV channel change | action: tune | channel: 3 | expect now: Midnight Matinee";
* an id, then steps: "e2e/guide_tune.spec: open Guide -> select row 8 -> assert now == 'Gadget Lab'";
* key=value words: "test_id=TC-305 screen=search query=valley expect_title="The Quiet Valley"";
* lines, YAML-ish, with checks nested under "expect:" / "assert:" / "then:", preconditions under "precondition:" /
  "setup:" / "given:", and steps under "steps:" (as a list, or as a "Movies > Play" path).

:func:`records` reads each as records, each a list of lines :mod:`server.planners.layouts` reads as it reads a test
sheet's row: a field ("channel: 3"), a step ("open Guide"), a check done where it is said ("check Subtitles shows
"Off""), or what should follow ("Expected: title shows "The Quiet Valley""). The id and the title say nothing to
do and are dropped; so are a record's metadata (priority, tags, owner). Nothing here knows any app.
"""
from __future__ import annotations

import re

from server.planners.language import VERBS, VERB_PHRASES

# a test case's id: "TC-201", "TEST-12", "QA_7", "#45", "CASE 3", "[TC-9]", a test file or node
# ("e2e/guide_tune.spec", "smoke/login.test.ts", "tests/test_tv.py::test_tune")
_WORD_ID = r"(?:test\s*case|case|test|tc)\s*#?\s*\d+"
_ID = (r"(?:\[?(?:(?-i:[A-Z][A-Z0-9]*)[-_]\d+|#\d+|" + _WORD_ID + r")\]?(?![\w.-])|"
       r"[\w.-]+(?:/[\w.-]+)+\.[a-z]\w*(?:::[\w\[\].-]+)*|[\w-]+\.(?:spec|test|e2e|cy|feature)(?:\.[a-z]+)?)")
# a record's title said by its key ("job: smoke-player", "test_id=TC-305", "name: Subtitles toggle")
_TITLE_KEYS = frozenset({"id", "test id", "testid", "tc", "case", "test case", "testcase", "case id", "tc id", "job",
                         "test", "name", "test name", "suite", "spec"})
_TITLE_CELL = re.compile(r"^\s*(?:" + _ID + r"(?:[\s:–—-].*)?|(?:" + "|".join(k.replace(" ", r"[\s_]?") for k in
                         sorted(_TITLE_KEYS)) + r")\s*[:=]\s*\S.*)$", re.I)
# what describes a record and asks nothing: "priority: P2", "tags: smoke", "owner: qa-team"
_META_KEYS = frozenset({"priority", "severity", "tags", "tag", "labels", "owner", "author", "assignee",
                        "component", "description", "summary", "note", "notes", "comment", "comments",
                        "created", "updated", "estimate", "automated", "platform", "device", "env", "environment",
                        "browser", "build", "version", "status", "result id", "duration ms", "timeout"})
_EXPECT_KEYS = frozenset({"expect", "expected", "expects", "expected result", "expected results", "expectation",
                          "expectations", "assert", "asserts", "assertion", "assertions", "then", "verify", "check",
                          "checks", "outcome", "result"})
_BEFORE_KEYS = frozenset({"precondition", "preconditions", "pre condition", "pre conditions", "pre", "setup",
                          "set up", "given", "prerequisite", "prerequisites", "requires", "initial state",
                          "start state"})
_STEPS_KEYS = frozenset({"steps", "step list", "actions", "procedure", "when", "test steps"})
# "field=duration" names what a bare "expected=1h 58m" is the value of
_LABEL_KEYS = frozenset({"field", "attribute", "property", "column", "label", "element"})
# a field whose value names a place or a choice: "screen=movie_detail", "select=first_result" (said in words)
_PLACE_KEYS = frozenset({"screen", "page", "view", "tab", "menu", "start", "from", "start screen", "open", "go to",
                         "goto", "select", "pick", "choose"})
# a key only a record says (a bug report says "Steps:" and "Expected:" too; a title is one)
_RECORD_KEYS = ({"assert", "asserts", "assertion", "assertions", "expectation", "expectations", "steps"} | _BEFORE_KEYS
                | (_LABEL_KEYS - {"label"}))

_KEY_VALUE = re.compile(r"^(?P<k>[A-Za-z][\w/ -]{0,30}?)\s*(?::|=)(?!=)\s*(?P<v>.*)$")
_BULLET = re.compile(r"^(?:[-*•]|\d{1,2}[.)])\s+")
# steps said one after the other on one line: "open Guide -> select row 8 → assert now == 'Gadget Lab'"
_ARROW = r"\s*(?:->|→|=>|⇒)\s*|\s*;\s*"
_CHECK_STEP = re.compile(r"^(?:assert(?:That)?|expect|verify|check|ensure)\b[\s:]*(?P<x>.+)$", re.I)
# "expect(title).toHaveText('X')": a check as a test's code says it
_CODE_CHECK = re.compile(r"^expect\((?P<k>[^)]+)\)\.(?:to(?:Be|Equal|HaveText|ContainText|Contain|HaveValue))\("
                         r"(?P<v>[^)]*)\)$")
# "title == 'X'", "player state = Paused", "Subtitles: On": a label and the value it should show
_PAIR = re.compile(r"^(?P<k>[A-Za-z][\w/ .-]{0,40}?)(?<!\d)\s*(?:===?|:|=)(?!//)\s*(?P<v>\S.*)$")
# a precondition that says where the tester is: "Settings screen open", "on the Home screen", "user in Guide"
_WHERE = re.compile(r"^(?:(?:the\s+)?(?:user|viewer|tester|app|device|i|we)\s+(?:is\s+|am\s+|are\s+)?)?"
                    r"(?:(?:on|at|in)\s+(?:the\s+)?(?P<a>.+?)(?:\s+(?:screen|page|view))?|"
                    r"(?:the\s+)?(?P<b>.+?)\s+(?:(?:screen|page|view|tab)\s+(?:is\s+)?"
                    r"(?:open(?:ed)?|shown|displayed|active|visible)|(?:is\s+)?open(?:ed)?))$", re.I)
_STATEMENT = re.compile(r"\b(?:is|are|shows?|says?|reads?|displays?|has|have|should|must)\b", re.I)
_VERBS = frozenset(VERBS) | {p.split()[0] for p, _ in VERB_PHRASES}
# a record's (key, value, block): ("state", "Playing", "expect"), ("", "open Guide", "steps")
Entry = tuple[str, str, str]


def _quoted(value: str) -> str:
    """"'Subtitles: On'" → "Subtitles: On": a value in quotes is its quotes' content, whole."""
    value = value.strip()
    m = re.fullmatch(r"\"([^\"]*)\"|'([^']*)'|“([^”]*)”|‘([^’]*)’", value)
    return next(g for g in m.groups() if g is not None) if m else value


def _words(name: str) -> str:
    """"current_channel" → "current channel", "playerTitle" → "player title": a name as words; else as written."""
    name = name.strip()
    if " " in name or not re.search(r"_|(?<=[a-z])[A-Z]", name):
        return name
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").strip().lower()


def _key(name: str) -> str:
    return re.sub(r"[\s_-]+", " ", _words(name).lower()).strip()


def _split(text: str, sep: str) -> list[str]:
    """*text* cut at *sep* (a pattern) where it is not inside quotes: "a == 'x; y'; b" → ["a == 'x; y'", "b"]."""
    parts, start = [], 0
    for m in re.finditer(r"\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)|“[^”]*”|(?P<s>" + sep + ")", text):
        if m.group("s") is not None:
            parts.append(text[start:m.start()])
            start = m.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _shows(label: str, value: str) -> str:
    """'title shows "X"'; a screen expected is said shown: "screen: movie_detail" → "movie detail is shown"."""
    label = _words(label)
    if label.lower() in ("screen", "page", "view", "current screen"):
        return f"{_words(_quoted(value))} is shown"
    return f'{label} shows "{_quoted(value)}"'


def _checked(part: str, label: str = "") -> str:
    """One thing a record expects, as a check: "player state = Paused" → 'player state shows "Paused"',
    "audio language unchanged (English)" → 'audio language shows "English"'; a sentence is kept as written."""
    part = _quoted(part.strip().rstrip("."))
    code = _CODE_CHECK.match(part)
    if code:
        return _shows(code.group("k").strip("'\" "), code.group("v"))
    kept = re.match(r"^(?P<k>.+?)\s+(?:unchanged|still|stays|remains)\s*(?:\((?P<v>[^()]+)\)|[:=]\s*(?P<w>.+))$",
                    part, re.I)
    if kept:
        return _shows(kept.group("k"), kept.group("v") or kept.group("w"))
    pair = _PAIR.match(part)
    if pair and not _STATEMENT.search(pair.group("k")) and len(pair.group("k").split()) <= 5:
        return _shows(pair.group("k"), pair.group("v"))
    return _shows(label, part) if label and not _STATEMENT.search(part) else part


def _expected(value: str, label: str = "") -> list[str]:
    """"'Subtitles: On'; audio language unchanged (English)" → each part a check: parts are cut at ";" and "&&",
    and at "," or "and" where each part is a label and its value."""
    parts = _split(value, r";|&&")
    for sep in (r",", r"\band\b"):
        parts = [q for p in parts for q in (_split(p, sep) if all(_PAIR.match(x) for x in _split(p, sep)) else [p])]
    return [f"Expected: {_checked(p, label)}" for p in parts]


def _before(value: str) -> list[str]:
    """A precondition: a screen that is open is gone to ("Settings screen open" → "go to Settings"), a step is
    done as written, and anything else is checked, never made so ("Subtitles: Off" → 'check Subtitles shows
    "Off"')."""
    said = []
    for part in _split(value, r"[,;]"):
        part = _quoted(part.rstrip("."))
        if not part:
            continue
        where, pair = _WHERE.match(part), _PAIR.match(part)
        if where or (pair and _key(pair.group("k")) in _PLACE_KEYS):
            said.append(f"go to {where.group('a') or where.group('b') if where else _words(_quoted(pair.group('v')))}")
        elif part.split()[0].lower() in _VERBS:
            said.append(part)
        else:
            said.append(f"check {_checked(part)}")
    return said


def _steps(value: str) -> list[str]:
    """Steps said on one line ("open Guide -> select row 8 -> assert now == 'Gadget Lab'"), each as a line; a
    check among them is done where it is said."""
    said = []
    for step in _split(value, _ARROW):
        check = None if _CODE_CHECK.match(step) else _CHECK_STEP.match(step)
        if check:
            said += [f"check {x[len('Expected: '):]}" for x in _expected(check.group("x"))]
        else:
            said.append(f"check {_checked(step)}" if _CODE_CHECK.match(step) else step)
    return said


def _lines(entries: list[Entry]) -> list[str]:
    """A record's (key, value, block) entries as the lines of a test sheet's row."""
    label = next((_words(v) for k, v, b in entries if _key(k) in _LABEL_KEYS and v and not b), "")
    lines: list[str] = []
    for key, value, block in entries:
        k, b = _key(key), _key(block)
        compound = re.match(r"^(?:expect(?:ed)?|assert|verify|check) (?P<w>.+)$|^(?P<x>.+) expected$", k)
        if not value or (b == "" and (k in _META_KEYS or k in _LABEL_KEYS)):
            continue
        if b == "" and (k in _TITLE_KEYS or (k == "step" and re.fullmatch(r"[\w.-]*[_.-][\w.-]*|\w*\d\w*", value))):
            continue   # "step: play_replay": the record's name, nothing to do
        if b in _EXPECT_KEYS or (not b and k in _EXPECT_KEYS):
            lines += [f"Expected: {_shows(key, value)}"] if key and b else _expected(value, label)
        elif compound and not b:
            lines.append(f"Expected: {_shows(compound.group('w') or compound.group('x'), value)}")
        elif b in _BEFORE_KEYS or (not b and k in _BEFORE_KEYS):
            lines += _before(value if not key or not b else f"{key}: {value}")
        elif (b in _STEPS_KEYS and not key) or (not b and k in _STEPS_KEYS):
            lines += _steps(value)
        elif key:
            shown = _words(_quoted(value)) if k in _PLACE_KEYS else _quoted(value)
            # "select=first_result" → "select: the first result"
            lines.append(f"{k}: " + re.sub(r"^(?=(?:first|second|third|last|next|\d+(?:st|nd|rd|th))\b)", "the ",
                                           shown))
        else:
            lines += _steps(value)
    return lines


def _field(body: str) -> tuple[str, str] | None:
    """"precondition: Settings screen open" → its key and value; None for a sentence or an address."""
    m = _KEY_VALUE.match(body)
    if m is None or len(m.group("k").split()) > 4 or re.search(r"(?:https?|mailto)$", m.group("k"), re.I):
        return None
    return m.group("k").strip(), m.group("v").strip()


def _is_title(line: str) -> bool:
    """"TC-118 Subtitles toggle", "TC-118: Subtitles toggle", "job: smoke-player": a record's id and title."""
    field = _field(line.strip())
    return bool(_TITLE_CELL.match(line)) and (field is None or bool(re.fullmatch(_ID, field[0], re.I))
                                              or _key(field[0]) in _TITLE_KEYS)


def _marks(key: str) -> bool:
    """A key only a record says: "precondition", "assert", "field", "steps", "expect_title", "assert_state"."""
    return _key(key) in _RECORD_KEYS or bool(re.match(r"(?:expect(?:ed)?|assert|verify)_\w", key.strip(), re.I))


def _on_lines(task: str) -> tuple[list[list[Entry]], bool] | None:
    """A record laid out on lines, YAML-ish, as its entries per record, and whether it says it is a record (a title
    line, "- key: value" items of more than a line, a nested block); None when a line is no field of one."""
    raw = [ln.rstrip() for ln in task.strip("\n").splitlines() if ln.strip()]
    titled = _is_title(raw[0])
    records: list[list[Entry]] = [[]]
    marked = False
    block, block_indent, item_indent = "", -1, None
    for line in raw[1:] if titled else raw:
        indent, text = len(line) - len(line.lstrip()), line.strip()
        bullet = _BULLET.match(text)
        body = text[bullet.end():] if bullet else text
        field = _field(body)
        if block and not (indent > block_indent or (bullet and indent >= block_indent)):
            block = ""
        if bullet and field and not block and not titled and (item_indent is None or indent == item_indent):
            if records[-1]:
                records.append([])
            item_indent = indent   # "- step: play_replay": one record of a list of them
        if block:
            keyed = bool(field) and (not bullet or _key(block) not in _STEPS_KEYS)
            records[-1].append((field[0], field[1], block) if keyed else ("", body, block))
            # "expect:" with "state: Playing" or "- state == Playing" below it (a report's "Steps:" lists lines too)
            marked = marked or keyed or _key(block) in _EXPECT_KEYS | _BEFORE_KEYS
        elif field and not field[1]:
            block, block_indent = field[0], indent   # "expect:", its values below it
        elif field:
            records[-1].append((field[0], field[1], ""))
        elif titled:
            records[-1].append(("", body, "steps"))   # a step said under the record's title
        else:
            return None
    keyed = any(k for r in records for k, _, _ in r)
    # "#1 open Guide" then "#2 …" is a numbered list, no title; "- channel: 3" then "- expect now: X", a checklist
    marked = marked or (titled and (keyed or not re.match(r"\s*#?\d", raw[0]))) or (
        item_indent is not None and any(len(r) > 1 for r in records))
    return [r for r in records if r], marked or any(_marks(k) for r in records for k, _, b in r if not b)


# "test_id=TC-305 screen=search query=valley expect_title="The Quiet Valley"": key=value words, a value in quotes whole
_KV = r"[A-Za-z][\w.-]*=(?:\"[^\"]*\"|'[^']*'|[^\s\"']+)"
_KV_LINE = re.compile(r"(?:" + _ID + r"\s+)?" + _KV + r"(?:\s+" + _KV + r")+", re.I)


def _on_one_line(text: str) -> list[Entry] | None:
    """A record said on one line: a row of cells, key=value words, or an id and then its steps."""
    cells = _split(text, r"\|")
    if len(cells) >= 2:
        # "TC-412 metadata | movie=River of Glass | field=duration | expected=1h 58m"
        if "||" in text:
            return None
        titled = bool(_TITLE_CELL.match(cells[0]))
        cells = cells[1:] if titled else cells
        fields = [_field(c) for c in cells]
        if not titled and (not all(fields) or not any(_marks(f[0]) for f in fields if f)):
            return None   # an ordinary row, or a sentence with a bar of its own
        return [(f[0], f[1], "") if f else ("", c, "steps") for f, c in zip(fields, cells)]
    if _KV_LINE.fullmatch(text):
        pairs = re.findall(r"([A-Za-z][\w.-]*)=(\"[^\"]*\"|'[^']*'|[^\s\"']+)", text)
        if re.match(_ID + r"\s", text, re.I) or any(_key(k) in _TITLE_KEYS | _EXPECT_KEYS or _marks(k)
                                                     for k, _ in pairs):
            return [(k, v, "") for k, v in pairs]
        return None   # "user=ann pass=secret": words of a form, no test case
    # "e2e/guide_tune.spec: open Guide -> select row 8 (Tech Today) -> assert now == 'Gadget Lab'"; a title between
    # the id and the colon only after an id of its own ("Test 3 times: press OK" is a sentence)
    m = re.match(r"^(?P<id>" + _ID + r")(?P<title>\s+[^:]{1,60}?)?\s*:\s+(?P<rest>\S.*)$", text, re.I)
    if m and m.group("title") and re.fullmatch(r"\[?" + _WORD_ID + r"\]?", m.group("id"), re.I):
        return None
    said = m and (re.search(_ARROW + r"|\s>\s", m.group("rest")) or
                  m.group("rest").split()[0].lower() in _VERBS | {"log", "sign", "wait"})
    return [("", m.group("rest"), "steps")] if said else None   # "CH-4: Kids Planet" names, asks nothing


def records(task: str) -> list[list[str]] | None:
    """*task* as the records it prints, each as lines of a test sheet's row; None when it is no record."""
    text = task.strip()
    if not text:
        return None
    if "\n" in text:
        parsed = _on_lines(task)
        if parsed is None or not parsed[1]:
            return None
        entries = parsed[0]
    else:
        one = _on_one_line(text)
        entries = [one] if one else []
    lines = [said for said in (_lines(record) for record in entries) if said]
    return lines or None

"""How testers word tasks: filler, verbs and their synonyms, typos, clauses, pronouns.

Nothing here knows a device. It turns "Could you pls opne the guide, and then
chekc that Melody TV is listed?" into clauses with a canonical :class:`Act`
each ("open the guide" → OPEN, "Melody TV is listed" → CHECK), so that the
intents only deal with meaning, and grounding deals with the device. What testers
say another way is said again first, in :mod:`server.planners.restating`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache


class Act(str, Enum):
    CHECK = "check"
    NAVIGATE = "navigate"     # go/navigate/visit: a screen
    OPEN = "open"             # open/show/view: a screen or an element
    CLICK = "click"           # click/tap/select/choose/press (a control)
    TYPE = "type"
    SEARCH = "search"
    TURN_ON = "turn_on"
    TURN_OFF = "turn_off"
    TOGGLE = "toggle"
    SET = "set"               # set/change X to Y
    PLAY = "play"
    PAUSE = "pause"
    ADD = "add"
    DELETE = "delete"
    TICK = "tick"             # check off / mark done / complete
    UNTICK = "untick"
    EDIT = "edit"
    BACK = "back"
    RELOAD = "reload"
    SCROLL = "scroll"
    HOVER = "hover"
    DOUBLE_CLICK = "double_click"
    TUNE = "tune"
    PRESS = "press"           # keys of the remote or keyboard
    CLEAR = "clear"
    SUBMIT = "submit"
    FILTER = "filter"
    SORT = "sort"
    WANT = "want"             # "I need subtitles": turned on, or opened
    NONE = "none"             # no verb: a bare statement ("Melody TV is listed")


# Multi-word verbs first; each maps the words that open a clause to an act.
VERB_PHRASES: list[tuple[str, Act]] = [
    ("got to", Act.NAVIGATE), ("goto", Act.NAVIGATE),
    ("look at", Act.OPEN), ("look in", Act.OPEN), ("look inside", Act.OPEN), ("have a look at", Act.OPEN), ("take a look at", Act.OPEN),
    ("show only", Act.FILTER), ("only show", Act.FILTER), ("display only", Act.FILTER), ("list only", Act.FILTER),
    ("show me only", Act.FILTER), ("show me just", Act.FILTER), ("show just", Act.FILTER), ("only display", Act.FILTER),
    ("only list", Act.FILTER), ("display just", Act.FILTER),
    ("make sure", Act.CHECK), ("get rid of", Act.DELETE), ("do away with", Act.DELETE), ("take out", Act.DELETE),
    ("double-check", Act.CHECK), ("double check", Act.CHECK), ("triple-check", Act.CHECK), ("cross-check", Act.CHECK),
    ("double click", Act.DOUBLE_CLICK), ("double-click", Act.DOUBLE_CLICK),
    ("go back", Act.BACK), ("navigate back", Act.BACK), ("step back", Act.BACK),
    ("turn on", Act.TURN_ON), ("switch on", Act.TURN_ON), ("turn off", Act.TURN_OFF), ("switch off", Act.TURN_OFF),
    ("start playing", Act.PLAY), ("start watching", Act.PLAY), ("begin playing", Act.PLAY),
    ("look up", Act.SEARCH), ("look for", Act.SEARCH), ("search for", Act.SEARCH),
    ("check off", Act.TICK), ("tick off", Act.TICK), ("mark off", Act.TICK), ("cross off", Act.TICK),
    ("fill in", Act.TYPE), ("fill out", Act.TYPE), ("key in", Act.TYPE),
    ("bring up", Act.OPEN), ("pull up", Act.OPEN), ("show me", Act.OPEN), ("give me", Act.OPEN),
    ("bring me to", Act.NAVIGATE), ("get me to", Act.NAVIGATE), ("put on", Act.PLAY), ("switch over to", Act.NAVIGATE),
    ("stop watching", Act.PAUSE), ("stop playing", Act.PAUSE), ("stop playback", Act.PAUSE),
    ("zap up", Act.TUNE), ("zap down", Act.TUNE), ("channel up", Act.TUNE), ("channel down", Act.TUNE), ("take me to", Act.NAVIGATE), ("jump to", Act.NAVIGATE),
    ("mouse over", Act.HOVER), ("move the mouse over", Act.HOVER), ("move the mouse to", Act.HOVER),
    ("move the cursor over", Act.HOVER), ("move the cursor to", Act.HOVER), ("put the mouse over", Act.HOVER),
    ("point at", Act.HOVER), ("mouseover", Act.HOVER), ("scroll to", Act.SCROLL), ("scroll down", Act.SCROLL), ("scroll up", Act.SCROLL),
    ("tune in", Act.TUNE), ("zap to", Act.TUNE), ("flip to", Act.TUNE), ("flip over to", Act.TUNE),
    ("zap over to", Act.TUNE),
]

VERBS: dict[str, Act] = {
    **dict.fromkeys(["check", "verify", "ensure", "confirm", "assert", "expect", "validate", "see", "test",
                     "observe"], Act.CHECK),
    **dict.fromkeys(["go", "navigate", "visit", "return", "head", "move", "browse", "proceed"], Act.NAVIGATE),
    **dict.fromkeys(["open", "show", "view", "display", "launch", "access", "enter", "load", "reach", "list", "read",
                     "inspect", "examine", "preview"], Act.OPEN),
    **dict.fromkeys(["click", "tap", "select", "choose", "pick", "hit", "push", "follow", "touch"], Act.CLICK),
    **dict.fromkeys(["type", "input", "write", "fill", "append"], Act.TYPE),
    **dict.fromkeys(["search", "find", "query", "seek"], Act.SEARCH),
    **dict.fromkeys(["enable", "activate", "reactivate"], Act.TURN_ON),
    **dict.fromkeys(["disable", "deactivate"], Act.TURN_OFF),
    **dict.fromkeys(["filter", "narrow"], Act.FILTER),
    **dict.fromkeys(["sort", "order", "arrange", "rank", "reorder", "re-sort", "resort"], Act.SORT),
    **dict.fromkeys(["toggle", "flip"], Act.TOGGLE),
    **dict.fromkeys(["set", "change", "switch", "make", "adjust", "turn", "put", "bump", "heat", "warm", "cool"], Act.SET),
    **dict.fromkeys(["play", "watch", "start", "resume", "stream", "begin"], Act.PLAY),
    **dict.fromkeys(["pause", "stop", "halt", "freeze"], Act.PAUSE),
    **dict.fromkeys(["add", "create", "insert", "register", "new"], Act.ADD),
    **dict.fromkeys(["delete", "remove", "destroy", "trash", "discard", "erase", "drop", "purge", "scrap", "ditch", "bin",
                     "toss", "junk", "nuke", "axe"], Act.DELETE),
    **dict.fromkeys(["tick", "mark", "complete", "finish"], Act.TICK),
    **dict.fromkeys(["untick", "uncheck", "unmark", "unselect", "deselect", "reopen", "uncomplete", "unfinish",
                     "undone"], Act.UNTICK),
    **dict.fromkeys(["edit", "rename", "update", "modify", "amend"], Act.EDIT),
    **dict.fromkeys(["back"], Act.BACK),
    **dict.fromkeys(["reload", "refresh"], Act.RELOAD),
    **dict.fromkeys(["scroll"], Act.SCROLL),
    **dict.fromkeys(["hover"], Act.HOVER),
    **dict.fromkeys(["tune", "zap"], Act.TUNE),
    **dict.fromkeys(["press", "hit"], Act.PRESS),
    **dict.fromkeys(["clear", "empty", "wipe"], Act.CLEAR),
    **dict.fromkeys(["submit", "save", "send", "apply", "run", "execute"], Act.SUBMIT),
}

# Words a tester puts in front of what they mean: dropped before the verb is read.
_FILLER_PHRASES = [
    r"please", r"pls", r"plz", r"kindly", r"now", r"just", r"then", r"also", r"and", r"so", r"ok(?:ay)?(?=\s*,)",
    r"first(?:ly)?", r"second(?:ly)?", r"next(?=\s*,)", r"finally", r"lastly", r"after that", r"afterwards", r"quickly",
    r"simply", r"hey", r"hi",
    r"(?:can|could|would|will)\s+(?:you|u|ya|we|i)(?:\s+(?:please|pls|plz))?",
    r"(?:i|we)\s+(?:want|need)\s+to\s+see(?=\s+(?:if|whether|that)\b)",
    r"(?:i|we)(?:\s+(?:only|just|really|also|now))?(?:\s+(?:want|wanna|need|would like)|'d like|\s+d like)"
    r"(?:\s+you)?\s+to",
    r"let(?:'s|\s+us)", r"lets", r"go ahead and", r"try to", r"try and",
    r"use (?:the )?\w+(?: \w+)? to", r"using (?:the )?\w+(?: \w+)?,",
]
_FILLER = re.compile(r"^(?:" + "|".join(_FILLER_PHRASES) + r")\b[\s,:]*", re.I)
_TRAILING = re.compile(r"[\s,.!?]*(?:please|pls|thanks|thank you|for me|now|right now|quickly|too|as well|completely|entirely|"
                       r"permanently|for good|altogether|instead)?[\s.!?]*$",
                       re.I)

_WORD = re.compile(r"[a-z0-9]+")
# verbs of a record's workflow (server.planners.intents_workflow), also read through their typos ("reasign")
WORKFLOW_WORDS = frozenset({"assign", "reassign", "resolve", "close", "reopen", "accept", "approve", "reject",
                            "decline", "archive", "publish", "unpublish", "merge", "cancel", "fix", "tag",
                            "comment", "reply", "post", "leave", "lock", "unlock", "copy", "duplicate", "clone"})
_KNOWN_VERB_WORDS = sorted({w for phrase, _ in VERB_PHRASES for w in phrase.split()} | set(VERBS) | WORKFLOW_WORDS)


# "I only want to see toys": a wish to be shown something, not a check ("I want to see that X is …" is one)
_WANT_TO_SEE = re.compile(r"^(?:(?:i|we)(?:\s+(?P<only>only)|\s+(?:just|really|also))?(?:\s+(?:want|wanna|need|would like)|"
                          r"['’]d like|\s+d like)\s+to|let\s+me|(?:can|could|may)\s+i)\s+(?:see|view|look at)\s+"
                          r"(?!if\b|whether\b|that\b)", re.I)


def strip_filler(text: str) -> str:
    """*text* without politeness and sequencing words around the request."""
    text = _WANT_TO_SEE.sub(lambda m: "show only " if m.group("only") else "show ", text.strip())
    while True:
        m = _FILLER.match(text)
        if not m or m.end() == 0:
            break
        text = text[m.end():]
    return _TRAILING.sub("", text).strip()


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count once), capped at *limit*."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return min(prev[-1], limit)


@lru_cache(maxsize=4096)
def fix_verb_typo(word: str, known: frozenset[str] = frozenset()) -> str:
    """A misspelt verb ("opne", "chekc", "serach") as the verb it most likely is; other words unchanged.

    Words the device itself uses (*known*: its screens', elements' and keys' words) are never "fixed".
    """
    low = word.lower()
    if low in VERBS or low in known:
        return word
    if len(low) < 4:
        # a short verb with its double letter typed once: "ad" → "add", "fil" → "fill"
        doubled = next((v for v in _KNOWN_VERB_WORDS if len(v) == len(low) + 1 and
                        any(v[i] == v[i + 1] and v[:i] + v[i + 1:] == low for i in range(len(v) - 1))), "")
        if doubled or len(low) < 3 or re.fullmatch(r"[^aeiou][aeiou][^aeiou]", low):
            return doubled or word
        # a vowel left out of a four-letter verb ("opn" → "open"), when only one verb reads so
        dropped = {v for v in _KNOWN_VERB_WORDS if len(v) == 4 and v[0] == low[0] and
                   any(v[i] in "aeiou" and v[:i] + v[i + 1:] == low for i in range(1, 4))}
        return dropped.pop() if len(dropped) == 1 else word
    allowed = 1 if len(low) < 8 else 2
    best, best_d = word, allowed + 1
    for verb in _KNOWN_VERB_WORDS:
        if verb[0] != low[0] or len(verb) < 4:
            continue
        d = edit_distance(low, verb, allowed + 1)
        if d < best_d:
            best, best_d = verb, d
    return best


@dataclass(frozen=True)
class Clause:
    """One request of a task, with its act and the words after the verb."""

    text: str          # as written, filler removed
    act: Act
    rest: str          # the text after the verb phrase (original case)

    @property
    def low(self) -> str:
        return self.text.lower()

    @property
    def verb(self) -> str:
        """The verb phrase as written ("look at" of "look at ticket 2"); "" when the words after it are not
        the end of the text."""
        return self.text[:len(self.text) - len(self.rest)].strip() if self.rest and self.text.endswith(self.rest) else ""


_CHECK_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|should|must|shows|showing|displays|reads|says|contains|lists|includes|appears|exists|"
    r"mentions|doesn't|doesn’t|does\s+not|"
    r"isn't|aren't|wasn't|weren't|shouldn't|mustn't)\b|"
    r"^\s*(?:only\s+|exactly\s+)?\d+\s+[a-z]+\s+(?:live|come|belong|cost|were|work|use)\b|\b(?:has|have)\s+(?:only\s+|exactly\s+)?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+[a-z]+"
    r"(?:\s+(?:in|from|at|on|with|by)\s+[^,;]+?)?\s*[?.!]*$|"
    r"\b(?:shown|displayed|visible|listed|present|there|gone|missing|absent|hidden|selected|checked|ticked|"
    r"enabled|disabled|playing|on screen|left|remain|remains|remaining)\s*[?.!]*$", re.I)


# Nouns for "the things in the list", which a clause may add to a label or a filter ("clear completed
# todos", "show the active ones").
ITEM_NOUNS = frozenset("todo todos item items task tasks entry entries row rows record records one ones "
                       "thing things everything".split())


# Words of task wording itself, never "corrected" into a device's word.
COMMON_WORDS = frozenset("""
button buttons screen screens should shown showing displayed display visible listed present inside within
without before after again instead whether second seconds minute minutes results result number numbers
channel channels option options select selected settings setting called named titled labelled please
current currently already exactly entry entries record records column columns filter filters""".split())


# a day's or a month's name, and the short forms a list may show it by ("Tuesday": Tue, Tues)
_SHORT_FORMS = {"monday": ("mon",), "tuesday": ("tue", "tues"), "wednesday": ("wed",), "thursday": ("thu", "thur", "thurs"),
                "friday": ("fri",), "saturday": ("sat",), "sunday": ("sun",), "january": ("jan",), "february": ("feb",),
                "march": ("mar",), "april": ("apr",), "june": ("jun",), "july": ("jul",), "august": ("aug",),
                "september": ("sep", "sept"), "october": ("oct",), "november": ("nov",), "december": ("dec",)}


@lru_cache(maxsize=8192)
def fix_word(word: str, known: frozenset[str]) -> str:
    """*word* as the device's own word it misspells ("chanel" → "channel"), or the short form the device shows a
    day or a month by ("Tuesday" where a rota shows "Tue"), else unchanged."""
    low = word.lower()
    if low in _SHORT_FORMS and low not in known:
        short = next((f for f in _SHORT_FORMS[low] if f in known), "")
        if short:
            return short.capitalize() if word[:1].isupper() else short
    if len(low) < 6 or low in known or low in VERBS or low in COMMON_WORDS or not low.isalpha():
        return word
    if word.isupper():
        return word   # "the FUNCTIONS topic": a name copied from the app as it shows it, not a slip of the keys
    allowed = 1 if len(low) < 10 else 2   # "functions" is one slip from no word of an index, two from "functools"
    best, best_d = word, allowed + 1
    for k in known:
        if k[0] != low[0] or abs(len(k) - len(low)) > allowed or not k.isalpha():
            continue
        if k.startswith(low) or low.startswith(k):
            return word   # "setting" and "settings" are one word, not a typo
        if len(k) == len(low) and k[:-1] == low[:-1] and low[-1] in "sd" and k[-1] not in "sd":
            continue   # "serves" beside a "server": one stem, two endings, no slip of the keys
        d = edit_distance(low, k, allowed + 1)
        if d == 2 and (k[:2] != low[:2] or k[-1] != low[-1]):
            continue   # two slips in a long word keep its ends: "functions" is no "fractions"
        if d < best_d:
            best, best_d = k, d
    return best


def fix_typos(text: str, known: frozenset[str]) -> str:
    """*text* with words that misspell the device's own words corrected; quoted text is left alone."""
    if not known:
        return text
    parts = re.split(r"""("[^"]*"|“[^”]*”|(?<!\w)'[^']*'(?!\w))""", text)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"[A-Za-z]+", lambda m: fix_word(m.group(0), known), parts[i])
    return "".join(parts)
_PUT_ON = re.compile(r"^put\s+(?P<x>(?!it\b|that\b|this\b)[^,]+?)\s+on$", re.I)
_FROM_START = re.compile(r"\s+(?:(?:right\s+)?from\s+the\s+(?:very\s+)?(?:beginning|start|top)|from\s+scratch|"
                         r"all\s+over(?:\s+again)?|over\s+again|again)$", re.I)
# "take me back to the home screen", "get us over to settings", "send me to the guide": where to go
_TAKE_ME = re.compile(r"^(?:take|bring|get|send|lead)\s+(?:me|us)\s+(?:(?:back|over|straight|right)\s+)*"
                      r"(?:to|into|onto)\s+(?P<x>.+)$", re.I)


# "subs off pls", "parental lock on": a setting said with its state, and no verb
_BARE_SWITCH = re.compile(r"^(?:the\s+)?(?P<x>[a-z][\w' -]{1,40}?)\s+(?P<s>on|off)\s*(?:please|pls|plz|thanks|now)?\s*[.!]*$",
                          re.I)


def bare_switch(text: str) -> str:
    """"subtitles on" as "subtitles is on" (what is switched, and how); "" when *text* says no such thing."""
    m = _BARE_SWITCH.match(text.strip())
    if not m or re.search(r"\b(?:is|are|was|were|be|been|it|they|we|you|i|should|must)\b", m.group("x"), re.I):
        return ""
    return f"{m.group('x')} is {m.group('s').lower()}"


def read_clause(raw: str, known: frozenset[str] = frozenset()) -> Clause:
    """Find the act of one clause: a verb phrase, a misspelt verb, or none (a bare statement)."""
    text = strip_filler(raw)
    if not text:
        return Clause("", Act.NONE, "")
    words = text.split()
    first = fix_verb_typo(re.sub(r"[^\w'-]", "", words[0]), known)
    if len(words) > 1 and words[0].lower() in ("next", "first", "then", "finally") and \
            (fix_verb_typo(words[1], known).lower() in VERBS):
        words, first = words[1:], fix_verb_typo(words[1], known)
        text = " ".join(words)
    if first.lower() != words[0].lower() and not re.search(r"\d", words[0]):   # "4600.00" is no misspelt verb
        words[0] = first
        text = " ".join(words)
    low = text.lower()
    if re.match(r"^(?:start|play|watch|restart|replay)\s+(?-i:[A-Z0-9\"'“])", text, re.I):
        # "start The Last Orbit from the beginning": playing it (not "watch it from the beginning", which a player's
        # Resume would not do)
        text = _FROM_START.sub("", text)
    taken = _TAKE_ME.match(text)
    if taken and re.match(r"^(?:the\s+)?(?:previous|last|prior|former)\s+(?:page|screen|view|one)$|^where\s+(?:i|we)\s+"
                          r"(?:was|were)$", taken.group("x"), re.I):
        return Clause(text, Act.BACK, "")   # "take me back to the previous page": back, not a link "Previous"
    if taken:
        return Clause(text, Act.NAVIGATE, taken.group("x"))
    split_on = _PUT_ON.match(text)
    if split_on:      # "put the news on": the phrasal verb "put on", split by its object
        return Clause(text, Act.PLAY, split_on.group("x"))
    for phrase, act in VERB_PHRASES:
        if low == phrase or low.startswith(phrase + " "):
            rest = text[len(phrase):].strip()
            if act is Act.CHECK:   # "make sure that 2 customers live in Lyon"
                rest = re.sub(r"^(?:that|if|whether)\s+", "", rest, flags=re.I)
            return Clause(text, act, rest)
    verb = re.sub(r"[^\w-]", "", words[0].lower())
    act = VERBS.get(verb)
    want = re.match(r"^(?:i|we)\s+(?:want|need|would like|'d like)\s+(?:the\s+|some\s+)?(?P<x>.+)$", text, re.I)
    if act is None and want:
        return Clause(text, Act.WANT, want.group("x"))   # "I need subtitles": have it on / open
    if act is None and re.match(r"^[a-z]+\s+(?:the|a|an|all|every|each|my|some|our|whatever|whichever|everything|"
                                r"anything)\b", low) \
            and not re.search(r"\b(?:should|must|ought to|needs? to|has to)\s+(?:still\s+|now\s+)?(?:be|show|read)\b", low) \
            and words[0].lower() not in ("there", "it", "this", "that", "is", "are", "was", "were", "does", "do", "did",
                                         "has", "have", "can", "could", "should", "will", "would", "am") \
            and not low.startswith(("the ", "a ", "an ")):
        return Clause(text, Act.NONE, text)   # "email the members …": an action this planner does not know
    if act is None:
        # questions and statements are checks: "is Melody TV listed?", "Melody TV is listed"; "you're on channel 1"
        if re.match(r"^(?:is|are|does|do|has|have|can (?:i|you) see|there (?:is|are)|there's)\b", low) \
                or re.match(r"^(?:we|you|i)(?:'re|’re|'m|’m|\s+are|\s+am)\s+(?:now\s+|currently\s+|still\s+|already\s+)?"
                            r"(?:on|at|in|tuned\s+to|watching)\s", low) \
                or _CHECK_PREDICATE.search(low):
            return Clause(text, Act.CHECK, re.sub(r"^(?:does|do|can (?:i|you) see|if|whether|that)\s+", "", text,
                                                  flags=re.I))
        return Clause(text, Act.NONE, text)
    rest = text[len(words[0]):].strip()
    if act is Act.CHECK:
        rest = re.sub(r"^(?:that|if|whether|to see (?:if|whether|that)|for|out)\s+", "", rest, flags=re.I)
    return Clause(text, act, rest)


_SPLIT = re.compile(
    r"\s*(?:(?:;|(?<!\d),|,(?!\d))\s*(?:and\s+)?(?:then\s+)?|(?<!\b[A-Z])(?<!\bMr)(?<!\bDr)(?<!\bSt)(?<!\bMs)(?<!\bJr)(?<!\bvs)\.\s+|\band then\b|\bthen\b|\band also\b|\bafter that\b|"
    r"\bafterwards\b|\bfollowed by\b|\bonce (?:that's |that is )?done\b,?|\band\b)\s*", re.I)


# an adding verb and the kind of thing added, then a colon: what follows is the thing's name
_NAMES_NEXT = re.compile(r"^\s*(?:please\s+)?(?:add|create|insert|new|make|put)\s+(?:(?:a|an|the|one|new|another)\s+)*"
                         r"[\w-]+(?:\s+[\w-]+)?\s*:", re.I)


def _names_next(part: str) -> bool:
    first, _, rest = part.strip().partition(" ")
    return bool(_NAMES_NEXT.match(f"{fix_verb_typo(first)} {rest}"))


_PLACE_LEAD = re.compile(r"^(?P<place>(?:from|on|in|at|inside|within|via)\s+(?!(?:this|that|the)\s+(?:page|screen)\b)"
                         r"(?:the\s+)?(?:[\w.'’-]+\s+){0,3}?"
                         r"(?:list|index|page|screen|tab|menu|section|view|docs|documentation|sidebar|panel|overview|"
                         r"table|dashboard|homepage))\s+(?P<rest>(?:go|navigate|open|click|tap|select|choose|pick|press|"
                         r"search|find|check|verify|confirm|ensure|make\s+sure|delete|remove|add|create|edit|set|fill|"
                         r"sort|filter|jump|scroll|expand|collapse|hover|visit|browse|type)\b.*)$", re.I)


def _place_then_rest(part: str) -> list[str]:
    m = _PLACE_LEAD.match(part)
    return [m.group("place"), m.group("rest")] if m else [part]


# What a tester says around the request, never part of it: why ("we don't need it anymore", "we're finished with the
# printer for today"), what for ("so I can watch what it sends"), what not to do ("but don't start the print",
# "(dont hit print yet)"), and "let me know" or "thanks". A clause that is only that is dropped.
_NOT = r"(?:don'?t|don’t|dont|do\s+not|no\s+longer|won'?t|won’t|will\s+not|never)"
# "Process type is fine", "the rest is ok as it is": nothing to change, and nothing to check
_FINE_AS_IS = (r"(?:the\s+)?(?:\w+\s+)?(?:type|kind|defaults?|settings?|options?|rest|everything\s+else)\s+(?:is|are)\s+"
               r"(?:fine|ok|okay)(?:\s+as\s+(?:it\s+)?is)?$")
_ASIDE = re.compile(
    r"^(?:(?:we|i|they)(?:'re|’re|'m|’m|\s+are|\s+am)?\s+(?:all\s+)?(?:done|finished|through)\b"
    rf"|(?:we|i|they)\s+{_NOT}\s+(?:really\s+)?(?:need|use|print|play|watch|sell|stock|run|care|plan)\b"
    r"|(?:it|that|this|they|these|those)(?:'s|’s|\s+is|\s+are|'re|’re)\s+(?:not|no\s+longer)\s+(?:needed|used|wanted|"
    r"required|in\s+use)\b"
    r"|(?:it|that|this|they|these|those)(?:'s|’s|'re|’re|\s+(?:is|are|was|were))\s+(?:now\s+|all\s+)?(?:obsolete|outdated|"
    r"deprecated|stale|unused|a\s+duplicate|duplicates|(?:a\s+)?leftovers?)\b"
    r"|(?:nobody|no\s*one)\s+(?:\w+\s+)?(?:uses?|needs?|wants?|reads?|watches|cares?|runs?)\b"
    r"|(?:\w+\s+){0,2}(?:entered|added|created|made|put|posted|typed|filed|booked|logged)\s+(?:it|this|that|them)"
    r"(?:\s+\w+)?\s+by\s+(?:mistake|accident)$|(?:it|this|that)\s+was\s+(?:a\s+|an\s+)?(?:mistake|typo|error)$"
    r"|(?:i|we)\s+(?:just\s+)?(?:want|need|'d\s+like|would\s+like)\s+to\s+(?:see|look\s+at|read|review)\s+(?:its|his|her|their)"
    r"\s+(?:details|info|information|page|record|data)$"
    rf"|{_FINE_AS_IS}"
    r"|leave\s+(?:everything|all|the\s+rest|anything)\s+(?:else\s+)?(?:as\s+(?:it\s+)?is|alone|unchanged|(?:at|on)\s+"
    r"(?:the\s+|its\s+|their\s+)?defaults?)$"
    r"|(?:keep|use)\s+(?:the\s+)?defaults?(?:\s+for\s+(?:the\s+rest|everything\s+else|the\s+others))?$"
    r"|(?:because|cause|since)\s+(?:i|we|it|it's|it’s|they|you|he|she|that|this)\b|so\s+(?:that\s+)?(?:(?:i|we|you|they)\s+"
    r"(?:can|could|will|may|might|don'?t|do\s+not)|it(?:'s|’s|\s+is)\s+ready)\b"
    r"|let\s+me\s+know(?:\s+(?:pls|please|thanks|thx|when\s+(?:it'?s|you'?re)\s+done))?$"
    r"|(?:thanks|thank\s+you|thx|cheers)(?:\s+(?:a\s+lot|so\s+much|in\s+advance))?$"
    # "leave her active", "keep it enabled": a state the form starts in, kept
    r"|(?:leave|keep)\s+(?:it|her|him|them|this|that)\s+(?:as\s+)?(?:active|enabled|on|checked|ticked|unchanged|as\s+is|"
    r"alone)$"
    # "I got it already", "we bought it yesterday", "I've done that one": the tester's own doing, told
    r"|(?:i|we)(?:['’]ve|\s+have|\s+just|\s+already)*\s+(?:got|bought|did|done|finished|paid|fixed|sorted|picked\s+up|"
    r"handled|collected)\s+(?:it|that|this|them|those|these)(?:\s+one)?(?:\s+(?:already|yesterday|today|earlier|"
    r"this\s+morning|last\s+night))?$"
    r"|(?:but\s+|and\s+)?(?:please\s+)?(?:don'?t|don’t|dont|do\s+not|never)\s+(?!forget\b|miss\b)\w+"
    # "we're testing the remote today": what the tester is about; "someone left the audio on French": what happened
    # before (the request says what to do about it)
    r"|(?:we|i)(?:'re|’re|'m|’m|\s+are|\s+am)\s+(?:just\s+|currently\s+|only\s+)?(?:testing|trying\s+out|working\s+on|"
    r"running\s+(?:a|the|some|our)|playing\s+(?:around\s+)?with|exploring|doing\s+(?:a|the|some))"
    r"(?!\s+(?:that|whether|if|how|what|a\s+check|the\s+check)\b)(?=\s+(?:the|a|an|our|my|this|some)\s+[\w -]+$)"
    # "Description stays the same", "leave the other one alone", "leave the results on screen", "I need to reread it":
    # what is not to change, or what the tester will do after
    r"|(?:the\s+)?[\w ]{1,30}?\s+(?:(?:stays?|remains?)\s+(?:the\s+same|as\s+(?:it\s+)?is|unchanged)|(?:can|should)\s+stay"
    r"(?:\s+(?:the\s+same|as\s+(?:it\s+)?is|unchanged))?)$"
    r"|leave\s+(?:the\s+)?(?:other|others|rest|remaining)(?:\s+(?:one|ones|two|[a-z]+s))?\s+(?:alone|as\s+(?:it|they)\s+(?:is|are)|"
    r"unchanged)$"
    r"|leave\s+(?:the\s+)?(?:results?|page|list|it|them)\s+(?:on\s+(?:the\s+)?screen|open|up|showing|there)$"
    r"|(?:i|we)\s+(?:need|want|have|'d\s+like)\s+to\s+(?:re-?read|read|review|look\s+at|go\s+over|check\s+over)\s+"
    r"(?:it|them|this|that)(?:\s+again|\s+later)?$|(?:re-?read|go\s+over)\s+(?:it|them|this|that)(?:\s+again|\s+later)?$"
    r"|(?:someone|somebody|a\s+colleague|(?:my|our)\s+(?:colleague|teammate)|the\s+(?:last|previous)\s+(?:person|tester|user))"
    r"\s+(?:\w+\s+)?(?:left|set|changed|turned|switched|put|moved|messed|tuned|forgot)\b)", re.I)
# the same said at the end of a clause, or in brackets inside it
_ASIDE_TAIL = re.compile(
    r"(?:\s*,?\s+so\s+(?:that\s+)?(?:(?:i|we|you|they)\s+(?:can|could|will|may|might)|it(?:'s|’s|\s+is)\s+ready|"
    r"(?:it|they)\s+(?:stops?|starts?|no\s+longer|won'?t|doesn'?t|don'?t|can'?t|isn'?t|aren'?t|will|gets?)\b|"
    r"only\s+[^,;.]+?\s+(?:show|shows|are\s+shown|appear|appears|are\s+listed|remain|are\s+left)\b)\b.*"
    r"|\s*,?\s+(?:when|once)\s+(?:you'?re|you’re|you\s+are|it'?s|it\s+is)\s+(?:all\s+)?(?:done|finished)"
    r"|\s*,?\s+while\s+(?:you'?re|you’re|you\s+are)\s+(?:in\s+)?(?:there|at\s+it)"
    r"|\s+from\s+now\s+on"
    r"|\s*,?\s+(?:but\s+)?(?:don'?t|don’t|dont|do\s+not)\s+(?:hit|start|press|click|run|print|send)\b.*"
    r"|\s*[?!.]\s*(?:let\s+me\s+know|thanks|thank\s+you|thx|cheers)\b[^?!.]*)$", re.I)
_ASIDE_BRACKETS = re.compile(r"\s*\((?:(?:but\s+)?(?:don'?t|don’t|dont|do\s+not|not|never|no)\b[^)]*|[\w ]{1,30}?\s+(?:can|should|will)\s+"
                             r"stay(?:\s+(?:the\s+same|as\s+(?:it\s+)?is))?|[\w ]{1,30}?\s+stays?\s+(?:the\s+same|as\s+(?:it\s+)?is))\)",
                             re.I)


# what makes a clause a check, never an aside ("so I can confirm it shows 60", "Don't Look Up should be listed")
_CHECKS_SOMETHING = re.compile(r"\b(?:check|checks|verify|confirm|ensure|make\s+sure|see|should|must|shown|shows|appears?|"
                               r"displayed|visible|listed|says|reads|is|are)\b", re.I)


def drop_asides(parts: list[str]) -> list[str]:
    """*parts* (a task's clauses) without what the tester only says around the request (see ``_ASIDE``); a part
    that checks something is never one."""
    out: list[str] = []
    for part in parts:
        if _CHECKS_SOMETHING.search(part) and not re.match(r"^(?:(?:we|i|they)(?:'re|’re|'m|’m)|it'?s\s+not|that'?s\s+not|"
                                                          r"(?:it|that|this|they)\s+(?:is|are|was|were)\s+(?:now\s+|all\s+)?"
                                                          r"(?:obsolete|outdated|deprecated|stale|unused|a\s+duplicate)\b|"
                                                          rf"{_FINE_AS_IS})",
                                                          strip_filler(part), re.I):
            # ("we're done with it" and "it's not needed" are said, no check); a "let me know" after it is dropped
            out.append(re.sub(r"\s*[?!.]\s*(?:let\s+me\s+know|thanks|thank\s+you|thx|cheers)\b[^?!.]*$", "", part,
                              flags=re.I))
            continue
        pieces = re.split(r"\s+[-–—]\s+|\?\s+", part)
        if len(pieces) > 1 and any(_ASIDE.match(strip_filler(p)) for p in pieces):
            todo = [p for p in pieces if not _ASIDE.match(strip_filler(p))]
        else:
            todo = [part]
        for p in todo:
            p = _ASIDE_BRACKETS.sub("", p)
            bare = _ASIDE_TAIL.sub("", p).strip()
            if bare and read_clause(bare).act is not Act.NONE:
                p = bare   # "bring up the terminal so I can watch it": the request is what is left
            if strip_filler(p) and not _ASIDE.match(strip_filler(p)):
                out.append(p.strip())
    return out


_DASH_REQUEST = re.compile(r"\s+[-–—]\s+(?=(?:please\s+|pls\s+|now\s+|then\s+)?(?:switch|tune|press|hit|open|go|delete|remove|"
                           r"add|set|turn|play|pause|select|click|change|rename|edit|save|close|lock|mark|tick|untick|"
                           r"search|type|enter|put|move|start|stop|restart|resume|enable|disable)\b|"
                           # "… no longer on channel 7 — it should now be Tech Today": what should hold, a check of its own
                           r"(?:it|that|this|they)\s+(?:should|must)\s+(?:now\s+)?(?:be|say|read|show)\b)", re.I)


def _path_steps(part: str) -> list[str]:
    """"open products > Blue Mug", "Customers -> Add": a path of places, one clause each, each step a place to
    open (even one named "Add"); *part* alone where it holds no path."""
    path = [q.strip() for q in re.split(r"\s+(?:>|->|→|»)\s+", part) if q.strip()]
    place = re.fullmatch(r"(?P<p>[A-Za-z][\w ]{1,20}?)\s*:\s+(?P<r>\S.*)", path[0]) if len(path) > 1 else None
    if place and read_clause(place.group("p")).act is Act.NONE:
        path = [place.group("p"), place.group("r"), *path[1:]]   # "epg: cinema nova row -> ok": the place first
    lead = read_clause(path[0]) if len(path) > 1 else None
    if lead is None or any(re.fullmatch(r"[\d.\s]+", q) for q in path):
        return [part]
    if lead.act not in (Act.OPEN, Act.NAVIGATE, Act.CLICK, Act.NONE):
        # "srch jazz -> play the result": a request, then the next ones, one step each (a name alone is opened; what
        # comes out, a count or a statement, is checked: "search 'deploy' -> 2 results")
        return [path[0]] + [q if read_clause(q).act is not Act.NONE else f"check {q}" if re.match(
            r"^(?:\d+|no|one|two|three|four|five)\s+\w+$|.*\b(?:is|are|shows?|says?|reads?|should|must)\b", q, re.I)
            else f"open {q}" for q in path[1:]]
    verb = path[0][:len(path[0]) - len(lead.rest)].strip() \
        if lead.act in (Act.OPEN, Act.NAVIGATE, Act.CLICK) and lead.rest and path[0].endswith(lead.rest) else "click"

    def step(q: str) -> str:
        # ("Live TV -> CH+ 2 times -> verify banner shows Cinema Nova": a key, and a request, said as steps; "> play":
        # a request of one word, in lower case)
        if q[:1].islower() and q.split()[0] in VERBS and read_clause(q).act is not Act.NONE:
            # (a request is written in lower case; "Input Prompts", "Search tasks" are the names of links)
            return q
        if _KEY_STEP.match(q):
            return f"press {q}"
        setting = re.fullmatch(r"(?P<x>[A-Za-z][\w ]{0,30}?)\s*:\s*(?P<v>on|off|enabled|disabled)", q, re.I)
        if setting:   # "Settings > Subtitles: ON": the setting, set to that value
            return f"set {setting.group('x')} to {setting.group('v')}"
        return f"{verb} {q}"

    return [path[0]] + [step(q) for q in path[1:]]


# a remote's key said as a step of a path ("CH+", "CH- 2 times", "OK", "BACK x2")
_KEY_STEP = re.compile(r"^(?:ch(?:annel)?\s*[+-]|ch(?:annel)?\s+(?:up|down)|ok|back|up|down|left|right|enter|home|menu)"
                       r"(?:\s+(?:\d{1,2}\s+times|once|twice))?$", re.I)


def split_clauses(task: str, protected: list[str]) -> list[str]:
    """Split a task into clauses, keeping quoted strings and known names (which may hold 'and') whole."""
    holds: dict[str, str] = {}

    def hold(m: re.Match[str]) -> str:
        key = f"\x00{len(holds)}\x00"
        holds[key] = m.group(0)
        return key

    text = re.sub(r"""["“][^"”]*["”]|(?<!\w)'[^']+'(?!\w)|`[^`]+`""", hold, task.strip().rstrip(".!?"))
    # an SQL statement is one clause, "and" and commas included, up to a check that follows it
    text = re.sub(r"\b(?:select\b(?=[^;]*?\bfrom\s+\w)|select\s+(?:\*|count\s*\()|update\s+[\w\"`]+\s+set\b|insert\s+into|"
                  r"delete\s+from|create\s+(?:table|index)|alter\s+table)\b.*?"
                  r"(?=\s*(?:,\s*)?(?:\band\s+|\bthen\s+)(?:check|verify|confirm|make sure|ensure|see)\b|$)",
                  hold, text, flags=re.I | re.S)
    # a name as shown, and without the icons around it ("✎ View and edit SQL" is typed "View and edit SQL")
    cores = {re.sub(r"^[^\w\"'(]+|[^\w\"')]+$", "", p) for p in protected}
    for name in sorted((p for p in {*protected, *cores} if p and re.search(r"\band\b|,|\bthen\b", p, re.I)),
                       key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", hold, text, flags=re.I)
    # "fill in name "X", email "Y"": one clause, its commas included
    text = re.sub(r"\bfill in\s+(?:[\w .-]*\x00\d+\x00\s*,?\s*)+", hold, text, flags=re.I)
    text = re.sub(r"\blook through the lists for \x00\d+\x00(?: about \x00\d+\x00)?(?: except (?:\x00\d+\x00\s*,?\s*)+)?",
                  hold, text, flags=re.I)
    # "… build 0.9.3 - then check …": a dash before the next clause closes this one, it is no part of it; so does a
    # dash before a request ("not Melody TV - switch to channel 8")
    text = _DASH_REQUEST.sub(", ", text)
    parts = [re.sub(r"\s+[-–—]+$", "", p) for p in _SPLIT.split(text) if p and p.strip(" -–—")]
    # "open products > Blue Mug", "Customers -> Add": a path of places, one clause each
    parts = [q for p in parts for q in _path_steps(p)]
    # "I want to add a customer: open the add form" — a colon before a verb ends a clause
    # — but not after "add a todo": there the colon gives the value ("add a todo: send invoices")
    parts = [q for p in parts for q in ([p] if _names_next(p) else re.split(
        r":\s+(?=(?:%s)\b)" % "|".join(sorted(VERBS, key=len, reverse=True)), p, flags=re.I)) if q.strip()]
    # "from the module list go to zipfile", "on the json page check …": the place, then what to do there
    parts = [q for p in parts for q in _place_then_rest(p)]
    out = []
    for p in parts:
        while "\x00" in p:   # holds may hold holds (a quoted value inside an SQL statement)
            before = p
            for key, value in reversed(list(holds.items())):
                p = p.replace(key, value)
            if p == before:
                break
        out.append(p.strip())
    return out


def quoted(text: str) -> str | None:
    m = re.search(r"""["“]([^"”]+)["”]|(?<!\w)'([^']+)'(?!\w)""", text)
    return (m.group(1) or m.group(2)) if m else None


def clean(text: str) -> str:
    """A named thing without articles, trailing punctuation or quotes."""
    text = text.strip().strip(".!?,:;").strip()
    m = re.fullmatch(r"""["'“‘](.+)["'”’]""", text)
    if m:
        return m.group(1)
    return re.sub(r"^(?:the|a|an|my|this|that|its|their|his|her|your|our)\s+", "", text, flags=re.I).strip()


PRONOUN = re.compile(r"\b(?:it|that|this|them|those|these|the result|the item|she|he|they|him|her)\b", re.I)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())

"""Resolve words of a task against a device's context: screens, on-screen elements, keys.

Everything here scores phrases against what the context declares (node
labels, ids and keywords; element names and texts; the key vocabulary of the
remote's ``press_key``), so the built-in planner follows the device, not a
list of phrases.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from shared.keys import Key, parse_key
from shared.models import ElementInfo, NodeInfo, PlanningContext

STOPWORDS = {"the", "a", "an", "to", "on", "in", "of", "my", "this", "that", "it", "screen", "page", "menu",
             "tab", "section", "view", "app", "please", "now", "then", "is", "are", "with", "for", "at"}

ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
            "fifth": 4, "5th": 4, "sixth": 5, "6th": 5, "seventh": 6, "eighth": 7, "ninth": 8, "tenth": 9,
            "last": -1}

COUNTS = {"once": 1, "twice": 2, "thrice": 3, "two times": 2, "three times": 3, "four times": 4,
          "five times": 5}

NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}


_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.lower()))


def words(text: str) -> list[str]:
    return list(_words(text))


def content_words(text: str) -> list[str]:
    return [w for w in _words(text) if w not in STOPWORDS]


def norm(text: str) -> str:
    return " ".join(_words(text))


@lru_cache(maxsize=8192)
def _content_set(text: str) -> frozenset[str]:
    return frozenset(w for w in _words(text) if w not in STOPWORDS)


def stems(text: str, content: bool = False) -> frozenset[str]:
    """The words of *text* less a plural s ("Products" → product); *content*: stopwords left out."""
    return frozenset(w.rstrip("s") for w in (_content_set(text) if content else _words(text)))


def _stems(ws: frozenset[str]) -> frozenset[str]:
    return frozenset(w.rstrip("s") for w in ws)


def _contains_run(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def phrase_score(phrase: str, candidate: str) -> float:
    """How well *phrase* names *candidate*: 1.0 same words, containment, then word overlap."""
    p, c = _words(phrase), _words(candidate)
    if not p or not c:
        return 0.0
    if p == c:
        return 1.0
    pw, cw = _content_set(phrase), _content_set(candidate)
    if not pw or not cw:
        return 0.0
    if pw == cw:
        return 0.95
    if _contains_run(p, c):  # the phrase mentions the candidate whole, short words too ("A - Z" in "the A-Z index")
        return 0.9 * max(len(cw) / max(len(pw), len(cw)), len(c) / len(p)) + 0.05
    if not (pw & cw) and not (_stems(pw) & _stems(cw)):
        return 0.0
    overlap = len(pw & cw) / len(pw | cw)
    # light stemming: "movie" names "Movies", "setting" names "Settings"
    sp, sc = _stems(pw), _stems(cw)
    return max(overlap, len(sp & sc) / len(sp | sc) * 0.9)


@dataclass(frozen=True)
class NodeMatch:
    node: NodeInfo
    score: float


@dataclass(frozen=True)
class ElementMatch:
    node: NodeInfo
    element: ElementInfo
    score: float


def best_node(phrase: str, ctx: PlanningContext, minimum: float = 0.5) -> NodeMatch | None:
    best: NodeMatch | None = None
    for node in ctx.navigation.nodes:
        score = max([phrase_score(phrase, node.label), phrase_score(phrase, node.id)] +
                    [phrase_score(phrase, k) * 0.9 for k in node.keywords])
        if score >= minimum and (best is None or score > best.score):
            best = NodeMatch(node, score)
    return best


def nodes_with_keyword(word: str, ctx: PlanningContext) -> list[NodeInfo]:
    return [n for n in ctx.navigation.nodes if any(word in words(k) for k in n.keywords)]


def best_element(phrase: str, ctx: PlanningContext, prefer_node: str | None = None,
                 minimum: float = 0.6, many: bool | None = None) -> ElementMatch | None:
    """The element *phrase* names, preferring one on *prefer_node* when scores tie closely."""
    best: ElementMatch | None = None
    for node in ctx.navigation.nodes:
        for el in node.elements:
            if many is not None and el.many != many:
                continue
            score = max(phrase_score(phrase, el.name), phrase_score(phrase, el.text) if el.text else 0.0)
            if score < minimum:
                continue
            if node.id == prefer_node:
                score += 0.05
            if best is None or score > best.score:
                best = ElementMatch(node, el, score)
    return best


def find_ordinal(text: str) -> int | None:
    for w in words(text):
        if w in ORDINALS:
            return ORDINALS[w]
    m = re.search(r"#\s*(\d+)|\bnumber\s+(\d+)\b", text.lower())
    if m:
        return int(m.group(1) or m.group(2)) - 1
    return None


def find_count(text: str) -> int:
    low = text.lower()
    for phrase, n in COUNTS.items():
        if re.search(rf"\b{phrase}\b", low):
            return n
    m = re.search(r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")\s*(?:x|times)\b|\bx\s*(\d+)\b", low)
    if m:
        raw = m.group(1) or m.group(2)
        return int(raw) if raw.isdigit() else NUMBER_WORDS[raw]
    return 1


def strip_counts(text: str) -> str:
    """*text* without repeat counts ("twice", "3 times", "x2"), so digits left are keys or values."""
    low = text
    for phrase in COUNTS:
        low = re.sub(rf"\b{phrase}\b", " ", low, flags=re.I)
    return re.sub(r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")\s*(?:x|times)\b|\bx\s*\d+\b", " ", low, flags=re.I)


def find_keys(text: str, allowed: set[str]) -> list[Key]:
    """Key names in *text*, in order, tried as two-word then one-word phrases ("channel up", "ok")."""
    ws = words(strip_counts(text))
    keys: list[Key] = []
    i = 0
    while i < len(ws):
        matched = False
        for size in (2, 1):
            if i + size > len(ws):
                continue
            chunk = "_".join(ws[i:i + size])
            if size == 1 and chunk.isdigit() and len(chunk) > 1:
                continue
            try:
                key = parse_key(chunk)
            except ValueError:
                continue
            if key.value in allowed:
                keys.append(key)
                i += size
                matched = True
                break
        if not matched:
            i += 1
    return keys

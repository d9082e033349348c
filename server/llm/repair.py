"""Lenient JSON: read what LLMs actually send.

:func:`repair_json` rewrites almost-JSON into JSON in one linear pass:
single-quoted strings, Python literals (``True``/``None``), unquoted keys and
bare words, comments, trailing commas, raw newlines in strings, mismatched
closers, and a truncated tail (open strings and containers are closed; when
that is not enough the text is cut back to an earlier comma). It records
whether the text was truncated and, if so, whether the cut fell inside the
list of plan steps — the caller decides what a cut-off plan is worth.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

PLAN_KEYS = frozenset({"plan", "steps", "actions", "commands"})
_CLOSER = {"{": "}", "[": "]"}
_OPENER = {"}": "{", "]": "["}
_LITERALS = {"true": "true", "false": "false", "null": "null", "none": "null", "nil": "null",
             "undefined": "null", "nan": "null", "infinity": "null"}
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$.\-]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
MAX_CUT_RETRIES = 4


@dataclass(frozen=True)
class Repaired:
    text: str
    changed: bool          # anything was rewritten
    truncated: bool        # the input ended inside a string or container
    plan_cut: bool         # ... and the cut fell inside the list of steps (or the top-level list)
    step_cut: bool         # ... inside one step of that list (that step is incomplete)


@dataclass
class _Open:
    char: str
    key: str | None


def _close(pieces: list[str], stack: list[_Open]) -> str:
    text = "".join(pieces).rstrip()
    while text.endswith(","):
        text = text[:-1].rstrip()
    if text.endswith(":"):
        text += " null"
    return text + "".join(_CLOSER[o.char] for o in reversed(stack))


def _cut_flags(stack: list[_Open]) -> tuple[bool, bool]:
    for i, entry in enumerate(stack):
        if entry.char == "[" and ((entry.key or "").lower() in PLAN_KEYS or i == 0):
            return True, i + 1 < len(stack)
    return False, False


def repair_json(src: str) -> Repaired:
    """Rewrite *src* (the text of one JSON value, possibly broken) into parseable JSON text."""
    out: list[str] = []
    stack: list[_Open] = []
    cuts: list[tuple[int, list[_Open]]] = []
    changed = False
    quote: str | None = None
    string_chars: list[str] = []
    last_string: str | None = None
    pending_key: str | None = None
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if quote is not None:
            if c == "\\":
                nxt = src[i + 1] if i + 1 < n else ""
                if not nxt:
                    i += 1
                    changed = True
                    continue
                if nxt == "u" and _HEX4.fullmatch(src[i + 2:i + 6]):
                    out.append(src[i:i + 6])
                    string_chars.append("?")
                    i += 6
                    continue
                if nxt in '"\\/bfnrt':
                    out.append(c + nxt)
                    string_chars.append(nxt)
                else:  # \' \x ... are not JSON escapes: keep the character
                    out.append(json.dumps(nxt)[1:-1])
                    string_chars.append(nxt)
                    changed = True
                i += 2
                continue
            if c == quote:
                out.append('"')
                quote = None
                last_string = "".join(string_chars)
                i += 1
                continue
            if c == '"':
                out.append('\\"')
                changed = True
            elif c < " ":
                out.append(json.dumps(c)[1:-1])
                changed = True
            else:
                out.append(c)
            string_chars.append(c)
            i += 1
            continue
        if c in "\"'":
            quote = c
            string_chars = []
            out.append('"')
            changed = changed or c == "'"
            i += 1
            continue
        if c == "/" and src.startswith("//", i):
            end = src.find("\n", i)
            i = n if end < 0 else end
            changed = True
            continue
        if c == "/" and src.startswith("/*", i):
            end = src.find("*/", i + 2)
            i = n if end < 0 else end + 2
            changed = True
            continue
        if c in "{[":
            stack.append(_Open(c, pending_key))
            pending_key = None
            out.append(c)
            i += 1
            continue
        if c in "}]":
            while out and out[-1].isspace():
                out.pop()
            if out and out[-1] == ",":
                out.pop()
                changed = True
            if not stack:
                break  # a stray closer: the value is over
            while stack and stack[-1].char != _OPENER[c]:
                out.append(_CLOSER[stack.pop().char])
                changed = True
            if stack:
                stack.pop()
                out.append(c)
            else:
                changed = True
            i += 1
            if not stack:
                break  # the top-level value is complete; ignore what follows
            continue
        if c == ",":
            cuts.append((len(out), [_Open(o.char, o.key) for o in stack]))
            pending_key = None
            out.append(c)
            i += 1
            continue
        if c == ":":
            pending_key = last_string
            out.append(c)
            i += 1
            continue
        m = _IDENT.match(src, i) if (c.isalpha() or c in "_$") else None
        if m:
            word = m.group(0)
            literal = _LITERALS.get(word.lower())
            j = m.end()
            while j < n and src[j] in " \t\r\n":
                j += 1
            if literal is not None and not (j < n and src[j] == ":"):
                out.append(literal)
                changed = changed or literal != word
            else:
                out.append(json.dumps(word))
                last_string = word
                changed = True
            i = m.end()
            continue
        out.append(c)
        i += 1
    truncated = quote is not None or bool(stack)
    if quote is not None:
        out.append('"')
    plan_cut, step_cut = _cut_flags(stack) if truncated else (False, False)
    text = _close(out, stack) if truncated else "".join(out)
    if truncated:
        try:
            json.loads(text)
        except (ValueError, RecursionError):
            for pos, snapshot in reversed(cuts[-MAX_CUT_RETRIES:]):
                candidate = _close(out[:pos], snapshot)
                try:
                    json.loads(candidate)
                except (ValueError, RecursionError):
                    continue
                text = candidate
                plan_cut, step_cut = _cut_flags(snapshot)
                break
    return Repaired(text, changed or truncated, truncated, plan_cut, step_cut)


def loads_lenient(src: str) -> tuple[Any, Repaired | None]:
    """Parse *src* as JSON, repairing it if needed. Returns ``(value, repair)``; value None when hopeless.

    ``repair`` is None when the text was valid JSON as it stood.
    """
    try:
        return json.loads(src), None
    except (ValueError, RecursionError):
        pass
    repaired = repair_json(src)
    try:
        return json.loads(repaired.text), repaired
    except (ValueError, RecursionError):
        return None, repaired

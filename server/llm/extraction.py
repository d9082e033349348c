"""Extraction of a plan from whatever an LLM sends back.

Accepted: a JSON object as the whole answer; ```` ```json ```` fenced blocks;
bare fenced blocks; an object with prose around it; the usual breakage
(trailing commas, single quotes, Python literals, comments, a truncated tail —
see :mod:`server.llm.repair`). Field variants are normalized: ``command_name``
/ ``name`` / ``action`` / ``tool`` → ``command``; ``args`` / ``arguments`` /
``parameters`` → ``params`` (also as a JSON string, or flat on the step);
``"remote.press_key"`` → command ``press_key`` with controller type
``remote``; step numbers and booleans sent as strings.

:func:`extract_plan` never raises: it returns an :class:`Extraction` holding
either a :class:`~shared.models.Plan` (not yet validated — AI Central
validates every plan against the device) or the reason there is none.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from server.llm.repair import PLAN_KEYS, Repaired, loads_lenient
from shared.models import Plan, PlanStep

log = logging.getLogger(__name__)

MAX_INPUT_CHARS = 100_000
MAX_CANDIDATES = 12
MAX_RAW_STEPS = 200
DESCRIPTION_CHARS = 300

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n`]*\n?(.*?)(?:```|\Z)", re.S)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")
COMMAND_FIELDS = ("command", "command_name", "commandName", "cmd", "name", "action", "tool", "function", "method")
PARAM_FIELDS = ("params", "parameters", "args", "arguments", "inputs", "input", "kwargs")
STEP_FIELDS = ("step", "step_number", "stepNumber", "index", "id", "number")
DESCRIPTION_FIELDS = ("description", "desc", "comment", "purpose", "reason", "explanation")
TYPE_FIELDS = ("controller_type", "controllerType", "controller", "entity", "type")
ANALYSIS_FIELDS = ("analysis", "reasoning", "explanation", "thoughts", "thought", "summary", "reason")
FEASIBLE_FIELDS = ("feasible", "is_feasible", "isFeasible", "possible", "can_do")
STEPS_FIELDS = ("plan", "steps", "actions", "commands")
WRAPPER_FIELDS = ("response", "result", "output", "data", "answer", "plan", "content")
_META = frozenset(COMMAND_FIELDS + PARAM_FIELDS + STEP_FIELDS + DESCRIPTION_FIELDS + TYPE_FIELDS
                  + ("expected", "expected_result", "notes", "status"))


@dataclass
class Extraction:
    """The plan read from an answer, or why none could be read."""

    plan: Plan | None
    reason: str = ""
    notes: list[str] = field(default_factory=list)
    truncated: bool = False    # the answer ended inside the JSON
    plan_cut: bool = False     # ... inside the list of steps: later steps may be missing

    @property
    def ok(self) -> bool:
        return self.plan is not None


def _clean(text: Any, limit: int = DESCRIPTION_CHARS) -> str:
    return _CONTROL.sub(" ", str(text)).strip()[:limit] if text is not None else ""


def _as_bool(value: Any, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("true", "yes", "1", "y", "feasible"):
            return True
        if low in ("false", "no", "0", "n", "infeasible", "not feasible"):
            return False
    return default


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        f = float(str(value).strip())
    except (TypeError, ValueError):
        return None
    if f != f or f in (float("inf"), float("-inf")):
        return None
    return int(f)


def _first(d: dict[str, Any], names: tuple[str, ...]) -> tuple[str | None, Any]:
    for name in names:
        if name in d:
            return name, d[name]
    lowered = {str(k).lower(): k for k in d}
    for name in names:
        k = lowered.get(name.lower())
        if k is not None:
            return k, d[k]
    return None, None


def candidates(text: str) -> Iterator[str]:
    """Pieces of *text* that may hold the JSON answer, most likely first (lazily: the first that reads wins)."""
    seen: set[str] = set()

    def fresh(piece: str) -> bool:
        if not piece or piece in seen or len(seen) >= MAX_CANDIDATES:
            return False
        seen.add(piece)
        return True

    stripped = text.strip()
    if stripped[:1] in ("{", "[") and fresh(stripped):
        yield stripped  # the whole answer is the JSON: the common case with JSON modes
    fences = [(m.group(1).lower(), m.group(2).strip()) for m in _FENCE.finditer(text)] if "```" in text else []
    for lang, body in fences:
        if lang in ("json", "json5", "jsonc") and fresh(body):
            yield body
    for lang, body in fences:
        if lang not in ("json", "json5", "jsonc") and fresh(body):
            yield body
    for span in _balanced_spans(text):
        if fresh(span.strip()):
            yield span.strip()
    # from the first opener to the end: the repair stops where the value closes, and closes a cut-off one
    for opener, closer in (("{", "}"), ("[", "]")):
        first, last = text.find(opener), text.rfind(closer)
        if first >= 0:
            if fresh(text[first:].strip()):
                yield text[first:].strip()
            if last > first and fresh(text[first:last + 1]):
                yield text[first:last + 1]
    if fresh(stripped):
        yield stripped


def _balanced_spans(text: str) -> list[str]:
    """Top-level ``{...}`` spans (double-quoted strings respected), those mentioning steps first."""
    spans: list[str] = []
    depth, start, in_str, escaped = 0, -1, False, False
    for i, c in enumerate(text):
        if in_str:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_str = False
            continue
        if c == '"' and depth > 0:
            in_str = True
        elif c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start:i + 1])
                if len(spans) >= MAX_CANDIDATES:
                    break
    spans.sort(key=lambda s: not any(f'"{k}"' in s or f"'{k}'" in s for k in (*PLAN_KEYS, "command")))
    return spans


def _find_plan_object(value: Any, depth: int = 0) -> tuple[dict[str, Any] | None, list[Any] | None]:
    """The object holding the plan and its list of steps (either may be None)."""
    if isinstance(value, list):
        if all(isinstance(v, dict) for v in value) and value:
            return None, value
        return None, None
    if not isinstance(value, dict):
        return None, None
    key, steps = _first(value, STEPS_FIELDS)
    if isinstance(steps, list):
        return value, steps
    if isinstance(steps, dict) and depth < 2:  # {"plan": {"analysis": ..., "plan": [...]}}
        inner, inner_steps = _find_plan_object(steps, depth + 1)
        if inner_steps is not None or inner is not None:
            return inner or value, inner_steps
    if _first(value, COMMAND_FIELDS)[0] is not None and depth == 0:
        return None, [value]  # a single step on its own
    if _first(value, FEASIBLE_FIELDS)[0] is not None:
        return value, None    # an answer without steps (infeasible)
    if depth < 2:
        for name in WRAPPER_FIELDS:
            k, inner_value = _first(value, (name,))
            if isinstance(inner_value, (dict, list)):
                inner, inner_steps = _find_plan_object(inner_value, depth + 1)
                if inner is not None or inner_steps is not None:
                    return inner, inner_steps
    return None, None


def normalize_step(raw: Any, position: int, notes: list[str]) -> PlanStep | None:
    """One step in the canonical shape, or None (with a note) when it has no command."""
    if not isinstance(raw, dict):
        notes.append(f"step {position}: not an object, ignored")
        return None
    number = None
    k, v = _first(raw, STEP_FIELDS)
    if k is not None:
        number = _as_int(v)
    number = number if number is not None and 0 < number < 10_000 else position
    _, command = _first(raw, COMMAND_FIELDS)
    params: Any = None
    if isinstance(command, dict):  # function-call style {"name": ..., "arguments": {...}}
        _, params = _first(command, PARAM_FIELDS)
        _, command = _first(command, ("name", "command"))
    if not isinstance(command, str) or not command.strip():
        notes.append(f"step {number}: no command, ignored")
        return None
    command = _clean(command, 120)
    controller_type: str | None = None
    _, hint = _first(raw, TYPE_FIELDS)
    if isinstance(hint, str) and hint.strip():
        controller_type = _clean(hint, 40).lower()
    m = re.fullmatch(r"([A-Za-z_][\w-]*)\s*[.:/]\s*([A-Za-z_]\w*)(?:\(\))?", command)
    if m:
        controller_type, command = m.group(1).lower(), m.group(2)
    else:
        command = re.sub(r"\(\s*\)$", "", command)
    if params is None:
        _, params = _first(raw, PARAM_FIELDS)
    if isinstance(params, str):
        parsed, _ = loads_lenient(params)
        params = parsed if isinstance(parsed, dict) else None
        if params is None:
            notes.append(f"step {number}: params are not an object, ignored")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        notes.append(f"step {number}: params are not an object, ignored")
        params = {}
    params = {str(key): value for key, value in params.items()}
    for key, value in raw.items():  # flat params: {"command": "goto", "node": "live"}
        if str(key) not in _META and str(key) not in params and not isinstance(value, (dict, list)):
            params[str(key)] = value
    _, description = _first(raw, DESCRIPTION_FIELDS)
    desc = _clean(description) if isinstance(description, (str, int, float)) else ""
    return PlanStep(number, command, params, desc, controller_type)


def plan_from_value(value: Any, notes: list[str]) -> Plan | None:
    """A plan from a parsed JSON value, or None when the value is not plan-shaped."""
    holder, raw_steps = _find_plan_object(value)
    if holder is None and raw_steps is None:
        return None
    analysis, feasible_raw = "", None
    if holder is not None:
        _, a = _first(holder, ANALYSIS_FIELDS)
        analysis = _clean(a, 2000) if isinstance(a, (str, int, float)) else ""
        _, feasible_raw = _first(holder, FEASIBLE_FIELDS)
    raw_steps = list(raw_steps or [])
    if len(raw_steps) > MAX_RAW_STEPS:
        notes.append(f"only the first {MAX_RAW_STEPS} of {len(raw_steps)} steps read")
        raw_steps = raw_steps[:MAX_RAW_STEPS]
    steps = [s for i, raw in enumerate(raw_steps, 1) if (s := normalize_step(raw, i, notes)) is not None]
    feasible = _as_bool(feasible_raw, default=bool(steps))
    return Plan(analysis, feasible, steps if feasible else [], notes)


def extract_plan(text: Any) -> Extraction:
    """Read a plan out of an LLM answer. Never raises."""
    try:
        return _extract(text)
    except Exception as exc:  # hostile input must never escape as an exception
        log.warning("plan extraction gave up: %s", type(exc).__name__)
        return Extraction(None, f"the answer could not be read ({type(exc).__name__})")


def _extract(text: Any) -> Extraction:
    if not isinstance(text, str):
        return Extraction(None, "the answer is not text")
    if not text.strip():
        return Extraction(None, "the answer is empty")
    notes: list[str] = []
    if len(text) > MAX_INPUT_CHARS:
        notes.append(f"answer cut to its first {MAX_INPUT_CHARS} characters")
        text = text[:MAX_INPUT_CHARS]
    parsed_any = False
    for piece in candidates(text):
        value, repaired = loads_lenient(piece)
        if value is None:
            continue
        parsed_any = True
        step_notes: list[str] = []
        plan = plan_from_value(value, step_notes)
        if plan is None:
            continue
        return _finish(plan, notes + step_notes, repaired)
    if parsed_any:
        return Extraction(None, "the answer holds JSON but no plan (no 'plan' list of steps)", notes)
    return Extraction(None, "no JSON object found in the answer", notes)


def _finish(plan: Plan, notes: list[str], repaired: Repaired | None) -> Extraction:
    truncated = plan_cut = False
    if repaired is not None:
        notes.append("the answer was not valid JSON and was repaired")
        truncated, plan_cut = repaired.truncated, repaired.plan_cut
        if repaired.step_cut and plan.steps:
            dropped = plan.steps.pop()
            notes.append(f"step {dropped.step}: dropped, the answer was cut off inside it")
        if plan_cut:
            notes.append("the answer was cut off inside the list of steps; later steps may be missing")
    plan.notes = notes
    if plan.feasible and not plan.steps:
        return Extraction(None, "the answer says feasible but holds no usable step", notes, truncated, plan_cut)
    return Extraction(plan, "", notes, truncated, plan_cut)

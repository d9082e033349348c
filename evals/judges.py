"""Judges: checks of a task's end state, read from the app itself.

A task's ``judge`` is a list of one-key checks; all must hold. The checks read
the device's page (URL, visible text, an element's text or value, the app's
own state object) or the app's database — never the run's own steps::

    - url_contains: /admin/store/product/
    - text_present: ["Blue Mug", "8.50"]       # visible text of the page, case-insensitive
    - text_absent: Tea Kettle
    - element_text: {selector: "#channel-banner", contains: "Melody TV"}
    - field_value: {selector: "#search-input", equals: "harbor"}
    - sql: {query: "SELECT count(*) FROM books", equals: 8}
    - streamtv: {screen: live, channel: 5}     # window.streamtv, the demo app's read-only state
    - todos: {open: [buy milk], done: [pay rent], absent: [walk the dog], count: 3}   # the app's stored todos
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable

from evals.apps.base import AppInstance
from evals.device_page import DevicePage
from shared.errors import ConfigError


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    detail: str


@dataclass
class JudgeContext:
    page: DevicePage
    app: AppInstance


Check = Callable[[Any, JudgeContext], CheckResult]
Validator = Callable[[Any], str]  # returns an error message, "" when the spec is fine

_CHECKS: dict[str, tuple[Check, Validator]] = {}


def check(name: str, validator: Validator) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        _CHECKS[name] = (fn, validator)
        return fn
    return register


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _strings(spec: Any) -> list[str]:
    return [str(s) for s in spec] if isinstance(spec, list) else [str(spec)]


def _nonempty_strings(spec: Any) -> str:
    items = spec if isinstance(spec, list) else [spec]
    return "" if items and all(isinstance(s, (str, int, float)) and str(s) for s in items) else \
        "give a string or a list of strings"


def _matcher(spec: Any) -> str:
    if not isinstance(spec, dict) or not spec.get("selector"):
        return "give {selector, equals|contains|absent}"
    if not ({"equals", "contains", "absent", "not_contains"} & set(spec)):
        return "give equals, contains, not_contains or absent"
    return ""


def _compare(actual: str | None, spec: dict[str, Any], what: str) -> CheckResult:
    if spec.get("absent"):
        return CheckResult(actual is None, f"{what} {'absent' if actual is None else f'present: {actual!r}'}")
    if actual is None:
        return CheckResult(False, f"{what} not found")
    if "equals" in spec:
        ok = _norm(actual) == _norm(str(spec["equals"]))
        return CheckResult(ok, f"{what} is {actual!r}, expected {spec['equals']!r}")
    if "not_contains" in spec:
        ok = _norm(str(spec["not_contains"])) not in _norm(actual)
        return CheckResult(ok, f"{what} is {actual!r}, must not contain {spec['not_contains']!r}")
    ok = _norm(str(spec["contains"])) in _norm(actual)
    return CheckResult(ok, f"{what} is {actual!r}, expected to contain {spec['contains']!r}")


@check("url_contains", lambda s: "" if isinstance(s, str) and s else "give a URL fragment")
def _url_contains(spec: str, ctx: JudgeContext) -> CheckResult:
    url = ctx.page.url()
    return CheckResult(spec in url, f"URL is {url}, expected to contain {spec!r}")


@check("url_not_contains", lambda s: "" if isinstance(s, str) and s else "give a URL fragment")
def _url_not_contains(spec: str, ctx: JudgeContext) -> CheckResult:
    url = ctx.page.url()
    return CheckResult(spec not in url, f"URL is {url}, must not contain {spec!r}")


@check("text_present", _nonempty_strings)
def _text_present(spec: Any, ctx: JudgeContext) -> CheckResult:
    text = _norm(ctx.page.text())
    missing = [s for s in _strings(spec) if _norm(s) not in text]
    return CheckResult(not missing, f"page text lacks {missing}" if missing else f"page shows {_strings(spec)}")


@check("text_absent", _nonempty_strings)
def _text_absent(spec: Any, ctx: JudgeContext) -> CheckResult:
    text = _norm(ctx.page.text())
    present = [s for s in _strings(spec) if _norm(s) in text]
    return CheckResult(not present, f"page still shows {present}" if present else f"page lacks {_strings(spec)}")


_ELEMENT_JS = """
([selector, prop]) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const st = getComputedStyle(el);
  if (prop === 'text' && (el.hidden || r.width === 0 || r.height === 0 || st.visibility === 'hidden'
      || st.display === 'none')) return null;
  return prop === 'value' ? (el.value ?? el.textContent ?? '') : (el.innerText ?? el.textContent ?? '');
}
"""


@check("element_text", _matcher)
def _element_text(spec: dict[str, Any], ctx: JudgeContext) -> CheckResult:
    actual = ctx.page.evaluate(_ELEMENT_JS, [spec["selector"], "text"])
    return _compare(actual, spec, f"visible text of {spec['selector']}")


@check("field_value", _matcher)
def _field_value(spec: dict[str, Any], ctx: JudgeContext) -> CheckResult:
    actual = ctx.page.evaluate(_ELEMENT_JS, [spec["selector"], "value"])
    return _compare(actual, spec, f"value of {spec['selector']}")


def _sql_spec(spec: Any) -> str:
    if not isinstance(spec, dict) or not isinstance(spec.get("query"), str) or "equals" not in spec:
        return "give {query, equals}"
    if not spec["query"].lstrip().lower().startswith(("select", "with")):
        return "the query must be a SELECT"
    return ""


def _shape(rows: list[tuple[Any, ...]]) -> Any:
    if len(rows) == 1 and len(rows[0]) == 1:
        return rows[0][0]
    if rows and all(len(r) == 1 for r in rows):
        return [r[0] for r in rows]
    return [list(r) for r in rows]


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return abs(float(actual) - float(expected)) < 1e-9
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(_same(a, e) for a, e in zip(actual, expected))
    if isinstance(expected, bool):
        return actual in (expected, int(expected))
    if expected is None or actual is None:
        return actual is expected
    return str(actual) == str(expected)


@check("sql", _sql_spec)
def _sql(spec: dict[str, Any], ctx: JudgeContext) -> CheckResult:
    if ctx.app.database is None:
        raise ConfigError(f"app {ctx.app.name!r} has no database for an sql check")
    db = sqlite3.connect(f"file:{ctx.app.database}?mode=ro", uri=True, timeout=10)
    try:
        actual = _shape(db.execute(spec["query"]).fetchall())
    finally:
        db.close()
    return CheckResult(_same(actual, spec["equals"]), f"{spec['query']} -> {actual!r}, expected {spec['equals']!r}")


STREAMTV_FIELDS = {"screen": "screen", "channel": "channel", "subtitles": "subtitles", "audio": "audio",
                   "parental_lock": "parentalLock", "playing": "playing", "title": "title"}


def _streamtv_spec(spec: Any) -> str:
    if not isinstance(spec, dict) or not spec:
        return f"give some of {sorted(STREAMTV_FIELDS)}"
    unknown = set(spec) - set(STREAMTV_FIELDS)
    return f"unknown StreamTV fields {sorted(unknown)}; use {sorted(STREAMTV_FIELDS)}" if unknown else ""


@check("streamtv", _streamtv_spec)
def _streamtv(spec: dict[str, Any], ctx: JudgeContext) -> CheckResult:
    state = ctx.page.evaluate("() => window.streamtv ? Object.assign({}, window.streamtv) : null")
    if state is None:
        return CheckResult(False, "the page is not StreamTV (no window.streamtv)")
    wrong = {k: state.get(STREAMTV_FIELDS[k]) for k, v in spec.items()
             if not _same(state.get(STREAMTV_FIELDS[k]), v) and str(state.get(STREAMTV_FIELDS[k])).lower() != str(v).lower()}
    shown = {k: state.get(STREAMTV_FIELDS[k]) for k in spec}
    return CheckResult(not wrong, f"StreamTV state {shown}, expected {spec}")


LIST_STATE_KEYS = ("open", "done", "absent", "count")


def _todos_spec(spec: Any) -> str:
    if not isinstance(spec, dict) or not spec:
        return f"give some of {list(LIST_STATE_KEYS)}"
    unknown = set(spec) - set(LIST_STATE_KEYS)
    if unknown:
        return f"unknown keys {sorted(unknown)}; use {list(LIST_STATE_KEYS)}"
    if "count" in spec and not isinstance(spec["count"], int):
        return "count must be a number"
    return next((f"{k}: {problem}" for k in ("open", "done", "absent") if k in spec
                 for problem in [_nonempty_strings(spec[k])] if problem), "")


@check("todos", _todos_spec)
def _todos(spec: dict[str, Any], ctx: JudgeContext) -> CheckResult:
    read = getattr(ctx.app, "todos", None)
    if read is None:
        return CheckResult(False, f"app {ctx.app.name!r} keeps no todos")
    stored = {_norm(title): done for title, done in read(ctx.page)}
    wrong = [f"{t!r} not open" for t in _strings(spec.get("open", [])) if stored.get(_norm(t)) is not False]
    wrong += [f"{t!r} not done" for t in _strings(spec.get("done", [])) if stored.get(_norm(t)) is not True]
    wrong += [f"{t!r} still there" for t in _strings(spec.get("absent", [])) if _norm(t) in stored]
    if "count" in spec and len(stored) != spec["count"]:
        wrong.append(f"{len(stored)} todos, expected {spec['count']}")
    return CheckResult(not wrong, f"todos {stored}" + (f": {'; '.join(wrong)}" if wrong else ""))


def validate_check(raw: dict[str, Any], where: str) -> None:
    ((name, spec),) = raw.items()
    if name not in _CHECKS:
        raise ConfigError(f"{where}: unknown judge check {name!r}; use one of {', '.join(sorted(_CHECKS))}")
    problem = _CHECKS[name][1](spec)
    if problem:
        raise ConfigError(f"{where}: judge check {name}: {problem}")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    details: tuple[str, ...]


def judge(checks: tuple[dict[str, Any], ...], ctx: JudgeContext) -> Verdict:
    """Run every check; the verdict holds only when all do. A check that cannot read the app fails."""
    details = []
    ok = True
    for raw in checks:
        ((name, spec),) = raw.items()
        try:
            result = _CHECKS[name][0](spec, ctx)
        except Exception as exc:  # a page or database that cannot be read is a wrong end state here
            result = CheckResult(False, f"{name}: could not read the app: {exc}")
        ok = ok and result.ok
        details.append(("ok   " if result.ok else "FAIL ") + result.detail)
    return Verdict(ok, tuple(details))


CHECK_NAMES = tuple(sorted(_CHECKS))

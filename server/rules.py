"""Rules: phrases a tester names once and uses in any task.

A rule has a name pattern with parameters (``"log in as {user}"``,
``"reset the player"``), a scope (one user interface, or global) and a body:
either plain-language tasks that may use the parameters (``"switch to channel
{n}"``), or explicit plan steps whose parameter values may use them.

:func:`expand` splits a task into clauses and replaces each clause that names
a rule — its parameters bound from the clause — by the rule's body, recursively,
recording which rule produced which part. Explicit-step bodies become fixed
steps; they still pass :func:`shared.plan.validate_plan` like any plan.
A rule that calls itself, directly or through other rules, is refused when it
is saved (:func:`find_cycle`).

Example::

    >>> tune = Rule("tune to {n}", tasks="switch to channel {n}")
    >>> e = expand("go to the guide, then tune to 5", "streamtv", [tune])
    >>> [p.text for p in e.parts]
    ['go to the guide', 'switch to channel 5']
    >>> e.parts[1].origin.rule, e.parts[1].origin.args
    ('tune to {n}', {'n': '5'})
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Sequence

from shared.errors import RequestError
from shared.models import PlanStep

log = logging.getLogger(__name__)

MAX_DEPTH = 8            # nesting of rules inside rules, as a guard (cycles are refused at save time)
MAX_NAME_CHARS = 200
MAX_BODY_CHARS = 2000
MAX_BODY_STEPS = 40
GLOBAL = ""              # the scope of a rule that applies to every user interface

_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_BRACE = re.compile(r"[{}]")
# clause separators, kept (captured) so that text between rules is passed on exactly as written
_SPLIT = re.compile(r"(\s*(?:[,;]\s*(?:and\s+)?(?:then\s+)?|\.\s+|\band then\b|\bthen\b|\band\b|\bafter that\b)\s*)",
                    re.I)
_QUOTED = re.compile(r"""["“][^"”]*["”]""")
_LEAD = re.compile(r"^(?:and\s+|then\s+|also\s+)+", re.I)


class BodyKind(str, Enum):
    TASKS = "tasks"    # plain-language text, planned like any task
    STEPS = "steps"    # explicit plan steps, run as written (after validation)


def _words(text: str) -> list[str]:
    return text.strip().split()


def normalize_name(name: str) -> str:
    """The name as stored: single spaces, no surrounding space."""
    return " ".join(_words(name))


def match_key(name: str) -> str:
    """What two rule names must not share in one scope: lower-case words, parameters as ``{}``."""
    return _PARAM.sub("{}", normalize_name(name).lower())


def slug(name: str) -> str:
    """A rule's id in URLs: ``"log in as {user}"`` → ``"log-in-as-user"``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _pattern(name: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    for m in _PARAM.finditer(name):
        parts.append(r"\s+".join(map(re.escape, _words(name[pos:m.start()]))))
        parts.append(rf"(?P<{m.group(1)}>.+?)")
        pos = m.end()
    parts.append(r"\s+".join(map(re.escape, _words(name[pos:]))))
    body = ""
    for a, b in zip(parts, parts[1:] + [""]):
        body += a
        if a and b:
            body += r"\s+"
    return re.compile(rf"^{body}[\s.!]*$", re.I)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] in "\"'“" and value[-1] in "\"'”":
        return value[1:-1].strip()
    return value


@dataclass(frozen=True)
class Rule:
    """One version of a rule. ``tasks`` or ``steps`` is its body (exactly one of them)."""

    name: str
    scope: str = GLOBAL
    tasks: str = ""
    steps: tuple[PlanStep, ...] = ()
    description: str = ""
    version: int = 0

    @property
    def id(self) -> str:
        return slug(self.name)

    @property
    def params(self) -> list[str]:
        return _PARAM.findall(self.name)

    @property
    def kind(self) -> BodyKind:
        return BodyKind.STEPS if self.steps else BodyKind.TASKS

    @property
    def key(self) -> str:
        return match_key(self.name)

    def match(self, clause: str) -> dict[str, str] | None:
        """The parameter values when *clause* names this rule, else None."""
        m = _pattern(self.name).match(clause.strip())
        if m is None:
            return None
        args = {k: _unquote(v) for k, v in m.groupdict().items()}
        return args if all(args.values()) else None

    def body_text(self, args: dict[str, str]) -> str:
        return _PARAM.sub(lambda m: args.get(m.group(1), m.group(0)), self.tasks)

    def body_steps(self, args: dict[str, str]) -> list[PlanStep]:
        return [PlanStep(s.step, s.command, {k: _bind(v, args) for k, v in s.params.items()},
                         _PARAM.sub(lambda m: args.get(m.group(1), m.group(0)), s.description))
                for s in self.steps]

    def check(self) -> "Rule":
        """Raise :class:`RequestError` (with what to fix) unless the rule is well formed; return it."""
        name = normalize_name(self.name)
        if not name:
            raise RequestError("a rule needs a 'name': the phrase a task uses, e.g. 'log in as {user}'")
        if len(name) > MAX_NAME_CHARS:
            raise RequestError(f"a rule's name is at most {MAX_NAME_CHARS} characters")
        if _BRACE.search(_PARAM.sub("", name)):
            raise RequestError(f"rule name {name!r}: a parameter is a name in braces, like {{user}}")
        params = self.params
        if len(set(params)) != len(params):
            raise RequestError(f"rule name {name!r} uses a parameter twice")
        if not _PARAM.sub("", name).strip():
            raise RequestError(f"rule name {name!r} needs words besides its parameters")
        if re.search(r"\}\s*\{", name):
            raise RequestError(f"rule name {name!r}: put a word between two parameters")
        if _SPLIT.search(_PARAM.sub("x", name)):
            raise RequestError(f"rule name {name!r} must be one clause: no 'and', 'then', commas or full stops")
        if bool(self.tasks.strip()) == bool(self.steps):
            raise RequestError(f"rule {name!r} needs exactly one body: 'tasks' (plain-language text) "
                               "or 'steps' (a list of {command, params, description})")
        if len(self.tasks) > MAX_BODY_CHARS:
            raise RequestError(f"rule {name!r}: 'tasks' is at most {MAX_BODY_CHARS} characters")
        if len(self.steps) > MAX_BODY_STEPS:
            raise RequestError(f"rule {name!r}: at most {MAX_BODY_STEPS} steps")
        used = set(_PARAM.findall(self.tasks))
        for s in self.steps:
            used |= set(_PARAM.findall(s.description))
            for v in s.params.values():
                used |= set(_PARAM.findall(v)) if isinstance(v, str) else set()
        unknown = sorted(used - set(params))
        if unknown:
            raise RequestError(f"rule {name!r} uses {', '.join('{' + u + '}' for u in unknown)} in its body, "
                               f"which its name does not declare (parameters: {', '.join(params) or 'none'})")
        return Rule(name, self.scope.strip(), self.tasks.strip(), self.steps, self.description.strip(),
                    self.version)

    # -- wire ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "scope": self.scope or None,
                             "params": self.params, "kind": self.kind.value, "version": self.version}
        if self.description:
            d["description"] = self.description
        if self.steps:
            d["steps"] = [s.to_dict() for s in self.steps]
        else:
            d["tasks"] = self.tasks
        return d

    @classmethod
    def from_dict(cls, d: Any) -> "Rule":
        if not isinstance(d, dict):
            raise RequestError("a rule is an object {name, scope?, tasks | steps, description?}")
        name, scope, tasks = d.get("name"), d.get("scope") or GLOBAL, d.get("tasks") or ""
        if not isinstance(name, str):
            raise RequestError("a rule needs a 'name': the phrase a task uses, e.g. 'log in as {user}'")
        if not isinstance(scope, str):
            raise RequestError("'scope' must be a user interface name, or omitted for a global rule")
        if isinstance(tasks, list) and all(isinstance(t, str) for t in tasks):
            tasks = ", then ".join(t.strip().rstrip(".") for t in tasks if t.strip())
        if not isinstance(tasks, str):
            raise RequestError("'tasks' must be plain-language text (or a list of texts)")
        raw_steps = d.get("steps") or []
        if not isinstance(raw_steps, list):
            raise RequestError("'steps' must be a list of {command, params, description}")
        steps = []
        for i, s in enumerate(raw_steps, 1):
            if not isinstance(s, dict) or not isinstance(s.get("command"), str) or \
                    not isinstance(s.get("params", {}) or {}, dict):
                raise RequestError(f"step {i} of rule {name!r} must be {{command: str, params: {{...}}}}")
            steps.append(PlanStep(i, s["command"], dict(s.get("params") or {}), str(s.get("description") or "")))
        description = d.get("description") or ""
        version = d.get("version")
        return cls(normalize_name(name), scope.strip(), tasks, tuple(steps), str(description),
                   version if isinstance(version, int) and not isinstance(version, bool) else 0)


def _bind(value: Any, args: dict[str, str]) -> Any:
    if not isinstance(value, str):
        return value
    whole = _PARAM.fullmatch(value.strip())
    if whole and whole.group(1) in args:
        return args[whole.group(1)]
    return _PARAM.sub(lambda m: args.get(m.group(1), m.group(0)), value)


# -- expansion ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RuleUse:
    """One use of a rule inside a task: which rule (and version), from which clause, with which values."""

    index: int
    rule: str
    version: int
    scope: str
    args: dict[str, str]
    clause: str
    parent: int | None = None     # the use whose body this clause was in

    def to_dict(self) -> dict[str, Any]:
        return {"use": self.index, "rule": self.rule, "version": self.version, "scope": self.scope or None,
                "args": dict(self.args), "clause": self.clause, "parent": self.parent}


@dataclass(frozen=True)
class Part:
    """A piece of the expanded task: text to plan, or fixed steps; *origin* is the rule that produced it."""

    text: str = ""
    steps: tuple[PlanStep, ...] = ()
    origin: RuleUse | None = None

    @property
    def fixed(self) -> bool:
        return bool(self.steps)

    def describe(self) -> str:
        if not self.fixed:
            return self.text
        return ", then ".join(s.description or s.command for s in self.steps)


@dataclass
class Expansion:
    original: str
    parts: list[Part] = field(default_factory=list)
    uses: list[RuleUse] = field(default_factory=list)

    @property
    def used(self) -> bool:
        return bool(self.uses)

    @property
    def task(self) -> str:
        """The whole task with every rule replaced by its body: what a planner is asked to plan."""
        if not self.used:
            return self.original
        return ", then ".join(p.describe().strip().rstrip(".") for p in self.parts if p.describe().strip())

    def segments(self) -> list[Part]:
        """Parts to plan (or run) one after the other: neighbouring text parts of the same origin joined."""
        out: list[Part] = []
        for p in self.parts:
            prev = out[-1] if out else None
            if prev is not None and not prev.fixed and not p.fixed and prev.origin == p.origin:
                out[-1] = Part(f"{prev.text.rstrip()}{'' if prev.text.rstrip().endswith(',') else ','} "
                               f"then {p.text.strip()}", (), p.origin)
            else:
                out.append(p)
        return out


def _hold_quotes(text: str) -> tuple[str, dict[str, str]]:
    holds: dict[str, str] = {}

    def hold(m: re.Match[str]) -> str:
        key = f"\x00{len(holds)}\x00"
        holds[key] = m.group(0)
        return key
    return _QUOTED.sub(hold, text), holds


def _release(text: str, holds: dict[str, str]) -> str:
    for key, value in holds.items():
        text = text.replace(key, value)
    return text


def split(task: str) -> list[tuple[str, str]]:
    """``[(clause, separator before it)]``: the task's clauses, quoted strings kept whole."""
    held, holds = _hold_quotes(task)
    pieces = _SPLIT.split(held)
    out: list[tuple[str, str]] = []
    sep = ""
    for i, piece in enumerate(pieces):
        if i % 2:
            sep += piece
            continue
        if piece.strip():
            out.append((_release(piece.strip(), holds), _release(sep, holds)))
            sep = ""
    return out


def applicable(rules: Iterable[Rule], userinterface: str) -> list[Rule]:
    """The rules a task on *userinterface* may name; a rule of the user interface hides a global namesake."""
    mine = [r for r in rules if r.scope == userinterface and userinterface]
    keys = {r.key for r in mine}
    return mine + [r for r in rules if r.scope == GLOBAL and r.key not in keys]


def _find(clause: str, rules: Sequence[Rule]) -> tuple[Rule, dict[str, str]] | None:
    text = _LEAD.sub("", clause.strip())
    best: tuple[Rule, dict[str, str]] | None = None
    for rule in rules:
        args = rule.match(text)
        # the most specific rule wins: the one with the most literal words
        if args is not None and (best is None or len(_PARAM.sub("", rule.name)) > len(_PARAM.sub("", best[0].name))):
            best = (rule, args)
    return best


def expand(task: str, userinterface: str, rules: Iterable[Rule]) -> Expansion:
    """Replace every clause of *task* that names a rule by that rule's body, recursively.

    Text between rule clauses is kept as written (separators included), so a
    task that names no rule comes back unchanged (``Expansion.used`` false).
    """
    usable = applicable(list(rules), userinterface)
    out = Expansion(task)
    if not usable:
        out.parts = [Part(task)]
        return out
    _expand_into(task, usable, out, None, (), 0)
    return out


def _expand_into(text: str, rules: Sequence[Rule], out: Expansion, origin: RuleUse | None,
                 chain: tuple[str, ...], depth: int) -> None:
    pending = ""
    for clause, sep in split(text):
        found = _find(clause, rules)
        if found is None:
            pending = f"{pending}{sep}{clause}" if pending else clause
            continue
        if pending:
            out.parts.append(Part(pending, (), origin))
            pending = ""
        rule, args = found
        if rule.key in chain or depth >= MAX_DEPTH:
            raise RequestError(f"rule {rule.name!r} calls itself: {' → '.join([*chain, rule.key])}")
        use = RuleUse(len(out.uses) + 1, rule.name, rule.version, rule.scope, args, clause,
                      origin.index if origin else None)
        out.uses.append(use)
        log.info("clause %r names rule %r v%d %s", clause, rule.name, rule.version, args)
        if rule.kind is BodyKind.STEPS:
            out.parts.append(Part("", tuple(rule.body_steps(args)), use))
        else:
            _expand_into(rule.body_text(args), rules, out, use, (*chain, rule.key), depth + 1)
    if pending:
        out.parts.append(Part(pending, (), origin))


# -- cycles ------------------------------------------------------------------------------------

def calls(rule: Rule, rules: Sequence[Rule]) -> list[Rule]:
    """The rules *rule*'s body names (its parameters left as placeholders)."""
    if rule.kind is not BodyKind.TASKS:
        return []
    out = []
    for clause, _ in split(rule.tasks):
        found = _find(clause, rules)
        if found is not None and found[0] not in out:
            out.append(found[0])
    return out


def find_cycle(rule: Rule, others: Iterable[Rule]) -> list[str] | None:
    """The names on a cycle through *rule* (``[a, b, a]``) if saving it would make one, else None.

    *others* are the stored rules; a stored version of *rule* itself is replaced by *rule*.
    Every scope *rule* could be used in is checked.
    """
    stored = [r for r in others if not (r.key == rule.key and r.scope == rule.scope)]
    scopes = {r.scope for r in stored} | {rule.scope} if rule.scope == GLOBAL else {rule.scope}
    for scope in sorted(scopes):
        pool = applicable([*stored, rule], scope)
        if rule not in pool:
            continue
        path = _dfs(rule, pool, [rule])
        if path:
            return [r.name for r in path]
    return None


def _dfs(start: Rule, pool: Sequence[Rule], path: list[Rule]) -> list[Rule] | None:
    for nxt in calls(path[-1], pool):
        if nxt is start:
            return [*path, nxt]
        if nxt in path:
            continue
        found = _dfs(start, pool, [*path, nxt])
        if found:
            return found
    return None

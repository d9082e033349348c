"""The planning prompt: minimal and exact.

It holds the task, the current node, the navigation nodes, the commands as
``name(controller_type): description`` with their parameters, the
verifications, the ordering rules and the response shape. When the device
has many commands, they are ranked against the task and only the most
relevant are sent (about 20) — never dropping one the task names, nor
navigation. Nodes are all listed; their on-screen elements are listed for
the screens the task is about (all of them when there are few).

Two templates render it (:data:`TEMPLATES`): ``detailed`` (the default:
every parameter on its own line with its description) and ``compact`` (one
line per command, shorter descriptions and rules) for small local models and
tight token budgets. A server picks one with ``DEVICEPILOT_LLM_PROMPT_TEMPLATE``;
a run may ask for another (its ``prompt_template`` option).
"""
from __future__ import annotations

import json
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from shared.commands import CommandKind, CommandSpec, ParamSpec
from shared.errors import ConfigError, RequestError
from shared.models import NodeInfo, PlanningContext, PlanStep
from shared.plan import MAX_STEPS

if TYPE_CHECKING:
    from server.ai_central import ReplanInfo
    from shared.screen import ScreenObservation, UIElement

DEFAULT_COMMANDS = 30   # a web device declares about 30: sent whole; larger devices get the most relevant
ALL_ELEMENTS_UP_TO = 80
ELEMENT_NODES = 8
ELEMENTS_PER_NODE = 14
DESCRIPTION_CHARS = 160

_STOP = frozenset("a an and the to of on in at for with then is are be it its this that my me please "
                  "check verify ensure make sure go open".split())

SYSTEM_PROMPT = """You plan test steps for one device under test. Reply with one JSON object and nothing else:
{{"analysis": "<one or two sentences>", "feasible": true, "plan": [{{"step": 1, "command": "<command>", "params": {{}}, "description": "<what the step does>"}}]}}
Rules:
1. Use only the commands listed, spelled exactly, with only their listed parameters; give every required parameter.
2. goto(node) takes a screen id from the list; it reaches that screen from wherever the device is.
3. Reach a screen before acting on it. Put each verification right after the action whose result it checks. When the task asks to check something, end with a verification.
4. Values must match the parameter's type, range and choices.
5. If the task needs a screen, element or command that is not listed, answer feasible false with an empty plan and say why in analysis.
6. At most {max_steps} steps. Descriptions are plain text for a human reader.
7. Elements on the screen now are targeted by their text and role (and row, for a control inside a list row); a \
screen that is not shown yet is acted on after the step that opens it. Typing replaces a field's text unless the \
task says to append. End a plan that changes the screen with a verification of the intended end state."""


COMPACT_SYSTEM_PROMPT = """Plan test steps for a device. Reply with JSON only:
{{"analysis": "...", "feasible": true, "plan": [{{"step": 1, "command": "...", "params": {{}}, "description": "..."}}]}}
Use only listed commands and parameters; goto(node) takes a listed screen id; end with a check when the task asks \
for one; if something needed is not listed, feasible false with an empty plan. At most {max_steps} steps."""

COMPACT_DESCRIPTION_CHARS = 60
SCREEN_ELEMENTS = 60          # elements of the live screen shown in a prompt, most relevant to the task first
COMPACT_SCREEN_ELEMENTS = 30


def _element_text(e: "UIElement") -> str:
    name = (e.name or e.text or e.placeholder or e.hint)[:60]
    bits = [e.role, f'"{name}"' if name else ""]
    if e.placeholder and e.placeholder != name:
        bits.append(f'placeholder "{e.placeholder[:40]}"')
    if e.value:
        bits.append(f'value "{e.value[:40]}"')
    if e.checked is not None:
        bits.append("checked" if e.checked else "unchecked")
    if e.options:
        bits.append("options: " + ", ".join(o[:30] for o in e.options[:12]))
    if e.container and e.container != name:
        bits.append(f'row "{e.container[:50]}"')
    if e.hidden:
        bits.append("shown on hover")
    return " ".join(b for b in bits if b)


def screen_lines(task: str, screen: "ScreenObservation | None", limit: int) -> list[str]:
    """The live screen's elements as prompt lines, those sharing words with the task first."""
    if screen is None or not screen.elements:
        return []
    wanted = _terms(task)
    ranked = sorted(enumerate(screen.elements),
                    key=lambda ie: (-len(wanted & _terms(" ".join((ie[1].name, ie[1].text, ie[1].placeholder,
                                                                   ie[1].hint, ie[1].container)))), ie[0]))
    chosen = sorted(ranked[:limit], key=lambda ie: ie[0])
    lines = [f"- {_element_text(e)}" for _, e in chosen]
    if len(screen.elements) > limit:
        lines.append(f"({len(screen.elements) - limit} more elements not shown)")
    return lines

_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_WORD = re.compile(r"[a-z0-9]+")
_NON_ALNUM = re.compile(r"[^a-z0-9]")


def words(text: str) -> list[str]:
    """Lower-case words of *text*, splitting camelCase and snake_case: ``waitForText_x`` → wait, for, text, x."""
    return _WORD.findall(_CAMEL.sub(r"\1 \2", text).lower())


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _terms(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in words(text) if w not in _STOP)


def _squash(text: str) -> str:
    return _NON_ALNUM.sub("", text.lower())


def _param_line(p: ParamSpec) -> str:
    bits = [p.type.value]
    bits.append("required" if p.required else f"default {json.dumps(p.default)}")
    if p.choices:
        bits.append("one of " + ", ".join(p.choices))
    if p.minimum is not None or p.maximum is not None:
        lo = "" if p.minimum is None else f"{p.minimum:g}"
        hi = "" if p.maximum is None else f"{p.maximum:g}"
        bits.append(f"range {lo}..{hi}")
    text = f"    {p.name}: " + ", ".join(bits)
    return text + (f" — {p.description}" if p.description else "")


def command_lines(spec: CommandSpec) -> list[str]:
    lines = [f"- {spec.name}({spec.controller_type.value}): {spec.description[:DESCRIPTION_CHARS]}"]
    lines.extend(_param_line(p) for p in spec.params)
    return lines


def _compact_param(p: ParamSpec) -> str:
    text = f"{p.name}:{p.type.value}" + ("" if p.required else "?")
    if p.choices:
        text += "=" + "|".join(p.choices)
    return text


def compact_command_line(spec: CommandSpec) -> str:
    """One line per command: ``- press_key(remote; key:str=UP|DOWN, times:int?) Press a key``."""
    params = ", ".join(_compact_param(p) for p in spec.params)
    return (f"- {spec.name}({spec.controller_type.value}{'; ' + params if params else ''}) "
            f"{spec.description[:COMPACT_DESCRIPTION_CHARS]}").rstrip()


def _node_line(node: NodeInfo) -> str:
    label = f" ({node.label})" if node.label and node.label != node.id else ""
    desc = f": {node.description[:DESCRIPTION_CHARS]}" if node.description else ""
    return f"- {node.id}{label}{desc}"


def _element_line(node: NodeInfo) -> str:
    parts = []
    for e in node.elements[:ELEMENTS_PER_NODE]:
        bit = e.name
        if e.text and e.text.lower() != e.name.lower():
            bit += f' "{e.text}"'
        if e.selector:
            bit += f" {e.selector}"
        if e.many:
            bit += " (list)"
        if e.opens:
            bit += f" -> {e.opens}"
        parts.append(bit)
    return f"- {node.id}: " + "; ".join(parts)


@dataclass(frozen=True)
class _CommandEntry:
    """What ranking and rendering need of one command, computed once per context."""

    spec: CommandSpec
    always: bool                      # navigation: always offered
    squashed: str
    first_word: str
    phrase: re.Pattern[str] | None    # its words as a phrase: "wait for text to appear"
    name_terms: frozenset[str]
    other_terms: frozenset[str]
    lines: tuple[str, ...]
    compact: str

    @classmethod
    def of(cls, spec: CommandSpec) -> "_CommandEntry":
        parts = words(spec.name)
        phrase = re.compile(r"\b" + r"[\s_]*".join(map(re.escape, parts)) + r"\b") if len(parts) > 1 else None
        other = _terms(spec.description) | {_stem(p.name) for p in spec.params}
        return cls(spec, spec.kind is CommandKind.NAVIGATION, _squash(spec.name), parts[0] if parts else "",
                   phrase, _terms(spec.name), frozenset(other), tuple(command_lines(spec)),
                   compact_command_line(spec))

    def named_in(self, task_low: str, task_squashed: str, task_words: frozenset[str]) -> bool:
        if len(self.squashed) >= 4 and self.squashed in task_squashed:
            return True
        return self.phrase is not None and self.first_word in task_words and \
            self.phrase.search(task_low) is not None


@dataclass(frozen=True)
class _NodeEntry:
    node: NodeInfo
    line: str
    terms: frozenset[str]
    element_terms: frozenset[str]
    element_line: str

    @classmethod
    def of(cls, node: NodeInfo) -> "_NodeEntry":
        return cls(node, _node_line(node), _terms(f"{node.id} {node.label} {' '.join(node.keywords)}"),
                   _terms(" ".join(f"{e.name} {e.text}" for e in node.elements)),
                   _element_line(node) if node.elements else "")


Postings = dict[str, tuple[tuple[int, float], ...]]


def _postings(weighted: Iterable[tuple[int, frozenset[str], float]]) -> Postings:
    """term → ((item, weight), ...): scoring a task then touches only the items sharing its terms."""
    out: dict[str, list[tuple[int, float]]] = {}
    for i, terms, weight in weighted:
        for term in terms:
            out.setdefault(term, []).append((i, weight))
    return {k: tuple(v) for k, v in out.items()}


def _scores(task_terms: frozenset[str], postings: Postings) -> dict[int, float]:
    scores: dict[int, float] = {}
    for term in task_terms:
        for i, weight in postings.get(term, ()):
            scores[i] = scores.get(i, 0.0) + weight
    return scores


@dataclass(frozen=True)
class _ContextIndex:
    commands: tuple[_CommandEntry, ...]
    nodes: tuple[_NodeEntry, ...]
    element_count: int
    command_postings: Postings
    node_postings: Postings    # over the nodes that have elements, by their position in with_elements
    with_elements: tuple[_NodeEntry, ...]
    element_position: dict[str, int]   # node id → its position in with_elements

    @classmethod
    def of(cls, ctx: PlanningContext) -> "_ContextIndex":
        nodes = tuple(_NodeEntry.of(n) for n in ctx.navigation.nodes)
        commands = tuple(_CommandEntry.of(c) for c in ctx.commands.values())
        with_elements = tuple(n for n in nodes if n.element_line)
        command_postings = _postings([*((i, e.name_terms, 3.0) for i, e in enumerate(commands)),
                                      *((i, e.other_terms, 1.0) for i, e in enumerate(commands))])
        node_postings = _postings([*((i, n.terms, 3.0) for i, n in enumerate(with_elements)),
                                   *((i, n.element_terms, 1.0) for i, n in enumerate(with_elements))])
        return cls(commands, nodes, sum(len(n.node.elements) for n in nodes), command_postings, node_postings,
                   with_elements, {n.node.id: i for i, n in enumerate(with_elements)})


class _IndexCache:
    """Indexes of recent contexts, keyed by the identity of their parts.

    AI Central hands out the same cached executor contexts until their TTL, so
    a context is indexed once, not once per task. The parts are held, so an id
    cannot be reused while its entry lives.
    """

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[int, int, int], tuple[tuple[Any, ...], _ContextIndex]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, ctx: PlanningContext) -> _ContextIndex:
        parts = (ctx.action, ctx.verification, ctx.navigation)
        key = (id(parts[0]), id(parts[1]), id(parts[2]))
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and all(a is b for a, b in zip(hit[0], parts)):
                self._entries.move_to_end(key)
                return hit[1]
        index = _ContextIndex.of(ctx)
        with self._lock:
            self._entries[key] = (parts, index)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return index


def _rank(task: str, entries: Sequence[_CommandEntry], limit: int,
          postings: Postings | None = None) -> list[_CommandEntry]:
    if len(entries) <= limit:
        return list(entries)
    task_low, task_squashed = task.lower(), _squash(task)
    task_words = frozenset(words(task))
    task_terms = frozenset(_stem(w) for w in task_words if w not in _STOP)
    keep = {i for i, e in enumerate(entries) if e.always or e.named_in(task_low, task_squashed, task_words)}
    if postings is None:
        postings = _postings([*((i, e.name_terms, 3.0) for i, e in enumerate(entries)),
                              *((i, e.other_terms, 1.0) for i, e in enumerate(entries))])
    scores = _scores(task_terms, postings)
    # among equals, checks first: a plan ends with one whatever the task, so a prompt never goes without them
    ranked = sorted((i for i in range(len(entries)) if i not in keep),
                    key=lambda i: (-scores.get(i, 0.0), entries[i].spec.kind is not CommandKind.VERIFICATION, i))
    keep.update(ranked[:max(0, limit - len(keep))])
    return [entries[i] for i in sorted(keep)]


def named_in_task(spec: CommandSpec, task: str) -> bool:
    """True when the task names the command itself (``press_key``, ``waitForTextToAppear``...)."""
    return _CommandEntry.of(spec).named_in(task.lower(), _squash(task), frozenset(words(task)))


def rank_commands(task: str, commands: Sequence[CommandSpec], limit: int = DEFAULT_COMMANDS) -> list[CommandSpec]:
    """The commands most relevant to *task*, at most *limit* (plus any the task names), in their original order.

    Navigation commands and commands the task names are always kept.
    """
    return [e.spec for e in _rank(task, [_CommandEntry.of(c) for c in commands], limit)]


def _element_nodes(task: str, index: _ContextIndex, current: str | None) -> list[_NodeEntry]:
    if index.element_count <= ALL_ELEMENTS_UP_TO:
        return list(index.with_elements)
    scores = _scores(_terms(task), index.node_postings)
    here = index.element_position.get(current or "")
    if here is not None:
        scores[here] = scores.get(here, 0.0) + 5
    best = sorted(scores, key=lambda i: (-scores[i], i))[:ELEMENT_NODES]
    return [index.with_elements[i] for i in sorted(best, key=lambda i: (-scores[i], i))]


def _step_text(step: PlanStep) -> str:
    params = ", ".join(f"{k}={json.dumps(v)}" for k, v in step.params.items())
    return f"{step.command}({params})"


def plan_schema(command_names: Iterable[str], max_steps: int = MAX_STEPS) -> dict[str, Any]:
    """The JSON schema of the response, with the command names as an enum."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["analysis", "feasible", "plan"],
        "properties": {
            "analysis": {"type": "string"},
            "feasible": {"type": "boolean"},
            "plan": {"type": "array", "maxItems": max_steps, "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["step", "command", "params", "description"],
                "properties": {
                    "step": {"type": "integer"},
                    "command": {"type": "string", "enum": sorted(set(command_names))},
                    "params": {"type": "object"},
                    "description": {"type": "string"},
                },
            }},
        },
    }


@dataclass
class Prompt:
    messages: list[dict[str, str]]
    commands: list[CommandSpec] = field(default_factory=list)   # the commands the prompt offers
    template: str = "detailed"

    @property
    def schema(self) -> dict[str, Any]:
        return plan_schema((c.name for c in self.commands))

    @property
    def chars(self) -> int:
        return sum(len(m["content"]) for m in self.messages)


@dataclass(frozen=True)
class PromptTemplate:
    """How the prompt is rendered: its system prompt and how much of each command and screen it shows."""

    name: str
    system: str
    compact: bool = False
    describe: str = ""


TEMPLATES: dict[str, PromptTemplate] = {t.name: t for t in (
    PromptTemplate("detailed", SYSTEM_PROMPT, False,
                   "every parameter on its own line with its type, default, choices, range and description"),
    PromptTemplate("compact", COMPACT_SYSTEM_PROMPT, True,
                   "one line per command and screen, short descriptions; for small models and tight budgets"),
)}
DEFAULT_TEMPLATE = "detailed"
TEMPLATE_ENV = "DEVICEPILOT_LLM_PROMPT_TEMPLATE"


def check_template(name: object) -> str:
    """*name* if it is a prompt template, else a :class:`RequestError` listing the templates."""
    if not isinstance(name, str) or name not in TEMPLATES:
        raise RequestError(f"'prompt_template' must be one of {', '.join(TEMPLATES)}; got {name!r}")
    return name


def server_template(env: "dict[str, str] | os._Environ[str] | None" = None) -> str:
    """The server's template: ``DEVICEPILOT_LLM_PROMPT_TEMPLATE``, or ``detailed``."""
    name = ((os.environ if env is None else env).get(TEMPLATE_ENV) or "").strip() or DEFAULT_TEMPLATE
    if name not in TEMPLATES:
        raise ConfigError(f"{TEMPLATE_ENV}={name!r} is no prompt template; use one of {', '.join(TEMPLATES)}")
    return name


class PromptBuilder:
    """Builds the planning prompt for a task and a device context."""

    def __init__(self, max_commands: int = DEFAULT_COMMANDS, max_steps: int = MAX_STEPS,
                 template: str | None = None) -> None:
        self.max_commands = max_commands
        self.max_steps = max_steps
        self.template = server_template() if template is None else template
        if self.template not in TEMPLATES:
            raise ConfigError(f"no prompt template {self.template!r}; use one of {', '.join(TEMPLATES)}")
        self.system = SYSTEM_PROMPT.format(max_steps=max_steps)
        self._indexes = _IndexCache()

    def build(self, task: str, ctx: PlanningContext, progress: "ReplanInfo | None" = None,
              template: str | None = None) -> Prompt:
        """The prompt for *task*, rendered with *template* (the builder's own when None)."""
        chosen_template = TEMPLATES[check_template(template or self.template)]
        if chosen_template.compact:
            return self._build_compact(task, ctx, progress, chosen_template)
        index = self._indexes.get(ctx)
        chosen = _rank(task, index.commands, self.max_commands, index.command_postings)
        current = (progress.node if progress is not None else None) or ctx.current_node
        lines = [f"Task: {task.strip()}", "",
                 f"Device: {ctx.device_model} running {ctx.userinterface}",
                 f"Current screen: {current or 'unknown'}"]
        shown = screen_lines(task, ctx.screen, SCREEN_ELEMENTS) if progress is None else []
        if shown:
            where = " ".join(x for x in (ctx.screen.title, ctx.screen.url) if x)
            lines += ["", f"On the screen now{' (' + where + ')' if where else ''}:"] + shown
        if index.nodes:
            lines += ["", "Screens (navigation nodes; use the id with goto):"]
            lines += [n.line for n in index.nodes]
            el_nodes = _element_nodes(task, index, current)
            if el_nodes:
                lines += ["", "Elements on screens (name \"text\" selector):"]
                lines += [n.element_line for n in el_nodes]
        actions = sorted((e for e in chosen if e.spec.kind is not CommandKind.VERIFICATION),
                         key=lambda e: not e.always)
        checks = [e for e in chosen if e.spec.kind is CommandKind.VERIFICATION]
        if actions:
            lines.append("")
            lines.append("Commands:")
            for entry in actions:
                lines.extend(entry.lines)
        if checks:
            lines.append("")
            lines.append("Verifications:")
            for entry in checks:
                lines.extend(entry.lines)
        if len(chosen) < len(index.commands):
            lines.append(f"({len(index.commands) - len(chosen)} other commands not relevant to this task "
                         "are not shown.)")
        if progress is not None:
            lines += ["", "Progress so far:"]
            lines += [f"- done: {_step_text(s)}" for s in progress.done] or ["- nothing done yet"]
            if progress.failed is not None:
                lines.append(f"- FAILED: {_step_text(progress.failed)}: {progress.failure[:300]}")
            lines.append("Plan only the remaining steps, starting from the current screen.")
        return Prompt([{"role": "system", "content": self.system},
                       {"role": "user", "content": "\n".join(lines)}], [e.spec for e in chosen],
                      chosen_template.name)

    def _build_compact(self, task: str, ctx: PlanningContext, progress: "ReplanInfo | None",
                       template: PromptTemplate) -> Prompt:
        index = self._indexes.get(ctx)
        chosen = _rank(task, index.commands, self.max_commands, index.command_postings)
        current = (progress.node if progress is not None else None) or ctx.current_node
        lines = [f"Task: {task.strip()}", f"Now on: {current or 'unknown'}"]
        shown = screen_lines(task, ctx.screen, COMPACT_SCREEN_ELEMENTS) if progress is None else []
        if shown:
            lines += ["Screen:"] + shown
        if index.nodes:
            lines.append("Screens: " + ", ".join(n.node.id for n in index.nodes))
            el_nodes = _element_nodes(task, index, current)
            if el_nodes:
                lines.append("Elements:")
                lines += [n.element_line for n in el_nodes]
        lines.append("Commands:")
        lines += [e.compact for e in sorted(chosen, key=lambda e: (e.spec.kind is CommandKind.VERIFICATION,
                                                                  not e.always))]
        if progress is not None:
            done = "; ".join(_step_text(s) for s in progress.done) or "nothing"
            lines.append(f"Done: {done}")
            if progress.failed is not None:
                lines.append(f"FAILED: {_step_text(progress.failed)}: {progress.failure[:200]}")
            lines.append("Plan only the remaining steps.")
        return Prompt([{"role": "system", "content": template.system.format(max_steps=self.max_steps)},
                       {"role": "user", "content": "\n".join(lines)}], [e.spec for e in chosen], template.name)


def build_messages(task: str, ctx: PlanningContext, max_commands: int = DEFAULT_COMMANDS,
                   template: str = DEFAULT_TEMPLATE) -> list[dict[str, str]]:
    """The chat messages for planning *task* on a device with context *ctx*."""
    return PromptBuilder(max_commands, template=template).build(task, ctx).messages

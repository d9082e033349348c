"""The built-in translator: the common phrasings turned into tool calls with no LLM, and plain words for the rest.

One :class:`Intent` per phrasing, tried in order; the first whose pattern
matches builds the calls (resolving "that run", "both", "the phone" from the
conversation's memory). A message no intent understands gets an answer that
says so and lists what can be asked.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from server.assistant.references import Memory, Unresolved, kind_named, resolve_device, resolve_runs
from server.assistant.tools import ToolCall, ToolEnv
from shared.errors import DevicePilotError
from shared.models import RunStatus

log = logging.getLogger(__name__)

EXAMPLES = ("which devices are free?", "run <task> on <device>", "plan <task> on <device>",
            "what happened in that run?", "show me the screenshot of the last failed step",
            "cancel both runs on the phone", "list the failed runs", "save that run as a test case named smoke")


@dataclass
class Translation:
    calls: list[ToolCall] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # what was not understood or could not be resolved


@dataclass
class Scene:
    """What the translator may look at: the lab's devices, the conversation's memory, the user's runs."""

    env: ToolEnv
    memory: Memory
    devices: list[dict[str, Any]]

    def device(self, phrase: str) -> str:
        return resolve_device(phrase, self.devices, self.memory)

    def active_runs(self, device: str) -> list[str]:
        runs = self.env.srv.runs.list(device=device, limit=200)
        return [r["id"] for r in runs if not RunStatus(r["status"]).finished]


Builder = Callable[[re.Match[str], str, Scene], list[ToolCall]]


@dataclass(frozen=True)
class Intent:
    name: str
    pattern: re.Pattern[str]
    build: Builder


def _c(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall(tool, {k: v for k, v in arguments.items() if v not in (None, "")})


def _on_device(text: str, scene: Scene) -> str:
    m = re.search(r"\b(?:on|of|for)\s+(?P<dev>(?:the\s+|my\s+)?[\w.-]+(?:\s+tv)?)\s*[.?!]*$", text)
    return scene.device(m.group("dev")) if m else ""


def _devices(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    status = "free" if re.search(r"\b(free|available|idle|unused)\b", text) else (
        "busy" if re.search(r"\b(busy|running|in use)\b", text) else (
            "offline" if "offline" in text else ("online" if "online" in text else None)))
    return [_c("list_devices", status=status, kind=kind_named(text) or None)]


def _run(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    tool = "plan_task" if m.group("verb").lower() == "plan" else "run_task"
    task = re.sub(r"^(the\s+task\s+|task\s+)", "", m.group("task").strip(" '\""))
    return [_c(tool, device=scene.device(m.group("dev")), task=task)]


def _failed_step(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    run_ids: list[str] = []
    if re.search(r"\b(that|this|the same|its|it)\s*(run|one)?\b", text) and not re.search(
            r"\blast failed\b", text):
        run_ids = resolve_runs(text, scene.memory)
    elif re.search(r"\b[0-9a-f]{12}\b", text):
        run_ids = resolve_runs(text, scene.memory)
    else:   # the run we are talking about, when it failed; else the latest failed run
        recent = scene.memory.recent("runs")
        if len(recent) == 1 and scene.env.srv.runs.get(recent[0], with_steps=False)["status"] == "failed":
            run_ids = recent
    return [_c("get_failed_step", run_id=run_ids[0] if run_ids else None)]


def _cancel(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    rest = m.group("rest")
    dev = re.search(r"\bon\s+(?P<dev>(?:the\s+|my\s+)?[\w.-]+(?:\s+tv)?)\s*[.?!]*$", rest)
    if dev and not re.search(r"\b[0-9a-f]{12}\b", rest):
        device = scene.device(dev.group("dev"))
        active = scene.active_runs(device)
        if re.search(r"\bboth\b", rest) and len(active) != 2:
            raise Unresolved(f"'both' needs two active runs on {device}, but it has {len(active)}"
                             + (f": {', '.join(active)}" if active else ""))
        if not active:
            raise Unresolved(f"{device} has no queued or running run to cancel")
        if len(active) > 1 and not re.search(r"\b(both|all|every|them)\b", rest):
            raise Unresolved(f"{device} has {len(active)} active runs ({', '.join(active)}); say 'both' or 'all', "
                             "or which one")
        return [_c("cancel_run", run_id=r) for r in active]
    runs = resolve_runs(rest, scene.memory)
    if not runs:
        raise Unresolved("which run? give its id, or say 'that run' after I have shown one")
    return [_c("cancel_run", run_id=r) for r in runs]


def _get_run(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    runs = resolve_runs(text, scene.memory)
    if not runs:
        latest = scene.env.srv.runs.list(limit=1)
        if not latest:
            raise Unresolved("there are no runs yet")
        runs = [latest[0]["id"]]
    return [_c("get_run", run_id=r) for r in runs]


def _list_runs(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    status = next((s.value for s in RunStatus if re.search(rf"\b{s.value}\b", text)), None)
    if re.search(r"\b(active|running|current|ongoing|queued)\b", text) and status in (None, "running", "queued"):
        status = "active"
    count = re.search(r"\b(?:last|latest|recent)\s+(\d{1,2})\b", text)
    return [_c("list_runs", device=_on_device(text, scene) or None, status=status,
               limit=int(count.group(1)) if count else None)]


def _ordinal(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    if scene.memory.last_kind() == "devices":
        return [_c("get_device", device=scene.device(m.group("which")))]
    runs = resolve_runs(m.group("which"), scene.memory)
    if not runs:
        raise Unresolved(f"I have shown you no runs or devices yet to pick '{m.group('which')}' from; "
                         "ask for them first")
    return [_c("get_run", run_id=r) for r in runs]


def _device(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    return [_c("get_device", device=scene.device(m.group("dev")))]


def _free(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    return [_c("get_device", device=scene.device(m.group("dev")))]


def _help(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    raise Unresolved(("You're welcome. " if re.search(r"thank", text, re.I) else "")
                     + "I can answer things like: " + "; ".join(EXAMPLES))


def _save(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    name = re.search(r"\b(?:named|called|as)\s+['\"]?(?P<name>[A-Za-z0-9][\w.-]*)['\"]?\s*[.!]*$", text)
    runs = resolve_runs(m.group("what"), scene.memory)
    if len(runs) != 1:
        raise Unresolved("which run should I save? give its id, or say 'that run' after I have shown one")
    chosen = name.group("name") if name and name.group("name").lower() not in ("a", "test", "testcase") else None
    return [_c("save_testcase", run_id=runs[0], name=chosen)]


def _active_runs(m: re.Match[str], text: str, scene: Scene) -> list[ToolCall]:
    return [_c("list_runs", device=_on_device(text, scene) or None, status="active")]


def intent(name: str, pattern: str, build: Builder) -> Intent:
    return Intent(name, re.compile(pattern, re.IGNORECASE), build)


DEV = r"(?P<dev>(?:the\s+|my\s+)?[\w.-]+(?:\s+tv)?)"
INTENTS: tuple[Intent, ...] = (
    intent("failed_step", r"\bscreenshots?\b|\bfailed step\b|\bwhat failed\b|\bwhy did\b.*\bfail", _failed_step),
    intent("cancel", r"^\s*(?:please\s+)?(?:cancel|stop|abort)\b(?P<rest>.*)$", _cancel),
    intent("save", r"^\s*(?:please\s+)?save\s+(?P<what>.+?)\s+as\s+(?:a\s+)?test", _save),
    intent("run", r"^\s*(?:please\s+|can you\s+|could you\s+)?(?P<verb>run|plan|test|try)\s+"
                  r"(?P<task>.+)\s+on\s+(?P<dev>(?:the\s+|my\s+)?[\w. -]+?)\s*[.?!]*$", _run),
    intent("device_free", rf"^\s*is\s+{DEV}\s+(?:free|available|busy|idle|online|offline)\b", _free),
    intent("active_runs", r"\b(what'?s|what is|anything|is anything|which runs are)\s+(running|queued)\b",
           _active_runs),
    intent("devices", r"\bdevices?\b.*\b(free|available|idle|busy|online|offline|are there|do we)\b|"
                      r"\b(which|what|list|show|any)\b.*\b(devices|phones|tvs)\b", _devices),
    intent("get_run", r"\bwhat happened\b|\bhow did\b|\bstatus of\b|\bdetails? of\b|"
                      r"\b(show|open|tell me about)\b.*\brun\b(?!s)|\b[0-9a-f]{12}\b", _get_run),
    intent("list_runs", r"\bruns\b|\bhistory\b", _list_runs),
    intent("ordinal", r"^\s*(?:and\s+)?(?:show|open|what about|tell me about)?\s*(?:me\s+)?"
                      r"(?P<which>(?:the\s+)?(?:first|second|third|last|1st|2nd|3rd)(?:\s+one)?)\s*[.?!]*$", _ordinal),
    intent("help", r"^\s*(help|\?|thanks?( you)?|thank you|hi|hello|hey)\b", _help),
    intent("device", r"^\s*(?:show|tell me about|what is on|what's on|how is)\s+(?P<dev>.+?)\s*[.?!]*$", _device),
)


def translate(text: str, scene: Scene) -> Translation:
    """Tool calls for *text*, or the reason nothing could be made of it."""
    for intent in INTENTS:
        m = intent.pattern.search(text)
        if not m:
            continue
        try:
            calls = intent.build(m, text, scene)
        except DevicePilotError as exc:     # Unresolved, or a run or device that is not there
            return Translation(problems=[str(exc)])
        log.info("built-in translator: %s → %s", intent.name, [c.tool for c in calls])
        return Translation(calls)
    return Translation(problems=[f"I did not understand {text[:120]!r}. I can answer things like: "
                                 + "; ".join(EXAMPLES)])

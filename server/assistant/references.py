"""Multi-turn references: "that run", "the first one", "both", "the phone", resolved from the conversation.

Every assistant turn stores its :class:`Focus`: the runs and devices its tool
results were about, in the order shown. A later phrase is resolved against the
most recent focus that has what it needs; a device is also found by id, name,
model or kind ("the phone", "the Android TV", "the web app").
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from shared.errors import RequestError

ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "fifth": 4,
            "last": -1, "latest": -1}

# words that name a kind of device, and what a device's id, name, model or controllers say when it is one
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "phone": (("phone", "mobile", "handset", "smartphone"), ("phone", "mobile", "pixel", "galaxy", "appium")),
    "tv": (("tv", "television", "android tv", "set-top box", "stb", "box"), ("tv", "stb", "ir", "hdmi", "leanback")),
    "web": (("web", "browser", "web app", "website", "demo"), ("web", "playwright", "browser", "demo")),
}


class Unresolved(RequestError):
    """A reference that matches nothing, or more than one thing."""


@dataclass
class Focus:
    """What one turn was about: runs and devices in the order its results listed them."""

    runs: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    last: str = ""          # "runs" or "devices": the kind of list shown last ("the first one")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "Focus":
        d = data if isinstance(data, dict) else {}
        return cls([str(r) for r in d.get("runs") or []], [str(x) for x in d.get("devices") or []],
                   str(d.get("last") or ""))

    @classmethod
    def of(cls, results: Iterable[Any]) -> "Focus":
        focus = cls()
        for r in results:
            if not getattr(r, "ok", False):
                continue
            for run in r.runs:
                if run not in focus.runs:
                    focus.runs.append(run)
            for dev in r.devices:
                if dev not in focus.devices:
                    focus.devices.append(dev)
            focus.last = "runs" if r.runs else ("devices" if r.devices else focus.last)
        return focus


@dataclass
class Memory:
    """The focus of past turns, newest first."""

    turns: list[Focus] = field(default_factory=list)

    def recent(self, what: str) -> list[str]:
        for f in self.turns:
            items = getattr(f, what)
            if items:
                return list(items)
        return []

    def listing(self, what: str) -> list[str]:
        """The newest list of several runs (or devices) shown: what "the second one" and "both" pick from."""
        for f in self.turns:
            items = getattr(f, what)
            if len(items) > 1:
                return list(items)
        return self.recent(what)

    def last_kind(self) -> str:
        for f in self.turns:
            if f.last:
                return f.last
        return ""


def device_kind(device: dict[str, Any]) -> str:
    """The kind a device looks like ("phone", "tv", "web"), or "" when nothing says."""
    text = " ".join(str(device.get(k) or "") for k in ("id", "name", "model", "controllers")).lower()
    words = set(re.findall(r"[a-z0-9]+", text))
    for kind, (_, markers) in KINDS.items():
        if words & set(markers) or any(m in text for m in markers if len(m) > 3):
            return kind
    return ""


def kind_named(phrase: str) -> str:
    """The kind a phrase names ("the phone" → phone), or ""."""
    text = phrase.lower()
    for kind, (names, _) in KINDS.items():
        if any(re.search(rf"\b{re.escape(n)}s?\b", text) for n in names):
            return kind
    return ""


def resolve_device(phrase: str, devices: list[dict[str, Any]], memory: Memory) -> str:
    """A device id from an id, a name, "it"/"that device", "the first one", or a kind ("the phone")."""
    text = phrase.strip().strip("'\"").lower()
    text = re.sub(r"^(the|my|our|a|an)\s+", "", text)
    for d in devices:
        if text in (d["id"].lower(), str(d.get("name") or "").lower()):
            return d["id"]
    if text in ("it", "that device", "this device", "that one", "the device", "device") or ORDINALS.get(
            text.split(" ")[0]) is not None:
        recent = memory.listing("devices") if text.split(" ")[0] in ORDINALS else memory.recent("devices")
        pick = _pick(text, recent, "device")
        if pick:
            return pick
    kind = kind_named(text)
    if kind:
        matches = [d["id"] for d in devices if device_kind(d) == kind]
        if len(matches) == 1:
            return matches[0]
        recent = [d for d in memory.recent("devices") if d in matches]
        if len(recent) == 1:
            return recent[0]
        if len(matches) > 1:
            raise Unresolved(f"'{phrase}' could be {', '.join(matches)}; say which")
    partial = [d["id"] for d in devices if text and (text in d["id"].lower() or text in str(d.get("name")).lower())]
    if len(partial) == 1:
        return partial[0]
    known = ", ".join(d["id"] for d in devices) or "none"
    raise Unresolved(f"I know no device called '{phrase}'; the devices are {known}")


def _pick(text: str, items: list[str], what: str) -> str:
    word = text.split(" ")[0]
    if word in ORDINALS:
        i = ORDINALS[word]
        if not items or (i >= 0 and i >= len(items)):
            raise Unresolved(f"there is no {word} {what} in what I showed you")
        return items[i]
    if len(items) == 1:
        return items[0]
    if items:
        raise Unresolved(f"'{text}' could be any of {', '.join(items)}; say which (e.g. 'the first one')")
    return ""


RUN_ID = re.compile(r"\b[0-9a-f]{12}\b")


def resolve_runs(phrase: str, memory: Memory) -> list[str]:
    """Run ids from ids in the text, "that run"/"it", "the first one", "both" or "all of them"."""
    ids = RUN_ID.findall(phrase.lower())
    if ids:
        return ids
    text = phrase.lower()
    recent = memory.recent("runs")
    listed = memory.listing("runs")
    if re.search(r"\bboth\b", text):
        recent = listed
        if len(recent) != 2:
            raise Unresolved(f"'both' needs two runs, but the last runs I showed were {len(recent)}: "
                             f"{', '.join(recent) or 'none'}")
        return recent
    if re.search(r"\b(all|every|them|those)\b", text):
        recent = listed
        if not recent:
            raise Unresolved("I have shown no runs yet; ask for the runs first")
        return recent
    m = re.search(r"\b(first|1st|second|2nd|third|3rd|fourth|fifth|last|latest)\b", text)
    if m and listed and memory.last_kind() != "devices":
        return [_pick(m.group(1), listed, "run")]
    if re.search(r"\b(that|this|the|it|its)\b", text) and recent:
        return [_pick("that run", recent, "run")]
    return []


def resolve_arguments(arguments: dict[str, Any], devices: list[dict[str, Any]],
                      memory: Memory) -> list[dict[str, Any]]:
    """A model's arguments with references replaced: ``run_id: "that run"`` → the id; ``"both"`` → two calls.

    A value that resolves to nothing is left as it was: the tool then says plainly that it does not exist.
    """
    out = dict(arguments)
    device = out.get("device")
    if isinstance(device, str) and device not in {d["id"] for d in devices}:
        try:
            out["device"] = resolve_device(device, devices, memory)
        except Unresolved:
            pass
    run = out.get("run_id")
    if isinstance(run, str) and not RUN_ID.fullmatch(run):
        try:
            runs = resolve_runs(run, memory)
        except Unresolved:
            runs = []
        if runs:
            return [{**out, "run_id": r} for r in runs]
    return [out]

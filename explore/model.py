"""What exploration found: screens, edges really taken, actions skipped; saved in the draft for resuming."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from backend_core.navigation.tree import ActionSpec
from explore.identity import Signature, signature
from explore.safety import Skipped
from shared.screen import ScreenObservation


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40]


@dataclass
class Screen:
    id: str
    label: str
    observation: ScreenObservation
    path: tuple[ActionSpec, ...]           # from the start screen
    depth: int
    expanded: bool = False
    screenshot: str = ""
    param: str = ""                        # parameterised: the name of its parameter
    items: tuple[str, ...] = ()
    item_selector: str = ""                # where the item's name shows on the screen
    # a setting that cycles through values when activated ("Audio language: English"): its values, by selector
    values: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def sig(self) -> Signature:
        return signature(self.observation)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "label": self.label, "depth": self.depth, "expanded": self.expanded,
                             "path": [a.to_dict() for a in self.path], "observation": self.observation.to_dict()}
        if self.screenshot:
            d["screenshot"] = self.screenshot
        if self.param:
            d.update(param=self.param, items=list(self.items), item_selector=self.item_selector)
        if self.values:
            d["values"] = {k: list(v) for k, v in self.values.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Screen":
        return cls(str(d["id"]), str(d.get("label") or d["id"]), ScreenObservation.from_dict(d["observation"]),
                   tuple(ActionSpec.parse(a, f"screen {d['id']}") for a in d.get("path") or ()),
                   int(d.get("depth") or 0), bool(d.get("expanded")), str(d.get("screenshot") or ""),
                   str(d.get("param") or ""), tuple(str(i) for i in d.get("items") or ()),
                   str(d.get("item_selector") or ""),
                   {str(k): tuple(str(x) for x in v) for k, v in (d.get("values") or {}).items()})


@dataclass
class TakenEdge:
    source: str
    target: str
    actions: tuple[ActionSpec, ...]
    target_name: str                       # the control activated
    taken_at: str
    reverse: tuple[ActionSpec, ...] = ()
    reverse_taken_at: str = ""
    param: str = ""                        # a parameterised edge: actions hold "{param}"
    items: tuple[str, ...] = ()            # the list's items as the source screen labels them
    shown: dict[str, str] = field(default_factory=dict)   # an item visited -> its name as its screen shows it

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"from": self.source, "to": self.target, "actions": [a.to_dict() for a in self.actions]}
        if self.reverse:
            d["reverse_actions"] = [a.to_dict() for a in self.reverse]
        if self.param:
            d["param"] = self.param
            d["items"] = list(self.items)
        d["taken_at"] = self.taken_at
        if self.reverse_taken_at:
            d["reverse_taken_at"] = self.reverse_taken_at
        d["control"] = self.target_name
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TakenEdge":
        where = f"edge {d.get('from')}->{d.get('to')}"
        return cls(str(d["from"]), str(d["to"]), tuple(ActionSpec.parse(a, where) for a in d.get("actions") or ()),
                   str(d.get("control") or ""), str(d.get("taken_at") or ""),
                   tuple(ActionSpec.parse(a, where) for a in d.get("reverse_actions") or ()),
                   str(d.get("reverse_taken_at") or ""), str(d.get("param") or ""),
                   tuple(str(i) for i in d.get("items") or ()))


@dataclass
class Exploration:
    """The state of one exploration: enough to write a tree, and to resume."""

    device: str
    strategy: str
    start_url: str = ""
    screens: dict[str, Screen] = field(default_factory=dict)
    edges: list[TakenEdge] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    actions_tried: int = 0
    stopped_because: str = ""
    #: a link's address -> the screen it led to: a link every page carries (the site's menu, a breadcrumb)
    #: is followed from one screen, not from each
    links: dict[str, str] = field(default_factory=dict)

    def by_signature(self, obs: ScreenObservation) -> Screen | None:
        sig = signature(obs)
        return next((s for s in self.screens.values() if s.sig == sig), None)

    def new_id(self, base: str) -> str:
        base = slug(base) or "screen"
        nid, n = base, 2
        while nid in self.screens:
            nid, n = f"{base}_{n}", n + 1
        return nid

    def edge(self, source: str, target: str) -> TakenEdge | None:
        return next((e for e in self.edges if e.source == source and e.target == target), None)

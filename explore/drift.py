"""Re-exploration against an existing tree: what changed (new, vanished, changed verifications)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from backend_core.navigation.tree import NavigationTree


@dataclass
class Drift:
    new: list[str] = field(default_factory=list)
    vanished: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.new or self.vanished or self.changed)

    def lines(self) -> list[str]:
        return ([f"new screen: {n}" for n in self.new] + [f"vanished screen: {n}" for n in self.vanished]
                + [f"changed verification: {n}" for n in self.changed])

    def to_dict(self) -> dict[str, Any]:
        return {"new": self.new, "vanished": self.vanished, "changed": self.changed}


def compare(old: NavigationTree, new: NavigationTree) -> Drift:
    """Screens matched by id, else by label; verifications compared as (command, params)."""
    by_label = {n.label.lower(): n.id for n in old.nodes.values()}
    matched: dict[str, str] = {}
    for nid, node in new.nodes.items():
        if nid in old.nodes:
            matched[nid] = nid
        elif node.label.lower() in by_label:
            matched[nid] = by_label[node.label.lower()]
    drift = Drift(new=[n for n in new.nodes if n not in matched],
                  vanished=[o for o in old.nodes if o not in matched.values()])
    for nid, oid in matched.items():
        a = [(v.command, sorted(v.params.items())) for v in old.nodes[oid].verifications]
        b = [(v.command, sorted(v.params.items())) for v in new.nodes[nid].verifications]
        if a != b:
            drift.changed.append(nid if nid == oid else f"{oid} (now {nid})")
    return drift

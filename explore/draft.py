"""The draft tree: what exploration found, as a navigation tree ``NavigationTree`` loads.

The tree part (nodes, edges) is the ordinary format, with parameterised nodes
and edges. The ``draft:`` section says how it was made and what is uncertain
(nodes no check tells apart, edges with no way back, actions not taken), and
keeps each screen's observation so exploration can resume from it.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from backend_core.navigation.tree import ActionSpec, NavigationTree
from explore import verify
from explore.identity import list_group, pattern
from explore.model import Exploration, Screen, TakenEdge, slug
from explore.safety import Skipped
from shared.commands import CommandSpec
from shared.errors import ConfigError
from shared.screen import FIELD_ROLES, ROLE_HEADING, ROLE_TEXT
from urllib.parse import urlsplit

MAX_ELEMENTS = 40


def _subst(actions: tuple[ActionSpec, ...], param: str) -> list[dict[str, Any]]:
    return [{"command": a.command, "params": {k: (v.replace("{param}", "{%s}" % param) if isinstance(v, str) else v)
                                              for k, v in a.params.items()}} for a in actions]


def _elements(screen: Screen, edges: list[TakenEdge]) -> list[dict[str, Any]]:
    opens = {e.target_name: e.target for e in edges if e.source == screen.id}
    list_opens = {e.target: e for e in edges if e.source == screen.id and e.items}
    out: list[dict[str, Any]] = []
    groups: dict[str, list[Any]] = {}
    for el in screen.observation.elements:
        if el.hidden or not (el.label or el.hint):
            continue
        if el.role == ROLE_TEXT and not el.hint:
            continue
        item: dict[str, Any] = {"name": (el.label if el.role != ROLE_TEXT else el.hint).lower()[:60],
                                "text": el.label if not screen.param or el.role != ROLE_HEADING else ""}
        if el.selector:
            item["selector"] = el.selector
        if el.role == ROLE_TEXT and el.hint:
            item["name"] = el.hint.lower()
            item.pop("text")
        target = opens.get(el.label)
        group = list_group(el)
        if group:
            groups.setdefault(group, []).append(el)
            target = target or next((t for t, e in list_opens.items() if el.label in e.items), "")
        if target:
            item["opens"] = target
        out.append(item)
    for group, members in groups.items():
        if len(members) < 2:
            continue
        target = next((t for t, e in list_opens.items() if members[0].label in e.items), "")
        words = " ".join(members[0].hint.split()[:2]) or members[0].role
        entry: dict[str, Any] = {"name": words.lower(), "selector": pattern(members[0].selector), "many": True}
        if target:
            entry["opens"] = target
        out.append(entry)
    return out[:MAX_ELEMENTS]


def _keywords(screen: Screen) -> list[str]:
    words = [screen.label.split(" for ")[0].lower()]
    route = urlsplit(screen.observation.url).fragment.strip("/").split("/")[0]
    if route:
        words.append(route.replace("-", " ").lower())
    return list(dict.fromkeys(w for w in words if w))


def _relative(url: str) -> str:
    p = urlsplit(url)
    return (p.path or "/") + (f"#{p.fragment}" if p.fragment else "")


def build(ex: Exploration, commands: dict[str, CommandSpec], userinterface: str) -> dict[str, Any]:
    """The draft tree (a mapping NavigationTree.from_dict loads) for an exploration."""
    choices = verify.choose(ex.screens, commands)
    nodes = []
    for s in ex.screens.values():
        c = choices[s.id]
        node: dict[str, Any] = {"id": s.id, "label": s.label, "description": f"explored screen ({s.observation.title})",
                                "keywords": _keywords(s),
                                "verifications": ([c.verification.to_dict()] + [a.to_dict() for a in c.also]
                                                  if c.verification else []),
                                "elements": _elements(s, ex.edges)}
        if s.param:
            node["param"] = s.param
            node["items"] = list(s.items)
            check = verify.item_check(s, commands)
            if check is not None:
                node["param_verifications"] = [check.to_dict()]
        nodes.append(node)
    edges = []
    for e in ex.edges:
        d = e.to_dict()
        if e.param:
            d["actions"] = _subst(e.actions, e.param)
        edges.append(d)
    first = next(iter(ex.screens))
    indistinct = [{"node": sid, "looks_like": c.looks_like} for sid, c in choices.items() if c.verification is None]
    pairs = {(e.source, e.target) for e in ex.edges}
    unreversed = [f"{e.source}->{e.target}" for e in ex.edges if not e.reverse and (e.target, e.source) not in pairs]
    return {
        "userinterface": userinterface,
        "version": 1,
        "entry": first,
        "entry_url": _relative(ex.start_url) if ex.start_url else "",
        "nodes": nodes,
        "edges": edges,
        "draft": {
            "device": ex.device, "strategy": ex.strategy, "start_url": ex.start_url,
            "screens_found": len(ex.screens), "actions_tried": ex.actions_tried,
            "stopped_because": ex.stopped_because,
            "indistinguishable": indistinct,
            "unreversed_edges": unreversed,
            "skipped": [s.to_dict() for s in ex.skipped],
            "screens": [s.to_dict() for s in ex.screens.values()],
        },
    }


def write(tree: dict[str, Any], path: Path) -> None:
    NavigationTree.from_dict(tree, where=str(path))   # the draft must load like any tree
    path.write_text("# Draft navigation tree written by `devicepilot explore`; review before use.\n"
                    + yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=120))


def load(path: Path) -> Exploration:
    """An earlier draft's exploration, to resume it."""
    try:
        raw = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read draft {path}: {exc}") from exc
    draft = (raw or {}).get("draft") if isinstance(raw, dict) else None
    if not isinstance(draft, dict) or not draft.get("screens"):
        raise ConfigError(f"{path} is not a draft written by `devicepilot explore` (no draft.screens section)")
    ex = Exploration(str(draft.get("device") or ""), str(draft.get("strategy") or ""), str(draft.get("start_url") or ""))
    for s in draft["screens"]:
        screen = Screen.from_dict(s)
        ex.screens[screen.id] = screen
    for e in raw.get("edges") or []:
        edge = TakenEdge.from_dict(e)
        if edge.param:
            edge.actions = tuple(ActionSpec(a.command, {k: (v.replace("{%s}" % edge.param, "{param}")
                                                            if isinstance(v, str) else v) for k, v in a.params.items()})
                                 for a in edge.actions)
        ex.edges.append(edge)
    ex.skipped = [Skipped(**s) for s in draft.get("skipped") or []]
    ex.actions_tried = int(draft.get("actions_tried") or 0)
    return ex

"""The draft tree: what exploration found, as a navigation tree ``NavigationTree`` loads.

The tree part (nodes, edges) is the ordinary format, with parameterised nodes
and edges. The ``draft:`` section says how it was made and what is uncertain
(nodes no check tells apart, edges with no way back, actions not taken), and
keeps each screen's observation so exploration can resume from it.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from backend_core.navigation.tree import ActionSpec, NavigationTree
from explore import verify
from explore.identity import list_group, pattern
from explore.model import Exploration, Screen, TakenEdge
from explore.safety import Skipped
from shared.commands import CommandSpec
from shared.errors import ConfigError
from shared.screen import FIELD_ROLES, ROLE_HEADING, ROLE_TEXT, UIElement

MAX_ELEMENTS = 40


def _subst(actions: tuple[ActionSpec, ...], param: str) -> list[dict[str, Any]]:
    return [{"command": a.command, "params": {k: (v.replace("{param}", "{%s}" % param) if isinstance(v, str) else v)
                                              for k, v in a.params.items()}} for a in actions]


STATE_WORDS = {"focusable", "focused", "active", "selected", "item", "control", "button", "btn", "wide"}
GENERIC_HINTS = {"screen", "title", "key", "hint", "line", "pill", "text", "label"}
MAX_LIST_ITEMS = 12


def _hint_name(hint: str) -> str:
    return " ".join(w for w in hint.lower().split() if w not in STATE_WORDS and not w.isdigit())


def _name(el: UIElement) -> tuple[str, str]:
    """A stable name and text for an element: "Subtitles: Off" is the control "subtitles"; a banner
    showing the programme on now is named by what it is ("channel banner"), not by what it shows."""
    if el.role == ROLE_HEADING:
        return "title", el.label
    if el.role in FIELD_ROLES:
        return f"{(el.label or _hint_name(el.hint)).lower()} field", ""
    actionable = el.clickable or el.role in ("button", "link", "tab", "menuitem")
    if not actionable:
        return _hint_name(el.hint) or el.label.lower()[:60], ""
    label = el.label.split(":")[0].strip() if ":" in el.label else el.label
    return label.lower()[:60], label


def _elements(screen: Screen, edges: list[TakenEdge]) -> list[dict[str, Any]]:
    opens = {e.target_name: e.target for e in edges if e.source == screen.id}
    list_opens = {e.target: e for e in edges if e.source == screen.id and e.items}
    groups: dict[str, list[UIElement]] = {}
    for el in screen.observation.elements:
        group = list_group(el)
        if group and not el.hidden:
            groups.setdefault(group, []).append(el)
    out: list[dict[str, Any]] = []
    for el in screen.observation.elements:
        if el.role == "list" and el.selector and el.hint and not el.hidden:
            # a list that fills in later (search results): its items, whatever they will be
            out.append({"name": _hint_name(el.hint), "selector": f"{el.selector} > *", "many": True})
            continue
        if el.hidden or not (el.label or el.hint) or el.role == "list":
            continue
        members = groups.get(list_group(el), [])
        target = opens.get(el.label) or next((t for t, e in list_opens.items() if el.label in e.items), "")
        if len(members) > MAX_LIST_ITEMS and not target:
            continue            # a keyboard's keys: one entry for the list below
        name, text = _name(el)
        if not name or (el.role == ROLE_TEXT and not el.hint):
            continue
        item: dict[str, Any] = {"name": name, "text": text}
        if el.selector:
            item["selector"] = el.selector
        if el.selector in screen.values:
            item["values"] = sorted(screen.values[el.selector])
        if target:
            item["opens"] = target
        out.append(item)
    for group, members in groups.items():
        if len(members) < 2 or len(members) < 3 and not pattern(members[0].selector) != members[0].selector:
            continue
        target = next((t for t, e in list_opens.items() if members[0].label in e.items), "") or \
            opens.get(members[0].label, "")
        entry: dict[str, Any] = {"name": _hint_name(members[0].hint) or members[0].role,
                                 "selector": pattern(members[0].selector), "many": True}
        if target:
            entry["opens"] = target
        out.append(entry)
    return out[:MAX_ELEMENTS]


def _keywords(screen: Screen) -> list[str]:
    """Its title, its route, and what its non-interactive parts are ("channel banner" → channel, banner)."""
    words = [screen.label.split(" for ")[0].lower()]
    route = urlsplit(screen.observation.url).fragment.strip("/").split("/")[0]
    if route:
        words.append(route.replace("-", " ").lower())
    for el in screen.observation.elements:
        if el.hidden or el.clickable or el.role in FIELD_ROLES or el.role == ROLE_HEADING:
            continue
        words += [w for w in _hint_name(el.hint).split() if w not in GENERIC_HINTS and len(w) > 2]
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
        # a draft has the screens exploration reached, not every screen: planners also read the live screen
        "complete": False,
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


def write(tree: dict[str, Any], path: Path) -> Path:
    """Write the draft tree, and beside it the review file the dashboard opens (``*.review.json``)."""
    NavigationTree.from_dict(tree, where=str(path))   # the draft must load like any tree
    path.write_text("# Draft navigation tree written by `devicepilot explore`; review before use.\n"
                    + yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=120))
    review = path.with_name(f"{path.stem}.review.json")
    review.write_text(json.dumps(review_file(tree, path.parent), ensure_ascii=False))
    return review


def review_file(tree: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The draft for review: the tree (no stored observations), and each node's screenshot and status."""
    d = tree.get("draft") or {}
    screens = {s["id"]: s for s in d.get("screens") or ()}
    looks = {i["node"]: i["looks_like"] for i in d.get("indistinguishable") or ()}
    nodes = []
    for n in tree["nodes"]:
        shot = ""
        rel = (screens.get(n["id"]) or {}).get("screenshot", "")
        if rel and (folder / rel).is_file():
            shot = "data:image/png;base64," + base64.b64encode((folder / rel).read_bytes()).decode()
        nodes.append({"id": n["id"], "label": n["label"], "screenshot": shot,
                      "verifications": n.get("verifications") or [], "param": n.get("param", ""),
                      "items": n.get("items", []), "looks_like": looks.get(n["id"], [])})
    summary = {k: v for k, v in d.items() if k != "screens"}
    return {"tree": {**tree, "draft": summary}, "nodes": nodes}


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

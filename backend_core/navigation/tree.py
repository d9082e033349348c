"""A user interface's navigation tree: nodes (screens) and edges (actions between them).

Loaded from and saved to YAML (see ``host/demo/streamtv.tree.yaml``)::

    userinterface: streamtv
    version: 1
    entry: home
    entry_url: "/"
    complete: true      # every screen of the app is here (false: a draft, the planner also reads the screen)
    nodes: [{id, label, description, keywords, verifications: [{command, params}], elements: [...]}]
    edges: [{from, to, actions, reverse_actions, retry_actions, failure_actions}]

An element is ``{name, text, selector, many, opens, values}``: ``opens`` names the node
selecting it leads to, ``values`` lists a setting's possible values (a task asking for
another is refused before anything runs).

An edge with ``reverse_actions`` also gives the edge back.

Parameterised nodes stand for one screen shown for many items ("movie detail
for {name}")::

    - id: movie
      param: name                       # the parameter's name
      items: [The Last Orbit, River of Glass]   # the items seen (more may exist)
      verifications: [...]              # hold for every item
      param_verifications:              # prove the item shown is the one asked for
        - {command: waitForElementToAppear, params: {selector: "#movie-title", text: "{name}"}}
    edges:
      - {from: movies, to: movie, param: name, actions: [{command: click_element, params: {text: "{name}"}}]}

``goto(node, param)`` fills ``{name}`` in the edge's actions and the node's
param_verifications; without a param, the first item is used. A node may name a
``subtree`` (another tree file) that it opens; its nodes are merged under the
node's id prefix.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from shared.errors import ConfigError
from shared.models import ElementInfo, NodeInfo
from shared.vocabulary import canonical


@dataclass(frozen=True)
class ActionSpec:
    command: str
    params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, raw: Any, where: str) -> "ActionSpec":
        if not isinstance(raw, dict) or "command" not in raw:
            raise ConfigError(f"{where}: each action needs a 'command', got {raw!r}")
        params = raw.get("params") or {}
        if not isinstance(params, dict):
            raise ConfigError(f"{where}: params of {raw['command']!r} must be a mapping")
        # old names (waitForElementToAppear, …) load as the canonical command, with a deprecation warning
        command, mapped = canonical(str(raw["command"]), params)
        return cls(command, mapped)

    def bind(self, name: str, value: str) -> "ActionSpec":
        """This action with ``{name}`` in its string parameters replaced by *value*."""
        if not name:
            return self
        mark = "{%s}" % name
        return ActionSpec(self.command, {k: (v.replace(mark, value) if isinstance(v, str) else v)
                                         for k, v in self.params.items()})

    def to_dict(self) -> dict[str, Any]:
        return {"command": self.command, "params": dict(self.params)}


def _actions(raw: Any, where: str) -> tuple[ActionSpec, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ConfigError(f"{where}: expected a list of actions")
    return tuple(ActionSpec.parse(a, where) for a in raw)


@dataclass(frozen=True)
class Node:
    id: str
    label: str
    description: str = ""
    keywords: tuple[str, ...] = ()
    verifications: tuple[ActionSpec, ...] = ()
    elements: tuple[ElementInfo, ...] = ()
    param: str = ""                                   # parameterised: the name of its parameter
    items: tuple[str, ...] = ()                       # the items known to exist
    param_verifications: tuple[ActionSpec, ...] = ()  # prove the item shown is the one asked for

    def info(self) -> NodeInfo:
        return NodeInfo(self.id, self.label, self.description, self.keywords, self.elements, self.param, self.items)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    actions: tuple[ActionSpec, ...]
    retry_actions: tuple[ActionSpec, ...] = ()
    failure_actions: tuple[ActionSpec, ...] = ()
    param: str = ""      # its actions hold "{param}": it opens one item of the target node

    def bound(self, actions: tuple[ActionSpec, ...], value: str) -> tuple[ActionSpec, ...]:
        return tuple(a.bind(self.param, value) for a in actions)


@dataclass
class NavigationTree:
    userinterface: str
    version: int
    entry: str
    entry_url: str
    nodes: dict[str, Node]
    edges: list[Edge]
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    complete: bool = True     # every screen of the app is a node (false for an explored draft)

    @cached_property
    def fingerprint(self) -> str:
        """Changes whenever the tree's content changes: the graph cache key.

        Computed once per tree object: a tree is not changed in place (a new version is a new tree).
        """
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def node_infos(self) -> list[NodeInfo]:
        return [n.info() for n in self.nodes.values()]

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.raw, sort_keys=False, allow_unicode=True)

    @classmethod
    def load(cls, path: str | Path) -> "NavigationTree":
        path = Path(path)
        try:
            raw = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"cannot read navigation tree {path}: {exc}") from exc
        return cls.from_dict(raw, where=str(path), base_dir=path.parent)

    @classmethod
    def from_dict(cls, raw: Any, where: str = "tree", base_dir: Path | None = None) -> "NavigationTree":
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: a navigation tree must be a mapping")
        raw = _expand_subtrees(raw, where, base_dir)
        nodes: dict[str, Node] = {}
        for i, n in enumerate(raw.get("nodes") or []):
            if not isinstance(n, dict) or not n.get("id"):
                raise ConfigError(f"{where}: node #{i + 1} needs an 'id'")
            nid = str(n["id"])
            if nid in nodes:
                raise ConfigError(f"{where}: node {nid!r} is defined twice")
            nodes[nid] = Node(
                id=nid,
                label=str(n.get("label") or nid),
                description=str(n.get("description") or ""),
                keywords=tuple(str(k) for k in n.get("keywords") or ()),
                verifications=_actions(n.get("verifications"), f"{where}: node {nid}"),
                elements=tuple(ElementInfo.from_dict(e) for e in n.get("elements") or ()),
                param=str(n.get("param") or ""),
                items=tuple(str(i) for i in n.get("items") or ()),
                param_verifications=_actions(n.get("param_verifications"), f"{where}: node {nid} (param)"),
            )
            if nodes[nid].param_verifications and not nodes[nid].param:
                raise ConfigError(f"{where}: node {nid!r} has param_verifications but no 'param'")
        if not nodes:
            raise ConfigError(f"{where}: a navigation tree needs at least one node")
        edges: list[Edge] = []
        for i, e in enumerate(raw.get("edges") or []):
            if not isinstance(e, dict):
                raise ConfigError(f"{where}: edge #{i + 1} must be a mapping")
            src, dst = str(e.get("from")), str(e.get("to"))
            for end in (src, dst):
                if end not in nodes:
                    raise ConfigError(f"{where}: edge #{i + 1} names unknown node {end!r}")
            label = f"{where}: edge {src}->{dst}"
            actions = _actions(e.get("actions"), label)
            if not actions:
                raise ConfigError(f"{label}: needs at least one action")
            param = str(e.get("param") or "")
            if param and nodes[dst].param != param:
                raise ConfigError(f"{label}: takes parameter {param!r} but node {dst!r} "
                                  + (f"takes {nodes[dst].param!r}" if nodes[dst].param else "takes none"))
            edges.append(Edge(src, dst, actions, _actions(e.get("retry_actions"), label),
                              _actions(e.get("failure_actions"), label), param))
            reverse = _actions(e.get("reverse_actions"), label + " (reverse)")
            if reverse:
                edges.append(Edge(dst, src, reverse))
        entry = str(raw.get("entry") or next(iter(nodes)))
        if entry not in nodes:
            raise ConfigError(f"{where}: entry node {entry!r} is not a node")
        return cls(
            userinterface=str(raw.get("userinterface") or "default"),
            version=int(raw.get("version") or 1),
            entry=entry,
            entry_url=str(raw.get("entry_url") or ""),
            nodes=nodes,
            edges=edges,
            raw=raw,
            complete=raw.get("complete", True) is not False,
        )


def _expand_subtrees(raw: dict[str, Any], where: str, base_dir: Path | None) -> dict[str, Any]:
    """Merge nested trees: a node with ``subtree: file.yaml`` gets that tree's nodes as ``<node>/<id>``,
    linked from the parent node to the subtree's entry by the node's ``subtree_actions``."""
    nodes = list(raw.get("nodes") or [])
    edges = list(raw.get("edges") or [])
    if not any(isinstance(n, dict) and n.get("subtree") for n in nodes):
        return raw
    out_nodes: list[Any] = []
    for n in nodes:
        out_nodes.append(n)
        if not (isinstance(n, dict) and n.get("subtree")):
            continue
        if base_dir is None:
            raise ConfigError(f"{where}: node {n.get('id')!r} names a subtree but the tree has no folder")
        sub = NavigationTree.load(base_dir / str(n["subtree"]))
        prefix = f"{n['id']}/"
        for sn in sub.raw.get("nodes") or []:
            out_nodes.append({**sn, "id": prefix + str(sn["id"])})
        for se in sub.raw.get("edges") or []:
            edges.append({**se, "from": prefix + str(se["from"]), "to": prefix + str(se["to"])})
        edges.append({"from": n["id"], "to": prefix + sub.entry,
                      "actions": n.get("subtree_actions") or [], "reverse_actions": [{"command": "press_key", "params": {"key": "BACK"}}]})
    return {**raw, "nodes": out_nodes, "edges": edges}

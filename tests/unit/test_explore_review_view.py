"""The dashboard's explore review view: renames and deleted edges make the tree it saves (run with Node)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

VIEW = Path(__file__).resolve().parents[2] / "frontend" / "js" / "views" / "explore_review.js"

SCRIPT = """
import { acceptedTree } from "%s";
const t = { userinterface: "x", entry: "streamtv",
  nodes: [{ id: "streamtv", label: "StreamTV", elements: [{ name: "live", opens: "live_tv" }] }, { id: "live_tv", label: "Live TV" }],
  edges: [{ from: "streamtv", to: "live_tv", actions: [] }, { from: "live_tv", to: "streamtv", actions: [] }] };
const a = acceptedTree(t, { streamtv: "home", live_tv: "live" }, { live_tv: "Live" }, new Set([1]));
const m = { userinterface: "x", entry: "home",
  nodes: [{ id: "home", label: "Home", elements: [] },
          { id: "movie", label: "Movie", param: "name", items: ["A"], elements: [{ name: "play" }] },
          { id: "movie_2", label: "Movie", param: "name", items: ["B"], elements: [{ name: "play" }, { name: "trailer" }] }],
  edges: [{ from: "home", to: "movie", actions: [] }, { from: "home", to: "movie_2", actions: [] },
          { from: "movie", to: "movie_2", actions: [] }] };
const merged = acceptedTree(m, { movie_2: "movie" }, {}, new Set());
// the explorer took Settings and Audio for one screen: the edge from settings really leads elsewhere
const s = { userinterface: "x", entry: "home",
  nodes: [{ id: "home", label: "Home", elements: [] }, { id: "settings", label: "Settings", elements: [] },
          { id: "menu", label: "Menu", verifications: [{ command: "check_text", params: { text: "Menu" } }], elements: [{ name: "ok" }] }],
  edges: [{ from: "home", to: "menu", actions: [1] }, { from: "menu", to: "home", actions: [2] },
          { from: "settings", to: "menu", actions: [3] }, { from: "menu", to: "settings", actions: [4] }] };
const split = acceptedTree(s, {}, {}, new Set(), new Map([[2, "audio"]]));
const retarget = acceptedTree(s, {}, {}, new Set(), new Map([[2, "home"]]));
console.log(JSON.stringify([a, merged, split, retarget]));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_accepted_tree_renames_merges_splits_and_drops_deleted_edges(tmp_path: Path) -> None:
    import json

    script = tmp_path / "t.mjs"
    script.write_text(SCRIPT % VIEW.as_posix())
    out, merged, split, retarget = json.loads(subprocess.run(["node", str(script)], capture_output=True, text=True, check=True,
                                            timeout=60).stdout)
    assert out["entry"] == "home"
    assert [n["id"] for n in out["nodes"]] == ["home", "live"]
    assert out["nodes"][0]["elements"][0]["opens"] == "live" and out["nodes"][1]["label"] == "Live"
    assert out["edges"] == [{"from": "home", "to": "live", "actions": []}]
    # two screens given one id are one: the first's content, the other's extra elements and items
    assert [n["id"] for n in merged["nodes"]] == ["home", "movie"]
    movie = merged["nodes"][1]
    assert [e["name"] for e in movie["elements"]] == ["play", "trailer"] and movie["items"] == ["A", "B"]
    assert merged["edges"] == [{"from": "home", "to": "movie", "actions": []}]   # loop and repeat gone
    # an edge split off to a screen of its own: a copy of the screen it was taken for, with that screen's way back
    assert [n["id"] for n in split["nodes"]] == ["home", "settings", "menu", "audio"]
    audio = split["nodes"][3]
    assert audio["label"] == "audio" and audio["verifications"] == split["nodes"][2]["verifications"]
    assert {(e["from"], e["to"], e["actions"][0]) for e in split["edges"]} == {
        ("home", "menu", 1), ("menu", "home", 2), ("settings", "audio", 3), ("menu", "settings", 4), ("audio", "settings", 4)}
    # naming a screen that exists re-targets the edge, and adds no screen
    assert [n["id"] for n in retarget["nodes"]] == ["home", "settings", "menu"]
    assert ("settings", "home", 3) in {(e["from"], e["to"], e["actions"][0]) for e in retarget["edges"]}

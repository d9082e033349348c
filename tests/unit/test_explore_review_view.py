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
console.log(JSON.stringify([a, merged]));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_accepted_tree_renames_screens_everywhere_and_drops_deleted_edges(tmp_path: Path) -> None:
    import json

    script = tmp_path / "t.mjs"
    script.write_text(SCRIPT % VIEW.as_posix())
    out, merged = json.loads(subprocess.run(["node", str(script)], capture_output=True, text=True, check=True,
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

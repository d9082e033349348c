// Explore view: explore a device from here (POST /api/devices/<id>/explorations, progress polled), or
// open the review file `devicepilot explore` writes beside its draft (TREE.review.json); see every
// screen with its screenshot and chosen verification, the uncertain parts flagged (screens no check
// tells apart, edges with no way back, actions not taken), rename screens, merge two (give them one
// id), split one (an edge into it really leads to another screen: name that screen), delete edges,
// and accept: the tree is saved through PUT /api/userinterfaces/<ui>/tree, the same validation and
// versioning as any tree edit.

import { api, enc } from "../api.js";
import { emptyState, errorBanner, h, replace, toast } from "../dom.js";

function verificationText(v) {
  const p = v.params || {};
  return `${v.command}(${Object.entries(p).map(([k, x]) => `${k}=${JSON.stringify(x)}`).join(", ")})`;
}

/** The tree with screens split, renamed (ids and labels), screens given one id merged, and the deleted
 * edges left out. *splits* maps an edge's index to the id of the screen it really leads to: a new id
 * makes a new screen, a copy of the one the explorer took it for (its verification too, to be made
 * telling in the tree editor), and it gets that screen's way back to where the edge starts; an existing
 * id re-targets the edge. A merged screen keeps the first one's verifications; it gains the others'
 * elements and items, and edges between the merged screens (now loops) or repeated go. */
export function acceptedTree(tree, renames, labels, deleted, splits = new Map()) {
  const id = (x) => renames[x] || x;
  const nodes = [...tree.nodes];
  const edgesIn = tree.edges.map((e) => ({ ...e }));
  for (const [i, target] of splits) {
    const edge = edgesIn[i];
    if (!edge || !target || deleted.has(i) || target === edge.to) continue;
    const old = edge.to;
    if (!nodes.some((n) => n.id === target || id(n.id) === target)) {
      const copy = tree.nodes.find((n) => n.id === old);
      nodes.push({ ...copy, id: target, label: labels[target] || target });
      for (const back of tree.edges) {
        if (back.from === old && back.to === edge.from && !back.param) edgesIn.push({ ...back, from: target });
      }
    }
    edge.to = target;
  }
  const byId = new Map();
  for (const n of nodes) {
    const node = {
      ...n, id: id(n.id), label: labels[n.id] || n.label,
      elements: (n.elements || []).map((e) => (e.opens ? { ...e, opens: id(e.opens) } : e)),
    };
    const kept = byId.get(node.id);
    if (!kept) { byId.set(node.id, node); continue; }
    const names = new Set(kept.elements.map((e) => e.name));
    kept.elements.push(...node.elements.filter((e) => !names.has(e.name)));
    if (kept.items || node.items) kept.items = [...new Set([...(kept.items || []), ...(node.items || [])])];
  }
  const seen = new Set();
  const edges = edgesIn.filter((_, i) => !deleted.has(i)).map((e) => ({ ...e, from: id(e.from), to: id(e.to) }))
    .filter((e) => {
      const key = `${e.from}\u0000${e.to}\u0000${e.param || ""}`;
      if (e.from === e.to || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { ...tree, entry: id(tree.entry), nodes: [...byId.values()], edges };
}

/** Start an exploration of *device* on the server and follow it; resolves with its review, or throws. */
async function exploreOnServer(device, limits, onProgress) {
  let job = await api.post(`/api/devices/${enc(device)}/explorations`, limits);
  while (job.status === "running") {
    await new Promise((r) => setTimeout(r, 1000));
    job = await api.get(`/api/explorations/${enc(job.id)}`);
    const last = job.progress[job.progress.length - 1];
    if (last) onProgress(`${last.screens} screens, ${last.actions} actions, ${Math.round(last.time_left_s)} s left: ${last.note}`);
  }
  if (job.status !== "done") throw new Error(job.message || "the exploration stopped");
  return job.review;
}

export default async function exploreReviewView(root, ctx) {
  ctx.setTitle("Review an explored tree");
  const body = h("div");
  const file = h("input", { type: "file", accept: ".json,application/json", "aria-label": "Review file (TREE.review.json)" });
  const device = h("input", { type: "text", placeholder: "device id", "aria-label": "Device to explore" });
  const budget = h("input", { type: "number", value: "240", min: "10", max: "900", "aria-label": "Time budget (s)" });
  const start = h("button", { type: "button", class: "btn", "aria-label": "Explore the device" }, "Explore");
  const status = h("div", { class: "sub", role: "status", "aria-live": "polite" });
  root.append(
    h("div", { class: "page-head" },
      h("div", null, h("h1", null, "Review an explored tree"),
        h("div", { class: "sub" }, "Explore a device from its current screen, or open the .review.json file " +
          "`devicepilot explore` wrote beside its draft."), status),
      h("div", { class: "actions" }, device, budget, start, file)),
    body);
  replace(body, emptyState("No draft open", "Explore a device, or choose a review file, to see its screens."));

  start.addEventListener("click", async () => {
    const id = device.value.trim();
    if (!id) { toast("name the device to explore", "error"); return; }
    start.disabled = true;
    status.textContent = `exploring ${id}…`;
    try {
      const review = await exploreOnServer(id, { budget_s: Number(budget.value) || 240 },
        (line) => { status.textContent = line; });
      status.textContent = `explored ${id}: ${review.tree.draft.stopped_because}`;
      show(body, review);
    } catch (err) {
      status.textContent = "";
      replace(body, errorBanner(`Cannot explore ${id}`, err.message));
    } finally {
      start.disabled = false;
    }
  });

  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    let review;
    try {
      review = JSON.parse(await chosen.text());
      if (!review.tree || !Array.isArray(review.nodes)) throw new Error("not a review file (no tree and nodes)");
    } catch (err) {
      replace(body, errorBanner("Cannot open this file", err.message));
      return;
    }
    show(body, review);
  });
}

function show(body, review) {
  const tree = review.tree;
  const draft = tree.draft || {};
  const renames = {};
  const labels = {};
  const deleted = new Set();
  const splits = new Map();
  const flags = h("ul", { class: "small" },
    ...(draft.indistinguishable || []).map((i) => h("li", null, `${i.node}: no check tells it from ${i.looks_like.join(", ")}`)),
    ...(draft.unreversed_edges || []).map((e) => h("li", null, `no way back learned: ${e}`)),
    ...(draft.skipped || []).map((s) => h("li", null, `not taken on ${s.screen}: ${s.target} (${s.reason})`)));
  const cards = review.nodes.map((n) => {
    const idInput = h("input", { type: "text", value: n.id, "aria-label": `New id of ${n.id}` });
    const labelInput = h("input", { type: "text", value: n.label, "aria-label": `New label of ${n.id}` });
    idInput.addEventListener("input", () => { renames[n.id] = idInput.value.trim(); });
    labelInput.addEventListener("input", () => { labels[n.id] = labelInput.value.trim(); });
    return h("section", { class: "panel", "aria-label": `Screen ${n.id}` },
      h("div", { class: "panel-head" }, h("h2", null, n.label),
        n.looks_like.length ? h("span", { class: "badge badge--failed" }, "cannot be told apart") : null,
        n.param ? h("span", { class: "badge" }, `one screen per ${n.param} (${n.items.length} items)`) : null),
      h("div", { class: "panel-body stack" },
        n.screenshot ? h("img", { src: n.screenshot, alt: `Screenshot of ${n.label}`, style: { maxWidth: "360px" } }) : null,
        h("label", null, "id (the id of another screen merges the two) ", idInput), h("label", null, "label ", labelInput),
        h("div", { class: "small" }, "verification: ",
          n.verifications.length ? n.verifications.map((v) => h("code", null, verificationText(v))) : "none found")));
  });
  const edgeRows = tree.edges.map((e, i) => {
    const del = h("input", { type: "checkbox", "aria-label": `Delete edge ${e.from} to ${e.to}` });
    del.addEventListener("change", () => (del.checked ? deleted.add(i) : deleted.delete(i)));
    const split = h("input", { type: "text", placeholder: "leads to another screen: its id", size: "24",
      "aria-label": `Split: edge ${e.from} to ${e.to} leads to screen` });
    split.addEventListener("input", () => {
      const target = split.value.trim();
      if (target) splits.set(i, target); else splits.delete(i);
    });
    return h("li", null, del, ` ${e.from} → ${e.to}`, e.reverse_actions ? "" : " (no way back)",
      e.param ? ` [takes ${e.param}]` : "", h("span", { class: "muted small" }, ` taken ${e.taken_at || "?"} `), split);
  });
  const accept = h("button", { type: "button", class: "btn btn--primary", "aria-label": "Accept the reviewed tree" },
    "Accept and save");
  accept.addEventListener("click", async () => {
    const accepted = acceptedTree(tree, renames, labels, deleted, splits);
    try {
      const saved = await api.put(`/api/userinterfaces/${enc(tree.userinterface)}/tree`, { tree: accepted });
      toast(`saved ${saved.userinterface} version ${saved.version}`, "success");
    } catch (err) {
      toast(`not saved: ${err.message}`, "error", 8000);
    }
  });
  replace(body,
    h("section", { class: "panel", "aria-label": "Uncertain parts" },
      h("div", { class: "panel-head" }, h("h2", null, `Draft of ${tree.userinterface}`),
        h("span", { class: "muted small" }, `${draft.screens_found} screens, ${draft.actions_tried} actions, ${draft.stopped_because || ""}`)),
      h("div", { class: "panel-body" }, flags.children.length ? flags : h("p", null, "Nothing flagged."))),
    ...cards,
    h("section", { class: "panel", "aria-label": "Edges" },
      h("div", { class: "panel-head" }, h("h2", null, "Edges (tick to delete; name the screen an edge really leads to, to split it off)")),
      h("div", { class: "panel-body" }, h("ul", { class: "small" }, ...edgeRows))),
    h("div", { class: "actions" }, accept));
}

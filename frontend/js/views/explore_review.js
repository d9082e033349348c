// Explore review view: open the review file `devicepilot explore` writes beside its draft
// (TREE.review.json), see every screen with its screenshot and chosen verification, the uncertain
// parts flagged (screens no check tells apart, edges with no way back, actions not taken), rename
// screens, delete edges, and accept: the tree is saved through PUT /api/userinterfaces/<ui>/tree,
// the same validation and versioning as any tree edit.

import { api, enc } from "../api.js";
import { emptyState, errorBanner, h, replace, toast } from "../dom.js";

function verificationText(v) {
  const p = v.params || {};
  return `${v.command}(${Object.entries(p).map(([k, x]) => `${k}=${JSON.stringify(x)}`).join(", ")})`;
}

/** The tree with screens renamed (ids and labels) and the deleted edges left out. */
export function acceptedTree(tree, renames, labels, deleted) {
  const id = (x) => renames[x] || x;
  const nodes = tree.nodes.map((n) => ({
    ...n, id: id(n.id), label: labels[n.id] || n.label,
    elements: (n.elements || []).map((e) => (e.opens ? { ...e, opens: id(e.opens) } : e)),
  }));
  const edges = tree.edges.filter((_, i) => !deleted.has(i)).map((e) => ({ ...e, from: id(e.from), to: id(e.to) }));
  return { ...tree, entry: id(tree.entry), nodes, edges };
}

export default async function exploreReviewView(root, ctx) {
  ctx.setTitle("Review an explored tree");
  const body = h("div");
  const file = h("input", { type: "file", accept: ".json,application/json", "aria-label": "Review file (TREE.review.json)" });
  root.append(
    h("div", { class: "page-head" },
      h("div", null, h("h1", null, "Review an explored tree"),
        h("div", { class: "sub" }, "Open the .review.json file `devicepilot explore` wrote beside its draft.")),
      h("div", { class: "actions" }, file)),
    body);
  replace(body, emptyState("No draft open", "Choose a review file to see its screens."));

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
        h("label", null, "id ", idInput), h("label", null, "label ", labelInput),
        h("div", { class: "small" }, "verification: ",
          n.verifications.length ? n.verifications.map((v) => h("code", null, verificationText(v))) : "none found")));
  });
  const edgeRows = tree.edges.map((e, i) => {
    const del = h("input", { type: "checkbox", "aria-label": `Delete edge ${e.from} to ${e.to}` });
    del.addEventListener("change", () => (del.checked ? deleted.add(i) : deleted.delete(i)));
    return h("li", null, del, ` ${e.from} → ${e.to}`, e.reverse_actions ? "" : " (no way back)",
      e.param ? ` [takes ${e.param}]` : "", h("span", { class: "muted small" }, ` taken ${e.taken_at || "?"}`));
  });
  const accept = h("button", { type: "button", class: "btn btn--primary", "aria-label": "Accept the reviewed tree" },
    "Accept and save");
  accept.addEventListener("click", async () => {
    const accepted = acceptedTree(tree, renames, labels, deleted);
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
      h("div", { class: "panel-head" }, h("h2", null, "Edges (tick to delete)")),
      h("div", { class: "panel-body" }, h("ul", { class: "small" }, ...edgeRows))),
    h("div", { class: "actions" }, accept));
}

// Navigation view: a user interface's tree as a graph; edit nodes and edges, save (the server
// validates), and highlight the path a goto takes between two nodes.

import { ApiError, api, enc, withQuery } from "../api.js";
import { busy, emptyState, errorBanner, h, replace, toast } from "../dom.js";
import * as fmt from "../format.js";
import { on, seedLab } from "../live.js";
import { drawTree, legend } from "../components/tree_graph.js";
import { edgeForm, newEdgeForm, newNodeForm, nodeForm, treeForm } from "../components/tree_inspector.js";

const copy = (value) => JSON.parse(JSON.stringify(value));

export default async function navigationView(root, ctx) {
  ctx.setTitle("Navigation");
  let uis;
  try {
    uis = await api.get("/api/userinterfaces");
  } catch (err) {
    root.append(errorBanner("User interfaces could not be loaded", err.message));
    return;
  }
  if (!ctx.alive()) return;
  const ui = ctx.params.ui;
  if (!ui) {
    if (uis.length) {
      location.replace(`#/navigation/${enc(uis[0].userinterface)}`);
    } else {
      root.append(h("div", { class: "page-head" }, h("h1", null, "Navigation")),
        h("div", { class: "panel" }, emptyState("No navigation tree yet", "A host sends its devices' trees when it registers.")));
    }
    return;
  }
  ctx.setTitle(`Navigation · ${ui}`);

  let saved = null; // {version, source, tree}
  let tree = null;
  let selection = null;
  let path = null;
  let pins = new Map();

  const uiSelect = h("select", { id: "nav-ui", "aria-label": "User interface" },
    (uis.some((u) => u.userinterface === ui) ? uis : [...uis, { userinterface: ui }]).map((u) =>
      h("option", { value: u.userinterface, selected: u.userinterface === ui }, u.userinterface)));
  uiSelect.addEventListener("change", () => { location.hash = `#/navigation/${enc(uiSelect.value)}`; });
  const versionInfo = h("span", { class: "muted small" });
  const dirtyInfo = h("span", { class: "small", role: "status", "aria-live": "polite" });
  const saveBtn = h("button", { type: "button", class: "btn btn--primary", disabled: true, "aria-label": "Save the navigation tree" }, "Save");
  const revertBtn = h("button", { type: "button", class: "btn", disabled: true, "aria-label": "Discard unsaved changes" }, "Revert");
  const message = h("div");
  const fromSel = h("select", { id: "path-from", "aria-label": "Path from node" });
  const toSel = h("select", { id: "path-to", "aria-label": "Path to node" });
  const pathBtn = h("button", { type: "button", class: "btn btn--sm", "aria-label": "Highlight the goto path" }, "Show path");
  const clearPathBtn = h("button", { type: "button", class: "btn btn--sm btn--ghost", hidden: true }, "Clear path");
  const pathInfo = h("div", { class: "small", role: "status", "aria-live": "polite", style: { padding: "0 16px 10px" } });
  const graphBox = h("div", { class: "graph-wrap" });
  const inspector = h("div", { class: "panel-body" });

  root.append(
    h("div", { class: "page-head" },
      h("div", null,
        h("div", { style: { display: "flex", gap: "12px", alignItems: "center" } }, h("h1", null, "Navigation"), uiSelect),
        h("div", { class: "sub" }, versionInfo, " ", dirtyInfo)),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "btn", onclick: () => select({ type: "new-node" }) }, "Add node"),
        h("button", { type: "button", class: "btn", onclick: () => select({ type: "new-edge" }) }, "Add edge"),
        revertBtn, saveBtn)),
    message,
    h("div", { class: "nav-layout" },
      h("section", { class: "panel", "aria-label": "Navigation graph" },
        h("div", { class: "panel-head" },
          h("h2", null, "Graph"), h("span", { class: "spacer" }),
          h("label", { class: "small muted", for: "path-from" }, "goto from"), fromSel,
          h("label", { class: "small muted", for: "path-to" }, "to"), toSel, pathBtn, clearPathBtn),
        pathInfo, graphBox, legend()),
      h("aside", { class: "panel inspector", "aria-label": "Inspector" }, inspector)));

  const dirty = () => saved && JSON.stringify(tree) !== JSON.stringify(saved.tree);
  const onUnload = (event) => { if (dirty()) { event.preventDefault(); event.returnValue = ""; } };
  window.addEventListener("beforeunload", onUnload);
  ctx.onLeave(() => window.removeEventListener("beforeunload", onUnload));

  function renderGraph() {
    replace(graphBox, drawTree(tree, { selected: selection, path, pins }, (sel) => select(sel, true)));
  }

  function renderInspector() {
    const ops = {
      changed: (structural) => { refreshState(); renderGraph(); if (structural) renderInspector(); },
      select: (sel) => select(sel),
      remove: (sel) => removeItem(sel),
    };
    let form;
    if (selection?.type === "node") {
      const node = tree.nodes.find((n) => String(n.id) === selection.id);
      form = node ? nodeForm(tree, node, ops) : null;
    } else if (selection?.type === "edge") {
      const edge = (tree.edges || [])[selection.index];
      form = edge ? edgeForm(tree, edge, selection.index, ops) : null;
    } else if (selection?.type === "new-node") {
      form = newNodeForm(tree, ops);
    } else if (selection?.type === "new-edge") {
      form = newEdgeForm(tree, ops);
    }
    if (!form) {
      selection = null;
      form = treeForm(tree, ops, (replacement) => { tree = replacement; refreshState(); renderGraph(); });
    }
    replace(inspector, form);
  }

  function select(sel, fromGraph = false) {
    selection = sel;
    renderGraph();
    renderInspector();
    if (fromGraph) {
      const key = sel.type === "node" ? `[data-node="${CSS.escape(sel.id)}"]` : `[data-edge="${sel.index}"]`;
      graphBox.querySelector(key)?.focus();
    } else {
      inspector.querySelector("input, textarea, select")?.focus();
    }
  }

  function removeItem(sel) {
    if (sel.type === "node") {
      const name = sel.id;
      const edgeCount = (tree.edges || []).filter((e) => String(e.from) === name || String(e.to) === name).length;
      if (!window.confirm(`Delete node ${name}${edgeCount ? ` and its ${edgeCount} edge(s)` : ""}?`)) return;
      tree.nodes = tree.nodes.filter((n) => String(n.id) !== name);
      tree.edges = (tree.edges || []).filter((e) => String(e.from) !== name && String(e.to) !== name);
    } else {
      tree.edges.splice(sel.index, 1);
    }
    selection = null;
    refreshState();
    renderGraph();
    renderInspector();
  }

  function fillNodeSelects() {
    const nodes = tree.nodes.map((n) => ({ id: String(n.id), label: n.label || n.id }));
    for (const [sel, fallback] of [[fromSel, saved.fromDefault], [toSel, null]]) {
      const keep = sel.value;
      replace(sel, nodes.map((n) => h("option", { value: n.id }, `${n.label} (${n.id})`)));
      sel.value = nodes.some((n) => n.id === keep) ? keep : fallback || nodes[0]?.id || "";
    }
    if (toSel.value === fromSel.value && nodes.length > 1) toSel.value = nodes[nodes.length - 1].id;
  }

  function refreshState() {
    const isDirty = Boolean(dirty());
    saveBtn.disabled = !isDirty;
    revertBtn.disabled = !isDirty;
    dirtyInfo.replaceChildren(...(isDirty ? [h("span", { class: "dirty-dot", "aria-hidden": "true" }), " unsaved changes"] : []));
    fillNodeSelects();
  }

  async function load() {
    const data = await api.get(`/api/userinterfaces/${enc(ui)}/tree`);
    const devices = await api.get("/api/devices").catch(() => []);
    seedLab({ hosts: [], devices });
    pins = new Map();
    for (const d of devices.filter((x) => x.userinterface === ui && x.current_node)) {
      pins.set(d.current_node, [...(pins.get(d.current_node) || []), d.id]);
    }
    saved = { version: data.version, source: data.source, tree: data.tree, fromDefault: data.tree.entry };
    tree = copy(data.tree);
    versionInfo.textContent = `version ${data.version} · from ${data.source === "dashboard" ? "the dashboard" : "the host"}`;
    refreshState();
    renderGraph();
    renderInspector();
  }

  async function showPath() {
    const from = fromSel.value;
    const to = toSel.value;
    try {
      const result = await api.get(withQuery(`/api/userinterfaces/${enc(ui)}/path`, { from, to }));
      if (!result.found) {
        path = null;
        replace(pathInfo, h("span", { class: "field-error" }, result.reason));
      } else {
        path = result;
        replace(pathInfo, h("span", null, h("b", null, `goto ${to} from ${from}: `),
          result.edges.length ? `${result.edges.length} edge${result.edges.length > 1 ? "s" : ""} — ` : "already there",
          result.edges.map((e) => `${e.from} → ${e.to} (${e.actions.map(fmt.action).join(", ")})`).join("  ·  "),
          dirty() ? h("span", { class: "muted" }, "  (path of the saved tree)") : null));
      }
      clearPathBtn.hidden = false;
    } catch (err) {
      path = null;
      replace(pathInfo, h("span", { class: "field-error" }, err.message));
    }
    renderGraph();
  }

  pathBtn.addEventListener("click", () => busy(pathBtn, showPath));
  clearPathBtn.addEventListener("click", () => {
    path = null;
    clearPathBtn.hidden = true;
    replace(pathInfo);
    renderGraph();
    pathBtn.focus();
  });
  revertBtn.addEventListener("click", () => {
    tree = copy(saved.tree);
    selection = null;
    replace(message);
    refreshState();
    renderGraph();
    renderInspector();
  });
  saveBtn.addEventListener("click", () => busy(saveBtn, async () => {
    replace(message);
    try {
      const result = await api.put(`/api/userinterfaces/${enc(ui)}/tree`, { tree });
      toast(`Saved: ${ui} version ${result.version}`, "ok");
      const keep = selection;
      await load();
      if (keep && keep.type !== "new-node" && keep.type !== "new-edge") select(keep);
      replace(message, h("div", { class: "banner banner--ok", role: "status", dataset: { saved: String(result.version) } },
        `Saved as version ${result.version}; connected hosts have the new tree.`));
    } catch (err) {
      const title = err instanceof ApiError && err.status === 400 ? "The server refused the tree" : "The tree was not saved";
      replace(message, errorBanner(title, err.message));
    }
    refreshState();
  }));

  ctx.onLeave(on("lab_update", (snap) => {
    const next = new Map();
    for (const d of snap.devices.filter((x) => x.userinterface === ui && x.current_node)) {
      next.set(d.current_node, [...(next.get(d.current_node) || []), d.id]);
    }
    if (JSON.stringify([...next]) !== JSON.stringify([...pins])) {
      pins = next;
      if (tree) renderGraph();
    }
  }));

  try {
    await load();
  } catch (err) {
    replace(graphBox, errorBanner(`The tree of ${ui} could not be loaded`, err.message));
  }
}

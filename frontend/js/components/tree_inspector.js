// Editing forms for the navigation tree: the selected node, the selected edge, a new node or
// edge, or the tree itself. Every change is applied to the tree in memory; saving is the view's.

import { h } from "../dom.js";

let uid = 0;
const ACTION_LISTS = [
  ["actions", "Actions", "what moves the device from the source to the target"],
  ["reverse_actions", "Reverse actions", "the way back (target to source); leave [] for none"],
  ["retry_actions", "Retry actions", "tried when the target's verifications do not pass"],
  ["failure_actions", "Failure actions", "run when the edge gives up"],
];

function textField(label, value, onChange, attrs = {}) {
  const id = `i${++uid}`;
  const input = h("input", { id, type: "text", value: value ?? "", autocomplete: "off", spellcheck: "false", ...attrs });
  input.addEventListener("input", () => onChange(input.value, input));
  return h("label", { class: "field", for: id }, label, input);
}

function areaField(label, value, onChange, hint) {
  const id = `i${++uid}`;
  const area = h("textarea", { id, rows: "2" });
  area.value = value ?? "";
  area.addEventListener("input", () => onChange(area.value));
  return h("label", { class: "field", for: id }, label, area, hint ? h("span", { class: "hint" }, hint) : null);
}

/** A JSON textarea that applies only valid JSON of the expected shape (a list by default). */
function jsonField(label, value, onValid, hint, check = Array.isArray) {
  const id = `i${++uid}`;
  const area = h("textarea", { id, class: "code", spellcheck: "false", rows: "4", "aria-describedby": `${id}-err` });
  area.value = JSON.stringify(value ?? [], null, 2);
  const error = h("span", { class: "field-error", id: `${id}-err`, "aria-live": "polite" });
  area.addEventListener("input", () => {
    try {
      const parsed = JSON.parse(area.value);
      if (!check(parsed)) throw new Error("expected a list of {command, params}");
      area.removeAttribute("aria-invalid");
      error.textContent = "";
      onValid(parsed);
    } catch (err) {
      area.setAttribute("aria-invalid", "true");
      error.textContent = `Not applied: ${err.message}`;
    }
  });
  return h("label", { class: "field", for: id }, label, area, hint ? h("span", { class: "hint" }, hint) : null, error);
}

function nodeSelect(label, nodes, value, onChange) {
  const id = `i${++uid}`;
  const select = h("select", { id }, nodes.map((n) => h("option", { value: n.id, selected: String(n.id) === String(value) }, `${n.label || n.id} (${n.id})`)));
  select.addEventListener("change", () => onChange(select.value));
  return h("label", { class: "field", for: id }, label, select);
}

function section(title, ...children) {
  return [h("h3", null, title), ...children];
}

/**
 * ops: {changed(), select(sel), remove(sel)}; every edit mutates *tree* then calls ops.changed().
 */
export function nodeForm(tree, node, ops) {
  const set = (key) => (value) => { node[key] = value; ops.changed(); };
  const isEntry = String(tree.entry) === String(node.id);
  return h("div", { class: "stack", style: { gap: "12px" }, dataset: { inspect: "node" } },
    ...section(`Node ${node.label || node.id}`),
    h("div", { class: "kv" }, h("span", null, h("b", null, "Id "), h("code", null, node.id)), isEntry ? h("span", { class: "chip chip--navigation" }, "entry") : null),
    textField("Label", node.label, set("label"), { "aria-label": "Node label", name: "label" }),
    areaField("Description", node.description, set("description"), "what the screen is; planners read it"),
    textField("Keywords", (node.keywords || []).join(", "), (v) => set("keywords")(v.split(",").map((k) => k.trim()).filter(Boolean)), { "aria-label": "Node keywords, comma separated" }),
    jsonField("Verifications", node.verifications || [], set("verifications"), "prove the device is on this screen: [{command, params}]"),
    jsonField("Elements", node.elements || [], set("elements"), "named things on the screen: [{name, text, selector}]",
      (v) => Array.isArray(v) && v.every((e) => e && typeof e === "object" && e.name)),
    h("div", { class: "toolbar" },
      isEntry ? null : h("button", { type: "button", class: "btn btn--sm", onclick: () => { tree.entry = node.id; ops.changed(true); } }, "Make entry node"),
      h("button", { type: "button", class: "btn btn--sm btn--danger", disabled: isEntry, title: isEntry ? "The entry node cannot be deleted" : null,
        onclick: () => ops.remove({ type: "node", id: String(node.id) }) }, "Delete node")));
}

export function edgeForm(tree, edge, index, ops) {
  const set = (key) => (value) => { edge[key] = value; ops.changed(); };
  return h("div", { class: "stack", style: { gap: "12px" }, dataset: { inspect: "edge" } },
    ...section(`Edge ${edge.from} → ${edge.to}`),
    h("div", { class: "form-grid" },
      nodeSelect("From", tree.nodes, edge.from, (v) => { edge.from = v; ops.changed(true); }),
      nodeSelect("To", tree.nodes, edge.to, (v) => { edge.to = v; ops.changed(true); })),
    ...ACTION_LISTS.map(([key, label, hint]) => jsonField(label, edge[key] || [], set(key), hint)),
    h("div", { class: "toolbar" },
      h("button", { type: "button", class: "btn btn--sm btn--danger", onclick: () => ops.remove({ type: "edge", index }) }, "Delete edge")));
}

export function newNodeForm(tree, ops) {
  let id = "";
  let label = "";
  const error = h("span", { class: "field-error", role: "alert" });
  const form = h("form", { class: "stack", style: { gap: "12px" }, dataset: { inspect: "new-node" } },
    ...section("Add a node"),
    textField("Id", "", (v) => { id = v.trim(); }, { required: true, pattern: "[A-Za-z0-9_\\-/]+", "aria-label": "New node id" }),
    textField("Label", "", (v) => { label = v.trim(); }, { "aria-label": "New node label" }),
    error,
    h("div", { class: "toolbar" },
      h("button", { type: "submit", class: "btn btn--primary btn--sm" }, "Add node"),
      h("button", { type: "button", class: "btn btn--ghost btn--sm", onclick: () => ops.select(null) }, "Cancel")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!/^[A-Za-z0-9_\-/]+$/.test(id)) {
      error.textContent = "The id needs letters, digits, _, - or / only.";
      return;
    }
    if (tree.nodes.some((n) => String(n.id) === id)) {
      error.textContent = `There is already a node ${id}.`;
      return;
    }
    tree.nodes.push({ id, label: label || id, description: "", keywords: [], verifications: [] });
    ops.changed(true);
    ops.select({ type: "node", id });
  });
  return form;
}

export function newEdgeForm(tree, ops) {
  const edge = { from: tree.entry || tree.nodes[0]?.id, to: tree.nodes[1]?.id || tree.nodes[0]?.id, actions: [{ command: "press_key", params: { key: "OK" } }] };
  const error = h("span", { class: "field-error", role: "alert" });
  const form = h("form", { class: "stack", style: { gap: "12px" }, dataset: { inspect: "new-edge" } },
    ...section("Add an edge"),
    h("div", { class: "form-grid" },
      nodeSelect("From", tree.nodes, edge.from, (v) => { edge.from = v; }),
      nodeSelect("To", tree.nodes, edge.to, (v) => { edge.to = v; })),
    jsonField("Actions", edge.actions, (v) => { edge.actions = v; }, "at least one {command, params}"),
    error,
    h("div", { class: "toolbar" },
      h("button", { type: "submit", class: "btn btn--primary btn--sm" }, "Add edge"),
      h("button", { type: "button", class: "btn btn--ghost btn--sm", onclick: () => ops.select(null) }, "Cancel")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (edge.from === edge.to) {
      error.textContent = "An edge joins two different nodes.";
      return;
    }
    if (!edge.actions.length) {
      error.textContent = "An edge needs at least one action.";
      return;
    }
    tree.edges = tree.edges || [];
    tree.edges.push({ ...edge, reverse_actions: [] });
    ops.changed(true);
    ops.select({ type: "edge", index: tree.edges.length - 1 });
  });
  return form;
}

export function treeForm(tree, ops, replaceTree) {
  const isTree = (v) => v && typeof v === "object" && !Array.isArray(v) && Array.isArray(v.nodes);
  return h("div", { class: "stack", style: { gap: "12px" }, dataset: { inspect: "tree" } },
    ...section("Tree"),
    h("p", { class: "muted small", style: { margin: 0 } }, "Select a node or an edge in the graph to edit it, or change the tree below. Save sends it to the server, which checks it and pushes it to the hosts."),
    h("div", { class: "kv" },
      h("span", null, h("b", null, "Nodes "), String(tree.nodes.length)),
      h("span", null, h("b", null, "Edges "), String((tree.edges || []).length))),
    nodeSelect("Entry node", tree.nodes, tree.entry, (v) => { tree.entry = v; ops.changed(true); }),
    textField("Entry URL", tree.entry_url, (v) => { tree.entry_url = v; ops.changed(); }, { "aria-label": "Entry URL (web apps)" }),
    h("details", { class: "raw" }, h("summary", null, "Edit the whole tree as JSON"),
      jsonField("Tree", tree, (v) => replaceTree(v), "applied as you type when it is valid JSON with a nodes list", isTree)));
}
